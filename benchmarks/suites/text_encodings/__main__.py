"""text_encodings: how well text files in legacy (non-UTF-8) encodings are decoded, against a truth nobody here wrote.

Each decoder is a function bytes → text (or a refusal); each case is a file's bytes and the text
they really hold. A decoding is *correct* when it is that text character for character, *wrong*
when it is other text, *refused* when the decoder gave none. Decoders compared:

- parsegate: ``parsegate.parsers.bytes.decode.decode_noted`` of the installed parsegate, or with
  --revision of that git revision (benchmarks/revisions.py; a ParseError is a refusal, its code
  recorded; the encoding chosen is read from its warning);
- charset-normalizer's ``from_bytes(data).best()`` (None is a refusal);
- Windows-1252 with replacement, what browsers do with a page that names no encoding;
- chardet's ``detect`` (strict decoding with the encoding it names), when chardet is importable
  (the benchmark installs nothing);
- any ``--decoder MODULE:FUNC``: FUNC(data: bytes) returns the text, None to refuse, or a
  (text | None, encoding | None) pair; an exception it raises counts as a refusal.

Cases, in three groups (each also broken down by script family):

1. real: the legacy files of vim's tutor (/usr/share/vim/vim*/tutor: tutor.ru in KOI8-R,
   tutor.cs.cp1250, tutor.ja.sjis, tutor.zh.big5, ...). The truth is the file's UTF-8 twin
   (tutor.X.utf-8, or tutor.X_*.utf-8: tutor.zh.euc's twin is tutor.zh_cn.utf-8), never the file
   name: the file is decoded with every candidate codec and the decoding most like a twin is the
   truth. Like = the share of non-ASCII characters two texts have in common, as multisets,
   over the larger count (a twin's header names its own encoding, so texts differ in a few
   ASCII lines; a wrong codec changes non-ASCII characters only), then the share of the twin's
   lines found (ties). A truth stands only if it reaches 0.95 of the twin's non-ASCII characters
   and 0.8 of its lines (with Debian 12's vim 9.0 every file reaches 0.99 and 0.93; the best
   *wrong* codecs reach 0.98: tutor.hu as ISO-8859-16, 0.91: tutor.ru.cp1251 as MacCyrillic).
   That is why a decoding is judged by equality with the truth, not by a similarity threshold:
   no threshold loose enough for the twins' own differences shuts those out. Codecs that decode
   the file to the same text are all true (Latin-1 = Windows-1252 = ISO-8859-15 for most Western
   files). Files that are valid UTF-8 (or ASCII) are not legacy cases and are left out.
2. synthetic: real UTF-8 text encoded into each legacy codec its language is really written in:
   GnuPG's translated help (/usr/share/gnupg/help.*.txt), and vim's tutor.X.utf-8 for the
   languages GnuPG has no translation of (Greek, Latvian, Ukrainian, Bulgarian, Korean, ...). The
   truth is the original text exactly. A (text, codec) pair the codec cannot encode without loss
   is skipped and counted; codecs that give the same bytes make one case.
3. short: the same, on a short sample of each text: whole lines from its first line with a
   non-ASCII character, up to 300 UTF-8 bytes (the same text for every codec of a language).
   Short files are where detection is hard.

The report lists each wrong decoding with 60 characters around where it first departs from the
truth, and its similarity (the non-ASCII overlap above, with the twin or the original: how wrong).
Speed: milliseconds per MB (10^6 bytes of input) of each decoder on each group, one call per case.

--sanity adds a decoder that is wrong on purpose (always Latin-1) and exits 1 unless it scores far
below charset-normalizer on the Cyrillic cases: the scoring tells right from wrong.

    python -m benchmarks.suites.text_encodings [--out FILE] [--revision REV] [--decoder MODULE:FUNC ...]
        [--sanity] [--show 25]
"""

from __future__ import annotations

import argparse
import collections
import glob
import hashlib
import importlib
import importlib.metadata
import os
import platform
import re
import shlex
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.revisions import rerun_in

VIM_TUTORS = "/usr/share/vim/vim*/tutor"
GNUPG = Path("/usr/share/gnupg")
SHORT_BYTES = 300
# The twin must vouch for the truth: its share of the twin's non-ASCII characters and lines.
TWIN_CHARS = 0.95
TWIN_LINES = 0.8
SANITY_MARGIN = 0.5  # the broken decoder's share of correct Cyrillic cases, below charset-normalizer's
EXCERPT = 60

