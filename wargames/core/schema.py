"""One schema mechanism for every data file: charts, maps, scenarios, FRAGOs, orders of battle, saves.

A file type is declared once, as nested schemas::

    UNIT = Record({"id": Str(), "tq": Int(0, 9), "concealed": Bool()},
                  optional={"notes": Opt(Str(), "")}, build=lambda v: Unit(**v))
    FRAGO = Record({"units": List(UNIT, min_len=1)})
    frago = load_file("lz.yaml", FRAGO)

:meth:`Schema.check` returns the converted value or raises :class:`~wargames.core.errors.DataError` with the file,
the path to the field (``units[2].tq``), the line and column (when the data came from
:func:`~wargames.core.yamlio.read_yaml`) and the reason. A :class:`Record` refuses unknown keys and reports a
missing one; numbers have ranges; text may be held to a list of choices. Cross-references (a hex on the map, a
unit that exists, a turn within the game) are a :class:`Convert` or a record's ``check``; either raises
``ValueError`` or ``DataError`` and the mechanism places it at the field. Pure Python, so the engine loads in
Pyodide.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from .errors import DataError
from .yamlio import locate, mark_of, read_yaml, short


class At:
    """Where a value sits: the file, the path to it and the line and column it was written at."""

    __slots__ = ("file", "path", "mark")

    def __init__(self, file: str, path: str = "", mark: tuple[int, int] | None = None):
        self.file, self.path, self.mark = str(file), path, mark

    def child(self, container: Any, key: Any) -> "At":
        if isinstance(container, list):
            path = f"{self.path}[{key}]"
        elif isinstance(key, str) and re.fullmatch(r"[A-Za-z_][\w-]*", key):
            path = f"{self.path}.{key}" if self.path else key
        else:
            path = f"{self.path}[{key}]"
        return At(self.file, path, (mark_of(container, key) if container else None) or self.mark)

    def error(self, reason: str) -> DataError:
        line, col = self.mark if self.mark else (None, None)
        return DataError(self.file, self.path or "(top level)", reason, line, col)


class Schema:
    """A checker and converter of one kind of value."""

    #: the Python types this schema reads (used by :class:`Either` to pick an alternative)
    accepts: tuple[type, ...] = (object,)

    def check(self, value: Any, at: At) -> Any:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def wrong(self, value: Any, at: At) -> DataError:
        return at.error(f"must be {self.describe()}, not {_kind(value)}")


def _kind(value: Any) -> str:
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return f"{value!r} (true/false)"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return short(value)


class AnyValue(Schema):
    """Plain data of any shape (e.g. a reading whose type its Ruleset checks)."""

    def check(self, value, at):
        return value

    def describe(self):
        return "any value"


@dataclass(frozen=True)
class Int(Schema):
    """A whole number from ``lo`` to ``hi`` (``true``/``false`` are not numbers)."""

    lo: int | None = None
    hi: int | None = None
    accepts = (int,)

    def check(self, value, at):
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.wrong(value, at)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise at.error(f"must be {self.describe()}, not {value}")
        return value

    def describe(self):
        if self.lo is not None and self.hi is not None:
            return f"a whole number from {self.lo} to {self.hi}"
        if self.lo is not None:
            return f"a whole number of at least {self.lo}"
        if self.hi is not None:
            return f"a whole number of at most {self.hi}"
        return "a whole number"


@dataclass(frozen=True)
class Number(Schema):
    """A number (whole or decimal) from ``lo`` to ``hi``."""

    lo: float | None = None
    hi: float | None = None
    accepts = (int, float)

    def check(self, value, at):
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value != value:
            raise self.wrong(value, at)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise at.error(f"must be {self.describe()}, not {value}")
        return value

    def describe(self):
        return f"a number from {self.lo} to {self.hi}" if self.lo is not None else "a number"


@dataclass(frozen=True)
class Bool(Schema):
    """``true`` or ``false``."""

    accepts = (bool,)

    def check(self, value, at):
        if not isinstance(value, bool):
            raise self.wrong(value, at)
        return value

    def describe(self):
        return "true or false"


class Str(Schema):
    """Text; with ``choices``, one of them; with ``pattern``, matching it (a full match).

    ``key=True`` also reads a whole number as its text, for labels YAML reads as numbers (hex ``1316``).
    """

    accepts = (str,)

    def __init__(self, choices: Iterable[str] | None = None, pattern: str | None = None, min_len: int = 0,
                 max_len: int = 20_000, key: bool = False, what: str = ""):
        self.choices = None if choices is None else tuple(choices)
        self.pattern = re.compile(pattern) if pattern else None
        self.min_len, self.max_len, self.key, self.what = min_len, max_len, key, what
        if key:
            self.accepts = (str, int)

    def check(self, value, at):
        if self.key and isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            raise self.wrong(value, at)
        if self.choices is not None and value not in self.choices:
            raise at.error(f"{short(value)} is not {self.describe()}")
        if self.pattern is not None and not self.pattern.fullmatch(value):
            raise at.error(f"{short(value)} is not {self.describe()}")
        if not self.min_len <= len(value) <= self.max_len:
            raise at.error(f"must be {self.describe()} of {self.min_len} to {self.max_len} characters")
        return value

    def describe(self):
        if self.what:
            return self.what
        if self.choices is not None:
            shown = ", ".join(map(repr, self.choices[:12])) + (", ..." if len(self.choices) > 12 else "")
            return f"one of {shown}"
        return "text"


@dataclass(frozen=True)
class Const(Schema):
    """One fixed value (e.g. ``"every"``, or a format number)."""

    value: Any

    @property
    def accepts(self):
        return (type(self.value),)

    def check(self, value, at):
        if type(value) is not type(self.value) or value != self.value:
            raise self.wrong(value, at)
        return value

    def describe(self):
        return repr(self.value)


class Nullable(Schema):
    """``schema``, or empty (``~``/``null``), which reads as ``None``."""

    def __init__(self, schema: Schema):
        self.schema = schema
        self.accepts = tuple(schema.accepts) + (type(None),)

    def check(self, value, at):
        return None if value is None else self.schema.check(value, at)

    def describe(self):
        return f"{self.schema.describe()} or empty (~)"


class Either(Schema):
    """One of several schemas, chosen by the type of the value (text, a number, a list or a mapping)."""

    def __init__(self, *alternatives: Schema):
        self.alternatives = alternatives
        self.accepts = tuple(t for a in alternatives for t in a.accepts)

    def check(self, value, at):
        for alt in self.alternatives:
            if isinstance(value, alt.accepts) and not (isinstance(value, bool) and bool not in alt.accepts
                                                        and object not in alt.accepts):
                return alt.check(value, at)
        raise self.wrong(value, at)

    def describe(self):
        return " or ".join(a.describe() for a in self.alternatives)


class List(Schema):
    """A list of ``item``, with ``min_len`` to ``max_len`` entries (``unique``: no entry twice)."""

    accepts = (list,)

    def __init__(self, item: Schema, min_len: int = 0, max_len: int = 100_000, unique: bool = False,
                 tuple_: bool = False):
        self.item, self.min_len, self.max_len, self.unique, self.tuple_ = item, min_len, max_len, unique, tuple_

    def check(self, value, at):
        if not isinstance(value, list):
            raise self.wrong(value, at)
        if not self.min_len <= len(value) <= self.max_len:
            n = f"{self.min_len} to {self.max_len}" if self.max_len < 100_000 else f"at least {self.min_len}"
            raise at.error(f"must list {n} entries, not {len(value)}")
        out = [self.item.check(v, at.child(value, i)) for i, v in enumerate(value)]
        if self.unique:
            seen = set()
            for i, v in enumerate(out):
                key = repr(v)
                if key in seen:
                    raise at.child(value, i).error(f"repeats {short(v)}")
                seen.add(key)
        return tuple(out) if self.tuple_ else out

    def describe(self):
        return f"a list of {self.item.describe()}" if self.min_len == 0 else \
            f"a list of at least {self.min_len} ({self.item.describe()})"


class Tuple(Schema):
    """A list of fixed length, each entry with its own schema: ``[low, high]``, ``[hex, hex]``."""

    accepts = (list,)

    def __init__(self, *items: Schema):
        self.items = items

    def check(self, value, at):
        if not isinstance(value, list) or len(value) != len(self.items):
            raise at.error(f"must be {self.describe()}, not {_kind(value)}"
                           + (f" of {len(value)}" if isinstance(value, list) else ""))
        return tuple(s.check(v, at.child(value, i)) for i, (s, v) in enumerate(zip(self.items, value)))

    def describe(self):
        return f"a list of {len(self.items)} ({', '.join(s.describe() for s in self.items)})"


class Map(Schema):
    """A mapping whose keys are all read by ``key`` and values by ``value`` (hexes by label, rows by roll)."""

    accepts = (dict,)

    def __init__(self, key: Schema, value: Schema, min_len: int = 0, max_len: int = 100_000):
        self.key, self.value, self.min_len, self.max_len = key, value, min_len, max_len

    def check(self, value, at):
        if not isinstance(value, dict):
            raise self.wrong(value, at)
        if not self.min_len <= len(value) <= self.max_len:
            raise at.error(f"must have {self.min_len} to {self.max_len} entries, not {len(value)}")
        out = {}
        for k, v in value.items():
            where = at.child(value, k)
            ck = self.key.check(k, where)
            if ck in out:
                raise where.error(f"names {short(ck)} twice")
            out[ck] = self.value.check(v, where)
        return out

    def describe(self):
        return f"a mapping of {self.key.describe()} to {self.value.describe()}"


@dataclass(frozen=True)
class Opt:
    """An optional field of a :class:`Record` and the value it takes when left out."""

    schema: Schema
    default: Any = None


class Record(Schema):
    """A mapping with named fields: every ``required`` field present, ``optional`` ones may be left out, and
    no other key. ``check(values)`` tests what the fields say together; ``build(values)`` makes the object."""

    accepts = (dict,)

    def __init__(self, required: dict[str, Schema], optional: dict[str, Opt | Schema] | None = None,
                 build: Callable[[dict], Any] | None = None, check: Callable[[dict], None] | None = None,
                 what: str = "a mapping"):
        self.required = required
        self.optional = {k: v if isinstance(v, Opt) else Opt(v) for k, v in (optional or {}).items()}
        self.build, self.cross, self.what = build, check, what

    @property
    def fields(self) -> dict[str, Schema]:
        return {**self.required, **{k: o.schema for k, o in self.optional.items()}}

    def check(self, value, at):
        if not isinstance(value, dict):
            raise self.wrong(value, at)
        for k in value:
            if k not in self.required and k not in self.optional:
                known = ", ".join(sorted(map(str, self.fields)))
                raise at.child(value, k).error(f"is not a field here (the fields are {known})")
        out = {}
        for k, schema in self.required.items():
            if k not in value:
                raise at.child({}, k).error("is missing (it is required)")
            out[k] = schema.check(value[k], at.child(value, k))
        for k, opt in self.optional.items():
            out[k] = opt.schema.check(value[k], at.child(value, k)) if k in value else opt.default
        if self.cross is not None:
            placed(self.cross, out, at, value)
        return placed(self.build, out, at, value) if self.build is not None else out

    def describe(self):
        return self.what


class Convert(Schema):
    """``schema``, then ``fn`` on its result; a ``ValueError`` or ``DataError`` from ``fn`` is placed here."""

    def __init__(self, schema: Schema, fn: Callable[[Any], Any], what: str = ""):
        self.schema, self.fn, self.what = schema, fn, what
        self.accepts = schema.accepts

    def check(self, value, at):
        return placed(self.fn, self.schema.check(value, at), at, value)

    def describe(self):
        return self.what or self.schema.describe()


def placed(fn: Callable, arg: Any, at: At, raw: Any) -> Any:
    """Call ``fn(arg)``; a ValueError, DataError or :class:`Invalid` from it is placed at ``at``.

    A DataError whose field is a path under the record (``"units[1].hex"``) is placed at that field's line.
    """
    try:
        return fn(arg)
    except Invalid as e:
        where = at
        if e.path:
            line = locate(raw, e.path) if raw is not None else None
            where = At(at.file, f"{at.path}.{e.path}" if at.path and not e.path.startswith("[") else
                       f"{at.path}{e.path}" if at.path else e.path, line or at.mark)
        raise where.error(e.reason) from None
    except ValueError as e:
        raise at.error(str(e)) from None
    except DataError as e:
        if e.file == at.file:
            raise
        raise at.error(e.reason) from None


class Invalid(Exception):
    """Raised by a record's ``check`` for a field under it: ``Invalid("units[1].hex", "is off the map")``."""

    def __init__(self, path: str, reason: str):
        self.path, self.reason = path, reason
        super().__init__(f"{path}: {reason}")


