"""The one table of formats every layer reads: which built-in parser reads which file suffixes,
the ``Document.format`` values it makes, the extra (and that extra's top-level modules) it needs,
its output version, whether its offsets point into the source file, and what a document of it
costs a scheduler.

The registry builds its built-in parsers from ``FORMATS``; the parsers take their suffixes and
output versions from it; the chunkers' line numbers, the gate's independent readers, the run's
reports and the local engine's scheduler derive their format lists from it. This module imports
nothing but the standard library's dataclasses: a worker reads it before any parser library.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cost:
    """Rough CPU seconds of a document (benchmarks/scaling.py on the 2-core machines), for the
    worker count and the order documents go to workers in (parsegate.engines.local.dispatch)."""

    per_mb: float = 1.5  # per MB of the file
    per_file: float = 0.01
    first_use: float = 0.0  # importing the format's libraries, once per process
    # Formats naming the same libraries share slow-to-import ones (one import serves them all):
    # their documents stay with the workers that have imported them.
    libraries: str | None = None


@dataclass(frozen=True)
class Form:
    """One ``Document.format`` value a parser makes, and the suffixes of the files read as it."""

    name: str
    suffixes: tuple[str, ...]
    cost: Cost = Cost()
    converted_to: str | None = None  # read after LibreOffice converts the file to this form
    needs_extra: bool = True  # False: read without the parser's extra (web pages: our lxml pass)


@dataclass(frozen=True)
class FormatSpec:
    """A built-in parser: its name and module, the forms it reads, and what its output means."""

    name: str
    module: str
    forms: tuple[Form, ...]
    output_version: int  # bumped whenever its elements can change (tests/test_versions.py)
    # Document.text is the decoded source file itself: offsets and line numbers point into the
    # user's file, which the gate decodes again as its reference.
    source_text: bool
    extra: str | None = None  # pip install 'parsegate[extra]'
    extra_modules: tuple[str, ...] = ()  # the extra's top-level modules: missing ones mean it is not installed

    @property
    def suffixes(self) -> tuple[str, ...]:
        return tuple(s for form in self.forms for s in form.suffixes)

    @property
    def formats(self) -> tuple[str, ...]:
        return tuple(form.name for form in self.forms)

    def form_for(self, suffix: str) -> Form | None:
        return next((form for form in self.forms if suffix in form.suffixes), None)


# Source code: suffix → tree-sitter language (parsers/code/; its query file is code/queries/<language>.scm).
CODE_LANGUAGES = {
    ".py": "python", ".pyi": "python", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
    ".jsx": "javascript", ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".go": "go", ".rs": "rust", ".java": "java", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp",
    ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp", ".cs": "csharp", ".rb": "ruby",
    ".php": "php", ".kt": "kotlin", ".kts": "kotlin",
}  # fmt: skip

# docling's format backends: about 4 s of CPU to import, shared by DOCX, PPTX, XLSX and (for the
# gate's independent reading) HTML.
_DOCLING = "docling"


def _legacy(name: str, target: str) -> Form:
    """A legacy or open format LibreOffice converts to its OOXML form (parsers/office/legacy.py);
    the document keeps the name it was given (``doc``, ``odt``…)."""
    return Form(name, (f".{name}",), converted_to=target)


FORMATS: tuple[FormatSpec, ...] = (
    FormatSpec(
        "markdown",
        "parsegate.parsers.markdown",
        (Form("markdown", (".md", ".markdown", ".mdown", ".mkd", ".mdx")),),
        output_version=15,  # 15: a leading `---` block that is no YAML mapping is Markdown (CHANGELOG.md)
        source_text=True,
    ),
    FormatSpec(
        "text",
        "parsegate.parsers.text",
        (Form("text", (".txt", ".text", ".log", ".transcript", ".chat"), Cost(per_mb=1.0)),),
        output_version=23,  # 23: MediaWiki heading lines are headings; lead-ins after a chat kept
        source_text=True,
    ),
    FormatSpec(
        "code",
        "parsegate.parsers.code",
        (Form("code", tuple(CODE_LANGUAGES)),),
        output_version=8,  # 8: definitions name what each context line binds (context_names)
        source_text=True,
        extra="code",
        extra_modules=("tree_sitter", "tree_sitter_language_pack"),
    ),
    FormatSpec(
        "office",
        "parsegate.parsers.office",
        (
            Form("docx", (".docx", ".docm"), Cost(per_mb=6.0, first_use=4.0, libraries=_DOCLING)),
            Form("pptx", (".pptx",), Cost(per_mb=6.0, first_use=4.0, libraries=_DOCLING)),
            Form("xlsx", (".xlsx", ".xlsm"), Cost(per_mb=20.0, first_use=4.0, libraries=_DOCLING)),
            # our own pass over lxml, a core dependency; docling only for the gate's reading
            Form("html", (".html", ".htm", ".xhtml"), Cost(4.5, first_use=4.0, libraries=_DOCLING), needs_extra=False),
            *(_legacy(name, "docx") for name in ("doc", "dot", "rtf", "odt")),
            *(_legacy(name, "pptx") for name in ("ppt", "pps", "odp")),
            *(_legacy(name, "xlsx") for name in ("xls", "ods")),
            Form("docling", (".json",)),  # a DoclingDocument written by docling elsewhere
        ),
        output_version=15,  # 15: pictures' alt text (OCR of DOCX/PPTX images when asked): image_text (CHANGELOG)
        source_text=False,
        extra="office",
        extra_modules=("docling", "docling_core"),
    ),
    FormatSpec(
        "pdf",
        "parsegate.parsers.pdf",
        (Form("pdf", (".pdf",), Cost(per_mb=4.5, first_use=0.3)),),
        output_version=27,  # 27: a bold line with the next section number; 26: shading, note marks, listings
        source_text=False,
        extra="pdf",
        extra_modules=("pypdfium2", "pdfplumber"),
    ),
    FormatSpec(
        "csv",
        "parsegate.parsers.csv",
        (Form("csv", (".csv",), Cost(per_mb=1.0)), Form("tsv", (".tsv", ".tab"), Cost(per_mb=1.0))),
        output_version=1,  # 1: a table, its header carried into every piece, a row per record (CHANGELOG.md)
        source_text=True,
    ),
    FormatSpec(
        "notebook",
        "parsegate.parsers.notebook",
        (Form("notebook", (".ipynb",)),),
        output_version=1,  # 1: new (CHANGELOG.md); code cells read by the code parser when the code extra is there
        source_text=True,
    ),
    FormatSpec(
        "image",
        "parsegate.parsers.image",
        # OCR: about 0.7 s of CPU a 300 dpi page (benchmarks/suites/ocr); a PNG page is ~0.3 MB
        (Form("image", (".png", ".jpg", ".jpeg", ".tif", ".tiff"), Cost(per_mb=3.0, per_file=0.7, first_use=0.3)),),
        output_version=3,  # 3, 2: the PDF parser's steps of pdf 27, 26 (CHANGELOG.md); 1: new (issue 36)
        source_text=False,
        extra="ocr",
        extra_modules=("pypdfium2", "PIL"),
    ),
    FormatSpec(
        "epub",
        "parsegate.parsers.epub",
        (Form("epub", (".epub",), Cost(per_mb=4.5, first_use=0.3)),),
        output_version=1,  # 1: new (CHANGELOG.md); chapters in spine order through our HTML pass
        source_text=False,
    ),
    FormatSpec(
        "mail",
        "parsegate.parsers.mail",
        # .eml: the standard library's email package, no extra; .msg: Outlook's, through extract-msg
        (Form("eml", (".eml",), needs_extra=False), Form("msg", (".msg",))),
        output_version=1,  # 1: new (CHANGELOG.md); subject, header block, body, quoted replies marked
        source_text=False,
        extra="mail",
        extra_modules=("extract_msg",),
    ),
    FormatSpec(
        "rst",
        "parsegate.parsers.rst",
        # docutils' parser, nearly all of it: about 2.9 s of CPU a MB (654 files of Sphinx's and docutils' docs)
        (Form("rst", (".rst", ".rest"), Cost(per_mb=3.0, first_use=0.1)),),
        output_version=1,  # 1: new (CHANGELOG.md); docutils' blocks, spans from the source's lines
        source_text=True,
    ),
    FormatSpec(
        "asciidoc",
        "parsegate.parsers.asciidoc",
        # `.asc` is left out: it is as often PGP's ASCII armour as AsciiDoc.
        (Form("asciidoc", (".adoc", ".asciidoc"), Cost(per_mb=1.0)),),
        output_version=1,  # 1: new (CHANGELOG.md); our line scanner, exact offsets into the source
        source_text=True,
    ),
)

# A file no suffix claims (README, NEWS), read as text or code by its content.
UNKNOWN_COST = Cost()


def spec(name: str) -> FormatSpec:
    """The built-in parser ``name``'s entry."""
    for entry in FORMATS:
        if entry.name == name:
            return entry
    raise KeyError(name)


def forms_by_suffix() -> dict[str, Form]:
    """Every suffix a built-in parser reads → the form it reads it as."""
    return {suffix: form for entry in FORMATS for form in entry.forms for suffix in form.suffixes}


def suffixes_of(*forms: str) -> tuple[str, ...]:
    """The suffixes of the files read as these ``Document.format`` values."""
    return tuple(s for entry in FORMATS for form in entry.forms if form.name in forms for s in form.suffixes)


def source_text_formats() -> frozenset[str]:
    """The ``Document.format`` values whose text is the decoded source file (Markdown, text, code)."""
    return frozenset(form.name for entry in FORMATS if entry.source_text for form in entry.forms)


def all_formats() -> frozenset[str]:
    """Every ``Document.format`` value a built-in parser makes."""
    return frozenset(form.name for entry in FORMATS for form in entry.forms)
