"""Starts the suite's Python test servers by forking a process that has imported the MCP SDK once.

Why: importing the SDK costs a server start about 1.2 s of CPU, a grading run starts a dozen
servers and the suite runs hundreds of grading runs, so most of the suite's CPU went to imports.

`python tests/zygote.py SCRIPT ARGS...` or `python tests/zygote.py -m MODULE ARGS...` is a
server command like `python SCRIPT ARGS...`. Each interpreter has a zygote of its own (the suite's
venv, and each venv of a public PyPI server or of an older SDK, which imports its own SDK release):
`address` names it by the interpreter's `sys.prefix`. This launcher hands its stdin, stdout and
stderr to the zygote (`python tests/zygote.py --serve SOCKET`, started by conftest.py for the session), which
forks a monitor, which forks the server: the server runs SCRIPT as `__main__` in the launcher's
folder, environment and pipes, so the client under test still talks to a real server process over
real pipes. The launcher forwards SIGTERM and SIGINT, and exits with the server's status; when the
launcher dies (SIGKILL of its process group), the monitor kills the server. With no zygote
(HYPOTHESIS_MCP_TEST_ZYGOTE unset, or nothing listening), the launcher becomes
`python SCRIPT ARGS...` itself, so every command works outside the suite too.
"""

from __future__ import annotations

# The launcher runs at every server start, so it loads no module it does not need: json (with re),
# hashlib (with OpenSSL) and typing were a third of its CPU; socket and signal (enum, selectors)
# were 7 of its 23 ms of CPU, where their C halves, _socket and _signal, do what it needs. The
# zygote's side loads them as it starts. Both ends are the same interpreter, so the request travels
# as marshal data.
import _signal
import _socket
import array
import marshal
import os
import struct
import sys
import zlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    import socket
    from typing import Any, NoReturn

ENV = "HYPOTHESIS_MCP_TEST_ZYGOTE"
PRELOAD = (
    "anyio",
    "pydantic",
    "mcp",
    "mcp.server.mcpserver",
    "mcp.server.fastmcp",
    "mcp.server.lowlevel",
    "mcp.server.stdio",
    "mcp.server.streamable_http_manager",
    "anyio._backends._asyncio",
    "rich.console",
    "rich.logging",
    "uvicorn",
    "starlette.applications",
    "jsonschema",
    "hypothesis_mcp",
    "hypothesis_mcp.engine",
)
"""What the test servers import (`mcp.server.fastmcp` is the 1.x SDK's name for `mcpserver`; the SDK's
logging set-up loads rich, and anyio its asyncio backend, at every server's start: about 27 ms of a
forked start's 80-90 ms of CPU), and the engine the command line runs (Hypothesis with it; not the
command line's own typer, which reads the environment as it loads: rich reads it only when a console
is made); a server importing more pays for the rest itself."""


def address(base: str, prefix: str) -> str:
    """The socket of the zygote for the interpreter whose `sys.prefix` is `prefix`, beside `base` (the
    address the suite sets in the environment)."""
    return f"{base}.{zlib.crc32(os.path.realpath(prefix).encode()):08x}"


def launch(argv: list[str]) -> NoReturn:
    """Run `python ARGV` through the zygote, or as itself where there is none."""
    base = os.environ.get(ENV, "")
    conn = _connect(address(base, sys.prefix) if base else "")
    if conn is None:
        os.execv(sys.executable, [sys.executable, *argv])
    request = marshal.dumps({"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)})
    conn.sendmsg([b"!"], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, array.array("i", [0, 1, 2]))])
    conn.sendall(struct.pack("!I", len(request)) + request)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(devnull, fd)
    for sig in (_signal.SIGTERM, _signal.SIGINT, _signal.SIGHUP):
        _signal.signal(sig, lambda number, _frame: conn.sendall(bytes([number])))
    answer = b""
    while not answer.endswith(b"\n"):
        chunk = conn.recv(64)
        if not chunk:
            os._exit(1)
        answer += chunk
    code = os.waitstatus_to_exitcode(int(answer))
    if code < 0:
        _signal.signal(-code, _signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code)


