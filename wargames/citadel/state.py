"""The game state: the map, every unit's status, the date and phase, and per-phase bookkeeping.

State is plain data. Procedures that change it work on a copy (see
:func:`CitadelState.copy`), so any earlier state is a snapshot for undo.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Iterable

from ..core import Hex
from ..core.errors import DataError
from ..core.mapdata import MapData
from ..core.mapdata import copy_sharing
from ..core.copies import deepcopy_value
from .units import Counter, Side, UnitClass, UnitState, placements_changed

START_DATE = dt.date(1954, 3, 13)
LAST_DATE = dt.date(1954, 5, 7)          # the fall of the camp; the last turn of Scenario 8


def battle_date(value) -> dt.date:
    """A date of the battle, read from a data file (an ISO string or a date); raises ValueError otherwise."""
    if isinstance(value, str):
        try:
            value = dt.date.fromisoformat(value)
        except ValueError:
            raise ValueError(f"{value!r} is not a date such as 1954-03-17") from None
    if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
        raise ValueError("must be a date such as 1954-03-17")
    if not START_DATE <= value <= LAST_DATE:
        raise ValueError(f"must fall within the battle, {START_DATE} to {LAST_DATE}, not {value}")
    return value


#: The fields of :class:`CitadelState` whose sets, lists and dicts hold only immutable values.
_FLAT_FIELDS = frozenset({"fired", "fired_at", "phase_losses", "weapons_moved_in", "fired_in", "moved_in",
                          "fired_in_fire_phase", "strength_at_start", "works", "control", "dug_in", "hq_zones",
                          "repairable", "returned"})


@dataclass
class CitadelState:
    map: MapData
    units: dict[str, UnitState]
    date: dt.date = START_DATE
    phase_index: int = 0          # counts phases from the start, across turns
    phase: str = "VM movement"
    # per-phase bookkeeping, cleared when a phase ends
    fired: set[str] = field(default_factory=set)
    fired_at: set[str] = field(default_factory=set)
    phase_losses: dict[str, int] = field(default_factory=dict)
    # longer-lived facts
    weapons_moved_in: dict[str, int] = field(default_factory=dict)   # unit -> phase index it last moved
    fired_in: dict[str, int] = field(default_factory=dict)           # unit -> phase index it last fired
    moved_in: dict[str, int] = field(default_factory=dict)
    fired_in_fire_phase: dict[str, int] = field(default_factory=dict)  # unit -> phase index (fire phases only)
    strength_at_start: dict[str, int] = field(default_factory=dict)    # strength before this fire phase's losses
    fire_phase_start: int = 0     # phase index where the current fire phase began (its steps fire as one, C 9)
    player_turn_start: int = 0    # phase index of the current player turn's movement phase
    charts: tuple | None = None   # (fire CRT, range table, TEC) of the game's ruleset; None: the shipped ones
    melee_crt: object = None      # the Melee Combat Table of the game's ruleset; None: the shipped one
    # layers over the read-only map, changed by play
    works: dict[Hex, str] = field(default_factory=dict)      # C 18: trench, tunnel or weapons_pit per hex
    control: dict[str, Side] = field(default_factory=dict)   # C 12.B.4: strongpoint -> who last held or passed
    dug_in: dict[str, int] = field(default_factory=dict)     # C 18: battalion -> phase index it last dug in
    hq_zones: dict[str, str] = field(default_factory=dict)   # C 12.B.3: regiment -> zone of its HQ marker
    repairable: list[str] = field(default_factory=list)      # C 19.E: tanks one repair roll of 1 may fix
    returned: list[str] = field(default_factory=list)        # C 12: units that fell back this return phase
    setup: object = None          # SR 2: what is still to be placed (setup.SetupBook)
    setup_stage: str = ""
    start_phase: str = "weather"  # where play begins after the set-up (Sc 2 begins with the French movement)
    vm_losses: int = 0            # SR 3: the Vietminh Cumulative Loss Scale (strength points lost)
    melee: dict = field(default_factory=dict)                # C 11: this melee phase's attacks (melee.py)
    supply: "Supply | None" = None    # C 20-24: stocks (supply.py); None: played without Section I
    reserves: "Reserves | None" = None  # C 15-16: replacement pools and schedule (replacements.py; made on use)
    readings: dict = field(default_factory=dict)             # the ruleset's readings, for the optional rules
    rockets: dict = field(default_factory=dict)              # C 35: the day's rocket salvo (optional.py)
    air: object | None = None     # C 25-C 33: the Air Chart (air.AirState); None: the basic game, no aircraft
    air_charts: object | None = None   # the Air Chart's tables (air_charts.AirCharts); None: the shipped ones

    @classmethod
    def build(cls, m: MapData, placements: Iterable[tuple[Counter, str | None]], **kw) -> "CitadelState":
        units = {}
        for counter, label in placements:
            if counter.id in units:
                raise DataError("placements", counter.id, "the same counter is placed twice")
            units[counter.id] = UnitState(counter, m.hex(label) if label else None)
        state = cls(m, units, **kw)
        from .terrain import entrenchment
        for h in m.hexes:
            works = entrenchment(m, h)
            if works:
                state.works[h] = works
        from .strongpoints import note_occupation
        note_occupation(state)
        return state

    def __deepcopy__(self, memo) -> "CitadelState":
        """A deep copy written out for the hot path (every undo snapshot and enumerated branch makes one): the
        fields that hold only immutable values (ids, numbers, hexes, sides) are copied one level, the units by
        their own copy, and every other field by ``deepcopy_value``, so a field added later is copied deeply
        unless it is named in :data:`_FLAT_FIELDS`. The unit index by hex is not copied: it is rebuilt on first
        use. Like ``copy.deepcopy``, it copies an object once however often it is reached (through ``memo``)."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        fields = new.__dict__
        for name, value in self.__dict__.items():
            if name == "_at":
                continue
            copied = memo.get(id(value))
            if copied is None:
                if name in _FLAT_FIELDS:
                    copied = memo[id(value)] = value.copy()
                elif name == "units":
                    copied = memo[id(value)] = {uid: memo.get(id(u)) or u.__deepcopy__(memo)
                                                     for uid, u in value.items()}
                else:
                    copied = deepcopy_value(value, memo)
            fields[name] = copied
        return new

    def copy(self) -> "CitadelState":
        """An independent copy; the map and the charts, which never change, are shared."""
        return copy_sharing(self, "map", "charts", "melee_crt", "air_charts")

    def tables(self) -> tuple:
        """The fire CRT, range table and terrain effects this game is played with (C 9, C 13)."""
        if self.charts is None:                 # the shipped ones, read for this game once (its copies share them)
            from .charts import default_charts
            self.charts = default_charts()
        return self.charts

    def mct(self):
        """The Melee Combat Table this game is played with (C 11)."""
        if self.melee_crt is None:
            from .charts import Ruleset
            self.melee_crt = Ruleset.default().chart("melee_crt")
        return self.melee_crt

    # -- lookups
    def unit(self, uid: str) -> UnitState:
        try:
            return self.units[uid]
        except KeyError:
            raise DataError("state", uid, "no such unit") from None

    def on_board(self, side: Side | None = None) -> list[UnitState]:
        return [u for u in self.units.values() if u.on_board and (side is None or u.side is side)]

    def units_at(self, h: Hex, side: Side | None = None) -> list[UnitState]:
        """The units on the board in hex ``h`` (of ``side``), in roster order, from an index rebuilt after any
        unit moves, leaves or dies."""
        index = self.__dict__.get("_at")
        if index is None or index[0] != placements_changed[0] or index[1] != len(self.units):
            by_hex: dict = {}
            for u in self.units.values():
                if u.on_board:
                    by_hex.setdefault(u.hex, []).append(u)
            index = self.__dict__["_at"] = (placements_changed[0], len(self.units), by_hex)
        return [u for u in index[2].get(h, ()) if side is None or u.side is side]

    def ground_units(self, side: Side | None = None) -> list[UnitState]:
        return self.on_board(side)

    def label(self, h: Hex) -> str:
        return self.map.label(h)

    def infantry_at(self, h: Hex, side: Side | None = None) -> list[UnitState]:
        return [u for u in self.units_at(h, side) if u.counter.cls is UnitClass.INFANTRY]

