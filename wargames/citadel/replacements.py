"""Rules 15-17: replacements, reinforcements and T'ai desertion.

- C 15: the Vietminh gain three strength points of replacements a day from April 1 and spend them in the
  strategic bombing phase, when they appear, or save them; the French have a fixed total for the game (a
  scenario may set a lower cap) and take them in the supply and transport phase. Infantry replacements only
  restore the loss markers of a unit already flipped at its critical loss level; heavy weapons take back lost
  points; nothing eliminated comes back. Every replacement is one :class:`TakeReplacement` at a prompt.
- C 16: reinforcements follow a schedule (date -> unit ids). The Vietminh place theirs in the Vietminh movement
  phase of the day on full jungle next to a map edge; the French place theirs in the supply and transport phase
  next to a French unit, outside Vietminh zones of control (:class:`PlaceReinforcement`). With the advanced air
  rules (``supply.airlift``) French replacements and reinforcements come in by the transport mission instead
  (``air.flown_replacements``, ``air.land_personnel``).
- C 17: once the Vietminh hold two whole strongpoint complexes, a die in the weather phase may make a group of
  T'ai companies roll for desertion (:class:`TaiDesertionPlay`; it needs no decision).

T'ai units are the French combat infantry whose counter name contains "T'ai" (the demonstration and OOB
counters are named "... T'ai Battalion" and "... T'ai Light Company"). A T'ai battalion is the counters sharing
a ``parent``: ``2BT`` is the 2nd T'ai battalion and ``3BT`` the 3rd (:data:`TAI_BATTALIONS`); the T'ai light
companies (the CSM's) are every other T'ai company. A headquarters company is one whose name contains "HHC" or
"Headquarters".
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Mapping

from ..core import Hex, Resolution, implements
from ..core.actions import Action
from ..core.dice import roll_die
from ..core.errors import RuleViolation
from ..core.game import Prompt, handles
from ..core.schema import AnyValue, Convert, Int, List, Map, Opt, Record, Str
from ..core.copies import record_deepcopy
from .fire import take_loss
from .play import PhasePlay
from .stacking import stacking_problem
from .strongpoints import complex_held, strongpoint_at
from .terrain import COMPLEXES, complex_of
from .state import battle_date
from .units import Side, UnitClass, UnitState
from .zoc import in_enemy_zoc

#: C 15.A: Vietminh replacements begin on the April 1 turn, three strength points a day.
VM_REPLACEMENTS_FROM, VM_REPLACEMENTS_A_DAY = dt.date(1954, 4, 1), 3
#: C 15.B: the French totals for the whole battle (scenario 8); other scenarios set lower caps (SR 1.B.6).
FRENCH_REPLACEMENTS = {"infantry": 20, "heavy weapons": 12}
#: C 17: the die roll that makes each group subject to desertion.
TAI_BATTALIONS = {1: "2BT", 2: "3BT"}
TAI_LIGHT_ROLLS = (3, 4)
#: C 17: complexes the Vietminh must hold before T'ai units desert.
TAI_COMPLEXES_NEEDED = 2


@dataclass
class Reserves:
    """Replacement pools and the reinforcement schedule (C 15, C 16)."""

    vm_pool: int = 0                                   # Vietminh points saved (C 15.A)
    vm_weapons_on: dt.date | None = None               # the day the Vietminh last took a heavy weapons point
    french_left: dict[str, int] = field(default_factory=lambda: dict(FRENCH_REPLACEMENTS))
    schedule: dict[dt.date, tuple[str, ...]] = field(default_factory=dict)
    arrived: set[str] = field(default_factory=set)
    vm_gained_on: dt.date | None = None                # the day the pool last grew (once a day)

    __deepcopy__ = record_deepcopy

    def to_dict(self) -> dict:
        return {"vm_pool": self.vm_pool, "french_left": dict(self.french_left),
                "vm_weapons_on": self.vm_weapons_on.isoformat() if self.vm_weapons_on else None,
                "schedule": {d.isoformat(): list(u) for d, u in sorted(self.schedule.items())},
                "arrived": sorted(self.arrived)}


#: The ``replacements:`` section of a scenario file: the French caps for the scenario (SR 1.B.6).
REPLACEMENTS_SECTION = Record({}, {"infantry": Opt(Int(0, 100), 20), "heavy_weapons": Opt(Int(0, 100), 12),
                                   "vietminh_pool": Opt(Int(0, 1000), 0)},
                              what="a replacements section {infantry, heavy_weapons}")
#: The ``reinforcements:`` section: the days units arrive (the scenario outline, SR 1.A.3-4).
REINFORCEMENTS_SECTION = Map(Convert(AnyValue(), battle_date, "a date such as 1954-03-14"),
                             List(Str(min_len=1, max_len=40), min_len=1, max_len=100), max_len=100)


def reserves_from_sections(replacements: Mapping | None, reinforcements: Mapping | None) -> Reserves:
    r = Reserves()
    if replacements:
        r.french_left = {"infantry": replacements["infantry"], "heavy weapons": replacements["heavy_weapons"]}
        r.vm_pool = replacements["vietminh_pool"]
    if reinforcements:
        r.schedule = {d: tuple(units) for d, units in reinforcements.items()}
    return r


def reserves_of(state) -> Reserves:
    """The state's replacement pools and schedule, made (empty, with the full French totals) on first use."""
    if state.reserves is None:
        state.reserves = Reserves()
    return state.reserves


