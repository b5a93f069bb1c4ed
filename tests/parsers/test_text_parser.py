from __future__ import annotations

import re
from pathlib import Path

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import text
from parsegate.parsers.signals.page_breaks import flows_across

# A manual page of our own (source.1 beside it) as man(1) sets it, through groff and col -b: tabs
# wherever justification padding reached a tab stop, a word hyphenated with U+2010 at a line end.
MAN_PAGE = Path(__file__).resolve().parents[2] / "golden_docs" / "text" / "man-page" / "input.txt"


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
    turns = [(e.data.speaker, doc.text[e.start : e.end]) for e in doc.elements]
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


def test_a_manual_with_a_few_labelled_lines_is_no_transcript() -> None:
    # Node.js's API docs as plain text: "Stability:" and "Modules:" open a few lines; read as
    # speakers they made the whole manual turns, its table rows parts of a turn without header.
    para = "Experimental features may change in a minor release, so use them with care in libraries.\n\n" * 3
    source = (
        "Stability index\n\n"
        + para
        + "Stability: 0 - Deprecated. The feature may emit warnings.\n\n"
        + para
        + "Stability: 1 - Experimental. The feature is not subject to semantic versioning.\n\n"
        + para
        + "Stability: 2 - Stable. Compatibility with the npm ecosystem is a high priority.\n\n"
        + para
        + "API\tStability\nAssert\t(2) Stable\nModules: CommonJS modules\t(2) Stable\nTest runner\t(2) Stable\n"
    )
    doc = text.parse(source.encode(), "documentation.txt")
    assert "turn" not in {e.kind for e in doc.elements}
    table = next(e for e in doc.elements if e.kind == "table")
    assert table.data.header_text == "API\tStability"
    # Nor an info file's tag table: records that name the same label line after line.
    tags = "".join(f"Node: {name}\x7f{n * 997}\n" for n, name in enumerate(["Top", "Overview", "Commands", "Limits"]))
    tags += "Ref: print suffixes\x7f25049\nNode: Problems\x7f43082\n"
    assert "turn" not in {e.kind for e in text.parse(("Tag Table:\n" + tags).encode(), "ed.info").elements}
    # Nor a message whose header names each field once.
    body = "".join(f"Line {n} of the message body, which says what was decided at the meeting.\n" for n in range(12))
    mail = "From: Dana Reyes\nTo: Oskar Lind\nSubject: Backups\nDate: 3 March\n\n" + body
    assert "turn" not in {e.kind for e in text.parse(mail.encode(), "mail.txt").elements}


def test_a_chat_pasted_among_other_text_is_still_a_conversation() -> None:
    report = "".join(
        f"Paragraph {n} of the weekly report, which says what the team did and why.\n\n" for n in range(20)
    )
    chat = "[09:01] Dana: Is the backup done?\n[09:02] Oskar: Yes, at 08:55.\n[09:02] Dana: Thanks.\n[09:03] Oskar: No problem.\n"
    doc = text.parse((report + chat).encode(), "mixed.txt")
    assert [e.data.speaker for e in doc.elements if e.kind == "turn"] == ["Dana", "Oskar", "Dana", "Oskar"]


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
    assert doc.elements[2].data.to_json() == {"cells": ["year", "revenue", "margin"], "header": True}
    assert doc.elements[3].parent == doc.elements[1].id


def test_tabs_that_stand_for_spaces_are_no_table_cells() -> None:
    doc = text.parse(MAN_PAGE.read_bytes(), "tidewatch.txt")
    # Lines of a justified paragraph with one tab each (by chance the same count on consecutive
    # lines) were read as a two-column table: an option's description cut into rows mid-sentence.
    assert not {"table", "table_row"} & {e.kind for e in doc.elements}
    by_start = {doc.text[e.start : e.end].split("\n")[0]: doc.text[e.start : e.end] for e in doc.elements}
    assert by_start["OPTIONS"].endswith("and the previous configuration stays in force.")
    assert by_start["-n, --dry-run"].endswith("nobody relies on warnings that  will\n\t      not come.")
    assert len(doc.elements) == 14


