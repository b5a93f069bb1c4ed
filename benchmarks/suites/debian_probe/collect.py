"""The documents Debian installed under /usr/share/doc, copied (gzip'ed ones unpacked) into a
folder: web pages, PDFs and text documents, and web pages LibreOffice saves as Word files or
prints to PDF (the kinds ``docx`` and ``lopdf``). Used by the debian_probe and page_breaks suites."""

from __future__ import annotations

import gzip
import random
import shutil
import subprocess
import sys
from pathlib import Path

DOC = Path("/usr/share/doc")
TEXT_NAMES = ("README*", "*.txt", "*.txt.gz", "*.md", "*.md.gz", "FAQ*", "TODO*", "NEWS*", "*.rst", "*.rst.gz")
LIMITS = {"html": (150, 400_000), "pdf": (40, 3_000_000), "text": (600, 300_000)}  # files, bytes each
CONVERTED = {"docx": ("docx", 'docx:"MS Word 2007 XML"'), "lopdf": ("pdf", "pdf")}  # suffix, soffice filter
SEED = 7


def convert(kind: str, into: Path, files: int | None = None) -> int:
    """A seeded sample of the web pages, converted by LibreOffice into ``kind`` (docx or lopdf)."""
    soffice = shutil.which("soffice")
    if soffice is None:
        sys.exit("the docx and lopdf kinds need LibreOffice (soffice) on the PATH")
    pages = into.parent / f".{kind}-pages"
    pages.mkdir(exist_ok=True)
    collect("html", pages, 10_000)
    chosen = sorted(pages.iterdir())
    chosen = random.Random(SEED).sample(chosen, min(files or 60, len(chosen)))
    suffix, target = CONVERTED[kind]
    subprocess.run(
        [soffice, "--headless", "--convert-to", target.replace('"', ""), "--outdir", str(into), *map(str, chosen)],
        capture_output=True,
        check=False,
    )
    shutil.rmtree(pages)
    return len(list(into.glob(f"*.{suffix}")))


def collect(kind: str, into: Path, files: int | None = None) -> int:
    if kind in CONVERTED:
        return convert(kind, into, files)
    count, limit = 0, LIMITS[kind]
    if files is not None:
        limit = (files, limit[1])
    patterns = {"html": ("*.html",), "pdf": ("*.pdf",), "text": TEXT_NAMES}[kind]
    paths = sorted({p for pattern in patterns for p in DOC.rglob(pattern) if p.is_file() and not p.is_symlink()})
    for path in paths:
        if count >= limit[0] or path.stat().st_size > limit[1]:
            continue
        data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        name = str(path.relative_to(DOC)).replace("/", "_").removesuffix(".gz")
        if kind == "text" and not name.endswith((".md", ".txt", ".rst")):
            name += ".txt"
        (into / name).write_bytes(data)
        count += 1
    return count
