"""Documents run in supervised worker processes, with limits that hold whatever a parser does.

Each worker is a persistent child process (``parsegate.engines.local.worker``) that loads the tokenizer once
and imports a format's libraries on first use, then parses one document after another. The
supervisor gives each document a wall-clock limit (per format) and each worker an address-space
limit: a worker past its document's deadline is killed (inside a page, inside a regex: it is
not asked), a worker that dies (the memory limit, ``abort()`` in native code, the OOM killer,
a signal) fails only its document, with the signal and the last thing it printed, and a new
worker takes its place. Results stream back as documents finish.
"""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

import orjson

from parsegate.chunkers import ChunkConfig
from parsegate.engines.base import Done, Limits, Task
from parsegate.engines.local.dispatch import Pending, family
from parsegate.engines.local.worker import write_frame
from parsegate.engines.work import FileOutcome, outcome_from_dict
from parsegate.parsers.options import ParseOptions
from parsegate.quality_gates.sample import GateSample

_SIZE = 8
_STARTUP_SECONDS = 120.0
_STARTUP_FAILURES = 3  # workers in a row that die before they are ready: the run cannot go on
_TAIL = 4096  # bytes of a worker's stderr kept, to say why it died
_POLL = 0.5  # seconds between looks at the deadlines when nothing arrives
# what the allocators say before they abort: Python, C, C++ (std::bad_alloc), Rust (tokenizers)
_MEMORY_WORDS = ("memoryerror", "out of memory", "bad_alloc", "cannot allocate memory", "memory allocation of")


class WorkersFailed(RuntimeError):
    """Worker processes cannot start at all (not a document's fault)."""


@dataclass
class _Worker:
    proc: subprocess.Popen[bytes]
    started: float
    out: bytearray = field(default_factory=bytearray)
    tail: bytearray = field(default_factory=bytearray)
    ready: bool = False
    task: Task | None = None  # the document it is reading
    queued: list[Task] = field(default_factory=list)  # sent after it, waiting in its pipe
    task_started: float = 0.0
    deadline: float = float("inf")
    families: set[str] = field(default_factory=set)  # slow-to-import formats it has read
    eof: bool = False  # its stdout reached its end: the process is gone or going


