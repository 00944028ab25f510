"""Pieces of game state the games share."""
from __future__ import annotations


class CounterState:
    """A printed counter in play: its id and side are read from the counter (``self.counter``)."""

    @property
    def id(self) -> str:
        return self.counter.id

    @property
    def side(self):
        return self.counter.side
