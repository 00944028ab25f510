"""Pieces of game state the games share."""
from __future__ import annotations

import copy
import datetime as dt
from enum import Enum
from fractions import Fraction
from typing import Any

from .hexgrid import Hex

#: values that cannot change once made: a copy shares them
PLAIN = (str, int, float, bool, type(None), Fraction, Enum, Hex, frozenset, dt.date)


class CounterState:
    """A printed counter in play: its id and side are read from the counter (``self.counter``)."""

    @property
    def id(self) -> str:
        return self.counter.id

    @property
    def side(self):
        return self.counter.side


def record_deepcopy(self: Any, memo: dict) -> Any:
    """``copy.deepcopy`` of a record (a class whose fields hold plain values, lists, dicts and sets of them,
    and other records), written for the hot paths of enumeration and undo: it shares plain values and tuples
    of them, copies a list, dict or set of plain values one level, and hands anything else to
    ``copy.deepcopy``. Like ``copy.deepcopy`` it copies an object once however often it is reached (``memo``).
    Set it as a class's ``__deepcopy__``."""
    new = object.__new__(type(self))
    memo[id(self)] = new
    fields = new.__dict__
    for name, value in self.__dict__.items():
        fields[name] = value if isinstance(value, PLAIN) else _copied(value, memo)
    return new


def _copied(value: Any, memo: dict) -> Any:
    done = memo.get(id(value))
    if done is not None:
        return done
    kind = type(value)
    if kind is tuple and all(isinstance(v, PLAIN) for v in value):
        return value
    if kind is list and all(isinstance(v, PLAIN) for v in value):
        out: Any = list(value)
    elif kind is dict and all(isinstance(v, PLAIN) for v in value.values()):
        out = dict(value)               # keys are hashable, so they do not change either
    elif kind is set and all(isinstance(v, PLAIN) for v in value):
        out = set(value)
    else:
        return copy.deepcopy(value, memo)
    memo[id(value)] = out
    return out