class Supervisor:
    def __init__(
        self,
        config: ChunkConfig,
        limits: Limits | None = None,
        workers: int = 1,
        parsing: ParseOptions | None = None,
        sample: GateSample | None = None,
        cpus: int | None = None,
    ) -> None:
        """``cpus``: the CPUs the workers share (default: the machine's); each worker's tokenizer
        gets its share as threads."""
        self.config = config
        self.cpus = cpus or os.cpu_count() or 1
        self.limits = limits or Limits()
        self.parsing = parsing or ParseOptions()
        self.sample = sample or GateSample()
        self.size = max(1, workers)
        self.workers: list[_Worker] = []
        self.selector = selectors.DefaultSelector()
        self.failures = 0
        self.replaced = 0  # workers started to replace one that died or was stopped
        self._pending = Pending(())  # the run's tasks not yet sent: a stopped worker's queue goes back

    def __enter__(self) -> Supervisor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- workers -----------------------------------------------------------------------

    def start(self, count: int | None = None) -> None:
        """Start workers (they import and load the tokenizer while the caller does other work)."""
        while len(self.workers) < min(self.size, count or self.size):
            self._spawn()

    def _spawn(self) -> _Worker:
        env = dict(os.environ)
        # One malloc arena per thread makes the address space of a worker hard to bound; the
        # tokenizer's threads would compete with the other workers for the same cores.
        env.setdefault("MALLOC_ARENA_MAX", "2")
        threads = max(1, self.cpus // self.size)
        env.setdefault("RAYON_NUM_THREADS", str(threads))
        if threads == 1:
            # A pool of one thread only hands each batch over and back (and spins waiting): two
            # workers on two cores took 6% longer with it (72 stdlib files, median of 12
            # interleaved runs: 0.97 s vs 0.91 s), the same chunks.
            env.setdefault("TOKENIZERS_PARALLELISM", "false")
        proc = subprocess.Popen(
            [sys.executable, "-X", "faulthandler", "-m", "parsegate.engines.local.worker", str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        worker = _Worker(proc, time.monotonic())
        for stream, kind in ((proc.stdout, "out"), (proc.stderr, "err")):
            os.set_blocking(stream.fileno(), False)
            self.selector.register(stream, selectors.EVENT_READ, (worker, kind))
        settings = {
            "sys_path": sys.path,
            "plugins": self._plugins(),
            "config": self.config.__dict__,
            "parsing": asdict(self.parsing),
            "gate_sample": self.sample.to_dict(),
            "memory": self.limits.memory_mb * 1024 * 1024,
        }
        self._send(worker, settings)
        self.workers.append(worker)
        return worker

    def _plugins(self) -> list[tuple[str, str]]:
        # The plugin parsers this process found, so that no worker searches every installed
        # package's metadata for them again.
        from parsegate.parsers.registry import plugins

        return plugins()

    def _send(self, worker: _Worker, header: dict[str, Any]) -> bool:
        stdin = worker.proc.stdin
        assert stdin is not None
        try:
            write_frame(stdin, header)  # type: ignore[arg-type]
        except (BrokenPipeError, OSError):
            return False
        return True

    def _stop(self, worker: _Worker) -> int:
        """Kill a worker, close its pipes, and return its exit status."""
        if worker.proc.poll() is None:
            worker.proc.kill()
        code = worker.proc.wait()
        if code != 0:  # killed in a conversion: the LibreOffice it started, and the document's copy
            from parsegate.parsers.office.legacy import clean_after

            clean_after(worker.proc.pid)
        if worker.proc.stderr is not None:
            worker.tail = (worker.tail + _drain(worker.proc.stderr))[-_TAIL:]  # its last words
        for stream in (worker.proc.stdout, worker.proc.stderr):
            if stream is not None:
                if _registered(self.selector, stream):
                    self.selector.unregister(stream)
                stream.close()
        if worker.proc.stdin is not None:
            with contextlib.suppress(OSError):
                worker.proc.stdin.close()
        if worker in self.workers:
            self.workers.remove(worker)
        for task in reversed(worker.queued):
            self._pending.push(task)  # never started: not these documents' fault
        worker.queued.clear()
        return code

    def close(self) -> None:
        for worker in list(self.workers):
            self._stop(worker)
        self.selector.close()

    # -- the run -------------------------------------------------------------------------

    def run(self, tasks: Iterable[Task]) -> Iterator[Done]:
        """Each task's result as it finishes (completion order)."""
        pending = self._pending = Pending(tasks)
        while pending or any(w.task is not None for w in self.workers):
            busy = sum(1 for w in self.workers if w.task is not None)
            while len(self.workers) < min(self.size, busy + len(pending)):
                self._spawn()
            self._assign(pending)
            for event in self.selector.select(self._timeout()):
                self._read(*event[0].data)
            finished = list(self._collect())
            # The workers that finished get their next document before the caller routes, gates
            # and writes the finished ones: the parent's work is not on the workers' path.
            self._assign(pending)
            yield from finished

    def _assign(self, pending: Pending) -> None:
        """Give every idle worker a document, then, while more are left than there are workers,
        every busy one its next if that is short: a worker that finishes starts it from its pipe
        at once instead of waiting for this process to read its result and answer (on the fastapi
        docs, 50 ms a run in all between documents, now 3-5 ms)."""
        loaded = {f for w in self.workers for f in w.families}
        for worker in self.workers:
            if worker.ready and worker.task is None:
                self._give(worker, pending, loaded)
        for worker in self.workers:
            if worker.task is not None and not worker.queued and len(pending) > len(self.workers):
                self._give(worker, pending, loaded, short=True)  # the last go to whichever is free first

    def _give(self, worker: _Worker, pending: Pending, loaded: set[str], short: bool = False) -> None:
        task = pending.take(worker.families, loaded, short) if pending else None
        if task is None:
            return  # none left, or what is left is better read by a worker that has its libraries
        kind = family(task.path)
        if kind is not None:
            worker.families.add(kind)
            loaded.add(kind)
        header = {"index": task.index, "path": os.fsencode(task.path).hex(), "doc_id": task.doc_id}
        if task.member is not None:
            header["member"] = task.member
        if not self._send(worker, header):
            pending.push(task)  # the worker was already gone: not this document's fault
        elif worker.task is None:
            self._begin(worker, task, time.monotonic())
        else:
            worker.queued.append(task)

    def _begin(self, worker: _Worker, task: Task, now: float) -> None:
        """``task`` is what ``worker`` reads from ``now`` on (for a queued task: when this process
        saw the one before it finish, a little after the worker did, so its limit runs no shorter)."""
        worker.task, worker.task_started = task, now
        worker.deadline = now + _finite(self.limits.seconds_for(task.path))

    def _timeout(self) -> float:
        now = time.monotonic()
        ends = [w.deadline if w.ready else w.started + _STARTUP_SECONDS for w in self.workers]
        return min(_POLL, max(0.0, min(ends, default=now) - now))

    def _read(self, worker: _Worker, kind: str) -> None:
        stream = worker.proc.stdout if kind == "out" else worker.proc.stderr
        assert stream is not None
        try:
            data = os.read(stream.fileno(), 1 << 20)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.selector.unregister(stream)
            worker.eof = worker.eof or kind == "out"
            return
        if kind == "out":
            worker.out += data
        else:
            worker.tail = (worker.tail + data)[-_TAIL:]

    def _collect(self) -> Iterator[Done]:
        now = time.monotonic()
        for worker in list(self.workers):
            while (frame := _take_frame(worker.out)) is not None:
                done = self._frame(worker, *frame)
                if done is not None:
                    yield done
            if worker not in self.workers:
                continue  # stopped while its frames were read (replaced after a large document)
            if worker.eof:
                died = self._died(worker)
                if died is not None:
                    yield died
            elif worker.task is not None and now >= worker.deadline:
                yield self._timed_out(worker, now)
            elif not worker.ready and now >= worker.started + _STARTUP_SECONDS:
                self._stop(worker)
                raise WorkersFailed(f"a worker process did not start in {_STARTUP_SECONDS:.0f} s")

    def _frame(self, worker: _Worker, header: dict[str, Any], body: bytes) -> Done | None:
        if header.get("kind") == "ready":
            worker.ready = True
            self.failures = 0
            return None
        task = worker.task
        if task is None or header.get("index") != task.index:
            return None  # not an answer to what was asked: ignored
        worker.task, worker.deadline = None, float("inf")
        outcome = outcome_from_dict(header["outcome"])
        limit = self.limits.memory_mb * 1024 * 1024
        if outcome.code == "memory":
            outcome.reason = f"over the {self.limits.memory_mb} MB memory limit (--memory-limit)"
            self._stop(worker)  # it exits by itself (its heap hit the limit): no document goes to it
        elif limit and header.get("rss", 0) > limit // 2:
            self._stop(worker)  # a worker whose heap grew this much is replaced, not reused
        elif worker.queued:
            self._begin(worker, worker.queued.pop(0), time.monotonic())
        return Done(task, outcome, body.split(b"\n") if body else [])

    def _timed_out(self, worker: _Worker, now: float) -> Done:
        task = worker.task
        assert task is not None
        self._stop(worker)
        self.replaced += 1
        limit = self.limits.seconds_for(task.path)
        outcome = FileOutcome(
            path=task.doc_id,
            status="failed",
            code="timeout",
            reason=f"over the {limit:g} s time limit (--time-limit); the worker was stopped",
            seconds=round(now - worker.task_started, 4),
        )
        return Done(task, outcome, [])

    def _died(self, worker: _Worker) -> Done | None:
        task = worker.task
        code = self._stop(worker)
        last = _last_line(bytes(worker.tail))
        if not worker.ready:
            self.failures += 1
            if self.failures >= _STARTUP_FAILURES:
                raise WorkersFailed(f"worker processes die before they start (exit status {code}): {last}")
            return None
        if task is None:
            return None  # an idle worker went away (replaced, or exited): nothing was lost
        self.replaced += 1
        how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exited with status {code}"
        memory = any(word in worker.tail.decode("utf-8", "replace").lower() for word in _MEMORY_WORDS)
        outcome = FileOutcome(
            path=task.doc_id,
            status="failed",
            code="memory" if memory else "worker_died",
            reason=(
                f"over the {self.limits.memory_mb} MB memory limit (--memory-limit): the worker {how}"
                if memory
                else f"the worker process {how} while reading this file"
            )
            + (f" ({last})" if last else ""),
            seconds=round(time.monotonic() - worker.task_started, 4),
        )
        return Done(task, outcome, [])


def _registered(selector: selectors.BaseSelector, stream: IO[bytes]) -> bool:
    try:
        selector.get_key(stream)
    except (KeyError, ValueError):
        return False
    return True


def _drain(stream: IO[bytes]) -> bytes:
    data = b""
    while True:
        try:
            chunk = os.read(stream.fileno(), 1 << 16)
        except (BlockingIOError, OSError):
            return data
        if not chunk:
            return data
        data = (data + chunk)[-_TAIL:]


def _take_frame(buffer: bytearray) -> tuple[dict[str, Any], bytes] | None:
    """Remove one complete frame from the front of ``buffer``."""
    if len(buffer) < _SIZE:
        return None
    head = int.from_bytes(buffer[:_SIZE], "little")
    body_at = _SIZE + head + _SIZE
    if len(buffer) < body_at:
        return None
    body = int.from_bytes(buffer[body_at - _SIZE : body_at], "little")
    if len(buffer) < body_at + body:
        return None
    header = orjson.loads(bytes(buffer[_SIZE : _SIZE + head]))
    data = bytes(buffer[body_at : body_at + body])
    del buffer[: body_at + body]
    return header, data


_FAULTHANDLER = re.compile(r"^(Fatal Python error|Current thread|Thread 0x|Extension modules:|  File |\s*$|<no Python)")
_FRAME = re.compile(r'^  File "(?P<file>[^"]+)", line (?P<line>\d+) in (?P<func>\S+)')


def _last_line(tail: bytes) -> str:
    """What a dying worker said last, and where Python was (faulthandler lists the innermost
    frame first), without faulthandler's own lines."""
    lines = tail.decode("utf-8", "replace").splitlines()
    said = [line.strip() for line in lines if not _FAULTHANDLER.match(line)]
    frames = [m for m in map(_FRAME.match, lines) if m]
    where = f"at {Path(frames[0]['file']).name}:{frames[0]['line']} in {frames[0]['func']}" if frames else ""
    return "; ".join(part for part in (said[-1][:300] if said else "", where) if part)


def _finite(seconds: float) -> float:
    return seconds if seconds > 0 else float("inf")