# --------------------------------------------------------------------------- C 15: replacements

def replacement_kind(u: UnitState) -> str:
    """The French replacement pool a unit draws on (C 15.B): heavy weapons or combat infantry."""
    return "heavy weapons" if u.counter.cls is UnitClass.HEAVY_WEAPONS else "infantry"


@implements("C 15")
def replacement_room(state, u: UnitState) -> int:
    """How many replacement points a unit can absorb now (C 15.C): a heavy weapons unit its lost points, an
    infantry unit only the loss markers it carries after flipping (never back above its critical loss level);
    nothing eliminated, and no tank."""
    if not u.on_board or u.counter.cls is UnitClass.TANK:
        return 0
    if u.counter.cls is UnitClass.HEAVY_WEAPONS:
        return u.losses
    return u.losses if u.inverted else 0


def check_replacement(state, side: Side, uid: str, points: int) -> UnitState:
    """The unit that may absorb ``points`` replacement points now (C 15.B-C), or RuleViolation."""
    u = state.unit(uid)
    if u.side is not side:
        raise RuleViolation("C 15", f"{uid} is not a {side.value} unit")
    if points < 1:
        raise RuleViolation("C 15", "a replacement is at least one strength point")
    room = replacement_room(state, u)
    if room == 0:
        why = ("it is not on the map (eliminated units are not rebuilt)" if not u.on_board else
               "an infantry unit takes replacements only after it has been flipped at its critical loss level, and "
               "only for losses beyond it" if u.counter.cls is UnitClass.INFANTRY else "it has lost no strength")
        raise RuleViolation("C 15", f"{uid} cannot absorb replacements: {why}")
    if points > room:
        raise RuleViolation("C 15", f"{uid} can absorb only {room} point(s)"
                            + (" without rising above its critical loss level" if u.counter.cls is UnitClass.INFANTRY
                               else ""))
    res_ = reserves_of(state)
    if side is Side.FRENCH:
        left = res_.french_left[replacement_kind(u)]
        if points > left:
            raise RuleViolation("C 15", f"only {left} French {replacement_kind(u)} replacement point(s) are left")
    else:
        if points > res_.vm_pool:
            raise RuleViolation("C 15", f"the Vietminh have only {res_.vm_pool} replacement point(s)")
        if u.counter.cls is UnitClass.HEAVY_WEAPONS:
            if points > 1:
                raise RuleViolation("C 15", "a Vietminh heavy weapons unit absorbs one replacement a day")
            if res_.vm_weapons_on == state.date:
                raise RuleViolation("C 15", "the Vietminh have already taken today's one heavy weapons replacement")
    return u


@implements("C 15")
def take_replacement(state, side: Side, uid: str, points: int, res: Resolution) -> None:
    """Give ``points`` replacement points to ``uid`` (C 15.C), from the side's pool."""
    u = check_replacement(state, side, uid, points)
    before = u.strength
    u.losses -= points
    r = reserves_of(state)
    if side is Side.FRENCH:
        r.french_left[replacement_kind(u)] -= points
        left = f"{r.french_left[replacement_kind(u)]} French {replacement_kind(u)} point(s) left"
    else:
        r.vm_pool -= points
        if u.counter.cls is UnitClass.HEAVY_WEAPONS:
            r.vm_weapons_on = state.date
        left = f"{r.vm_pool} Vietminh point(s) left"
    res.add("C 15", f"{uid} absorbs {points} replacement point(s): {before} -> {u.strength} SP ({left})",
            arithmetic=f"{before} + {points} = {u.strength}", unit=uid, result=points)


def replacement_candidates(state, side: Side) -> list["TakeReplacement"]:
    out = []
    for u in sorted(state.on_board(side), key=lambda u: u.id):
        if replacement_room(state, u):
            try:
                check_replacement(state, side, u.id, 1)
            except RuleViolation:
                continue
            out.append(TakeReplacement(u.id, 1))
    return out


