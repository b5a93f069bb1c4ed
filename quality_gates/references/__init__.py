"""The independent signal each check compares chunks with, opened once per document.

- text formats (Markdown, plain text, code): the source file's bytes, decoded here again;
- CSV and TSV: that decoding, and its records as the ``csv`` module reads them (table.py);
- PDF: PDFium's raw text layer and its text inside a box;
- Office and HTML: docling's own plain-text export of the file (docling_export.py); for HTML also
  the file's text nodes as libxml2 reads them (web.py), for what docling's HTML backend drops;
- Jupyter notebooks: the source file decoded here again, and the texts of its cells and text
  outputs as ``json.loads`` reads them (notebook.py).
- reStructuredText: the source file decoded here again, and docutils' own reading of it: the
  text of every text node, and the section titles with their lines (rst.py).
- AsciiDoc: the source file decoded here again, and the text nodes of asciidoc-py's DocBook
  rendering of it (asciidoc.py; the asciidoc extra), when asciidoc-py is installed.
- EPUB books: the book's title and the text nodes of its spine's XHTML files in spine order, as
  lxml reads each (epub.py, web.py's ``text_nodes``).
- pages read by OCR: the other OCR engine's reading of the page (ocr.py), taken by the OCR recall
  check itself (checks/ocr_recall.py) on the documents in the gate's sample.
- E-mail: the subject, header lines and body parts as the ``email`` package's own walk (or
  extract-msg, for ``.msg``) gives them (mail.py).

None of these come from parsegate's parsers: a parser that loses, alters or misplaces text
cannot hide it by agreeing with itself. docling's export is the expensive one (about the parse's
cost for an Office file, 18 times a web page's parse and chunk); a run with a gate sample
(``quality_gates/sample.py``) takes it only on the documents in the sample: outside it a web page
has libxml2's reading alone, and an Office document no reference.
"""

from __future__ import annotations

import bisect
import importlib.util
import re
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from parsegate.parsers.formats import source_text_formats, spec
from parsegate.quality_gates.references.docling_export import docling_text
from parsegate.quality_gates.references.table import Records, read_records
from parsegate.quality_gates.references.text import decode, standard_html_bytes
from parsegate.quality_gates.words import words

if TYPE_CHECKING:
    from parsegate.quality_gates.references.epub import EpubReading
    from parsegate.quality_gates.references.pdf import PdfSource

TEXT_FORMATS = source_text_formats()  # parsers/formats.py: Document.text is the decoded source
# Office and web forms docling (or lxml) reads from the source bytes; not the ones LibreOffice converts first.
OFFICE_FORMATS = frozenset(form.name for form in spec("office").forms if form.converted_to is None)
TABLE_FORMATS = frozenset(spec("csv").formats)
MAIL_FORMATS = frozenset(spec("mail").formats)  # delimited files: their records are read too
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass
class Reference:
    kind: str  # "source file" | "PDFium text layer" | "docling export" | "libxml2 reading (…)"
    text: str = ""  # the decoded source file, or docling's export of the body
    everything: str = ""  # Office: all of docling's text, furniture layer and sheet names too
    pdf: PdfSource | None = None
    html_nodes: list[str] | None = None  # HTML: the file's visible text nodes (lxml)
    paragraphs: list[str] | None = None  # DOCX: the file's own paragraphs (lxml: docx_text.py)
    table: str | None = None  # CSV or TSV: the format its records are read in (``records``)
    cells: list[str] | None = None  # notebooks: the texts of the cells and text outputs (json.loads)
    book: EpubReading | None = None  # EPUB: the title and each spine file's text nodes (lxml)
    reading: list[str] | None = None  # reStructuredText: docutils' text nodes (rst.py)
    rendered: list[str] | None = None  # AsciiDoc: the text nodes of asciidoc-py's DocBook rendering
    _line_starts: list[int] | None = None

    def close(self) -> None:
        if self.pdf is not None:
            self.pdf.close()

    # The words of the reference, folded once for every check that reads them (read, never change).
    @cached_property
    def text_words(self) -> list[str]:
        return words(self.text)

    @cached_property
    def export_words(self) -> list[str]:
        """The words of everything the reference holds (Office: the furniture layer too)."""
        return self.text_words if not self.everything or self.everything == self.text else words(self.everything)

    @cached_property
    def records(self) -> Records | None:
        """CSV and TSV: the file's records as the ``csv`` module reads them (table.py)."""
        return None if self.table is None else read_records(self.text, tab=self.table == "tsv")

    @cached_property
    def shown_words(self) -> list[str]:
        """HTML: the words of the file's text nodes (libxml2's reading)."""
        return words(" ".join(self.html_nodes or ()))

    def lines_of(self, start: int, end: int) -> tuple[int, int]:
        """1-based first and last line of a span of the source (CR, LF and CRLF end a line)."""
        if self._line_starts is None:
            self._line_starts = [0, *(m.end() for m in _LINE_BREAK.finditer(self.text))]
        first = bisect.bisect_right(self._line_starts, start)
        return first, bisect.bisect_right(self._line_starts, max(start, end - 1))


