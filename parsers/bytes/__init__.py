"""Bytes before a parser: decoding text (UTF-8, byte-order marks, legacy encodings), refusing
garbage, and the preflight that checks what a file would inflate to (zip members, PDF streams,
pixels)."""
