"""The wheel and the sdist hold every file the program reads, and an installed wheel works.

Built from a copy of the tracked files (committed in a repository of their own, so the build
stamps a commit), installed into a fresh virtual environment, and run from there: `--version`,
`demo`, and `web` with every module and style sheet the page loads answering 200.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx
import pytest

from tests.gitrepo import git

ROOT = Path(__file__).resolve().parent.parent
_IMPORT = re.compile(r"""(?:\bimport\s*(?:[\w*{}\s,]+from\s*)?|@import\s+)["']([^"']+)["']""")
"""A JavaScript `import ... from "x"` / `import "x"`, or a CSS `@import "x"`."""
_LINKED = re.compile(r"""(?:href|src)="(/[^"]+)\"""")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, str, Path]]:
    """(wheel, sdist, the commit built, the source copy)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("the wheel is built from the checkout's tracked files, which needs git")
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    for name in listed.split("\0"):
        if name and (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    git("init", "-q", cwd=source)
    git("add", "-A", cwd=source)
    git("commit", "-q", "-m", "build", cwd=source)
    commit = git("rev-parse", "HEAD", cwd=source).strip()
    out = base / "dist"
    hooks = (
        "import sys; sys.path.insert(0, 'scripts'); import build_backend as b; "
        f"print(b.build_sdist({str(out)!r})); print(b.build_wheel({str(out)!r}))"
    )
    subprocess.run(
        [sys.executable, "-c", hooks], cwd=source, capture_output=True, timeout=300, check=True
    )
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    yield wheel, sdist, commit, source


def test_the_wheel_and_sdist_hold_every_file_of_the_package(
    built: tuple[Path, Path, str, Path],
) -> None:
    wheel, sdist, commit, source = built
    package = source / "src" / "tether"
    tracked = {
        p.relative_to(source / "src").as_posix()
        for p in package.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.name != "_commit"
    }
    assert "tether/web/static/cards/read.js" in tracked  # a module in a sub-folder
    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    assert tracked - in_wheel == set()
    prefix = sdist.name.removesuffix(".tar.gz") + "/src/"
    with tarfile.open(sdist) as archive:
        in_sdist = {n.removeprefix(prefix) for n in archive.getnames() if n.startswith(prefix)}
        stamp = archive.extractfile(prefix + "tether/_commit")
        assert stamp is not None
        assert stamp.read().decode().strip() == commit
    assert tracked - in_sdist == set()
    assert "tether/_commit" in in_wheel


@pytest.fixture(scope="module")
def installed(
    built: tuple[Path, Path, str, Path], tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """A fresh venv with the wheel installed; its dependencies are the test environment's own.

    They are reached through a path file (not a site directory, so the checkout's editable
    install, itself a path file there, is not picked up): the wheel alone supplies `tether`.
    """
    wheel = built[0]
    venv = tmp_path_factory.mktemp("venv") / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120
    )
    python = venv / "bin" / "python"
    subprocess.run(
        [
            *(sys.executable, "-m", "pip", "--python", str(python), "install"),
            *("--quiet", "--no-deps", "--no-index", "--no-compile", str(wheel)),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    (Path(purelib) / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    return {**env, "TETHER_HOME": str(tmp / "home"), "NO_COLOR": "1"}


def test_the_installed_wheel_runs_from_its_own_files(
    installed: Path, built: tuple[Path, Path, str, Path], tmp_path: Path
) -> None:
    tether = installed / "bin" / "tether"
    where = subprocess.run(
        [str(installed / "bin" / "python"), "-c", "import tether; print(tether.__file__)"],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        check=True,
        timeout=60,
    ).stdout
    assert where.startswith(str(installed)), where
    version = subprocess.run(
        [str(tether), "--version"],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        check=True,
        timeout=60,
    ).stdout
    assert version == f"tether 0.1.0 (commit {built[2][:12]})\n"
    demo = subprocess.run(
        [str(tether), "demo", "--dir", str(tmp_path / "demo")],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        check=False,
        timeout=120,
    )
    assert demo.returncode == 0, demo.stderr
    assert (tmp_path / "demo" / "greet.py").is_file()


def test_the_installed_web_client_serves_every_module_the_page_loads(
    installed: Path, tmp_path: Path
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    with subprocess.Popen(
        [str(installed / "bin" / "tether"), "web", "--no-open", "--port", "0"],
        cwd=workspace,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=_env(tmp_path),
    ) as process:
        try:
            assert process.stdout is not None
            url = process.stdout.readline().strip()
            assert url.startswith("http://127.0.0.1:"), url
            fetched = _fetch_page(url)
        finally:
            process.terminate()
            process.wait(timeout=30)
    assert "/static/cards/read.js" in fetched
    assert "/static/cards/terminal.css" in fetched
    assert all(status == 200 for status in fetched.values()), fetched


def _fetch_page(url: str) -> dict[str, int]:
    """Every path the page loads (links, scripts, their imports, transitively) → its status."""
    statuses: dict[str, int] = {}
    with httpx.Client(timeout=30) as client:
        page = client.get(url)
        assert page.status_code == 200
        waiting = [urljoin(url, link) for link in _LINKED.findall(page.text)]
        while waiting:
            address = waiting.pop()
            path = urlsplit(address).path
            if path in statuses:
                continue
            answer = client.get(address)
            statuses[path] = answer.status_code
            if answer.status_code == 200 and path.endswith((".js", ".css")):
                waiting += [urljoin(address, name) for name in _IMPORT.findall(answer.text)]
    return statuses
