"""One process at a time: an advisory lock (``flock``) on a file, held for the length of a run,
naming its holder. A second process is refused with the holder's process id, host and start
time; the kernel releases the lock when the holder dies, however it dies, so a lock is never
stale. OUTDIR is held through ``OUTDIR/.parsegate.lock``; the chunk store through its own file."""

from __future__ import annotations

import fcntl
import json
import os
import socket
import sys
from datetime import UTC, datetime
from pathlib import Path

LOCK = ".parsegate.lock"


class OutputBusy(RuntimeError):
    """Another run holds OUTDIR."""


class OutputLock:
    def __init__(self, outdir: Path, command: str = "run") -> None:
        self.path = outdir / LOCK
        self.command = command
        self.fd: int | None = None

    def __enter__(self) -> OutputLock:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = read_holder(fd)
            os.close(fd)
            raise OutputBusy(f"{self.path.parent} is in use by another parsegate {holder}") from None
        holder_info = {
            "command": self.command,
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "argv": sys.argv,
        }
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(holder_info).encode() + b"\n", 0)
        self.fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)  # releases the lock; the file stays (deleting it would race)
            self.fd = None


def read_holder(fd: int) -> str:
    try:
        info = json.loads(os.pread(fd, 4096, 0) or b"{}")
        return (
            f"{info.get('command', 'run')} (pid {info['pid']} on {info.get('host', '?')}, "
            f"started {info.get('started_at', '?')})"
        )
    except (ValueError, KeyError, OSError):
        return "run (holder unknown)"
