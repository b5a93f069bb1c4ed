"""Evidence evaluation: does the evidence a question needs arrive whole?

Data flow: evidence (quoted spans, or character offsets) → located in each document's text
(``evidence``) → placed among a configuration's chunks (``placement``) → retrieved top-k
(``retrieval``) → scored (``metrics``), per configuration (``configs``, ``runner``) → one table,
JSON and an HTML page (``tables``, ``html``).
"""
