"""The pyromark engine (pulldown-cmark) builds the same Documents as markdown-it-py.

benchmarks/markdown_engines.py checks this on the fastapi docs, the golden cases and the messy
variants; these are the constructions where the two libraries' own rules differ, and where
parsers/markdown_pyromark.py reproduces markdown-it's (or leaves the document to it)."""

from __future__ import annotations

import dataclasses

import pytest

from parsegate.parsers import markdown, markdown_pyromark

CASES = {
    "front matter closed by dots": "---\ntitle: x\n...\n\n# A\n",
    "front matter unclosed is a rule": "---\ntitle: x\n\n# A\n",
    "front matter closed by a longer run": "---\na: 1\n-----  \n# A\n",
    "front matter: an indented run does not close it": "---\na: 1\n    ---\n---\nBody\n",
    "front matter with text after the opening run": "--- x\na: 1\n---\nBody\n",
    "ATX closing sequences": "# A #\n## B ##  \n### C#\n#### ###\n##### \\#\n  # D { #id }\n",
    "setext headings": "Foo\n   bar\n===\n\n> Quoted\n> ---\n\n- Item\n  ---\n",
    "fence info strings": "```py title='x'\na\n```\n\n  ~~~~ js\n  b\n  ~~~~\n\n- step:\n\n  ```bash\n  run\n  ```\n",
    "list markers": "1) a\n10) b\n\n- x\n- 2. y\n  - z\n\n  tail\n\n* [ ] task\n+ plus\n\n   007. seven\n",
    "tight items with inline markup": "- **bold** and `code`\n  <b>html</b>\n- [link](x) after\n  - nested\n\n  back\n",
    "text after a nested list in a tight item": "- a\n  - b\n  ```\n  code\n  ```\n  after *it*\n- c\n",
    "tables": "| a | b \\| c |\n|---|---|\n| 1 | 2 |\nno pipe\n| 3 | 4 | 5 |\n\n> | q |\n> |---|\n> | 1 |\n",
    "two tables without a blank line": "| a | b |\n|---|---|\n| 1 | 2 |\n| c | d |\n|---|---|\n| 3 | 4 |\n",
    "table in a list item": "- item\n\n  | a | b |\n  |---|---|\n  | 1 | 2 |\n",
    "CRLF and CR line ends": "# T\r\n\r\npara\r\nmore\r\n\r\n- a\r- b\r",
    "HTML, link definitions, rules, indented code": "<div>\nx\n</div>\n\n[ref]: https://example.com\n\n***\n\n    code\n",
    "non-ASCII text": "# Überschrift — 見出し\n\n| ä | 日本 |\n|---|---|\n| ö | 語 |\n\n- ü\n  - 🎉 emoji\n\nSetext é\n---\n",
    # pulldown-cmark starts a block indented by a tab at the line end before it (found by fuzzing:
    # the nested item was dropped from the Document, and its text from every chunk).
    "items nested by a tab": "* a\n\t* b\n## H\ntext\n\n- c\n\n\t- d\n\n\tmore\n\n1. e\n\t```py\n\tf\n\t```\n\n| t | u |\n|---|---|\n\t- g\n",
    "lazy continuation and quoted code": "> a\nlazy\n> - b\n>   c\n\n>     code\n",
}


def snapshot(engine: str, source: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, ...]:
    monkeypatch.setenv(markdown.ENGINE_VARIABLE, engine)
    doc = markdown.parse(source.encode(), "x.md")
    elements = [dataclasses.asdict(e) for e in doc.elements]
    return elements, doc.metadata, [dataclasses.asdict(w) for w in doc.warnings], doc.parser


@pytest.mark.parametrize("name", CASES)
def test_both_engines_build_the_same_document(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    source = CASES[name]
    assert markdown_pyromark.tokens(source) is not None, "pyromark left it to markdown-it"
    *mdit, mdit_parser = snapshot("markdown-it", source, monkeypatch)
    *pyro, pyro_parser = snapshot("pyromark", source, monkeypatch)
    assert pyro == mdit
    assert "markdown-it-py/" in str(mdit_parser)
    assert "pyromark/" in str(pyro_parser)


def test_the_cases_are_not_trivial(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison sees headings, titles, front matter, table cells and list markers."""
    elements, metadata, _, _ = snapshot("pyromark", "".join(CASES.values()), monkeypatch)
    kinds = {e["kind"] for e in elements}  # type: ignore[attr-defined]
    assert {"heading", "list_item", "table_row", "code", "html", "rule", "front_matter"} <= kinds
    assert metadata["title"] == "x"  # type: ignore[index]


@pytest.mark.parametrize(
    "source",
    [
        "- " * 100 + "x\n",  # markdown-it cuts the tree at 100 levels: its output is the reference
        "> Foo\n> bar\n> ===\n",  # a multi-line setext title inside a container
    ],
)
def test_what_pyromark_leaves_to_markdown_it_still_parses_the_same(
    source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert markdown_pyromark.tokens(source) is None
    *mdit, _ = snapshot("markdown-it", source, monkeypatch)
    *pyro, parser = snapshot("pyromark", source, monkeypatch)
    assert pyro == mdit
    assert "pyromark/" in str(parser)  # the engine configured: chunk sets follow it


def test_an_unknown_engine_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(markdown.ENGINE_VARIABLE, "cmark")
    with pytest.raises(ValueError, match="PARSEGATE_MARKDOWN_ENGINE='cmark'"):
        markdown.parse(b"# A\n", "x.md")
