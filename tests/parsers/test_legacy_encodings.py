"""Text files in a legacy encoding (not UTF-8) are read in the encoding chardet detects, with a
warning that names it, instead of refused (Cyrillic, CJK) or silently misread as Windows-1252
(Czech "příliš" as "pøíli¹"); Western Latin-1 stays Windows-1252. The gate reads the bytes the
same way, so a file read right passes it and one misread fails it.
benchmarks/text_encodings.py measures the same on 122 files with a known truth."""

from __future__ import annotations

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import markdown, text
from parsegate.parsers.bytes.decode import decode_noted
from parsegate.parsers.model import ParseError
from tests.quality_gates.test_gate_independent import verdict_of

RUSSIAN = (
    "# Сертификаты\n\nСертификат сервера нужно обновлять каждый год. Если срок действия истёк, "
    "клиенты не смогут подключиться, а в журнале появится ошибка проверки подписи.\n\n"
    "Новый сертификат кладут в тот же каталог и перезапускают службу.\n"
)
CZECH = (
    "# Příručka\n\nPříliš žluťoučký kůň úpěl ďábelské ódy. Editor má příliš mnoho příkazů na to, "
    "aby se daly všechny vysvětlit v jedné příručce; tato příručka popisuje ty nejdůležitější.\n\n"
    "Šipky pohybují kurzorem, klávesa Esc ukončí vkládání a vrátí vás do normálního režimu.\n"
)
GREEK = (
    "# Οδηγός\n\nΟ επεξεργαστής έχει πάρα πολλές εντολές για να τις εξηγήσουμε όλες σε έναν οδηγό. "
    "Αυτός ο οδηγός περιγράφει τις πιο χρήσιμες, ώστε να μπορείτε να τον χρησιμοποιήσετε εύκολα.\n"
)
JAPANESE = (
    "# 証明書\n\nサーバーの証明書は毎年更新してください。期限が切れると、クライアントは接続できず、"
    "ログに署名の検証エラーが記録されます。\n\n新しい証明書を同じディレクトリに置き、サービスを再起動します。\n"
)


@pytest.mark.parametrize(
    ("source", "codec", "named"),
    [
        (RUSSIAN, "koi8_r", "KOI8-R"),
        (RUSSIAN, "cp1251", "CP1251"),
        (CZECH, "iso8859_2", "ISO8859-2"),
        (CZECH, "cp1250", "CP1250"),
        (GREEK, "cp1253", "CP1253"),
        (JAPANESE, "shift_jis", "CP932"),
        (JAPANESE, "euc_jp", "EUC_JP"),
    ],
)
def test_a_legacy_encoding_is_read_in_the_encoding_chardet_detects(source: str, codec: str, named: str) -> None:
    data = source.encode(codec)
    doc = markdown.parse(data, "doc.md")
    assert doc.text == source
    ((code, message),) = [(w.code, w.message) for w in doc.warnings]
    assert code == "not_utf8" and f"read as {named}, the encoding chardet detects" in message
    assert text.parse(data, "doc.txt").text == source


def test_iso_2022_jp_is_told_by_its_escape_sequences() -> None:
    """7-bit, so valid UTF-8 as it stands ("\\x1b$B$3$N…"), until its escapes are read."""
    data = JAPANESE.encode("iso2022_jp")
    data.decode("utf-8")  # the bytes alone are valid UTF-8
    decoded, note = decode_noted(data)
    assert decoded == JAPANESE and note is not None and "ISO2022_JP" in note.message
    plain = "An escape \x1b$ in UTF-8 text, and nothing else.\n"
    assert decode_noted(plain.encode()) == (plain, None)


def test_western_latin_1_stays_windows_1252_and_a_binary_header_is_refused() -> None:
    decoded, note = decode_noted("Schröder’s café: crème brûlée — “five euros”.\n".encode("cp1252"))
    assert decoded == "Schröder’s café: crème brûlée — “five euros”.\n"
    assert note is not None and "read as Windows-1252, as browsers read a page that names no encoding" in note.message
    with pytest.raises(ParseError) as refused:
        decode_noted(b"\xff\xd8\xff\xe0\x10JFIF header")  # a JPEG's, no NUL in it: chardet names no text
    assert refused.value.code == "invalid_utf8" and "re-save the file as UTF-8" in refused.value.message


def test_the_gate_reads_a_legacy_file_as_the_parser_does_and_fails_a_misreading() -> None:
    chunker = Chunker(ChunkConfig(max_tokens=64))
    data = RUSSIAN.encode("koi8_r")
    doc = markdown.parse(data, "doc.md")
    verdict = verdict_of(doc, chunker.chunk(doc), chunker.counter, 64, data)
    assert verdict.passed, verdict.failed
    assert verdict.metrics["extraction_recall"] == verdict.metrics["localization"] == 1.0
    misread = markdown.parse(RUSSIAN.encode("koi8_r").decode("cp1252", errors="replace").encode(), "doc.md")
    records = chunker.chunk(misread)
    assert not verdict_of(misread, records, chunker.counter, 64, data).passed