# --------------------------------------------------------------------------- files

def load_file(path: str | Path, schema: Schema, data: Any = None) -> Any:
    """Read ``path`` with the safe reader (or take ``data`` already read) and check it against ``schema``.

    A DataError raised afterwards by the caller can still be placed with :func:`place`.
    """
    if data is None:
        data = read_yaml(path)
    return schema.check(data, At(str(path), "", getattr(data, "mark", None)))


def place(error: DataError, root: Any) -> DataError:
    """Give a DataError about a field of ``root`` (a file read by :func:`read_yaml`) that field's line."""
    if error.line is None:
        mark = locate(root, error.field)
        if mark is not None:
            error.at(*mark)
    return error


# --------------------------------------------------------------------------- common shapes

def IntRange(lo: int, hi: int) -> Schema:
    """``[low, high]`` with ``lo <= low <= high <= hi``."""
    def ordered(pair):
        if pair[0] > pair[1]:
            raise ValueError(f"must be [low, high] with low <= high, not [{pair[0]}, {pair[1]}]")
        return pair
    return Convert(Tuple(Int(lo, hi), Int(lo, hi)), ordered, f"[low, high] from {lo} to {hi}")


__all__ = ["AnyValue", "At", "Bool", "Const", "Convert", "Either", "Int", "IntRange", "Invalid", "List", "Map",
           "Nullable", "Number", "Opt", "Record", "Schema", "Str", "Tuple", "load_file", "place"]
