"""Signals in a document's text that more than one parser reads: flat tables (rows of ``a | b | c``
without a delimiter row), heading sanity (a "heading" that is a paragraph), text blocks and page
breaks in plain text, and a wiki's ``= Title =`` headings."""
