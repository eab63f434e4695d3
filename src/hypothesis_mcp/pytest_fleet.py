"""`pytest --mcp-config FILE`: every server of a client config (or list file of targets) as test
items, one per check family, so pytest-xdist spreads a fleet over cores (`-n auto --dist loadgroup`)
and over machines with its remote workers.

The items of one server share one grading run, kept per process: the run `hypothesis-mcp test
--config FILE --server NAME --ci --smoke --probes` makes, so its grade is the one the command line
gives. Under `--dist loadgroup` each item's id ends with `@` and its server's group, the key xdist
schedules by: one worker gets all of a server's items and grades it once. xdist reads an
`xdist_group` mark and appends the group to the item's `_nodeid`, an attribute pytest 9 no longer
reads its id from (the id is built from the item's name), so the mark alone groups nothing there:
the group goes into the item's name instead, and only under loadgroup, where xdist would have put it
(without xdist, or under another `--dist`, ids stay `CONFIG::SERVER::FAMILY`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from hypothesis_mcp.engine import RunOptions
from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.fleet import Member, grade_member, load_members
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.results import Report, Result, ServerGrade
from hypothesis_mcp.snippet import program

FAMILIES = ("smoke", "scenarios", "probes", "resources-prompts")
_GRADES = pytest.StashKey[dict[str, ServerGrade]]()


def add_options(group: pytest.OptionGroup) -> None:
    group.addoption("--mcp-config", default=None, help="A client config (or a file of targets, one per line): "
                    "each server becomes test items, one per check family, graded once per server.")
    group.addoption("--mcp-max-examples", default=None, type=int, help="Examples per tool and check for "
                    "--mcp-config's grading runs.")
    group.addoption("--mcp-allow-writes", action="store_true", default=False, help="Let --mcp-config's effect "
                    "probes call write tools (point them at disposable servers).")
    group.addoption("--mcp-allow-deletes", action="store_true", default=False, help="With --mcp-allow-writes: "
                    "let the deletes probe call deleting tools, only on records the run itself wrote.")


def family_results(report: Report, family: str) -> list[Result]:
    """The results a family's item judges; a crash several checks met fails each of their items."""
    surfaces = {c.get("check_id") for c in report.smoke.surfaces}
    is_surface = {id(r) for r in report.results if r.kind == "smoke" and r.tool is None and r.check in surfaces}
    kinds = {"smoke": ("smoke",), "scenarios": ("scenario", "lint"), "probes": ("probe",),
             "resources-prompts": ("smoke",)}[family]
    return [r for r in report.results if r.kind in kinds and (id(r) in is_surface) == (family == "resources-prompts")]


class ServerFailure(Exception):
    """A family's failures, shown as they are rather than as a traceback."""


class ServerItem(pytest.Item):
    def __init__(self, *, member: Member, family: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.member = member
        self.family = family

    def runtest(self) -> None:
        grade = _graded(self.config, self.member)
        self.user_properties += [("exit", grade.exit), ("graded_by", os.getpid())]
        if grade.report is None:
            raise ServerFailure(f"{self.member.name} was not graded (exit {grade.exit}): {grade.error}")
        self.user_properties += [("grade", grade.report.grade), ("score", grade.report.score)]
        found = family_results(grade.report, self.family)
        if not found:
            pytest.skip(f"no {self.family} check ran on {self.member.name}")
        failed = [r for r in found if r.status == "fail"]
        if failed:
            lines = [line for r in failed for line in self._failure(r, grade.report)]
            raise ServerFailure(f"{self.member.name}: {len(failed)} {self.family} failure(s), grade "
                                f"{grade.report.grade} ({grade.report.score:g}%)\n" + "\n".join(lines))

    def _failure(self, result: Result, report: Report) -> list[str]:
        """A failure's line, then its reproduction as the program the console prints."""
        head = f"- {result.rule} on {result.subject} ({result.confidence} confidence): {result.message}"
        if result.reproduction is None or not result.reproduction.calls:
            return [head]
        target = self.member.target
        env = None if target is None or target.is_url else target.env
        return [head, *(f"    {line}" for line in program(result, report.target, env=env))]

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ServerFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"{self.member.name} {self.family}"


class ServerNode(pytest.Collector):
    """One server of the config: its items are `CONFIG::SERVER::FAMILY`, and `...::FAMILY@GROUP`
    under `--dist loadgroup`."""

    def __init__(self, *, member: Member, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.member = member

    def collect(self) -> list[pytest.Item]:
        suffix = f"@{group(self.member.name)}" if getattr(self.config.option, "loadgroup", False) else ""
        return [ServerItem.from_parent(self, name=f"{family}{suffix}", member=self.member, family=family)
                for family in FAMILIES]


class ConfigFile(pytest.File):
    def collect(self) -> list[ServerNode]:
        try:
            members = load_members(self.path)
        except UsageError as exc:
            raise pytest.UsageError(str(exc)) from None
        return [ServerNode.from_parent(self, name=m.name, member=m) for m in members]


def group(name: str) -> str:
    """The server's xdist group: its name, with what would end the group key early made harmless."""
    return re.sub(r"[@\]\[\s:]", "_", name)


def _graded(config: pytest.Config, member: Member) -> ServerGrade:
    grades = config.stash.setdefault(_GRADES, {})
    if member.name not in grades:
        timeout = config.getoption("--mcp-timeout") or 30.0
        options = RunOptions(profile=make_profile("grading", max_examples=config.getoption("--mcp-max-examples")),
                             smoke=True, probes=True, allow_writes=config.getoption("--mcp-allow-writes"),
                             allow_deletes=config.getoption("--mcp-allow-deletes"),
                             timeout=timeout, startup_timeout=timeout)
        grades[member.name] = grade_member(member, options, None, ci=True)
    return grades[member.name]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Before xdist names the groups and before `-k` selects: the config's items join the others."""
    path = config.getoption("--mcp-config")
    if path:
        servers = ConfigFile.from_parent(session, path=Path(path).resolve()).collect()
        items.extend(item for server in servers for item in server.collect())
