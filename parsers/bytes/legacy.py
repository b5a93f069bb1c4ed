"""The legacy encoding of bytes that are not UTF-8, as chardet detects it: for the parsers'
decoder and the gate's reading of the same file alike.

Browsers read a page that names no encoding as Windows-1252 (WHATWG), which is right for the
Latin-1 READMEs of Western projects and wrong for everything else: Czech in ISO-8859-2 ("příliš"
becomes "pøíli¹", a silent misreading), Russian in KOI8-R or Windows-1251, Greek, Turkish,
Japanese in Shift_JIS or EUC-JP, Chinese in GB18030. chardet (0BSD; language models per
encoding) names those: on 122 files in 26 languages with a known truth it read 118 right, where
Windows-1252 read 39 and charset-normalizer 75 (``benchmarks/text_encodings.py``), Western ones
included. Its ISO-8859-1 is read as Windows-1252, the superset browsers use for it. A guess
cannot be checked against the file: the gate reads the file the same way, and the parser's
warning names the encoding.
"""

from __future__ import annotations

import codecs


def legacy_codec(data: bytes) -> tuple[str, str | None] | None:
    """(Python codec name, ISO 639-1 language or None) for ``data``, or None when chardet takes it
    for no text or names an encoding Python has no codec for."""
    import chardet  # loaded only for a file that is not UTF-8

    guess = chardet.detect(data)
    name = guess["encoding"]
    try:
        codec = codecs.lookup(name).name if name else None
    except LookupError:  # Windows-874, say: Python's is cp874
        codec = None
    if codec is None:
        return None
    return ("cp1252" if codec == "iso8859-1" else codec), guess["language"]


def iso2022_codec(data: bytes) -> str | None:
    """The ISO-2022 codec (-JP, -KR, -CN: mail and older Japanese text) of 7-bit bytes, which are
    valid UTF-8 as they stand: their escape sequences (ESC $ …) give them away, and chardet says
    which; None for bytes without such a sequence, or that chardet reads otherwise."""
    # ESC alone first: a one-byte search is one memchr pass, where the search for ESC $ took
    # 1.4 ms over the fastapi docs (and nearly every file has no ESC at all).
    if b"\x1b" not in data or b"\x1b$" not in data:
        return None
    guess = legacy_codec(data)
    return guess[0] if guess is not None and guess[0].startswith("iso2022") else None
