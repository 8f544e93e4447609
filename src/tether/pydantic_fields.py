"""A pydantic dataclass's fields, collected when first asked for instead of when the class is
made.

Making a pydantic dataclass whose schema is built later (`defer_build`, as every wire type
is: `tether.wire.WIRE_CONFIG`) still collects its fields at once: each annotation is
evaluated and turned into a `FieldInfo`. A command makes a hundred such classes (the log's
events, the cards, the updates) and validates a few of them; collecting them all cost about
0.01 s of CPU at every `tether show` (a fifteenth of a short session's). Pydantic collects
them again whenever it builds the class's own schema; the fields made with the class are read
only when another type's schema is generated around it (`TypeAdapter` of a union, say), or
by whoever asks for `__pydantic_fields__`.

`defer_field_collection` has pydantic leave, on such a class, a stand-in that collects the
fields (as pydantic would have, through its own function) the first time they are asked
for, and is replaced by them. The names an annotation refers to are looked up then, in the
class's module: those defined by then, as when pydantic builds the class's schema. Classes
built at once (no `defer_build`), and every rebuild, collect their fields as before.
"""

from __future__ import annotations

import sys
import threading
import types
from typing import Any

__all__ = ["DATACLASSES", "defer_field_collection"]

DATACLASSES = "pydantic._internal._dataclasses"
"""The module that completes a pydantic dataclass, which `defer_field_collection` is given."""

_MARK = "__tether_deferred_fields__"


def defer_field_collection(module: types.ModuleType) -> None:
    """From now on, a deferred pydantic dataclass collects its fields when first asked for.

    `module` is pydantic's `DATACLASSES` (`tether.lazy.when_loaded` hands it over once it
    runs). Should a later pydantic no longer complete its dataclasses as this expects, it is
    left as it is."""
    collect = getattr(module, "set_dataclass_fields", None)
    complete = getattr(module, "complete_dataclass", None)
    code = getattr(complete, "__code__", None)
    if collect is None or code is None or getattr(collect, _MARK, False):
        return

    def set_dataclass_fields(cls: type[Any], config_wrapper: Any, ns_resolver: Any = None) -> None:
        caller = sys._getframe(1)
        # Only as a class is made: `complete_dataclass` called without `_force_build`, for a
        # class whose schema waits for its first use.
        making = caller.f_code is code and not caller.f_locals.get("_force_build", True)
        if making and getattr(config_wrapper, "defer_build", False):
            cls.__pydantic_fields__ = _Fields(cls, collect, config_wrapper, ns_resolver)
            return
        collect(cls, config_wrapper=config_wrapper, ns_resolver=ns_resolver)

    setattr(set_dataclass_fields, _MARK, True)
    module.__dict__["set_dataclass_fields"] = set_dataclass_fields


class _Fields:
    """Stands for a class's `__pydantic_fields__` until first read: then collects them with
    pydantic's own function, as it was to collect them when the class was made, and gives way
    to them."""

    def __init__(self, cls: type[Any], collect: Any, config_wrapper: Any, resolver: Any) -> None:
        self.cls = cls
        self.collect = collect
        self.config_wrapper = config_wrapper
        self.resolver = resolver
        self.lock = threading.RLock()

    def __get__(self, instance: object, owner: type[Any] | None = None) -> Any:
        with self.lock:
            if self.cls.__dict__.get("__pydantic_fields__") is self:
                self.collect(
                    self.cls, config_wrapper=self.config_wrapper, ns_resolver=self.resolver
                )
        return self.cls.__dict__["__pydantic_fields__"]
