"""Pieces of game state the games share."""
from __future__ import annotations

import copy
import datetime as dt
from enum import Enum
from typing import Any

from .charts import IMMUTABLE
from .hexgrid import Hex

#: the types of values that cannot change once made (and any Enum member): a copy shares them
PLAIN_TYPES = frozenset(IMMUTABLE) | {Hex, dt.date}


class CounterState:
    """A printed counter in play: its id and side are read from the counter (``self.counter``)."""

    @property
    def id(self) -> str:
        return self.counter.id

    @property
    def side(self):
        return self.counter.side


def record_deepcopy(self: Any, memo: dict) -> Any:
    """``copy.deepcopy`` of a record (an object whose fields hold plain values, lists, dicts, sets and tuples of
    them, and other records), written for the hot paths of enumeration and undo: see :func:`deepcopy_value`.
    Set it as a class's ``__deepcopy__``."""
    new = object.__new__(type(self))
    memo[id(self)] = new
    fields = new.__dict__
    for name, value in self.__dict__.items():
        fields[name] = value if type(value) in PLAIN_TYPES else deepcopy_value(value, memo)
    return new


def deepcopy_value(value: Any, memo: dict) -> Any:
    """``copy.deepcopy(value, memo)``, faster for plain data: plain values (:data:`PLAIN_TYPES`, Enum members)
    are shared, and lists, dicts, sets and tuples are copied here, element by element, without the generic
    dispatch; anything else goes to ``copy.deepcopy``. Like it, each container is copied once however often it
    is reached (``memo``), and a tuple whose elements all stay the same is shared."""
    kind = type(value)
    if kind in PLAIN_TYPES or isinstance(value, Enum):
        return value
    done = memo.get(id(value))
    if done is not None:
        return done
    if kind is list:
        out: Any = []
        memo[id(value)] = out
        out.extend(v if type(v) in PLAIN_TYPES else deepcopy_value(v, memo) for v in value)
    elif kind is dict:
        out = {}
        memo[id(value)] = out
        for k, v in value.items():
            out[k if type(k) in PLAIN_TYPES else deepcopy_value(k, memo)] = \
                v if type(v) in PLAIN_TYPES else deepcopy_value(v, memo)
    elif kind is set:
        out = {v if type(v) in PLAIN_TYPES else deepcopy_value(v, memo) for v in value}
        memo[id(value)] = out
    elif kind is tuple:
        items = [v if type(v) in PLAIN_TYPES else deepcopy_value(v, memo) for v in value]
        done = memo.get(id(value))            # copied meanwhile, through a container inside it
        if done is not None:
            return done
        if all(a is b for a, b in zip(items, value)):
            return value
        out = memo[id(value)] = tuple(items)
    else:
        return copy.deepcopy(value, memo)
    return out
