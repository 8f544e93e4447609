"""npm packages the tests use (the ACP TypeScript client, axe-core), installed on first use."""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
from pathlib import Path

import pytest

__all__ = ["npm_package"]


def npm_package(project: Path, name: str, version: str) -> Path:
    """`project/node_modules/NAME` at `version`, from the project's lock file (`npm ci`).

    Skips the test when npm is missing and the package is not there yet.
    """
    root = project / "node_modules" / name
    if _installed(root, version):
        return root
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip(f"npm is needed to install {name}")
    # Test processes running side by side (pytest -n) install once: the others wait, then
    # find it there. `npm ci` starts by removing node_modules, so two at once would collide.
    with (project / ".npm-install.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _installed(root, version):
            subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                cwd=project,
                check=True,
                timeout=300,
            )
    assert _installed(root, version), f"{name} {version} is not in {project}"
    return root


def _installed(root: Path, version: str) -> bool:
    manifest = root / "package.json"
    return manifest.is_file() and json.loads(manifest.read_text())["version"] == version