GROUPS = {
    "real": "real legacy files (vim tutor; truth: the UTF-8 twin)",
    "synthetic": "synthetic full texts (truth: the UTF-8 original)",
    "short": f"synthetic short samples (lines up to {SHORT_BYTES} UTF-8 bytes; truth: the original)",
}
WESTERN_LANGUAGES = ("de", "fr", "es", "it", "pt", "ca", "da", "sv", "nb", "no", "nl", "fi", "id", "gl", "bar", "en")
FAMILIES: dict[str, tuple[str, ...]] = {
    "Cyrillic": ("ru", "uk", "be", "bg"),
    "Central European Latin": ("cs", "sk", "pl", "hu", "hr", "sl", "sr", "ro"),
    "Greek": ("el",),
    "Turkish": ("tr",),
    "Baltic": ("et", "lv", "lt"),
    "CJK": ("ja", "zh", "ko"),
    # Esperanto is Latin-3 (ISO-8859-3), counted with the Western Latin scripts
    "Western": (*WESTERN_LANGUAGES, "eo"),
}
WESTERN = ("cp1252", "iso8859_1", "iso8859_15")
CENTRAL = ("cp1250", "iso8859_2")
BALTIC = ("cp1257", "iso8859_13")
# The legacy codecs each language is really written in (by full code, else by its base: pt_br → pt).
LANGUAGE_CODECS: dict[str, tuple[str, ...]] = {
    "ru": ("koi8_r", "cp1251", "iso8859_5", "cp866"),
    "uk": ("cp1251", "koi8_u"),
    "be": ("cp1251",),  # ў is in neither KOI8
    "bg": ("cp1251", "iso8859_5"),
    **dict.fromkeys(("cs", "sk", "pl", "hu", "hr", "sl", "sr"), CENTRAL),
    "ro": (*CENTRAL, "iso8859_16"),
    "el": ("cp1253", "iso8859_7", "cp737"),
    "tr": ("cp1254", "iso8859_9"),
    "et": BALTIC,
    "lt": BALTIC,
    "lv": (*BALTIC, "iso8859_4"),
    "ja": ("shift_jis", "euc_jp", "iso2022_jp"),
    "zh_cn": ("gb2312", "gbk", "gb18030"),
    "zh_tw": ("big5",),
    "zh": ("big5",),  # vim's tutor.zh.utf-8 is traditional Chinese
    "ko": ("euc_kr",),
    "eo": ("iso8859_3",),
    "vi": ("cp1258",),
    **dict.fromkeys(WESTERN_LANGUAGES, WESTERN),
}
# What a real file's truth is looked for among, in the order a tie is reported.
CANDIDATES = (
    *("iso8859_1", "cp1252", "iso8859_15", "iso8859_2", "cp1250", "iso8859_3", "iso8859_4", "iso8859_13"),
    *("cp1257", "iso8859_5", "cp1251", "koi8_r", "koi8_u", "cp866", "cp855", "mac_cyrillic", "iso8859_7"),
    *("cp1253", "cp737", "mac_greek", "iso8859_9", "cp1254", "iso8859_10", "iso8859_14", "iso8859_16"),
    *("cp1258", "cp1255", "iso8859_8", "cp1256", "iso8859_6", "iso8859_11", "cp874", "cp437", "cp850"),
    *("cp852", "mac_roman", "mac_latin2", "shift_jis", "cp932", "euc_jp", "iso2022_jp", "gb2312", "gbk"),
    *("gb18030", "big5", "cp950", "big5hkscs", "euc_kr", "cp949", "johab"),
)
_ASCII_RUN = re.compile(r"[\x00-\x7f]+")
_CONTROL_PICTURES = {**{i: 0x2400 + i for i in range(32)}, 0x7F: 0x2421}  # "\n" → "␊", ESC → "␛"


# -- decoders --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    text: str | None  # None: refused
    chosen: str | None = None  # the encoding the decoder says it used, when it says
    error: str | None = None  # why it refused


Decoder = Callable[[bytes], Outcome]


