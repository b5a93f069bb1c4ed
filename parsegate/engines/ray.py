"""``parsegate run --engine ray``: the documents of a run sent in batches to a pool of Ray actors,
one per CPU, on a local Ray instance (``ray.init(num_cpus=N)``) or an existing cluster
(``--ray-address``, ``RAY_ADDRESS``).

Each Ray actor holds a one-worker ``Supervisor``: the document is parsed, chunked and measured by
the same worker process (``parsegate.engines.local.worker``, ``parsegate.engines.work.process``) as
in a local run, under the same time and memory limits, so a hanging or crashing file fails only
itself there too. The driver gets back each document's outcome and chunk lines and routes and
stores them exactly as the local engine's, so chunks.jsonl, quarantine.jsonl, the reports and the
store are the same. A batch's results come back as one bytes object of the workers' own frames
(JSON headers and chunk lines): no object of a worker's making is unpickled.

Core Ray actors, not Ray Data: Ray Data's executor and its two actors of its own (statistics,
autoscaling) cost a run on one machine about a third more CPU than the work (2,036 files).

Every node must see the corpus at the path the driver names (a shared file system) and have
parsegate installed in the same environment. Ray's dashboard and usage statistics are off:
nothing goes to the network beyond the cluster itself.
"""

from __future__ import annotations

import io
import logging
import os
import signal
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from parsegate.chunkers import ChunkConfig
from parsegate.engines.base import Done, Limits, Task
from parsegate.engines.local.dispatch import cost, family, kept_together, schedule
from parsegate.engines.local.supervisor import Supervisor
from parsegate.engines.local.worker import read_frame, write_frame
from parsegate.engines.work import outcome_dict, outcome_from_dict
from parsegate.parsers.options import ParseOptions
from parsegate.quality_gates.sample import GateSample

INSTALL = "pip install 'parsegate[ray]'"


class EngineError(RuntimeError):
    """The engine cannot run: its extra is missing, or the cluster cannot be reached."""


def _ray() -> Any:
    # Before ray is imported: no usage statistics are sent, whatever the cluster's default.
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    try:
        import ray
        import ray.util
    except ImportError as exc:
        raise EngineError(f"--engine ray needs the ray extra ({INSTALL}): {exc}") from None
    return ray


class _Documents:
    """A Ray actor: one supervised worker process, reused for every document the actor gets."""

    def __init__(self, config: ChunkConfig, limits: Limits, parsing: ParseOptions, sample: GateSample) -> None:
        # The actor holds one CPU (num_cpus=1): its worker's tokenizer runs one thread, as a local
        # run's workers do when there are as many as cores (two threads each, on two actors, cost
        # 6% more CPU spinning).
        self.supervisor = Supervisor(config, limits, 1, parsing, sample, cpus=1)
        self.supervisor.start()

    def run(self, batch: bytes) -> bytes:
        """One batch of documents (``_batches``, as JSON): each one's result as a frame (its
        outcome and the workers replaced for it as the JSON header, its chunk lines the body)."""
        tasks = [
            Task(int(t["index"]), _path(t["path"]), str(t["doc_id"]), t.get("member")) for t in orjson.loads(batch)
        ]
        out = io.BytesIO()
        before = self.supervisor.replaced
        for done in self.supervisor.run(tasks):
            header = {
                "index": done.task.index,
                "outcome": outcome_dict(done.outcome),
                "chunks": len(done.lines),
                "replaced": self.supervisor.replaced - before,  # workers this document cost
            }
            write_frame(out, header, b"\n".join(done.lines))
            before = self.supervisor.replaced
        return out.getvalue()


# Documents go to the actors in batches, each one actor task: a task has its own scheduling and
# object store traffic, and one per document (Ray Data blocks of one row) made a Ray run on one
# machine 4.3x the local engine's wall time and 3.5x its CPU (2,036 files, 2 actors). A batch
# holds at most _BATCH_MOST documents and about 1/_BATCHES_PER_ACTOR of an actor's share of the
# estimated work; the costliest documents come first, each in a batch of its own. The documents
# of a slow-to-import family with too little of it for a second import (dispatch.kept_together:
# the shared corpus's 18 Office files and web pages) make one batch, so that one actor's worker
# imports docling, as the local engine's dispatch keeps them with one worker: spread over both
# actors, the second import cost 2.4 s of CPU (2,036 files, 2 actors).
_BATCHES_PER_ACTOR = 8
_BATCH_MOST = 64


