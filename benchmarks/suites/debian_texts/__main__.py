"""debian_texts: held-out messy text from the machine's own Debian files, side by side with the peers.

The messy_text suite measures sources we chose and generated; this one takes text that
nobody here wrote or tuned on, as Debian installs it, so that a fix for the main benchmark's
sources can be checked on text it was not made from:

  licences  /usr/share/common-licenses: GPL-3, Apache-2.0, MPL-2.0, LGPL-2.1, GFDL-1.3, Artistic
  man       manual pages as man(1) sets them (groff, then col -b: tabs as spacing, U+2010 hyphens)
  info      GNU info files of bc, ed, bzip2 and the first 150 KB of coreutils
  pydoc     python -m pydoc of json, textwrap and argparse
  readme    plain-text READMEs and FAQs (bash, coreutils, base-files)
  markdown  Markdown under /usr/share/doc (READMEs, Node.js's API pages; up to 60 KB, no
            changelogs, one copy of each text)

Plain-text groups are annotated like the main benchmark's plain sources (mt_sources.annotate_text:
blank-line blocks, the sentence rule on the cased text), Markdown like its Markdown sources; spans
and queries are drawn the same way. Some spans of these texts cross what a reader would call a
boundary (three entries of an info menu, a paragraph and the next pydoc paragraph, whose blank
line holds spaces): they count for every tool alike.

    V=benchmarks/suites/messy_text/.venv/bin       # the messy_text suite's venv (its README.md)
    $V/python -m benchmarks.suites.debian_texts                    # whole spans + BM25, all groups
    $V/python -m benchmarks.suites.debian_texts --groups man,info --variants clean,lower --dense
    $V/python -m benchmarks.suites.debian_texts --revision REV --tools parsegate

Results: benchmarks/results/debian_texts.json (a subset of groups, variants, budgets or tools:
debian_texts.partial.tmp, or --out). A group whose files are missing (no man, no info files) is
skipped with a message. Not a test.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.revisions import rerun_in

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

HERE = harness.ROOT / "benchmarks" / "suites" / "messy_text"  # its .cache/
TEXT_VARIANTS = "clean,lower,no_blank_lines,concat,pdf"
MARKDOWN_VARIANTS = "clean,lower,no_blank_lines,wrapped80,plain,flat_tables,concat"
LICENCES = ("GPL-3", "Apache-2.0", "MPL-2.0", "LGPL-2.1", "GFDL-1.3", "Artistic")
MAN_PAGES = ("tar", "find", "grep", "sed", "gzip", "ssh", "less")
INFO = (("bc", None), ("ed", None), ("bzip2", None), ("coreutils", 150_000))
PYDOC = ("json", "textwrap", "argparse")
READMES = ("bash/README.gz", "coreutils/README.gz", "base-files/FAQ", "base-files/README.FHS")
MARKDOWN_MAX = 60_000
DOC = Path("/usr/share/doc")
GROUP_NAMES, BUDGETS, TOOLS = (
    "licences,man,info,pydoc,readme,markdown",
    "128,200,256",
    "parsegate,semchunk,chonkie,langchain",
)


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--revision", default=None, help="parsegate at this git revision (default: the installed one)")
    p.add_argument("--groups", default=GROUP_NAMES)
    p.add_argument("--variants", default=None, help=f"default: {TEXT_VARIANTS} (text), {MARKDOWN_VARIANTS} (Markdown)")
    p.add_argument("--budgets", default=BUDGETS)
    p.add_argument("--tools", default=TOOLS)
    p.add_argument("--dense", action="store_true", help="also dense retrieval (all-MiniLM-L6-v2): slower")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--workdir", type=Path, default=HERE / ".cache" / "debian")
    return p.parse_args()


# -- the texts ---------------------------------------------------------------------------------


def licences() -> dict[str, str]:
    root = Path("/usr/share/common-licenses")
    return {f"{name}.txt": (root / name).read_text(encoding="utf-8") for name in LICENCES if (root / name).exists()}


def man_pages() -> dict[str, str]:
    if shutil.which("man") is None or shutil.which("col") is None:
        return {}
    out = {}
    env = {**os.environ, "MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0"}
    for page in MAN_PAGES:
        shown = subprocess.run(["man", "-P", "cat", page], capture_output=True, env=env, check=False)
        if shown.returncode == 0 and shown.stdout:
            plain = subprocess.run(["col", "-b"], input=shown.stdout, capture_output=True, check=True)
            out[f"{page}.txt"] = plain.stdout.decode("utf-8")
    return out


def info_pages() -> dict[str, str]:
    out = {}
    for name, limit in INFO:
        path = Path(f"/usr/share/info/{name}.info.gz")
        if path.exists():
            text = gzip.decompress(path.read_bytes()).decode("utf-8")
            out[f"{name}.txt"] = text[:limit] if limit else text
    return out


def pydoc_pages() -> dict[str, str]:
    out = {}
    for module in PYDOC:
        shown = subprocess.run([sys.executable, "-m", "pydoc", module], capture_output=True, check=False)
        if shown.returncode == 0:
            out[f"{module}.txt"] = shown.stdout.decode("utf-8")
    return out


def readmes() -> dict[str, str]:
    out = {}
    for rel in READMES:
        path = DOC / rel
        if path.exists():
            data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
            out[rel.replace("/", "_").removesuffix(".gz") + ".txt"] = data.decode("utf-8")
    return out


def markdown_pages() -> dict[str, str]:
    out, seen = {}, set()
    for path in sorted([*DOC.glob("*/*.md"), *DOC.glob("*/*.md.gz"), *DOC.glob("*/*/*.md")]):
        if any(word in path.name.upper() for word in ("CHANGELOG", "NEWS", "HISTORY")):
            continue
        data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if len(data) > MARKDOWN_MAX or digest in seen:
            continue
        seen.add(digest)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        out[str(path.relative_to(DOC)).replace("/", "_").removesuffix(".gz")] = text
    return out


GROUPS = {
    "licences": licences,
    "man": man_pages,
    "info": info_pages,
    "pydoc": pydoc_pages,
    "readme": readmes,
    "markdown": markdown_pages,
}


def sources(groups: list[str]) -> tuple[list, list]:
    """(plain-text sources, Markdown sources), annotated."""
    from benchmarks.suites.messy_text.mt_model import Source
    from benchmarks.suites.messy_text.mt_sources import annotate_markdown, annotate_text

    text, markdown = [], []
    for group in groups:
        found = GROUPS[group]()
        if not found:
            print(f"{group}: no files on this machine, skipped", flush=True)
            continue
        for name, body in sorted(found.items()):
            if group == "markdown":
                sentences, rows = annotate_markdown(body, "en")
                markdown.append(Source(f"{group}/{name}", group, "en", True, body, "Debian", name, sentences, rows))
            else:
                text.append(Source(f"{group}/{name}", group, "en", False, body, "Debian", name, annotate_text(body)))
    return text, markdown


# -- the measurement ---------------------------------------------------------------------------


def measure(args: argparse.Namespace, label: str, srcs: list, variant_names: list[str]) -> dict:
    from benchmarks.suites.messy_text import mt_corpus, mt_tools
    from benchmarks.suites.messy_text import mt_metrics as M
    from benchmarks.suites.messy_text.mt_bench import load_docs

    evidence = mt_corpus.draw_all(srcs, args.seed, 3)
    variants = mt_corpus.build(variant_names, srcs, evidence, args.workdir / label, lambda s: True)
    tok = mt_tools.load_tokenizer()
    dense = M.Dense() if args.dense else None
    out: dict = {}
    for name, variant in variants.items():
        docs, _, problems = load_docs(variant)
        queries = [loc.evidence.query for loc in variant.located]
        for budget in map(int, args.budgets.split(",")):
            row = {}
            for tool in args.tools.split(","):
                run = mt_tools.TOOLS[tool](budget, tok)
                chunks = {n: run(d) for n, d in docs.items()}
                index = M.Indexed.of(chunks)
                cell = {
                    "spans": len(variant.located),
                    "whole": sum(M.whole_share(variant.located, chunks)),
                    "bm25_complete": sum(M.hits(index, variant.located, M.bm25_rank(index, queries, 5))[0]),
                    "chunks": len(index.pieces),
                }
                if dense is not None:
                    cell["dense_complete"] = sum(M.hits(index, variant.located, dense.rank(index, queries, 5))[0])
                row[tool] = cell
            out[f"{name}@{budget}"] = {"tools": row, "spans_lost": len(variant.lost), "problems": problems}
            cells = "  ".join(
                f"{t}={c['whole']}/{c['bm25_complete']}" + (f"/{c['dense_complete']}" if dense else "")
                for t, c in row.items()
            )
            print(f"{label:8} {name:14} {budget:>4} spans={len(variant.located):<5} {cells}", flush=True)
    return out


def main() -> None:
    args = arguments()
    rerun_in(args.revision, "benchmarks.suites.debian_texts")
    from benchmarks.suites.messy_text import mt_tools  # noqa: F401  (fails early, with its own message, when a peer is missing)

    started = time.time()
    text, markdown = sources(args.groups.split(","))
    print(f"plain text: {len(text)} files; Markdown: {len(markdown)} files", flush=True)
    print("cells: spans whole / BM25 complete@5" + (" / dense complete@5" if args.dense else ""), flush=True)
    results = {}
    if text:
        results["text"] = measure(args, "text", text, (args.variants or TEXT_VARIANTS).split(","))
    if markdown:
        results["markdown"] = measure(args, "markdown", markdown, (args.variants or MARKDOWN_VARIANTS).split(","))
    report = Report("debian_texts")
    for kind, cells in results.items():
        for where, cell in cells.items():
            for tool, counts in cell["tools"].items():
                for metric in ("whole", "bm25_complete", "dense_complete"):
                    if metric in counts:
                        report.add(tool, f"{kind} {where}", metric, counts[metric], f"of {counts['spans']} spans",
                                   ratio_to="semchunk" if tool == "parsegate" else None)  # fmt: skip
    report.details = {
        "files": {"text": [s.name for s in text], "markdown": [s.name for s in markdown]},
        "seconds": round(time.time() - started, 1),
        "results": results,
    }
    defaults = (GROUP_NAMES, None, BUDGETS, TOOLS, False)
    whole = (args.groups, args.variants, args.budgets, args.tools, args.dense) == defaults
    print(f"wrote {report.write(args.out or (None if whole else harness.RESULTS / 'debian_texts.partial.tmp'))}")


if __name__ == "__main__":
    main()
