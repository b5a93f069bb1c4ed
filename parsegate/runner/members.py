"""Documents inside documents: a mail's attachments, each read as a document of its own.

Discovery lists files; ``with_attachments`` then lists, after each mail (``.eml``, and ``.msg``
where the mail extra is installed), one ``Source`` per attachment: the mail's path, the doc id
``mail.eml#name`` and the attachment's name (unique in the mail: parsers/mail/message.py) as its
``member``. The worker reads the mail's bytes, takes the member's out of them
(``parsegate.parsers.mail.attachment``) and parses those by the attachment's name (its suffix,
else its content). One level: a mail attached to a mail is read as a mail, its own attachments
are not listed. A mail whose attachments cannot be listed (it is broken; the extra is missing)
lists none: its own document says why. ``--glob`` and ``--exclude`` decide on the mail, whose
attachments come with it.

The store files an attachment's outcome under the mail's content hash (what the run hashed and
read); its chunks' ``doc_version`` is the attachment's own bytes' hash, as for any document.
"""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path

from parsegate.parsers.formats import spec
from parsegate.runner.discover import Selection, Source

MAIL_SUFFIXES = frozenset(spec("mail").suffixes)
_MOST_BYTES = 256 * 1024 * 1024  # a bigger mail's attachments are not listed (the mail itself still is)


SHADOWED = "attachment whose doc id a file beside its mail has (the file is read)"


def with_attachments(sources: list[Source], selection: Selection | None = None) -> list[Source]:
    """Each source, and after each mail its attachments' sources. An attachment whose doc id a
    listed file has already (``x.eml#a.pdf`` on disk beside ``x.eml``) is left out, counted in
    ``selection.left_out``: doc ids name one document each."""
    taken = {source.doc_id for source in sources}
    out: list[Source] = []
    for source in sources:
        out.append(source)
        if source.member is not None or source.path.suffix.lower() not in MAIL_SUFFIXES:
            continue
        for name in attachments(source.path):
            ident = f"{source.doc_id}#{name}"
            if ident in taken:
                if selection is not None:
                    selection.count(SHADOWED)
                continue
            out.append(replace(source, doc_id=ident, member=name))
    return out


def attachments(path: Path) -> list[str]:
    """The attachments' names, or none when they cannot be listed."""
    suffix = path.suffix.lower()
    if suffix == ".msg" and importlib.util.find_spec("extract_msg") is None:
        return []
    try:
        if not path.is_file() or path.stat().st_size > _MOST_BYTES:
            return []
        data = path.read_bytes()
        from parsegate.parsers.mail import attachment_names

        return attachment_names(data, suffix)
    except Exception:  # the mail's own document says what is wrong with it
        return []


def member_of(doc_id: str) -> tuple[str, str] | None:
    """A doc id that names an attachment → (the mail's doc id, the attachment's name)."""
    mail, sep, name = doc_id.rpartition("#")
    if not sep or not name or Path(mail).suffix.lower() not in MAIL_SUFFIXES:
        return None
    return mail, name
