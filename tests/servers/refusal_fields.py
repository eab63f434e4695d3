"""Stores whose answers carry a `state` member: refusals in one, ordinary data in the other.

- desk (PascalCase): PutSecret(label, value) keeps one value per label and answers {"state":
  "stored", ...}; ReadSecret(label) answers {"state": "found", ...}; ListSecrets() lists labels. An
  empty label or value, and a label never stored, are refused with {"state": "denied", "detail":
  ...} and isError false: a shape no fixed rule knows, which calibration must learn.
- requests (snake): file_request(requester, state, note) keeps a request whose `state` the caller
  picks ("granted", "denied" or "pending") and answers it; show_request(request_id) answers one,
  list_requests() all. Its refusals set isError: a `state` of "denied" in its answers is data, the
  control that must not be read as a refusal.

    python tests/servers/refusal_fields.py --store NAME
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections.abc import Callable
from typing import Annotated, Literal

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

Text = Annotated[str, Field(max_length=200)]


def desk(mcp: MCPServer) -> None:
    secrets: dict[str, str] = {}

    def denied(detail: str) -> str:
        return json.dumps({"state": "denied", "detail": detail})

    @mcp.tool(name="PutSecret", description="Store a secret value under a label (replacing any before).",
              structured_output=False)
    def put(label: Text, value: Text) -> str:
        if not label.strip() or not value.strip():
            return denied("label and value must not be blank")
        secrets[label] = value
        return json.dumps({"state": "stored", "label": label})

    @mcp.tool(name="ReadSecret", description="The secret stored under a label.", structured_output=False)
    def read(label: str) -> str:
        if label not in secrets:
            return denied(f"nothing is stored under {label!r}")
        return json.dumps({"state": "found", "label": label, "value": secrets[label]})

    @mcp.tool(name="ListSecrets", description="Lists every stored label.", structured_output=False)
    def every() -> str:
        return json.dumps({"state": "listed", "labels": sorted(secrets)})


def requests(mcp: MCPServer) -> None:
    kept: dict[int, dict[str, object]] = {}
    ids = itertools.count(1)

    @mcp.tool(name="file_request", description="File an access request in the given state.",
              structured_output=False)
    def file(requester: Text, state: Literal["granted", "denied", "pending"], note: Text) -> str:
        request = {"request_id": next(ids), "requester": requester, "state": state, "note": note}
        kept[int(request["request_id"])] = request  # type: ignore[call-overload]
        return json.dumps(request)

    @mcp.tool(name="show_request", description="One access request by its id.", structured_output=False)
    def show(request_id: int) -> str:
        if request_id not in kept:
            raise ToolError(f"no request {request_id}")
        return json.dumps(kept[request_id])

    @mcp.tool(name="list_requests", description="Lists every access request.", structured_output=False)
    def every() -> str:
        return json.dumps(list(kept.values()))


STORES: dict[str, Callable[[MCPServer], None]] = {"desk": desk, "requests": requests}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--store", choices=sorted(STORES), required=True)
    args = parser.parse_args()
    serving.exit_on_signals()
    mcp = MCPServer(f"refusal-{args.store}", log_level="WARNING")
    STORES[args.store](mcp)
    mcp.run()


if __name__ == "__main__":
    main()
