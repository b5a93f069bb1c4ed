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
