"""The clean sources and their known structure.

Real text (fastapi docs in English, German and Japanese; parsegate's golden documents; the
encyclopedia articles extracted from Python's own documentation) is annotated from its block
structure: markdown-it-py's block map for Markdown, blank lines / speaker prefixes / single
lines for plain text. Inside a block, sentence boundaries follow one conservative rule on the
*clean, cased* text: a stop (. ! ? or 。！？) then whitespace then an upper-case letter, digit
or opening mark, unless the word before the stop is a known abbreviation or a single letter.
This is not the segmenter under test (parsegate's or a peer's); it only has to be right on
clean cased prose, which the messy variants then damage.
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

from markdown_it import MarkdownIt

from benchmarks.suites.messy_text import gen_filing, gen_prose
from benchmarks.suites.messy_text.mt_model import Row, Sentence, Source

HERE = Path(__file__).resolve().parent
FASTAPI_LICENCE = "MIT (fastapi/fastapi, docs/)"

ABBREVIATIONS = {
    "e.g",
    "i.e",
    "etc",
    "vs",
    "mr",
    "mrs",
    "ms",
    "dr",
    "inc",
    "no",
    "fig",
    "approx",
    "cf",
    "al",
    "viz",
    "z.b",
    "d.h",
    "usw",
    "bzw",
    "ca",
    "nr",
    "u.a",
    "vgl",
    "bzgl",
    "ggf",
    "inkl",
    "z",
    "b",
    "d",
    "h",
    "u",
    "a",
    "st",
    "jr",
    "sr",
    "co",
    "corp",
    "ltd",
    "resp",
    "sec",
    "vol",
    "pp",
    "ed",
    "eds",
}
_EN_STOP = re.compile(r"[.!?][\"')\]»“”*_`]*(?=\s+[\"'(\[«„“*_`]*[A-ZÄÖÜ0-9])")
_JA_STOP = re.compile(r"[。！？!?][」』）)]*")
_WORD_BEFORE = re.compile(r"([\w.]+)[.!?][\"')\]»“”*_`]*$")
_LIST_MARKER = re.compile(r"[ \t]*(?:[*+-]|\d+[.)])[ \t]+")
_TURN = re.compile(r"^(?:\[[\d:]+\]\s*)?[A-Za-z][\w .'-]{0,30}:\s+(?=\S)")


def split_sentences(text: str, start: int, end: int, lang: str, block: int) -> list[Sentence]:
    """Sentences of the clean block ``text[start:end]``, trimmed of surrounding whitespace."""
    chunk = text[start:end]
    cuts = [0]
    if lang == "ja":
        cuts += [m.end() for m in _JA_STOP.finditer(chunk)]
    else:
        for m in _EN_STOP.finditer(chunk):
            before = _WORD_BEFORE.search(chunk[max(0, m.start() - 30) : m.end()])
            word = before.group(1).lower().rstrip(".") if before else ""
            if word in ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                continue
            cuts.append(m.end())
    cuts.append(len(chunk))
    out = []
    for a, b in itertools.pairwise(cuts):
        piece = chunk[a:b]
        lead = len(piece) - len(piece.lstrip())
        trail = len(piece.rstrip())
        if trail > lead:
            out.append(Sentence(start + a + lead, start + a + trail, block))
    return out


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts += [m.end() for m in re.finditer("\n", text)]
    return starts


def annotate_markdown(text: str, lang: str) -> tuple[list[Sentence], list[Row]]:
    md = MarkdownIt("commonmark").enable("table")
    tokens = md.parse(text)
    starts = [*_line_starts(text), len(text) + 1]
    sentences: list[Sentence] = []
    rows: list[Row] = []
    stack: list[str] = []
    header: tuple[int, int] | None = None
    for i, tok in enumerate(tokens):
        if tok.nesting == 1:
            stack.append(tok.type)
        elif tok.nesting == -1:
            stack.pop()
        if tok.type == "paragraph_open" and tok.map and "blockquote_open" not in stack and "table_open" not in stack:
            content = tokens[i + 1].content
            if content.startswith(("///", "{*", "<")) or "\n|" in content:
                continue
            a, b = starts[tok.map[0]], starts[tok.map[1]] - 1
            if stack.count("list_item_open"):
                marker = _LIST_MARKER.match(text, a, b)
                a = marker.end() if marker else a
            sentences += split_sentences(text, a, b, lang, block=i)
        elif tok.type == "tr_open" and tok.map:
            a = starts[tok.map[0]]
            b = a + len(text[a : starts[tok.map[0] + 1] - 1].rstrip())
            if "thead_open" in stack:
                header = (a, b)
            elif header:
                rows.append(Row(a, b, *header))
    return sentences, rows


def annotate_text(text: str, lines_are_paragraphs: bool = False) -> list[Sentence]:
    """Plain text: blocks are blank-line separated paragraphs, speaker turns, or (for
    articles with single line breaks) lines. A short line with no stop is a title."""
    sentences: list[Sentence] = []
    pattern = r"[^\n]+" if lines_are_paragraphs else r"(?:[^\n]+\n?)+"
    for block_no, m in enumerate(re.finditer(pattern, text)):
        block = m.group().rstrip("\n")
        lines = block.split("\n")
        if all(_TURN.match(line) for line in lines):
            pos = m.start()
            for k, line in enumerate(lines):
                turn = _TURN.match(line)
                assert turn
                sentences += split_sentences(text, pos + turn.end(), pos + len(line), "en", block_no * 1000 + k)
                pos += len(line) + 1
        elif len(lines) > 1 or block.rstrip().endswith((".", "?", "!", '"')):
            sentences += split_sentences(text, m.start(), m.start() + len(block), "en", block_no * 1000)
    return sentences


def fastapi_sources(corpus: Path, count: int, seed: int, max_bytes: int = 20_000) -> list[Source]:
    """A seeded sample of the pages under ``max_bytes`` (a few reference pages are 50-100 KB,
    and dense retrieval over them would dominate the run)."""
    paths = sorted(p for p in corpus.rglob("*.md") if p.stat().st_size <= max_bytes)
    paths = sorted(random.Random(seed).sample(paths, k=min(count, len(paths))))
    out = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        sentences, rows = annotate_markdown(text, "en")
        name = "fastapi/" + path.relative_to(corpus).as_posix()
        out.append(Source(name, "fastapi", "en", True, text, FASTAPI_LICENCE, str(path), sentences, rows))
    return out


def golden_sources(repo: Path) -> list[Source]:
    out = []
    for path in sorted((repo / "golden_docs" / "markdown").glob("*/input.md")):
        text = path.read_text(encoding="utf-8")
        sentences, rows = annotate_markdown(text, "en")
        out.append(
            Source(
                f"golden/{path.parent.name}.md",
                "golden",
                "en",
                True,
                text,
                "MIT (parsegate)",
                str(path),
                sentences,
                rows,
            )
        )
    for path in sorted((repo / "golden_docs" / "text").glob("*/input.txt")):
        text = path.read_text(encoding="utf-8")
        out.append(
            Source(
                f"golden/{path.parent.name}.txt",
                "golden",
                "en",
                False,
                text,
                "MIT (parsegate)",
                str(path),
                annotate_text(text),
            )
        )
    return out


def foreign_sources() -> list[Source]:
    out = []
    for lang, group, folder in (("de", "german", "fastapi-de"), ("ja", "japanese", "fastapi-ja")):
        for path in sorted((HERE / "sources" / folder).glob("*.md")):
            text = path.read_text(encoding="utf-8")
            sentences, rows = annotate_markdown(text, lang)
            out.append(
                Source(
                    f"{group}/{path.name}",
                    group,
                    lang,
                    True,
                    text,
                    f"{FASTAPI_LICENCE.replace('docs/', f'docs/{lang}/docs/')}",
                    f"sources/{folder}/{path.name}",
                    sentences,
                    rows,
                )
            )
    return out


def encyclopedia_sources() -> list[Source]:
    out = []
    for path in sorted((HERE / "sources" / "encyclopedia").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        out.append(
            Source(
                f"encyclopedia/{path.name}",
                "encyclopedia",
                "en",
                False,
                text,
                "PSF-2.0 (Python documentation, pydoc_data/topics.py)",
                f"sources/encyclopedia/{path.name}",
                annotate_text(text, lines_are_paragraphs=True),
            )
        )
    return out


def all_sources(corpus: Path, fastapi_files: int, seed: int, quick: bool) -> list[Source]:
    """Every source. The golden documents come from the benchmark's own checkout, not from the
    checkout under test, so that every checkout is measured on the same inputs."""
    sources = fastapi_sources(corpus, fastapi_files, seed) + golden_sources(HERE.parents[2])
    sources += gen_filing.filings(seed, count=2 if quick else 6)
    sources += [gen_prose.chat(i, seed, messages=50 if quick else 90) for i in range(1 if quick else 3)]
    sources += [gen_prose.speech(i, seed) for i in range(1 if quick else 3)]
    sources += [gen_prose.papers(seed, count=3 if quick else 6)]
    encyclopedia = encyclopedia_sources()
    sources += encyclopedia[:3] if quick else encyclopedia
    sources += foreign_sources()
    return sources