def test_a_running_header_set_in_columns_is_no_title() -> None:
    # "TIDEWATCH(1)<tabs>User Commands<tabs>TIDEWATCH(1)" as the title rode in every chunk's
    # context: on Debian's man pages dense retrieval fell to 40 of 145 spans on find(1) (58 without).
    doc = text.parse(MAN_PAGE.read_bytes(), "tidewatch.txt")
    assert "heading" not in {e.kind for e in doc.elements} and "title" not in doc.metadata
    assert doc.elements[0].kind == "paragraph" and doc.elements[0].section_path == ()
    spaced = text.parse(b"GNU Coreutils      Version 9.1\n\nThe coreutils are the basic tools.\n", "c.txt")
    assert spaced.elements[0].kind == "paragraph"
    titled = text.parse(b"Release Notes for Tidewatch 2.4\n\nThe gauges are read every minute.\n", "r.txt")
    assert titled.metadata["title"] == "Release Notes for Tidewatch 2.4"


def test_a_table_aligned_with_tabs_stays_a_table_beside_tab_spaced_prose() -> None:
    prose = MAN_PAGE.read_text(encoding="utf-8").split("\n\n")[3]  # DESCRIPTION
    assert "\t" in prose
    table = "       Status\t Meaning\n       0\t Stopped by a signal\n       1\t Configuration could not be read\n"
    table += "       2\t No gauge answered in five minutes"
    doc = text.parse(f"{prose}\n\n{table}\n".encode(), "exit.txt")
    assert [e.kind for e in doc.elements] == ["paragraph", "table"] + ["table_row"] * 4
    assert doc.elements[2].data.to_json() == {"cells": ["Status", "Meaning"], "header": True}
    assert doc.elements[4].data.to_json() == {"cells": ["1", "Configuration could not be read"], "header": False}
    # Rows as wide as one another, tabs expanded, and a word or a figure per cell: a table.
    quarters = "Quarter\tNet revenue\tGross profit\tNet income\tDiluted EPS\n" + "".join(
        f"{q} quarter\t1,{n}72.6\t59{n}.5\t17{n}.9\t1.3{n}\n"
        for n, q in enumerate(["First", "Second", "Third", "Fourth"])
    )
    assert [e.kind for e in text.parse(quarters.encode(), "q.txt").elements] == ["table"] + ["table_row"] * 5


def test_a_word_hyphenated_at_a_line_end_runs_on() -> None:
    for hyphen in ("-", "\u2010", "\u00ad"):  # ASCII, groff's U+2010, a soft hyphen
        source = f"sent between midnight and five in the morn{hyphen}\n       ing to vessels"
        assert flows_across(source, source.index("\n"), source.index("\n") + 1), hyphen
    ended = "sent at five in the morning.\n       Then"
    assert not flows_across(ended, ended.index("\n"), ended.index("\n") + 1)


def test_a_block_under_an_underlined_title_is_no_run_on() -> None:
    # Lower case after no stop reads as a sentence that a page break cut: but not when what follows
    # opens with an underlined title (info pages, READMEs), nor across a rule of dashes.
    source = (
        "possible assignments to bzerror: bz_ok if the stream was closed\n"
        "     normally, up: high-level interface\n\n"
        "3.4.7 bz2_bzwriteclose\n----------------------\n\n"
        "     void bz2_bzwriteclose( int *bzerror, bzfile* f );\n"
    )
    doc = text.parse(source.encode(), "bzip2.txt")
    assert [doc.text[e.start : e.end] for e in doc.elements] == [
        "possible assignments to bzerror: bz_ok if the stream was closed\n     normally, up: high-level interface",
        "3.4.7 bz2_bzwriteclose\n----------------------",
        "void bz2_bzwriteclose( int *bzerror, bzfile* f );",
    ]
    # A page break inside a sentence still joins: "the db has headroom, cpu is at" | "54%."
    joined = text.parse(
        b"The load test passed and the db has headroom, cpu is at\n\n54%. Next week we scale.\n", "p.txt"
    )
    assert [e.kind for e in joined.elements] == ["paragraph"]