def parsegate_decoder() -> tuple[Decoder, dict[str, Any]]:
    """The installed parsegate's decode_noted, and where it was loaded from."""
    try:
        decode = importlib.import_module("parsegate.parsers.bytes.decode")
    except ImportError:  # revisions before 9566159: parsers/decode.py
        decode = importlib.import_module("parsegate.parsers.decode")
    parse_error: type[Exception] = importlib.import_module("parsegate.parsers.model").ParseError
    source = Path(str(decode.__file__))

    def run(data: bytes) -> Outcome:
        try:
            text, note = decode.decode_noted(data)
        except parse_error as exc:
            return Outcome(None, error=str(getattr(exc, "code", exc)))
        if note is None:
            return Outcome(text, "utf-8")
        said = re.search(r"read as ([\w-]+)", note.message)
        return Outcome(text, said.group(1).lower() if said else note.code)

    return run, {"decode_py": str(source), "decode_py_sha256": hashlib.sha256(source.read_bytes()).hexdigest()}


def charset_normalizer_decoder(data: bytes) -> Outcome:
    import charset_normalizer

    best = charset_normalizer.from_bytes(data).best()
    return Outcome(None, error="no match") if best is None else Outcome(str(best), best.encoding)


def cp1252_decoder(data: bytes) -> Outcome:
    return Outcome(data.decode("cp1252", errors="replace"), "cp1252")


def latin1_decoder(data: bytes) -> Outcome:
    """Deliberately broken (--sanity): every byte is a Latin-1 character."""
    return Outcome(data.decode("latin_1"), "latin_1")


