"""A run with a store (``parsegate run --store``): plan from content hashes, route the documents
the store already holds through the gate as if just parsed (so the outputs are the same bytes),
parse the rest in the supervised workers, and commit each parsed document as it is routed."""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack, closing
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson

from parsegate.engines.base import Engine, Task
from parsegate.engines.local.dispatch import schedule
from parsegate.engines.work import FileOutcome, outcome_dict, outcome_from_dict
from parsegate.parsers.options import ParseOptions
from parsegate.quality_gates.facts import MEASURE_VERSION
from parsegate.quality_gates.sample import FULL, GateSample
from parsegate.runner.discover import Source
from parsegate.runner.plan import WHY_GATE, WHY_SAMPLE, Planned, plan, reusable, reusable_failures, stored
from parsegate.runner.route import Router
from parsegate.store.pages import StoredPages
from parsegate.store.schema import StoreError, StoreLock, connect
from parsegate.store.writer import Doc, add_chunk_set, mark_gone, record_document, record_reused


class RunStore:
    """The store as one run uses it: locked for the run's length, opened and checked first."""

    def __init__(
        self,
        path: Path,
        chunk_set: str,
        config: dict[str, Any],
        corpus: str,
        parsing: ParseOptions | None = None,
        sample: GateSample = FULL,
    ) -> None:
        self.path = path
        self.sample = sample
        self.password = bool(parsing and parsing.password)
        self.chunk_set = chunk_set
        self.config = config
        self.corpus = corpus
        versions = config.get("parsers", {})
        self.parsers = {cs: f"{name} {versions.get(name, '?')}" for name, cs in config.get("chunk_sets", {}).items()}
        self._stack = ExitStack()
        self.db: sqlite3.Connection | None = None
        self.planned: list[Planned] = []
        self.counts = {"reused": 0, "parsed": 0, "not_stored": 0, "gone": 0}

    def __enter__(self) -> RunStore:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._stack.enter_context(StoreLock(self.path))
        try:
            self.db = self._stack.enter_context(closing(connect(self.path)))
            add_chunk_set(self.db, self.chunk_set, self.config)
        except BaseException:
            self._stack.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def _db(self) -> sqlite3.Connection:
        assert self.db is not None, "use RunStore in a with statement"
        return self.db

    def plan(self, sources: list[Source]) -> list[Source]:
        """Hash every file and look it up; returns the sources that must be parsed."""
        self.planned = [
            _measured_enough(p, self.sample) for p in plan(self._db(), self.chunk_set, sources, self.password)
        ]
        return [p.source for p in self.planned if not p.reuse]

    def why_parsed(self) -> str:
        """Why this run parses what it parses, counted by cause: "2 of 155 documents parsed: 1
        changed, 1 new"."""
        causes = Counter(p.why or "?" for p in self.planned if not p.reuse)
        parsed = sum(causes.values())
        listed = ", ".join(f"{n} {why}" for why, n in sorted(causes.items(), key=lambda kv: (-kv[1], kv[0])))
        return f"{parsed} of {len(self.planned)} documents parsed: {listed}"

    def run(
        self, router: Router, supervisor: Engine, on_file: Callable[[FileOutcome], None] | None = None
    ) -> list[FileOutcome]:
        """Every planned source's outcome, in sorted order; reused ones first, then parsed ones."""
        found: dict[int, FileOutcome] = {}
        reused: list[tuple[Doc, dict[str, Any]]] = []
        for item in self.planned:
            if item.reuse and item.doc is not None:
                outcome_data, lines = stored(self._db(), self.chunk_set, item)
                outcome = outcome_from_dict(outcome_data)
                router.route(outcome, lines, item.index)
                verdict = {"verdict": outcome.verdict, "failed_checks": outcome.failed_checks}
                reused.append((item.doc, verdict))
                found[item.index] = outcome
                if on_file is not None:
                    on_file(outcome)
        try:
            record_reused(self._db(), self.chunk_set, self.corpus, reused)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write the store {self.path}: {exc}") from None
        self.counts["reused"] = len(reused)
        tasks = [Task(p.index, p.source.path, p.source.doc_id, p.source.member) for p in self.planned if not p.reuse]
        if supervisor.size > 1:
            tasks = schedule(tasks)
        for done in supervisor.run(tasks):
            router.route(done.outcome, done.lines, done.task.index)
            self._record(self.planned[done.task.index], done.outcome, done.lines)
            found[done.task.index] = done.outcome
            if on_file is not None:
                on_file(done.outcome)
        return [found[n] for n in sorted(found)]

    def documents(self) -> list[tuple[str, str, str]] | None:
        """Each planned document's id, version and stored outcome (JSON), as the next run's plan
        reads them; None when one is not in the store (that run parses it: nothing is current)."""
        failures = reusable_failures(self.password)
        found = []
        for item in self.planned:
            outcome = item.outcome
            if outcome is None and item.doc is not None:
                outcome = reusable(self._db(), self.chunk_set, item.doc, failures)
            if item.doc is None or outcome is None:
                return None
            found.append((item.doc.doc_id, item.doc.version, outcome))
        return found

    def reuse_recorded(self, files: list[dict[str, Any]]) -> list[FileOutcome]:
        """Every planned document reused with the outcome and verdict an earlier run with the same
        fingerprint recorded in run.json (outputs up to date: nothing is routed again)."""
        by_id = {f["path"]: f for f in files}
        reused = []
        for item in self.planned:
            assert item.doc is not None and item.doc.doc_id in by_id, "only for a run with the same documents"
            recorded = by_id[item.doc.doc_id]
            reused.append((item.doc, {"verdict": recorded["verdict"], "failed_checks": recorded["failed_checks"]}))
        try:
            record_reused(self._db(), self.chunk_set, self.corpus, reused)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write the store {self.path}: {exc}") from None
        self.counts["reused"] = len(reused)
        return [outcome_from_dict(f) for f in files]

    def _record(self, item: Planned, outcome: FileOutcome, lines: list[bytes]) -> None:
        """Commit one parsed document, unless what was parsed is not what was hashed (the file
        changed during the run: the next run reads it again; a failure of bytes emptied or swapped
        while the run read them must not be filed under the good bytes' hash), nothing was read
        (no bytes, no hash to file it under) or the run's limits decided it."""
        doc = item.doc
        if doc is None or outcome.version != doc.version or outcome.code in _RUN_DEPENDENT:
            self.counts["not_stored"] += 1
            return
        parser = self.parsers.get(orjson.loads(lines[0])["chunk_set"]) if lines else None
        try:
            record_document(self._db(), self.chunk_set, self.corpus, doc, outcome_dict(outcome), lines, parser)
        except sqlite3.Error as exc:  # a full disk, a file size limit: the run stops with the reason
            raise StoreError(f"cannot write the store {self.path}: {exc}") from None
        self.counts["parsed"] += 1

    def pages(self) -> StoredPages:
        """report.html's drawn pages of this chunk set (reports.PageCache)."""
        return StoredPages(self._db(), self.chunk_set)

    def finish(self, scope: Callable[[str], bool]) -> list[str]:
        """After a complete run: mark the corpus's documents this run did not find as gone."""
        seen = {p.source.doc_id for p in self.planned}
        try:
            gone = mark_gone(self._db(), self.chunk_set, self.corpus, seen, scope)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write the store {self.path}: {exc}") from None
        self.counts["gone"] = len(gone)
        return gone


def _measured_enough(item: Planned, sample: GateSample) -> Planned:
    """A stored outcome whose gate left out the expensive references (an earlier run's sample did
    not hold the document) is not reused for a document this run's sample holds: it is parsed
    and measured again, and the store then holds the full measurement."""
    if item.reuse and item.outcome and '"sampled":false' in item.outcome and sample.sampled(item.source.doc_id):
        return replace(item, reuse=False, outcome=None, why=WHY_SAMPLE)
    if item.reuse and item.outcome and '"facts":{' in item.outcome and _MEASURED_BY not in item.outcome:
        # Measured by another version of the gate (its checks or references read differently):
        # parsed and measured again, so that no verdict rests on facts this gate would not give.
        return replace(item, reuse=False, outcome=None, why=WHY_GATE)
    return item


_MEASURED_BY = f'"measured_by":{MEASURE_VERSION}'  # as orjson writes it in a stored outcome


# Outcomes that say more about the run than about the file: never stored.
_RUN_DEPENDENT = frozenset({"timeout", "memory", "worker_died"})
