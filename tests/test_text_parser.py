from __future__ import annotations

from parsers import text


def test_paragraphs_and_title() -> None:
    doc = text.parse(b"Release Notes\n\nFirst para\nstill first.\n\n\nSecond para.\n", "n.txt")
    assert [(e.kind, doc.text[e.start : e.end]) for e in doc.elements] == [
        ("heading", "Release Notes"),
        ("paragraph", "First para\nstill first."),
        ("paragraph", "Second para."),
    ]
    assert doc.metadata["title"] == "Release Notes"
    assert doc.elements[2].section_path == ("Release Notes",)
    assert doc.elements[2].lines == (7, 7)


def test_a_sentence_alone_is_not_a_title() -> None:
    doc = text.parse(b"Just one sentence.\n\nAnother one.\n", "n.txt")
    assert [e.kind for e in doc.elements] == ["paragraph", "paragraph"]


def test_transcript_turns_keep_their_speaker_and_continuation_lines() -> None:
    source = (
        b"Alice: Hi Bob.\nBob: Hello.\n  I have two points.\n\n  First, the budget.\n"
        b"Alice: Go on.\n[10:02] Carol: Joining late.\n<dave> hi all\n"
    )
    doc = text.parse(source, "chat.txt")
    turns = [(e.data["speaker"], doc.text[e.start : e.end]) for e in doc.elements]
    assert turns == [
        ("Alice", "Alice: Hi Bob."),
        ("Bob", "Bob: Hello.\n  I have two points.\n\n  First, the budget."),
        ("Alice", "Alice: Go on."),
        ("Carol", "[10:02] Carol: Joining late."),
        ("dave", "<dave> hi all"),
    ]


def test_labels_like_note_are_not_speakers() -> None:
    doc = text.parse(b"Note: one.\nNote: two.\nWarning: three.\nNote: four.\n", "n.txt")
    assert [e.kind for e in doc.elements] == ["paragraph"]


def test_flattened_table_rows_become_rows_and_tab_separated_too() -> None:
    source = "Results\n\nyear | revenue | margin\n2009 | 10 | 3\n2008 | 9 | 2\nthe margin grew.\n\na\tb\tc\n1\t2\t3\n"
    doc = text.parse(source.encode(), "t.txt")
    got = [(e.kind, doc.text[e.start : e.end]) for e in doc.elements]
    assert got == [
        ("heading", "Results"),
        ("table", "year | revenue | margin\n2009 | 10 | 3\n2008 | 9 | 2"),
        ("table_row", "year | revenue | margin"),
        ("table_row", "2009 | 10 | 3"),
        ("table_row", "2008 | 9 | 2"),
        ("paragraph", "the margin grew."),
        ("table", "a\tb\tc\n1\t2\t3"),
        ("table_row", "a\tb\tc"),
        ("table_row", "1\t2\t3"),
    ]
    assert doc.elements[2].data == {"cells": ["year", "revenue", "margin"], "header": True}
    assert doc.elements[3].parent == doc.elements[1].id


def test_a_single_line_with_a_pipe_stays_prose() -> None:
    doc = text.parse(b"Run cat a | grep b to see it.\nThen stop.\n", "p.txt")
    assert [e.kind for e in doc.elements] == ["paragraph"]
