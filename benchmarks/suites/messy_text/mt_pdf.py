"""The PDF variant: render the clean text (Markdown through markdown-it-py to HTML, plain text
as pre-wrapped lines) with headless Chromium, then extract the text layer with pypdfium2's
``get_text_range``, as a user's PDF-to-text step would. Rendered PDFs are cached by the hash
of their HTML, so only the first run pays for Chromium.
"""

from __future__ import annotations

import hashlib
import html
import shutil
import subprocess
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from markdown_it import MarkdownIt

from benchmarks.suites.messy_text.mt_model import Source

CACHE = Path(__file__).resolve().parent / ".cache" / "pdf"
STYLE = """
body { font-family: 'DejaVu Serif', serif; font-size: 11pt; margin: 0; }
table { border-collapse: collapse; } td, th { border: 1px solid #444; padding: 2px 6px; }
pre { white-space: pre-wrap; font-family: inherit; }
"""


def to_html(source: Source) -> str:
    if source.markdown:
        body = MarkdownIt("commonmark").enable("table").render(source.text)
    else:
        body = f"<pre>{html.escape(source.text)}</pre>"
    return f"<!doctype html><html><head><meta charset='utf-8'><style>{STYLE}</style></head><body>{body}</body></html>"


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def render(page: str) -> Path:
    key = hashlib.sha256(page.encode("utf-8")).hexdigest()[:24]
    out = CACHE / f"{key}.pdf"
    if out.exists():
        return out
    exe = chromium()
    if exe is None:
        raise RuntimeError("the pdf variant needs Chromium (apt-get install chromium), or pass --variants without pdf")
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "page.html"
        src.write_text(page, encoding="utf-8")
        pdf = Path(tmp) / "page.pdf"
        subprocess.run(
            [
                exe,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-pdf-header-footer",
                f"--user-data-dir={tmp}/profile",
                f"--print-to-pdf={pdf}",
                src.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        shutil.move(pdf, out)
    return out


def extract(path: Path) -> str:
    pdf = pdfium.PdfDocument(path)
    try:
        pages = []
        for page in pdf:
            textpage = page.get_textpage()
            pages.append(textpage.get_text_range())
            textpage.close()
            page.close()
    finally:
        pdf.close()
    return "\n\n".join(p.replace("\r\n", "\n").strip("\n") for p in pages) + "\n"


def extract_pdftotext(path: Path) -> str:
    """poppler's pdftotext (default reading-order mode): pages end with a form feed, and tables
    come out one cell per paragraph. Another PDF-to-text step users run (whole.py --extractor)."""
    exe = shutil.which("pdftotext")
    if exe is None:
        raise RuntimeError("--extractor pdftotext needs poppler-utils (apt-get install poppler-utils)")
    done = subprocess.run([exe, "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True, timeout=120)
    return done.stdout.decode("utf-8").rstrip("\f\n") + "\n"


def extract_pdfminer(path: Path) -> str:
    """pdfminer.six's extract_text (its layout analysis: text boxes, a form feed after each page)."""
    from pdfminer.high_level import extract_text

    return str(extract_text(str(path))).rstrip("\f\n") + "\n"


EXTRACTORS = {"pdfium": extract, "pdftotext": extract_pdftotext, "pdfminer": extract_pdfminer}
EXTRACTOR = "pdfium"  # the benchmark's; whole.py --extractor changes it


def pdf_text(source: Source) -> str:
    return EXTRACTORS[EXTRACTOR](render(to_html(source)))