def test_a_rule_of_dashes_is_no_hyphenated_word() -> None:
    rule = "3.4.7 bz2_bzwriteclose\n----------------------\n\n\n     void bz2_bzwriteclose"
    assert not flows_across(rule, rule.index("\n\n"), rule.index("void"))
    dash = "the rate went up -\n   which nobody expected"  # a dash, spaced: the sentence runs on
    assert flows_across(dash, dash.index("\n"), dash.index("which"))


def test_a_single_line_with_a_pipe_stays_prose() -> None:
    doc = text.parse(b"Run cat a | grep b to see it.\nThen stop.\n", "p.txt")
    assert [e.kind for e in doc.elements] == ["paragraph"]


def test_a_document_pasted_after_a_chat_is_not_the_last_speakers_turn() -> None:
    chat = "Ann: hi there.\nBob: hello, what is up?\nAnn: the report is late.\n\nIt needs one more day.\n"
    report = "\n\n".join(f"Paragraph {i} of the quarterly report, about revenue." for i in range(6))
    table = "\n\nsegment | 2020 | 2019\nsensors | 12 | 10\nservices | 8 | 9\n"
    doc = text.parse((chat + "\n" + report + table).encode(), "mixed.txt")
    kinds = [(e.kind, doc.text[e.start : e.end][:30]) for e in doc.elements]
    # More paragraphs without a speaker than a turn holds: the last turn ends with its own
    # paragraph, and the report after it is prose, its table a table.
    assert kinds[:3] == [
        ("turn", "Ann: hi there."),
        ("turn", "Bob: hello, what is up?"),
        ("turn", "Ann: the report is late."),
    ]
    assert [k for k, _ in kinds[3:10]] == ["paragraph"] * 7
    assert [k for k, _ in kinds[10:]] == ["table", "table_row", "table_row", "table_row"]
    assert doc.elements[11].parent == doc.elements[10].id
    # A speaker's next paragraph stays hers when the chat goes on after it.
    short = text.parse(b"Ann: hi.\nBob: yes?\nAnn: the report is late.\n\nIt needs a day.\n\nBob: ok.\n", "c.txt")
    assert [doc_kind for doc_kind, _ in [(e.kind, 0) for e in short.elements]] == ["turn"] * 4
    assert short.text[short.elements[2].start : short.elements[2].end] == "Ann: the report is late.\n\nIt needs a day."


def test_figures_at_line_ends_are_table_rows_with_their_header() -> None:
    source = "Results\n\n(in millions) 2020 2019 2018\nNet revenue 7,085.3 6,840.6 5,336.5\nGross profit (3.2) 2.1 —\nSales grew in 2020 and 2019.\n"
    doc = text.parse(source.encode(), "f.txt")
    rows = [e for e in doc.elements if e.kind == "table_row"]
    assert [doc.text[r.start : r.end] for r in rows] == [
        "(in millions) 2020 2019 2018",
        "Net revenue 7,085.3 6,840.6 5,336.5",
        "Gross profit (3.2) 2.1 —",
    ]
    assert rows[1].data.cells == ["Net revenue", "7,085.3", "6,840.6", "5,336.5"]
    assert doc.elements[-1].kind == "paragraph"  # one trailing year is prose, not a row


def test_column_names_above_figures_head_the_table_and_a_colon_line_leads_into_it() -> None:
    source = "Net revenue by segment:\nSegment Fiscal 2019 Fiscal 2018 Change\nTest Systems 3,703.7 3,703.4 0.3\nSensors 1,722.1 1,453.3 268.8\n"
    doc = text.parse(source.encode(), "s.txt")
    assert [e.kind for e in doc.elements] == ["paragraph", "table", "table_row", "table_row", "table_row"]
    table = doc.elements[1]
    assert table.data.header_text == "Segment Fiscal 2019 Fiscal 2018 Change"
    assert table.data.lead_in == doc.elements[0].id


