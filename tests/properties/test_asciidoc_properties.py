"""The AsciiDoc parser on any arrangement of AsciiDoc's lines: a Document whose leaves are in
order and never overlap, whose containers enclose their children, whose line numbers are the
spans' own, and in which every character that is not white space lies in some element (nothing
lost)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsegate.parsers import asciidoc
from parsegate.parsers.model import CONTAINER_KINDS, Document

LINES = [
    "= Title", "== Section", "Title", "-----", "text line", "  indented", "", "", "", "* item", "** nested",
    ". step", "term:: said", "term::", "+", "----", "....", "====", "****", "____", "++++", "////", "--",
    "|===", "|a |b", "|c", "2+|span", "[source,python]", "[NOTE]", "[[anchor]]", ".Block title", ":name: value",
    "// comment", "include::x.adoc[]", "ifdef::x[]", "endif::[]", "NOTE: note", "```py", "```", "<1> callout", "'''", "<<<",
]  # fmt: skip
SOURCE = st.lists(st.sampled_from(LINES), max_size=40).map("\n".join)


def check(doc: Document) -> None:
    text = doc.text
    by_id = {e.id: e for e in doc.elements}
    leaves = [e for e in doc.elements if e.kind not in CONTAINER_KINDS]
    cursor = 0
    for e in leaves:
        assert cursor <= e.start <= e.end <= len(text), (e, cursor)
        cursor = e.end
    for e in doc.elements:
        assert e.lines == doc.lines_of(e.start, e.end)
        parent = by_id.get(e.parent) if e.parent else None
        if parent is not None and parent.kind in CONTAINER_KINDS:
            assert parent.start <= e.start and e.end <= parent.end, (parent, e)
    covered = [False] * len(text)
    for e in doc.elements:
        for n in range(e.start, e.end):
            covered[n] = True
    lost = "".join(c for c, hit in zip(text, covered, strict=True) if not hit)
    assert not lost.strip(), lost


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SOURCE)
def test_any_arrangement_of_lines_keeps_every_character_in_order(source: str) -> None:
    doc = asciidoc.parse(source.encode("utf-8"), "input.adoc")
    assert doc.text == source
    check(doc)
