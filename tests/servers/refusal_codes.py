"""A glossary server that refuses what it does not have, with the protocol's codes or with code 0.

`python tests/servers/refusal_codes.py [--code-zero] [--http PORT]`. One read-only tool
(`define(term)`), one resource (`glossary://terms`, every term as JSON) and one prompt
(`explain(term)`, the argument required). An unknown resource, an unknown prompt and a prompt
request without its argument are refused with a JSON-RPC error: -32002 for the resource and -32602
for the prompt requests in the correct twin; code 0 for all three with `--code-zero`, as servers
built on the 1.x Python SDK answer every exception. An unknown tool is refused with -32602 in both.
Nothing is ever served that the server does not
have, so a code-0 refusal is still a refusal: one warning about its code, no finding of acceptance.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.types import ToolAnnotations
from pydantic import Field
from serving import exit_on_signals

TERMS = {"idempotent": "Doing it twice leaves the same state as doing it once.",
         "marker": "A unique string that makes a written record recognisable."}
TERMS_URI = "glossary://terms"


class Refusals:
    """Refuses before the SDK's own handlers run, with the codes the server was started with."""

    def __init__(self, code_zero: bool) -> None:
        self.resource_code = 0 if code_zero else -32002
        self.prompt_code = 0 if code_zero else -32602

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        params = ctx.params if isinstance(ctx.params, Mapping) else {}
        if ctx.method == "tools/call" and params.get("name") != "define":
            raise MCPError(-32602, f"Unknown tool: {params.get('name')}")
        if ctx.method == "resources/read" and params.get("uri") != TERMS_URI:
            raise MCPError(self.resource_code, f"Resource not found: {params.get('uri')}")
        if ctx.method == "prompts/get":
            if params.get("name") != "explain":
                raise MCPError(self.prompt_code, f"Unknown prompt: {params.get('name')}")
            if not isinstance((params.get("arguments") or {}).get("term"), str):
                raise MCPError(self.prompt_code, "Missing required argument: term")
        return await call_next(ctx)


def build_server(code_zero: bool) -> MCPServer:
    mcp = MCPServer("glossary", log_level="WARNING")
    mcp.middleware.append(Refusals(code_zero))

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
    def define(term: Annotated[str, Field(description="The term to look up.")]) -> str:
        """The glossary's definition of a term, or a note that it has none."""
        return TERMS.get(term, f"The glossary has no entry for {term!r}.")

    @mcp.resource(TERMS_URI, name="terms", mime_type="application/json",
                  description="Every term of the glossary with its definition, as a JSON object.")
    def terms() -> str:
        return json.dumps(TERMS)

    @mcp.prompt(description="Ask for a term of the glossary to be explained with an example.")
    def explain(term: Annotated[str, Field(description="The glossary term to explain.")]) -> str:
        return f"Explain {term!r} with one example. Definition: {TERMS.get(term, 'none yet')}"

    return mcp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code-zero", action="store_true", help="refuse with JSON-RPC error code 0")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT/mcp")
    args = parser.parse_args()
    mcp = build_server(args.code_zero)
    exit_on_signals()
    if args.http is None:
        mcp.run()
    else:
        mcp.run("streamable-http", host="127.0.0.1", port=args.http)


if __name__ == "__main__":
    main()
