"""Legacy and open formats (.doc .ppt .xls .odt .odp .ods .rtf) through LibreOffice: converted
headless to their OOXML form in a temporary folder, then read as DOCX, PPTX or XLSX.

The conversion runs in a fresh LibreOffice profile whose macro security is "very high" with
macro execution disabled, under a time limit (``ParseOptions.soffice_seconds``, 120 s by default;
the whole process group is killed past it). Without LibreOffice the refusal says what to install.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from parsegate.parsers.formats import spec
from parsegate.parsers.model import ParseError

# suffix → the OOXML form LibreOffice converts it to (parsers/formats.py)
LEGACY = {suffix: form.converted_to for form in spec("office").forms if form.converted_to for suffix in form.suffixes}
_FILTERS = {"docx": "docx:MS Word 2007 XML", "pptx": "pptx:Impress MS PowerPoint 2007 XML",
            "xlsx": "xlsx:Calc MS Excel 2007 XML"}  # fmt: skip
_PACKAGES = {"docx": "libreoffice-writer-nogui", "pptx": "libreoffice-impress-nogui", "xlsx": "libreoffice-calc-nogui"}
# Macro security "very high" (only signed macros from trusted places) and macros disabled outright.
_NO_MACROS = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel"
 oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution"
 oor:op="fuse"><value>true</value></prop></item>
</oor:items>
"""


def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def to_ooxml(data: bytes, suffix: str, seconds: float) -> tuple[bytes, str, dict[str, Any]]:
    """The file converted to its OOXML form, that form's name, and a note for the metadata;
    LibreOffice is given ``seconds`` (ParseOptions.soffice_seconds)."""
    target = LEGACY[suffix]
    program = soffice()
    if program is None:
        raise ParseError(
            "needs_libreoffice",
            f"'{suffix}' files are read after a conversion to .{target} by LibreOffice, which is not installed: "
            f"install it (Debian: apt-get install {_PACKAGES[target]}) or convert the file to .{target} first",
        )
    with tempfile.TemporaryDirectory(prefix=f"{_PREFIX}{os.getpid()}-") as tmp:
        folder = Path(tmp)
        source = folder / f"input{suffix}"
        source.write_bytes(data)
        profile = folder / "profile"
        (profile / "user").mkdir(parents=True)
        (profile / "user" / "registrymodifications.xcu").write_text(_NO_MACROS)
        out = folder / "out"
        command = [
            program,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless", "--invisible", "--norestore", "--nolockcheck", "--nodefault", "--nologo",
            "--convert-to", _FILTERS[target], "--outdir", str(out), str(source),
        ]  # fmt: skip
        _run(command, seconds, suffix, folder)
        converted = out / f"input.{target}"
        if not converted.is_file():
            raise ParseError("corrupt", f"LibreOffice could not convert this '{suffix}' file to .{target}")
        note = {"from": suffix[1:], "to": target, "by": f"LibreOffice {libreoffice_version(program)}".strip()}
        return converted.read_bytes(), target, note


def _run(command: list[str], seconds: float, suffix: str, home: Path) -> None:
    """Run LibreOffice in its own process group, killed whole past the time limit. The group's id
    is left in ``home`` (``pgid``): when the worker is killed first (the document's own time limit),
    its supervisor kills the group and removes the folder (``clean_after``)."""
    with subprocess.Popen(
        _at_home(command, home), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    ) as proc:
        (home / "pgid").write_text(str(proc.pid))
        try:
            _, err = proc.communicate(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise ParseError(
                "timeout", f"LibreOffice took more than {seconds:g} s to convert this '{suffix}' file"
            ) from None
    if proc.returncode != 0:
        message = err.decode("utf-8", errors="replace").strip()[-300:]
        raise ParseError("corrupt", f"LibreOffice could not convert this '{suffix}' file: {message or proc.returncode}")


_PREFIX = "parsegate-soffice-"  # + the converting process's id + "-": clean_after finds its folders


def clean_after(pid: int) -> int:
    """After process ``pid`` died (a worker killed in a conversion): kill the LibreOffice it left
    running and remove its temporary folders (which hold a copy of the document). How many
    folders were found."""
    folders = list(Path(tempfile.gettempdir()).glob(f"{_PREFIX}{pid}-*"))
    for folder in folders:
        try:
            group = int((folder / "pgid").read_text())
        except (OSError, ValueError):
            group = 0
        if group > 0 and _started_in(group, folder):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)
    return len(folders)


def _started_in(group: int, folder: Path) -> bool:
    """Process group ``group`` is still the conversion started in ``folder`` (its id was not
    reused): a process of it names the folder on its command line (the profile, the input). True
    where /proc cannot tell (not Linux)."""
    proc = Path("/proc")
    if not proc.is_dir():
        return True
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            # pid (comm) state ppid pgrp …: the name may hold spaces and parentheses
            if (
                int(stat[stat.rindex(")") + 2 :].split()[2]) == group
                and str(folder).encode() in (entry / "cmdline").read_bytes()
            ):
                return True
        except (OSError, ValueError, IndexError):
            continue
    return False


def _at_home(command: list[str], home: Path) -> list[str]:
    """The command run with HOME in the conversion's temporary folder (LibreOffice writes there, not
    in the user's home) and the rest of this process's environment as it is: env(1) sets it, so the
    environment is not read here (parsers take their settings from ParseOptions, never from it)."""
    return ["env", f"HOME={home}", *command]


@cache
def libreoffice_version(program: str) -> str:
    with tempfile.TemporaryDirectory(prefix="parsegate-soffice-") as home:
        try:
            done = subprocess.run(
                _at_home([program, "--version"], Path(home)), capture_output=True, timeout=60, check=False
            )
        except (OSError, subprocess.TimeoutExpired):
            return ""
    found = re.search(rb"\d+(?:\.\d+)+", done.stdout)
    return found.group().decode() if found else ""
