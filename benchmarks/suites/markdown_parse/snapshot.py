"""Every Document the Markdown parser makes from a wide set of inputs, as bytes to diff: a speed
change to the Markdown parser must leave them identical (the suite's __main__ measures the speed,
this file the sameness).

    python -m benchmarks.suites.markdown_parse.snapshot AFTER.txt
    python -m benchmarks.suites.markdown_parse.snapshot BEFORE.txt --revision REV
    cmp BEFORE.txt AFTER.txt   # nothing, or the change altered output

``--revision`` runs it under that git revision's parsegate (benchmarks/revisions.py). It stops
when the shared corpus is not found (``--corpus``): a snapshot without it would still compare
equal.

Inputs: every ``*.md`` under the shared corpus, every golden document's input, the messy-text
variants (benchmarks/suites/messy_text/mt_variants.py) of every fastapi page and of that suite's
other sources, the same pages with CRLF and CR line ends, and the hostile Markdown files. Each
Document is written whole through ``repr`` (every field of every element, its data's class and
fields, warnings, metadata, title, parser); a parse error is written as its code and message.
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Iterator
from pathlib import Path

from benchmarks import harness
from benchmarks.revisions import rerun_in

REPO = harness.ROOT
CORPUS = harness.SHARED
MESSY_VARIANTS = ("lower", "no_blank_lines", "wrapped80", "plain", "flat_tables", "lower_flat")


def plain_inputs() -> Iterator[tuple[str, bytes]]:
    for path in sorted(CORPUS.rglob("*.md")):
        yield f"corpus/{path.relative_to(CORPUS)}", path.read_bytes()
    for path in sorted((REPO / "golden_docs").rglob("input.*")):
        if path.suffix in (".md", ".txt"):
            yield f"golden/{path.relative_to(REPO / 'golden_docs')}", path.read_bytes()


def line_end_inputs() -> Iterator[tuple[str, bytes]]:
    fastapi = CORPUS / "markdown" / "fastapi-docs"
    for path in sorted(fastapi.rglob("*.md")):
        data, name = path.read_bytes(), path.relative_to(fastapi)
        yield f"crlf/{name}", data.replace(b"\n", b"\r\n")
        yield f"cr/{name}", data.replace(b"\n", b"\r")


def messy_inputs() -> Iterator[tuple[str, bytes]]:
    from benchmarks.suites.messy_text.mt_sources import all_sources, fastapi_sources
    from benchmarks.suites.messy_text.mt_variants import applies, transform

    fastapi = CORPUS / "markdown" / "fastapi-docs"
    sources = fastapi_sources(fastapi, 10_000, 1, max_bytes=10**9) + all_sources(fastapi, 12, 1, False)
    plain: list[str] = []
    for source in sources:
        for variant in MESSY_VARIANTS:
            if applies(variant, source):
                text = transform(variant, source)[0].text
                yield f"messy/{variant}/{source.name}", text.encode()
                if variant == "plain":
                    plain.append(text)
        if applies("non_english", source):
            yield f"messy/non_english/{source.name}", source.text.encode()
    yield "messy/concat", "\n\n".join(plain).encode()


def hostile_inputs() -> Iterator[tuple[str, bytes]]:
    from benchmarks.suites.hostile.files import HOSTILE

    for name, make in HOSTILE.items():
        if name.endswith(".md"):
            yield f"hostile/{name}", make()


def snapshot(name: str, data: bytes) -> str:
    from parsegate.parsers import markdown
    from parsegate.parsers.model import ParseError

    try:
        doc = markdown.parse(data, name)
    except ParseError as exc:
        return f"{name}\tERROR {exc.code}: {exc.message}"
    return f"{name}\t{doc!r}\ttitle={doc.title!r}"


def _use_corpus(corpus: Path) -> None:
    """Stop where the shared corpus is missing: without it the snapshot would hold a seventh of
    its inputs and still compare equal (run from a checkout outside /work, ../shared is not
    there: give --corpus)."""
    global CORPUS
    if not (corpus / "markdown" / "fastapi-docs").is_dir():
        raise SystemExit(f"no shared corpus at {corpus} (its markdown/fastapi-docs): give --corpus PATH")
    CORPUS = corpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--revision", default=None, help="parsegate at this git revision (default: the installed one)")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help=f"the shared corpus (default {CORPUS})")
    args = parser.parse_args()
    rerun_in(args.revision, "benchmarks.suites.markdown_parse.snapshot")
    _use_corpus(args.corpus)
    inputs = [*plain_inputs(), *line_end_inputs(), *messy_inputs(), *hostile_inputs()]
    digest = hashlib.sha256()
    with args.out.open("w", encoding="utf-8") as out:
        for name, data in inputs:
            line = f"{snapshot(name, data)}\n"
            digest.update(line.encode())
            out.write(line)
    print(f"{len(inputs)} inputs → {args.out} sha256:{digest.hexdigest()}")


if __name__ == "__main__":
    main()
