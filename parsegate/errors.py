"""parsegate's typed errors. The library raises them and never prints or exits; the command line
alone maps them to exit statuses (``CommandError.code``) and messages.

Optional dependencies: each belongs to an extra, and a missing one is named with the extra to
install (``pip install 'parsegate[parquet]'``), never a bare ``ModuleNotFoundError``."""

from __future__ import annotations

import importlib
from types import ModuleType

EXIT_OK, EXIT_GATE_FAILED, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


class CommandError(ValueError):
    """A usage, input or output error of a command or of ``parsegate.run``: the message says what to
    do; ``code`` is the command line's exit status for it (2, or 130 when interrupted)."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class RunInterrupted(CommandError):
    """Ctrl-C (or SIGTERM, which the command line turns into it) stopped a run; the message says
    what was kept."""

    def __init__(self, message: str) -> None:
        super().__init__(message, EXIT_INTERRUPTED)


# What each extra is for, in the words of its error message.
EXTRAS = {
    "parquet": "Parquet output (--output-format parquet, parsegate export --format parquet)",
    "embed": "dense retrieval in 'parsegate eval' and the semantic-embedding strategy",
    "langchain": "the LangChain adapters (parsegate.integrations.langchain)",
    "llamaindex": "the LlamaIndex adapters (parsegate.integrations.llamaindex)",
}


class MissingExtra(ImportError):
    """An optional dependency is not installed; the message names the extra that brings it."""

    def __init__(self, extra: str, module: str) -> None:
        self.extra = extra
        super().__init__(
            f"{EXTRAS[extra]} needs {module.split('.')[0]}, which is not installed: pip install 'parsegate[{extra}]'",
            name=module,
        )


def require(module: str, extra: str) -> ModuleType:
    """``module`` imported, or MissingExtra naming ``extra`` when it (or what it needs) is missing."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtra(extra, exc.name or module) from exc
