"""Text tools that all pass their text through one tokenizer: one crash or hang, on several tools.

The tokenizer packs a text's UTF-8 into a 16-byte buffer. Every call logs `tokenizer: TOOL called`
on stderr first, as many servers log each request. word_count, first_words and keywords take
text; sum_of takes only integers and never reaches the tokenizer. One bug changes the tokenizer:

- overflow-crash: a text over 16 bytes writes a traceback ending in `BufferError: tokenizer buffer
  overflow: N bytes into a 16-byte buffer` to stderr and ends the process (exit code 70), whichever
  tool it came through.
- overflow-stall: a text over 16 bytes logs `tokenizer: N bytes exceed the local buffer; waiting
  for the remote tokenizer` and waits for an answer that never comes: that call never answers,
  later calls are served. keywords hangs on such a text too, for a cause of its own and silently:
  it waits first for its cache, which nothing ever frees.

No bug: the correct twin, whose tokenizer takes any length. Invalid arguments get an isError
result; an unknown tool gets JSON-RPC error -32602.

    python tests/servers/shared_tokenizer.py [--bug NAME] [--http PORT]
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import anyio
import jsonschema
import serving
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

BUGS = ("overflow-crash", "overflow-stall")
BUFFER = 16
TEXT = {"type": "string", "maxLength": 5000, "description": "The text to work on."}
_READ = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
CATALOGUE = [
    types.Tool(name="word_count", description="How many words a text holds.", annotations=_READ,
               input_schema={"type": "object", "properties": {"text": TEXT}, "required": ["text"],
                             "additionalProperties": False}),
    types.Tool(name="first_words", description="The first `n` words of a text.", annotations=_READ,
               input_schema={"type": "object", "properties": {
                   "text": TEXT, "n": {"type": "integer", "minimum": 1, "maximum": 20, "description": "How many."}},
                   "required": ["text", "n"], "additionalProperties": False}),
    types.Tool(name="keywords", description="The distinct words of a text, sorted.", annotations=_READ,
               input_schema={"type": "object", "properties": {"text": TEXT}, "required": ["text"],
                             "additionalProperties": False}),
    types.Tool(name="sum_of", description="The sum of two integers.", annotations=_READ,
               input_schema={"type": "object", "properties": {
                   "a": {"type": "integer", "description": "The first term."},
                   "b": {"type": "integer", "description": "The second term."}},
                   "required": ["a", "b"], "additionalProperties": False}),
]


class Tokenizer:
    def __init__(self, bug: str | None) -> None:
        self.bug = bug
        self.remote = anyio.Event()
        """The remote tokenizer's answer: it never comes."""
        self.cache = anyio.Event()
        """keywords' cache, freed by nothing."""

    async def words(self, text: str) -> list[str]:
        size = len(text.encode())
        if size > BUFFER and self.bug == "overflow-crash":
            sys.stderr.write("Traceback (most recent call last):\n  File \"tokenizer.py\", line 41, in pack\n"
                             f"BufferError: tokenizer buffer overflow: {size} bytes into a {BUFFER}-byte buffer\n")
            sys.stderr.flush()
            os._exit(70)
        if size > BUFFER and self.bug == "overflow-stall":
            print(f"tokenizer: {size} bytes exceed the local buffer; waiting for the remote tokenizer",
                  file=sys.stderr, flush=True)
            await self.remote.wait()
        return text.split()


def build_server(bug: str | None = None) -> Server[Any]:
    tokenizer = Tokenizer(bug)
    tools = {t.name: t for t in CATALOGUE}

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=CATALOGUE)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in tools:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        print(f"tokenizer: {params.name} called", file=sys.stderr, flush=True)
        arguments = params.arguments or {}
        error = jsonschema.exceptions.best_match(
            jsonschema.Draft202012Validator(tools[params.name].input_schema).iter_errors(arguments))
        if error is not None:
            return types.CallToolResult(content=[types.TextContent(type="text", text=f"Invalid: {error.message}")],
                                        is_error=True)
        if params.name == "sum_of":
            answer: Any = {"sum": arguments["a"] + arguments["b"]}
        else:
            if params.name == "keywords" and bug == "overflow-stall" and len(arguments["text"].encode()) > BUFFER:
                await tokenizer.cache.wait()
            words = await tokenizer.words(arguments["text"])
            answer = {"word_count": {"words": len(words)}, "first_words": {"words": words[:arguments.get("n", 0)]},
                      "keywords": {"words": sorted(set(words))}}[params.name]
        return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(answer))])

    return Server("shared-tokenizer", version=f"1.0.0+{bug or 'twin'}", on_list_tools=list_tools,
                  on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    serving.main(build_server, BUGS, __doc__ or "", argv)


if __name__ == "__main__":
    main()
