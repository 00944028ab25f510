"""A No Trumpets No Drums position: where every counter is, face up or inverted, and the war's bookkeeping.

The rules read a position through this one class: the pieces on the map and in the off-board zones (NT 9), the
Allied dead pile and purchases waiting on the Turn Record (NT 4.2.3, 4.2.7), withdrawn units (NT 4.3.2), the
Hearts and Minds markers (NT 7), the political track and the political state (NT 22-27, :mod:`.politics`), the
neutral states (NT 10), the replacement points in each pool (NT 4.2.2-4.2.6), the air box (NT 11.2) and the
once-per-game random events (NT 21.2). The map and the counter mix are shared, never copied.

A location is a hex label of the map (``"1207"``) or the name of an off-board zone (``"Hanoi"``). Every
Communist counter that is not on the map, in a zone or in the dead pile is in the counter mix, available to
recruit (NT 4.1.6, 4.4); an eliminated Communist unit goes back to the mix.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Iterable

from ..core import implements
from ..core.errors import DataError, RuleViolation
from ..core.hexgrid import Hex
from .geography import Geography, shipped_map
from .politics import Policy, PoliticalTrack
from .units import POOLS, Counter, CounterMix, as_arvn, counter_mix

SIDES = ("communist", "allied")
NEUTRAL_STATES = ("Laos", "Cambodia")
#: NT 10: a neutral state's standing; it leaves "neutral" for good when one side violates it or it falls
STANDINGS = ("neutral", "allied", "communist")
AIR_BOXES = ("available", "unavailable")     # NT 11.2


@dataclass(frozen=True)
class Piece:
    """One counter in play: where it is, whether it is face up (NT 6.2), the corps it is attached to (NT 5.2) and
    the turn-long marks the rules put on it."""

    id: str
    location: str
    face_up: bool = True
    corps: str | None = None
    marks: frozenset[str] = frozenset()

    def marked(self, mark: str) -> bool:
        return mark in self.marks


#: 11.1.4: the mark of a helicopter placed with the ground unit it carries (the unit's id follows)
TRANSPORT_MARK = "transport:"


@dataclass
class NtndState:
    """The whole position. ``turn`` counts from 1 (Mar/Apr 1965); ``phase`` names the phase being played."""

    turn: int
    phase: str
    pieces: dict[str, Piece] = field(default_factory=dict)
    dead: set[str] = field(default_factory=set)                 # Allied units eliminated, replaceable (4.2.3)
    purchased: dict[str, int] = field(default_factory=dict)     # unit -> the turn it arrives (4.2.7)
    withdrawn: set[str] = field(default_factory=set)            # never to return (4.3.2, 23.7)
    hearts_minds: dict[str, str] = field(default_factory=dict)  # area -> box of the H&M track (7)
    track: PoliticalTrack = PoliticalTrack(100)
    policy: Policy = Policy()
    standing: dict[str, str] = field(default_factory=lambda: {c: "neutral" for c in NEUTRAL_STATES})
    replacement_points: dict[str, Fraction] = field(default_factory=lambda: {p: Fraction(0) for p in POOLS})
    air: dict[str, str] = field(default_factory=dict)           # Allied air unit -> "available"/"unavailable"
    events_occurred: frozenset[int] = frozenset()               # once-per-game random events (21.2)
    drafts_this_year: int = 0                                   # 4.5.3
    armour_shock_turn: int | None = None                        # 28.8: the turn of the NVA armour shock, once come
    bought_anytime: frozenset[str] = frozenset()   # 28.3.2 (an option): brigades bought, not scheduled arrivals
    transferred: frozenset[str] = frozenset()      # 24.3.5: US gunships and firebases handed to the ARVN
    next_turn: object | None = None     # what the last random event leaves to the next turn (events.NextTurn)
    geography: Geography = field(default_factory=shipped_map, repr=False, compare=False)
    mix: CounterMix = field(default_factory=counter_mix, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_location: dict[str, list[str]] | None = None
        self._pieces_token = object()          # replaced whenever a piece changes
        self._derived: dict = {}

    def _changed(self) -> None:
        self._by_location = None
        self._pieces_token = object()

    def derived(self, key: tuple, compute):
        """A value worked out from the pieces (zones of control, say), remembered until a piece changes and
        shared with copies made before that. ``key`` must hold whatever else the value depends on (the track,
        the policy, the standing of the neutral states)."""
        k = (self._pieces_token, key)
        if k not in self._derived:
            if len(self._derived) > 256:
                self._derived.clear()
            self._derived[k] = compute()
        return self._derived[k]

    # --- copies: the map and the mix are shared; pieces are immutable, so dicts are copied shallowly -------------
    def copy(self) -> "NtndState":
        new = copy.copy(self)
        new.pieces = dict(self.pieces)
        new.dead, new.withdrawn = set(self.dead), set(self.withdrawn)
        new.purchased, new.hearts_minds = dict(self.purchased), dict(self.hearts_minds)
        new.standing, new.replacement_points, new.air = dict(self.standing), dict(self.replacement_points), \
            dict(self.air)
        return new           # the location index and the derived values are shared until a piece changes

    def __deepcopy__(self, memo) -> "NtndState":
        return self.copy()

    # --- counters ----------------------------------------------------------------------------------------------
    def counter(self, unit: str) -> Counter:
        """The counter as the rules read it now: a US gunship or firebase handed to the ARVN reads as South
        Vietnamese (24.3.5)."""
        c = self.mix.get(unit)
        return as_arvn(c) if unit in self.transferred else c

    def side_of(self, unit: str) -> str:
        return self.counter(unit).side

    def piece(self, unit: str) -> Piece:
        try:
            return self.pieces[unit]
        except KeyError:
            raise RuleViolation("NT 4.4", f"{unit} is not in play") from None

    def place(self, unit: str, location: str, *, face_up: bool = True, corps: str | None = None) -> Piece:
        """Put a counter of the mix into play (recruitment, reinforcement, set-up)."""
        self.counter(unit)
        if unit in self.pieces:
            raise RuleViolation("NT 4.4", f"{unit} is already in play at {self.pieces[unit].location}")
        if unit in self.withdrawn:
            raise RuleViolation("NT 4.3.2", f"{unit} has been withdrawn and may not return")
        self._check_location(location)
        piece = Piece(unit, location, face_up, corps)
        self.pieces[unit] = piece
        self.dead.discard(unit)
        self._changed()
        return piece

    def update(self, unit: str, **changes) -> Piece:
        """Change a piece (its location, face or marks). A helicopter carrying the unit goes where it goes
        (11.1.4)."""
        if "location" in changes:
            self._check_location(changes["location"])
            heli = self.helicopter_of(unit)
            if heli is not None:
                self.pieces[heli] = replace(self.pieces[heli], location=changes["location"])
        piece = replace(self.piece(unit), **changes)
        self.pieces[unit] = piece
        self._changed()
        return piece

    def helicopter_of(self, unit: str) -> str | None:
        """11.1.4: the helicopter attached to a ground unit, if any (its mark names the unit)."""
        mark = TRANSPORT_MARK + unit
        return next((u for u, p in self.pieces.items() if mark in p.marks), None)

    def carries(self, unit: str) -> str | None:
        """11.1.4: the ground unit a helicopter is attached to (None: it carries none)."""
        mark = next((m for m in self.piece(unit).marks if m.startswith(TRANSPORT_MARK)), None)
        return None if mark is None else mark[len(TRANSPORT_MARK):]

    @implements("NT 4.1.2", "NT 4.2.3")
    def remove(self, unit: str, *, eliminated: bool = True) -> None:
        """Take a counter out of play. An eliminated Allied unit goes to the dead pile (4.2.3); a Communist one
        (or a dummy turned face up, 4.1.2) goes back to the counter mix."""
        self.piece(unit)
        del self.pieces[unit]
        self._changed()
        if eliminated and self.side_of(unit) == "allied":
            self.dead.add(unit)

    def withdraw(self, unit: str) -> None:
        """NT 4.3.1-4.3.2: out of play for good (from the map, the dead pile or the Turn Record)."""
        self.pieces.pop(unit, None)
        self.dead.discard(unit)
        self.purchased.pop(unit, None)
        self.withdrawn.add(unit)
        self._changed()

    def _check_location(self, location: str) -> None:
        if location in self.geography.zones:
            return
        try:
            self.geography.hex(location)
        except (KeyError, ValueError, DataError) as e:
            raise RuleViolation("NT 9", f"{location!r} is neither a hex of the map nor an off-board zone") from e

    # --- where things are ------------------------------------------------------------------------------------
    def at(self, location: str) -> list[str]:
        """The units in a hex or zone, in the order they were put there."""
        if self._by_location is None:
            index: dict[str, list[str]] = {}
            for unit, piece in self.pieces.items():
                index.setdefault(piece.location, []).append(unit)
            self._by_location = index
        return list(self._by_location.get(location, ()))

    def in_zone(self, unit: str) -> bool:
        return self.piece(unit).location in self.geography.zones

    def hex_of(self, unit: str) -> Hex | None:
        """The unit's hex, or None in an off-board zone."""
        location = self.piece(unit).location
        return None if location in self.geography.zones else self.geography.hex(location)

    def area_of(self, location: str) -> str | None:
        """The corps area or country of a hex (I-IV, Laos, Cambodia, NV), or the zone's country area."""
        if location in self.geography.zones:
            return self.geography.zone(location).country
        return self.geography.area(self.geography.hex(location))

    def units(self, side: str | None = None, *, face_up: bool | None = None,
              area: str | None = None) -> list[str]:
        """Units in play, filtered by side, face and the area they are in."""
        out = []
        for unit, piece in self.pieces.items():
            if side is not None and self.side_of(unit) != side:
                continue
            if face_up is not None and piece.face_up != face_up:
                continue
            if area is not None and self.area_of(piece.location) != area:
                continue
            out.append(unit)
        return out

    def side_at(self, location: str) -> str | None:
        """The side whose units occupy a location (the rules never let both share one), or None if empty."""
        units = self.at(location)
        return self.side_of(units[0]) if units else None

    @implements("NT 4.4", "NT 4.1.6")
    def available(self, side: str, **filters) -> tuple[Counter, ...]:
        """Counters of the mix a side may bring into play now: not in play, not withdrawn, not waiting on the
        Turn Record, and, for the Allies, not in the dead pile (those are bought back, 4.2.3)."""
        in_use = set(self.pieces) | self.withdrawn | set(self.purchased) | self.dead
        return self.mix.available(in_use, side=side, **filters)

    def in_play(self, units: Iterable[str]) -> bool:
        return all(u in self.pieces for u in units)
