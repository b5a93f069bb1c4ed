"""Plain text as PDF extractors write it (pdftotext with and without -layout, pdfminer, PDFium):
form feeds between pages, column gaps, speaker-like labels, flattened tables under a lead-in,
hyphenated line ends, NULs. No such input may raise; every element stays a slice of the text and
every reference names an element that is there; a refusal is a ParseError with its reason."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parsegate
from parsegate.parsers.model import CodeData, ListData, ParseError, TableData

# A chat whose last turn is followed by more than a few paragraphs (text pasted after the chat),
# then a table whose lead-in is the line above it: pdftotext of gnuplot.pdf pages 195-234 has this
# shape ("<index> is an integer ..." read as speakers). The table's lead-in kept its pre-prefix id,
# and the renumbering raised KeyError: 'p5.0'.
CHAT_THEN_TABLE = """Alice: hello there, how are you today?
Bob: fine, thanks. And you?
Alice: good to hear. Shall we look at the numbers?
Bob: yes, here they are.

Appendix one follows here.

Appendix two follows here.

Appendix three follows here.

Appendix four follows here.

Appendix five follows here.

The prices for this quarter are listed in the following table:
Name      Price     Units
alpha     10        100
beta      20        200
gamma     30        300
"""


def _consistent(data: bytes) -> None:
    try:
        doc = parsegate.parse(data, format="txt")
    except ParseError as exc:  # a refusal with its reason (a file of NULs is binary): not a crash
        assert exc.code in ("binary", "garbage_text", "empty"), exc
        return
    ids = {e.id for e in doc.elements}
    for e in doc.elements:
        assert 0 <= e.start <= e.end <= len(doc.text)
        assert e.parent is None or e.parent in ids
        if isinstance(e.data, (ListData, TableData, CodeData)) and e.data.lead_in is not None:
            assert e.data.lead_in in ids


def test_a_table_after_a_chat_keeps_its_lead_in() -> None:
    doc = parsegate.parse(CHAT_THEN_TABLE.encode(), format="txt")
    table = next(e for e in doc.elements if e.kind == "table")
    assert isinstance(table.data, TableData)
    lead = next(e for e in doc.elements if e.id == table.data.lead_in)
    assert doc.text[lead.start : lead.end] == "The prices for this quarter are listed in the following table:"
    _consistent(CHAT_THEN_TABLE.encode())


BLOCKS = st.sampled_from(
    [
        "\f",
        "\x00",
        "Alice: so what did the report say?\nBob: it said the figures are fine.",
        "Alice: one thing.\nBob: two things.\nAlice: three things.\nBob: four things.",
        "Alice: and the next one?",
        "Bob: the same again.",
        "<index> is an integer that identifies the arrowstyle.",
        "Q: where is the file?\nA: in the usual place.",
        "The prices for this quarter are listed in the following table:\nName      Price     Units\n"
        "alpha     10        100\nbeta      20        200",
        "Name\tPrice\nbeta\t20\ngamma\t30",
        "  set style ellipse {units xx|xy|yy}\n  {size {graph|screen} <a>}",
        "This sentence runs on to the next line with a hyphen-\nated word, as pdftotext writes it.",
        "A paragraph of plain prose that says one thing.",
        "Another paragraph, a little longer, that says another thing entirely.",
        "1 Introduction",
        "2.3 Related work . . . . . . . . . . . . 11\n2.4 Methods . . . . . . . . . . . . . . 12",
        "                                   12",
        "CHAPTER 4. SETTINGS                                        195",
        "Paris M´ etro and Fran¸ cois",
        "• a bullet item\n• another bullet item",
        "Do this:\n- a dash item\n- a second dash item",
        "    indented code(x) = 1\n    more code(y) = 2",
        "Title\n=====",
    ]
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(BLOCKS, st.sampled_from(["\n\n", "\n", "\n\f"])), min_size=1, max_size=40),
    st.booleans(),
)
def test_no_extractor_like_text_raises(blocks: list[tuple[str, str]], crlf: bool) -> None:
    text = "".join(block + gap for block, gap in blocks)
    _consistent((text.replace("\n", "\r\n") if crlf else text).encode())
