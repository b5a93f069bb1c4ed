"""A header-less HTML table whose header row is set in bold <td>s (no <thead>, no <th>): 1 of its 23
row chunks carried the header (issue 39). A first row set in bold throughout, over rows that are
not, is the table's header: HeVeA's manuals (camlidl) write their tables so."""

from __future__ import annotations

import parsegate

ROWS = "".join(f"<tr><td>Region {n}</td><td>{n * 10}</td><td>{n * 3} ms</td></tr>" for n in range(23))
HEAD = "<tr><td><b>Region</b></td><td><strong>Requests</strong></td><td><b>p99</b></td></tr>"


def _page(table_rows: str) -> str:
    return (
        "<html><body><main><h1>Latency</h1><p>Measured latency per region, as the probes saw it last week.</p>"
        f"<table>{table_rows}</table></main></body></html>"
    )


def test_a_bold_first_row_is_the_header_every_row_chunk_carries() -> None:
    doc = parsegate.parse(text=_page(HEAD + ROWS), format="html")
    (table,) = [e for e in doc.elements if e.kind == "table"]
    assert table.data.header == ["Region", "Requests", "p99"] and table.data.rows == 23
    chunks = [c for c in parsegate.chunk(doc, max_tokens=80) if "table_row" in c.kinds]
    assert len(chunks) == 4
    assert all("| Region | Requests | p99 |" in c.embed_text for c in chunks)


def test_bold_rows_throughout_or_a_lone_bold_cell_make_no_header() -> None:
    bold_rows = "".join(f"<tr><td><b>Region {n}</b></td><td><b>{n}</b></td></tr>" for n in range(5))
    one_cell = "<tr><td><b>Region</b></td><td>count</td></tr>" + ROWS
    for rows in (bold_rows, one_cell):
        (table,) = [e for e in parsegate.parse(text=_page(rows), format="html").elements if e.kind == "table"]
        assert table.data.header == []
