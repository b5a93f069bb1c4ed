"""Adapters to RAG frameworks: ``parsegate.integrations.langchain`` (the ``langchain`` extra) and
``parsegate.integrations.llamaindex`` (the ``llamaindex`` extra). Each yields the framework's own
objects carrying parsegate's chunks: the text to embed, and the record's offsets, section path,
pages and ids as metadata."""