@dataclass(frozen=True)
class TakeReplacement(Action):
    """The player gives replacement strength points to one unit (C 15)."""
    unit: str
    points: int = 1


class FrenchReplacementPlay(PhasePlay):
    """Supply and transport phase: the French may take replacements (C 15.B), unless they must be flown in."""

    ACTIONS = (TakeReplacement,)

    def play_open(self, res: Resolution) -> bool:
        st = self.state
        if _airlift(st):
            return False
        return bool(replacement_candidates(st, Side.FRENCH))

    def play_prompt(self) -> Prompt:
        left = reserves_of(self.state).french_left
        return Prompt(Side.FRENCH.value, "C 15", f"take replacements ({left['infantry']} infantry, "
                                                  f"{left['heavy weapons']} heavy weapons left), or end", "replacements")

    def play_candidates(self) -> list:
        return replacement_candidates(self.state, Side.FRENCH) + [self.END_PHASE()]

    def play_end(self, res: Resolution) -> None:
        res.add("C 15", "the French take no more replacements today")
        self.play_done(res)


class VietminhReplacementPlay(PhasePlay):
    """Strategic bombing phase: three Vietminh points appear from April 1; they may be used or saved (C 15.A)."""

    ACTIONS = (TakeReplacement,)

    @implements("C 15")
    def play_open(self, res: Resolution) -> bool:
        st = self.state
        r = reserves_of(st)
        if st.date >= VM_REPLACEMENTS_FROM and r.vm_gained_on != st.date:
            r.vm_pool += VM_REPLACEMENTS_A_DAY
            r.vm_gained_on = st.date
            res.add("C 15", f"{VM_REPLACEMENTS_A_DAY} Vietminh replacement points appear ({r.vm_pool} available)",
                    result=r.vm_pool)
        return r.vm_pool > 0 and bool(replacement_candidates(st, Side.VIETMINH))

    def play_prompt(self) -> Prompt:
        return Prompt(Side.VIETMINH.value, "C 15", f"use replacements ({reserves_of(self.state).vm_pool} points), or "
                                                    f"save them", "replacements")

    def play_candidates(self) -> list:
        return replacement_candidates(self.state, Side.VIETMINH) + [self.END_PHASE()]

    def play_end(self, res: Resolution) -> None:
        res.add("C 15", f"the Vietminh save {reserves_of(self.state).vm_pool} replacement point(s)")
        self.play_done(res)


class ReplacementHandlers:
    """The one handler of TakeReplacement, for whichever replacement play is current."""

    @handles(TakeReplacement)
    def _take_replacement(self, a: TakeReplacement, dice, res: Resolution) -> None:
        play = self._play()
        if play is FrenchReplacementPlay:
            side = Side.FRENCH
        elif play is VietminhReplacementPlay:
            side = Side.VIETMINH
        else:
            raise RuleViolation("C 15", "replacements are taken in the French supply and transport phase (French) "
                                        "or the strategic bombing phase (Vietminh)")
        take_replacement(self.state, side, a.unit, a.points, res)
        if not replacement_candidates(self.state, side):
            self.play_done(res)


def _airlift(state) -> bool:
    return getattr(state, "supply", None) is not None and state.supply.airlift


# --------------------------------------------------------------------------- C 16: reinforcements

@implements("C 16")
def due_reinforcements(state, side: Side) -> list[str]:
    """Units of ``side`` scheduled for today or earlier that have not arrived (only the French ones can wait,
    in the Red River Delta, for a later flight: C 16)."""
    r = reserves_of(state)
    out = []
    for day, units in sorted(r.schedule.items()):
        if day > state.date or (day < state.date and not (side is Side.FRENCH and _airlift(state))):
            continue
        out += [uid for uid in units if uid not in r.arrived and state.unit(uid).side is side
                and state.unit(uid).hex is None and not state.unit(uid).eliminated]
    return out


def _stack_ok(state, u: UnitState, h: Hex) -> bool:
    return stacking_problem([*state.units_at(h, u.side), UnitState(u.counter, h)]) is None


@implements("C 16")
def vm_reinforcement_hexes(state) -> list[Hex]:
    """Full jungle hexes next to a map edge (a neighbour off the map), with no French unit (C 16)."""
    m = state.map
    return sorted(h for h in m.hexes if m.terrain(h) == "full_jungle"
                  and any(n not in m for n in h.neighbors()) and not state.units_at(h, Side.FRENCH))


