"""Shared vocabulary of play: the two sides of a two-player game and the sequence of play as data."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Iterator


class Side(str, Enum):
    """Base of each game's two sides (a subclass lists exactly two members); ``side.enemy`` is the other."""

    @property
    def enemy(self) -> "Side":
        other = _ENEMY.get(id(self))        # remembered: iterating an Enum class is slow, and play asks often
        if other is None:
            a, b = type(self)
            other = _ENEMY[id(self)] = b if self is a else a
        return other


_ENEMY: dict[int, Side] = {}     # id of a side -> the other side (members live as long as their class)


@dataclass(frozen=True)
class Phase:
    """One phase of a sequence of play: its id, whose phase it is (None: both or neither), what happens."""

    id: str
    side: object | None
    kind: str
    rule: str = ""


class Sequence(tuple):
    """The phases of a game turn in order; after the last comes the first phase of the next turn."""

    def __new__(cls, phases):
        phases = tuple(phases)
        ids = [p.id for p in phases]
        if len(set(ids)) != len(ids):
            raise ValueError("two phases share an id")
        return super().__new__(cls, phases)

    def index_of(self, phase_id: str) -> int:
        for i, p in enumerate(self):
            if p.id == phase_id:
                return i
        raise KeyError(f"no phase {phase_id!r} in this sequence of play")

    def after(self, index: int) -> tuple[int, bool]:
        """The index of the next phase, and whether a new turn begins with it."""
        return (index + 1, False) if index + 1 < len(self) else (0, True)

    def of_kind(self, kind: str) -> Iterator[Phase]:
        return (p for p in self if p.kind == kind)
