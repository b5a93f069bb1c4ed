"""Test-only parsers that misbehave on purpose, registered through the same entry-point seam a
third-party parser uses (a dist-info folder on sys.path; worker processes get the parent's
sys.path). Each reads its instructions from the environment, so a test can steer them.

- ``.hang``: never returns.
- ``.hog``: allocates far more memory than the test's limit.
- ``.crash``: the process aborts (SIGABRT).
- ``.oom``: says what a C++ library says when an allocation fails, then aborts.
- ``.wait``: writes its process id to ``$PG_TEST_PIDS/<name>.pid``, then waits until the file
  ``$PG_TEST_RELEASE`` exists, and returns a one-paragraph document.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from parsegate.parsers import text
from parsegate.parsers.model import Document

PACKAGE = "pg_test_parsers"
ENTRY_POINTS = {
    "hang": "Hang",
    "hog": "Hog",
    "crash": "Crash",
    "oom": "OutOfMemory",
    "rustoom": "RustOutOfMemory",
    "wait": "Wait",
}


class Hang:
    NAME, VERSION, SUFFIXES = "hang", "1", (".hang",)

    @staticmethod
    def parse(data: bytes, doc_id: str, options: object) -> Document:
        while True:
            time.sleep(60)


class Hog:
    NAME, VERSION, SUFFIXES = "hog", "1", (".hog",)

    @staticmethod
    def parse(data: bytes, doc_id: str, options: object) -> Document:
        hoard = [bytearray(64 * 1024 * 1024) for _ in range(64)]  # 4 GiB, touched
        raise AssertionError(f"allocated {len(hoard)} blocks under a memory limit")


class Crash:
    NAME, VERSION, SUFFIXES = "crash", "1", (".crash",)

    @staticmethod
    def parse(data: bytes, doc_id: str, options: object) -> Document:
        os.abort()


class OutOfMemory:
    NAME, VERSION, SUFFIXES = "oom", "1", (".oom",)

    @staticmethod
    def parse(data: bytes, doc_id: str, options: object) -> Document:
        os.write(2, b"terminate called after throwing an instance of 'std::bad_alloc'\n")
        os.abort()


class RustOutOfMemory:
    """What Rust's allocator (tokenizers, pyromark…) says before it aborts."""

    NAME, VERSION, SUFFIXES = "rustoom", "1", (".rustoom",)

    @staticmethod
    def parse(data: bytes, doc_id: str, options: object) -> Document:
        os.write(2, b"memory allocation of 1099511627776 bytes failed\n")
        os.abort()


class Wait:
    NAME, VERSION, SUFFIXES = "wait", "1", (".wait",)

    @staticmethod
    def parse(data: bytes, doc_id: str, options: object) -> Document:
        # Written aside, then renamed: a test that sees the file must never read it empty.
        pid_file = Path(os.environ["PG_TEST_PIDS"], Path(doc_id).name + ".pid")
        pid_file.with_suffix(".tmp").write_text(str(os.getpid()))
        os.replace(pid_file.with_suffix(".tmp"), pid_file)
        release = Path(os.environ["PG_TEST_RELEASE"])
        deadline = time.monotonic() + 60
        while not release.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        return text.parse(data, doc_id)


def install(folder: Path) -> Path:
    """Write this module and its dist-info into ``folder`` (to put on sys.path)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{PACKAGE}.py").write_text(Path(__file__).read_text())
    info = folder / f"{PACKAGE}-0.1.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {PACKAGE}\nVersion: 0.1\n")
    points = "".join(f"{name} = {PACKAGE}:{obj}\n" for name, obj in ENTRY_POINTS.items())
    (info / "entry_points.txt").write_text(f"[parsegate.parsers]\n{points}")
    return folder
