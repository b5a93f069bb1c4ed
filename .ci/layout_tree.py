"""The installed layout as a folder of links, for the tools that read packages from the file system.

The repository keeps the product card's top level (parsers/, chunkers/, quality_gates/ beside the
application in parsegate/) and installs it as one package, parsegate, through setuptools'
package-dir. mypy and import-linter find modules by walking folders, not through the editable
install's import hook, so they are given build/layout/parsegate/: a folder whose entries link to
parsegate/'s and to the three libraries, named as they install. Run by dev.sh before both tools.
"""

from __future__ import annotations

import os
import shutil
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TREE = REPO / "build" / "layout"


def main(tree: Path = TREE) -> None:
    package_dir: dict[str, str] = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-dir"
    ]
    shutil.rmtree(tree, ignore_errors=True)
    top = tree / "parsegate"
    top.mkdir(parents=True)
    mapped = {name.split(".", 1)[1]: folder for name, folder in package_dir.items() if "." in name}
    for entry in (REPO / package_dir["parsegate"]).iterdir():
        if entry.name != "__pycache__":
            os.symlink(os.path.relpath(entry, top), top / entry.name)
    for name, folder in mapped.items():
        os.symlink(os.path.relpath(REPO / folder, top), top / name)


if __name__ == "__main__":
    main()
