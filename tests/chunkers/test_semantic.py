"""semantic-lexical and semantic-embedding: cuts at known topic shifts (golden-style fixtures in
tests/fixtures/topics, expected.json says where and why), none in one-topic text, the packer's
guarantees kept, and every setting in the chunk set."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings

from parsegate.chunkers import ChunkConfig, Chunker, ConfigError, similarity
from parsegate.chunkers.similarity import LexicalOverlap
from parsegate.cli.main import app
from parsegate.evaluation.strategies import embed_installed
from parsegate.parsers import markdown, text
from tests.conftest import IN_CI
from tests.properties.test_properties import BUDGETS, MARKDOWN, TEXT, check_invariants

TOPICS = Path(__file__).parents[1] / "fixtures" / "topics"
EXPECTED = json.loads((TOPICS / "expected.json").read_text())


def require_embed() -> None:
    """The embedding strategy needs the embed extra: CI installs it, so there it must run."""
    if not embed_installed():
        if IN_CI:
            pytest.fail("the embed extra is missing in CI (dev.sh installs torch and sentence-transformers)")
        pytest.skip("the embed extra (torch, sentence-transformers) is not installed")


STRATEGIES = ["semantic-lexical", "semantic-embedding"]


def chunk_starts(strategy: str, name: str, chunker_factory, **options: object) -> tuple[list[int], str]:
    if strategy == "semantic-embedding":
        require_embed()
    source = (TOPICS / name).read_text()
    doc = markdown.parse(source.encode(), name)
    return [c.start for c in chunker_factory(strategy=strategy, max_tokens=256, **options).chunk(doc)], source


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_cuts_fall_exactly_at_the_known_topic_shifts(strategy: str, name: str, chunker_factory) -> None:
    starts, source = chunk_starts(strategy, name, chunker_factory)
    assert starts == [0] + [source.index(q) for q in EXPECTED[name]["shifts"]], EXPECTED[name]["why"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_structural_keeps_each_fixture_in_one_chunk(name: str, chunker_factory) -> None:
    # so the cuts above are the detectors', not the budget's
    assert chunk_starts("structural", name, chunker_factory)[0] == [0]


def test_the_threshold_decides_a_shift_across_a_shared_word(chunker_factory) -> None:
    # "the facilities team" and "the finance team": the windows share one word, cosine 0.059
    cut = (TOPICS / "shared-word.md").read_text().index("Invoices for the quarter")
    assert chunk_starts("semantic-lexical", "shared-word.md", chunker_factory)[0] == [0]
    starts, _ = chunk_starts("semantic-lexical", "shared-word.md", chunker_factory, semantic_threshold=0.06)
    assert starts == [0, cut]


def test_lexical_sees_words_not_topics(chunker_factory) -> None:
    # One topic to a reader, two vocabularies ("starter", then "dough" and "loaf"): the lexical
    # detector cuts it, the embedding one does not. A known limit, kept in sight.
    name = "one-topic-two-vocabularies.md"
    cut = (TOPICS / name).read_text().index("The dough rises best")
    assert chunk_starts("semantic-lexical", name, chunker_factory)[0] == [0, cut]
    assert chunk_starts("semantic-embedding", name, chunker_factory)[0] == [0]


def test_tfidf_cosine_by_hand() -> None:
    # idf(apple) = ln(3/3) + 1 = 1; idf(banana) = idf(cherry) = ln(3/2) + 1 = 1.405465
    # cosine = 1 / (1 + 1.405465^2) = 0.336097
    (value,) = LexicalOverlap().similarities(["Apple banana.", "apple, cherry!"], [([0], [1])])
    assert value == pytest.approx(0.336097, abs=1e-6)
    (none,) = LexicalOverlap().similarities(["the and of", "apple"], [([0], [1])])  # stop words only
    assert none == 0.0


def test_a_shift_is_cut_within_the_budget(chunker_factory) -> None:
    # at 48 tokens the budget cuts too; the shift is still one of the cuts, and nothing is over budget
    source = (TOPICS / "two-topics-paragraphs.md").read_text()
    doc = markdown.parse(source.encode(), "t.md")
    chunker = chunker_factory(strategy="semantic-lexical", max_tokens=48)
    chunks = chunker.chunk(doc)
    assert source.index("The database cluster was upgraded") in [c.start for c in chunks]
    assert all(c.tokens <= 48 and c.tokens == chunker.counter.count(c.embed_text) for c in chunks)


PROPERTIES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTIES
@given(source=MARKDOWN, budget=BUDGETS)
def test_lexical_keeps_slices_budget_and_coverage_markdown(source: str, budget: int, chunker_factory) -> None:
    check_invariants(
        markdown.parse(source.encode(), "gen.md"), chunker_factory(strategy="semantic-lexical", max_tokens=budget)
    )


@PROPERTIES
@given(source=TEXT, budget=BUDGETS)
def test_lexical_keeps_slices_budget_and_coverage_text(source: str, budget: int, chunker_factory) -> None:
    check_invariants(
        text.parse(source.encode(), "gen.txt"), chunker_factory(strategy="semantic-lexical", max_tokens=budget)
    )


# -- configuration --------------------------------------------------------------------------


def chunk_set(**options: object) -> str:
    return Chunker(ChunkConfig(max_tokens=128, **options)).chunk_set("p")  # type: ignore[arg-type]


def test_every_lexical_setting_names_the_chunk_set() -> None:
    sets = [
        chunk_set(),
        chunk_set(strategy="semantic-lexical"),
        chunk_set(strategy="semantic-lexical", semantic_window=2),
        chunk_set(strategy="semantic-lexical", semantic_threshold=0.1),
    ]
    assert len(set(sets)) == 4
    assert chunk_set(strategy="semantic-lexical") == chunk_set(strategy="semantic-lexical", semantic_threshold=0.05)
    # the percentile and model are the embedding strategy's: they do not make a new lexical version
    assert chunk_set(strategy="semantic-lexical") == chunk_set(strategy="semantic-lexical", semantic_percentile=50)


def fake_model(folder: Path, weights: bytes) -> Path:
    folder.mkdir()
    (folder / "modules.json").write_text("[]")
    (folder / "model.safetensors").write_bytes(weights)
    return folder


def test_the_embedding_model_files_name_the_chunk_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(similarity, "find_spec", lambda name: object())  # the extra need not load for this
    one = fake_model(tmp_path / "one", b"weights")
    two = fake_model(tmp_path / "two", b"weights, changed")
    sets = {
        chunk_set(strategy="semantic-embedding", semantic_model=str(model), semantic_percentile=p)
        for model in (one, two)
        for p in (10.0, 20.0)
    }
    assert len(sets) == 4


def test_without_the_embed_extra_the_error_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(similarity, "find_spec", lambda name: None)
    with pytest.raises(ConfigError, match=r"embed extra .*torch==2\.13\.0.*parsegate\[embed\]"):
        Chunker(ChunkConfig(strategy="semantic-embedding"))
    result = CliRunner().invoke(app, ["chunk", str(TOPICS / "one-topic.md"), "--strategy", "semantic-embedding"])
    assert result.exit_code == 2 and "parsegate[embed]" in result.output


def test_bad_settings_are_refused() -> None:
    for options in ({"semantic_window": 0}, {"semantic_threshold": 1.5}, {"overlap": 1}):
        with pytest.raises(ConfigError):
            Chunker(ChunkConfig(strategy="semantic-lexical", **options))  # type: ignore[arg-type]


def test_the_model_loads_from_disk_with_the_network_cut(monkeypatch: pytest.MonkeyPatch, chunker_factory) -> None:
    require_embed()

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("network access in a test")

    similarity._load.cache_clear()
    monkeypatch.setattr(socket.socket, "connect", refuse)
    starts, source = chunk_starts("semantic-embedding", "two-topics-one-paragraph.md", chunker_factory)
    assert starts == [0, source.index("Invoices for the quarter")]
