"""Text exported as JSON or a Python repr keeps its line breaks as the two characters '\\' 'n' (a
chat log's messages, Chroma's chunking-evaluation chat corpus): there they are line breaks for
boundary purposes, and a chunk ends at one instead of mid-sentence (issue 35)."""

from __future__ import annotations

import re

import parsegate
from parsegate.chunkers.structural.boundaries import escaped_lines

MESSAGE = (
    "[{'content': 'Can you guide me through enabling the secondary image hover feature?', 'role': 'user'}, "
    "{'content': 'Sure, here are the steps:\\n\\n1. Log in to your Shopify account and open your Online Store.\\n"
    "2. Click on Customize theme and find the Collection pages section of your theme.\\n"
    "3. Scroll down to the Product grid settings and look for the option named Show secondary image on hover.\\n"
    "4. Tick the box next to that option so that the second image of each product appears.\\n"
    "5. Click Save in the top right corner, then open a collection page to check the result.\\n"
    "6. Repeat the same steps for the Featured Collections sections on your home page.', 'role': 'assistant'}]"
)


def test_literal_escapes_are_line_breaks_only_in_escaped_text() -> None:
    cuts = escaped_lines(MESSAGE, 0, len(MESSAGE))
    assert [MESSAGE[c.end : c.start] for c in cuts] == ["\\n\\n", "\\n", "\\n", "\\n", "\\n", "\\n"]
    prose = "Use the sequence \\n for a line break.\nIt is two characters.\nNothing more.\n"
    assert escaped_lines(prose, 0, len(prose)) == []  # one escape, real line breaks: not escaped text


def test_a_chunk_of_an_escaped_chat_ends_at_an_escaped_line_break() -> None:
    chunks = parsegate.chunk(text=MESSAGE, format="txt", max_tokens=64)
    assert len(chunks) > 2
    for c in chunks[:-1]:
        after = MESSAGE[c.end : c.end + 2]
        assert after == "\\n" or MESSAGE[c.end - 2 : c.end] == "\\n", (c.text[-40:], after)


# An assistant's numbered list in a chat export, its items apart by escaped blank lines.
LANDMARKS = (
    "[{'content': 'Which unusual places should I visit in London?', 'role': 'user'}, "
    "{'content': 'Here are some lesser-known places worth a visit:\\n\\n"
    "1. Sky Garden - a public garden at the top of a skyscraper, with a viewing platform offering great views"
    " of the city.\\n\\n"
    "2. Leake Street Tunnel - a tunnel under Waterloo station whose walls are covered in ever-changing graffiti"
    " art.\\n\\n"
    "3. Clapham Grand - a historic Victorian theatre that hosts comedy nights, concerts and club nights.\\n\\n"
    "4. God's Own Junkyard - a gallery of neon signs in Walthamstow, with a cafe inside.', 'role': 'assistant'}]"
)


def test_a_few_escapes_inside_escaped_text_are_still_its_line_breaks() -> None:
    # A span cut again (finalize's re-split of a draft over budget) holds one escaped blank line:
    # the line it sits on is escaped text, so that blank line is its boundary.
    start, end = LANDMARKS.index("1. Sky"), LANDMARKS.index(" - a tunnel")
    cuts = escaped_lines(LANDMARKS, start, end)
    assert [(LANDMARKS[: c.end][-5:], LANDMARKS[c.start : c.start + 2]) for c in cuts] == [("city.", "2.")]


def test_a_numbered_item_of_an_escaped_chat_opens_its_chunk() -> None:
    # A list item's number is never a sentence end: no chunk ends with "2." (it did at 54 tokens,
    # "… city.\\n\\n2."), and none is cut at an item's dash when the escaped blank line before it is in reach.
    for budget, expected in [
        (30, [(0, 70), (71, 141), (145, 262), (266, 377), (381, 480), (484, 505), (506, 591)]),
        (54, [(0, 141), (145, 262), (266, 377), (381, 480), (484, 591)]),
        (88, [(0, 262), (266, 480), (484, 591)]),
    ]:
        chunks = parsegate.chunk(text=LANDMARKS, format="txt", max_tokens=budget)
        assert [(c.start, c.end) for c in chunks] == expected, budget


# Titled items: each city's name on a line of its own, then its paragraph.
CITIES = (
    "[{'content': 'Write a blog post about eco-friendly cities.', 'role': 'user'}, "
    "{'content': 'Here are cities leading the way:\\n\\n"
    "1. Vancouver, Canada\\nVancouver is known for its natural beauty, and it is committed to renewable energy,"
    " green buildings and clean transport. Its Renewable City Strategy aims to run the city on renewable energy"
    " before 2050.\\n\\n"
    "2. Portland, USA\\nPortland has long been known for its eco-friendliness, with bike lanes, light rail and a"
    " plan to reduce its carbon emissions by 80% by 2050.\\n\\n"
    "3. San Francisco, USA\\nSan Francisco has always been at the forefront of sustainability, and it aims to be a"
    " zero-waste city, composting and recycling most of what it throws away.\\n\\n"
    "4. Copenhagen, Denmark\\nCopenhagen wants to be carbon neutral, and more of its people cycle to work than"
    " drive.', 'role': 'assistant'}]"
)


def test_a_title_line_stays_with_the_paragraph_it_names() -> None:
    # A short line that ends in no stop ("2. Portland, USA") names what follows it: a chunk never
    # ends with it, and it never stands alone, when its paragraph is too long to join it whole.
    titles = [m.start() for m in re.finditer(r"\d\. [A-Z][a-z]+(?: [A-Z][a-z]+)?, [A-Z][A-Za-z]+\\n", CITIES)]
    assert len(titles) == 4
    for budget in range(30, 50, 4):
        chunks = parsegate.chunk(text=CITIES, format="txt", max_tokens=budget)
        for c in chunks:
            assert not re.search(r"(^|\\n)\d\. [A-Z][a-z]+(?: [A-Z][a-z]+)?, [A-Z][A-Za-z]+$", c.text), (budget, c.text)
    chunks = parsegate.chunk(text=CITIES, format="txt", max_tokens=38)
    assert [c.start for c in chunks if c.start in titles] == titles