@implements("C 16")
def french_reinforcement_hexes(state) -> list[Hex]:
    """Hexes next to a French unit and outside every Vietminh zone of control, with no Vietminh unit (C 16)."""
    m = state.map
    near = {n for u in state.on_board(Side.FRENCH) for n in u.hex.neighbors() if n in m}
    return sorted(h for h in near if not in_enemy_zoc(state, Side.FRENCH, h) and not state.units_at(h, Side.VIETMINH))


def reinforcement_hexes(state, side: Side) -> list[Hex]:
    return vm_reinforcement_hexes(state) if side is Side.VIETMINH else french_reinforcement_hexes(state)


@implements("C 16")
def land_reinforcement(state, uid: str, label: str, res: Resolution) -> None:
    """Put a scheduled reinforcement on the map at ``label`` (C 16); the transport mission calls it for French
    units flown in with the advanced air rules."""
    u = state.unit(uid)
    if uid not in due_reinforcements(state, u.side):
        raise RuleViolation("C 16", f"{uid} is not a {u.side.value} reinforcement due today")
    h = state.map.hex(label)
    if h not in reinforcement_hexes(state, u.side):
        where = ("a full jungle hex next to a map edge" if u.side is Side.VIETMINH else
                 "a hex next to a French unit and outside every Vietminh zone of control")
        raise RuleViolation("C 16", f"{label} is not {where}")
    if not _stack_ok(state, u, h):
        raise RuleViolation("C 6", f"{uid} would break stacking in {label}")
    u.hex = h
    reserves_of(state).arrived.add(uid)
    res.add("C 16", f"reinforcement {uid} arrives in {label}", unit=uid)


@dataclass(frozen=True)
class PlaceReinforcement(Action):
    """Place a scheduled reinforcement on the map (C 16)."""
    unit: str
    hex: str


def placement_candidates(state, side: Side) -> list[PlaceReinforcement]:
    due = due_reinforcements(state, side)
    if not due:
        return []
    hexes = reinforcement_hexes(state, side)
    return [PlaceReinforcement(uid, state.label(h)) for uid in due for h in hexes
            if _stack_ok(state, state.unit(uid), h)]


class FrenchReinforcementPlay(PhasePlay):
    """Supply and transport phase: the French place the day's reinforcements (C 16), unless they are flown in."""

    ACTIONS = (PlaceReinforcement,)

    def play_open(self, res: Resolution) -> bool:
        st = self.state
        if _airlift(st) or not due_reinforcements(st, Side.FRENCH):
            return False
        if not placement_candidates(st, Side.FRENCH):
            res.add("C 16", "no hex is next to a French unit and free of Vietminh zones of control: the French "
                            "reinforcements cannot appear today")
            return False
        return True

    def play_prompt(self) -> Prompt:
        return Prompt(Side.FRENCH.value, "C 16", "place the reinforcements due today: "
                      + ", ".join(due_reinforcements(self.state, Side.FRENCH)), "reinforcements")

    def play_candidates(self) -> list:
        return placement_candidates(self.state, Side.FRENCH)

    def play_end(self, res: Resolution) -> None:
        raise RuleViolation("C 16", "the reinforcements due today must be placed first")


def vm_placement_open(game) -> bool:
    """Whether the Vietminh may place reinforcements now: the Vietminh movement phase of the day (C 16)."""
    return game.phase.id == "VM movement" and bool(due_reinforcements(game.state, Side.VIETMINH))


class ReinforcementHandlers:
    """PlaceReinforcement: in the Vietminh movement phase (Vietminh) or the supply and transport phase (French)."""

    @handles(PlaceReinforcement)
    def _place_reinforcement(self, a: PlaceReinforcement, dice, res: Resolution) -> None:
        st = self.state
        u = st.unit(a.unit)
        if self.pending is not None:
            raise RuleViolation("C 9.2", "the losses of the last fire must be allocated first")
        if u.side is Side.VIETMINH:
            if self.phase.id != "VM movement":
                raise RuleViolation("C 16", "Vietminh reinforcements appear in the Vietminh movement phase")
            mp = self._movement()
            if mp is not None and mp.window_open:
                raise RuleViolation("C 8", "the enemy is resolving opportunity fire; the moving player waits")
            land_reinforcement(st, a.unit, a.hex, res)
            return
        if self._play() is not FrenchReinforcementPlay:
            raise RuleViolation("C 16", "French reinforcements appear in the supply and transport phase")
        land_reinforcement(st, a.unit, a.hex, res)
        if not placement_candidates(st, Side.FRENCH):
            self.play_done(res)

    def vm_reinforcements_left(self) -> list[str]:
        """Called before the Vietminh movement phase ends: reinforcements due today must be placed (C 16)."""
        if self.phase.id == "VM movement" and placement_candidates(self.state, Side.VIETMINH):
            return due_reinforcements(self.state, Side.VIETMINH)
        return []


