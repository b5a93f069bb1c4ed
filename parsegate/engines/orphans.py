"""A watchdog for the processes a run starts and cannot stop when it is killed.

A local Ray instance (its GCS, raylet, dashboard and runtime-env agents, its workers) outlives a
driver that dies by SIGKILL or the OOM killer: nothing tells those processes. ``watch()`` starts,
once per process, a small watchdog in a session of its own: every half second it notes the
driver's descendants (pid and start time, from ``/proc``), and once the driver is gone (or a
zombie) it kills those it saw that still run (a pid whose start time changed is another process,
never hit).
On a normal exit it does the same for any process Ray's shutdown left. Linux only (``/proc``);
elsewhere ``watch()`` does nothing.

    python -m parsegate.engines.orphans DRIVER_PID
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

_PROC = Path("/proc")
_POLL = 0.5  # seconds
_started: subprocess.Popen[bytes] | None = None


def watch() -> None:
    """Start the watchdog for this process (once; nothing without ``/proc``)."""
    global _started
    if _started is not None or not (_PROC / "self" / "stat").exists():
        return
    _started = subprocess.Popen(
        [sys.executable, "-m", "parsegate.engines.orphans", str(os.getpid())],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # Ctrl-C to the run's process group does not reach it
    )


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, start time) of a process, or None when it is gone (or a zombie: dead, its
    children already handed to another parent, only its exit status left to collect)."""
    try:
        raw = (_PROC / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    fields = raw[raw.rfind(b")") + 2 :].split()  # the name may hold spaces and parentheses
    if fields[0] in (b"Z", b"X"):
        return None
    return int(fields[1]), int(fields[19])


def descendants(root: int) -> dict[int, int]:
    """Every process below ``root``: pid to start time."""
    children: dict[int, list[tuple[int, int]]] = {}
    for entry in _PROC.iterdir():
        if entry.name.isdigit():
            found = _stat(int(entry.name))
            if found is not None:
                children.setdefault(found[0], []).append((int(entry.name), found[1]))
    out: dict[int, int] = {}
    stack = [root]
    while stack:
        for pid, start in children.get(stack.pop(), []):
            if pid not in out:
                out[pid] = start
                stack.append(pid)
    return out


def main(driver: int) -> None:
    me = os.getpid()
    first = _stat(driver)
    if first is None:
        return
    seen: dict[int, int] = {}
    while (now := _stat(driver)) is not None and now[1] == first[1]:
        # Everything seen below the driver and still running: a process handed to another parent
        # the moment the driver died is no longer below it, but is still the run's.
        seen = {pid: start for pid, start in seen.items() if (found := _stat(pid)) and found[1] == start}
        seen.update((pid, start) for pid, start in descendants(driver).items() if pid != me)
        time.sleep(_POLL)
    for pid, start in seen.items():
        found = _stat(pid)
        if found is not None and found[1] == start:
            with contextlib.suppress(OSError):  # gone meanwhile, or not ours to kill
                os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    main(int(sys.argv[1]))
