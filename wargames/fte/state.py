"""The FTE position: map, charts, errata readings, units, markers, the chit cup and the score.

Plain data; the procedures in the rule modules work on it and report :class:`~wargames.core.Resolution` s.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Iterable

from ..core import Hex, Resolution, implements
from ..core.errors import DataError, RuleViolation
from ..core.mapdata import MapData
from .charts import Charts, default_charts
from .errata import ERRATA, Readings
from .units import CasualtyMarker, Site, Unit, player

PLAYERS = ("US", "NVA/VC")


@dataclass
class ChitCup:
    """Activation chits (F 5.0): how many each player owns, and which are still in the cup this turn."""

    chits: dict[str, int] = field(default_factory=lambda: {"US": 0, "NVA/VC": 0})
    random_event: bool = True
    cup: list[str] = field(default_factory=list)   # "US", "NVA/VC", "event"

    def refill(self) -> None:
        """Put every chit back in the cup (F 20.0), sorted so that draws by die roll replay exactly."""
        self.cup = ["US"] * self.chits["US"] + ["NVA/VC"] * self.chits["NVA/VC"] + (["event"] if self.random_event else [])


@dataclass
class FireMission:
    """A requested fire mission (F 13.0, F 19.9) waiting to execute."""

    side: str          # "US" or "NVA/VC"
    mission: str       # "BN Mortar" or "ARTY"
    target: Hex
    turn: int          # the turn it executes in
    requester: str = ""


@dataclass
class FteState:
    map: MapData
    units: dict[str, Unit] = field(default_factory=dict)
    casualties: dict[str, CasualtyMarker] = field(default_factory=dict)
    sites: dict[str, Site] = field(default_factory=dict)
    charts: Charts = field(default_factory=default_charts)
    readings: Readings = ERRATA
    turn: int = 1
    last_turn: int = 1
    first_player: str = "US"
    cup: ChitCup = field(default_factory=ChitCup)
    vp: dict[str, int] = field(default_factory=lambda: {"US": 0, "NVA/VC": 0})
    fire_missions: list[FireMission] = field(default_factory=list)
    medevac_turn: int | None = None       # turn a requested medevac arrives (F 12.0)
    medevac_unit: str | None = None       # the medevac slick on the map
    aerial_observer: bool = False         # F 19.8
    higher_hq: set[str] = field(default_factory=set)   # players with no leader activations this turn (F 19.5)
    vc_events: int = 0                    # F 19.7
    hero: dict[str, str] = field(default_factory=dict)  # player -> unit with the Hero marker (F 19.4)
    cobras_leave: int | None = None       # F 19.6
    booby_traps: dict[Hex, str] = field(default_factory=dict)   # plotted hex -> player (F 26.0)
    claymores: set[Hex] = field(default_factory=set)             # plotted US claymores (F 26.0)
    us_may_carry_off: bool = False        # scenario rule (F 7.5.3)
    next_id: int = 1
    #: When True (a game in play), a broken unit's retreat is not carried out by the fire that broke it but
    #: queued in ``retreats_due`` as (unit id, label of the hex it retreats from, player who broke it), so that
    #: the game can prompt its owner for the path (F 7.4).
    defer_retreats: bool = False
    retreats_due: list = field(default_factory=list)
    landings_due: list = field(default_factory=list)   # downed helicopters their owner must set down (F 7.4)

    # ------------------------------------------------------------------ lookups
    def unit(self, uid: str) -> Unit:
        try:
            return self.units[uid]
        except KeyError:
            raise DataError("state", uid, "no such unit") from None

    def hex(self, label: str | Hex) -> Hex:
        return label if isinstance(label, Hex) else self.map.hex(label)

    def label(self, h: Hex) -> str:
        return self.map.label(h)

    def on_map(self, who: str | None = None) -> list[Unit]:
        """Units on the map (not loaded, not destroyed), of one player ("US", "NVA/VC") if given."""
        return [u for u in self.units.values() if u.on_map and not u.destroyed and (who is None or u.player == who)]

    def units_at(self, h: Hex, who: str | None = None) -> list[Unit]:
        if h is None:
            return []
        return [u for u in self.units.values() if u.hex == h and u.loaded_in is None and not u.destroyed
                and (who is None or u.player == who)]

    def enemies_at(self, h: Hex, of: Unit | str) -> list[Unit]:
        me = of.player if isinstance(of, Unit) else of
        return [u for u in self.units_at(h) if u.player != me]

    def casualties_at(self, h: Hex) -> list[CasualtyMarker]:
        return [c for c in self.casualties.values() if c.hex == h and c.carried_by is None]

    def new_id(self, prefix: str) -> str:
        self.next_id += 1
        return f"{prefix}{self.next_id - 1}"

    # ------------------------------------------------------------------ victory points
    @implements("F 29.0")
    @implements("F 29.0", "F VP Chart")
    def award(self, who: str, event: str, res: Resolution, rule: str, count: int = 1) -> int:
        """Add the VP chart's points for ``event`` to ``who``; a total never falls below 0 (F 29.0)."""
        if who not in PLAYERS:
            raise DataError("state", "award", f"{who!r} is not a player")
        points = self.charts.vp.value(event, who) * count
        before = self.vp[who]
        after = max(0, before + points)
        note = "" if after == before + points else f"; {before + points - after} below zero ignored (F 29.0)"
        self.vp[who] = after
        res.add(rule, f"{who} {'+' if points >= 0 else ''}{points} VP: {self.charts.vp.titles[event]}{note}",
                arithmetic=f"{before} {'+' if points >= 0 else '-'} {abs(points)} -> {after}", result=after,
                player=who, event=event)
        return points

    @implements("F 5.1")
    def remove_chit(self, who: str, res: Resolution, rule: str, why: str) -> None:
        """Permanently remove one of a player's activation chits: from the cup if one is there, else from the
        pool for the rest of the scenario (F 5.1, F 7.4)."""
        self.cup.chits[who] = max(0, self.cup.chits[who] - 1)
        if who in self.cup.cup:
            self.cup.cup.remove(who)
            where = "from the cup"
        else:
            where = "from the pool (none left in the cup)"
        res.add(rule, f"{why}: one {who} activation chit is removed {where} for good",
                result=self.cup.chits[who], player=who)

    def copy(self) -> "FteState":
        """A copy for undo and enumeration: units, markers and records are copied; the map, the charts, the
        readings and every Hex (all immutable) are shared. Written out field by field, as exact enumeration
        copies positions many thousand times."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.units = {k: _copy_with_lists(u) for k, u in self.units.items()}
        new.casualties = {k: _copy_with_lists(c) for k, c in self.casualties.items()}
        new.sites = {k: _copy_with_lists(x) for k, x in self.sites.items()}
        new.cup = ChitCup(dict(self.cup.chits), self.cup.random_event, list(self.cup.cup))
        new.vp = dict(self.vp)
        new.fire_missions = [copy.copy(f) for f in self.fire_missions]
        new.higher_hq = set(self.higher_hq)
        new.hero = dict(self.hero)
        new.booby_traps = dict(self.booby_traps)
        new.claymores = set(self.claymores)
        new.retreats_due = list(self.retreats_due)
        new.landings_due = list(self.landings_due)
        return new

    def copy_for(self, unit_ids) -> "FteState":
        """A lighter copy for exact enumeration, to apply fire results to infantry units ``unit_ids`` (Target
        Effects, a broken unit's retreat, casualty markers, points, a leader's chit): those units, the markers
        they carry, the unit and marker tables, the points, the chits and the lists of retreats and landings
        due are copied; every other unit, marker and record is shared with this state, which must not change
        while the copy is used."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        units = new.units = dict(self.units)
        cas = new.casualties = dict(self.casualties)
        for uid in unit_ids:
            u = units[uid] = _copy_with_lists(units[uid])
            for cid in u.carrying:
                if cid in cas:
                    cas[cid] = _copy_with_lists(cas[cid])
        new.cup = ChitCup(dict(self.cup.chits), self.cup.random_event, list(self.cup.cup))
        new.vp = dict(self.vp)
        new.retreats_due = list(self.retreats_due)
        new.landings_due = list(self.landings_due)
        return new


_LIST_FIELDS: dict[type, tuple[str, ...]] = {}


def _copy_with_lists(obj):
    """A shallow copy whose list fields (a unit's ``carrying``, a site's ``occupants``) are new lists;
    everything else in a unit, marker or site is immutable."""
    cls = type(obj)
    names = _LIST_FIELDS.get(cls)
    if names is None:
        names = _LIST_FIELDS[cls] = tuple(f.name for f in fields(cls) if f.default_factory is list)
    new = object.__new__(cls)
    d = obj.__dict__.copy()
    for k in names:
        d[k] = list(d[k])
    new.__dict__ = d
    return new


def place(state: FteState, units: Iterable[Unit]) -> FteState:
    """Add units to a state, checking for duplicate ids."""
    for u in units:
        if u.id in state.units:
            raise DataError("state", f"units[{u.id}]", "the same unit id is used twice")
        state.units[u.id] = u
    return state


__all__ = ["FteState", "ChitCup", "FireMission", "PLAYERS", "place", "player", "RuleViolation"]
