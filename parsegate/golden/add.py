"""Create a golden case from a user's document and quoted evidence, and rewrite expected files."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import asdict
from pathlib import Path

from parsegate.chunkers import ChunkConfig
from parsegate.golden.cases import CONFIG, Case, CaseError, snapshot, write_expected
from parsegate.golden.check import CaseReport, check_case
from parsegate.golden.evidence import EVIDENCE_FILE, Question, SpanRef, dump_evidence, occurrences
from parsegate.parsers.model import ParseError
from parsegate.parsers.registry import parse_file


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "case"


def pair_questions(
    questions: list[str], evidence: list[str], context: list[str], unanswerable: list[str]
) -> list[tuple[str, list[SpanRef] | None]]:
    """Command-line questions and evidence: one question takes every --evidence as its spans;
    several questions take one --evidence each, in order. --context goes with every span of a
    single question."""
    if len(questions) > 1 and len(evidence) != len(questions):
        raise CaseError(f"{len(questions)} questions need {len(questions)} --evidence (one each), got {len(evidence)}")
    if len(questions) > 1 and context:
        raise CaseError("--context applies to a single --question; write evidence.json for more")
    if questions and not evidence:
        raise CaseError("each --question needs --evidence: the source text that answers it, quoted exactly")
    ctx = tuple(context)
    if len(questions) == 1:
        pairs: list[tuple[str, list[SpanRef] | None]] = [
            (questions[0], [SpanRef(quote=e, context=ctx) for e in evidence])
        ]
    else:
        pairs = [(q, [SpanRef(quote=e)]) for q, e in zip(questions, evidence, strict=True)]
    return pairs + [(q, None) for q in unanswerable]


def _folder(root: Path, fmt: str, source: Path, name: str) -> Path:
    # Office formats share a parser; one folder per suffix keeps docx and pptx cases apart.
    parts = [fmt, source.suffix.lower().lstrip(".")] if fmt == "office" else [fmt]
    return root.joinpath(*parts, name)


def _check_quotes(text: str, pairs: list[tuple[str, list[SpanRef] | None]], source: Path) -> None:
    for question, spans in pairs:
        for ref in spans or []:
            assert ref.quote is not None
            if not occurrences(text, ref.quote):
                raise CaseError(
                    f"{source}: the evidence for {question!r} is not in the document's text as parsegate reads it: "
                    f"{ref.quote!r} (quote it exactly; 'parsegate parse {source}' shows the text)"
                )
            for c in ref.context:
                if not occurrences(text, c):
                    raise CaseError(f"{source}: the context {c!r} for {question!r} is not in the document's text")


def add_case(
    root: Path,
    source: Path,
    pairs: list[tuple[str, list[SpanRef] | None]],
    config: ChunkConfig,
    name: str | None = None,
    force: bool = False,
) -> CaseReport:
    """Copy ``source`` into a new case under ``root`` with its evidence, config and expected
    outputs, and return the case's first check (which says whether the evidence lies whole)."""
    try:
        doc = parse_file(source)
    except ParseError as exc:
        raise CaseError(f"{source}: {exc.message} [{exc.code}]") from None
    _check_quotes(doc.text, pairs, source)
    folder = _folder(root, doc.format, source, slug(name or source.stem))
    if folder.exists() and not force:
        raise CaseError(f"{folder} exists already (--force replaces it)")
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    shutil.copyfile(source, folder / f"input{source.suffix.lower()}")
    case = Case(root, folder)
    settings = {k: v for k, v in asdict(config).items() if v != getattr(ChunkConfig(), k)}
    if settings:
        (folder / CONFIG).write_text(json.dumps(settings) + "\n", encoding="utf-8")
    questions = [
        Question(f"{case.name}#{n + 1}", q, case.name, tuple(spans or ()), answerable=spans is not None)
        for n, (q, spans) in enumerate(pairs)
    ]
    (folder / EVIDENCE_FILE).write_text(dump_evidence(questions), encoding="utf-8")
    write_expected(case, snapshot(case))
    return check_case(case)


def update_case(case: Case, report: CaseReport) -> bool:
    """Rewrite a case's expected files from the snapshot its check took; False if it has none."""
    if report.snapshot is None:
        return False
    write_expected(case, report.snapshot)
    return True
