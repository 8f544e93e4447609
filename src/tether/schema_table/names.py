"""Which of pydantic's schemas the schema table can keep: a type named exactly by its module and
qualified name (or a `typing` form of such types), built with a configuration of plain values,
into a schema of plain values and module-level objects of tether, pydantic or the standard
library — what a pickle names and finds again as the same object."""

from __future__ import annotations

import sys
import types
import typing
from typing import Any

__all__ = ["ROOTS", "importable", "key", "named", "plain", "resolved", "settings"]

ROOTS = frozenset({"tether", "pydantic", "pydantic_core", "typing_extensions"})
"""Packages whose objects a kept schema may name (besides the standard library's)."""


def key(kind: str, obj: Any, config: Any) -> str | None:
    """The table's key for building `obj` with `config` at `kind`'s call; `None` when it
    cannot be named exactly."""
    name, made_with = named(obj), settings(config)
    if name is None or made_with is None:
        return None
    return f"{kind}|{name}|{made_with}"


def named(obj: Any) -> str | None:
    """The name `obj` is found again by; `None` when it has none for certain."""
    if isinstance(obj, type):
        # By its name, which must lead to it: a kept schema names its classes so.
        found: Any = sys.modules.get(obj.__module__)
        for part in obj.__qualname__.split("."):
            found = getattr(found, part, None)
        return f"{obj.__module__}:{obj.__qualname__}" if found is obj else None
    text = repr(obj)
    # A `typing` form names its classes by module and qualified name; a forward reference,
    # a local class or an object shown by its address names nothing for certain.
    if " at 0x" in text or "<locals>" in text or not resolved(obj):
        return None
    return text


def resolved(form: Any) -> bool:
    """Whether a `typing` form holds no forward reference (a name to be looked up)."""
    if isinstance(form, (str, typing.ForwardRef)):
        return False
    origin = typing.get_origin(form)
    if origin is typing.Literal:
        return True
    args = typing.get_args(form)
    if origin is typing.Annotated:
        args = args[:1]  # the metadata is shown whole
    return all(resolved(arg) for arg in args)


def settings(config: Any) -> str | None:
    """A configuration's items, each a plain value or a module-level function's name."""
    items = []
    for key, value in sorted((config or {}).items()):
        if isinstance(value, (str, int, float, bool, type(None))):
            items.append(f"{key}={value!r}")
        elif isinstance(value, types.FunctionType) and importable(value):
            items.append(f"{key}={value.__module__}:{value.__qualname__}")
        else:
            return None
    return ",".join(items)


def importable(value: Any) -> bool:
    """Whether `value` is a module-level object of a package a kept schema may name."""
    module = getattr(value, "__module__", None) or ""
    qualname = getattr(value, "__qualname__", "")
    root = module.partition(".")[0]
    stdlib = root in sys.stdlib_module_names or root == "builtins"
    return "<" not in qualname and (root in ROOTS or stdlib)


def plain(value: Any, seen: set[int]) -> bool:
    """Whether a schema holds only plain values and module-level objects of the packages a
    kept schema may name."""
    if isinstance(value, (str, bytes, int, float, bool, type(None))):
        return True
    if id(value) in seen:
        return True
    seen.add(id(value))
    if isinstance(value, dict):
        return all(plain(k, seen) and plain(v, seen) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return all(plain(item, seen) for item in value)
    if isinstance(value, types.MethodType):
        return importable(value.__self__) and importable(value.__func__)
    if isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)):
        return importable(value)
    # An instance (a default value): unpickled, it would be a copy, not the object itself.
    return False
