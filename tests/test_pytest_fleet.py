"""`pytest --mcp-config FILE`: a config's servers as test items, spread by pytest-xdist.

One inner pytest session, run as a user would (`-n 2 --dist loadgroup`), over three real servers:
smoke_bugs with a bug (long-list), its correct twin, and one that dies at start. Beside it, the
command line grades the buggy server alone with the options the items use, for the grade to
compare. The assertions do not depend on how many examples ran.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from helpers import PYTHON, STORAGE, Cli, CliRun, smoke_bugs

SERVERS = {
    "long-list": smoke_bugs("long-list"),
    "smoke-twin": smoke_bugs(),
    "dead": [PYTHON, "-c", "import sys; sys.exit(3)"],
}
FAMILIES = ("smoke", "scenarios", "probes", "resources-prompts")


def _cases(path: Path) -> dict[str, ET.Element]:
    """The cases as SERVER[FAMILY], each checked to be in its server's xdist group."""
    cases = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        server = case.get("classname", "").rsplit(".", 1)[-1]
        family, _, group = case.get("name", "").partition("@")
        assert group == server, f"{server}'s {family} item is in the xdist group {group!r}"
        cases[f"{server}[{family}]"] = case
    return cases


def _props(case: ET.Element) -> dict[str, str]:
    return {p.get("name", ""): p.get("value", "") for p in case.iter("property")}


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path, CliRun]:
    folder = tmp_path_factory.mktemp("fleet")
    config = folder / "servers.json"
    config.write_text(json.dumps({"mcpServers": {name: {"command": argv[0], "args": argv[1:]}
                                                 for name, argv in SERVERS.items()}}), encoding="utf-8")
    alone = Cli(["test", "--config", str(config), "--server", "long-list", "--ci", "--smoke", "--probes",
                 "--max-examples", "5"], folder, json_report=True)
    env = {**os.environ, "HYPOTHESIS_STORAGE_DIRECTORY": str(STORAGE), "PYTEST_ADDOPTS": ""}
    inner = subprocess.run(
        [PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "--mcp-config", str(config), "--mcp-max-examples", "5",
         "-n", "2", "--dist", "loadgroup", "--junitxml", str(folder / "items.xml"), "-q"],
        cwd=folder, env=env, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    return inner, folder / "items.xml", alone.wait()


def test_each_server_is_one_item_per_check_family(session: tuple[subprocess.CompletedProcess[str], Path,
                                                                 CliRun]) -> None:
    inner, junit, _ = session
    cases = _cases(junit)
    assert sorted(cases) == sorted(f"{name}[{family}]" for name in SERVERS for family in FAMILIES), inner.stdout
    assert inner.returncode == 1, inner.stdout[-3000:]
    for family in FAMILIES:
        dead = cases[f"dead[{family}]"]
        assert dead.find("failure") is not None and "not graded (exit 5)" in dead.find("failure").get("message", "")
        assert cases[f"smoke-twin[{family}]"].find("failure") is None, f"the correct twin fails {family}"
    failure = cases["long-list[scenarios]"].find("failure")
    assert failure is not None and "count_items" in (failure.text or "") + failure.get("message", ""), inner.stdout
    shown = failure.text or ""
    assert "from hypothesis_mcp import connect, holds" in shown, "a failure carries its reproduction"
    assert f"with connect({json.dumps(shlex.join(SERVERS['long-list']))}) as server:" in shown, shown
    assert "    assert holds(server, " in shown, shown
    assert "Traceback" not in inner.stdout


def test_a_servers_items_share_one_grading_run_with_the_command_lines_grade(
        session: tuple[subprocess.CompletedProcess[str], Path, CliRun]) -> None:
    inner, junit, alone = session
    assert alone.report is not None, alone
    cases = _cases(junit)
    for name in SERVERS:
        graded_by = {_props(cases[f"{name}[{family}]"])["graded_by"] for family in FAMILIES}
        assert len(graded_by) == 1, f"{name}'s items ran in {graded_by}: --dist loadgroup keeps them on one worker"
    props = _props(cases["long-list[smoke]"])
    assert (props["grade"], float(props["score"])) == (alone.report["grade"], alone.report["score"]), inner.stdout
    assert int(props["exit"]) == alone.code


def test_ids_carry_the_group_only_under_loadgroup(tmp_path: Path) -> None:
    """Without xdist, ids are CONFIG::SERVER::FAMILY; the session above shows `@SERVER` under loadgroup."""
    config = tmp_path / "servers.json"
    twin = SERVERS["smoke-twin"]
    config.write_text(json.dumps({"mcpServers": {"smoke-twin": {"command": twin[0], "args": twin[1:]}}}),
                      encoding="utf-8")
    env = {**os.environ, "PYTEST_ADDOPTS": ""}
    listed = subprocess.run([PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "--mcp-config", str(config),
                             "--collect-only", "-q"], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=120, stdin=subprocess.DEVNULL)
    ids = [line for line in listed.stdout.splitlines() if "::" in line]
    assert sorted(ids) == sorted(f"servers.json::smoke-twin::{family}" for family in FAMILIES), listed.stdout
