"""``parsegate run --engine ray``: the documents of a run mapped over Ray Data, on a local Ray
instance (``ray.init(num_cpus=N)``) or an existing cluster (``--ray-address``, ``RAY_ADDRESS``).

Each Ray actor holds a one-worker ``Supervisor``: the document is parsed, chunked and measured by
the same worker process (``parsegate.engines.local.worker``, ``parsegate.engines.work.process``) as in a local run,
under the same time and memory limits, so a hanging or crashing file fails only itself there
too. The driver gets back each document's outcome and chunk lines and routes and stores them
exactly as the local engine's, so chunks.jsonl, quarantine.jsonl, the reports and the store are
the same. Nothing is pickled back: results travel as JSON and bytes.

Every node must see the corpus at the path the driver names (a shared file system) and have
parsegate installed in the same environment. Ray's dashboard and usage statistics are off:
nothing goes to the network beyond the cluster itself.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Iterable, Iterator
from typing import Any

import orjson

from parsegate.chunkers import ChunkConfig
from parsegate.engines.base import Done, Limits, Task
from parsegate.engines.local.supervisor import Supervisor
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
        import ray.data
    except ImportError as exc:
        raise EngineError(f"--engine ray needs the ray extra ({INSTALL}): {exc}") from None
    return ray


class _Documents:
    """A Ray actor: one supervised worker process, reused for every document the actor gets."""

    def __init__(self, config: ChunkConfig, limits: Limits, parsing: ParseOptions, sample: GateSample) -> None:
        self.supervisor = Supervisor(config, limits, 1, parsing, sample)
        self.supervisor.start()

    def __call__(self, row: dict[str, Any]) -> dict[str, Any]:
        task = Task(int(row["index"]), _path(row["path"]), str(row["doc_id"]), row.get("member"))
        before = self.supervisor.replaced
        (done,) = list(self.supervisor.run([task]))
        return {
            "index": task.index,
            "outcome": orjson.dumps(outcome_dict(done.outcome)),
            "lines": b"\n".join(done.lines),
            "chunks": len(done.lines),
            "replaced": self.supervisor.replaced - before,  # workers this document cost
        }


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


def _path(hexed: str) -> Any:
    from pathlib import Path

    return Path(os.fsdecode(bytes.fromhex(hexed)))


class RayEngine:
    """The Engine protocol (``parsegate.engines.base``) over Ray Data."""

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
        context = ray.data.DataContext.get_current()
        context.enable_progress_bars = False  # parsegate draws its own
        logging.getLogger("ray.data").setLevel(logging.ERROR)

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
        rows = [
            {"index": t.index, "path": os.fsencode(t.path).hex(), "doc_id": t.doc_id, "member": t.member}
            for t in by_index.values()
        ]
        actors = min(self.size, len(rows))
        dataset = ray.data.from_items(rows, override_num_blocks=len(rows)).map(
            _Documents,
            fn_constructor_kwargs={
                "config": self.config,
                "limits": self.limits,
                "parsing": self.parsing,
                "sample": self.sample,
            },
            compute=ray.data.ActorPoolStrategy(size=actors),
            num_cpus=1,
        )
        for row in dataset.iter_rows():
            index = int(row["index"])
            outcome = outcome_from_dict(orjson.loads(row["outcome"]))
            body = bytes(row["lines"])
            lines = body.split(b"\n") if int(row["chunks"]) else []
            self.replaced += int(row["replaced"])
            yield Done(by_index[index], outcome, lines)
