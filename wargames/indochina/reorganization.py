"""Rule 8 (reorganization) with rule 4 (allied nationalities) and the small bookkeeping rules around stacking,
zones of control and the combat phase: 9.9, 10.22, 10.4, 10.5, 11.3, 11.5, 13.13, 13.4 and 20.2.

Reorganization happens in the owning player's Reorganization phase only. A division is exchanged for the
groups or regiments its nationality's equivalent names (8.2), and back again in one hex for one political
point (8.13). Disruption travels with the pieces (8.3); nationalities never mix (8.4); Chinese and US
divisions stay whole (8.5).

The rulebook prints no strengths for the parts or the whole. When the caller supplies no counter, the engine
makes one and marks it *reconstructed* in the Resolution (a part gets a third of the division's strength,
rounded up, and the same movement; a reformed division adds its parts' strengths and moves as its slowest
part). Users with the counter sheet pass the printed counters instead.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter as Multiset
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Sequence

from ..core import Hex, Resolution, implements
from ..core.errors import DataError, RuleViolation
from .combat import Side
from .political import PoliticalPoints
from .stacking import stack_total, stacking_limit
from .state import IndochinaState
from .units import Counter, UnitState, stacking_value
from .zoc import enemy_zoc

# ----------------------------------------------------------------------------------------------- rule 4
# 4.1 and 4.2, with the spellings the scenario files use. The introductory scenario also gives the FEF
# British and Nationalist Chinese units (played with US and Chinese counters).
NATIONS: dict[Side, tuple[str, ...]] = {
    Side.FEF: ("French", "Vietnamese National Army", "Cambodian National Army", "Laotian National Army", "US",
               "British", "Nationalist Chinese"),
    Side.COMMUNIST: ("Viet Minh", "Khmer Issarak", "Pathet Lao", "Chinese"),
}
ALIASES = {"Vietnamese National": "Vietnamese National Army", "VNA": "Vietnamese National Army",
           "Cambodian National": "Cambodian National Army", "Laotian National": "Laotian National Army"}


def nationality(c: Counter) -> str:
    """A counter's nationality; counters entered without one are French (FEF) or Viet Minh (Communist)."""
    nat = c.nationality or ("French" if c.side is Side.FEF else "Viet Minh")
    return ALIASES.get(nat, nat)


@implements("IC 4.0", "IC 4.1", "IC 4.2")
def nation_side(nat: str) -> Side:
    """Which player commands a nationality (4.1, 4.2)."""
    nat = ALIASES.get(nat, nat)
    for side, names in NATIONS.items():
        if nat in names:
            return side
    raise DataError("counters", "nationality", f"{nat!r} is no nationality of either player (4.1, 4.2)")


@implements("IC 4.1", "IC 4.2")
def check_nationality(c: Counter) -> None:
    """A counter's nationality must belong to its side (4.1, 4.2)."""
    nat = nationality(c)
    side = nation_side(nat)
    if side is not c.side:
        rule = "IC 4.1" if side is Side.FEF else "IC 4.2"
        raise RuleViolation(rule, f"{c.id} is {nat}, a nation of the {side.value} player, not of the {c.side.value}")


@implements("IC 4.3", "IC 10.4")
def friendly(a: UnitState, b: UnitState) -> bool:
    """Units of one side are wholly friendly whatever their nationality (4.3): they stack together (10.4),
    attack together and share supply. Units of the two sides never are."""
    return a.side is b.side


@implements("IC 4.3", "IC 10.4")
def check_joint(units: Sequence[UnitState], what: str = "stack") -> set[str]:
    """Units may stack or fight together when they all belong to one side, however many nationalities they
    include (4.3, 10.4). Returns the nationalities present."""
    if not units:
        return set()
    sides = {u.side for u in units}
    if len(sides) > 1:
        rule = "IC 10.3" if what == "stack" else "IC 4.3"
        raise RuleViolation(rule, f"units of both sides cannot {what} together")
    return {nationality(u.counter) for u in units}