def _connect(path: str) -> _socket.socket | None:
    if not path:
        return None
    conn = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError:
        conn.close()
        return None
    return conn


def serve(path: str) -> NoReturn:
    """Import what servers import, then fork a monitor for each launcher that connects, until the
    process that started the zygote is gone."""
    import importlib
    import signal
    import socket

    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            continue
    parent = os.getppid()
    signal.signal(signal.SIGCHLD, _reap)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path + ".new")
    listener.listen(64)
    os.rename(path + ".new", path)
    listener.settimeout(2.0)
    while os.getppid() == parent:
        try:
            conn, _ = listener.accept()
        except (TimeoutError, InterruptedError):
            continue
        conn.settimeout(None)
        if os.fork() == 0:
            try:
                listener.close()
                _monitor(conn)
            finally:
                os._exit(1)  # a monitor or a server that failed before its own exit never returns here
        conn.close()
    os._exit(0)


def _reap(_number: int, _frame: object) -> None:
    """Wait for every monitor that ended, rather than ignoring SIGCHLD: a child the kernel reaps for
    us takes its CPU time with it, so a test's user+sys (`/usr/bin/time`) would leave out its servers'."""
    import contextlib

    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def _monitor(conn: socket.socket) -> NoReturn:
    """Fork the server, pass the launcher's signals on to it, report its exit status, and kill it
    if the launcher goes away first."""
    import selectors
    import signal
    import socket

    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    _, fds, _, _ = socket.recv_fds(conn, 1, 3)
    request = marshal.loads(_read_exactly(conn, struct.unpack("!I", _read_exactly(conn, 4))[0]))
    child = os.fork()
    if child == 0:
        conn.close()
        _become(request, fds)
    for fd in fds:
        os.close(fd)
    pidfd = os.pidfd_open(child)
    selector = selectors.DefaultSelector()
    selector.register(conn, selectors.EVENT_READ)
    selector.register(pidfd, selectors.EVENT_READ)
    while True:
        for key, _ in selector.select():
            if key.fileobj == pidfd:
                _, status = os.waitpid(child, 0)
                conn.sendall(b"%d\n" % status)
                os._exit(0)
            signals = conn.recv(64)
            if not signals:
                os.kill(child, signal.SIGKILL)
                os.waitpid(child, 0)
                os._exit(0)
            for number in signals:
                os.kill(child, number)


def _read_exactly(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise EOFError("the launcher went away")
        data += chunk
    return data


def _join_threads() -> None:
    """Wait for the server's own non-daemon threads before exiting, as the interpreter does: a
    server whose background thread outlives its session stays up here too."""
    import threading

    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join()


def _become(request: dict[str, Any], fds: list[int]) -> NoReturn:
    """Turn the forked child into `python ARGV` as the launcher would have started it."""
    import io
    import runpy
    import signal
    import traceback

    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    configuration = sys.modules.get("hypothesis.configuration")
    if configuration is not None and not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        # Hypothesis took its default storage folder from the zygote's folder as it loaded.
        configuration.set_hypothesis_home_dir(os.path.join(os.getcwd(), ".hypothesis"))
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(1, "w", closefd=False)), encoding="utf-8", write_through=unbuffered
    )
    sys.stderr = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(2, "w", closefd=False)),
        encoding="utf-8",
        errors="backslashreplace",
        write_through=True,
    )
    argv = request["argv"]
    code: Any = 0
    try:
        if argv[0] == "-m":
            sys.argv = [argv[1], *argv[2:]]
            sys.path[0] = os.getcwd()
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = list(argv)
            sys.path[0] = os.path.dirname(os.path.abspath(argv[0]))
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as stop:
        code = stop.code
    except BaseException:
        traceback.print_exc()
        code = 1
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    _flush()
    _join_threads()
    _flush()
    os._exit(code or 0)


def _flush() -> None:
    import contextlib

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(sys.argv[2])
    launch(sys.argv[1:])
