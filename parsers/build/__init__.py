"""Builders every parser needs, written once: the heading stack (``headings``), element data by
kind and a table row's text (``data``), "sort, renumber ids, remap references" (``order``), and the
document whose text is ours to build (``document``: Office, HTML)."""
