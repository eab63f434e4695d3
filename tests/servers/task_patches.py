"""Tasks changed by patches: an update-only write whose record another tool creates.

Every tool but one is annotated (no verb in `task_new` or `task_patch` says it writes); ids are
integers counted from 1, answered in structuredContent one level down.
- task_new(title, note?): creates a task; answers {"created": {"task_id", "title", "note", "done"}}.
- task_patch(task_id, note): replaces the task's note; an unknown id is refused (isError).
- task_brief(task_id): no annotation and no verb, but its description says it is read-only: the
  text "#<id> <title>: <note>"; an unknown id is refused.
- task_show(task_id): the task as structuredContent; an unknown id is refused.
- task_close(task_id): marks the task done; it takes no text.

`--bug keeps-note`: task_patch answers {"ok": true} and keeps the old note. `--bug drops-title`:
task_patch stores the new note and empties the title.

    python tests/servers/task_patches.py [--bug keeps-note|drops-title]
"""

from __future__ import annotations

import itertools
from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp.types import ToolAnnotations
from pydantic import Field

BUGS = ("keeps-note", "drops-title")
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False)
READS = ToolAnnotations(read_only_hint=True)


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("task-patches", log_level="WARNING")
    tasks: dict[int, dict[str, Any]] = {}
    ids = itertools.count(1)

    def task(task_id: int) -> dict[str, Any]:
        if task_id not in tasks:
            raise MCPError(-32602, f"no task {task_id}")
        return tasks[task_id]

    @mcp.tool(annotations=WRITES)
    def task_new(title: Annotated[str, Field(description="What is to be done.")],
                 note: Annotated[str, Field(description="Anything worth remembering.")] = "") -> dict[str, Any]:
        """Creates a task."""
        task_id = next(ids)
        tasks[task_id] = {"task_id": task_id, "title": title, "note": note, "done": False}
        return {"created": dict(tasks[task_id])}

    @mcp.tool(annotations=WRITES)
    def task_patch(task_id: Annotated[int, Field(description="The task to change.")],
                   note: Annotated[str, Field(description="The new note.")]) -> dict[str, Any]:
        """Replaces the note of a task."""
        found = task(task_id)
        if bug == "keeps-note":
            return {"ok": True}
        found["note"] = note
        if bug == "drops-title":
            found["title"] = ""
        return {"ok": True, "task": dict(found)}

    @mcp.tool()
    def task_brief(task_id: Annotated[int, Field(description="The task's id.")]) -> str:
        """One line about a task, read-only: its title and note."""
        found = task(task_id)
        return f"#{task_id} {found['title']}: {found['note']}"

    @mcp.tool(annotations=READS)
    def task_show(task_id: Annotated[int, Field(description="The task's id.")]) -> dict[str, Any]:
        """One task with its title, note and state."""
        return dict(task(task_id))

    @mcp.tool(annotations=WRITES)
    def task_close(task_id: Annotated[int, Field(description="The task to mark done.")]) -> str:
        """Marks a task done."""
        task(task_id)["done"] = True
        return f"task {task_id} done"

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
