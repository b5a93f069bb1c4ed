"""Web page content the parser dropped as chrome, and the gate passed (issue 39): a <main> holding
only the title while the article is a sibling <div>; inside the content, a block named like chrome
(class="cookie", "article-footer-note"), an <aside> warning, hidden tab panels, a role=dialog.
Inside the content such blocks are chrome only when they are no prose; navigation stays chrome."""

from __future__ import annotations

import pytest

import parsegate

PROSE = "The retention period for audit logs is seven years, counted from the end of the fiscal year."


def _page(main: str, after: str = "") -> str:
    return (
        "<html><body><nav><a href='/'>Home</a> <a href='/a'>About</a> <a href='/b'>Blog</a></nav>"
        f"{main}{after}<footer>© 2026 Example Corp</footer></body></html>"
    )


def _kinds(html: str) -> tuple[str, str]:
    doc = parsegate.parse(text=html, format="html")
    body = " ".join(doc.text[e.start : e.end] for e in doc.elements if e.kind not in ("furniture", "front_matter"))
    furniture = " ".join(doc.text[e.start : e.end] for e in doc.elements if e.kind == "furniture")
    return body, furniture


def test_a_main_that_holds_only_the_title_takes_the_article_beside_it() -> None:
    article = "".join(f"<p>{PROSE} Paragraph {n} adds its own words about logs and backups.</p>" for n in range(5))
    body, furniture = _kinds(_page("<main><h1>Retention</h1></main>", f"<div class='post'>{article}</div>"))
    assert "Retention" in body and "Paragraph 4 adds" in body
    assert "Home" in furniture and "Example Corp" in furniture


@pytest.mark.parametrize(
    "block",
    [
        f"<div class='cookie-policy'><p>{PROSE}</p></div>",
        f"<div class='article-footer-note'><p>{PROSE}</p></div>",
        f"<aside class='warning'><p>Warning: {PROSE}</p></aside>",
        f"<div role='tabpanel' hidden><p>{PROSE}</p></div>",
        f"<div role='dialog'><p>{PROSE}</p></div>",
    ],
    ids=["cookie-class", "footer-note-class", "aside", "hidden-tab", "dialog-role"],
)
def test_prose_inside_the_content_is_content_whatever_its_wrapper_is_named(block: str) -> None:
    main = f"<main><h1>Audit logs</h1><p>Opening words of the page, long enough to be prose here.</p>{block}</main>"
    body, _ = _kinds(_page(main))
    assert "seven years" in body


def test_inside_the_content_navigation_and_a_one_line_banner_stay_chrome() -> None:
    main = (
        "<main><h1>Audit logs</h1><p>" + PROSE + "</p>"
        "<nav><a href='#a'>One</a> <a href='#b'>Two</a> <a href='#c'>Three</a></nav>"
        "<div class='cookie-banner'>We use cookies. <a href='/ok'>Ok</a></div></main>"
    )
    body, furniture = _kinds(_page(main))
    assert "We use cookies" in furniture and "One Two Three" in furniture.replace("\n", " ")
    assert "We use cookies" not in body
