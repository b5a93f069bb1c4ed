"""The store's file: one SQLite database (WAL, foreign keys on), its tables, and the checks made
before any work starts (a store that cannot be written or is not a parsegate store is refused
with a clear message, never half-used).

Nothing is overwritten. A document's content is a ``version`` (the hash of its bytes); what a
chunk set made of one version is a ``results`` row with its ``chunks``, written once. What a
chunk set holds *now* is ``members``: for each document of a corpus, the version it was last
seen at, and when it went away (``gone_at``). Retiring a chunk set is the only deletion.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from pathlib import Path

from parsegate.store.lock import OutputBusy, OutputLock, read_holder

STORE_SCHEMA = "parsegate.store/1"
DEFAULT_STORE = Path(".parsegate") / "store.sqlite"

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chunk_sets (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    config TEXT NOT NULL            -- JSON: chunker settings, tokenizer, each parser's chunk set
);
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT NOT NULL,
    version TEXT NOT NULL,          -- sha256 of the source bytes
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    first_seen TEXT NOT NULL,
    PRIMARY KEY (doc_id, version)
);
CREATE TABLE IF NOT EXISTS results (
    chunk_set TEXT NOT NULL REFERENCES chunk_sets(id) ON DELETE CASCADE,
    doc_id TEXT NOT NULL,
    version TEXT NOT NULL,
    status TEXT NOT NULL,           -- chunked | skipped | failed
    format TEXT,
    parser TEXT,                    -- name and version
    code TEXT,
    outcome TEXT NOT NULL,          -- JSON: the run's FileOutcome, facts included (threshold-free)
    chunk_count INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (chunk_set, doc_id, version),
    FOREIGN KEY (doc_id, version) REFERENCES documents(doc_id, version)
);
CREATE TABLE IF NOT EXISTS chunks (
    chunk_set TEXT NOT NULL,
    doc_id TEXT NOT NULL,
    version TEXT NOT NULL,
    seq INTEGER NOT NULL,           -- place in the document's chunk list
    id TEXT NOT NULL,
    start INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    parent_id TEXT,
    record BLOB NOT NULL,           -- the parsegate.chunk/1 line, byte for byte as written
    PRIMARY KEY (chunk_set, doc_id, version, seq),
    FOREIGN KEY (chunk_set, doc_id, version) REFERENCES results(chunk_set, doc_id, version) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS chunks_by_id ON chunks(id);
CREATE TABLE IF NOT EXISTS page_images (
    chunk_set TEXT NOT NULL,
    doc_id TEXT NOT NULL,
    version TEXT NOT NULL,
    pages INTEGER NOT NULL,         -- how many pages report.html asked for
    images TEXT NOT NULL,           -- JSON: those pages drawn with the chunks' boxes (report.html)
    PRIMARY KEY (chunk_set, doc_id, version, pages),
    FOREIGN KEY (chunk_set, doc_id, version) REFERENCES results(chunk_set, doc_id, version) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS members (
    chunk_set TEXT NOT NULL,
    corpus TEXT NOT NULL,           -- the run's document root
    doc_id TEXT NOT NULL,
    version TEXT NOT NULL,
    verdict TEXT,                   -- the gate's verdict in the last run that saw it
    failed_checks TEXT NOT NULL DEFAULT '[]',
    seen_at TEXT NOT NULL,
    gone_at TEXT,                   -- the file was missing from a complete run over its corpus
    PRIMARY KEY (chunk_set, corpus, doc_id),
    FOREIGN KEY (chunk_set, doc_id, version) REFERENCES results(chunk_set, doc_id, version) ON DELETE CASCADE
);
"""


class StoreError(RuntimeError):
    """The store cannot be used (unwritable, corrupt, not a parsegate store, busy)."""


