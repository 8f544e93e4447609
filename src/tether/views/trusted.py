"""Cards made from values already checked: each field set as validation would leave it.

A replay makes several cards per call from stored results that the tool's presenter has
just narrowed field by field (`isinstance` on every value it takes from the JSON); pydantic's
`__init__` would check each again, at about four times the cost of setting them. `trusted`
gives a card class's constructor without that second check. It takes the same keywords, so
the type checker holds every call to the class's own field types. The class's rules across
fields (its `model_validator(mode="after")` methods, which see the made card) are run as
validation runs them, a broken one raising its `ValueError`; a class whose making does more
(a field validator, a validator before or around the fields, a factory, a post-init step) is
refused, so no rule of a card is skipped. Use it only where every value has its field's exact
type.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

__all__ = ["trusted"]

P = ParamSpec("P")
T = TypeVar("T")

_MADE: dict[object, Any] = {}

Made = Callable[..., Any]
"""A made constructor (its keywords are the class's fields)."""


def trusted(cls: Callable[P, T]) -> Callable[P, T]:
    """`cls`'s constructor for values of its fields' exact types, which it does not check."""
    try:
        return _MADE[cls]  # type: ignore[no-any-return]
    except KeyError:
        made: Callable[P, T] = _constructor(cls)
        _MADE[cls] = made
        return made


def _constructor(cls: Any) -> Made:
    """A function of `cls`'s keyword-only fields that fills a new instance's `__dict__` in the
    fields' order, with their defaults, as the class's validated `__init__` leaves it."""
    name = getattr(cls, "__qualname__", repr(cls))
    decorators = getattr(cls, "__pydantic_decorators__", None)
    if decorators is None or not isinstance(cls, type) or not dataclasses.is_dataclass(cls):
        raise TypeError(f"{name} is not a pydantic dataclass")
    checks = (decorators.validators, decorators.field_validators, decorators.root_validators)
    rules = []
    for decorator in decorators.model_validators.values():
        if decorator.info.mode != "after" or _arity(decorator.func) != 1:
            raise TypeError(f"{name} does more when made than check its fields' types")
        rules.append(decorator.func)
    if any(checks) or hasattr(cls, "__post_init__") or hasattr(cls, "__slots__"):
        raise TypeError(f"{name} does more when made than check its fields' types")
    params: list[str] = []
    body: list[str] = []
    after: list[str] = []
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    for number, rule in enumerate(rules):
        # Each rule is given the card and returns it (or raises), as validation calls it.
        scope[f"_rule_{number}"] = rule
        after.append(f"    _made_ = _rule_{number}(_made_)\n")
    for field in dataclasses.fields(cls):
        if not field.init or not field.kw_only or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{name}.{field.name} is not a plain keyword field")
        if field.name.startswith("_"):
            raise TypeError(f"{name}.{field.name} is private")
        if field.default is dataclasses.MISSING:
            params.append(field.name)
        else:
            params.append(f"{field.name}=_d_{field.name}")
            scope[f"_d_{field.name}"] = field.default
        body.append(f"    _dict_[{field.name!r}] = {field.name}\n")
    # Python's own keyword handling refuses a missing field, as `__init__` does, and an unknown
    # one too, which `__init__` would drop (the type checker refuses both where it is called).
    source = (
        f"def make(*, {', '.join(params)}):\n"
        "    _made_ = _new(_cls)\n"
        "    _dict_ = _made_.__dict__\n"
        f"{''.join(body)}"
        f"{''.join(after)}"
        "    return _made_\n"
    )
    exec(source, scope)  # the source holds only the class's own field names
    make: Made = scope["make"]
    make.__qualname__ = f"trusted({name})"
    return make


def _arity(function: object) -> int:
    """How many positional parameters `function` takes (a rule takes the card alone)."""
    code = getattr(function, "__code__", None)
    return -1 if code is None else int(code.co_argcount)
