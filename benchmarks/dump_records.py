"""Every chunk record and gate outcome of a corpus, as bytes to diff: a speed change must leave
them identical (benchmarks/suites/throughput measures the speed, this file the sameness).

    .venv/bin/python benchmarks/dump_records.py OUT.jsonl [--corpus PATH] [-m 200 -m 128]
    diff before.jsonl after.jsonl   # nothing, or the change altered output

Each document goes through ``parsegate.engines.work.process`` (read, parse, chunk, gate), the path a
worker runs; the outcome's wall time is dropped, everything else is written as is.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import orjson

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.engines.work import outcome_dict, process

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parent.parent / "shared" / "corpus" / "markdown" / "fastapi-docs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("-m", "--max-tokens", type=int, action="append")
    parser.add_argument("--glob", default="*.md")
    args = parser.parse_args()
    paths = sorted(p for p in args.corpus.rglob(args.glob) if p.is_file())
    with args.out.open("wb") as out:
        for budget in args.max_tokens or [200]:
            chunker = Chunker(ChunkConfig(max_tokens=budget))
            for path in paths:
                doc_id = path.relative_to(args.corpus).as_posix()
                outcome, lines = process(path, doc_id, chunker)
                record = outcome_dict(outcome)
                record.pop("seconds")
                out.write(orjson.dumps({"budget": budget, "outcome": record}, option=orjson.OPT_SORT_KEYS) + b"\n")
                for line in lines:
                    out.write(line + b"\n")
    print(f"{len(paths)} files → {args.out}")


if __name__ == "__main__":
    main()