def connect(path: Path, *, write: bool = True, create: bool = True) -> sqlite3.Connection:
    """An open store, checked before any work is done with it."""
    if not path.exists():
        if not (write and create):
            raise StoreError(f"{path}: no store here (a run with --store creates one)")
        _make_folder(path.parent)
    elif write and not _writable(path):
        raise StoreError(f"{path}: the store is read-only (it needs write permission for a run)")
    if write and not os.access(path.parent, os.W_OK):
        raise StoreError(f"{path.parent}: cannot write here (SQLite keeps its journal beside the store)")
    uri = f"file:{path}?mode={'rwc' if write else 'ro'}"
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30.0)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open the store: {exc}") from None
    try:
        _check_and_prepare(db, path, write)
    except BaseException:
        db.close()
        raise
    return db


def _writable(path: Path) -> bool:
    """Writable, and not marked read-only (no write bit: refused even where root could write)."""
    return os.access(path, os.W_OK) and bool(path.stat().st_mode & 0o222)


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"{folder}: cannot create the store's folder: {exc.strerror or exc}") from None


def _check_and_prepare(db: sqlite3.Connection, path: Path, write: bool) -> None:
    try:
        # quick_check reads every page: a truncated or scribbled-on file is refused here, before work.
        problem = db.execute("PRAGMA quick_check").fetchone()[0]
        if problem != "ok":
            raise StoreError(f"{path}: the store is damaged ({problem}); move it away to start a new one")
        db.execute("PRAGMA foreign_keys = ON")
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and "meta" not in tables:  # another program's database: never taken over
            raise StoreError(
                f"{path}: not a parsegate store (a database with other tables: {', '.join(sorted(tables))})"
            )
        if write:
            db.execute("PRAGMA journal_mode = WAL")
            # In WAL mode NORMAL stays consistent after a killed process (only a power cut may lose
            # the last commits), and a commit does not wait for the disk.
            db.execute("PRAGMA synchronous = NORMAL")
            db.executescript(_TABLES)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (STORE_SCHEMA,))
        schema = _schema(db)
        if schema != STORE_SCHEMA:
            raise StoreError(f"{path}: not a parsegate store (schema {schema or 'missing'}, expected {STORE_SCHEMA})")
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path}: not a usable store ({exc}); move it away to start a new one") from None


def _schema(db: sqlite3.Connection) -> str | None:
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    except sqlite3.OperationalError:
        return None
    return None if row is None else str(row[0])


class StoreLock:
    """One writer per store (a run or a retire): the second is refused naming the holder. The lock
    is an flock on the store file itself, so every name of it (a symlink, a hard link: one inode)
    takes the same lock; the kernel releases it however the holder dies. SQLite's own locks are
    POSIX record locks, which flock does not touch. Who holds it is written beside the file's real
    path (``<store>.lock``), for the refusal to name."""

    def __init__(self, store: Path, command: str = "run", create: bool = True) -> None:
        self.store = store
        self.command = command
        self.create = create  # a run makes its store; retire works only on one that is there
        self.path = store.with_name(store.name + ".lock")
        self._fd: int | None = None
        self._holder: OutputLock | None = None

    def __enter__(self) -> StoreLock:
        if not self.create and not self.store.exists():
            raise StoreError(f"{self.store}: no store here (a run with --store creates one)")
        flags = os.O_RDWR | getattr(os, "O_CLOEXEC", 0) | (os.O_CREAT if self.create else 0)
        try:
            fd = os.open(self.store, flags, 0o644)
        except OSError as exc:
            raise StoreError(f"{self.store}: cannot open the store: {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            holder = self._holder_name()
            raise StoreError(f"the store {self.store} is in use by another parsegate {holder}") from None
        self._fd = fd
        real = os.path.realpath(self.store)
        holder_file = OutputLock(Path(real).parent, self.command)
        holder_file.path = Path(real + ".lock")
        try:
            holder_file.__enter__()
            self._holder = holder_file
        except (OutputBusy, OSError):
            self._holder = None  # who holds it goes unsaid (a hard link's other name); the lock holds
        return self

    def _holder_name(self) -> str:
        try:
            fd = os.open(os.path.realpath(self.store) + ".lock", os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return "run (holder unknown)"
        try:
            return read_holder(fd)
        finally:
            os.close(fd)

    def __exit__(self, *exc: object) -> None:
        if self._holder is not None:
            self._holder.__exit__()
            self._holder = None
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
