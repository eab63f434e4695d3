"""What `hypothesis-mcp --help` shows besides the options: the panels they are grouped in, the
examples and the exit codes. Text only, so help loads nothing heavy."""

from __future__ import annotations

TARGET = "Target"
CHECKS = "Checks"
WRITES = "Writes"
BUDGET = "Search budget"
OUTPUTS = "Outputs"
GATES = "CI gates"

ANNOTATION_FORMATS = ("github",)
"""`--annotations` formats (report/annotations.py), named here so help loads no report format."""

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}

DEFAULTS = ("A default shown here that differs from the built-in one comes from the tool.hypothesis-mcp "
            "table of pyproject.toml or from hypothesis-mcp.toml (docs/config.md); a flag wins over it.")

TEST_EPILOG = f"""[b]Examples[/b]

  # lint and scenarios, calling read-only tools only
  hypothesis-mcp test "python server.py"
  # smoke checks, probes that write (a disposable server!), gated for CI
  hypothesis-mcp test "python server.py" --smoke --probes --allow-writes --ci
  # a server over streamable HTTP, the report also as JSON
  hypothesis-mcp test https://host/mcp --token "$T" --json report.json
  # run a report's failures again after a fix
  hypothesis-mcp replay report.json

[b]Exit codes[/b]

  0    every gate passed
  1    --ci: a blocking failure (a sure probe failure, a crash, a tool failing
       valid input) or a partial run
  2    usage or configuration error
  3    the score is below --fail-under (wins when several gates fail)
  4    --smoke: a smoke check failed
  5    the server could not be started or reached
  130  interrupted (a partial report is still written)

{DEFAULTS}"""
