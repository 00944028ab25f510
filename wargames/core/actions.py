"""Actions: frozen dataclasses with a stable text form, as python-chess's ``Move.uci()`` / ``Move.from_uci``.

``str(action)`` is the verb (the class name in snake case) followed by ``field=value`` for every field
whose value differs from its default; values are JSON, with tuples written as lists. :func:`parse_action`
is its inverse for a given set of action classes.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import re
from typing import Any, Iterable

from .errors import DataError


def verb(cls: type) -> str:
    """``EndMoves`` -> ``end_moves``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


class Action:
    """Base of every game's actions (each a frozen dataclass). Its ``str`` is its text form."""

    def __str__(self) -> str:
        parts = [verb(type(self))]
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.default is not dataclasses.MISSING and value == f.default:
                continue
            parts.append(f"{f.name}={json.dumps(_jsonable(value), ensure_ascii=False, separators=(',', ':'))}")
        return " ".join(parts)


_DECODER = json.JSONDecoder()
_FIELD = re.compile(r"\s+([a-z_][a-z0-9_]*)=")


def parse_action(text: str, classes: Iterable[type], source: str = "action text") -> Action:
    """The action whose text form is ``text``; a malformed text raises :class:`DataError` saying why."""
    if not isinstance(text, str):
        raise DataError(source, "text", f"an action's text form is a string, not {type(text).__name__}")
    by_verb = {verb(c): c for c in classes}
    text = text.strip()
    head = re.match(r"[a-z_]+", text)
    if head is None or head.group(0) not in by_verb:
        name = head.group(0) if head else text[:20]
        raise DataError(source, text, f"{name!r} is not an action; the actions are {', '.join(sorted(by_verb))}")
    cls = by_verb[head.group(0)]
    names = {f.name for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    pos = head.end()
    while pos < len(text):
        m = _FIELD.match(text, pos)
        if m is None:
            raise DataError(source, text, f"expected ' field=value' at character {pos + 1}")
        name = m.group(1)
        if name not in names:
            raise DataError(source, text, f"{cls.__name__} has no field {name!r}; its fields are "
                                          f"{', '.join(sorted(names)) or 'none'}")
        if name in values:
            raise DataError(source, text, f"the field {name!r} is given twice")
        try:
            value, pos = _DECODER.raw_decode(text, m.end())
        except json.JSONDecodeError as e:
            raise DataError(source, text, f"the value of {name!r} is not JSON: {e.msg}") from None
        values[name] = _tuples(value)
    try:
        return cls(**values)
    except TypeError as e:
        raise DataError(source, text, str(e)) from None


@functools.lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    """An action class's field annotations, resolved once."""
    import typing
    return typing.get_type_hints(cls)


def field_problem(action: Action) -> str | None:
    """Why a field of ``action`` does not hold a value of its annotated type (str, int, bool, None, unions of
    them, ``tuple[X, ...]`` and fixed tuples, nested), or None. Actions built by hand or mutated by a fuzzer
    are checked with it before any rule reads them; ``bool`` is not taken for ``int``."""
    hints = _hints(type(action))
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if not _fits(value, hints[f.name]):
            return f"{f.name}={json.dumps(_jsonable(value), default=str)} is not of type {_type_name(hints[f.name])}"
    return None


def _fits(value: Any, hint: Any) -> bool:
    import types
    import typing
    origin = typing.get_origin(hint)
    if hint is type(None):
        return value is None
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, h) for h in typing.get_args(hint))
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(v, args[0]) for v in value)
        return len(value) == len(args) and all(_fits(v, a) for v, a in zip(value, args))
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint in (str, bool):
        return isinstance(value, hint)
    return True             # a type this check does not know: the handler checks it


def _type_name(hint: Any) -> str:
    import typing
    if typing.get_origin(hint) is None and hasattr(hint, "__name__"):
        return hint.__name__
    return str(hint).replace("typing.", "").replace("NoneType", "None")