# ----------------------------------------------------------------------------------------------- rule 8
@dataclass(frozen=True)
class Equivalent:
    nationality: str
    division: str                        # the division's unit type
    parts: tuple[tuple[str, int], ...]   # (part type, how many)
    part_size: str                       # "group" or "regiment"
    rule: str

    def part_types(self) -> list[str]:
        return [t for t, n in self.parts for _ in range(n)]


EQUIVALENTS: tuple[Equivalent, ...] = (
    Equivalent("French", "mechanized", (("mechanized", 3),), "group", "IC 8.21"),
    Equivalent("French", "regular infantry", (("regular infantry", 2), ("mechanized", 1)), "group", "IC 8.21"),
    Equivalent("French", "airborne infantry", (("airborne infantry", 3),), "group", "IC 8.21"),
    Equivalent("Vietnamese National Army", "regular infantry", (("regular infantry", 2), ("mechanized", 1)),
               "group", "IC 8.22"),
    Equivalent("Viet Minh", "regular infantry", (("regular infantry", 3),), "regiment", "IC 8.23"),
    Equivalent("Viet Minh", "artillery", (("artillery", 3),), "regiment", "IC 8.23"),
)
NEVER_BREAK_DOWN = ("Chinese", "US", "Nationalist Chinese", "British")    # 8.5 (the last two use those counters)


@implements("IC 8.2", "IC 8.21", "IC 8.22", "IC 8.23")
def equivalent(nat: str, division_type: str) -> Equivalent:
    """The 8.2 equivalent of a division of this nationality and type."""
    nat = ALIASES.get(nat, nat)
    for e in EQUIVALENTS:
        if e.nationality == nat and e.division == division_type:
            return e
    raise RuleViolation("IC 8.2", f"the rules give no group/regiment equivalent for a {nat} {division_type} division")


@implements("IC 8.0", "IC 8.1")
def check_reorganization_phase(side: Side, phase: str, phase_side: Side | None, act: str) -> None:
    """Reorganizing belongs to the owning player's Reorganization phase (8.11, 8.12); never to combat (8.11)."""
    rule = "IC 8.11" if act == "break down" else "IC 8.12"
    if phase == "combat":
        raise RuleViolation("IC 8.11", f"no {act} during combat: a division may not split to take its losses")
    if phase != "reorganization":
        raise RuleViolation(rule, f"units {act} only in a Reorganization phase, not in the {phase} phase")
    if phase_side is not None and phase_side is not side:
        raise RuleViolation(rule, f"the {side.value} player reorganizes in his own Reorganization phase only")


def _new_id(st: IndochinaState, base: str, taken: Iterable[str] = ()) -> str:
    taken = set(taken)
    for i in itertools.count(1):
        uid = f"{base}/{i}"
        if uid not in st.units and uid not in taken:
            return uid
    raise AssertionError  # pragma: no cover


@implements("IC 8.11", "IC 8.3", "IC 8.4", "IC 8.5")
def break_down(st: IndochinaState, uid: str, *, phase: str = "reorganization", phase_side: Side | None = None,
               parts: Sequence[Counter] | None = None) -> Resolution:
    """Replace a division by its 8.2 groups or regiments in the same hex (8.11). Free (8.13).

    ``parts``: the printed part counters, if known; they must match the equivalent in type, size and
    nationality (8.4). Without them the parts are reconstructed. A disrupted division gives disrupted parts
    (8.3). Chinese and US divisions never break down (8.5). ``result``: the new unit ids.
    """
    u = st.unit(uid)
    c = u.counter
    res = Resolution()
    if not u.on_map:
        raise RuleViolation("IC 8.11", f"{uid} is not on the map")
    check_reorganization_phase(u.side, phase, phase_side, "break down")
    if c.size != "division":
        raise RuleViolation("IC 8.11", f"{uid} is a {c.size}; only divisions break down")
    nat = nationality(c)
    if nat in NEVER_BREAK_DOWN:
        raise RuleViolation("IC 8.5", f"{uid} is a {nat} division; these never break down")
    eq = equivalent(nat, c.type)
    res.add(eq.rule, f"a {nat} {c.type} division = " + " + ".join(f"{n} x {t} {eq.part_size}" for t, n in eq.parts))
    if parts is not None:
        _check_parts(parts, eq, nat, "IC 8.11")
        new = list(parts)
    else:
        share = lambda v: math.ceil(v / len(eq.part_types()))  # noqa: E731
        new = []
        for t in eq.part_types():
            pid = _new_id(st, uid, (p.id for p in new))
            new.append(Counter(pid, c.side, t, eq.part_size, share(c.strength), c.movement,
                               share(c.disrupted_strength), c.disrupted_movement, nationality=c.nationality))
        res.add("IC 8.11", "part strengths are reconstructed (the text prints none): a third of the division's, "
                "rounded up, with its movement", result=[p.id for p in new], reconstructed=True)
    for p in new:
        if p.id in st.units:
            raise DataError("counters", p.id, "a unit with this id is already in play")
    h = u.hex
    del st.units[uid]
    for p in new:
        st.units[p.id] = UnitState(p, h, disrupted=u.disrupted)
    res.add("IC 8.11", f"{uid} is replaced by {', '.join(p.id for p in new)} in {st.label(h)}; no political cost "
            "(8.13)", result=[p.id for p in new])
    if u.disrupted:
        res.add("IC 8.3", "the division was disrupted, so every part is disrupted")
    res.result = [p.id for p in new]
    return res


