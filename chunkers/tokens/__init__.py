"""Token counts with a real tokenizer: the counter protocol and its implementations (``counter``:
Hugging Face tokenizer files, chars, words; ``openai``: cl100k/o200k offline), the one tokenizer
pass over a document (``index``), and plain WordPiece counts a word at a time (``wordpieces``)."""
