"""Start-up time of the ``parsegate`` command: ``--help``, ``--version``, ``formats``, and ``parse``
of a one-page PDF, each the median wall time of N fresh processes (the console script, as a user
runs it), next to a bare ``python -c pass`` on the same machine in the same run (the floor no
command can go under). Each case also gets ``python -X importtime``'s heaviest imports (cumulative
microseconds, one run) so a regression names its module.

The cases alternate within each repeat so that a busy machine slows all of them alike; the load
average is recorded with the figures.

    .venv/bin/python benchmarks/startup.py [--repeat 21] [--out benchmarks/results/startup.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PDF = HERE.parent / "golden_docs" / "pdf" / "footnote" / "input.pdf"  # one page, no ruling lines
SCRIPT = Path(sys.executable).with_name("parsegate")
CASES: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "parsegate --help": [str(SCRIPT), "--help"],
    "parsegate --version": [str(SCRIPT), "--version"],
    "parsegate formats": [str(SCRIPT), "formats"],
    "parsegate parse one-page.pdf": [str(SCRIPT), "parse", str(PDF)],
}
# The same commands through the interpreter, for -X importtime (a console script takes no -X).
MODULE = [sys.executable, "-X", "importtime", "-c", "import sys; from parsegate.cli.main import main; sys.exit(main())"]
TOP = 15
# Bytecode as an installed wheel has it (pip compiles it): the warm-up run writes __pycache__.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def wall(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=ENV)
    return time.perf_counter() - started


def heaviest_imports(args: list[str]) -> list[dict[str, object]]:
    """The modules with the largest cumulative import time (one run), heaviest first."""
    done = subprocess.run([*MODULE, *args], capture_output=True, text=True, check=False, env=ENV)
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        own, cumulative, name = line.split("|", 2)
        rows.append({"module": name.strip(), "cumulative_us": int(cumulative), "self_us": int(own.split(":")[1])})
    return sorted(rows, key=lambda r: -int(str(r["cumulative_us"])))[:TOP]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "startup.json")
    parser.add_argument("--label", default="", help="What this run measures (e.g. 'before lazy imports').")
    args = parser.parse_args()
    load_before = os.getloadavg()
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for command in CASES.values():  # warm the page cache and the bytecode once
        wall(command)
    for _ in range(args.repeat):
        for name, command in CASES.items():
            times[name].append(wall(command))
    floor = statistics.median(times["python -c pass"])
    results = {}
    for name, samples in times.items():
        median = statistics.median(samples)
        results[name] = {
            "median_s": round(median, 4),
            "min_s": round(min(samples), 4),
            "max_s": round(max(samples), 4),
            "over_bare_python_s": round(median - floor, 4),
        }
        print(f"{name:32} median {median:.3f} s  min {min(samples):.3f}  max {max(samples):.3f}", flush=True)
    imports = {name: heaviest_imports(command[2:]) for name, command in CASES.items() if name.startswith("parsegate")}
    record = {
        "benchmark": "startup",
        "label": args.label,
        "statistic": f"median wall seconds of {args.repeat} fresh processes per case, cases interleaved",
        "python": sys.version.split()[0],
        "cores": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "results": results,
        "heaviest_imports": imports,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