def _check_parts(parts: Sequence[Counter], eq: Equivalent, nat: str, rule: str) -> None:
    bad_nat = [p.id for p in parts if nationality(p) != nat]
    if bad_nat:
        raise RuleViolation("IC 8.4", f"{', '.join(bad_nat)} are not {nat}: reorganization stays within one nationality")
    if any(p.size not in ("group", "regiment") for p in parts):
        raise RuleViolation(rule, "only groups and regiments make up a division")
    if Multiset(p.type for p in parts) != Multiset(eq.part_types()):
        have = ", ".join(sorted(p.type for p in parts))
        raise RuleViolation(rule, f"a {nat} {eq.division} division needs {', '.join(eq.part_types())}; got {have}")


@implements("IC 8.12", "IC 8.13", "IC 8.3", "IC 8.4")
def reform(st: IndochinaState, uids: Sequence[str], division_type: str, *, phase: str = "reorganization",
           phase_side: Side | None = None, pp: PoliticalPoints | None = None,
           division: Counter | None = None) -> Resolution:
    """Combine groups or regiments in one hex into the division they are equivalent to (8.12).

    One political point is spent (8.13) from ``pp`` (without ``pp`` the step records the cost as owed). Any
    disrupted part makes the division disrupted (8.3). Parts of another nationality may not join (8.4).
    ``division``: the printed counter; without it the division is reconstructed. ``result``: its id.
    """
    units = [st.unit(x) for x in uids]
    res = Resolution()
    if not units or any(not u.on_map for u in units):
        raise RuleViolation("IC 8.12", "every part must be on the map")
    side = units[0].side
    if any(u.side is not side for u in units):
        raise RuleViolation("IC 8.12", "parts of both sides cannot reform together")
    check_reorganization_phase(side, phase, phase_side, "reform")
    if len({u.hex for u in units}) > 1:
        raise RuleViolation("IC 8.12", "the groups/regiments must all be in the same hex")
    nats = {nationality(u.counter) for u in units}
    if len(nats) > 1:
        raise RuleViolation("IC 8.4", f"mixed nationalities ({', '.join(sorted(nats))}) cannot form one division")
    nat = nats.pop()
    eq = equivalent(nat, division_type)
    _check_parts([u.counter for u in units], eq, nat, "IC 8.12")
    h = units[0].hex
    if division is not None:
        if division.size != "division" or division.type != division_type or nationality(division) != nat \
                or division.side is not side:
            raise RuleViolation("IC 8.12", f"{division.id} is not a {nat} {division_type} division")
        new = division
    else:
        cs = [u.counter for u in units]
        new = Counter(_new_id(st, f"{nat} {division_type} division"), side, division_type, "division",
                      sum(c.strength for c in cs), min(c.movement for c in cs),
                      sum(c.disrupted_strength for c in cs), min(c.disrupted_movement for c in cs),
                      nationality=units[0].counter.nationality)
        res.add("IC 8.12", "division strength reconstructed (the text prints none): the parts' strengths added, "
                "the slowest part's movement", reconstructed=True)
    if new.id in st.units:
        raise DataError("counters", new.id, "a unit with this id is already in play")
    if pp is not None:
        pp.spend(side, 1, why=f"forming {new.id} (IC 8.13)")
        res.add("IC 8.13", f"forming a division costs the {side.value} player 1 political point", result=pp.of(side))
    else:
        res.add("IC 8.13", f"forming a division costs the {side.value} player 1 political point (owed)", result=1)
    disrupted = any(u.disrupted for u in units)
    for u in units:
        del st.units[u.id]
    st.units[new.id] = UnitState(new, h, disrupted=disrupted)
    res.add("IC 8.12", f"{', '.join(uids)} become {new.id} in {st.label(h)}", result=new.id)
    if disrupted:
        res.add("IC 8.3", "a disrupted part makes the whole division disrupted")
    res.result = new.id
    return res


