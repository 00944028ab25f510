"""Deep copies that share what cannot change: for the records and charts that games copy on their hot paths
(enumeration, undo, the shipped charts handed out by :func:`~wargames.core.yamlio.load_once`)."""
from __future__ import annotations

import copy
import datetime as dt
from enum import Enum
from fractions import Fraction
from typing import Any

IMMUTABLE = (str, int, float, Fraction, bool, type(None), frozenset)


def valued_deepcopy(self, memo):
    """``__deepcopy__`` for a frozen (value, provenance) record: the record itself when its value cannot change
    (nothing in it can), else a record with a copy of the value."""
    if isinstance(self.value, IMMUTABLE) or (isinstance(self.value, tuple) and all(
            isinstance(v, IMMUTABLE) for v in self.value)):
        return self
    return type(self)(copy.deepcopy(self.value, memo), self.provenance)


#: the types of values that cannot change once made (and any Enum member): a copy shares them. Each class
#: marked :func:`immutable` (hexes, provenance, columns, ...) is added as it is marked.
PLAIN_TYPES: set[type] = {*IMMUTABLE, dt.date}


def immutable(cls: type) -> type:
    """Mark a frozen class whose every value is immutable: its deep copy is the object itself (copies of maps,
    charts and game states then cost little), and :func:`deepcopy_value` shares it without a call. Use it only
    where nothing inside can change."""
    cls.__deepcopy__ = lambda self, memo: self
    PLAIN_TYPES.add(cls)
    return cls


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
        copier = getattr(kind, "__deepcopy__", None)      # a record's own copy, without copy.deepcopy's dispatch
        if copier is None:
            return copy.deepcopy(value, memo)
        out = memo[id(value)] = copier(value, memo)
    return out
