"""The one pass over a document: counts read off it equal the tokenizer's own counts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsegate.chunkers.tokens import counter as budget
from parsegate.chunkers.tokens.counter import HFCounter, default_tokenizer_path, load_counter
from parsegate.chunkers.tokens.index import OffsetIndex, WordPieceIndex
from tests.conftest import corpus_dir, needs_pure_python


def test_word_by_word_counts_equal_the_tokenizers_offsets_on_real_documents() -> None:
    counter = load_counter()
    assert isinstance(counter, HFCounter) and counter.words is not None and counter.additive
    root = corpus_dir("markdown/fastapi-docs")
    rng = random.Random(7)
    checked = 0
    for path in sorted(root.rglob("*.md"))[::4]:
        text = path.read_text()
        words = counter.index(text)
        offsets = counter._offsets(text)
        assert isinstance(words, WordPieceIndex) and isinstance(offsets, OffsetIndex)
        cuts = [i for i in range(len(text) + 1) if words.exact(i)]
        for _ in range(40):
            a, b = sorted(rng.sample(cuts, 2))
            real = len(counter.tokenizer.encode(text[a:b], add_special_tokens=False).ids)
            assert words.count(a, b) == offsets.count(a, b) == real, (path.name, a, b)
            checked += 1
    assert checked > 1000


def test_the_verdicts_kept_for_shipped_tokenizers_are_what_the_probes_measure(monkeypatch) -> None:
    shipped = sorted(default_tokenizer_path().parent.parent.glob("*/tokenizer.json"))
    files = {HFCounter(path, path.parent.name).fingerprint: path for path in shipped}
    kept = dict(budget.PROVEN)
    assert set(kept) == set(files)  # one verdict per shipped file, none for a file gone
    monkeypatch.setattr(budget, "PROVEN", {})  # measured again, as for a file a user names
    for fingerprint, path in files.items():
        additive, words = HFCounter(path, path.parent.name)._probe()
        assert (additive, words is not None) == kept[fingerprint], path


@needs_pure_python
def test_a_shipped_tokenizer_skips_the_probes_and_counts_the_same() -> None:
    counter = HFCounter(default_tokenizer_path(), "all-MiniLM-L6-v2")
    counter._probe_additive = counter._probe_words = None  # type: ignore[method-assign,assignment]
    text = "The fee (EUR 3.50) is waived; see https://x.example/a?b=1. naïve café 東京"
    assert counter.additive and isinstance(counter.index(text), WordPieceIndex)
    assert counter.count_many([text]) == [len(counter.tokenizer.encode(text, add_special_tokens=False).ids)]


def test_text_the_normalizer_edits_goes_to_the_tokenizer_itself() -> None:
    counter = load_counter()
    assert isinstance(counter, HFCounter) and counter.words is not None
    # A vertical tab is deleted by BERT's normalizer, joining "separated" and "vertical".
    for text in ("tab\tseparated\x0bvertical", "a [MASK] b", "file\x1cgroup"):
        assert not counter.words.usable(text)
        assert isinstance(counter.index(text), OffsetIndex)
        assert counter.count_many([text]) == [len(counter.tokenizer.encode(text, add_special_tokens=False).ids)]


def test_a_tokenizer_with_an_added_newline_token_is_counted_by_the_tokenizer(tmp_path) -> None:
    import json

    spec = json.loads(default_tokenizer_path().read_text())
    spec["added_tokens"].append(
        {
            "id": 30522,
            "content": "\n",
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": False,
        }
    )
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(spec))
    counter = HFCounter(path, "newline")
    assert counter.words is None  # its "\n" token is in every text: no word-by-word counting
    text = "one two\n\nthree four\nfive"
    index = counter.index(text)
    assert index.count(0, len(text)) == len(counter.tokenizer.encode(text, add_special_tokens=False).ids) == 8


ALPHABET = [*"abc xyz.,;!?-'\"()\t\n\r", "\xad", "\u200b", "\u200d", "\u200e", "\x01", "\x00", "\ufffd", "\u2028"]
ALPHABET += [
    "\xa0",
    "é",
    "e\u0301",
    "東",
    "カ",
    "🙂",
    "\U0001f44d\U0001f3fd",
    "\u3000",
    "\u180e",
    "\ufeff",
    "\x7f",
    "\x0b",
]


@settings(max_examples=400, deadline=None)
@given(text=st.lists(st.sampled_from(ALPHABET), min_size=1, max_size=30).map("".join))
def test_word_by_word_counts_equal_the_tokenizer_on_awkward_characters(text: str) -> None:
    """Format characters (soft hyphen, zero-width joiner, marks), controls, CJK, emoji."""
    counter = load_counter()
    assert isinstance(counter, HFCounter)
    real = len(counter.tokenizer.encode(text, add_special_tokens=False).ids)
    assert counter.count_many([text]) == [real]
    index = counter.index(text)
    cuts = [i for i in range(len(text) + 1) if index.exact(i)]
    for a, b in zip(cuts, cuts[2:], strict=False):
        assert index.count(a, b) == len(counter.tokenizer.encode(text[a:b], add_special_tokens=False).ids)


def test_the_word_cache_starting_over_still_counts_every_word(monkeypatch) -> None:
    """Past its size the cache starts over; the words of the text that made it start over
    (seen before, so not in the batch learned) must be counted all the same."""
    from parsegate.chunkers.tokens import wordpieces

    counter = HFCounter(default_tokenizer_path(), "fresh")
    assert counter.words is not None
    monkeypatch.setattr(wordpieces, "_MAX_CACHED", 4)
    counter.words.cache.clear()
    counter.words.count(["alpha beta gamma"])  # three words cached
    text = "alpha beta delta epsilon"  # two seen, two new: over four, the cache starts over
    real = len(counter.tokenizer.encode(text, add_special_tokens=False).ids)
    assert counter.words.count([text]) == [real]
    assert counter.words.split(text)[2][-1] == real


def test_a_word_the_vocabulary_holds_whole_is_one_token_without_asking_the_tokenizer() -> None:
    from parsegate.chunkers.tokens.wordpieces import WordPieces

    class Refuses:
        """Asked about anything but the mark that ends each run where new runs are split together
        (a NUL, 0 tokens: wordpieces._run_counts), it fails."""

        def encode_batch_fast(self, *args: object, **kwargs: object) -> None:
            raise AssertionError("the tokenizer was asked")

        def encode(self, text: str, **kwargs: object) -> object:
            if text != "\x00":
                raise AssertionError("the tokenizer was asked")
            return type("Encoding", (), {"offsets": []})()

    words = WordPieces(Refuses(), [], frozenset({"hello", "world", "42"}), lower=True)
    assert words.count(["Hello world 42", "WORLD"]) == [3, 1]
    cased = WordPieces(Refuses(), [], frozenset({"Hello"}), lower=False)
    assert cased.count(["Hello"]) == [1]
    with pytest.raises(AssertionError, match="the tokenizer was asked"):
        cased.count(["hello"])  # not in a cased vocabulary as written: the tokenizer's to count


def test_every_whole_word_of_the_vocabulary_counts_as_the_tokenizer_counts_it() -> None:
    """In every case the normalizer folds (lower, Title, UPPER), and beside near misses: the
    word with a digit or a letter beyond ASCII added, which the vocabulary does not hold whole."""
    counter = HFCounter(default_tokenizer_path(), "fresh")
    assert counter.words is not None and counter.words.whole is not None
    vocab = sorted(w for w in counter.words.whole if w.isascii() and w.isalnum())
    assert len(vocab) > 20_000
    texts = [f"{w} {w.title()} {w.upper()} {w}7 {w}é" for w in vocab]
    real = [len(e.ids) for e in counter.tokenizer.encode_batch_fast(texts, add_special_tokens=False)]
    assert counter.words.count(texts) == real


# Words the normalizer deletes whole (0 tokens: a combining mark, a format or control character),
# beside words that become several tokens, CJK, emoji, a word past WordPiece's 100 characters.
AWKWARD_WORDS = ["\u0301", "café", "\u180e", "東京", "x" * 150, "🙂", "co\u00adop", "ｱｲ", "İstanbul", "\x00"]


def test_words_learned_from_one_encoding_count_as_each_word_alone() -> None:
    """A new word's count is read off one encoding of all the new words: the tokens whose offsets
    start inside it. A word of 0 tokens must not shift the words after it."""
    counter = HFCounter(default_tokenizer_path(), "fresh")
    assert counter.words is not None
    words = AWKWARD_WORDS + sorted(set(corpus_dir("markdown/fastapi-docs").joinpath("index.md").read_text().split()))
    alone = [len(counter.tokenizer.encode(w, add_special_tokens=False).ids) for w in words]
    assert 0 in alone[:4] and max(alone) > 3
    assert counter.words._tokens_of(words) == alone


@pytest.mark.parametrize("nul", ["", "\x00"])
def test_new_runs_split_together_count_as_each_run_alone(nul: str) -> None:
    """Runs learned in one split of them all, a mark after each, count as each run alone; a run
    holding the mark itself (a NUL) is split run by run instead."""
    counter = HFCounter(default_tokenizer_path(), "fresh")
    assert counter.words is not None
    runs = [*AWKWARD_WORDS[:-1], "foo.bar(x),", "(\u0301)", "a\u180eb", "[CLS", "well-known:", f"n{nul}ul", nul or "z"]
    alone = [len(counter.tokenizer.encode(r, add_special_tokens=False).ids) for r in runs]
    counter.words._learn_runs(runs)
    assert [counter.words.runs[r] for r in runs] == alone


def test_every_chunker_counts_with_a_counter_of_its_own_that_starts_cold() -> None:
    # The word cache a counter fills belongs to its Chunker: a second Chunker (a benchmark's next
    # pass, a worker's next run) starts cold instead of finding the first one's corpus known.
    from parsegate.chunkers import Chunker

    first, second = Chunker(), Chunker()
    assert first.counter is not second.counter
    first.counter.count_many(["whole words counted once"])
    assert first.counter.words is not None and first.counter.words.cache
    assert second.counter.words is not None and not second.counter.words.cache
