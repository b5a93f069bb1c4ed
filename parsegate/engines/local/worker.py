"""A worker process of a run (``python -m parsegate.engines.local.worker PARENT_PID``): it parses, chunks and
measures one document at a time for the supervisor, and is reused across documents.

It dies with its parent (the parent-death signal on Linux, a liveness check elsewhere), lives
under an address-space limit (RLIMIT_AS), and speaks a data-only protocol (JSON headers and the
chunk lines as bytes, never pickle: a worker that a hostile file subverted must not be able to
run code in the parent). Frames on stdin: the settings, then one task per document; frames on
the original stdout: ``ready``, then one result per task. What libraries print goes to stderr.
"""

from __future__ import annotations

import ctypes
import gc
import os
import resource
import signal
import struct
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import orjson

if TYPE_CHECKING:
    from parsegate.chunkers import Chunker
    from parsegate.parsers.options import ParseOptions
    from parsegate.quality_gates.sample import GateSample

_SIZE = struct.Struct("<Q")
_PR_SET_PDEATHSIG = 1


def write_frame(stream: BinaryIO, header: dict[str, Any], body: bytes = b"") -> None:
    head = orjson.dumps(header)
    stream.write(_SIZE.pack(len(head)) + head + _SIZE.pack(len(body)))
    stream.write(body)
    stream.flush()


def read_frame(stream: BinaryIO) -> tuple[dict[str, Any], bytes] | None:
    """One frame, or None at the end of the stream."""
    head = _read_exactly(stream, _read_size(stream))
    body = _read_exactly(stream, _read_size(stream))
    if head is None or body is None:
        return None
    return orjson.loads(head), body


def _read_size(stream: BinaryIO) -> int:
    raw = stream.read(_SIZE.size)
    return _SIZE.unpack(raw)[0] if raw and len(raw) == _SIZE.size else -1


def _read_exactly(stream: BinaryIO, size: int) -> bytes | None:
    if size < 0:
        return None
    data = stream.read(size)
    return data if len(data) == size else None


def die_with_parent(parent: int) -> None:
    """Ask the kernel to kill this process when its parent dies; where that cannot be asked
    (not Linux), poll for the parent once a second."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        asked = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        asked = False
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)
    if not asked:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def limit_memory(limit: int) -> None:
    if limit <= 0:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    soft = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def tune_gc() -> None:
    """What is loaded by now lives as long as the worker: out of the collector's sight
    (gc.freeze). And a collection every 50,000 new objects instead of every 700: parsers build
    hundreds of thousands of small objects (tokens, nodes, elements) that all survive the
    document, and the default thresholds spent over a third of a 100,000-row Markdown table's
    CPU time re-scanning them (benchmarks: 6.1 s → 3.8 s CPU; 12% on minified JavaScript)."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def _rss() -> int:
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def prepare(settings: dict[str, Any]) -> tuple[Chunker, ParseOptions]:
    """What a worker loads before its first document: the parent's sys.path, the memory limit,
    the plugin parsers the parent found (searching every installed package's metadata again took
    5 ms of each worker's start), the chunker and the parse options. A format's libraries load with its first file."""
    sys.path[:0] = [p for p in settings["sys_path"] if p not in sys.path]
    limit_memory(int(settings["memory"]))

    from parsegate.chunkers import ChunkConfig, Chunker
    from parsegate.parsers.options import ParseOptions
    from parsegate.parsers.registry import use_plugins

    use_plugins(settings["plugins"])
    return Chunker(ChunkConfig(**settings["config"])), ParseOptions(**settings["parsing"])


def gate_sample(settings: dict[str, Any]) -> GateSample:
    """The run's gate sample (quality_gates/sample.py): which documents get docling's reference."""
    from parsegate.quality_gates.sample import GateSample

    return GateSample(**settings.get("gate_sample", {}))


def main() -> None:
    die_with_parent(int(sys.argv[1]))
    # Ctrl-C reaches the whole process group: the supervisor decides what happens to workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    results = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # print() in a library must not corrupt the frames
    requests = sys.stdin.buffer
    first = read_frame(requests)
    if first is None:
        return
    chunker, options = prepare(first[0])
    sample = gate_sample(first[0])
    from parsegate.engines.work import outcome_dict, process

    tune_gc()
    write_frame(results, {"kind": "ready", "pid": os.getpid()})
    while (frame := read_frame(requests)) is not None:
        task = frame[0]
        path = Path(os.fsdecode(bytes.fromhex(task["path"])))
        outcome, lines = process(path, task["doc_id"], chunker, options, sample, task.get("member"))
        header = {"kind": "done", "index": task["index"], "outcome": outcome_dict(outcome), "rss": _rss()}
        write_frame(results, header, b"\n".join(lines))
        if outcome.code == "memory":
            break  # a heap that hit the limit is not worth keeping: the supervisor starts another


if __name__ == "__main__":
    main()
