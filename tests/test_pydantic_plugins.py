"""Pydantic's plugin scan is answered from the metadata files only when its answer is certain:
no plugin, and `importlib.metadata` never loads; a plugin anywhere, and pydantic finds it."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from tether.pydantic_plugins import declares_no_plugins

_BUILD = """
import sys
from tether.lazy import defer_imports, is_loaded
defer_imports()
import pydantic
class Point(pydantic.BaseModel):
    x: int
print(Point(x=1).x, is_loaded("importlib.metadata"), is_loaded("zipfile"))
import importlib.metadata
from pydantic.plugin import _loader
print(sorted(_loader._plugins), [p.name for p in importlib.metadata.entry_points(group="pydantic")])
"""

_PLUGIN = """
import sys
class Plugin:
    def new_schema_validator(self, schema, schema_type, *args, **kwargs):
        print("validator for", schema_type.__name__, file=sys.stderr)
        return None, None, None
plugin = Plugin()
"""


def _distribution(folder: Path, name: str, entry_points: str | None) -> Path:
    """An installed distribution's metadata folder in `folder`, with its entry points."""
    metadata = folder / f"{name}-1.0.dist-info"
    metadata.mkdir(parents=True)
    (metadata / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    if entry_points is not None:
        (metadata / "entry_points.txt").write_text(entry_points)
    return metadata


def _built(extra_path: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if extra_path is not None:
        env["PYTHONPATH"] = str(extra_path)
    return subprocess.run(
        [sys.executable, "-c", _BUILD], capture_output=True, text=True, env=env, check=True
    )


def test_with_no_plugin_installed_pydantic_builds_without_importlib_metadata() -> None:
    built = _built()
    first, second = built.stdout.splitlines()
    assert first == "1 False False"
    # What pydantic was told is what its own scan finds when it runs after all.
    assert second == "[] []"


def test_a_plugin_installed_is_found_and_used_as_pydantic_finds_it(tmp_path: Path) -> None:
    _distribution(
        tmp_path, "pointplug", "[console_scripts]\nx = y:z\n\n[pydantic]\nmine = pointplug:plugin\n"
    )
    (tmp_path / "pointplug.py").write_text(_PLUGIN)
    built = _built(tmp_path)
    first, second = built.stdout.splitlines()
    assert first == "1 True True"  # the scan ran: importlib.metadata read the entry point
    assert second == "['pointplug:plugin'] ['mine']"
    assert "validator for Point" in built.stderr


def test_only_a_certain_absence_of_the_group_counts(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    _distribution(plain, "a", "[console_scripts]\npydantic = a:main\n")
    _distribution(plain, "b", None)
    (plain / "c-1.0.egg-info").write_text("Name: c\n")  # metadata as a single file
    missing = tmp_path / "missing"
    assert declares_no_plugins([str(plain), str(missing)])

    spaced = tmp_path / "spaced"
    _distribution(spaced, "d", "[ pydantic ]\nd = d:plugin\n")
    assert not declares_no_plugins([str(plain), str(spaced)])

    # A header far into a long file (read past its first chunk) counts too.
    long = tmp_path / "long"
    _distribution(long, "h", "[console_scripts]\n" + "x = y:z\n" * 20_000 + "[pydantic]\nh = h:p\n")
    assert not declares_no_plugins([str(plain), str(long)])

    egg = tmp_path / "e.egg"
    (egg / "EGG-INFO").mkdir(parents=True)
    (egg / "EGG-INFO" / "entry_points.txt").write_text("[pydantic]\ne = e:plugin\n")
    assert not declares_no_plugins([str(egg)])

    unreadable = tmp_path / "unreadable"
    (_distribution(unreadable, "f", None) / "entry_points.txt").mkdir()
    assert not declares_no_plugins([str(unreadable)])

    archive = tmp_path / "packed.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        packed.writestr("g-1.0.dist-info/METADATA", "Name: g\n")
    assert not declares_no_plugins([str(plain), str(archive)])
