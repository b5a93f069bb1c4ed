"""The quality gate's table on the terminal (rich): the rows the library gives
(parsegate.quality_gates.report.rows), a value that misses its threshold in red, then each
failing document with its reasons and the verdict. What comes from the corpus (document ids,
reasons, format names) passes through ``inert``: a file name cannot drive the terminal."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from parsegate.cli.console import inert
from parsegate.quality_gates.report.rows import gate_table


def print_gate(report: dict[str, Any], console: Console) -> None:
    gate = gate_table(report)
    table = Table(title="quality gate", title_justify="left")
    table.add_column("metric")
    table.add_column("threshold", justify="right")
    for column in gate.columns:
        table.add_column(inert(column.format), justify="right", style="red" if column.failed else None)
    for row in gate.rows:
        table.add_row(
            row.label, row.threshold, *(Text(c.text, style="bold red" if c.misses else "") for c in row.cells)
        )
    console.print(table)
    for line in gate.failures:
        console.print(Text("FAIL ", style="bold red") + Text(inert(line)), soft_wrap=True)
    if gate.more_failures:
        console.print(f"… {gate.more_failures} more failures in report.json")
    for line in gate.run_failures:
        console.print(Text("FAIL ", style="bold red") + Text(inert(line)), soft_wrap=True)
    if gate.not_measured:
        console.print(Text("not measured: ", style="yellow") + Text(inert(gate.not_measured)), soft_wrap=True)
    style = "bold green" if gate.verdict == "pass" else "bold red"
    console.print(Text(f"gate {gate.verdict.upper()}", style=style) + Text(gate.summary), soft_wrap=True)
