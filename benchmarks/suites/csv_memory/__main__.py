"""csv_memory: what the CSV parser holds while it parses a large file, as a ratio to the file.

Generated CSV files of 100,000 and 1,000,000 rows (an order export: a date, a name, a quoted
"city, country", an amount, and every 50th row a quoted note with a line break in it). For each,
in fresh processes:

- tracemalloc: the memory the returned Document keeps, and the peak during the parse, both over
  the file's size, and the peak over what is kept (1.0: the parser holds nothing but the
  Document it builds);
- peak resident set (ru_maxrss) of a process that reads the file and parses it, less the same
  process's resident set before the parse, over the file's size (the allocator's view);
- the peer: ``list(csv.reader(...))`` over the same decoded text, the rows every "read it all"
  CSV reader keeps (lists of strings, no spans).

Wall time per parse is reported too (a benchmark, not a test). ``--chunk`` also chunks each file at
the default budget and reports that process's peak resident set.

    python -m benchmarks.suites.csv_memory [--rows 100000 1000000] [--chunk]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import Report

CACHE = harness.CACHE / "csv_memory"
TRACED = r"""
import json, sys, time, tracemalloc
from pathlib import Path
data = Path(sys.argv[1]).read_bytes()
{setup}
run(b"a,b\n1,2\n")  # imports, outside the measure
tracemalloc.start()
tracemalloc.reset_peak()
before = tracemalloc.get_traced_memory()[0]
kept_object = run(data)
kept, peak = tracemalloc.get_traced_memory()
print(json.dumps({{"kept": kept - before, "peak": peak - before}}))
"""
RSS = r"""
import json, resource, sys, time
from pathlib import Path
data = Path(sys.argv[1]).read_bytes()
{setup}
run(b"a,b\n1,2\n")
def rss_kb():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
before = rss_kb()
start = time.perf_counter()
kept_object = run(data)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"before_kb": before, "peak_kb": peak, "seconds": seconds}}))
"""
TOOLS = {
    "parsegate csv parser": (
        "from parsegate.parsers import csv as parser\nrun = lambda d: parser.parse(d, 'orders.csv')"
    ),
    "list(csv.reader) (peer)": (
        "import csv, io\n"
        "from parsegate.parsers.bytes.decode import decode_text\n"
        "run = lambda d: list(csv.reader(io.StringIO(decode_text(d), newline='')))"
    ),
}
CHUNKED = (
    "from parsegate.parsers import csv as parser\n"
    "from parsegate.chunkers import Chunker, ChunkConfig\n"
    "chunker = Chunker(ChunkConfig())\n"
    "run = lambda d: chunker.chunk(parser.parse(d, 'orders.csv'))"
)
CITIES = ["Leeds, UK", "Lyon, France", "Porto, Portugal", "Graz, Austria", "Turku, Finland", "Cork, Ireland"]
NAMES = ["Acme Ltd", "Bolt & Co", "Northwind", "Contoso", "Fabrikam", "Tailspin Toys", "Wide World"]


def generate(rows: int) -> Path:
    path = CACHE / f"orders-{rows}.csv"
    if path.exists():
        return path
    CACHE.mkdir(parents=True, exist_ok=True)
    rng = random.Random(rows)
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write("order,date,customer,city,amount,note\r\n")
        for i in range(rows):
            note = f'"call before delivery\r\nref {i}"' if i % 50 == 0 else ""
            day = f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}"
            amount = f"{rng.random() * 900:.2f}"
            out.write(f'{100000 + i},{day},{rng.choice(NAMES)},"{rng.choice(CITIES)}",{amount},{note}\r\n')
    return path


def add_rows(
    report: Report, tool: str, corpus: str, size: int, traced: dict[str, int], rss: dict[str, float], peer: str | None
) -> None:
    kept, peak = traced["kept"], traced["peak"]
    grown = (rss["peak_kb"] - rss["before_kb"]) * 1024
    rows = [
        ("kept_per_file", round(kept / size, 2), "× file", peer, "tracemalloc: what the call returns, over the file"),
        ("peak_per_file", round(peak / size, 2), "× file", peer, "tracemalloc: peak during the call, over the file"),
        ("peak_per_kept", round(peak / max(1, kept), 3), "×", None, "tracemalloc: peak over what the call returns"),
        ("rss_growth_per_file", round(grown / size, 2), "× file", peer, "peak resident set less before, over the file"),
        ("peak_rss_mb", round(rss["peak_kb"] / 1024), "MB", None, "the process's peak resident set"),
        ("seconds", round(rss["seconds"], 2), "s", peer, "one call, wall, in a fresh process (no tracemalloc)"),
    ]
    for metric, value, unit, ratio_to, statistic in rows:
        report.add(tool, corpus, metric, value, unit, ratio_to=ratio_to, statistic=statistic)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--chunk", action="store_true", help="also chunk each file (peak resident set)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    report = Report("csv_memory")
    sizes = {}
    for rows in args.rows:
        path = generate(rows)
        size = path.stat().st_size
        corpus = f"{rows:,} rows ({size / 1e6:.1f} MB)"
        sizes[corpus] = size
        peer = next(t for t in TOOLS if t.endswith("(peer)"))
        for tool, setup in TOOLS.items():
            traced, _ = harness.run_json([sys.executable, "-c", TRACED.format(setup=setup), path])
            rss, _ = harness.run_json([sys.executable, "-c", RSS.format(setup=setup), path])
            add_rows(report, tool, corpus, size, traced, rss, None if tool == peer else peer)
        if args.chunk:
            rss, _ = harness.run_json([sys.executable, "-c", RSS.format(setup=CHUNKED), path])
            chunked = "parsegate parse + chunk (256 tokens)"
            report.add(chunked, corpus, "peak_rss_mb", round(rss["peak_kb"] / 1024), "MB")
            report.add(chunked, corpus, "seconds", round(rss["seconds"], 2), "s")
    report.details.update(files={corpus: size for corpus, size in sizes.items()}, python=sys.version.split()[0])
    report.print()
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
