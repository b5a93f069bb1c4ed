"""Format parsers: source bytes → Document (see model.py)."""
