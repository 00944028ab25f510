"""No Trumpets No Drums, rule 18: supply lines.

Two systems (18.1):

* **Allied** (18.1.1): a line of hexes of any length, free of enemy units and enemy zones of control, to the
  unit's corps headquarters or a major city (either held by Allied units), an Allied firebase, the fleet on the
  coast, or a hex an air supply mission reached this turn (``air_sources``, 11.1.3); a ranger may also end it at
  any town held by Allied units.
* **Communist** (18.1.2, 18.6.2): a line of at most six movement points, free of enemy units, zones of control
  and zones of influence, to any hex of North Vietnam, a Communist supply unit or, for Viet Cong units inside
  South Vietnam, a VC Base (28.9.2).

Common to both: no line enters an off-board zone (18.1.3) or crosses the border of a neutral state (18.1.4; North
Vietnam is not one for this rule, inventory 6.4, or no unit outside it could ever reach it); some units are
always in supply (18.2.1.1-2, 18.5); every unit is in supply when it defends (18.4); zones have their own rules
(18.7); an attached Allied unit outside the areas its corps may use is out of supply (5.3).

Readings: the unit's own hex may lie in an enemy zone (the line leaves it); every other hex of the line, the
source's included, must be free. A friendly unit does not cancel an enemy zone of control there (inventory 6.10:
the text never says so). The six points of a Communist line are priced as a face-up NVA division would pay to
enter each hex, roads and trails included (inventory 6.11), walking from the unit to the source. The fleet is
"on the coast" in a coastal hex or in an all-sea hex next to one; its line ends in its hex or, from the sea, in a
coastal hex next to it.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable

from ..core import Hex, Resolution, implements
from ..core.errors import RuleViolation
from ..core.paths import cheapest_path
from .charts import NtndCharts, default_charts, terrain_cost
from .geography import CORPS
from .movement import is_guerrilla, route_between
from .state import NtndState
from .zones import enemy_zoc, enemy_zoi

#: 18.1.2 and 18.6.2: the length of a Communist supply line in movement points
COMMUNIST_LINE = Fraction(6)
#: 18.2.1.1 and 18.2.1.2: unit types always in supply (guerrilla regiments and inverted units are tested apart)
ALWAYS_SUPPLIED = {"allied": ("patrol_boat", "fleet", "gunship", "fighter", "carrier", "sac", "soa", "militia",
                              "green_beret", "airmobile", "firebase"),
                   "communist": ("cadre", "sapper", "dummy", "supply", "vc_base", "interceptor")}
#: 18.7.1 and 18.7.2: zones where some units are always in supply
HOME_ZONES = {"Laos": ("Luang Prabang", "Vientiane", "Plain of Jars"), "NVA": ("China", "Hanoi", "Haiphong")}


@dataclass(frozen=True)
class SupplyLine:
    """A line found: the hexes from the unit to the source (labels), its cost in movement points (Communist
    lines; the number of hexes entered for Allied ones) and what it reaches."""

    path: tuple[str, ...]
    cost: Fraction
    source: str


@implements("NT 18.2.1.1", "NT 18.2.1.2", "NT 18.5")
def always_in_supply(state: NtndState, unit: str) -> str | None:
    """The rule by which a unit needs no line (None if it needs one)."""
    c, piece = state.counter(unit), state.piece(unit)
    if c.type in ALWAYS_SUPPLIED[c.side]:
        return "NT 18.2.1.1" if c.side == "allied" else "NT 18.2.1.2"
    if c.side == "communist" and (not piece.face_up or is_guerrilla(state, unit)):
        return "NT 18.2.1.2"
    home = {"Laotian": "Laos", "Cambodian": "Cambodia"}.get(c.nationality)
    if home is not None and state.standing.get(home) == "neutral":
        return "NT 18.5"
    return None


@implements("NT 28.9.2", "NT 11.1.3")
def _sources(state: NtndState, unit: str, air_sources: Iterable[str] = ()) -> dict:
    """The supply sources of a unit's side, as a map from hex to a name. A VC Base serves only Viet Cong units
    inside South Vietnam (28.9.2); a supply unit and North Vietnam serve every Communist unit. ``air_sources``:
    the hexes air supply missions made Allied sources this turn (11.1.3, 18.1.1)."""
    g, c = state.geography, state.counter(unit)
    out: dict[Hex, str] = {}
    friendly = lambda h: state.side_at(g.label(h)) == c.side     # noqa: E731
    if c.side == "communist":
        for h in g.hexes_of_country("NV"):
            out[h] = "North Vietnam"
        here = state.hex_of(unit)
        vc_in_svn = c.nationality == "VC" and here is not None and g.country(here) == "SVN"
        for u in state.units("communist"):
            kind = state.counter(u).type
            if (kind == "supply" or (kind == "vc_base" and vc_in_svn)) and not state.in_zone(u) and u != unit:
                out[state.hex_of(u)] = u
        return out
    for label in air_sources:
        if label not in g.zones:
            out[g.hex(label)] = f"air supply at {label}"
    corps = state.piece(unit).corps
    hqs = [corps] if c.attachment == "attached" and corps in CORPS else list(CORPS) + ["Cambodia"]
    for area in hqs:
        h = g.hq_hex(area)
        if friendly(h):
            out[h] = f"{area} headquarters"
    for name, h in g.settlements().items():
        if friendly(h) and (g.is_city(h) or (c.type == "ranger" and g.is_town(h))):
            out.setdefault(h, name)
    for u in state.units("allied"):
        t = state.counter(u).type
        if state.in_zone(u) or t not in ("firebase", "fleet"):
            continue
        h = state.hex_of(u)
        if t == "firebase":
            out[h] = u
        elif g.is_coastal(h):
            out[h] = u
        else:
            for n in g.map.neighbors(h):
                if g.is_coastal(n):
                    out.setdefault(n, u)
    return out


@implements("NT 18.1.1", "NT 18.1.2", "NT 18.1.3", "NT 18.1.4", "NT 18.6.2")
def supply_line(state: NtndState, unit: str, *, enemy_declared: Iterable[str] = (), air_sources: Iterable[str] = (),
                charts: NtndCharts | None = None) -> SupplyLine | None:
    """The unit's supply line, or None if it has none (only the line: see :func:`in_supply` for the units that
    need none). ``enemy_declared``: the neutral countries the enemy has announced its zones of control reach."""
    charts = charts or default_charts()
    g, c = state.geography, state.counter(unit)
    start = state.hex_of(unit)
    if start is None:
        raise RuleViolation("NT 18.1.3", f"{unit} is in an off-board zone: no line is traced from a zone")
    side = c.side
    zoc = enemy_zoc(state, side, declared=enemy_declared)
    zoi = enemy_zoi(state, side) if side == "communist" else {}
    enemy_hexes = {state.hex_of(u) for u in state.units("allied" if side == "communist" else "communist")
                   if not state.in_zone(u)}
    sources = _sources(state, unit, air_sources if c.side == "allied" else ())

    def neutral(country: str) -> bool:
        return country in ("Laos", "Cambodia") and state.standing.get(country) == "neutral"

    def cost(a: Hex, b: Hex) -> Fraction | None:
        if g.is_all_sea(b) or b in enemy_hexes or b in zoc or b in zoi:
            return None
        ca, cb = g.country(a), g.country(b)
        if ca != cb and (neutral(ca) or neutral(cb)):
            return None
        if side == "allied":
            return Fraction(1)
        features = [f for f in ("road", "trail", "town", "city", "minor_river", "major_river", "coastal")
                    if g.has(b, f)]
        return terrain_cost(g.terrain(b), features, along=route_between(g, a, b), charts=charts)

    found = cheapest_path(start, lambda h: h in sources, g.map.neighbors, cost,
                          COMMUNIST_LINE if side == "communist" else None)
    if found is None:
        return None
    path, spent = found
    return SupplyLine(tuple(g.label(h) for h in path), spent, sources[path[-1]])


@implements("NT 18.2.1.3", "NT 18.4", "NT 18.7.1", "NT 18.7.2", "NT 18.7.3", "NT 5.3")
def in_supply(state: NtndState, unit: str, *, defending: bool = False, air_sources: Iterable[str] = (),
              enemy_declared: Iterable[str] = (), charts: NtndCharts | None = None,
              res: Resolution | None = None) -> bool:
    """Whether a unit is in supply now. ``defending``: it is checked for the opponent's turn (18.4: always in
    supply). ``air_sources``: the hex or zone of each air supply mission that got through this turn (11.1.3),
    once per mission. A hex is then an Allied source (18.1.1); in a zone each mission supplies two Allied ground
    units (18.7.3: our reading, when more are there, the first to have entered it)."""
    note = res.add if res is not None else (lambda *a, **k: None)
    c, piece = state.counter(unit), state.piece(unit)
    g = state.geography
    if defending:
        note("NT 18.4", f"{unit} defends: in supply", result=True)
        return True
    rule = always_in_supply(state, unit)
    if rule:
        note(rule, f"{unit} is always in supply", result=True)
        return True
    if c.attachment == "attached" and piece.corps in CORPS and \
            not g.may_operate_in(piece.corps, state.area_of(piece.location)):
        note("NT 5.3", f"{unit} is outside the areas of its corps {piece.corps}: out of supply", result=False)
        return False
    air_sources = tuple(air_sources)
    if state.in_zone(unit):
        zone = piece.location
        flights = air_sources.count(zone)
        if c.side == "allied" and flights:
            ground = [u for u in state.at(zone) if state.side_of(u) == "allied" and state.counter(u).ground_combat]
            if unit in ground[:2 * flights]:
                note("NT 18.7.3", f"{unit} in {zone}: supplied by air ({flights} mission(s), two units each)",
                     result=True)
                return True
        if c.nationality in ("Laotian", "PL") and zone in HOME_ZONES["Laos"]:
            note("NT 18.7.1", f"{unit}: a Laotian unit in {zone}", result=True)
            return True
        if c.nationality == "NVA" and zone in HOME_ZONES["NVA"]:
            note("NT 18.7.2", f"{unit}: a North Vietnamese unit in {zone}", result=True)
            return True
        want = "firebase" if c.side == "allied" else "supply"
        ok = any(state.counter(u).type == want and state.side_of(u) == c.side for u in state.at(zone) if u != unit)
        note("NT 18.7.3", f"{unit} in {zone}: " + (f"a {want} shares the zone" if ok else f"no {want} there"),
             result=ok)
        return ok
    line = supply_line(state, unit, enemy_declared=enemy_declared, air_sources=air_sources, charts=charts)
    if line is None:
        note("NT 18.1.2" if c.side == "communist" else "NT 18.1.1", f"{unit}: no supply line", result=False)
        return False
    note("NT 18.1.2" if c.side == "communist" else "NT 18.1.1",
         f"{unit}: line to {line.source} through {' '.join(line.path)}"
         + (f", {line.cost} MP" if c.side == "communist" else ""), result=True)
    return True


__all__ = ["ALWAYS_SUPPLIED", "COMMUNIST_LINE", "SupplyLine", "always_in_supply", "in_supply",
           "supply_line"]