# ------------------------------------------------------------------------------------- 9.9: MP remaining
@implements("IC 9.9")
@dataclass
class MovementPointsTrack:
    """The movement points a unit or force still has this Movement phase (9.9), e.g. across an overrun."""

    remaining: dict[str, Fraction] = field(default_factory=dict)

    def start(self, who: str, allowance: int | Fraction) -> None:
        self.remaining[who] = Fraction(allowance)

    def spend(self, who: str, cost: int | Fraction, what: str = "") -> Fraction:
        if who not in self.remaining:
            raise RuleViolation("IC 9.9", f"{who} has no movement points recorded this phase")
        left = self.remaining[who]
        if Fraction(cost) > left:
            raise RuleViolation("IC 9.0", f"{who} has {left} MP left and {what or 'this'} costs {cost}")
        self.remaining[who] = left - Fraction(cost)
        return self.remaining[who]

    def left(self, who: str) -> Fraction:
        return self.remaining.get(who, Fraction(0))

    def end_phase(self) -> None:
        """Unused points are lost at the end of the phase; they never carry over (9.0)."""
        self.remaining.clear()


# --------------------------------------------------------------------------- 10.22 and 10.5: stacking
@implements("IC 10.5")
def check_initial_deployment(st: IndochinaState, side: Side | None = None) -> Resolution:
    """A scenario set-up must keep every hex within the stacking limit (10.5)."""
    res = Resolution()
    for s in ([side] if side else list(Side)):
        for h in sorted({u.hex for u in st.on_map(s)}, key=st.label):
            total, limit = stack_total(st, h, s), stacking_limit(st, h)
            if total > limit:
                raise RuleViolation("IC 10.5", f"set-up places {total} division-equivalents of {s.value} units in "
                                    f"{st.label(h)}; the limit there is {limit}")
            res.add("IC 10.5", f"{st.label(h)}: {total} of {limit}", result=total)
    return res


@implements("IC 10.22")
def employable(st: IndochinaState, h: Hex, side: Side, chosen: Iterable[str] | None = None) -> Resolution:
    """Which units of an overstacked hex may fight (10.22): counted units up to the stacking limit, plus
    any number of units that count nothing (cadres, bases, battalions, militia: 10.11).

    ``chosen``: the player's pick of counted units (checked); by default the strongest legal pick. The
    result lists the units whose strength counts; when defending, every unit in the hex still takes the
    result.
    """
    here = st.units_at(h, side)
    limit = stacking_limit(st, h)
    free = [u for u in here if stacking_value(u.counter) == 0]
    counted = [u for u in here if stacking_value(u.counter) > 0]
    res = Resolution()
    total = sum((stacking_value(u.counter) for u in counted), Fraction(0))
    if total <= limit:
        res.add("IC 10.22", f"{st.label(h)} is within its limit: every unit may fight")
        res.result = [u.id for u in here]
        return res
    if chosen is not None:
        pick = [st.unit(x) for x in chosen]
        if any(u not in counted for u in pick):
            raise RuleViolation("IC 10.22", "pick only counted units of this side in this hex")
        used = sum((stacking_value(u.counter) for u in pick), Fraction(0))
        if used > limit:
            raise RuleViolation("IC 10.22", f"the pick counts {used} divisions; only {limit} may fight from "
                                f"{st.label(h)}")
    else:
        best: tuple = (-1, ())
        for r in range(len(counted) + 1):
            for combo in itertools.combinations(counted, r):
                if sum((stacking_value(u.counter) for u in combo), Fraction(0)) <= limit:
                    best = max(best, (sum(u.strength for u in combo), tuple(combo)), key=lambda b: b[0])
        pick = list(best[1])
    res.add("IC 10.22", f"{st.label(h)} is overstacked ({total} against {limit}): "
            f"{', '.join(u.id for u in pick) or 'no counted unit'} fight, with {len(free)} uncounted unit(s)",
            result=[u.id for u in pick])
    res.result = [u.id for u in pick + free]
    return res