NOT_SAMPLED = "not in the gate's sample"


def open_reference(
    fmt: str, data: bytes | None, doc_id: str, password: str | None = None, expensive: bool = True
) -> Reference | None:
    """The independent view of a document's source, or None when there is none to be had;
    without ``expensive`` (a document outside the gate's sample) docling's export is not taken."""
    if data is None:
        return None
    if fmt in TEXT_FORMATS:
        try:
            text = decode(data)
        except UnicodeDecodeError:
            return None
        text = text.removeprefix("\ufeff")
        if fmt in TABLE_FORMATS:
            return Reference("source file, csv module reading", text, table=fmt)
        if fmt == "notebook":
            from parsegate.quality_gates.references.notebook import notebook_texts

            cells = notebook_texts(text)
            return None if cells is None else Reference("notebook cells (json)", text, cells=cells)
        if fmt == "rst":
            from parsegate.quality_gates.references.rst import rst_reading

            return Reference("source file, docutils reading", text, reading=rst_reading(text))
        if fmt == "asciidoc" and expensive:
            from parsegate.quality_gates.references.asciidoc import rendered_texts

            rendered = rendered_texts(text)
            if rendered is not None:
                return Reference("asciidoc-py DocBook rendering", text, rendered=rendered)
        return Reference("source file", text)
    if fmt == "pdf":
        from parsegate.quality_gates.references.pdf import open_pdf  # PDFium: the pdf extra's

        pdf = open_pdf(data, password=password)
        return None if pdf is None else Reference("PDFium text layer", pdf=pdf)
    if fmt == "epub":
        from parsegate.quality_gates.references.epub import epub_reading

        book = epub_reading(data)
        if book is None or not book.nodes:
            return None
        reading = "\n".join(book.nodes)
        return Reference("EPUB spine's text nodes (lxml)", reading, reading, html_nodes=book.nodes, book=book)
    if fmt in MAIL_FORMATS:
        from parsegate.quality_gates.references.mail import mail_reading

        mail = mail_reading(data, fmt)
        if mail is None:
            return None
        reading = "\n".join(mail.nodes)
        return Reference("the mail's own parts (email package)", reading, reading, html_nodes=mail.html or None)
    if fmt in OFFICE_FORMATS:
        if not expensive and fmt != "html":
            return None  # no cheaper reading of an Office file than docling's: not measured
        if fmt == "html":
            data = standard_html_bytes(data)
        # Web pages are read without the office extra (our lxml pass): there docling is not installed.
        docling = expensive and (fmt != "html" or importlib.util.find_spec("docling") is not None)
        deep = False
        if docling and fmt == "html":
            from parsegate.quality_gates.references.web import nests_deeper

            deep = nests_deeper(data)  # docling's reading would cost the depth per element
        exported = docling_text(data, fmt, doc_id) if docling and not deep else None
        nodes = None
        if fmt == "html":
            from parsegate.quality_gates.references.web import text_nodes

            nodes = text_nodes(data)
        if exported is None:
            if not nodes:
                return None
            if not expensive:
                why = f"{NOT_SAMPLED}: docling's export not taken"
            elif deep:
                from parsegate.quality_gates.references.web import DOCLING_DEPTH

                why = f"docling's export not taken: the page nests {DOCLING_DEPTH} or more elements deep"
            else:
                why = "docling could not read the page" if docling else "docling is not installed"
            reading = "\n".join(nodes)  # libxml2's reading alone
            from parsegate.quality_gates.references.alt_text import html_alts

            everything = "\n".join([reading, *html_alts(data)])  # and the images' alt text
            return Reference(f"libxml2 reading ({why})", reading, everything, html_nodes=nodes)
        body, everything = exported
        if fmt == "docx":
            from parsegate.parsers.office.numbering import labels

            # Word's list numbers ("2.1.a)"), which the parser writes into its items' text:
            # docling's export leaves them out (its markers are its own count).
            everything = "\n".join([everything, *labels(data)])
        if fmt in ("docx", "pptx"):
            from parsegate.quality_gates.references.alt_text import alt_texts

            # The pictures' alt text, which the parser keeps at each picture's place: docling's
            # export leaves it out.
            everything = "\n".join([everything, *alt_texts(data, fmt)])
        elif fmt == "html":
            from parsegate.quality_gates.references.alt_text import html_alts

            everything = "\n".join([everything, *html_alts(data)])  # docling's export keeps some of them
        if fmt == "docx":
            from parsegate.quality_gates.references.docx_text import paragraph_texts

            return Reference("docling export", body, everything, paragraphs=paragraph_texts(data))
        return Reference("docling export", body, everything, html_nodes=nodes)
    return None
