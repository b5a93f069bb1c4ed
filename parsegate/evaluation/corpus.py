"""The documents and questions an evaluation runs on.

Two inputs: a golden tree (every case folder with ``input.*`` and ``evidence.json``; questions
name their case), or a folder of documents plus a questions file (a CSV with character offsets,
or a JSON list in the evidence.json form whose items also name their ``document``, a path
under the folder).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from parsegate.chunkers.tokens.counter import DEFAULT_TOKENIZER, load_counter
from parsegate.chunkers.tokens.index import SpanIndex
from parsegate.golden.cases import CaseError, discover
from parsegate.golden.evidence import EvidenceError, Located, Question, load_csv, locate_all, question_from_json
from parsegate.parsers.model import Document, ParseError
from parsegate.parsers.registry import parse_file


@dataclass
class EvalDoc:
    key: str  # how questions name it
    doc: Document
    positions: SpanIndex  # token positions of its text, for token-level scores
    tokens: int = 0

    def token_span(self, start: int, end: int) -> tuple[int, int]:
        return self.positions.count(0, start), self.positions.count(0, end)


@dataclass
class Corpus:
    docs: dict[str, EvalDoc]
    questions: list[Question]
    located: dict[str, list[Located]] = field(default_factory=dict)

    @property
    def answerable(self) -> list[Question]:
        return [q for q in self.questions if q.answerable]

    def source_chars(self) -> int:
        return sum(len(d.doc.text) for d in self.docs.values())


def _eval_doc(key: str, doc: Document) -> EvalDoc:
    index = load_counter(DEFAULT_TOKENIZER).index(doc.text)
    return EvalDoc(key, doc, index, index.count(0, len(doc.text)))


def _locate(corpus: Corpus) -> Corpus:
    """Place every span in its document's text; a span that is not there is an input error,
    unless its question is a recorded expected failure (then it counts as a miss)."""
    problems = []
    for q in corpus.answerable:
        if q.document not in corpus.docs:
            problems.append(f"{q.id}: no document '{q.document}'")
            continue
        located = locate_all(corpus.docs[q.document].doc.text, q)
        corpus.located[q.id] = located
        for n, span in enumerate(located, start=1):
            if not span.found and not q.expected_failure:
                problems.append(f"{q.id} ({q.text!r}) span {n}: not in the document's text: {span.ref.quote!r}")
    if problems:
        raise EvidenceError("evidence that cannot be placed:\n  " + "\n  ".join(problems))
    return corpus


def from_golden(root: Path, selected: list[str] | None = None) -> Corpus:
    docs: dict[str, EvalDoc] = {}
    questions: list[Question] = []
    for case in discover(root, selected):
        try:
            case_questions = case.questions()
            if not case_questions:
                continue
            docs[case.name] = _eval_doc(case.name, parse_file(case.source, case.doc_id))
        except (CaseError, ParseError) as exc:
            raise EvidenceError(f"{case.name}: {exc}") from None
        questions.extend(case_questions)
    if not questions:
        raise EvidenceError(f"{root}: no case with an evidence.json")
    return _locate(Corpus(docs, questions))


def _questions_file(path: Path) -> list[Question]:
    if path.suffix.lower() == ".csv":
        return load_csv(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise EvidenceError(f"{path}: cannot read: {exc}") from None
    if not isinstance(raw, list):
        raise EvidenceError(f"{path}: expected a JSON list of questions")
    out = []
    for n, item in enumerate(raw, start=1):
        document = item.get("document") if isinstance(item, dict) else None
        if not isinstance(document, str):
            raise EvidenceError(f"{path}: item {n}: each question names its 'document' (a path under the folder)")
        out.append(question_from_json(item, document, f"{document}#{n}", f"{path}: item {n}"))
    return out


def from_documents(folder: Path, questions_path: Path) -> Corpus:
    questions = _questions_file(questions_path)
    docs: dict[str, EvalDoc] = {}
    for name in dict.fromkeys(q.document for q in questions):
        path = folder / name
        if not path.is_file():
            raise EvidenceError(f"{questions_path}: document '{name}' is not a file under {folder}")
        try:
            docs[name] = _eval_doc(name, parse_file(path, name))
        except ParseError as exc:
            raise EvidenceError(f"{path}: {exc.message} [{exc.code}]") from None
    return _locate(Corpus(docs, questions))
