"""A task ledger shaped like the stores that misled effect probes, for the probe heuristics.

No annotations; every tool sits behind the `ledger_` prefix.
- ledger_put_task(summary, grade?, task_id?): an upsert. Without task_id it creates a task and
  answers its new id; with one it changes that task, and an unknown id is refused (isError).
  grade is one capital letter A to E (described so, no enum): anything else is refused.
- ledger_task(task_id) and ledger_tasks(): read one task, or every task as a JSON list.
- ledger_close_task(task_id): marks an existing task closed; an unknown id is refused.
- ledger_jot(text): keeps a jotting that no tool shows, only the resource `ledger://jottings`.

The correct twin keeps everything. `--bug loses-jottings` answers ledger_jot with success and
keeps nothing; `--bug loses-summaries` stores every task with an empty summary.

    python tests/servers/task_ledger.py [--bug loses-jottings|loses-summaries]
"""

from __future__ import annotations

import json
import uuid
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from pydantic import Field

BUGS = ("loses-jottings", "loses-summaries")


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("task-ledger", log_level="WARNING")
    tasks: dict[str, dict[str, object]] = {}
    jottings: list[str] = []

    @mcp.tool()
    def ledger_put_task(
        summary: Annotated[str, Field(description="What the task is about.")],
        grade: Annotated[str | None, Field(description="Importance: one capital letter, A to E.")] = None,
        task_id: Annotated[str | None, Field(description="Leave empty to create a task; give it to change one.")]
        = None,
    ) -> str:
        """Creates a task, or changes the task with this id."""
        if grade is not None and (len(grade) != 1 or grade not in "ABCDE"):
            raise MCPError(-32602, "grade must be one capital letter from A to E")
        if task_id is not None and task_id not in tasks:
            raise MCPError(-32602, f"no task {task_id}")
        key = task_id or uuid.uuid4().hex[:12]
        tasks[key] = {"task_id": key, "summary": "" if bug == "loses-summaries" else summary,
                      "grade": grade, "closed": False}
        return f"task {key} saved"

    @mcp.tool()
    def ledger_task(task_id: Annotated[str, Field(description="The task's id.")]) -> str:
        """Shows one task."""
        if task_id not in tasks:
            raise MCPError(-32602, f"no task {task_id}")
        return json.dumps(tasks[task_id])

    @mcp.tool()
    def ledger_tasks() -> str:
        """Lists every task."""
        return json.dumps(list(tasks.values()))

    @mcp.tool()
    def ledger_close_task(task_id: Annotated[str, Field(description="The task's id.")]) -> str:
        """Marks a task closed."""
        if task_id not in tasks:
            raise MCPError(-32602, f"no task {task_id}")
        tasks[task_id]["closed"] = True
        return f"task {task_id} closed"

    @mcp.tool()
    def ledger_jot(text: Annotated[str, Field(description="A thought to keep.")]) -> str:
        """Keeps a jotting; the ledger://jottings resource shows them."""
        if bug != "loses-jottings":
            jottings.append(text)
        return "kept"

    @mcp.resource("ledger://jottings", name="jottings", mime_type="text/plain",
                  description="Every jotting, one a line.")
    def read_jottings() -> str:
        return "\n".join(jottings)

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
