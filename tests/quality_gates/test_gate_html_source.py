"""The gate reads an HTML file's own text (libxml2, through lxml) beside docling's export: text
docling drops from a sloppy page (a sentence directly inside <table> or <tr>) was missing from the
reference, so a parser that dropped it as well passed recall; and text our parser kept from such
places was reported as not in the file."""

from __future__ import annotations

from dataclasses import replace

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.references.web import missing, squeezed, text_nodes
from parsegate.quality_gates.thresholds import Thresholds
from parsegate.quality_gates.verdict import evaluate

pytest.importorskip("docling")

# Browsers show both sentences (they move text out of a table, before it); docling's export of
# the file has neither.
SLOPPY = b"""<html><body><h1>Rates</h1>
<table><tr>Standard rate applies <td>Zone A</td><td>12%</td></tr>
<tr><td>Zone B</td><td>15%</td> reduced for members</tr></table>
</body></html>"""


def gate(data: bytes, name: str, parsed: bytes | None = None):  # type: ignore[no-untyped-def]
    """Chunks of ``parsed`` (default: the file) and the gate's verdict on them against the file."""
    from parsegate.parsers import office

    chunker = Chunker(ChunkConfig(max_tokens=128))
    doc = office.parse(parsed or data, name)
    records = chunker.chunk(doc)
    return records, evaluate(measure(doc, records, chunker.counter, chunker.max_tokens, data), Thresholds())


def test_text_a_parser_drops_where_docling_drops_it_too_fails_recall_by_name() -> None:
    # A parser that loses the stray sentence (ours did, until it kept it as a paragraph before the
    # table): docling's export lacks it as well, so only the file's own text shows the loss.
    records, verdict = gate(SLOPPY, "rates.html", parsed=SLOPPY.replace(b"Standard rate applies ", b""))
    assert "Standard" not in " ".join(r.text for r in records)
    assert verdict.metrics["extraction_recall"] == pytest.approx(10 / 13, abs=1e-6)
    (check,) = [c for c in verdict.failed if c.metric == "extraction_recall"]
    assert check.faults == [
        {"words": "Standard rate applies", "count": 3, "why": "in the file, not in docling's export"}
    ]


def test_our_parser_keeps_the_stray_text_and_passes() -> None:
    records, verdict = gate(SLOPPY, "rates.html")
    assert "Standard rate applies" in " ".join(r.text for r in records)
    assert verdict.passed, verdict.failed
    assert verdict.metrics["extraction_recall"] == 1.0


def test_text_the_parser_keeps_beyond_docling_s_export_is_localized() -> None:
    records, verdict = gate(SLOPPY, "rates.html")
    assert "reduced for members" in " ".join(r.text for r in records)
    assert verdict.metrics["localization"] == 1.0


def test_words_in_no_reading_of_the_file_still_fail_localization() -> None:
    records, _ = gate(SLOPPY, "rates.html")
    from parsegate.parsers import office

    chunker = Chunker(ChunkConfig(max_tokens=128))
    doc = office.parse(SLOPPY, "rates.html")
    altered = [replace(c, text=c.text.replace("members", "managers")) for c in records]
    verdict = evaluate(measure(doc, altered, chunker.counter, chunker.max_tokens, SLOPPY), Thresholds())
    assert verdict.metrics["localization"] == 0.0


def test_a_valid_page_with_nested_tables_adds_nothing_to_the_reference() -> None:
    page = b"""<html><head><title>Shop</title><style>td {color: red}</style></head><body>
    <h1>Layout page</h1><table><tr><td>Menu item one</td><td>
    <table><tr><th>Product</th><th>Price</th></tr><tr><td>Widget</td><td>4.50 EUR</td></tr></table>
    <p>Prices include tax.</p></td></tr></table><p>After the layout table.</p></body></html>"""
    _, verdict = gate(page, "shop.html")
    assert verdict.passed, verdict.failed
    assert verdict.metrics["extraction_recall"] == 1.0