def chardet_decoder() -> Decoder | None:
    try:
        chardet = importlib.import_module("chardet")
    except ImportError:
        return None

    def run(data: bytes) -> Outcome:
        encoding = chardet.detect(data).get("encoding")
        if not encoding:
            return Outcome(None, error="no encoding")
        try:
            return Outcome(data.decode(encoding), encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            return Outcome(None, encoding, f"{type(exc).__name__}: {exc}"[:120])

    return run


def plugin_decoder(spec: str) -> Decoder:
    """``MODULE:FUNC``: FUNC returns the text, None, or a (text | None, encoding | None) pair."""
    module_name, _, func_name = spec.partition(":")
    if not func_name:
        raise SystemExit(f"--decoder {spec}: expected MODULE:FUNC")
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    func = getattr(importlib.import_module(module_name), func_name)

    def run(data: bytes) -> Outcome:
        try:
            result = func(data)
        except Exception as exc:  # a crash is this decoder's refusal, recorded with its reason
            return Outcome(None, error=f"{type(exc).__name__}: {exc}"[:120])
        if isinstance(result, tuple):
            text, chosen = result
            return Outcome(text, chosen, None if text is not None else "refused")
        return Outcome(result, None, None if result is not None else "refused")

    return run


# -- cases -----------------------------------------------------------------------------------------


@dataclass
class Case:
    id: str
    group: str  # a key of GROUPS
    language: str
    source: str  # the file the bytes or the text come from
    data: bytes
    truths: list[str]  # the accepted texts (several when codecs that tie decode differently)
    true_codecs: list[str]  # every codec that gives these bytes (synthetic) or the truth (real)
    reference: str  # what a decoding's similarity is measured against: the twin, or the original
    twin: str | None = None
    twin_similarity: tuple[float, float] | None = None  # (non-ASCII characters, lines) of the truth
    results: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def family(self) -> str:
        return family_of(self.language)


def family_of(language: str) -> str:
    base = language.split("_")[0]
    return next((name for name, members in FAMILIES.items() if base in members), "Other")


def codecs_of(language: str) -> tuple[str, ...]:
    return LANGUAGE_CODECS.get(language) or LANGUAGE_CODECS.get(language.split("_")[0], ())


def non_ascii(text: str) -> collections.Counter[str]:
    return collections.Counter(_ASCII_RUN.sub("", text))


def line_set(text: str) -> collections.Counter[str]:
    return collections.Counter(line for line in (raw.strip() for raw in text.splitlines()) if line)


def overlap(a: collections.Counter[str], b: collections.Counter[str]) -> float:
    """Multiset overlap over the larger of the two (1.0: the same characters, as many times)."""
    return sum((a & b).values()) / max(1, a.total(), b.total())


def similarity(text: str, reference: str) -> float:
    return round(overlap(non_ascii(text), non_ascii(reference)), 4)


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def tutor_language(name: str) -> str:
    """tutor.ru.cp1251 → ru; tutor.zh_cn.utf-8 → zh_cn; tutor and tutor.utf-8 → en."""
    parts = name.split(".")
    return parts[1].lower() if len(parts) > 1 and parts[1] != "utf-8" else "en"


def real_cases(folder: Path, notes: list[str]) -> list[Case]:
    """vim's legacy tutor files, each with the truth its UTF-8 twin vouches for."""
    twins_by_name = {p.name: p.read_text(encoding="utf-8-sig") for p in sorted(folder.glob("tutor*.utf-8"))}
    cases = []
    for path in sorted(folder.glob("tutor*")):
        if path.name.endswith((".utf-8", ".vim")) or not path.is_file():
            continue
        data = path.read_bytes()
        if is_utf8(data):
            notes.append(f"real: {path.name} is valid UTF-8/ASCII, not a legacy case")
            continue
        language = tutor_language(path.name)
        twins = {
            name: text
            for name, text in twins_by_name.items()
            if tutor_language(name) == language or tutor_language(name).startswith(language + "_")
        }
        if not twins:
            notes.append(f"real: {path.name} has no UTF-8 twin, left out")
            continue
        case = resolve(path, data, language, twins)
        if case is None:
            notes.append(f"real: {path.name}: no candidate codec matches a twin well enough, left out")
            continue
        cases.append(case)
    return cases


def resolve(path: Path, data: bytes, language: str, twins: dict[str, str]) -> Case | None:
    """The decoding of ``data`` most like one of its twins, if the twin vouches for it."""
    refs = {name: (non_ascii(text), line_set(text)) for name, text in twins.items()}
    scored: list[tuple[tuple[float, float], str, str, str]] = []  # (score, codec, twin, text)
    for codec in CANDIDATES:
        text = data.decode(codec, errors="replace")
        chars, lines = non_ascii(text), line_set(text)
        for name, (ref_chars, ref_lines) in refs.items():
            score = (
                round(overlap(chars, ref_chars), 6),
                round(sum((lines & ref_lines).values()) / ref_lines.total(), 6),
            )
            scored.append((score, codec, name, text))
    best = max(score for score, *_ in scored)
    if best[0] < TWIN_CHARS or best[1] < TWIN_LINES:
        return None
    winners = [(codec, name, text) for score, codec, name, text in scored if score == best]
    twin = winners[0][1]
    truths = list(dict.fromkeys(text for _, name, text in winners if name == twin))
    return Case(
        id=f"vim/{path.name}",
        group="real",
        language=language,
        source=str(path),
        data=data,
        truths=truths,
        true_codecs=[codec for codec, name, _ in winners if name == twin],
        reference=twins[twin],
        twin=twin,
        twin_similarity=best,
    )


def sources(vim: Path | None, notes: list[str]) -> list[tuple[str, str, str]]:
    """(label, language, text): GnuPG's translated help, then vim's UTF-8 tutors in the other languages."""
    found: list[tuple[str, str, str]] = []
    seen: set[str] = set()

    def add(label: str, language: str, text: str) -> None:
        digest = hashlib.sha256(text.encode()).hexdigest()
        if digest in seen:
            notes.append(f"synthetic: {label} is the same text as an earlier source, left out")
        elif text.isascii():
            notes.append(f"synthetic: {label} has no non-ASCII character (untranslated), left out")
        else:
            seen.add(digest)
            found.append((label, language, text))

    if GNUPG.is_dir():
        for path in sorted(GNUPG.glob("help.*.txt")):
            add(f"gnupg/{path.name}", path.name.split(".")[1].lower(), path.read_text(encoding="utf-8"))
    else:
        notes.append(f"synthetic: {GNUPG} is absent, no GnuPG help texts")
    if vim is not None:
        covered = {code for _, language, _ in found for code in (language, language.split("_")[0])}
        for path in sorted(vim.glob("tutor*.utf-8")):
            language = tutor_language(path.name)
            if language not in covered and language.split("_")[0] not in covered:
                add(f"vim/{path.name}", language, path.read_text(encoding="utf-8-sig"))
    return found


def short_sample(text: str) -> str:
    """Whole lines from the first one with a non-ASCII character, up to SHORT_BYTES UTF-8 bytes
    (a first line longer than that is cut at a character boundary)."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if not line.isascii())
    taken: list[str] = []
    size = 0
    for line in lines[start:]:
        size += len(line.encode())
        if taken and size > SHORT_BYTES:
            break
        taken.append(line)
    sample = "".join(taken).encode()
    return sample[:SHORT_BYTES].decode("utf-8", errors="ignore")


def synthetic_cases(found: list[tuple[str, str, str]], notes: list[str]) -> tuple[list[Case], list[dict[str, str]]]:
    """Each source text (and its short sample) encoded into each codec of its language."""
    cases: list[Case] = []
    lossy: list[dict[str, str]] = []
    for label, language, full in found:
        codecs = codecs_of(language)
        if not codecs:
            notes.append(f"synthetic: no legacy codec listed for {label} ({language}), left out")
            continue
        for group, text in (("synthetic", full), ("short", short_sample(full))):
            by_bytes: dict[bytes, Case] = {}
            for codec in codecs:
                try:
                    data = text.encode(codec)
                except UnicodeEncodeError as exc:
                    lost = exc.object[exc.start : exc.end]
                    lossy.append({"source": label, "group": group, "codec": codec, "first_lost": lost})
                    continue
                if data in by_bytes:  # gb2312 = gbk = gb18030 for most text: one case
                    by_bytes[data].true_codecs.append(codec)
                    continue
                suffix = "/short" if group == "short" else ""
                case = Case(f"{label}@{codec}{suffix}", group, language, label, data, [text], [codec], text)
                by_bytes[data] = case
                cases.append(case)
    return cases, lossy


# -- running and judging ---------------------------------------------------------------------------


def visible(text: str) -> str:
    return text.translate(_CONTROL_PICTURES)


def first_difference(a: str, b: str) -> int:
    """Length of the common prefix (a binary search of slice comparisons: C speed on long texts)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def judge(case: Case, outcome: Outcome, seconds: float) -> dict[str, Any]:
    result: dict[str, Any] = {"chosen": outcome.chosen, "seconds": round(seconds, 6)}
    if outcome.text is None:
        return {**result, "verdict": "refused", "error": outcome.error}
    if outcome.text in case.truths:
        return {**result, "verdict": "correct", "similarity": 1.0}
    truth = case.truths[0]
    at = max(0, first_difference(outcome.text, truth) - EXCERPT // 3)
    return {
        **result,
        "verdict": "wrong",
        "similarity": similarity(outcome.text, case.reference),
        "excerpt": visible(outcome.text[at : at + EXCERPT]),
        "expected": visible(truth[at : at + EXCERPT]),
    }


def run_all(cases: list[Case], decoders: dict[str, Decoder]) -> None:
    warm = "Привет, Grüße, 日本語\n".encode("cp1251", errors="replace") * 20
    for decoder in decoders.values():
        decoder(warm)  # imports and first-call set-up are not timed
    for case in cases:
        for name, decoder in decoders.items():
            started = time.perf_counter()
            outcome = decoder(case.data)
            case.results[name] = judge(case, outcome, time.perf_counter() - started)


def tally(cases: Iterable[Case], decoder: str) -> dict[str, Any]:
    chosen = list(cases)
    counts = collections.Counter(case.results[decoder]["verdict"] for case in chosen)
    size = sum(len(case.data) for case in chosen)
    seconds = sum(case.results[decoder]["seconds"] for case in chosen)
    return {
        "cases": len(chosen),
        **{verdict: counts[verdict] for verdict in ("correct", "wrong", "refused")},
        "bytes": size,
        "ms_per_mb": round(seconds * 1000 / (size / 1e6), 2) if size else None,
    }


def summarize(cases: list[Case], decoders: list[str]) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for group in [*GROUPS, "all"]:
        members = [case for case in cases if group in (case.group, "all")]
        if not members:
            continue
        families = sorted({case.family for case in members}, key=family_order)
        summary[group] = {
            "total": {decoder: tally(members, decoder) for decoder in decoders},
            "by_family": {
                family: {decoder: tally((c for c in members if c.family == family), decoder) for decoder in decoders}
                for family in families
            },
        }
    return summary


def family_order(family: str) -> int:
    names = [*FAMILIES, "Other"]
    return names.index(family)


# -- report ----------------------------------------------------------------------------------------


def print_tables(summary: dict[str, Any], decoders: list[str]) -> None:
    width = max(11, *(len(name) for name in decoders))
    for group, title in [*GROUPS.items(), ("all", "all groups")]:
        if group not in summary:
            continue
        total = summary[group]["total"][decoders[0]]
        print(f"\n== {title}: {total['cases']} cases, {total['bytes'] / 1e6:.2f} MB; correct/wrong/refused ==")
        print(f"{'family':24}{'n':>5}  " + "  ".join(f"{name:>{width}}" for name in decoders))
        rows = [*summary[group]["by_family"].items(), ("all", summary[group]["total"])]
        for family, per_decoder in rows:
            cells = [f"{d['correct']}/{d['wrong']}/{d['refused']}" for d in (per_decoder[name] for name in decoders)]
            count = per_decoder[decoders[0]]["cases"]
            print(f"{family:24}{count:>5}  " + "  ".join(f"{cell:>{width}}" for cell in cells))
        speeds = [summary[group]["total"][name]["ms_per_mb"] for name in decoders]
        print(f"{'ms per MB':29}  " + "  ".join(f"{speed:>{width}.1f}" for speed in speeds))


def print_truths(cases: list[Case]) -> None:
    """What each real file was found to be, so that a person can check the pairing."""
    if not any(case.group == "real" for case in cases):
        return
    print("\ntruth of the real files (codecs that decode to the same text | twin: non-ASCII overlap, line overlap):")
    for case in cases:
        if case.twin_similarity is not None:
            chars, lines = case.twin_similarity
            true = "|".join(case.true_codecs[:4]) + ("|…" if len(case.true_codecs) > 4 else "")
            print(f"  {case.id:22} {true:42} {case.twin}: {chars:.3f}, {lines:.3f}")


def print_failures(cases: list[Case], decoders: list[str], show: int) -> None:
    ordered = sorted(cases, key=lambda case: (list(GROUPS).index(case.group), case.id))
    for name in decoders:
        wrong = [case for case in ordered if case.results[name]["verdict"] == "wrong"]
        refused = [case for case in ordered if case.results[name]["verdict"] == "refused"]
        print(f"\n-- {name}: {len(wrong)} wrong, {len(refused)} refused --")
        for case in wrong[:show]:
            result = case.results[name]
            true = "|".join(case.true_codecs[:3]) + ("|…" if len(case.true_codecs) > 3 else "")
            print(
                f"  [{case.group}] {case.id}  true {true}  chose {result['chosen']}  similarity {result['similarity']}"
            )
            print(f"      got:  {result['excerpt']}")
            print(f"      want: {result['expected']}")
        if len(wrong) > show:
            print(f"  ... {len(wrong) - show} more wrong (all in the JSON)")
        reasons: dict[tuple[str, str], list[str]] = collections.defaultdict(list)
        for case in refused:
            reasons[(case.group, str(case.results[name]["error"]))].append(case.id)
        for (group, error), ids in reasons.items():
            listed = ", ".join([*ids[:show], *([f"{len(ids) - show} more"] if len(ids) > show else [])])
            print(f"  refused [{group}] ×{len(ids)} {error}: {listed}")


def sanity_check(summary: dict[str, Any], broken: str, reference: str) -> dict[str, Any]:
    """The broken decoder must score far below ``reference`` on the Cyrillic cases."""
    cyrillic = summary.get("all", {}).get("by_family", {}).get("Cyrillic")
    if not cyrillic or not cyrillic[reference]["cases"]:
        return {"passed": False, "check": "no Cyrillic case to check the scoring on"}
    shares = {name: cyrillic[name]["correct"] / cyrillic[name]["cases"] for name in (broken, reference)}
    passed = shares[broken] + SANITY_MARGIN <= shares[reference]
    check = (
        f"Cyrillic cases correct: {broken} {shares[broken]:.0%}, {reference} {shares[reference]:.0%}"
        f" (must be at least {SANITY_MARGIN:.0%} apart)"
    )
    return {"passed": passed, "check": check, "shares": shares}


def add_rows(result: Report, summary: dict[str, Any], decoders: list[str]) -> None:
    """Correct decodings per group and decoder; parsegate's against charset-normalizer's and chardet's."""
    for group, found in summary.items():
        for decoder in decoders:
            t = found["total"][decoder]
            peers = [d for d in ("chardet", "charset-normalizer best()") if d in decoders]
            for peer in peers if decoder == "parsegate" else [None]:
                result.add(decoder, f"{group} cases", "correct", t["correct"], f"of {t['cases']} cases", ratio_to=peer)
            result.add(decoder, f"{group} cases", "ms_per_mb", t["ms_per_mb"], "ms/MB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--revision", default=None, help="parsegate at this git revision (default: the installed one)")
    parser.add_argument("--decoder", action="append", default=[], metavar="MODULE:FUNC", help="another decoder")
    parser.add_argument("--sanity", action="store_true", help="also run a broken decoder; exit 1 if it scores well")
    parser.add_argument("--show", type=int, default=25, help="wrong decodings printed per decoder (JSON: all)")
    args = parser.parse_args()

    rerun_in(args.revision, "benchmarks.suites.text_encodings")
    parsegate, where = parsegate_decoder()
    decoders: dict[str, Decoder] = {
        "parsegate": parsegate,
        "charset-normalizer best()": charset_normalizer_decoder,
        "cp1252 (browsers' default)": cp1252_decoder,
    }
    chardet = chardet_decoder()
    if chardet is not None:
        decoders["chardet"] = chardet
    decoders.update({spec: plugin_decoder(spec) for spec in args.decoder})
    broken = "latin-1 (sanity)"
    if args.sanity:
        decoders[broken] = latin1_decoder

    notes: list[str] = []
    vim = max((Path(p) for p in glob.glob(VIM_TUTORS)), default=None)  # the newest vim
    cases: list[Case] = []
    if vim is None:
        notes.append(f"real: no {VIM_TUTORS} folder, no real legacy files")
    else:
        cases += real_cases(vim, notes)
    synthetic, lossy = synthetic_cases(sources(vim, notes), notes)
    cases += synthetic
    for note in notes:
        print(note)
    if lossy:
        shown = ", ".join(
            f"{x['source']}→{x['codec']}{'/short' * (x['group'] == 'short')} ({x['first_lost']!r})" for x in lossy
        )
        print(f"synthetic: {len(lossy)} (text, codec) pairs skipped, the codec cannot encode the text: {shown}")
    if not cases:
        print("no cases: neither vim's tutor nor GnuPG's help texts are installed")
        return 1

    started = time.perf_counter()
    run_all(cases, decoders)
    names = list(decoders)
    summary = summarize(cases, names)
    print_truths(cases)
    print_tables(summary, names)
    print_failures(cases, names, args.show)

    record: dict[str, Any] = {
        "benchmark": "encodings",
        "command": shlex.join([sys.executable, *sys.argv]),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "charset_normalizer": importlib.metadata.version("charset-normalizer"),
        "chardet": importlib.metadata.version("chardet") if chardet is not None else None,
        "parsegate": {"revision": harness.measured_label(), **where},
        "inputs": {"vim_tutor": str(vim) if vim else None, "gnupg": str(GNUPG) if GNUPG.is_dir() else None},
        "truth": {
            "real": f"the candidate decoding most like the UTF-8 twin (non-ASCII multiset overlap >= {TWIN_CHARS},"
            f" line overlap >= {TWIN_LINES})",
            "synthetic": "the original UTF-8 text",
            "correct": "the decoded text equals the truth exactly",
        },
        "decoders": names,
        "notes": notes,
        "skipped_lossy": lossy,
        "seconds": round(time.perf_counter() - started, 2),
        "summary": summary,
        "cases": [
            {
                "id": case.id,
                "group": case.group,
                "family": case.family,
                "language": case.language,
                "source": case.source,
                "bytes": len(case.data),
                "valid_utf8": is_utf8(case.data),
                "true_codecs": case.true_codecs,
                "twin": case.twin,
                "twin_similarity": case.twin_similarity,
                "results": case.results,
            }
            for case in cases
        ],
    }
    status = 0
    if args.sanity:
        verdict = sanity_check(summary, broken, "charset-normalizer best()")
        record["sanity"] = verdict
        print(f"\nsanity {'PASS' if verdict['passed'] else 'FAIL'}: {verdict['check']}")
        status = 0 if verdict["passed"] else 1
    result = Report("text_encodings")
    add_rows(result, summary, names)
    result.details = record
    print(f"wrote {result.write(args.out)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
