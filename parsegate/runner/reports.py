"""Write report.json and report.html for a run, gathering what the HTML drill-down shows:
each document's chunk spans and, for text formats, its source text; for PDFs, its first pages
rendered by PDFium with every chunk's boxes (both read back from the corpus and checked against
the version the chunks name)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, Protocol

import orjson

from parsegate.engines.base import Limits
from parsegate.parsers.bytes.decode import decode_text
from parsegate.parsers.formats import source_text_formats
from parsegate.parsers.model import ParseError
from parsegate.quality_gates.facts import DocFacts
from parsegate.quality_gates.report import build_report, render_html
from parsegate.quality_gates.thresholds import GateConfig
from parsegate.quality_gates.verdict import Verdict
from parsegate.runner.discover import source_of
from parsegate.runner.members import member_of
from parsegate.runner.outdir import pretty_json, write_atomic
from parsegate.runner.render import PageDrawer

# Formats whose Document.text is the decoded source file itself (Markdown, text and code).
SOURCE_IS_TEXT = source_text_formats()
DETAIL_DOCS = 300  # documents with chunk detail in report.html, failures first
DETAIL_CHARS = 20_000_000  # and no more source text than this in the page
PAGES_PER_PDF = 8  # PDF pages drawn per document...
PAGES_IN_REPORT = 60  # ...and in the whole page (about 40 KB each)


class PageCache(Protocol):
    """Pages drawn before for a document version (the chunk store's): rendering PDF pages is most
    of a re-run's report on a corpus of PDFs, and the same version's chunks draw the same pages."""

    def get(self, doc_id: str, version: str, count: int) -> list[dict[str, Any]] | None: ...

    def put(self, doc_id: str, version: str, count: int, pages: list[dict[str, Any]]) -> None: ...


def write_reports(
    outdir: Path,
    files: list[dict[str, Any]],
    gate: GateConfig,
    run: dict[str, Any],
    corpus: Path,
    run_checks: list[dict[str, Any]] | None = None,
    page_cache: PageCache | None = None,
    gated: dict[str, tuple[DocFacts, Verdict]] | None = None,
    password: str | None = None,
) -> dict[str, Any]:
    """report.json and report.html (``password``: the run's PDF password, to draw encrypted PDFs' pages)."""
    report = build_report(files, gate, run, gated)
    # Checks of the run the orchestrator makes (say, that it read any document at all).
    report["run_checks"] = [*report["run_checks"], *(run_checks or [])]
    if not all(c["passed"] for c in report["run_checks"]):
        report["verdict"] = "fail"
    _name_chunks(outdir, report)
    write_atomic(outdir / "report.json", pretty_json(report))  # whole or not at all (a full disk)
    facts = {f["path"]: f.get("facts") or {} for f in files}
    given = run.get("limits") or {}
    limits = Limits(
        float(given.get("seconds", 120.0)),
        tuple((str(k), float(v)) for k, v in (given.get("per_format") or {}).items()),
        int(given.get("memory_mb", 2048)),
    )
    details = _details(outdir, report, corpus, facts, page_cache, limits, password)
    write_atomic(outdir / "report.html", render_html(report, details))
    return report


def _name_chunks(outdir: Path, report: dict[str, Any]) -> None:
    """The chunk ids of the chunks a failed run-level check names by index (``pairs``: a chunk
    of ``doc_id`` and the chunk of ``duplicate_of`` it repeats), read from the outputs."""
    faults = [f for c in report["run_checks"] for f in c.get("faults") or []]
    faults += [f for d in report["documents"] for f in d.get("run_faults") or []]
    named = {d for f in faults for d in (f.get("doc_id"), f.get("duplicate_of")) if d}
    if not named:
        return
    passed = {d["doc_id"] for d in report["documents"] if d["status"] == "chunked" and d["verdict"] == "pass"}
    ids = {doc: [c["id"] for c in chunks] for doc, chunks in _chunks_by_doc(outdir, named, passed & named).items()}
    for fault in faults:
        here, there = ids.get(fault.get("doc_id", ""), []), ids.get(fault.get("duplicate_of", ""), [])
        for pair in fault.get("pairs") or []:
            i, j = pair.get("chunk_index", -1), pair.get("of_chunk_index", -1)
            if 0 <= i < len(here):
                pair["chunk"] = here[i]
            if 0 <= j < len(there):
                pair["of_chunk"] = there[j]


def _wanted(report: dict[str, Any]) -> list[str]:
    return [d["doc_id"] for d in report["documents"] if d["status"] == "chunked"][:DETAIL_DOCS]


_DOC_ID = re.compile(rb'"doc_id":("(?:[^"\\]|\\.)*")')  # a record's doc_id, as its JSON string


def _chunks_by_doc(outdir: Path, wanted: set[str], passed: set[str]) -> dict[str, list[dict[str, Any]]]:
    """The chunks of the wanted documents; ``passed``: those of them whose chunks are in chunks.jsonl."""
    found: dict[str, list[dict[str, Any]]] = {doc: [] for doc in wanted}
    chunks_file, quarantine_file = outdir / "chunks.jsonl", outdir / "quarantine.jsonl"
    if chunks_file.exists():
        left = set(passed)
        with chunks_file.open("rb") as lines:
            for line in lines:
                # The document's id alone, read off the line: most lines are not wanted, and
                # parsing each whole record was most of an incremental re-run's report time.
                named = _DOC_ID.search(line)
                doc_id = orjson.loads(named.group(1)) if named else orjson.loads(line)["doc_id"]
                if doc_id in found:
                    found[doc_id].append(orjson.loads(line))
                    left.discard(doc_id)
                elif not left:
                    break  # a document's chunks are one run of lines: every wanted one is read
    if quarantine_file.exists():
        with quarantine_file.open("rb") as lines:
            for line in lines:
                entry = orjson.loads(line)
                if entry["doc_id"] in found:
                    found[entry["doc_id"]].extend(entry.get("chunks", []))
    return found


def _read(corpus: Path, doc_id: str, version: str | None) -> tuple[bytes | None, str | None]:
    named = member_of(doc_id)  # a mail's attachment: read out of the mail (runner/members.py)
    whole = None if corpus.is_file() else source_of(corpus, doc_id)
    if named is not None and (whole is None or not whole.exists()):
        mail, member = named
    else:
        mail, member = doc_id, None
    path = corpus if corpus.is_file() else source_of(corpus, mail)
    if path is None:
        return None, "The document id leads outside the corpus root; the file is not read."
    try:
        data = path.read_bytes()
        if member is not None:
            from parsegate.parsers.mail import attachment

            data = attachment(data, path.suffix, member)[1]
    except OSError as exc:
        return None, f"Source file not readable now ({exc.strerror})."
    except ParseError:
        return None, "The mail no longer holds this attachment; it is not shown."
    if version and "sha256:" + hashlib.sha256(data).hexdigest() != version:
        return None, "The source file changed since this run; it is not shown."
    return data, None


def _source(corpus: Path, doc_id: str, fmt: str | None, version: str | None) -> tuple[str | None, str | None]:
    if fmt not in SOURCE_IS_TEXT:
        return None, f"Source view is available for text formats; {fmt} text is the parser's normalized text."
    data, note = _read(corpus, doc_id, version)
    if data is None:
        return None, note
    try:
        return decode_text(data), None
    except ParseError as exc:
        return None, exc.message


def _pages(
    corpus: Path,
    doc_id: str,
    version: str | None,
    chunks: list[dict[str, Any]],
    facts: dict[str, Any],
    room: int,
    cache: PageCache | None,
    drawer: PageDrawer,
    password: str | None,
    failed: list[dict[str, Any]],
    image: bool,
) -> tuple[list[dict[str, Any]], str | None]:
    """The document's first pages drawn (render.py: in a limited child), and a note if they are
    not; a document the gate failed on OCR pages has the pages of its low chunks and of the lines
    its second reading found in no chunk drawn first, with those marked (``failed``: its failed
    checks), so that a person reads there what the engine could not."""
    data, _ = _read(corpus, doc_id, version)
    if data is None or room <= 0:
        return [], None
    count = min(PAGES_PER_PDF, room)
    faults = facts.get("faults") or {}
    low = {
        str(f["chunk_index"]): f.get("why", "")
        for c in failed
        if c.get("check") == "min_ocr_confidence"
        for f in c.get("faults") or []
        if isinstance(f.get("chunk_index"), int)
    }
    ocr_failed = any(c.get("check") == "min_ocr_recall" for c in failed)
    marks = {"low": low, "ocr_lost": faults.get("ocr_recall", []) if ocr_failed else []}
    marked = bool(low or marks["ocr_lost"])  # drawn for this verdict: not from the cache, nor into it
    if cache is not None and version is not None and not marked:
        drawn = cache.get(doc_id, version, count)
        if drawn is not None:
            return drawn, None
    lost = faults.get("extraction_recall", [])
    pages, note = drawer.draw(data, chunks, facts.get("furniture") or [], lost, count, doc_id, password, marks, image)
    if cache is not None and version is not None and note is None and not marked:
        cache.put(doc_id, version, count, pages)
    return pages, note


def _details(
    outdir: Path,
    report: dict[str, Any],
    corpus: Path,
    facts: dict[str, dict[str, Any]],
    page_cache: PageCache | None = None,
    limits: Limits | None = None,
    password: str | None = None,
) -> dict[str, dict[str, Any]]:
    limits = limits or Limits()
    wanted = _wanted(report)
    passed = {d["doc_id"] for d in report["documents"] if d["status"] == "chunked" and d["verdict"] == "pass"}
    by_doc = _chunks_by_doc(outdir, set(wanted), passed & set(wanted))
    formats = {d["doc_id"]: d["format"] for d in report["documents"]}
    failed = {d["doc_id"]: d.get("failed_checks") or [] for d in report["documents"]}
    details: dict[str, dict[str, Any]] = {}
    budget = DETAIL_CHARS
    pages_left = PAGES_IN_REPORT
    with PageDrawer(limits) as drawer:
        for doc_id in wanted:
            details[doc_id], pages_left, budget = _detail(
                corpus, doc_id, by_doc, formats, facts, page_cache, drawer, password, pages_left, budget, failed
            )
    return details


def _detail(
    corpus: Path,
    doc_id: str,
    by_doc: dict[str, list[dict[str, Any]]],
    formats: dict[str, Any],
    facts: dict[str, dict[str, Any]],
    page_cache: PageCache | None,
    drawer: PageDrawer,
    password: str | None,
    pages_left: int,
    budget: int,
    failed: dict[str, list[dict[str, Any]]],
) -> tuple[dict[str, Any], int, int]:
    """One document's detail: its source view or chunk texts within ``budget`` characters, and its
    first pages within ``pages_left``; what is left of both."""
    chunks = sorted(by_doc.get(doc_id, []), key=lambda c: (c["start"], c["end"]))
    version = chunks[0]["doc_version"] if chunks else None
    text, note = _source(corpus, doc_id, formats.get(doc_id), version)
    if text is not None and len(text) > budget:
        text, note = None, "Source text left out: the page's size limit was reached."
    budget -= len(text or "")
    # Without a source view the chunks' own texts are shown, within the same size limit.
    show_texts = text is None and sum(len(c["text"]) for c in chunks) <= budget
    if show_texts:
        budget -= sum(len(c["text"]) for c in chunks)
    pages: list[dict[str, Any]] = []
    pages_note = None
    if formats.get(doc_id) in ("pdf", "image"):
        pages, pages_note = _pages(
            corpus,
            doc_id,
            version,
            chunks,
            facts.get(doc_id, {}),
            pages_left,
            page_cache,
            drawer,
            password,
            failed.get(doc_id, []),
            formats.get(doc_id) == "image",
        )
        pages_left -= len(pages)
    detail = {
        "text": text,
        "text_note": note,
        "pages": pages,
        "pages_note": pages_note,
        "chunks": [
            {
                "id": c["id"],
                "symbol": c.get("symbol"),
                "start": c["start"],
                "end": c["end"],
                "tokens": c["tokens"],
                "lines": c.get("lines"),
                "pages": c.get("pages"),
                "boxes": c.get("boxes"),
                "section_path": c.get("section_path"),
                "kinds": c.get("kinds"),
                "prefix": c["embed_text"][: len(c["embed_text"]) - len(c["text"])].rstrip(),
                # Without a source view (PDF, Office, web pages, code) the chunk's own text is
                # what the page can show of what would be embedded.
                **({"text": c["text"]} if show_texts else {}),
            }
            for c in chunks
        ],
    }
    return detail, pages_left, budget
