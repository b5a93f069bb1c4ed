"""A driver killed outright leaves no process of its local Ray instance behind (issue 39: "SIGKILL
of the driver leaves ray::DashboardAgent and ray::RuntimeEnvAgent alive"): the watchdog
(parsegate/engines/orphans.py) kills what the driver last had running below it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from parsegate.engines.orphans import _stat, descendants

pytest.importorskip("ray")

DRIVER = """
import time
from pathlib import Path
from parsegate.chunkers import ChunkConfig
from parsegate.engines.base import Limits
from parsegate.engines.ray import RayEngine
from parsegate.parsers.options import ParseOptions

engine = RayEngine(ChunkConfig(), Limits(), 1, None, ParseOptions())
engine.start()
print("ready", flush=True)
time.sleep(600)
"""


def _alive(processes: dict[int, int]) -> list[int]:
    return [pid for pid, start in processes.items() if (found := _stat(pid)) is not None and found[1] == start]


@pytest.mark.slow
def test_a_killed_driver_leaves_no_ray_process_behind() -> None:
    driver = subprocess.Popen([sys.executable, "-c", DRIVER], stdout=subprocess.PIPE, text=True)
    try:
        assert driver.stdout is not None and driver.stdout.readline().strip() == "ready"
        time.sleep(3)  # Ray's agents start after ray.init returns
        started = {
            pid: start
            for pid, start in descendants(driver.pid).items()
            if b"parsegate.engines.orphans" not in _cmdline(pid)
        }
        assert len(started) >= 2, started  # its GCS and raylet at least
        os.kill(driver.pid, signal.SIGKILL)
        # Not reaped yet: a zombie driver is dead (its children already handed to init), and the
        # watchdog must not take it for alive (under load it once did, and forgot what it saw).
        deadline = time.monotonic() + 30
        while _alive(started) and time.monotonic() < deadline:
            time.sleep(0.5)
        driver.wait()
        assert [_cmdline(pid)[:60] for pid in _alive(started)] == []
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
        if driver.stdout is not None:
            driver.stdout.close()


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ")
    except OSError:
        return b""


@pytest.mark.slow
def test_sigterm_stops_a_ray_run_as_interrupted(tmp_path: Path) -> None:
    """ray.init installs its own SIGTERM handler: the run printed Ray's stack dump and exited 15.
    The command line's handler is put back, so SIGTERM stops the run as Ctrl-C does (130)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for n in range(1500):
        (corpus / f"note-{n:04}.md").write_text(f"# Note {n}\n\nThe harbour opens at {n % 12 + 1} o'clock.\n")
    command = [sys.executable, "-m", "parsegate.cli.main", "run", str(corpus), "--out", str(tmp_path / "out")]
    run = subprocess.Popen([*command, "--no-store", "--engine", "ray", "-w", "1"], stderr=subprocess.PIPE)
    assert run.stderr is not None
    try:
        deadline = time.monotonic() + 120
        # An actor reading documents: ray.init has returned (its handler, then ours, in place).
        while not any(b"ray::_Documents" in _cmdline(pid) for pid in descendants(run.pid)):
            assert run.poll() is None and time.monotonic() < deadline
            time.sleep(0.2)
        run.send_signal(signal.SIGTERM)
        err = run.stderr.read()
        assert run.wait(timeout=120) == 130, err.decode(errors="replace")[-2000:]
        assert b"interrupted" in err and b"SIGTERM received" not in err
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
        run.stderr.close()