def test_text_nodes_are_the_visible_text_in_reading_order() -> None:
    page = b"""<html><head><title>Tab title</title><script>var hidden = 1;</script></head>
    <body><p>First <b>bold</b> tail</p><!-- a comment --><style>p {}</style>after style
    <template>never shown</template><noscript>no script</noscript><div>Last</div></body></html>"""
    assert text_nodes(page) == ["First", "bold", "tail", "after style", "Last"]


def test_text_nodes_after_the_closing_html_tag_are_read() -> None:
    page = b"<html><body><p>Inside.</p></body></html><p>After.</p><html><head><title>T</title></head><p>More.</p>"
    assert text_nodes(page) == ["Inside.", "After.", "More."]


def test_text_nodes_of_a_page_nested_deeper_than_python_s_stack() -> None:
    page = ("<html><body>" + "<div>" * 1500 + "Deep text" + "</div>" * 1500 + "</body></html>").encode()
    assert text_nodes(page) == ["Deep text"]


def test_a_node_is_found_whatever_an_extraction_puts_between_its_words() -> None:
    stream = squeezed(["See WiktionaryMedia and docling-tools models download, then | 4.50 | EUR |"])
    # Out of reading order too ("Wiktionary Media" comes before the node looked for first).
    nodes = ["docling tools models", "Wiktionary Media", "4.50 EUR", "Not in the stream at all", "1."]
    assert list(missing(nodes, stream)) == ["Not in the stream at all"]


def test_text_the_parser_declared_furniture_is_not_counted_lost() -> None:
    # docling's export leaves a hidden block out; our parser lists it as furniture with its reason.
    page = b"<html><body><h1>Notes</h1><p>Body text here.</p><pre hidden><code>$ draft-tool --dry-run</code></pre></body></html>"
    records, verdict = gate(page, "notes.html")
    assert "draft-tool" not in " ".join(r.text for r in records)
    assert verdict.passed, verdict.failed
    assert verdict.metrics["extraction_recall"] == 1.0


# An HTML 3.2 page that names no encoding, in Latin-1 (as TeX Live ships some of its docs): the HTML
# standard reads it as windows-1252, browsers show "ægis"; left to guess, docling's backend read
# the byte as "ć" (ISO-8859-2) and the gate reported the page's own word as not in the file.
LATIN1 = (
    '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2//EN">\n<html><head><title>The NTS Group</title></head>'
    "<body><h1>The NTS Group</h1>\n<p>The NTS group was created under the \xe6gis of DANTE at Hamburg in"
    " 1992, to perpetuate and develop the spirit and philosophy of TeX.</p>\n<p>Its members are Joachim"
    " Lammarsch, Philip Taylor and Peter Breitenlohner, with Rainer Sch\xf6pf before them.</p></body></html>"
).encode("latin-1")


def test_a_page_naming_no_encoding_is_read_as_the_html_standard_reads_it() -> None:
    records, verdict = gate(LATIN1, "nts-group.html")
    assert "under the \u00e6gis of DANTE" in records[0].text
    assert verdict.metrics["localization"] == 1.0
    assert verdict.passed, verdict.failed
    # A page that is UTF-8 but for a broken byte stays UTF-8 to the references.
    broken = (
        "<html><body><p>Gr\u00f6\u00dfe und H\u00f6he der \u00dcberg\u00e4nge, gemessen in Metern.</p></body></html>"
    )
    _, kept = gate(broken.encode("utf-8") + b"\xff", "broken.html")
    assert kept.metrics["localization"] == 1.0, kept.failed


# A search box in a layout table's menu cell (libxslt's documentation pages): docling's export writes
# the field by its name ("query"), which no reader sees; the gate quarantined every such page.
SEARCH = b"""<html><body><table><tr><td><form action="search.php"><input name="query" type="text" />
<input name="submit" type="submit" value="Search ..." /></form><ul><li><a href="index.html">Home</a></li>
<li><a href="docs.html">Documentation</a></li></ul></td><td><h1>Introduction</h1>
<p>libxslt is the XSLT C library developed for the GNOME project, based on libxml2.</p>
<p>It implements most of the XSLT 1.0 specification and passes the conformance tests.</p></td></tr></table>
</body></html>"""