def test_a_row_of_years_heads_its_figures_not_the_caption_above_it() -> None:
    # As PDF-to-text writes a statement: its title, then "(units) 2022 2021 2020" over the rows.
    source = (
        "Consolidated Statements of Operations\n(in millions, except per share data) 2022 2021 2020\n"
        "Net revenue 4,677.1 4,555.0 3,620.1\nProvision for income taxes 210.5 195.1 152.7\n"
    )
    doc = text.parse(source.encode(), "f.txt")
    table = next(e for e in doc.elements if e.kind == "table")
    assert table.data.header_text == "(in millions, except per share data) 2022 2021 2020"
    assert [e.kind for e in doc.elements] == ["paragraph", "table", "table_row", "table_row", "table_row"]
    assert doc.text[doc.elements[0].start : doc.elements[0].end] == "Consolidated Statements of Operations"
    # A run made only of years has no header row of its own: the line above heads it.
    years = text.parse(b"Year founded\nAlpha 1998 2004\nBeta 2001 2010\n", "y.txt")
    assert next(e for e in years.elements if e.kind == "table").data.header_text == "Year founded"


def test_a_blank_line_inside_a_sentence_does_not_end_the_paragraph() -> None:
    # PDF-to-text puts a blank line between pages, wherever the page ends.
    source = (
        "Emissions per parcel fell by 9% in 2023, and we remain on course for the 2030 target, provided that\n"
        "the grid connection for the Leeds hub is upgraded on\n\ntime. The upgrade was approved in October.\n\n"
        "The image-\n\nresizer is read-only on Saturdays.\n\nThe second paragraph starts here.\n"
    )
    doc = text.parse(source.encode(), "p.txt")
    assert [doc.text[e.start : e.end].split()[-1] for e in doc.elements] == ["October.", "Saturdays.", "here."]
    # A short line that ends one sentence and starts another runs on over the page break.
    short = text.parse(b"It rose. The rate\n\nwas set in may.\n", "s.txt")
    assert [short.text[e.start : e.end] for e in short.elements] == ["It rose. The rate\n\nwas set in may."]
    # A one-line block that may be a heading keeps its own element even in lower case.
    lower = text.parse(b"risk factors\n\nour business depends on a few large customers.\n", "l.txt")
    assert [lower.text[e.start : e.end] for e in lower.elements] == [
        "risk factors",
        "our business depends on a few large customers.",
    ]


def test_lower_case_chat_handles_after_a_time_stamp_are_speakers() -> None:
    source = (
        "[09:04] oskar: backup finished in 8 minutes.\n[09:04] dev_ops_bot: cpu is at\n36%.\n"
        "[09:05] priya: downstream is the ledger service.\n"
    )
    doc = text.parse(source.encode(), "chat.txt")
    assert [(e.kind, e.data.speaker) for e in doc.elements] == [
        ("turn", "oskar"),
        ("turn", "dev_ops_bot"),
        ("turn", "priya"),
    ]
    assert doc.text[doc.elements[1].start : doc.elements[1].end] == "[09:04] dev_ops_bot: cpu is at\n36%."
    # Without a time stamp a lower-case word before a colon is prose ("note: ...", "step two: ...").
    prose = text.parse(b"first: we open.\nsecond: we close.\nthird: we leave.\n", "p.txt")
    assert {e.kind for e in prose.elements} == {"paragraph"}


def test_a_chat_export_without_time_stamps_is_a_transcript_and_a_glossary_is_not() -> None:
    chat = (
        b"oskar: backup finished in 8 minutes.\npriya: checksums match?\noskar: yes, all of them.\n"
        b"dev_ops_bot: cpu is at 36%.\npriya: then we can close the incident.\n"
        b"dev_ops_bot: incident closed.\n"
    )
    doc = text.parse(chat, "chat.txt")
    assert [(e.kind, e.data.speaker) for e in doc.elements] == [
        ("turn", "oskar"),
        ("turn", "priya"),
        ("turn", "oskar"),
        ("turn", "dev_ops_bot"),
        ("turn", "priya"),
        ("turn", "dev_ops_bot"),
    ]
    glossary = b"latency: time until the first byte.\nthroughput: bytes per second.\njitter: spread of latency.\nuptime: share of time up.\n"
    assert {e.kind for e in text.parse(glossary, "g.txt").elements} == {"paragraph"}
    notes = (
        b"We deploy on fridays.\nops: the window is 22:00.\nIt lasts an hour.\nThen go.\nDone.\n"
        b"All good.\nsee: the runbook.\nops: ask first.\nMore text.\nThe end.\n"
    )
    assert {e.kind for e in text.parse(notes, "n.txt").elements} == {"paragraph"}


