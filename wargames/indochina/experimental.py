"""Two of the experimental rules, each switchable: Going Underground and Naval Operations.

The rulebook offers these as dropped rules players may adopt. Each is a small class with an ``enabled`` flag;
while it is off, every action it offers raises :class:`RuleViolation` under the rule's id.

Readings (flagged in the chapter):

* Going Underground: "its own country" is Vietnam for Viet Minh units and units with no nationality recorded,
  Laos for the Pathet Lao and Cambodia for the Khmer Issarak. A Communist militia hiding from a *town*
  leaves it, so the town returns to FEF control (17.33). A unit may resurface in any later Underground Phase,
  not the one it hid in; phases are numbered by the caller (two per game turn).
* Naval Operations: the amphibious assault takes its combat result from the caller (rule 13 resolves it);
  units that do not win an advance go back to the staging area. Invasion supply doubles the landing units'
  strength for the supply points the usual Attack Enhancement costs, with no line of supply. For the water
  lines, all-lake and all-sea hexes may be used in the FEF's last two hexes and in the Communist six-hex
  radius, and DNA zones of control reach into them (18.2).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ..core import Hex, Resolution, implements
from ..core.errors import RuleViolation
from .borders import country
from .combat import Side
from . import logistics
from .logistics import Logistics, SupplyLine, supply_search, logistical_cost, los_limits, ultimate_source
from .riverine import enemy_zoc_with_dna
from .staging import StagingArea, amphibious_load, AMPHIBIOUS_CAPACITY, US_AMPHIBIOUS_CAPACITY
from .state import IndochinaState

UNDERGROUND = "IC Exp Going Underground"
NAVAL = "IC Exp Naval Operations"
HIDING_TYPES = ("cadre", "guerrilla", "militia")
HOME = {"Viet Minh": "Vietnam", "Pathet Lao": "Laos", "Khmer Issarak": "Cambodia"}
WATER = ("all_lake", "all_sea")


# ------------------------------------------------------------------------------------- Going Underground
@implements(UNDERGROUND)
@dataclass
class GoingUnderground:
    """Communist cadres, guerrillas and militia leave the map and come back later near where they left.

    ``hidden`` maps a unit id to (the hex it left, the Underground Phase it left in). Neither step costs
    political points.
    """

    enabled: bool = True
    hidden: dict[str, tuple[Hex, int]] = field(default_factory=dict)

    def _on(self) -> None:
        if not self.enabled:
            raise RuleViolation(UNDERGROUND, "the experimental Going Underground rule is not in use")

    def home(self, st: IndochinaState, uid: str) -> str:
        nat = st.unit(uid).counter.nationality or "Viet Minh"
        return HOME.get(nat, nat)

    def go_underground(self, st: IndochinaState, uid: str, phase: int) -> Resolution:
        self._on()
        u = st.unit(uid)
        if u.side is not Side.COMMUNIST or u.counter.type not in HIDING_TYPES:
            raise RuleViolation(UNDERGROUND, f"{uid} is not a Communist cadre, guerrilla or militia")
        if not u.on_map:
            raise RuleViolation(UNDERGROUND, f"{uid} is not on the map")
        where = country(st, u.hex)
        if where != self.home(st, uid):
            raise RuleViolation(UNDERGROUND, f"{uid} is in {where}, not its own country ({self.home(st, uid)})")
        if u.counter.type == "militia" and st.has(u.hex, "city"):
            raise RuleViolation(UNDERGROUND, f"{uid} is militia in a city ({st.label(u.hex)}) and must stay")
        res = Resolution()
        label = st.label(u.hex)
        self.hidden[uid] = (u.hex, phase)
        u.hex = None
        res.add(UNDERGROUND, f"{uid} goes underground from {label} in Underground Phase {phase} "
                "(no political points)", result=label)
        if u.counter.type == "militia" and label in st.communist_cities:
            st.communist_cities.discard(label)
            res.add("IC 17.33", f"the Communist militia has left {label}: the town reverts to FEF control")
        res.result = {"unit": uid, "from": label}
        return res

    def resurface(self, st: IndochinaState, uid: str, where: str, phase: int) -> Resolution:
        self._on()
        if uid not in self.hidden:
            raise RuleViolation(UNDERGROUND, f"{uid} is not underground")
        origin, left = self.hidden[uid]
        if phase <= left:
            raise RuleViolation(UNDERGROUND, f"{uid} went underground in phase {left}; it resurfaces in a later "
                                "Underground Phase")
        h = st.map.hex(where)
        if h != origin and not h.is_adjacent(origin):
            raise RuleViolation(UNDERGROUND, f"{where} is neither {st.label(origin)} nor next to it")
        u = st.unit(uid)
        tec = st.tec()
        row = tec.get(st.terrain(h))
        if row is None or (row.heavy if u.counter.unit_class == "Heavy" else row.light) is None:
            raise RuleViolation(UNDERGROUND, f"{where} is prohibited terrain for {uid}")
        if st.units_at(h, Side.FEF):
            raise RuleViolation(UNDERGROUND, f"{where} holds enemy units")
        del self.hidden[uid]
        u.hex = h
        res = Resolution()
        res.add(UNDERGROUND, f"{uid} resurfaces at {where} (it left from {st.label(origin)}); enemy ZOCs do not "
                "stop it and it costs no political points", result=where)
        res.result = {"unit": uid, "hex": where}
        return res


# --------------------------------------------------------------------------------------- Naval Operations
@implements(NAVAL)
@dataclass
class NavalOperations:
    """Amphibious assault on enemy-held coast, invasion supply, and supply lines over water."""

    enabled: bool = True

    def _on(self) -> None:
        if not self.enabled:
            raise RuleViolation(NAVAL, "the experimental Naval Operations rule is not in use")

    def amphibious_assault(self, st: IndochinaState, area: StagingArea, unit_ids: Iterable[str], target: str,
                           from_sea: str) -> Resolution:
        """Declare an invasion of an enemy-held coastal hex from an adjacent all-sea hex, using amphibious
        capacity (23.12). The combat itself is fought normally (rule 13); then call :meth:`assault_outcome`."""
        self._on()
        ids = list(unit_ids)
        t, sea = st.map.hex(target), st.map.hex(from_sea)
        if st.terrain(sea) != "all_sea":
            raise RuleViolation(NAVAL, f"an amphibious assault starts from an all-sea hex, not {from_sea}")
        if not sea.is_adjacent(t):
            raise RuleViolation(NAVAL, f"{from_sea} is not next to {target}")
        if not st.has(t, "coast"):
            raise RuleViolation(NAVAL, f"{target} is not a coastal hex")
        if not st.units_at(t, Side.COMMUNIST):
            raise RuleViolation(NAVAL, f"{target} holds no enemy unit; land there by ordinary invasion (23.12)")
        for uid in ids:
            if uid not in area.units:
                raise RuleViolation(NAVAL, f"{uid} is not in the Far Eastern Staging Area")
        cap = US_AMPHIBIOUS_CAPACITY if area.us_ground else AMPHIBIOUS_CAPACITY
        load = sum(amphibious_load(st.unit(uid), area.us_ground) for uid in ids)
        if area.amphibious_used + load > cap:
            raise RuleViolation("IC 23.12", f"amphibious capacity is {cap} this turn, {area.amphibious_used} "
                                f"used; the assault needs {load}")
        area.amphibious_used += load
        res = Resolution()
        res.add(NAVAL, f"{', '.join(ids)} assault {target} from the sea at {from_sea}; fight the combat normally",
                arithmetic=f"amphibious capacity {area.amphibious_used} of {cap}", result=ids)
        res.result = {"units": ids, "target": target}
        return res

    def assault_outcome(self, st: IndochinaState, area: StagingArea, unit_ids: Iterable[str], target: str,
                        may_advance: bool) -> Resolution:
        """After the combat: a result that lets the attacker advance lands the units on the (now empty) hex;
        any other result sends them back to the staging area with no further penalty."""
        self._on()
        ids = list(unit_ids)
        t = st.map.hex(target)
        res = Resolution()
        if may_advance:
            if st.units_at(t, Side.COMMUNIST):
                raise RuleViolation(NAVAL, f"{target} still holds enemy units; nobody advances into it")
            for uid in ids:
                area.units.discard(uid)
                st.unit(uid).hex = t
                area.spent.add(uid)
            res.add(NAVAL, f"the result lets them advance: they land on {target}", result="landed")
            res.result = "landed"
        else:
            res.add(NAVAL, "no advance after combat: they go back to the staging area, no other penalty",
                    result="returned")
            res.result = "returned"
        return res

    def invasion_supply(self, lg: Logistics, strengths: tuple[int, ...]) -> Resolution:
        """Spend the Attack Enhancement supply point for invading units to double their strength; no line of
        supply is needed."""
        self._on()
        res = Resolution()
        cost = logistical_cost("attack")
        lg.spend(Side.FEF, cost, NAVAL, "invasion supply", res)
        doubled = tuple(2 * s for s in strengths)
        res.add(NAVAL, f"invasion supply doubles {strengths} to {doubled}, no line of supply traced",
                arithmetic=f"{sum(strengths)} x 2 = {sum(doubled)}", result=doubled)
        res.result = doubled
        return res

    def trace_water_los(self, st: IndochinaState, side: Side, target: Hex | str, year: int | None = None,
                        bases: Iterable[str] | None = None) -> Resolution:
        """Like the rule-15 line of supply, but the FEF's two last hexes and the Communist six-hex radius may
        cross all-lake and all-sea hexes. DNA zones of control reach into them too."""
        self._on()
        if isinstance(target, str):
            target = st.map.hex(target)
        res = Resolution()
        zoc = enemy_zoc_with_dna(st, side)
        wanted = set(bases) if bases is not None else None
        found: list[SupplyLine] = []
        for b in sorted((u for u in st.on_map(side) if u.counter.type == "base"
                         and (wanted is None or u.id in wanted)), key=lambda u: u.id):
            if ultimate_source(st, side, b.hex, year).result is None:
                res.add("IC 15.24", f"base {b.id} reaches no ultimate supply source")
                continue
            road_max, off_max = los_limits(side, b.disrupted, st.monsoon)
            got = _water_search(st, side, b.hex, target, road_max, off_max, zoc)
            if got is not None:
                path, road, off = got
                found.append(SupplyLine(b.id, tuple(path), road, off))
        if not found:
            res.add(NAVAL, f"no line of supply reaches {st.label(target)}, even over water", result=None)
            return res
        best = min(found, key=lambda s: (len(s.path), s.base))
        water = [st.label(h) for h in best.path if st.terrain(h) in WATER]
        res.add(NAVAL, f"line of supply from base {best.base}: "
                + " -> ".join(st.label(h) for h in best.path)
                + (f" (over water: {', '.join(water)})" if water else ""), result=best)
        res.result = best
        return res


def _water_line(st: IndochinaState, side: Side, target: Hex, year: int | None) -> Resolution:
    """The rule-15 line of supply over water, for the logistics procedures when Naval Operations is on."""
    return NavalOperations(True).trace_water_los(st, side, target, year)


logistics.WATER_LINE = _water_line


def _water_block(st: IndochinaState, side: Side, h: Hex, zoc: set[Hex], off_part: bool) -> bool:
    if h not in st.map or st.units_at(h, side.enemy):
        return True
    if side is Side.FEF and st.map.info(h).attr("country") == "China":
        return True
    if st.terrain(h) in WATER and not off_part:
        return True
    return h in zoc and not st.units_at(h, side)


def _water_search(st, side, start, target, road_max, off_max, zoc):
    """The supply-line search of rule 15, with lake and sea hexes open to the off-road part."""
    return supply_search(st, side, start, target, road_max, off_max, zoc,
                   blocked=lambda h, n, off_part: _water_block(st, side, n, zoc, off_part))
