"""Whether a golden tree follows the layout: every case a folder
``<format>/<case>/`` (Office formats ``office/<suffix>/<case>/``) holding

    input.<ext>                   the document (exactly one)
    config.json                   chunker settings (optional: absent means the defaults)
    evidence.json                 questions and their evidence
    expected/elements.json        what the parser made
    expected/chunks.json          what the chunker made, no ids
    expected/chunk_set.json       what the chunk set was made of

Other files may sit beside them (a source the input was made from). ``discover`` finds cases by
their input, so a folder that lost its input, or a misspelled expected file, is skipped or read
as missing without a word: this check names them.
"""

from __future__ import annotations

from pathlib import Path

from parsegate.golden.cases import CHUNK_SET, CHUNKS, CONFIG, ELEMENTS, EXPECTED, Case, CaseError
from parsegate.golden.evidence import EVIDENCE_FILE
from parsegate.parsers.registry import parser_for

REQUIRED = (EVIDENCE_FILE, f"{EXPECTED}/{ELEMENTS}", f"{EXPECTED}/{CHUNKS}", f"{EXPECTED}/{CHUNK_SET}")
_PARTS = {EVIDENCE_FILE, CONFIG, EXPECTED}


def case_folders(root: Path) -> list[Path]:
    """Every folder holding a part of a case (its input or any other part)."""
    marks = [p.parent for p in root.glob("**/input.*")] + [p.parent for n in _PARTS for p in root.glob(f"**/{n}")]
    return sorted({m for m in marks if m.name != EXPECTED and m != root})


def format_problems(case: Case, source: Path) -> list[str]:
    parts = Path(case.name).parts
    parser = parser_for(source, source.read_bytes()[:512])
    if parser is None:
        return [f"{case.name}: no parser reads {source.name}"]
    suffix = source.suffix.lower().lstrip(".")
    want = (parser.NAME, suffix) if parser.NAME == "office" else (parser.NAME,)
    if parts[: len(want)] != want or len(parts) != len(want) + 1:
        return [f"{case.name}: {parser.NAME} cases belong in {'/'.join(want)}/<case>/"]
    return []


def folder_problems(root: Path, folder: Path) -> list[str]:
    case = Case(root, folder)
    inputs = sorted(p.name for p in folder.glob("input.*"))
    if len(inputs) != 1:
        return [f"{case.name}: {'no input.* file' if not inputs else 'several inputs: ' + ', '.join(inputs)}"]
    found = [f"{case.name}: no {part}" for part in REQUIRED if not (folder / part).is_file()]
    expected = folder / EXPECTED
    known = {ELEMENTS, CHUNKS, CHUNK_SET}
    if expected.is_dir():
        found += [
            f"{case.name}: {EXPECTED}/{p.name} is not an expected file"
            for p in sorted(expected.iterdir())
            if p.name not in known
        ]
    try:
        case.config()
    except CaseError as exc:
        found.append(str(exc))
    return found + format_problems(case, folder / inputs[0])


def layout_problems(root: Path) -> list[str]:
    """What keeps a tree from the layout, one line per problem ([] when it follows it)."""
    return [problem for folder in case_folders(root) for problem in folder_problems(root, folder)]
