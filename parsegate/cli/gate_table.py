"""The quality gate's table on the terminal (rich): the rows the library gives
(parsegate.quality_gates.report.rows), a value that misses its threshold in red, then each
failing document with its reasons and the verdict. What comes from the corpus (document ids,
reasons, format names) passes through ``inert``: a file name cannot drive the terminal."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from parsegate.cli.console import inert
from parsegate.quality_gates.report.rows import GateTable, gate_table


def print_gate(report: dict[str, Any], console: Console) -> None:
    gate = gate_table(report)
    for table in _tables(gate, console.width):
        console.print(table)
    for line in gate.failures:
        console.print(Text("FAIL ", style="bold red") + Text(inert(line)), soft_wrap=True)
    if gate.more_failures:
        console.print(f"… {gate.more_failures} more failures in report.json")
    for line in gate.run_failures:
        head = Text("     ") if line.startswith("  ") else Text("FAIL ", style="bold red")
        console.print(head + Text(inert(line.strip())), soft_wrap=True)
    if gate.sample:
        console.print(Text("references: ", style="yellow") + Text(inert(gate.sample)), soft_wrap=True)
    if gate.ocr:
        console.print(Text("OCR recall: ", style="yellow") + Text(inert(gate.ocr)), soft_wrap=True)
    if gate.not_measured:
        console.print(Text("not measured: ", style="yellow") + Text(inert(gate.not_measured)), soft_wrap=True)
    style = "bold green" if gate.verdict == "pass" else "bold red"
    console.print(Text(f"gate {gate.verdict.upper()}", style=style) + Text(gate.summary), soft_wrap=True)


def _tables(gate: GateTable, width: int) -> list[Table]:
    """The metrics by format, in as many tables as the terminal's width needs: every label and
    value whole, the formats split into groups that fit beside the label and threshold columns;
    in each group, a metric none of its formats measured ("–" throughout) is left out."""
    label = max([len("metric"), *(len(r.label) for r in gate.rows)])
    threshold = max([len("threshold"), *(len(r.threshold) for r in gate.rows)])
    cells = [max([len(c.format), *(len(r.cells[n].text) for r in gate.rows)]) for n, c in enumerate(gate.columns)]
    # Each column takes its width, a space of padding on each side and a divider; the table an edge.
    room = width - (label + 3) - (threshold + 3) - 2
    groups: list[list[int]] = [[]]
    used = 0
    for n, cell in enumerate(cells):
        if groups[-1] and used + cell + 3 > room:
            groups.append([])
            used = 0
        groups[-1].append(n)
        used += cell + 3
    tables = []
    for number, group in enumerate(groups):
        title = "quality gate" + (f" ({number + 1}/{len(groups)})" if len(groups) > 1 else "")
        table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1))
        table.add_column("metric", no_wrap=True, min_width=label)
        table.add_column("threshold", justify="right", no_wrap=True, min_width=threshold)
        for n in group:
            column = gate.columns[n]
            table.add_column(
                inert(column.format), justify="right", no_wrap=True, style="red" if column.failed else None
            )
        for row in gate.rows:
            shown = [row.cells[n] for n in group]
            # A row empty in this group shows where it has values (a row empty everywhere, say
            # OCR confidence in a run without scans, in the first group only).
            nowhere = all(c.text == "–" for c in row.cells)
            if len(group) < len(gate.columns) and all(c.text == "–" for c in shown) and (number or not nowhere):
                continue
            table.add_row(
                row.label, row.threshold, *(Text(c.text, style="bold red" if c.misses else "") for c in shown)
            )
        tables.append(table)
    return tables
