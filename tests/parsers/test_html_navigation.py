"""Navigation is furniture wherever it is marked up: DocBook's Prev | Up | Home | Next tables (a
class naming them, a summary saying so) and tables of links only; a highlighter's span named like
chrome ("hljs-comment") is text of its code block, not a region (issue 36)."""

from __future__ import annotations

from parsegate.parsers import office
from parsegate.parsers.model import Document

# The markup of a PostgreSQL 15 manual page (Debian's postgresql-doc-15), shortened.
DOCBOOK = """<html><body>
<div class="navheader"><table width="100%" summary="Navigation header">
<tr><th colspan="5" align="center">2.6. Joins Between Tables</th></tr>
<tr><td><a accesskey="p" href="tutorial-select.html">Prev</a> </td>
<td><a accesskey="u" href="tutorial-sql.html">Up</a></td>
<th>Chapter 2. The SQL Language</th>
<td><a accesskey="h" href="index.html">Home</a></td>
<td><a accesskey="n" href="tutorial-agg.html">Next</a></td></tr></table><hr /></div>
<div class="sect1"><h2>2.6. Joins Between Tables</h2>
<p>Thus far, our queries have only accessed one table at a time. Queries can access multiple
tables at once, or access the same table in such a way that multiple rows are processed.</p>
<table><tr><th>city</th><th>temp_lo</th></tr><tr><td>Hayward</td><td>37</td></tr></table>
</div>
<div class="{footer_class}"><hr /><table width="100%" summary="{footer_summary}">
<tr><td><a href="tutorial-select.html">Prev</a> </td><td><a href="tutorial-sql.html">Up</a></td>
<td><a href="tutorial-agg.html">Next</a></td></tr>
<tr><td>2.5. Querying a Table </td><td><a href="index.html">Home</a></td><td> 2.7. Aggregate Functions</td></tr>
</table></div></body></html>"""


def parse(html: str) -> Document:
    return office.parse(html.encode(), "page.html")


def rows(doc: Document) -> list[str]:
    return [doc.text[e.start : e.end] for e in doc.elements if e.kind == "table_row"]


def furniture(doc: Document) -> dict[str, str]:
    return {doc.text[e.start : e.end]: e.data.reason for e in doc.elements if e.kind == "furniture"}  # type: ignore[union-attr]


def test_docbook_navigation_tables_are_furniture_and_the_data_table_stays() -> None:
    doc = parse(DOCBOOK.format(footer_class="navfooter", footer_summary="Navigation footer"))
    assert rows(doc) == ["| city | temp_lo |", "| Hayward | 37 |"]
    reasons = set(furniture(doc).values())
    assert "navigation (class or id 'navheader')" in reasons
    assert "navigation (class or id 'navfooter')" in reasons


def test_a_table_that_says_it_is_navigation_is_furniture_without_a_class() -> None:
    doc = parse(DOCBOOK.format(footer_class="x", footer_summary="Navigation footer"))
    assert rows(doc) == ["| city | temp_lo |", "| Hayward | 37 |"]
    assert "navigation (a table that says so)" in set(furniture(doc).values())


def test_a_table_of_links_only_is_navigation_but_one_with_text_of_its_own_is_not() -> None:
    links = "<table><tr><td><a href='a.html'>Prev</a></td><td><a href='b.html'>Next</a></td></tr></table>"
    page = f"<html><body><main><p>{'Body text of the page. ' * 6}</p>{links}</main></body></html>"
    doc = parse(page)
    assert rows(doc) == []
    assert list(furniture(doc).values()) == ["navigation (a table of links only)"]
    mixed = links.replace("<a href='b.html'>Next</a>", "see <a href='b.html'>Next</a> for the rest")
    doc = parse(page.replace(links, mixed))
    assert rows(doc) == ["| Prev | see Next for the rest |"]


def test_a_highlighted_comment_in_a_code_block_is_code() -> None:
    # Node.js's API pages (Debian's nodejs-doc) mark comments in code with highlight.js classes.
    page = (
        "<html><body><main><p>Run the server as shown below; it listens on port 8000 by default.</p>"
        '<pre><code class="language-js"><span class="hljs-comment">// listen on 8000</span>\n'
        'server.<span class="hljs-title">listen</span>(8000);</code></pre></main></body></html>'
    )
    doc = parse(page)
    code = [doc.text[e.start : e.end] for e in doc.elements if e.kind == "code"]
    assert code == ["// listen on 8000\nserver.listen(8000);"]
    assert furniture(doc) == {}
