"""What `hypothesis-mcp --help` shows besides the options: the panels they are grouped in, the
examples and the exit codes; and the command classes that keep help plain and light."""

from __future__ import annotations

from typing import Any

from typer import _click
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

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

  # in CI: the grading profile, and every gate decides the exit code
  hypothesis-mcp test "python server.py" --ci
  # smoke checks and probes that write (a disposable server!), gated for CI
  hypothesis-mcp test "python server.py" --smoke --probes --allow-writes --ci
  # a report only: exit 0 whatever it finds
  hypothesis-mcp test "python server.py" --exit-zero
  # a server over streamable HTTP, the report also as JSON
  hypothesis-mcp test https://host/mcp --token "$T" --json report.json
  # run a report's failures again after a fix
  hypothesis-mcp replay report.json

[b]Exit codes[/b]

  0    every gate passed (or --exit-zero)
  1    a blocking failure (a sure probe failure, a crash, a hang, a tool failing
       valid input), with or without --ci; with --ci a partial run too
  2    usage or configuration error
  3    the score is below --fail-under (wins when several gates fail)
  4    --smoke: a smoke check failed
  5    the server could not be started or reached
  130  interrupted by Ctrl-C, 143 by SIGTERM (a partial report is still written)

{DEFAULTS}"""


class PlainArgument(TyperArgument):
    """An argument whose help row shows its metavar alone, not a Python type such as `<list[str]>`."""

    def display_type_rich(self, ctx: _click.Context) -> str | None:
        return None if self.metavar else super().display_type_rich(ctx)


def _plain_help_option(option: TyperOption | None) -> TyperOption | None:
    """The help flag without a `<bool>` placeholder, and False when not given: typer builds a
    pydantic validator for a flag whose value is None, which alone made `test --help` load pydantic."""
    if option is not None:
        option.metavar, option.default = "", False
    return option


class PlainCommand(TyperCommand):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if type(param) is TyperArgument:
                param.__class__ = PlainArgument

    def get_help_option(self, ctx: _click.Context) -> TyperOption | None:
        return _plain_help_option(super().get_help_option(ctx))


class PlainGroup(TyperGroup):
    def get_help_option(self, ctx: _click.Context) -> TyperOption | None:
        return _plain_help_option(super().get_help_option(ctx))
