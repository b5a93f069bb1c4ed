"""The gate's word matching against a text layer that runs words together (words.present)."""

from __future__ import annotations

from parsegate.quality_gates.words import present


def test_a_note_mark_set_apart_is_found_in_the_word_the_text_layer_runs_it_into() -> None:
    # PDFium's text of the box reads "directory9can" (a raised note mark, no space glyph either
    # side); the parser reads "directory 9 can", and a chunk ends after the mark (the next
    # line read elsewhere, or the chunk's last word).
    reference = {"an", "alternative", "directory9can", "be", "used"}
    assert present(["an", "alternative", "directory", "9", "can"], reference) == {
        "an",
        "alternative",
        "directory",
        "9",
        "can",
    }
    assert present(["an", "alternative", "directory", "9"], reference) == {"an", "alternative", "directory", "9"}
    assert present(["9", "can", "be"], reference) == {"9", "can", "be"}
    # A mark the box does not hold is still missing, alone or beside a word the box has.
    assert present(["directory", "7", "can"], reference) == {"directory", "can"}
    # So is a word that stands only inside a reference word.
    assert present(["ecto"], reference) == set()


def test_cells_run_together_are_found_as_before() -> None:
    assert present(["6,617", "7"], {"6,6177"}) == {"6,617", "7"}
    assert present(["2", "839", "5"], {"28395"}) == {"2", "839", "5"}
