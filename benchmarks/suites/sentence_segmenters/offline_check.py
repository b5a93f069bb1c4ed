"""Does a segmenter reach for the network or write files at run time?

Each candidate runs alone in a fresh process, in a network namespace with no interfaces
(`unshare -n`, needs root), under `strace -f`: import, build, and segment one paragraph of every
corpus and variant. Reported per candidate: exit status without network, INET/INET6 sockets and
connect() calls (Python's import machinery opens none), and files opened for writing (byte-code
caches excluded). A library that downloads a model would fail or show a connect() here.

    python -m benchmarks.suites.sentence_segmenters.offline_check [--out FILE]

Prints a verdict per candidate (its findings are in README.md; --out writes them as JSON). To see
the check fail, run it with --demo-fetch: a fake candidate that calls socket.create_connection is
added and must be caught.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]  # the repository: benchmarks/ importable in the probe

_PROBE = """
import sys
sys.path.insert(0, {here!r})
from benchmarks.suites.sentence_segmenters.samples import build_samples
seen = set()
samples = [s for s in build_samples() if (s.corpus, s.variant) not in seen and not seen.add((s.corpus, s.variant))]
name = {name!r}
if name == "demo-fetch":
    import socket
    socket.create_connection(("192.0.2.1", 80), timeout=1)  # TEST-NET-1: never routed
else:
    from benchmarks.suites.sentence_segmenters.candidates import FACTORIES
    candidate = FACTORIES[name]()
    for s in samples:
        candidate.exact(s.text, s.lang)
        candidate.pieces(s.text, s.lang)
print("segmented", len(samples))
"""

_INET = re.compile(r"socket\((AF_INET|AF_INET6|PF_INET)")
_CONNECT = re.compile(r"connect\(\d+, \{sa_family=AF_INET")
_WRITE = re.compile(r'openat\([^,]+, "([^"]+)", [^)]*(O_WRONLY|O_RDWR|O_CREAT)')


def probe(name: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "strace.log"
        cmd = [
            "unshare",
            "-n",
            "strace",
            "-f",
            "-qq",
            "-e",
            "trace=socket,connect,openat",
            "-o",
            str(log),
            sys.executable,
            "-c",
            _PROBE.format(here=str(ROOT), name=name),
        ]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        trace = log.read_text(errors="replace")
    writes = sorted(
        {
            m.group(1)
            for m in _WRITE.finditer(trace)
            if not m.group(1).endswith(".pyc") and "__pycache__" not in m.group(1) and m.group(1) != "/dev/null"
        }
    )
    return {
        "exit_code": done.returncode,
        "ran_offline": done.returncode == 0,
        "inet_sockets": len(_INET.findall(trace)),
        "inet_connects": len(_CONNECT.findall(trace)),
        "files_opened_for_writing": writes,
        "stderr_tail": done.stderr.strip().splitlines()[-1:] if done.returncode else [],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--demo-fetch", action="store_true", help="add a fake candidate that opens a socket")
    parser.add_argument("--out", type=Path, default=None, help="also write the findings here as JSON")
    args = parser.parse_args()
    from benchmarks.suites.sentence_segmenters.candidates import FACTORIES

    names = [*FACTORIES, *(["demo-fetch"] if args.demo_fetch else [])]
    report = {name: probe(name) for name in names}
    for name, r in report.items():
        verdict = (
            "offline" if r["ran_offline"] and not r["inet_sockets"] and not r["files_opened_for_writing"] else "NOT"
        )
        print(f"{name:12} {verdict:8} {json.dumps(r, ensure_ascii=False)}")
    if args.demo_fetch:
        demo = report["demo-fetch"]
        assert demo["inet_sockets"] and not demo["ran_offline"], demo
        print("demo-fetch was caught: the check can fail")
    elif args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
