"""What every benchmark suite shares: cold passes, ABBA rounds, CPU and wall time, the machine and
its load, one result schema, and another revision of parsegate installed in a venv of its own.

- **Cold passes.** A timed pass starts from nothing the corpus could have taught it: a fresh
  process (``run_command``), or in process a fresh tool per pass (``cold_passes``). parsegate's
  token counter learns each word it counts and outlives a Chunker, so ``cold_chunker`` clears it.
- **ABBA rounds** (``abba``): each round runs the sides forward and back (A B B A, or A B C C B A),
  so a drift of this shared machine's speed during a round falls on every side alike; a ratio
  then compares the same statistic (the median of all of a side's samples) of each side.
- **One result schema** (``Report``): ``benchmarks/results/<suite>.json`` holds the suite, date,
  commit (of the parsegate measured; ``checkout``: of the suite's own code), machine, load average
  before and after, and rows of {tool, corpus, metric, value,
  unit, ratio_to, ratio}: ``ratio`` is ``value`` over the value of the row named by ``ratio_to``
  (same corpus and metric, same run). Each run overwrites the file; history is git's.
- **Another revision** (benchmarks/revisions.py): ``git archive REV`` (or this checkout's files
  as they are), installed non-editable with ``pip install --no-deps`` into a venv of its own whose dependencies
  are this venv's (a .pth file naming a folder of links to this venv's site-packages, parsegate
  left out, as tests/test_install.py does). Both sides of a comparison are installed the same way
  and byte-compiled by pip, so neither pays for an editable finder or compiles its sources.

Suites run from the repository root: ``python -m benchmarks.suites.<suite> [options]``.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
CACHE = ROOT / "benchmarks" / ".cache"
SHARED = ROOT.parent / "shared" / "corpus"
FASTAPI = SHARED / "markdown" / "fastapi-docs"
SCHEMA = "parsegate.bench/1"
# Not part of any corpus measured: it loads what a tool loads lazily before the clock starts, and
# teaches parsegate's token counter nothing the timed pass meets again but a few common words.
WARM_UP = b"# Warm up\n\nA short text to load what each tool loads lazily.\n"
T = TypeVar("T")

# -- the machine and the checkout -----------------------------------------------------------------


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def machine() -> dict[str, Any]:
    model = ""
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as info:
        model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), "")
    return {"cores": os.cpu_count(), "cpu": model, "python": platform.python_version(), "os": platform.platform()}


def git(*args: str, repo: Path = ROOT) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout.strip()


PRODUCT = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "parsegate", "parsers", "chunkers", "quality_gates")


def commit_of(repo: Path = ROOT) -> str:
    """The short commit of the parsegate the checkout holds: the last commit that changed its
    product files (a commit to benchmarks/ alone measures nothing new), with ``+changes`` when the
    files on disk differ from it."""
    try:
        head = git("log", "-1", "--format=%h", "--", *PRODUCT, repo=repo)
        dirty = git("status", "--porcelain", "--", *PRODUCT, repo=repo)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


def _head() -> str:
    try:
        return git("rev-parse", "--short", "HEAD")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def versions(*names: str) -> dict[str, str]:
    """The installed versions of ``names`` (a peer's speed moves between its releases)."""
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in names:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            continue
    return found


# -- one result schema ------------------------------------------------------------------------------


@dataclass
class Row:
    tool: str
    corpus: str
    metric: str
    value: float | int | None
    unit: str
    ratio_to: str | None = None  # the tool whose row (same corpus, same metric) divides this one
    ratio: float | None = None
    statistic: str = ""
    samples: list[float] | None = None


@dataclass
class Report:
    """One run of one suite: add rows while measuring, then ``write``."""

    suite: str
    command: str = ""  # filled in by write(): the suite's module and its arguments
    date: str = field(default_factory=lambda: datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"))
    commit: str = field(default_factory=lambda: measured_label())  # the parsegate measured
    checkout: str = field(default_factory=lambda: _head())  # the checkout's HEAD: the suite's own code
    machine: dict[str, Any] = field(default_factory=machine)
    load: dict[str, list[float]] = field(default_factory=lambda: {"before": load_average()})
    rows: list[Row] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    def add(self, tool: str, corpus: str, metric: str, value: float | int | None, unit: str, **extra: Any) -> Row:
        row = Row(tool, corpus, metric, value, unit, **extra)
        self.rows.append(row)
        return row

    def ratios(self) -> None:
        """Each row's ratio to the row its ``ratio_to`` names, measured in this run."""
        index = {(r.tool, r.corpus, r.metric): r for r in self.rows}
        for row in self.rows:
            peer = index.get((row.ratio_to, row.corpus, row.metric)) if row.ratio_to else None
            if peer is not None and row.value is not None and peer.value:
                row.ratio = round(row.value / peer.value, 3)

    def as_dict(self) -> dict[str, Any]:
        self.ratios()
        self.load.setdefault("after", load_average())
        self.command = self.command or " ".join(["python -m", f"benchmarks.suites.{self.suite}", *sys.argv[1:]])
        out = {"schema": SCHEMA, **asdict(self)}
        out["rows"] = [{k: v for k, v in asdict(r).items() if v is not None and v != ""} for r in self.rows]
        return out

    def write(self, out: Path | None = None) -> Path:
        path = out or RESULTS / f"{self.suite}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(self.as_dict()) + "\n", encoding="utf-8")
        return path

    def print(self) -> None:
        self.ratios()
        for r in self.rows:
            ratio = f"  {r.ratio:.2f}x {r.ratio_to}" if r.ratio is not None else ""
            print(f"{r.tool:44} {r.corpus:28} {r.metric:14} {_num(r.value):>10} {r.unit}{ratio}")


def dumps(value: object, depth: int = 0) -> str:
    """JSON with one line per row and per short object: readable, diffable, small."""
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if not isinstance(value, dict | list) or depth >= 4 or len(flat) <= 160:
        return flat
    pad = " " * (depth + 1)
    if isinstance(value, list):
        items = [pad + dumps(v, depth + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * depth + "]"
    items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {dumps(v, depth + 1)}" for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"


def _num(value: float | int | None) -> str:
    return "–" if value is None else f"{value:.4g}" if isinstance(value, float) else str(value)


# -- time: wall and CPU -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    wall: float  # seconds
    cpu: float  # user + system seconds of the process and the children it waited for
    peak_mb: float = 0.0  # the largest resident set of the process or of one of its children


def cpu_seconds() -> float:
    """User + system seconds of this process and of the children it has waited for."""
    now = os.times()
    return now.user + now.system + now.children_user + now.children_system


def timed(work: Callable[[], T]) -> tuple[T, Timing]:
    """``work()`` in this process, with its wall and CPU time."""
    cpu, started = cpu_seconds(), time.perf_counter()
    out = work()
    return out, Timing(time.perf_counter() - started, cpu_seconds() - cpu)


def child_env(**extra: str) -> dict[str, str]:
    """The environment for a measured process: the revision's own packages only, so no PYTHONPATH
    and no current folder on sys.path (PYTHONSAFEPATH: run from the repository root, its parsegate/
    folder would shadow the installed package)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return {**env, "PYTHONSAFEPATH": "1", **extra}


def run_command(
    argv: Sequence[str | Path | int],
    *,
    ok: Sequence[int] = (0,),
    cwd: Path | None = None,
    stdout: Path | None = None,
    stderr: Path | None = None,
    pids: list[int] | None = None,
) -> Timing:
    """A fresh process: its wall time, and its CPU with its children's (``wait4``'s resource use);
    its output goes to ``stdout`` and ``stderr`` when given (else nowhere, stderr kept for an error)."""
    with open(stderr, "w+b") if stderr else tempfile.TemporaryFile() as err, open(stdout or os.devnull, "wb") as out:
        started = time.perf_counter()
        proc = subprocess.Popen([str(a) for a in argv], stdout=out, stderr=err, cwd=cwd, env=child_env())
        if pids is not None:
            pids.append(proc.pid)  # its process id, for a caller that looks for what it left
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in ok:
            err.seek(0)
            tail = err.read()[-3000:].decode(errors="replace")
            raise RuntimeError(f"{' '.join(map(str, argv))} exited {proc.returncode}:\n{tail}")
    return Timing(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def run_json(argv: Sequence[str | Path | int], **options: Any) -> tuple[Any, Timing]:
    """``run_command`` for a child that prints one JSON value on its last line of output."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "stdout"
        timing = run_command(argv, stdout=out, **options)
        return json.loads(out.read_text().strip().splitlines()[-1]), timing


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


# -- cold passes and ABBA rounds ---------------------------------------------------------------------


def fresh_chunker(config: Any) -> Any:
    """A new parsegate Chunker on a new token counter (the counter outlives a Chunker otherwise)."""
    from parsegate.chunkers import Chunker
    from parsegate.chunkers.tokens.counter import load_counter

    getattr(load_counter, "cache_clear", lambda: None)()  # revisions before 8f365e2 cached one counter per process
    return Chunker(config)


def cold_chunker(config: Any, warm_up: bytes = WARM_UP) -> Any:
    """``fresh_chunker``, warmed up on ``warm_up`` (a text outside every corpus)."""
    from parsegate.parsers import markdown

    chunker = fresh_chunker(config)
    chunker.chunk(markdown.parse(warm_up, "warm-up.md"))
    return chunker


def cold_passes(make: Callable[[], Callable[[], T]], repeat: int) -> tuple[list[Timing], T]:
    """``repeat`` passes, each of a new tool: ``make()`` builds one and warms it up outside the
    clock, and returns the pass to time. Returns every pass's timing and the last pass's output."""
    timings, out = [], None
    for _ in range(repeat):
        work = make()
        out, timing = timed(work)
        timings.append(timing)
    assert out is not None or repeat == 0
    return timings, out  # type: ignore[return-value]


def abba(sides: Mapping[str, Callable[[], T]], rounds: int) -> dict[str, list[T]]:
    """Every side measured twice a round, in mirrored order (A B B A; A B C C B A)."""
    names = list(sides)
    out: dict[str, list[T]] = {name: [] for name in names}
    for _ in range(rounds):
        for name in names + names[::-1]:
            out[name].append(sides[name]())
    return out


def startup(cases: Mapping[str, Sequence[str | Path]], repeat: int) -> dict[str, list[float]]:
    """Wall seconds of ``repeat`` fresh processes per case, cases interleaved (mirrored order), after
    one warm-up run of each (the page cache)."""
    for argv in cases.values():
        run_command(argv)
    rounds = abba({name: (lambda argv=argv: run_command(argv).wall) for name, argv in cases.items()}, (repeat + 1) // 2)
    return {name: values[:repeat] for name, values in rounds.items()}


# -- waiting for a quiet machine ---------------------------------------------------------------------


def busy_share(seconds: float = 1.0) -> float:
    """The share of the machine's CPU time that was busy over ``seconds`` (/proc/stat)."""

    def sample() -> tuple[int, int]:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
        return sum(fields), fields[3] + fields[4]  # all, idle + iowait

    total0, idle0 = sample()
    time.sleep(seconds)
    total1, idle1 = sample()
    return 1.0 - (idle1 - idle0) / max(1, total1 - total0)


def wait_for_quiet(limit: float, most: float = 300.0) -> float:
    """Wait (at most ``most`` seconds) until other work uses under ``limit`` of the machine: a
    process on one of two cores halves what two workers can show. Returns the busy share seen."""
    deadline = time.monotonic() + most
    busy = busy_share()
    while busy > limit and time.monotonic() < deadline:
        busy = busy_share()
    return busy


def measured_label() -> str:
    """The label of the revision this process measures: the one ``in_revision`` started it for, or
    this checkout's commit."""
    return os.environ.get("PARSEGATE_BENCH_REVISION") or commit_of()
