"""The field shapes Indochina's data files share, and the one way a chart file is read.

Each chart module declares its file type once as a :class:`~wargames.core.schema.Record`; the pieces here
are the fields several of them use (a side, a name, a rule id, a provenance that falls back on the file's).
:func:`load_chart` reads a file with the safe reader and checks it, so every error names the file, the path
to the field and its line. Nothing is cached: each call reads the file again and returns new objects.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from ..core.charts import PROVENANCE, Provenance, file_provenance
from ..core.schema import At, Convert, Int, Invalid, Opt, Schema, Str, load_file
from ..core.yamlio import mark_of, read_yaml
from .sides import Side

NAME = Str(min_len=1, max_len=200)                 # a chart's, unit type's or place's name
RULE = Str(min_len=1, max_len=40)                  # a rule id such as "IC 7.21"
TEXT = Str()                                       # free text: meanings, effects, notes
SIDE = Convert(Str(tuple(s.value for s in Side), what="a side (FEF or Communist)"), Side)
POINTS = Int(0, 99)                                # political or supply points of one entry
DIE_ROLL = Int(1, 6)

#: the fields every chart file may have besides its own: a name, a rule, a default provenance and notes
HEADER = {"name": NAME, "rule": RULE}
HEADER_OPTIONAL = {"provenance": Opt(PROVENANCE), "notes": Opt(Str(), "")}


def provenance(default: Provenance) -> Opt:
    """An optional ``provenance`` field that falls back on the file's ``default``."""
    return Opt(PROVENANCE, default)


_RULESET: list = []          # the Ruleset class, then the one default ruleset the procedures read


def hold_ruleset(ruleset: type) -> None:
    """Called by :mod:`wargames.indochina.ruleset` (which imports every chart module) with its class."""
    _RULESET[:] = [ruleset]


def shipped(name: str) -> Any:
    """A shipped chart as a procedure reads it when its caller passes none.

    One default ruleset a process holds these, and the procedures only read them. For a chart of your own
    (to change or keep), call its loader or :func:`fresh`: each gives a new copy.
    """
    if len(_RULESET) == 1:
        _RULESET.append(_RULESET[0].default())
    return _RULESET[1].chart(name)


def fresh(name: str) -> Any:
    """A new copy of a shipped chart (``Ruleset.default().chart(name)``)."""
    return _RULESET[0].default().chart(name)


def load_chart(path: str | Path, schema_for: Callable[[Provenance], Schema], data: Any = None) -> Any:
    """Read a chart file and check it with ``schema_for(default)``, where ``default`` is the file's own
    top-level provenance (``printed`` for an owner's file without one)."""
    file = str(path)
    raw = read_yaml(path) if data is None else data
    own = None
    if isinstance(raw, dict) and "provenance" in raw:
        own = PROVENANCE.check(raw["provenance"], At(file, "provenance", mark_of(raw, "provenance")))
    return load_file(path, schema_for(file_provenance(path, own)), raw)


def field_path(*parts: str | int) -> str:
    """A field path written the way the schema writes it: ``field_path("lines", "AT", 0)`` is ``lines.AT[0]``,
    ``field_path("lines", "3-4")`` is ``lines[3-4]``."""
    at = At("", str(parts[0]))
    for p in parts[1:]:
        at = at.child([] if isinstance(p, int) else {}, p)
    return at.path


def every_roll(rolls: range | tuple, table: str) -> Callable[[dict], None]:
    """A check that the mapping ``table`` of a record has exactly one entry for each roll of ``rolls``."""
    def check(v: dict) -> None:
        for n in rolls:
            if n not in v[table]:
                raise Invalid(field_path(table, n), f"is missing: the table needs every roll from {rolls[0]} to "
                                               f"{rolls[-1]}")
        for n in v[table]:
            if n not in rolls:
                raise Invalid(field_path(table, n), f"is not a roll of this table ({rolls[0]} to {rolls[-1]})")
    return check

__all__ = ["DIE_ROLL", "HEADER", "HEADER_OPTIONAL", "Invalid", "NAME", "POINTS", "RULE", "SIDE", "TEXT",
           "every_roll", "field_path", "load_chart", "fresh", "hold_ruleset", "provenance", "shipped"]
