"""tether's build backend: setuptools, after stamping the package with the commit it is built
from (`tether --version` prints it). Building from an sdist keeps the stamp the sdist carries."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every other hook is setuptools' own)

_STAMP = Path("src") / "tether" / "_commit"


def _stamp() -> None:
    """Write the checkout's HEAD into the package; leave an existing stamp where there is none."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    try:
        done = subprocess.run(
            ["git", "-c", "core.fsmonitor=false", "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            env={**env, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull},
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return
    if done.returncode == 0 and done.stdout.strip():
        _STAMP.write_text(done.stdout.strip() + "\n", encoding="ascii")


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """setuptools' wheel, stamped."""
    _stamp()
    return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    """setuptools' sdist, stamped."""
    _stamp()
    return _setuptools.build_sdist(sdist_directory, config_settings)
