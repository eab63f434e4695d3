"""JUnit XML for CI test tabs: one suite per kind of check, one test case per result.

Failures carry the message, basis, fix and reproduction; skips and inconclusive results are
skipped cases; warnings pass and put their finding on system-out so nothing is lost.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from hypothesis_mcp.report.issues import fix_of, format_call, reproduction_origin, waived_line
from hypothesis_mcp.results import Report, Result

KINDS = ("scenario", "smoke", "probe", "lint", "incident")
# Characters XML 1.0 cannot carry at all; server output may contain them.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def render_junit(report: Report) -> str:
    """The report as a JUnit XML document (every kind gets a suite, empty ones included)."""
    root = ET.Element("testsuites", name="hypothesis-mcp", time=f"{report.stats.duration_s:.3f}")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for kind in KINDS:
        suite = _suite(report, kind)
        root.append(suite)
        for key in totals:
            totals[key] += int(suite.get(key, "0"))
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _suite(report: Report, kind: str) -> ET.Element:
    results = [r for r in report.results if r.kind == kind]
    suite = ET.Element(
        "testsuite", name=f"hypothesis-mcp.{kind}", tests=str(len(results)),
        failures=str(sum(r.status == "fail" and r.covered_by is None for r in results)), errors="0",
        skipped=str(sum(r.status in ("skip", "inconclusive", "waived")
                        or (r.status == "fail" and r.covered_by is not None) for r in results)),
        time="0",
    )
    suite.append(properties(report))
    for result in results:
        suite.append(testcase(result))
    return suite


def properties(report: Report) -> ET.Element:
    """What a suite was run against, as JUnit properties."""
    element = ET.Element("properties")
    seed = "" if report.seed is None else str(report.seed)
    for name, value in (("target", report.target), ("server", report.server.get("name", "")),
                        ("profile", report.profile), ("seed", seed), ("partial", str(report.partial).lower()),
                        ("partial_reason", report.partial_reason or "")):
        ET.SubElement(element, "property", name=name, value=clean(value))
    return element


def testcase(result: Result) -> ET.Element:
    case = ET.Element(
        "testcase", classname=f"{result.kind}.{result.check}",
        name=clean(f"{result.subject} {result.rule}"), time="0", id=clean(result.id),
    )
    if result.status == "fail" and result.covered_by is not None:
        once = "incident " if result.details.get("incident") else ""
        ET.SubElement(case, "skipped", message=clean(f"failed by {result.rule}, reported once as {once}"
                                                      f"{result.covered_by}: {result.message}"))
    elif result.status == "fail":
        failure = ET.SubElement(case, "failure", message=clean(result.message), type=result.rule)
        failure.text = clean(_details(result))
    elif result.status == "waived":
        ET.SubElement(case, "skipped", message=clean(f"waived: {waived_line(result)}"))
    elif result.status in ("skip", "inconclusive"):
        prefix = "inconclusive: " if result.status == "inconclusive" else ""
        ET.SubElement(case, "skipped", message=clean(prefix + result.message))
    elif result.status == "warn":
        ET.SubElement(case, "system-out").text = clean(f"warning ({result.rule}): {_details(result)}")
    return case


def _details(result: Result) -> str:
    lines = [result.message, f"confidence: {result.confidence}"]
    if result.basis:
        lines.append(f"basis: {result.basis}")
    lines.append(f"fix: {fix_of(result)}")
    if result.reproduction and result.reproduction.calls:
        lines.append(f"reproduction, {reproduction_origin(result.reproduction.fresh_server)}:")
        lines.extend("  " + format_call(i, call) for i, call in enumerate(result.reproduction.calls, 1))
    return "\n".join(lines)


def clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)
