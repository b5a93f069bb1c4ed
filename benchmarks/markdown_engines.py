"""Do the two Markdown engines (markdown-it-py, pyromark) build the same Documents, and how fast
does each find the block structure?

For every input, parse with each engine (PARSEGATE_MARKDOWN_ENGINE) and compare every element
field by field (id, kind, start, end, level, section_path, parent, lines, data), the metadata and
the warnings. Prints the documents that differ with each class of difference (the field that
differs, first occurrence shown), how many documents pyromark left to markdown-it, and the CPU
time of the block parse alone and of the whole parse for each engine, in one run.

    python benchmarks/markdown_engines.py [--corpus DIR] [--extra DIR ...] [--repeat N]

Inputs: every *.md under the fastapi docs, the golden Markdown cases, the test sources of
tests/test_markdown_parser.py style (a small built-in list of edge cases), and any --extra folder
(the messy-text benchmark's generated variants, where they exist).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parsegate.parsers import markdown, markdown_it_walk, markdown_pyromark
from parsegate.parsers.decode import decode_text
from parsegate.parsers.model import Document

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "markdown" / "fastapi-docs"
GOLDEN = ROOT / "golden_docs" / "markdown"
MESSY = Path("/work/wt-messy-bench/benchmarks/messy_text/.cache/variants")
# Edge cases where the engines' rules differ by construction (the module reproduces markdown-it's).
EDGE_CASES = {
    "front-matter-dots.md": "---\ntitle: x\n...\n\n# A\n",
    "front-matter-unclosed.md": "---\ntitle: x\n\n# A\n",
    "front-matter-longer-close.md": "---\na: 1\n-----  \n# A\n",
    "front-matter-indented-close.md": "---\na: 1\n    ---\n---\nBody\n",
    "atx-closing.md": "# A #\n## B ##  \n### C#\n#### ###\n##### \\#\n  # D { #id }\n",
    "setext-multi.md": "Foo\n   bar\n===\n\n> Quoted\n> ---\n\n- Item\n  ---\n",
    "setext-multi-in-quote.md": "> Foo\n> bar\n> ===\n",
    "fences.md": "```py title='x'\na\n```\n\n  ~~~~ js\n  b\n  ~~~~\n\n- step:\n\n  ```bash\n  run\n  ```\n",
    "lists.md": "1) a\n10) b\n\n- x\n- 2. y\n  - z\n\n  tail\n\n* [ ] task\n+ plus\n",
    "tables.md": "| a | b \\| c |\n|---|---|\n| 1 | 2 |\nno pipe\n| 3 | 4 | 5 |\n\n> | q |\n> |---|\n> | 1 |\n",
    "two-tables.md": "| a | b |\n|---|---|\n| 1 | 2 |\n| c | d |\n|---|---|\n| 3 | 4 |\n",
    "crlf-cr.md": "# T\r\n\r\npara\r\nmore\r\n\r\n- a\r- b\r",
    "html-refs.md": "<div>\nx\n</div>\n\n[ref]: https://example.com\n\n***\n\n    code\n",
    "unicode.md": "# Überschrift — 見出し\n\n| ä | 日本 |\n|---|---|\n| ö | 語 |\n\n- ü\n  - 🎉 emoji\n",
    "deep.md": "- " * 200 + "x\n",
    "quote-lazy.md": "> a\nlazy\n> - b\n>   c\n\n>     code\n",
}


def inputs(corpus: Path, extras: Iterable[Path]) -> list[tuple[str, bytes]]:
    found = [(str(p.relative_to(corpus)), p.read_bytes()) for p in sorted(corpus.rglob("*.md"))]
    found += [(f"golden/{p.parent.name}", p.read_bytes()) for p in sorted(GOLDEN.glob("*/input.md"))]
    for extra in extras:
        for p in sorted(extra.rglob("*")):
            if p.suffix in markdown.SUFFIXES:
                found.append((f"extra/{p.relative_to(extra)}", p.read_bytes()))
    found += [(f"edge/{name}", text.encode()) for name, text in EDGE_CASES.items()]
    return found


def parse_with(engine: str, data: bytes, doc_id: str) -> Document:
    os.environ[markdown.ENGINE_VARIABLE] = engine
    return markdown.parse(data, doc_id)


def element_fields(doc: Document) -> list[dict[str, Any]]:
    return [dataclasses.asdict(el) for el in doc.elements]


def differences(a: Document, b: Document) -> list[tuple[str, str]]:
    """(class, example) for each kind of difference between two Documents of one source."""
    found: list[tuple[str, str]] = []
    ea, eb = element_fields(a), element_fields(b)
    if len(ea) != len(eb):
        found.append(("element count", f"{len(ea)} vs {len(eb)}"))
    for x, y in zip(ea, eb, strict=False):
        for key in x:
            if x[key] != y[key]:
                where = f"{x['kind']} {x['start']}:{x['end']} ({a.text[x['start'] : x['end']][:60]!r})"
                found.append((f"element.{key}", f"{where}: {x[key]!r} vs {y[key]!r}"))
    if a.metadata != b.metadata:
        found.append(("metadata", f"{a.metadata!r} vs {b.metadata!r}"))
    wa = [dataclasses.asdict(w) for w in a.warnings]
    wb = [dataclasses.asdict(w) for w in b.warnings]
    if wa != wb:
        found.append(("warnings", f"{wa!r} vs {wb!r}"))
    return found


def cpu(fn: Callable[[], object], repeat: int) -> float:
    """Best CPU time of ``repeat`` runs (process time: other processes' load does not count)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def timings(docs: list[tuple[str, bytes]], repeat: int) -> dict[str, float]:
    texts = [decode_text(data) for _, data in docs]

    def mdit_blocks() -> None:
        for t in texts:
            markdown_it_walk.block_tokens(t)

    def pyromark_blocks() -> None:
        for t in texts:
            markdown_pyromark.tokens(t)

    def full(engine: str) -> Callable[[], None]:
        def run() -> None:
            for name, data in docs:
                parse_with(engine, data, name)

        return run

    return {
        "markdown-it block parse (tokens)": cpu(mdit_blocks, repeat),
        "pyromark block parse (events → block calls)": cpu(pyromark_blocks, repeat),
        "markdown-it whole parse (Document)": cpu(full("markdown-it"), repeat),
        "pyromark whole parse (Document)": cpu(full("pyromark"), repeat),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--extra", type=Path, action="append", default=[MESSY] if MESSY.is_dir() else [])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", type=Path, help="write the figures here too")
    args = ap.parse_args()
    docs = inputs(args.corpus, args.extra)
    differing: dict[str, list[tuple[str, str]]] = {}
    fallbacks = [name for name, data in docs if markdown_pyromark.tokens(decode_text(data)) is None]
    for name, data in docs:
        diff = differences(parse_with("markdown-it", data, name), parse_with("pyromark", data, name))
        if diff:
            differing[name] = diff
    classes: Counter[str] = Counter()
    examples: dict[str, str] = {}
    for name, diff in differing.items():
        for cls in {c for c, _ in diff}:
            classes[cls] += 1
        for cls, example in diff:
            examples.setdefault(cls, f"{name}: {example}")
    print(f"documents: {len(docs)} ({sum(len(d) for _, d in docs) / 1e6:.2f} MB)")
    print(f"left to markdown-it by pyromark: {len(fallbacks)} {fallbacks}")
    print(f"documents with differences: {len(differing)}")
    for cls, n in classes.most_common():
        print(f"  {cls}: {n} documents; first: {examples[cls][:300]}")
    load = os.getloadavg()
    times = timings([d for d in docs if not d[0].startswith("edge/")], args.repeat)
    print(f"CPU seconds, best of {args.repeat} (load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}):")
    for name, seconds in times.items():
        print(f"  {name}: {seconds:.3f}")
    block = times["markdown-it block parse (tokens)"] / times["pyromark block parse (events → block calls)"]
    whole = times["markdown-it whole parse (Document)"] / times["pyromark whole parse (Document)"]
    print(f"speed-up: block parse {block:.2f}x, whole parse {whole:.2f}x")
    if args.json:
        record = {
            "documents": len(docs),
            "differing": {k: v[:5] for k, v in differing.items()},
            "fallbacks": fallbacks,
            "cpu_seconds": times,
            "load_average": load,
        }
        args.json.write_text(json.dumps(record, indent=2) + "\n")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
