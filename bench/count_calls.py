"""A stdio proxy that counts `tools/call` requests on their way to the server.

    python bench/count_calls.py COUNT_FILE SERVER_COMMAND...

Every tester in bench_end_to_end.py runs its server through this, so all are counted the same
way. Each request appends one byte to COUNT_FILE (one file may serve many server processes);
its size is the number of calls.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading


def _calls(line: bytes) -> int:
    try:
        message = json.loads(line)
    except ValueError:
        return 0
    batch = message if isinstance(message, list) else [message]
    return sum(isinstance(m, dict) and m.get("method") == "tools/call" for m in batch)


def main() -> int:
    count_file, command = sys.argv[1], sys.argv[2:]
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert server.stdin is not None and server.stdout is not None
    fd = os.open(count_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def forward_output() -> None:
        assert server.stdout is not None
        for line in iter(server.stdout.readline, b""):
            os.write(1, line)

    threading.Thread(target=forward_output, daemon=True).start()
    try:
        for line in iter(sys.stdin.buffer.readline, b""):
            if calls := _calls(line):
                os.write(fd, b"." * calls)
            server.stdin.write(line)
    except (BrokenPipeError, OSError):
        pass
    finally:
        os.close(fd)
    server.stdin.close()
    return server.wait()


if __name__ == "__main__":
    sys.exit(main())