# ------------------------------------------------------------------------------------------ 11.3, 11.5
@implements("IC 11.3")
def affected_by_zoc(zoc_side: Side, unit_side: Side, kind: str = "land") -> bool:
    """A zone of control touches only enemy land units, never air units (11.3)."""
    return kind == "land" and unit_side is not zoc_side


@implements("IC 11.5", "IC 11.51")
def units_free_not_to_attack(st: IndochinaState, side: Side) -> list[str]:
    """Units standing in an enemy ZOC are not obliged to attack (11.51): this lists them, and the combat
    phase may end with none of them attacking."""
    z = enemy_zoc(st, side)
    return sorted(u.id for u in st.on_map(side) if u.hex in z)


# -------------------------------------------------------------------------------------- 13.13, 13.4
@implements("IC 13.13", "IC 13.4")
@dataclass
class CombatPhaseTracker:
    """Bookkeeping for one combat phase: attacks are declared and resolved one at a time (13.4); a hex may
    be attacked again, but no unit attacks twice (13.13)."""

    attacked_with: set[str] = field(default_factory=set)
    attacks: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    open: tuple[str, tuple[str, ...]] | None = None

    def declare(self, attackers: Sequence[str], target: str) -> None:
        if self.open is not None:
            raise RuleViolation("IC 13.4", f"resolve the attack on {self.open[0]} before declaring another")
        again = sorted(set(attackers) & self.attacked_with)
        if again:
            raise RuleViolation("IC 13.13", f"{', '.join(again)} already attacked this phase")
        if len(set(attackers)) != len(attackers) or not attackers:
            raise RuleViolation("IC 13.13", "name each attacking unit once")
        self.open = (target, tuple(attackers))

    def resolved(self) -> None:
        if self.open is None:
            raise RuleViolation("IC 13.4", "no attack is waiting to be resolved")
        self.attacked_with |= set(self.open[1])
        self.attacks.append(self.open)
        self.open = None

    def times_attacked(self, target: str) -> int:
        return sum(1 for t, _ in self.attacks if t == target)


# --------------------------------------------------------------------------------------------- 20.2
@implements("IC 20.0", "IC 20.2")
def is_combat_unit(u: UnitState) -> bool:
    """Bases are ordinary combat units (20.2): they defend, attack, stack freely (10.11) and have a ZOC."""
    return u.counter.type != "militia" or u.side is Side.COMMUNIST


@implements("IC 20.2")
def check_base_placement(st: IndochinaState, side: Side, at: str) -> None:
    """Reinforcements that the Mobilization chart sends to a base need a friendly combat effective base in
    that hex (20.2(1))."""
    h = st.map.hex(at)
    if not any(u.counter.type == "base" and not u.disrupted for u in st.units_at(h, side)):
        raise RuleViolation("IC 20.2", f"{at} has no combat effective {side.value} base to receive the unit")


@implements("IC 20.2")
def air_transport_terminal(st: IndochinaState, h: Hex) -> bool:
    """An FEF base's hex serves as an air transport embarkation/debarkation point (20.2(2))."""
    return any(u.counter.type == "base" for u in st.units_at(h, Side.FEF))