# --------------------------------------------------------------------------- C 17: T'ai desertion

def is_tai(u: UnitState) -> bool:
    """A French combat infantry unit whose name says T'ai (see the module's note)."""
    name = u.counter.name.replace("\u2019", "'")
    return u.side is Side.FRENCH and u.counter.cls is UnitClass.INFANTRY and "T'ai" in name


def is_hq(u: UnitState) -> bool:
    return "HHC" in u.counter.name or "Headquarters" in u.counter.name or u.id.upper().startswith("HHC")


@implements("C 17")
def tai_desertion_active(state) -> bool:
    """Two whole complexes in Vietminh hands make T'ai units subject to desertion (C 17)."""
    held = [c for c in COMPLEXES if complex_held(state, c, Side.VIETMINH)]
    return len(held) >= TAI_COMPLEXES_NEEDED


def _in_isabelle(state, u: UnitState) -> bool:
    name = strongpoint_at(state, u.hex)
    return name is not None and complex_of(name) == "I"


@implements("C 17")
def isabelle_exempt(state) -> bool:
    """T'ai companies in Isabelle stay while non-T'ai companies there outnumber them (C 17)."""
    there = [u for u in state.on_board(Side.FRENCH) if u.counter.cls is UnitClass.INFANTRY
             and u.counter.size == "company" and _in_isabelle(state, u)]
    tai = sum(1 for u in there if is_tai(u))
    return len(there) - tai > tai


@implements("C 17")
def tai_group(state, roll: int) -> tuple[str, list[UnitState]]:
    """The group a roll selects and its T'ai units on the map: (name, units including any HHC)."""
    tai = sorted((u for u in state.on_board(Side.FRENCH) if is_tai(u)), key=lambda u: u.id)
    if roll in TAI_BATTALIONS:
        parent = TAI_BATTALIONS[roll]
        return f"the {'2nd' if roll == 1 else '3rd'} T'ai battalion", [u for u in tai if u.counter.parent == parent]
    if roll in TAI_LIGHT_ROLLS:
        return "the T'ai light companies", [u for u in tai if u.counter.parent not in TAI_BATTALIONS.values()]
    return "", []


@implements("C 17")
def roll_tai_desertion(state, dice, res: Resolution) -> None:
    """The weather-phase roll for T'ai desertion and each company's roll against its morale (C 17)."""
    if not tai_desertion_active(state):
        return
    roll = roll_die(dice, 6, "T'ai desertion")
    name, units = tai_group(state, roll)
    if not name:
        res.add("C 17", f"T'ai desertion roll {roll}: no unit is subject to desertion today", roll=roll)
        return
    res.add("C 17", f"T'ai desertion roll {roll}: desertion threatens {name}", roll=roll)
    exempt = isabelle_exempt(state)
    rolled, gone = [], []
    for u in units:
        if is_hq(u):
            continue
        if exempt and _in_isabelle(state, u):
            res.add("C 17", f"{u.id} is in Isabelle, where non-T'ai companies outnumber T'ai ones: exempt", unit=u.id)
            rolled.append(u)           # it stays, so its battalion has not gone whole
            continue
        rolled.append(u)
        d = roll_die(dice, 6, f"desertion of {u.id}")
        morale = u.morale
        if d < morale:
            res.add("C 17", f"{u.id}: roll {d} below morale {morale}: stays", unit=u.id, roll=d)
        elif d == morale:
            res.add("C 17", f"{u.id}: roll {d} equals morale {morale}: one strength point deserts", unit=u.id, roll=d)
            take_loss(state, u, dice, res)
        else:
            res.add("C 17", f"{u.id}: roll {d} above morale {morale}: the company deserts", unit=u.id, roll=d)
            _remove(u)
            gone.append(u)
    if roll in TAI_BATTALIONS and rolled and len(gone) == len(rolled):
        for u in units:
            if is_hq(u) and u.on_board:
                res.add("C 17", f"every company of the battalion has deserted: {u.id} deserts with them", unit=u.id)
                _remove(u)


def _remove(u: UnitState) -> None:
    u.eliminated = True
    u.pinned, u.pinned_at = False, None


class TaiDesertionPlay(PhasePlay):
    """Weather phase: the T'ai desertion rolls (C 17); nobody decides anything."""

    def play_open(self, res: Resolution) -> bool:
        roll_tai_desertion(self.state, self.play_dice, res)
        return False