def test_a_table_written_one_cell_per_paragraph_is_a_table_with_its_header() -> None:
    # poppler's pdftotext, default mode: every cell a paragraph; one label pushed past its row.
    source = (
        "Item 8. Financial Statements\nConsolidated Statements of Operations\n(in millions) \n\n"
        "2022\n\n2021\n\n2020\n\nNet revenue\n\n4,677.1 4,555.0 3,620.1\n\nCost of revenue\n\n"
        "2,432.1\n\n2,379.7\n\n2,136.9\n\nRestructuring charges\n\n46.8\n\n41.2\n\n42.5\n\n"
        "1,029.0\n\n916.3\n\n807.6\n\nNet income\n\n725.0\n\n716.5\n\n553.2\n\nOperating income\n\n"
        "We sponsor a defined contribution plan that covers substantially all employees.\n"
    )
    doc = text.parse(source.encode(), "f.txt")
    kinds = [e.kind for e in doc.elements]
    assert kinds == ["paragraph", "table"] + ["table_row"] * 6 + ["paragraph", "paragraph"]
    assert doc.text[doc.elements[0].start : doc.elements[0].end] == (
        "Item 8. Financial Statements\nConsolidated Statements of Operations"
    )
    table, rows = doc.elements[1], doc.elements[2:8]
    assert table.data.header_text == "(in millions) 2022 2021 2020"
    assert [r.data.cells for r in rows] == [
        ["(in millions)", "2022", "2021", "2020"],
        ["Net revenue", "4,677.1", "4,555.0", "3,620.1"],
        ["Cost of revenue", "2,432.1", "2,379.7", "2,136.9"],
        ["Restructuring charges", "46.8", "41.2", "42.5"],
        ["", "1,029.0", "916.3", "807.6"],  # figures whose label pdftotext moved below the table
        ["Net income", "725.0", "716.5", "553.2"],
    ]
    assert doc.text[rows[2].start : rows[2].end] == "Cost of revenue\n\n2,432.1\n\n2,379.7\n\n2,136.9"
    # Short paragraphs with a figure or two are not a table.
    prose = text.parse(b"Totals\n\nWe sold 12 units.\n\nRevenue\n\n4.5\n\nThat is all.\n", "p.txt")
    assert not {"table", "table_row"} & {e.kind for e in prose.elements}


