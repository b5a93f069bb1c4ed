"""Bad input ends with a clear outcome, never a traceback, and never takes time out of proportion."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsegate.parsers import markdown, text
from parsegate.parsers.model import Document
from tests.cpu import ratio


def words_without_punctuation(chars: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    vocab = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda".split()
    out: list[str] = []
    size = 0
    while size < chars:
        word = rng.choice(vocab)
        out.append(word)
        size += len(word) + 1
    return " ".join(out)


def assert_sound(doc: Document, chunks: list) -> None:
    for c in chunks:
        assert c.text == doc.text[c.start : c.end]
    covered = sum(c.end - c.start for c in chunks)
    assert covered >= len(doc.text.strip()) - sum(ch.isspace() for ch in doc.text)


def test_empty_file_gives_no_chunks_and_a_warning(chunker_factory) -> None:
    for parse, name in ((markdown.parse, "e.md"), (text.parse, "e.txt")):
        doc = parse(b"", name)
        assert chunker_factory().chunk(doc) == []
        assert [w.code for w in doc.warnings] == ["empty"]


def test_two_megabyte_paragraph_without_punctuation_is_split_within_budget_in_linear_time(chunker_factory) -> None:
    chunker = chunker_factory()
    big = words_without_punctuation(2_000_000)
    doc = text.parse(big.encode(), "big.txt")
    chunks = chunker.chunk(doc)
    assert max(c.tokens for c in chunks) <= chunker.max_tokens
    assert "".join(c.text for c in chunks).replace(" ", "") == big.replace(" ", "")
    # Complexity, not speed: four times the input must not cost sixteen times the time.
    small = text.parse(words_without_punctuation(500_000).encode(), "small.txt")
    took = ratio(lambda: chunker.chunk(doc), lambda: chunker.chunk(small))
    assert took < 9, f"2 MB took {took:.1f}x the time of 0.5 MB"


def test_lists_nested_a_thousand_deep(chunker_factory) -> None:
    source = "".join("  " * i + f"- item {i}\n" for i in range(1000))
    doc = markdown.parse(source.encode(), "deep.md")
    chunks = chunker_factory().chunk(doc)
    assert [w.code for w in doc.warnings] == ["nesting_limit"]
    assert_sound(doc, chunks)
    assert "item 999" in chunks[-1].text


def test_ten_thousand_row_table_without_quadratic_blow_up(chunker_factory) -> None:
    def table(rows: int) -> bytes:
        return ("| id | value |\n|---|---|\n" + "".join(f"| {i} | v{i} |\n" for i in range(rows))).encode()

    chunker = chunker_factory()
    doc = markdown.parse(table(10_000), "t.md")
    chunks = chunker.chunk(doc)
    assert len([e for e in doc.elements if e.kind == "table_row"]) == 10_001
    assert all(c.embed_text.startswith("| id | value |") for c in chunks[1:])
    assert_sound(doc, chunks)
    took = ratio(
        lambda: chunker.chunk(markdown.parse(table(10_000), "t.md")),
        lambda: chunker.chunk(markdown.parse(table(2_500), "t.md")),
    )
    assert took < 9, f"4x the rows took {took:.1f}x the time"


def test_flat_list_of_twenty_thousand_items_is_linear() -> None:
    """Regression: each list item once scanned a copy of every token after it (a slice)."""

    def source(items: int) -> bytes:
        return "".join(f"- item {i}\n" for i in range(items)).encode()

    large, small = source(20_000), source(5_000)
    took = ratio(lambda: markdown.parse(large, "flat.md"), lambda: markdown.parse(small, "flat.md"))
    assert took < 9, f"4x the items took {took:.1f}x the time"


@pytest.mark.parametrize("data", [b"\x00\x01binary\x02", b"\xff\xfe\x00d\x00a\x00t\x00a"])
def test_binary_is_refused(data: bytes) -> None:
    from parsegate.parsers.model import ParseError

    with pytest.raises(ParseError) as info:
        markdown.parse(data, "bin.md")
    assert info.value.code == "binary"


# -- encodings and garbage (decode.py, registry.py) -------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_with_a_byte_order_mark_are_read(encoding: str) -> None:
    source = "# Café\n\nÜber alles: 東京.\n"
    data = source.encode(encoding) if encoding != "utf-16-be" else b"\xfe\xff" + source.encode("utf-16-be")
    doc = markdown.parse(data, "u.md")
    assert doc.text == source  # the mark is dropped, nothing else
    assert [e.kind for e in doc.elements] == ["heading", "paragraph"]


def test_utf16_without_a_mark_is_told_by_its_zero_bytes() -> None:
    source = "Notes\n\nPlain text in UTF-16, little-endian, without a byte-order mark.\n"
    assert text.parse(source.encode("utf-16-le"), "n.txt").text == source
    assert text.parse(source.encode("utf-16-be"), "n.txt").text == source


def test_a_nul_byte_anywhere_is_binary() -> None:
    from parsegate.parsers.model import ParseError

    data = b"# Title\n\n" + b"word " * 4000 + b"\x00tail\n"  # past the first 8 KB
    with pytest.raises(ParseError) as info:
        markdown.parse(data, "late.md")
    assert info.value.code == "binary" and "offset 20009" in info.value.message


def test_text_that_is_mostly_replacement_characters_is_garbage(tmp_path) -> None:
    from parsegate.parsers.model import ParseError
    from parsegate.parsers.registry import parse_file

    with pytest.raises(ParseError) as info:
        text.parse(("\ufffd\ufffd ab " * 200).encode(), "mojibake.txt")
    assert info.value.code == "garbage_text" and "50% of the text" in info.value.message  # 2 of 4 visible
    noise = tmp_path / "noise.html"  # random bytes under an HTML name: docling reads it, the check refuses it
    noise.write_bytes(random.Random(3).randbytes(10_000))
    with pytest.raises(ParseError) as info:
        parse_file(noise)
    assert info.value.code == "garbage_text"


def test_a_wrong_pdf_password_says_so() -> None:
    from parsegate.parsers.model import ParseError
    from parsegate.parsers.options import ParseOptions
    from parsegate.parsers.registry import parse_file
    from tests.conftest import corpus_dir

    path = corpus_dir("pdf") / "password-example.pdf"
    with pytest.raises(ParseError) as info:
        parse_file(path, options=ParseOptions(password="not-the-password"))
    assert info.value.code == "wrong_password"
    with pytest.raises(ParseError) as info:
        parse_file(path)
    assert info.value.code == "encrypted"


def test_a_fifo_is_refused_without_being_opened_for_reading(tmp_path) -> None:
    import os

    from parsegate.parsers.model import ParseError
    from parsegate.parsers.registry import parse_file

    os.mkfifo(tmp_path / "pipe.md")
    with pytest.raises(ParseError) as info:
        parse_file(tmp_path / "pipe.md")  # a blocking open would hang here
    assert info.value.code == "not_a_file" and "FIFO" in info.value.message


# -- code (code.py) ------------------------------------------------------------------------------


def test_functions_nested_six_hundred_deep_keep_their_text(chunker_factory) -> None:
    from parsegate.parsers import code

    hundred = "".join("    " * i + f"def f{i}(x):\n" for i in range(100)) + "    " * 100 + "return x\n"
    doc = code.parse(hundred.encode(), "hundred.py")
    assert [w.code for w in doc.warnings] == ["nesting_limit"]
    assert [e.data.symbol.count(".") for e in doc.elements if e.kind == "function"] == list(range(code.MAX_DEPTH))
    depth = 600
    source = "".join("    " * i + f"def f{i}(x):\n" for i in range(depth)) + "    " * depth + "return x\n"
    doc = code.parse(source.encode(), "nested.py")  # was a RecursionError (document lost) from about 550
    chunks = chunker_factory().chunk(doc)
    # (tree-sitter's Python grammar itself gives up somewhere past 500 levels: a syntax warning)
    assert "nesting_limit" in [w.code for w in doc.warnings]
    assert len([e for e in doc.elements if e.kind in ("function", "method")]) <= code.MAX_DEPTH
    assert_sound(doc, chunks)
    assert "def f599(x):" in "".join(c.text for c in chunks)


def test_minified_javascript_with_non_ascii_is_linear() -> None:
    from parsegate.parsers import code

    def source(n: int) -> bytes:
        return "".join(f"function a{i}(b){{return b+'é'+{i}}};" for i in range(n)).encode()

    large, small = source(20_000), source(5_000)
    took = ratio(lambda: code.parse(large, "m.js"), lambda: code.parse(small, "m.js"))
    assert took < 9, f"4x the code on one line took {took:.1f}x the time"  # was 16x (quadratic)


@given(st.text(alphabet=st.sampled_from(["a", "\n", "é", "東", "😀", " ", "{"]), max_size=200))
@settings(max_examples=200, deadline=None)
def test_code_byte_offsets_map_to_character_offsets(source: str) -> None:
    from parsegate.parsers.code.offsets import Offsets

    data = source.encode("utf-8")
    offsets = Offsets(source, data)
    for char in range(len(source) + 1):
        byte = len(source[:char].encode("utf-8"))
        assert offsets(byte) == char
        assert offsets.line_start(char) == source.rfind("\n", 0, char) + 1
