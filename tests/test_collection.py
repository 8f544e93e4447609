"""Collecting the suite keeps each test module's rewritten code, as a `.pyc`, even where
`PYTHONDONTWRITEBYTECODE` is set, and an xdist controller writes what its workers will read
(`tests/bytecode.py`): every worker otherwise rewrote and compiled every module."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import hypothesis
from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc

from tests.fresh import printed
from tests.pycache import linked_bytecode
from tests.sources import support_with_asserts

REPO = Path(__file__).resolve().parent.parent
MODULE = "tests/views/test_schema.py"


def test_collection_writes_the_rewritten_test_modules_despite_pythondontwritebytecode(
    tmp_path: Path,
) -> None:
    # The prefix keeps the written files out of the checkout, where pytest looks for them too;
    # it holds the bytecode of the modules pytest imports, not the rewritten test modules.
    prefix = linked_bytecode(tmp_path / "pycache")
    env = os.environ | {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(prefix)}
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", MODULE],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert collected.returncode == 0, collected.stdout + collected.stderr
    written = {path.name.split(".")[0] for path in prefix.rglob("*-pytest-*.pyc")}
    assert "test_schema" in written


def _pyc(prefix: Path, source: Path) -> Path:
    """Where pytest keeps `source`'s rewritten code under `PYTHONPYCACHEPREFIX=prefix`."""
    return prefix / Path(*source.parts[1:-1]) / (source.name[:-3] + PYC_TAIL)


def test_the_controller_writes_what_the_workers_rewrite_before_collection(
    tmp_path: Path,
) -> None:
    """The conftest and the plugins pytest rewrites as it starts, which no collection writes,
    are written by the xdist controller, and pytest reads them back: so are the modules."""
    prefix = linked_bytecode(tmp_path / "pycache")
    env = os.environ | {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(prefix)}
    # One worker, every test deselected: the controller's writing and a worker's collection.
    pytest = [sys.executable, "-m", "pytest", "-n", "1", "-q", "-p", "no:cacheprovider"]
    run = subprocess.run(
        [*pytest, "-k", "not_a_test_name", MODULE],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 5, run.stdout + run.stderr  # collected, all deselected
    plugin = Path(hypothesis.__file__).parent.parent / "_hypothesis_pytestplugin.py"
    support = REPO / f"{support_with_asserts()[0].replace('.', '/')}.py"  # registered
    for source in (REPO / "tests" / "conftest.py", REPO / "tests" / "bytecode.py", plugin, support):
        assert _read_pyc(source, _pyc(prefix, source)) is not None, source
    assert _read_pyc(REPO / MODULE, _pyc(prefix, REPO / MODULE)) is not None


def test_the_tests_run_with_the_bytecode_setting_they_were_given() -> None:
    assert sys.dont_write_bytecode == bool(sys.flags.dont_write_bytecode)


LOADED_BY_THEIR_TESTS = {
    "tests.models.test_anthropic_convert": "anthropic",
    "tests.batch.test_ray": "ray",
}
"""Test modules whose SDK only their own tests need: each worker collects every module, so
one loaded at module level cost all of them (the Anthropic SDK's types about 1 s of CPU)."""


def test_collecting_loads_no_sdk_only_a_module_s_tests_need_and_parses_no_source() -> None:
    """Nor do the tests that read tether's sources parse them before a test asks (hypothesis
    parses a few functions of its own as it loads)."""
    sdks = sorted(LOADED_BY_THEIR_TESTS.values())
    code = f"""
import ast, json, sys
sys.path.insert(0, {str(REPO)!r})
parsed = []
parse = ast.parse
def counted(source, filename="<unknown>", *args, **kwargs):
    parsed.extend([filename] if str(filename).startswith({str(REPO / "src")!r}) else [])
    return parse(source, filename, *args, **kwargs)
ast.parse = counted
import tests.test_layers, tests.test_errors, tests.test_architecture
for module in {sorted(LOADED_BY_THEIR_TESTS)!r}:
    __import__(module)
loaded = [name for name in {sdks!r} if name in sys.modules]
print(json.dumps({{"parsed": len(parsed), "loaded": loaded}}))
"""
    assert json.loads(printed(code, dict(os.environ))[-1]) == {"parsed": 0, "loaded": []}


def test_collection_leaves_the_collector_running_and_what_it_loaded_set_aside(
    tmp_path: Path,
) -> None:
    """`tests/heap.py`: the modules collection loaded are frozen, the collector runs after."""
    (tmp_path / "test_heap.py").write_text(
        "import gc\n\n\ndef test_after_collection():\n"
        "    assert gc.isenabled()\n    assert gc.get_freeze_count() > 10_000\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.heap"],
        cwd=tmp_path,
        env=os.environ | {"PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