def test_a_table_pdftotext_broke_in_two_keeps_its_rows_and_its_header() -> None:
    # Two figures in one paragraph ("1,031.2 998.4": the row after "Restructuring charges"), and
    # two labels on one line, their figures after them: the rest of the table is a table of its
    # own, whose first row is figures without a label. Its rows still sit under the years.
    source = (
        "Consolidated Statements of Operations\n(in millions) \n\n2022\n\n2021\n\n2020\n\n"
        "Net revenue\n\n4,677.1 4,555.0 3,620.1\n\nCost of revenue\n\n2,432.1\n\n2,379.7\n\n2,136.9\n\n"
        "Restructuring charges\n\n46.8\n\n41.2\n\n42.5\n\n1,031.2 998.4\n\n807.6\n\n"
        "Operating income\nInterest expense, net\n\n73.2\n\n64.8\n\n71.4\n\n"
        "Other income (expense), net\n\n19.5\n\n18.0\n\n14.9\n\nNet income\n\n756.4\n\n751.5\n\n613.2\n\n"
        "We sponsor a defined contribution plan that covers substantially all employees.\n"
    )
    doc = text.parse(source.encode(), "f.txt")
    tables = [e for e in doc.elements if e.kind == "table"]
    assert len(tables) == 2
    first = [e.data.cells for e in doc.elements if e.kind == "table_row" and e.parent == tables[0].id]
    assert first[-2:] == [["Restructuring charges", "46.8", "41.2", "42.5"], ["", "1,031.2", "998.4", "807.6"]]
    second = [e for e in doc.elements if e.kind == "table_row" and e.parent == tables[1].id]
    assert [r.data.cells[0] for r in second] == ["", "Other income (expense), net", "Net income"]
    assert not any(r.data.header for r in second)
    assert tables[1].data.header == ["(in millions)", "2022", "2021", "2020"]
    assert tables[1].data.header_text == "(in millions) 2022 2021 2020"
    assert tables[1].data.rows == 3
    # Every row of the second piece carries the first piece's header into its chunk.
    chunks = Chunker(ChunkConfig(tokenizer="words", max_tokens=24)).chunk(doc)
    other = next(c for c in chunks if "Other income" in c.text)
    assert "(in millions) 2022 2021 2020" in other.embed_text
    # Figures without a label far below a table (prose between), or in another count of
    # columns, start a table of their own: nothing is carried.
    head = source.split("Operating income")[0]
    rest = "73.2\n\n64.8\n\n71.4\n\nOther income\n\n19.5\n\n18.0\n\n14.9\n\nNet income\n\n756.4\n\n751.5\n\n613.2\n"
    prose = "".join(f"Paragraph {n} of the notes says something about the year.\n\n" for n in range(5))
    wide = (
        rest.replace("\n\n71.4", "\n\n71.4\n\n70.0").replace("14.9", "14.9\n\n13.0").replace("613.2", "613.2\n\n600.1")
    )
    for later in (prose + rest, "Operating income\nInterest expense, net\n\n" + wide):
        apart = text.parse((head + later).encode(), "f.txt")
        last = [e for e in apart.elements if e.kind == "table"][-1]
        assert last.data.header[0] == "" and last.data.rows == 2, later[:40]


def test_an_answer_indented_under_its_label_stays_the_speaker_s_however_long() -> None:
    # A FAQ sets each answer under its "A:" label with a hanging indent, and its examples deeper
    # still (xz-utils' FAQ). Five paragraphs are more than a turn holds at the margin; indented,
    # they are the answer's. Read as text pasted after the chat, the example's one short line was
    # taken for a title and stood, as a level-1 heading, over every later chunk of the file.
    answer = (
        "A:  Read the manual first. In short, something like\n    this is a good start:\n\n"
        "        pack --level=6 --dict=64KiB\n\n"
        "    Or, if a filter is needed too:\n\n"
        "        pack --level=6 --filter=x86\n\n"
        "    Adjust the dictionary to the memory you have.\n\n"
        "    A larger one compresses better but needs more memory.\n"
    )
    source = f"Q:  What is this tool?\n\nA:  A packer.\n\n\nQ:  How do I pack for a small device?\n\n{answer}\n\nQ:  Is it fast?\n\nA:  Yes.\n"
    doc = text.parse(source.encode(), "faq.txt")
    assert [e.kind for e in doc.elements] == ["turn"] * 6
    assert doc.text[doc.elements[3].start : doc.elements[3].end] == answer.rstrip()
    assert [e.section_path for e in doc.elements] == [()] * 6
    # At the margin, the same paragraphs are text pasted after the chat, as before: the turn ends
    # with its own paragraph. What follows a chat is no document's start: no title is taken there.
    flush = re.sub(r"\n +", "\n", source)
    pasted = text.parse(flush.encode(), "faq.txt")
    kinds = [e.kind for e in pasted.elements]
    assert kinds[:4] == ["turn"] * 4 and kinds[4:9] == ["paragraph"] * 5 and kinds[9:] == ["turn"] * 2
    assert pasted.text[pasted.elements[4].start : pasted.elements[4].end] == "pack --level=6 --dict=64KiB"
    assert "heading" not in kinds
