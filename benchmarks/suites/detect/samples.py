"""The labelled files: real files whose name says their format, given to each detector as bytes
alone (the name is the truth, never shown). Sources: the golden inputs, ../shared/corpus and
../shared/dev-data, what Debian installed on this machine (/usr/share/doc, the Python standard
library, /usr/include, /usr/share's JavaScript, PHP, reStructuredText, JSON, YAML, XML, SVG,
shell scripts, images and archives), and the golden Office files converted by LibreOffice to the
legacy and open formats (doc, xls, ppt, odt, ods, odp, rtf; cached in benchmarks/.cache/detect).

Each file's truth is a parsegate format: pdf, docx, pptx, xlsx, doc, xls, ppt, odt, ods, odp,
rtf, html, markdown, code, text (what parsegate reads as text: plain text, reStructuredText,
JSON, YAML, XML, shell) or none (binary content parsegate has no parser for). Sources with many
files are sampled the same way each run (every k-th file in sorted order, up to a cap)."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from benchmarks.harness import CACHE, ROOT

SHARED = ROOT.parent / "shared"
CONVERTED = CACHE / "detect"


@dataclass(frozen=True)
class Sample:
    path: Path
    truth: str  # the parsegate format
    source: str  # where it came from (a group of the report)
    language: str | None = None  # code: its language, by suffix


_SUFFIX_TRUTH = {
    ".pdf": "pdf", ".docx": "docx", ".pptx": "pptx", ".xlsx": "xlsx", ".doc": "doc", ".xls": "xls",
    ".ppt": "ppt", ".odt": "odt", ".ods": "ods", ".odp": "odp", ".rtf": "rtf", ".html": "html", ".htm": "html",
    ".md": "markdown", ".txt": "text", ".csv": "text", ".rst": "text", ".json": "text", ".yaml": "text",
    ".yml": "text", ".xml": "text", ".svg": "text", ".sh": "text",
}  # fmt: skip
_LANGUAGES = {".py": "python", ".c": "c", ".h": "c", ".js": "javascript", ".php": "php", ".go": "go",
              ".cs": "csharp", ".cpp": "cpp", ".java": "java", ".rb": "ruby", ".rs": "rust", ".kt": "kotlin",
              ".ts": "typescript"}  # fmt: skip
_BINARY = (".png", ".gz", ".jpg", ".gif", ".ico", ".xz", ".bz2", ".mo", ".pyc", ".ttf", ".zip")


def truth_of(path: Path) -> tuple[str, str | None] | None:
    suffix = path.suffix.lower()
    if suffix in _LANGUAGES:
        return "code", _LANGUAGES[suffix]
    if suffix in _SUFFIX_TRUTH:
        return _SUFFIX_TRUTH[suffix], None
    if suffix in _BINARY:
        return "none", None
    return None


def _every(paths: list[Path], cap: int) -> list[Path]:
    paths = sorted(p for p in paths if p.is_file() and not p.is_symlink() and p.stat().st_size > 0)
    step = max(1, len(paths) // cap)
    return paths[::step][:cap]


def _find(root: str, pattern: str) -> list[Path]:
    base = Path(root)
    return list(base.rglob(pattern)) if base.is_dir() else []


def samples(cap: int = 150) -> list[Sample]:
    groups: list[tuple[str, list[Path]]] = [
        ("golden", sorted(ROOT.glob("golden_docs/**/input.*"))),
        ("shared corpus", sorted(p for p in (SHARED / "corpus").rglob("*") if p.is_file())),
        ("shared dev-data", sorted(p for p in (SHARED / "dev-data").rglob("*") if p.is_file())),
        ("debian html", _every(_find("/usr/share/doc", "*.html"), cap)),
        ("debian markdown", _every(_find("/usr/share/doc", "*.md"), cap)),
        ("debian txt", _every(_find("/usr/share/doc", "*.txt"), cap)),
        ("debian pdf", _every(_find("/usr/share/doc", "*.pdf"), cap)),
        ("python stdlib", _every(list(Path("/usr/lib/python3.11").glob("*.py")), cap)),
        ("c headers", _every(list(Path("/usr/include").glob("*.h")), cap // 2)),
        ("c sources", _every(_find("/usr/share", "*.c"), cap // 2)),
        ("javascript", _every(_find("/usr/share", "*.js"), cap // 2)),
        ("php", _every(_find("/usr/share", "*.php"), cap // 3)),
        ("other code", [p for s in (".go", ".cpp") for p in _every(_find("/usr/share", f"*{s}"), 10)]),
        ("rst", _every(_find("/usr/share", "*.rst"), cap // 2)),
        (
            "json/yaml",
            [*_every(_find("/usr/share", "*.json"), cap // 3), *_every(_find("/usr/share", "*.yaml"), cap // 3)],
        ),
        ("xml/svg", _every(_find("/usr/share", "*.xml"), cap // 3) + _every(_find("/usr/share", "*.svg"), cap // 3)),
        ("shell", _every(_find("/usr/share", "*.sh"), cap // 3)),
        ("binary", [p for s in _BINARY for p in _every(_find("/usr/share", f"*{s}"), 6)]),
        ("libreoffice", converted()),
    ]
    out: list[Sample] = []
    seen: set[Path] = set()
    for source, paths in groups:
        for path in paths:
            truth = truth_of(path)
            if truth is None or path.resolve() in seen:
                continue
            seen.add(path.resolve())
            out.append(Sample(path, truth[0], source, truth[1]))
    return out


def converted() -> list[Path]:
    """The golden DOCX, XLSX and PPTX converted by LibreOffice to their legacy and open forms
    (made once, then read from the cache); none without LibreOffice."""
    program = shutil.which("soffice") or shutil.which("libreoffice")
    golden = ROOT / "golden_docs" / "office"
    jobs = {"docx": ("doc", "odt", "rtf"), "xlsx": ("xls", "ods"), "pptx": ("ppt", "odp")}
    made: list[Path] = []
    for form, targets in jobs.items():
        for source in sorted(golden.glob(f"{form}/*/input.{form}")):
            for target in targets:
                out = CONVERTED / f"{source.parent.name}.{target}"
                if not out.exists() and program:
                    _convert(program, source, target, out)
                if out.exists():
                    made.append(out)
    return made


def _convert(program: str, source: Path, target: str, out: Path) -> None:
    work = CONVERTED / "work"
    work.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [program, "--headless", "--convert-to", target, "--outdir", str(work), str(source)],
        check=False,
        capture_output=True,
        timeout=180,
        env={**os.environ, "HOME": str(work)},
    )
    made = work / f"{source.stem}.{target}"
    if made.exists():
        made.rename(out)
