"""Packaging facts for each candidate: licence, wheels, footprint, compiled or not, last release.

Uses pip only (set-up time, needs the package index; the benchmark itself never does):
  * the installed distribution's metadata and RECORD (licence, installed bytes, dependencies),
  * `pip download --no-deps` of the installed version for this machine and for Linux aarch64
    (CPython 3.11), to see which wheel each platform gets and how big it is,
  * the index's JSON listing (PEP 691/700, fetched through pip's own session) for release dates,
  * `file` on every shared library inside the wheels, to see which CPU it was built for.

    python -m benchmarks.suites.sentence_segmenters.package_facts [OUT.json]

Prints the facts (README.md has them); an argument also writes them there as JSON.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

PACKAGES = ["sentencex", "nupunkt", "nupunkt-rs", "blingfire", "pysbd"]
AARCH64 = [
    "--platform",
    "manylinux2014_aarch64",
    "--platform",
    "manylinux_2_28_aarch64",
    "--platform",
    "manylinux_2_17_aarch64",
    "--python-version",
    "3.11",
    "--implementation",
    "cp",
    "--only-binary=:all:",
]


def installed(name: str) -> dict[str, object]:
    dist = metadata.distribution(name)
    meta = dist.metadata
    licence = meta.get("License-Expression") or meta.get("License") or ""
    classifiers = [c.split(" :: ")[-1] for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
    size = sum(f.size or 0 for f in dist.files or [])
    return {
        "version": dist.version,
        "licence": (licence.splitlines()[0][:80] if licence else "") or ", ".join(classifiers),
        "licence_classifiers": classifiers,
        "requires": [r for r in dist.requires or [] if "extra ==" not in r],
        "installed_bytes": size,
    }


def wheel(name: str, version: str, extra: list[str]) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", tmp, f"{name}=={version}", *extra],
            capture_output=True,
            text=True,
        )
        files = list(Path(tmp).iterdir())
        if done.returncode or not files:
            return {"available": False, "error": done.stderr.strip().splitlines()[-1:] if done.stderr else []}
        path = files[0]
        native = []
        if path.suffix == ".whl":
            with zipfile.ZipFile(path) as zf:
                for member in zf.namelist():
                    if member.endswith((".so", ".dylib", ".dll", ".pyd")):
                        target = Path(tmp) / "lib"
                        target.write_bytes(zf.read(member))
                        kind = subprocess.run(["file", "-b", str(target)], capture_output=True, text=True).stdout
                        native.append(f"{member}: {kind.split(',')[0:2]}")
        return {"available": True, "file": path.name, "bytes": path.stat().st_size, "native_libraries": native}


def releases(name: str) -> dict[str, object]:
    from pip._internal.network.session import PipSession

    response = PipSession().get(
        f"https://pypi.org/simple/{name}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"}, timeout=30
    )
    response.raise_for_status()
    files = [f for f in response.json()["files"] if f.get("upload-time")]
    newest = max(files, key=lambda f: f["upload-time"])
    return {"latest_upload": newest["upload-time"][:10], "latest_file": newest["filename"]}


def main() -> None:
    report = {}
    for name in PACKAGES:
        facts = installed(name)
        version = str(facts["version"])
        facts["wheel_linux_x86_64"] = wheel(name, version, [])
        facts["wheel_linux_aarch64_cp311"] = wheel(name, version, AARCH64)
        facts["index"] = releases(name)
        report[name] = facts
        print(name, json.dumps(facts), file=sys.stderr)
    if sys.argv[1:]:
        Path(sys.argv[1]).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
