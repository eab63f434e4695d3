"""Correct stores whose behaviour a guess gets wrong, each with a buggy twin (issue: learn by experiment).

Every store is its own server (`--store NAME`); `--bug` switches on its twin's one bug.

- queue (camelCase): enqueueJob(name, payload) appends a job with a server-made id, even for a
  name already queued; listJobs() shows every job, getJob(jobId) one. Bug: every third job is
  dropped though its id is answered.
- shelf (dotted): shelf.put(title, bin, text) keeps one item per bin (an integer): a second put to
  the same bin replaces it, whatever its title; shelf.items() shows all. Bug: a put to a bin
  already filled keeps the old item.
- contacts (snake): add_contact(name, phone) appends; get_contact(name) returns the first contact
  of that name; list_contacts() shows all. Bug: get_contact cuts a phone to 20 characters.
- readonly (snake): save_item(title, body) always fails with {"error": true, "error_type": ...,
  "message": ...} and isError false; list_items() is empty. Bug: it answers {"ok": true} and keeps
  nothing.
- ledger (kebab): put-entry(key, value) keeps a value per key; an empty value is refused with
  {"success": false, "reason": ...}; get-entry(key) of a missing key answers {"status": "error", ...}.
  Bug: a value longer than 40 characters is stored cut.
- bookmarks (camelCase): createBookmark(url, title, note) keeps one bookmark per url, replacing;
  listBookmarks() and getBookmark(url). Bug: a second create for a url keeps the old bookmark.
- journal (dotted): journal.append(title, text) keeps each write as a new entry and answers
  {"id": ...}; journal.entries() lists all. Bug: every fourth entry drops the two before it.
- catalog (camelCase): upsertProduct(sku, name, blurb) keyed by sku; listProducts() shows all.
  Bug: every third upsert is not kept, though it answers "saved".
- devices (dotted): device.register(serial, label) keeps one device per serial, at most six, and
  refuses a serial already registered, an empty one, or a seventh device, with {"outcome":
  "rejected", "why": ...} and isError false (a shape no fixed rule knows); device.lookup(serial)
  refuses an unknown serial the same way; device.all() lists every device. Bug: every third
  registration is not kept, though it answers {"outcome": "registered"}.

    python tests/servers/learned_stores.py --store NAME [--bug]
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

Text = Annotated[str, Field(max_length=400)]


def queue(mcp: MCPServer, bug: bool) -> None:
    jobs: list[dict[str, Any]] = []
    ids = itertools.count(101)

    @mcp.tool(name="enqueueJob", description="Queue a job; every call makes a new job and answers its id.",
              structured_output=False)
    def enqueue(name: Annotated[str, Field(description="What the job is called.")],
                payload: Annotated[str, Field(description="What the job carries.")]) -> str:
        job_id = next(ids)
        if not (bug and job_id % 3 == 0):
            jobs.append({"jobId": job_id, "name": name, "payload": payload})
        return json.dumps({"jobId": job_id})

    @mcp.tool(name="listJobs", description="Every queued job, oldest first.", structured_output=False)
    def list_jobs() -> str:
        return json.dumps(jobs)

    @mcp.tool(name="getJob", description="One job by its id.", structured_output=False)
    def get_job(jobId: int) -> str:
        found = next((j for j in jobs if j["jobId"] == jobId), None)
        if found is None:
            raise ToolError(f"no job {jobId}")
        return json.dumps(found)


def shelf(mcp: MCPServer, bug: bool) -> None:
    bins: dict[int, dict[str, Any]] = {}

    @mcp.tool(name="shelf.put", description="Put an item in a bin; a bin holds one item.", structured_output=False)
    def put(title: Text, bin: Annotated[int, Field(ge=0, le=1000)], text: Text) -> str:
        if not (bug and bin in bins):
            bins[bin] = {"bin": bin, "title": title, "text": text}
        return "stored"

    @mcp.tool(name="shelf.list", description="Lists every item on the shelf.", structured_output=False)
    def items() -> str:
        return json.dumps([bins[b] for b in sorted(bins)])


def contacts(mcp: MCPServer, bug: bool) -> None:
    people: list[dict[str, str]] = []

    @mcp.tool(description="Add a contact; two contacts may share a name.", structured_output=False)
    def add_contact(name: Text, phone: Text) -> str:
        people.append({"name": name, "phone": phone})
        return f"added contact #{len(people)}"

    @mcp.tool(description="The first contact with this name.", structured_output=False)
    def get_contact(name: str) -> str:
        found = next((p for p in people if p["name"] == name), None)
        if found is None:
            raise ToolError(f"no contact named {name!r}")
        return json.dumps({**found, "phone": found["phone"][:20]} if bug else found)

    @mcp.tool(description="Every contact.", structured_output=False)
    def list_contacts() -> str:
        return json.dumps(people)


def readonly(mcp: MCPServer, bug: bool) -> None:
    @mcp.tool(description="Save an item (this deployment is read-only).", structured_output=False)
    def save_item(title: Text, body: Text) -> str:
        if bug:
            return json.dumps({"ok": True})
        return json.dumps({"error": True, "error_type": "ReadOnlyDeployment",
                           "message": "this deployment does not accept writes"})

    @mcp.tool(description="Every saved item.", structured_output=False)
    def list_items() -> str:
        return json.dumps([])


def ledger(mcp: MCPServer, bug: bool) -> None:
    values: dict[str, str] = {}

    @mcp.tool(name="put-entry", description="Keep a value under a key.", structured_output=False)
    def put_entry(key: Text, value: Text) -> str:
        if not value.strip():
            return json.dumps({"success": False, "reason": "an empty value is not kept"})
        values[key] = value[:40] if bug else value
        return json.dumps({"success": True})

    @mcp.tool(name="get-entry", description="The value under a key.", structured_output=False)
    def get_entry(key: str) -> str:
        if key not in values:
            return json.dumps({"status": "error", "message": f"no entry {key!r}"})
        return json.dumps({"key": key, "value": values[key]})


def bookmarks(mcp: MCPServer, bug: bool) -> None:
    marks: dict[str, dict[str, str]] = {}

    @mcp.tool(name="createBookmark", description="Keep a bookmark; one per url, a second replaces it.",
              structured_output=False)
    def create(url: Text, title: Text, note: Text) -> str:
        if not (bug and url in marks):
            marks.pop(url, None)
            marks[url] = {"url": url, "title": title, "note": note}
        return "ok"

    @mcp.tool(name="listBookmarks", description="Every bookmark.", structured_output=False)
    def list_marks() -> str:
        return json.dumps(list(marks.values()))

    @mcp.tool(name="getBookmark", description="The bookmark of a url.", structured_output=False)
    def get_mark(url: str) -> str:
        if url not in marks:
            raise ToolError(f"no bookmark for {url!r}")
        return json.dumps(marks[url])


def journal(mcp: MCPServer, bug: bool) -> None:
    entries: list[dict[str, Any]] = []
    ids = itertools.count(1)

    @mcp.tool(name="journal.append", description="Add an entry; every call adds one and answers its id.",
              structured_output=False)
    def append(title: Text, text: Text) -> str:
        entry = {"id": f"e-{next(ids)}", "title": title, "text": text}
        if bug and len(entries) % 4 == 3:
            del entries[-2:]
        entries.append(entry)
        return json.dumps({"id": entry["id"]})

    @mcp.tool(name="journal.entries", description="Lists every entry, oldest first.", structured_output=False)
    def all_entries() -> str:
        return json.dumps(entries)


def catalog(mcp: MCPServer, bug: bool) -> None:
    products: dict[str, dict[str, str]] = {}
    upserts = 0

    @mcp.tool(name="upsertProduct", description="Create or replace the product with this sku.",
              structured_output=False)
    def upsert(sku: Text, name: Text, blurb: Text) -> str:
        nonlocal upserts
        upserts += 1
        if not (bug and upserts % 3 == 0):
            products.pop(sku, None)
            products[sku] = {"sku": sku, "name": name, "blurb": blurb}
        return "saved"

    @mcp.tool(name="listProducts", description="Every product.", structured_output=False)
    def list_products() -> str:
        return json.dumps(list(products.values()))


DEVICE_QUOTA = 6


def devices(mcp: MCPServer, bug: bool) -> None:
    known: dict[str, dict[str, str]] = {}
    registered = 0

    def rejected(why: str) -> str:
        return json.dumps({"outcome": "rejected", "why": why})

    @mcp.tool(name="device.register", description="Register a device under its serial number.",
              structured_output=False)
    def register(serial: Text, label: Text) -> str:
        nonlocal registered
        if not serial.strip() or not label.strip():
            return rejected("a serial and a label are required")
        if serial in known:
            return rejected(f"serial {serial!r} is already registered")
        if len(known) >= DEVICE_QUOTA:
            return rejected("the registry is full")
        registered += 1
        if not (bug and registered % 3 == 0):
            known[serial] = {"serial": serial, "label": label}
        return json.dumps({"outcome": "registered", "serial": serial})

    @mcp.tool(name="device.lookup", description="The device with this serial.", structured_output=False)
    def lookup(serial: str) -> str:
        if serial not in known:
            return rejected("no such device")
        return json.dumps(known[serial])

    @mcp.tool(name="device.all", description="Lists every registered device.", structured_output=False)
    def every() -> str:
        return json.dumps(list(known.values()))


STORES: dict[str, Callable[[MCPServer, bool], None]] = {
    "queue": queue, "shelf": shelf, "contacts": contacts, "readonly": readonly, "ledger": ledger,
    "bookmarks": bookmarks, "journal": journal, "catalog": catalog, "devices": devices,
}


def main() -> None:
    serving.main_stores(STORES, "learned", __doc__ or "")


if __name__ == "__main__":
    main()
