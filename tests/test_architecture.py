"""ARCHITECTURE.md names real code: each dotted `tether...` name and each source path in it
exists, and its floors are the layer test's."""

from __future__ import annotations

import importlib
import re

from tests.conftest import REPO
from tests.floors import FLOORS

PAGE = REPO / "ARCHITECTURE.md"
_DOTTED = re.compile(r"`(tether(?:\.\w+)*)`")
_PATH = re.compile(r"`(src/tether/[\w./]+)`")


def _resolve(name: str) -> object:
    """Import the longest importable prefix of `name`, then walk the rest as attributes."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ModuleNotFoundError(name)


def test_every_name_the_page_gives_exists() -> None:
    names = set(_DOTTED.findall(PAGE.read_text()))
    assert len(names) > 50
    missing = []
    for name in sorted(names):
        try:
            _resolve(name)
        except (ImportError, AttributeError):
            missing.append(name)
    assert missing == []


def test_every_path_the_page_gives_exists() -> None:
    text = PAGE.read_text()
    paths = set(_PATH.findall(text))
    # Names given beside a path (`read_window.py` after `read_file.py`) are in its folder.
    assert paths
    assert [p for p in sorted(paths) if not (REPO / p).exists()] == []


def test_the_floors_are_the_layer_tests() -> None:
    section = PAGE.read_text().split("## The floors")[1].split("\n## ")[0]
    listed = []
    for item in re.split(r"^\d+\. ", section, flags=re.MULTILINE)[1:]:
        names = _DOTTED.findall(" ".join(item.split()).split(" — ")[0])
        listed.append(sorted(n if n == "tether" else n.removeprefix("tether.") for n in names))
    floors = [sorted(floor) for floor in FLOORS if floor != ("__main__",)]
    assert listed == floors