def _batches(tasks: list[Task], actors: int) -> list[list[Task]]:
    ordered = schedule(tasks)  # the costliest first (the local engine's order)
    costs = [cost(t.path) for t in ordered]
    target = sum(costs) / max(1, actors * _BATCHES_PER_ACTOR)
    kept = kept_together(ordered)
    together: dict[str, list[Task]] = {}  # a kept family's one batch, where its costliest one stands
    batches: list[list[Task]] = []
    current: list[Task] | None = None
    held = 0.0
    for task, spent in zip(ordered, costs, strict=True):
        kind = family(task.path)
        if kind in kept:
            if kind not in together:
                together[kind] = []
                batches.append(together[kind])
            together[kind].append(task)
            continue
        if current is None or held + spent > target or len(current) >= _BATCH_MOST:
            current = []
            batches.append(current)
            held = 0.0
        current.append(task)
        held += spent
    return batches


_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def _handlers() -> dict[int, Any]:
    """The caller's SIGTERM and SIGINT handlers: ray.init installs its own C handler for SIGTERM,
    which printed a stack dump and exited 15 where the command line stops a run as interrupted (130)."""
    return {number: signal.getsignal(number) for number in _SIGNALS}


def _restore(handlers: dict[int, Any]) -> None:
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread may set handlers (and ray.init set none from elsewhere)
    for number, handler in handlers.items():
        if handler is not None:
            signal.signal(number, handler)


def _check_current_folder(here: Path) -> None:
    """Ray puts the driver's current folder first on its workers' import path: a ``parsegate/``
    folder there (a source checkout beside a parsegate installed from it) is what they would
    import, and an actor failed with "No module named 'parsegate.chunkers'". Refused before any
    work, with what to do."""
    found = here / "parsegate"
    ours = Path(__file__).resolve().parents[1]  # parsegate/engines/ray.py: the package it is in
    if (found / "__init__.py").is_file() and found.resolve() != ours:
        raise EngineError(
            f"--engine ray: the current folder holds a parsegate/ package ({found}) that Ray's workers would "
            f"import instead of the installed one ({ours}); run from another folder"
        )


def _path(hexed: str) -> Path:
    return Path(os.fsdecode(bytes.fromhex(hexed)))


class RayEngine:
    """The Engine protocol (``parsegate.engines.base``) over a pool of Ray actors."""

    def __init__(
        self,
        config: ChunkConfig,
        limits: Limits,
        workers: int,
        address: str | None,
        parsing: ParseOptions,
        sample: GateSample | None = None,
    ) -> None:
        self.config = config
        self.limits = limits
        self.parsing = parsing
        self.sample = sample or GateSample()
        self.address = address or None
        self.size = max(1, workers or (os.cpu_count() or 1))
        self.replaced = 0
        self.ray: Any = None

    def __enter__(self) -> RayEngine:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self, count: int | None = None) -> None:
        if self.ray is not None:
            return
        _check_current_folder(Path.cwd())
        ray = _ray()
        options: dict[str, Any] = {
            "include_dashboard": False,
            "logging_level": logging.ERROR,  # parsegate reports what matters; -v does not reach Ray's logs
            "log_to_driver": False,
            "ignore_reinit_error": True,
        }
        if self.address is None:
            options["num_cpus"] = self.size
            # The local instance's processes outlive a driver killed outright: a watchdog ends them.
            from parsegate.engines.orphans import watch

            watch()
        handlers = _handlers()
        try:
            ray.init(address=self.address, **options)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = self.address or "a local Ray instance"
            raise EngineError(f"cannot start or reach {where}: {exc}") from None
        finally:
            _restore(handlers)
        self.ray = ray
        if self.address is not None:  # the cluster's CPUs, not this machine's
            self.size = max(1, int(ray.cluster_resources().get("CPU", 1)))

    def close(self) -> None:
        if self.ray is not None:
            self.ray.shutdown()
            self.ray = None

    def run(self, tasks: Iterable[Task]) -> Iterator[Done]:
        """Each task's result as Ray returns it (any order; the run sorts its outputs)."""
        by_index = {t.index: t for t in tasks}
        if not by_index:
            return
        self.start()
        ray = self.ray
        batches = _batches(list(by_index.values()), min(self.size, len(by_index)))
        documents = ray.remote(num_cpus=1)(_Documents)
        actors = [
            documents.remote(self.config, self.limits, self.parsing, self.sample)
            for _ in range(min(self.size, len(batches)))
        ]
        pool = ray.util.ActorPool(actors)
        jobs = [
            orjson.dumps(
                [
                    {"index": t.index, "path": os.fsencode(t.path).hex(), "doc_id": t.doc_id, "member": t.member}
                    for t in batch
                ]
            )
            for batch in batches
        ]
        try:
            for result in pool.map_unordered(lambda actor, job: actor.run.remote(job), jobs):
                frames = io.BytesIO(result)
                while (frame := read_frame(frames)) is not None:
                    header, body = frame
                    lines = body.split(b"\n") if int(header["chunks"]) else []
                    self.replaced += int(header["replaced"])
                    yield Done(by_index[int(header["index"])], outcome_from_dict(header["outcome"]), lines)
        finally:
            for actor in actors:  # their CPUs back to the cluster now, not when Ray collects them
                ray.kill(actor)
