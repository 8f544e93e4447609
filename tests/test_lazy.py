"""Packages whose names load on first use still hand out exactly what their modules define."""

from __future__ import annotations

import importlib
import os
import pkgutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

LAZY_PACKAGES = (
    "tether.agents",
    "tether.mcp",
    "tether.models",
    "tether.policy",
    "tether.session",
    "tether.settings",
    "tether.tools",
    "tether.views",
)


def _printed(*args: str, env: dict[str, str] | None = None) -> list[str]:
    """The lines a fresh interpreter given `args` prints, once it has exited cleanly."""
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


_CHECK = """
import importlib, pkgutil, sys
package = importlib.import_module(sys.argv[1])
# Every submodule first: importing one sets the package's attribute of its name, which must
# never stand in for a name the package offers.
for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    importlib.import_module(info.name)
wrong = []
for name in package.__all__:
    value = getattr(package, name)
    if isinstance(value, type(sys)):
        wrong.append(f"{name} is a module")
print("\\n".join(wrong))
"""


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_every_name_is_what_its_module_defines(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        assert value is not None or name.isupper(), name
    # In a fresh process, after every submodule was imported: no name became a module.
    assert _printed("-c", _CHECK, package) == [""]  # no name is a module


def test_an_unknown_name_is_an_attribute_error() -> None:
    import tether.session

    with pytest.raises(AttributeError, match="has no attribute 'Nope'"):
        _ = tether.session.Nope  # type: ignore[attr-defined]
    assert pkgutil.resolve_name("tether.session:SessionStore").__name__ == "SessionStore"


_STAND_IN = """
import sys
from tether.lazy import defer_imports, is_loaded
defer_imports()
import httpx
from httpx import main
print(is_loaded("httpx._main"), "click" in sys.modules, "pygments" in sys.modules)
try:
    main(["--help"])
except SystemExit as exc:
    print("exit", exc.code)
print(is_loaded("httpx._main"), httpx.main is main, sys.modules["httpx._main"].main is not main)
"""


def test_a_name_imported_from_a_deferred_module_runs_it_when_called() -> None:
    # httpx binds `main` from its command-line module at import; that module (click,
    # Pygments) runs only when `main` is called, and then does what it always did.
    lines = _printed("-c", _STAND_IN)
    assert lines[0] == "False False False"
    assert any(line.startswith("Usage: httpx") for line in lines)
    assert lines[-2:] == ["exit 0", "True True True"]


_RESOURCES = """
import importlib.resources, os
from tether.lazy import defer_imports

defer_imports()
import certifi

# A deferred package's resources are found before and after it runs, as without deferring.
before = importlib.resources.files("certifi").joinpath("cacert.pem").read_bytes()
where = certifi.where()
print(before.startswith(b"\\n# Issuer") or b"BEGIN CERTIFICATE" in before, os.path.isfile(where))
"""


def test_a_deferred_package_s_resources_are_found() -> None:
    # certifi names its CA bundle through importlib.resources, which asks the package's
    # loader for a reader: deferred, it found none ("Can't open orphan path"), and every
    # https request and `import requests` (Ray's) failed where SSL_CERT_FILE was not set.
    env = {k: v for k, v in os.environ.items() if k not in ("SSL_CERT_FILE", "SSL_CERT_DIR")}
    assert _printed("-c", _RESOURCES, env=env) == ["True True"]


_WHEN_LOADED = """
import sys
from tether.lazy import when_loaded

done = []
when_loaded("json", lambda module: done.append(("json", module.dumps([1]))))
when_loaded("sys", lambda module: done.append(("sys", module is sys)))
print(done, "json" in sys.modules)
import json

print(done)
import json

print(len(done))
"""


def test_when_loaded_acts_now_on_a_module_run_and_after_the_first_import_of_one_not_run() -> None:
    # `tether`'s logging is set up so: a command that never imports `logging` never loads it.
    assert _printed("-c", _WHEN_LOADED) == [
        "[('sys', True)] False",
        "[('sys', True), ('json', '[1]')]",
        "2",
    ]


_LOGGER = """
import sys
from tether.lazy import logger
log = logger("probe")
class Twice:
    def filter(self, record):
        return record.getMessage() != "dropped"
dropping, unused = Twice(), Twice()
log.addFilter(dropping)
log.addFilter(unused)
log.removeFilter(unused)
print("logging" in sys.modules)
import logging
logging.basicConfig(format="%(name)s %(funcName)s %(lineno)d %(message)s", stream=sys.stdout)
def caller():
    log.warning("kept")
    log.warning("dropped")
caller()
print(logging.getLogger("probe").filters == [dropping], log.name, log.isEnabledFor(30))
log.removeFilter(dropping)
log.warning("dropped")
"""


def test_a_logger_taken_on_use_loads_logging_when_it_logs_as_the_logger_would() -> None:
    # Filters added (and removed) before `logging` loads are the logger's once it is made, and
    # a record names its caller's function and line, not the stand-in's.
    assert _printed("-c", _LOGGER) == [
        "False",
        "probe caller 16 kept",
        "True probe True",
        "probe <module> 21 dropped",
    ]


_PICKLE = """
from tether.lazy import defer_imports, is_loaded
defer_imports()
from rich.style import Style
import pickle
print(is_loaded("pickle"))
# rich keeps a style's metadata pickled: its bound `dumps` and `loads` run `pickle` when called.
linked = Style(meta={"@click": "open"}) + Style(link="https://example.org")
print(linked.meta, is_loaded("pickle"))
print(pickle.loads(pickle.dumps(linked)) == linked, pickle.HIGHEST_PROTOCOL)
"""


def test_pickle_runs_when_rich_s_styles_first_pickle_metadata() -> None:
    assert _printed("-c", _PICKLE) == ["False", "{'@click': 'open'} True", "True 5"]


_PATTERN = """
import re
from tether.lazy import pattern
word = pattern(r"(?P<w>[a-z]+)(\\d*)", re.IGNORECASE)
print(len(vars(word)))  # its source alone: nothing compiled yet
print(word.fullmatch("Ab12").groups(), word.sub("-", "x1 y"), word.pattern, word.groupindex["w"])
print(word.search is word.search, word.flags == re.compile(word.pattern, re.IGNORECASE).flags)
"""


def test_a_pattern_compiles_on_first_use_and_answers_as_the_compiled_one() -> None:
    assert _printed("-c", _PATTERN) == [
        "1",
        "('Ab', '12') - - (?P<w>[a-z]+)(\\d*) 1",
        "True True",
    ]


_GETTEXT = """
import sys
from tether.lazy import defer_imports, is_loaded
defer_imports()
import argparse
prefix, catalogued = sys.argv[1], sys.argv[2]
sys.base_prefix = prefix  # no `share/locale` there: no catalogue can be found
words = [argparse._("usage: "), argparse.ngettext("one %s", "many %s", 1)]
words.append(argparse.ngettext("one %s", "many %s", 2))
print(words, is_loaded("gettext"), "locale" in sys.modules)
sys.base_prefix = catalogued  # one is there now: gettext runs, and finds it
print(argparse._("usage: "), is_loaded("gettext"))
"""


def _catalogue(messages: dict[str, str]) -> bytes:
    """A GNU gettext catalogue (`.mo`) of `messages`, UTF-8."""
    entries = {"": "Content-Type: text/plain; charset=UTF-8\n", **messages}
    keys = sorted(entries)
    ids = [key.encode() for key in keys]
    texts = [entries[key].encode() for key in keys]
    start = 7 * 4 + 2 * 8 * len(keys)  # the header, then both tables of (length, offset)
    table: list[int] = []
    for chunk in (ids, texts):
        for item in chunk:
            table += [len(item), start]
            start += len(item) + 1
    header = struct.pack("<7I", 0x950412DE, 0, len(keys), 28, 28 + 8 * len(keys), 0, 0)
    body = b"".join(item + b"\0" for item in ids + texts)
    return header + struct.pack(f"<{len(table)}I", *table) + body


def test_argparse_s_words_are_gettext_s_without_loading_it_while_no_catalogue_exists(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "with" / "share" / "locale" / "xx" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "messages.mo").write_bytes(_catalogue({"usage: ": "utilisation : "}))
    env = {**os.environ, "LANGUAGE": "xx"}
    assert _printed("-c", _GETTEXT, str(tmp_path / "without"), str(tmp_path / "with"), env=env) == [
        "['usage: ', 'one %s', 'many %s'] False False",
        "utilisation :  True",
    ]


_SOURCE_READERS = """
import sys
from tether.lazy import defer_imports, is_loaded
defer_imports()
import dataclasses, inspect, pathlib
readers = ("tokenize", "token", "linecache", "urllib.parse")
print([is_loaded(name) for name in readers])
print(pathlib.PurePosixPath("/a b/c").as_uri())
def shown():
    return 1  # a line of its own
print(inspect.getsource(shown).splitlines()[1].strip())
try:
    {}["missing"]
except KeyError:
    import traceback
    print(traceback.format_exc().splitlines()[-3].strip())
print([is_loaded(name) for name in readers])
"""


def test_what_reads_source_and_makes_uris_runs_when_first_used(tmp_path: Path) -> None:
    script = tmp_path / "readers.py"  # `inspect` and tracebacks read a file's lines
    script.write_text(_SOURCE_READERS)
    assert _printed(str(script)) == [
        "[False, False, False, False]",
        "file:///a%20b/c",
        "return 1  # a line of its own",
        '{}["missing"]',
        "[True, True, True, True]",
    ]


_UNUSED_AT_IMPORT = """
from tether.lazy import defer_imports, is_loaded
defer_imports()
import base64, ntpath, pathlib, struct, zoneinfo
import pydantic.types
unused = ("ntpath", "fnmatch", "base64", "struct")
print([is_loaded(name) for name in unused])
print(pathlib.PureWindowsPath("C:/a/b").parts, pathlib.PurePosixPath("/a/b.py").match("*.py"))
print(base64.b64encode(b"tether"), struct.pack(">H", 258), ntpath.splitdrive("C:/a"))
print([is_loaded(name) for name in unused])
"""


def test_what_pathlib_pydantic_and_zoneinfo_import_runs_when_first_used() -> None:
    assert _printed("-c", _UNUSED_AT_IMPORT) == [
        "[False, False, False, False]",
        "('C:\\\\', 'a', 'b') True",
        "b'dGV0aGVy' b'\\x01\\x02' ('C:', '/a')",
        "[True, True, True, True]",
    ]


_RANDOM = """
from tether.lazy import defer_imports, is_loaded
defer_imports()
import rich.style  # counts its links' ids from `random.getrandbits(24)` as it loads
import random
print(is_loaded("random"), 0 <= next(rich.style._id_generator) < 2**24 + 1)
from random import getrandbits
print(getrandbits(0), 0 <= getrandbits(70) < 2**70, getrandbits(1) in (0, 1), is_loaded("random"))
try:
    getrandbits(-1)  # what only `random` can answer: it runs, and raises its own error
except ValueError as exc:
    print(exc, is_loaded("random"))
random.seed(7)
print(random.getrandbits(8) == random.Random(7).getrandbits(8))
"""


def test_rich_s_link_ids_start_without_loading_random() -> None:
    assert _printed("-c", _RANDOM) == [
        "False True",
        "0 True True False",
        "number of bits must be non-negative True",
        "True",
    ]


_SCHEMA_PARTS = """
from typing import Annotated, Literal
from tether.lazy import defer_imports, is_loaded
defer_imports()
from pydantic import ConfigDict, Field, TypeAdapter
from pydantic.dataclasses import dataclass
parts = ("pydantic._internal._discriminated_union", "pydantic._internal._known_annotated_metadata")
@dataclass(config=ConfigDict(defer_build=True))
class Cat:
    kind: Literal["cat"]
    lives: Annotated[int, Field(ge=0)]
@dataclass(config=ConfigDict(defer_build=True))
class Dog:
    kind: Literal["dog"]
print([is_loaded(name) for name in parts])
pet = TypeAdapter(Annotated[Cat | Dog, Field(discriminator="kind")])
print(pet.validate_python({"kind": "cat", "lives": 9}), [is_loaded(name) for name in parts])
"""


def test_the_schema_generator_s_parts_run_with_the_first_schema_that_needs_them() -> None:
    assert _printed("-c", _SCHEMA_PARTS) == [
        "[False, False]",
        "Cat(kind='cat', lives=9) [True, True]",
    ]


_BEFORE = """
import sys
from tether.lazy import before_run
seen = []
before_run("colorsys", lambda module: seen.append(("rgb_to_hsv" in vars(module), module.__name__)))
before_run("sys", lambda module: seen.append("never: it ran long ago"))
import colorsys
print(seen, colorsys.rgb_to_hsv(1, 0, 0))
"""


def test_what_is_asked_before_a_module_runs_is_done_before_its_code() -> None:
    assert _printed("-c", _BEFORE) == ["[(False, 'colorsys')] (0.0, 1.0, 1)"]


_SYNTAX_TREES = """
import sys
from tether.lazy import defer_imports, is_loaded
defer_imports()
import inspect
from pydantic import BaseModel, ConfigDict
from rich.markup import render
print(is_loaded("ast"), issubclass(inspect._ClassFinder, sys.modules["ast"].NodeVisitor))
class Documented(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)
    size: int = 0
    '''How big it is.'''
print(is_loaded("ast"), Documented.model_fields["size"].description)
import ast
print(inspect.getsource(Documented).splitlines()[0], ast.NodeVisitor.__module__)
print(render("[@click=answer('yes', 2)]x[/]").spans[0].style.meta)
class Counter(ast.NodeVisitor):
    seen = 0
    def visit_Name(self, node):
        self.seen += 1
        self.generic_visit(node)
counter = Counter()
counter.visit(ast.parse("a + b * (c - 1)"))
print(counter.seen, issubclass(inspect._ClassFinder, ast.NodeVisitor))
"""


def test_the_syntax_tree_s_module_runs_when_a_tree_is_first_made(tmp_path: Path) -> None:
    script = tmp_path / "trees.py"  # a class's source and docstrings are read from its file
    script.write_text(_SYNTAX_TREES)
    # `inspect` and pydantic subclass its visitor as they load: they subclass a stand-in.
    assert _printed(str(script)) == [
        "False True",
        "True How big it is.",
        "class Documented(BaseModel): ast",
        "{'@click': ('answer', ('yes', 2))}",
        "3 False",
    ]


_PLATFORM = """
import os
from tether.lazy import defer_imports, is_loaded
defer_imports()
import uuid  # asks `platform.system()` as it loads
import platform
answered = platform.system()
print(is_loaded("platform"), uuid._LINUX == (answered == "Linux"))
print(platform.machine() == os.uname().machine, is_loaded("platform"))
print(platform.system() == answered == platform.uname().system)
"""


def test_uuid_learns_the_system_s_name_without_platform() -> None:
    assert _printed("-c", _PLATFORM) == ["False True", "True True", "True"]
