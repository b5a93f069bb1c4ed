"""Evidence evaluation: does the evidence a question needs arrive whole?

Data flow: evidence (quoted spans, or character offsets) → located in each document's text
(``evidence``) → placed among a configuration's chunks (``placement``) → retrieved top-k
(``retrieval``) → scored (``metrics``), per configuration (``configs``, ``runner``) → one table,
JSON and an HTML page (``tables``, ``html``); ``sizing`` classifies each question's evidence and
finds the smallest unit and expansion that deliver it (``--spans``).
"""

# parent-child and semantic-* register themselves as configurations (configs.register).
from parsegate.evaluation import strategies as _strategies  # noqa: F401
