"""The evaluation as one self-contained HTML page: the table, the spans no chunk holds whole,
and per question the retrieved chunks with the evidence marked, and marked cut where a chunk
boundary runs through it."""

from __future__ import annotations

from html import escape
from pathlib import Path

from parsegate.evaluation.corpus import Corpus
from parsegate.evaluation.metrics import Interval, merge
from parsegate.evaluation.report import split_spans, to_json
from parsegate.evaluation.runner import Result, Retrieved, Settings

_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;max-width:1200px;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}
td:first-child,th:first-child,td.l{text-align:left}th{background:#f2f2f2}
mark{background:#c8f0c0}mark.cut{background:#ffd2c8}.scissors{color:#c00;font-weight:bold}
pre{white-space:pre-wrap;background:#fafafa;border:1px solid #e4e4e4;padding:6px;margin:4px 0}
.ok{color:#080}.no{color:#c00}details{margin:.4em 0}summary{cursor:pointer}
.hit{margin:6px 0 10px 1em}.meta{color:#666;font-size:12px}
"""


def _pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.1f}%"


def _num(v: float | None) -> str:
    return "–" if v is None else f"{v:.3f}"


def _table(results: list[Result]) -> str:
    head = (
        "<tr><th>configuration</th><th>chunks</th><th>mean tok</th><th>max tok</th><th>over budget</th>"
        "<th>overhead</th><th>embedded / source tok</th>"
        "<th>spans whole</th><th>questions whole</th><th>retriever</th><th>recall</th><th>precision</th>"
        "<th>IoU</th><th>complete hit</th><th>keyword hit</th><th>complete after assembly</th></tr>"
    )
    rows = []
    for r in results:
        s = r.summary()
        for name, m in s["retrieval"].items():
            rows.append(
                f"<tr><td>{escape(s['configuration'])}</td><td>{s['chunks']}</td><td>{s['mean_tokens']:.1f}</td>"
                f"<td>{s['max_tokens']}</td><td>{s['over_budget']}</td><td>{s['overhead']:.3f}</td>"
                f"<td>{s['embed_ratio']:.3f}</td><td>{_pct(s['spans_whole'])}</td>"
                f"<td>{_pct(s['questions_whole'])}</td><td class=l>{name}</td><td>{_num(m['recall'])}</td>"
                f"<td>{_num(m['precision'])}</td><td>{_num(m['iou'])}</td><td>{_pct(m['complete'])}</td>"
                f"<td>{_pct(m['keyword'])}</td><td>{_pct(m['complete_after_assembly'])}</td></tr>"
            )
    return f"<table>{head}{''.join(rows)}</table>"


def marked(text: str, start: int, evidence: list[Interval]) -> str:
    """A chunk's text (starting at ``start`` in its document) with the evidence marked; where
    an evidence span runs past the chunk's edge, the mark is red and a ✂ shows the cut."""
    end = start + len(text)
    inside = merge((max(s, start), min(e, end)) for s, e in evidence if s < end and e > start)
    cut_left = any(s < start < e for s, e in evidence)
    cut_right = any(s < end < e for s, e in evidence)
    out, at = [], start
    for s, e in inside:
        out.append(escape(text[at - start : s - start]))
        cut = (cut_left and s == start) or (cut_right and e == end)
        piece = escape(text[s - start : e - start])
        left = '<span class=scissors title="evidence cut here">✂</span>' if cut_left and s == start else ""
        right = '<span class=scissors title="evidence cut here">✂</span>' if cut_right and e == end else ""
        out.append(f"{left}<mark{' class=cut' if cut else ''}>{piece}</mark>{right}")
        at = e
    out.append(escape(text[at - start :]))
    return "".join(out)


def _verdict(flag: bool, label: str) -> str:
    return f"<span class={'ok' if flag else 'no'}>{label} {'✓' if flag else '✗'}</span>"


def _hits(row: Retrieved, corpus: Corpus) -> str:
    doc = corpus.docs[row.question.document].doc
    evidence = [r for s in corpus.located[row.question.id] for r in s.ranges]
    parts = [
        f"<div class=meta>{_verdict(row.complete, 'complete')} · {_verdict(row.keyword, 'keyword')} · "
        f"{_verdict(row.complete_after, 'complete after assembly')}"
        + (
            f" · recall {row.scores.recall:.2f} precision {row.scores.precision:.2f} IoU {row.scores.iou:.2f}"
            if row.scores
            else ""
        )
        + "</div>"
    ]
    for rank, hit in enumerate(row.hits, start=1):
        same = hit.doc_id == doc.doc_id and hit.doc_version == doc.version
        body = marked(hit.text, hit.start, evidence) if same else escape(hit.text)
        parts.append(
            f"<div class=hit><div class=meta>#{rank} {escape(hit.doc_id)} [{hit.start}-{hit.end}] "
            f"{hit.tokens} tokens</div><pre>{body}</pre></div>"
        )
    return "".join(parts)


def _questions(results: list[Result], corpus: Corpus) -> str:
    out = []
    for q in corpus.answerable:
        quotes = "".join(
            f"<pre>{escape(s.ref.quote or f'[{s.ref.start}-{s.ref.end}]')}</pre>" for s in corpus.located[q.id]
        )
        note = f"<p class=no>expected failure: {escape(q.expected_failure)}</p>" if q.expected_failure else ""
        blocks = []
        for r in results:
            for name, rows in r.retrieved.items():
                row = next(x for x in rows if x.question.id == q.id)
                blocks.append(
                    f"<details><summary>{escape(r.configuration.name)} · {name} · "
                    f"{_verdict(row.complete, 'complete')} {_verdict(row.keyword, 'keyword')}</summary>"
                    f"{_hits(row, corpus)}</details>"
                )
        out.append(
            f"<details><summary><b>{escape(q.id)}</b> {escape(q.text)}</summary><div style='margin-left:1em'>"
            f"<div class=meta>evidence:</div>{quotes}{note}{''.join(blocks)}</div></details>"
        )
    return "".join(out)


def write_html(path: Path, results: list[Result], settings: Settings, corpus: Corpus, corpus_name: str) -> None:
    split = split_spans(results)
    split_html = "".join(
        f"<li>{escape(e['configuration'])}: {escape(e['question_id'])} span {e['span_index']}: "
        f"{escape(e['reason'])}</li>"
        for e in split
    )
    summary = to_json(results, settings, corpus_name)["settings"]
    page = (
        f"<!doctype html><meta charset=utf-8><title>parsegate eval · {escape(corpus_name)}</title>"
        f"<style>{_STYLE}</style><h1>Evidence evaluation</h1>"
        f"<p class=meta>corpus {escape(corpus_name)} · {len(corpus.docs)} documents · "
        f"{len(corpus.answerable)} questions · settings {escape(str(summary))}</p>"
        f"{_table(results)}<h2>Evidence spans not whole in one chunk</h2>"
        f"<ul>{split_html or '<li>none</li>'}</ul><h2>Questions</h2>{_questions(results, corpus)}"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