def test_a_form_field_s_name_is_no_word_of_the_page() -> None:
    _, verdict = gate(SEARCH, "intro.html")
    assert verdict.metrics["extraction_recall"] == 1.0, verdict.failed
    # The page's own words still count: drop a sentence and recall falls, naming it.
    dropped = SEARCH.replace(
        b"<p>It implements most of the XSLT 1.0 specification and passes the conformance tests.</p>", b""
    )
    _, lost = gate(SEARCH, "intro.html", parsed=dropped)
    (check,) = [c for c in lost.failed if c.metric == "extraction_recall"]
    assert "conformance" in check.faults[0]["words"] and "query" not in check.faults[0]["words"]


# The shape of a DocBook XSL page (valgrind's manuals): a navigation table above, a short title page,
# a table of contents, and a navigation table below whose outer cells span two rows. Our parser
# keeps both tables and the contents out as furniture; docling's export writes each spanning cell
# once per row, so the next page's title was in the reference twice, and once more than the page
# shows it: "lost" in 13 of valgrind's pages, which the gate quarantined.
DOCBOOK = b"""<html><head><title>The Widget Quick Start Guide</title></head><body>
<div><table class="nav" width="100%" summary="Navigation header"><tr>
<td><a accesskey="p" href="index.html"><img src="prev.png" alt="Prev"></a></td>
<th align="center">Widget Documentation</th>
<td><a accesskey="n" href="quick-start.html"><img src="next.png" alt="Next"></a></td>
</tr></table></div>
<div class="book"><div class="titlepage"><div><h1 class="title">The Widget Quick Start Guide</h1></div>
<div><p class="releaseinfo">Release 2.4.1 12 May 2025</p></div>
<div><p class="copyright">Copyright 2010-2025 the Widget developers</p></div></div><hr></div>
<div class="toc"><p><b>Table of Contents</b></p><dl class="toc">
<dt><span class="article"><a href="quick-start.html">The Widget Quick Start Guide</a></span></dt>
<dd><dl><dt><span class="sect1"><a href="quick-start.html#intro">1. Introduction</a></span></dt>
<dt><span class="sect1"><a href="quick-start.html#run">2. Running your program</a></span></dt></dl></dd>
</dl></div>
<div><br><table class="nav" width="100%" summary="Navigation footer"><tr>
<td rowspan="2" width="40%" align="left"><a accesskey="p" href="index.html">&lt;&lt; Widget Documentation</a></td>
<td width="20%" align="center"><a accesskey="u" href="index.html">Up</a></td>
<td rowspan="2" width="40%" align="right"><a accesskey="n" href="quick-start.html">The Widget Quick Start Guide &gt;&gt;</a></td>
</tr><tr><td width="20%" align="center"><a accesskey="h" href="index.html">Home</a></td></tr></table></div>
</body></html>"""


def test_a_cell_docling_writes_once_per_spanned_row_is_no_lost_word() -> None:
    records, verdict = gate(DOCBOOK, "QuickStart.html")
    assert [r.text for r in records] == [
        "The Widget Quick Start Guide\n\nRelease 2.4.1 12 May 2025\n\nCopyright 2010-2025 the Widget developers"
    ]
    assert verdict.metrics["extraction_recall"] == 1.0, verdict.failed
    assert verdict.passed, verdict.failed
    # Words the page shows still count as often as it shows them: drop the release line and
    # recall falls, naming its words and nothing of the navigation.
    dropped = DOCBOOK.replace(b'<div><p class="releaseinfo">Release 2.4.1 12 May 2025</p></div>', b"")
    _, lost = gate(DOCBOOK, "QuickStart.html", parsed=dropped)
    (check,) = [c for c in lost.failed if c.metric == "extraction_recall"]
    assert check.faults == [{"words": "1 12 2 2025 4 may release", "count": 7}]
    assert lost.metrics["extraction_recall"] == pytest.approx(11 / 18, abs=1e-6)
