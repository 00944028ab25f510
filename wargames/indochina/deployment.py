"""Rule 38 set-up: who controls which city at the start, which counters each side sets up and where each may go.

Pure functions the game calls while it prompts the players through a scenario's set-up:

* :func:`initial_control` - every city and town of the map and who holds it at the start;
* :func:`control_militia` - the Communist militia that marks each Communist-held place (38, placed by the game
  before the Communist set-up);
* :func:`setup_slots` - the counters a side sets up, in order, each with its final id (:class:`Slot`);
* :func:`placement_problem` / :func:`legal_hexes` - why a counter may not start in a hex (citing the rule), and
  every hex where it may;
* :func:`fortification_slots`, :func:`fortification_problem`, :func:`legal_fortification_hexes` - the FEF's
  set-up fortifications;
* :func:`reinforcement_slots` - the scenario's own arrivals in a month, and where each goes;
* :func:`air_box` - what a side puts in the Air Available Box.

Each deployment's ``where`` is read from its structured ``placement`` (see
:class:`~wargames.indochina.scenario_data.Placement`); a deployment without one (an owner's older file) is read
from its ``country``, ``places`` and ``within`` fields.

Readings (each also recorded in the scenario files' provenance):

* North and south of Hue: a hex is north when its centre lies above the centre of Hue's hex (its row, with the
  half-row offset of its column), south when below; hexes level with Hue, and Hue itself, are on neither side.
* "Within N hexes of the X border": at most N hexes from the nearest hex of country X.
* "No guerrilla next to a friendly guerrilla": guerrillas of any Communist nationality in neighbouring hexes;
  two guerrillas in one hex are not adjacent to each other and are allowed (stacking limits still apply).
* Introductory scenario: the cities and towns it names no controller for are held by neither side at the start
  (special rule f); :func:`initial_control` gives them ``None``.
* Set-up fortifications: one a hex (16.2), in a playable hex, and only where an FEF unit or FEF militia holds
  the hex, since 16.4 removes a fortification no friendly unit holds.
* No FEF counter sets up in a city or town the Communist player holds at the start: its control militia goes
  there (17.1), and the two sides never share a hex (10.3).
* National armies set up in their own country (the scenario files say so with ``countries``): they never cross
  a border (22.1(2)), so "within one hex of a Vietnamese town" stays in Vietnam.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

from ..core import Hex, implements, spiral
from ..core.errors import DataError
from ..core.mapdata import MapData
from ..core.copies import immutable
from .combat import Side
from .counters import counter_id, make_counter, resolve
from .riverine import is_water_hex
from .scenario_data import Deployment, Month, Near, Placement, Reinforcement, Scenario, UnitEntry
from .stacking import stacking_limit
from .state import IndochinaState
from .units import Counter, stacking_value

INDOCHINA = ("Vietnam", "Laos", "Cambodia")          # 2.35
NEVER_ENTERED = ("Thailand", "Burma")                # 22.4
HOME = {"Vietnamese National Army": "Vietnam", "Cambodian National Army": "Cambodia",
        "Laotian National Army": "Laos", "Viet Minh": "Vietnam", "Khmer Issarak": "Cambodia",
        "Pathet Lao": "Laos"}
#: the rulebook's spellings and the usual modern ones, looked up both ways when a map names a place otherwise
SPELLINGS = {"Phnom Phen": "Phnom Penh", "Mon Cai": "Mong Cai", "Hai Giang": "Ha Giang", "Than Hoa": "Thanh Hoa",
             "Dong Hai": "Dong Hoi", "Quang Nai": "Quang Ngai", "Cao Mao": "Ca Mau", "Na Sanh": "Na San"}
AIR_TYPES = ("airstrike", "air transport", "naval bombardment")
NATIONS = {Side.FEF: ("French", "Vietnamese National Army", "Cambodian National Army", "Laotian National Army"),
           Side.COMMUNIST: ("Viet Minh", "Khmer Issarak", "Pathet Lao")}


@immutable
@dataclass(frozen=True)
class Slot:
    """One counter waiting to be set up (or to arrive): its deployment (an index into the side's
    ``deployment``, or ``reinforcements`` when ``kind`` is "reinforcement"), the counter with its final id,
    and the rule cited when a hex is refused. ``box``: the off-map box it goes to instead of a hex.
    ``alternatives``: other counters the player may take instead (a choice of nationality)."""

    side: Side
    deployment: int
    counter: Counter
    rule: str
    kind: str = "setup"                   # "setup", "control" or "reinforcement"
    box: str = ""
    month: Month | None = None
    where: str = ""
    alternatives: tuple[Counter, ...] = ()


@immutable
@dataclass(frozen=True)
class FortificationSlot:
    """One set-up fortification marker: which placement line of the scenario it belongs to and where it may go."""

    index: int                            # the placement line (scenario fortifications.placements)
    number: int                           # 1, 2, ... over all the side's markers
    placement: Placement
    where: str
    rule: str


# ---------------------------------------------------------------------------------------------- names

def _names(m: MapData) -> dict[str, list[Hex]]:
    cache = _cache(m)
    if "names" not in cache:
        out: dict[str, list[Hex]] = {}
        for h, info in m.hexes.items():
            n = info.attr("name")
            if n:
                out.setdefault(str(n).lower(), []).append(h)
        cache["names"] = out
    return cache["names"]


def named_hexes(m: MapData, name: str, source: str = "scenario", field: str = "places") -> list[Hex]:
    """The hexes of a named place (the rulebook's spelling or the usual modern one); DataError if none."""
    names = _names(m)
    alias = {**SPELLINGS, **{v: k for k, v in SPELLINGS.items()}}
    for n in (name, alias.get(name, "")):
        if n and n.lower() in names:
            return sorted(names[n.lower()], key=m.label)
    raise DataError(source, field, f"no hex of the map is named {name!r}")


_CACHES: dict[int, tuple[MapData, dict]] = {}


def _cache(m: MapData) -> dict:
    """Per-map memo (names, zones); kept for the last few maps only."""
    entry = _CACHES.get(id(m))
    if entry is None or entry[0] is not m:
        if len(_CACHES) > 16:
            _CACHES.clear()
        entry = (m, {})
        _CACHES[id(m)] = entry
    return entry[1]


def _country(m: MapData, h: Hex) -> str:
    cache = _cache(m)
    if "countries" not in cache:
        cache["countries"] = {x: str(i.attr("country", "")) for x, i in m.hexes.items()}
    return cache["countries"].get(h, "")


def _urban(m: MapData, h: Hex) -> bool:
    return m.has(h, "town") or m.has(h, "city")


# -------------------------------------------------------------------------------------------- control

@implements("IC 17.1", "IC 38 Introductory", "IC 38 Scenario 1", "IC 38 Scenario 2")
def initial_control(scenario: Scenario, m: MapData) -> dict[str, Side | None]:
    """Hex label -> who controls that city or town at the start, for every city and town of the map.

    Named places go to the side that lists them; a side's "all except" takes every other city and town of
    Indochina; Chinese ones are Communist (17.1). What no list covers is held by neither (the introductory
    scenario, special rule f).
    """
    out: dict[str, Side | None] = {}
    urban = sorted((h for h in m.hexes if _urban(m, h)), key=m.label)
    for h in urban:
        out[m.label(h)] = Side.COMMUNIST if _country(m, h) == "China" else None
    listed: dict[str, Side] = {}
    for side, c in scenario.control.items():
        if c.only is None:
            continue
        for i, p in enumerate(c.only):
            field = f"control.{side.value}.only[{i}]"
            hexes = [h for h in named_hexes(m, p.name, scenario.source, field) if _urban(m, h)]
            if not hexes and p.printed:
                hexes = [h for h in named_hexes(m, p.printed, scenario.source, field) if _urban(m, h)]
            if not hexes:
                raise DataError(scenario.source, field, f"{p.name!r} is no city or town of the map")
            for h in hexes:
                listed[m.label(h)] = side
    for side, c in scenario.control.items():
        if c.all_except is None:
            continue
        for h in urban:
            lab = m.label(h)
            if _country(m, h) in INDOCHINA and lab not in listed:
                out[lab] = side
    out.update(listed)
    return out


def _controller(st: IndochinaState, scenario: Scenario, h: Hex, slot: Slot) -> Side | None:
    """Who holds a city or town for a placement: the initial control at set-up, the game's control later."""
    if not st.is_urban(h):
        return None
    if slot.kind == "reinforcement":
        return st.controller(h)
    return _initial(st.map, scenario).get(st.label(h))


def _initial(m: MapData, scenario: Scenario) -> dict[str, Side | None]:
    cache = _cache(m)
    key = ("control", scenario.source, scenario.id)
    if key not in cache:
        cache[key] = initial_control(scenario, m)
    return cache[key]


# ----------------------------------------------------------------------------------------------- slots

def _placement_of(side: Side, d: Deployment | Reinforcement) -> Placement:
    """The structured where of a deployment; for a file without one, what its country/places/within say."""
    if d.placement is not None:
        return d.placement
    places = getattr(d, "places", ())
    within = getattr(d, "within", None)
    country = getattr(d, "country", None)
    near = None
    if places:
        near = Near(within or 0, tuple(places))
    elif within:
        near = Near(within, controlled_by=Side.FEF)
    box = d.where if d.where in ("Air Available Box", "Far Eastern Staging Area") else ""
    return Placement(box=box, countries=(country,) if country else (), near=near)


def _is_air(u: UnitEntry) -> bool:
    return u.type in AIR_TYPES


class _Numbers:
    """Running numbers per (nationality, type, size) for readable, stable ids."""

    def __init__(self) -> None:
        self.n: dict[tuple[str, str, str], int] = {}

    def next(self, side: Side, nat: str | None, u: UnitEntry) -> Counter:
        r = resolve(side, nat, u.type, u.size)
        key = (r.nationality, r.type, r.size)
        self.n[key] = self.n.get(key, 0) + 1
        return make_counter(side, nat, u.type, u.size, counter_id(r.nationality, r.type, r.size, self.n[key]))


def _all_slots(scenario: Scenario, side: Side) -> list[Slot]:
    """Every counter of a side in the one order that numbers them: control militia, set-up, reinforcements."""
    s = scenario.sides[side]
    rule = _rule(scenario, side)
    numbers = _Numbers()
    out: list[Slot] = []
    order = [i for i, d in enumerate(s.deployment) if d.control_militia]
    order += [i for i, d in enumerate(s.deployment) if not d.control_militia]
    for i in order:
        d = s.deployment[i]
        p = _placement_of(side, d)
        for u in d.units:
            if _is_air(u):
                continue
            for _ in range(u.count):
                c = numbers.next(side, u.nationality or d.nationality, u)
                out.append(Slot(side, i, c, p.rule or rule, "control" if d.control_militia else "setup", p.box,
                                where=d.where))
    months = sorted({m for r in s.reinforcements for m in r.turns})
    for m in months:
        for i, r in enumerate(s.reinforcements):
            if m not in r.turns:
                continue
            p = _placement_of(side, r)
            nats = r.nationality if isinstance(r.nationality, tuple) else (r.nationality,)
            for u in r.units:
                choice = nats
                if nats == (None,) and u.nationality is None and p.own_country:
                    # no nationality given, placed in "the same country": any nation with a home there
                    choice = tuple(n for n in NATIONS[side] if n in HOME)
                for _ in range(u.count):
                    first, *others = [numbers.next(side, u.nationality or n, u) for n in choice]
                    out.append(Slot(side, i, first, p.rule or rule, "reinforcement", p.box, m, r.where,
                                    tuple(others)))
    return out


def _rule(scenario: Scenario, side: Side) -> str:
    r = scenario.sides[side].restrictions
    return r.rule if r is not None else scenario.rule


@implements("IC 38.0", "IC 25.0", "IC 7.24")
def setup_slots(scenario: Scenario, side: Side, *, optional_rules: bool) -> list[Slot]:
    """The counters a side sets up on the map, each with its final id, in set-up order.

    The order puts the most tightly placed groups first (named places, then a city of one country, then one
    country, then anywhere) and, within each, the largest units first, so that a legal choice for an early
    counter does not use up the only room a later one had (the introductory FEF fills its five cities
    exactly). The rules let a player set up in any order. The control militia are left out (the game places
    them first: :func:`control_militia`), and so is the Air Available Box (:func:`air_box`). Units an
    optional rule adds (Death Commandos, 25.0) come only when ``optional_rules`` is on and the scenario does
    not switch optional rules off.
    """
    use_optional = optional_rules and not scenario.ignore_optional_rules
    s = scenario.sides[side]
    optional_types = {(i, u.type) for i, d in enumerate(s.deployment) for u in d.units if u.optional_rule}
    out = []
    for slot in _all_slots(scenario, side):
        if slot.kind != "setup" or slot.box:
            continue
        if (slot.deployment, slot.counter.type) in optional_types and not use_optional:
            continue
        out.append(slot)
    return sorted(out, key=lambda sl: (_tightness(_placement_of(side, s.deployment[sl.deployment])),
                                       -stacking_value(sl.counter)))


def _tightness(p: Placement) -> int:
    """How few hexes a placement allows, roughly: 0 for named places themselves ... 6 for anywhere."""
    n = p.near
    if n is not None and n.within == 0:
        return 0 if n.places else (1 if n.country else 2)
    if n is not None and n.places:
        return 3
    if p.border is not None or (n is not None and n.country) or p.not_near is not None:
        return 4
    if len(p.countries) == 1:
        return 5
    return 6


@implements("IC 38 Scenario 1", "IC 38 Scenario 2", "IC 17.1", "IC 17.35")
def control_militia(scenario: Scenario, m: MapData) -> list[tuple[Counter, str]]:
    """The Communist militia that marks each Communist-controlled place at the start, one a place, with the
    hex it goes in (38: placed before, and in addition to, the Communist set-up)."""
    side = Side.COMMUNIST
    slots = [s for s in _all_slots(scenario, side) if s.kind == "control"]
    if not slots:
        return []
    control = _initial(m, scenario)
    s = scenario.sides[side]
    out: list[tuple[Counter, str]] = []
    by_dep: dict[int, list[Slot]] = {}
    for slot in slots:
        by_dep.setdefault(slot.deployment, []).append(slot)
    taken: set[str] = set()
    for i, group in by_dep.items():
        d = s.deployment[i]
        p = _placement_of(side, d)
        if p.near is not None and p.near.places:
            labels = [m.label(h) for n in p.near.places
                      for h in named_hexes(m, n, scenario.source, f"sides.Communist.deployment[{i}].placement")]
        else:
            labels = [lab for lab, who in control.items() if who is side and _country(m, m.hex(lab)) != "China"]
            if p.countries:
                labels = [lab for lab in labels if _country(m, m.hex(lab)) in p.countries]
        labels = [lab for lab in labels if lab not in taken]
        if len(labels) != len(group):
            raise DataError(scenario.source, f"sides.Communist.deployment[{i}]",
                            f"places {len(group)} control militia but the map has {len(labels)} matching "
                            f"Communist-controlled places ({', '.join(labels)})")
        for slot, lab in zip(group, labels):
            out.append((slot.counter, lab))
            taken.add(lab)
    return out


@implements("IC 38 Introductory", "IC 38 Scenario 1", "IC 7.0", "IC 23.0")
def reinforcement_slots(scenario: Scenario, side: Side, month: Month | str) -> list[Slot]:
    """The scenario's own arrivals for a side in one month's mobilization phase (not those bought on the
    Mobilization chart). A slot with a ``box`` goes there (scenario 1's November 1950 FEF units: the Far
    Eastern Staging Area); the others go on the map where :func:`placement_problem` allows."""
    m = month if isinstance(month, Month) else Month(int(str(month)[:4]), int(str(month)[5:7]))
    return [s for s in _all_slots(scenario, side) if s.kind == "reinforcement" and s.month == m]


def choices(slot: Slot) -> list[Slot]:
    """The slot and one slot for each of its alternative counters (a choice of nationality), so that each can
    be offered with its own legal hexes."""
    return [slot] + [replace(slot, counter=c, alternatives=()) for c in slot.alternatives]


def air_box(scenario: Scenario, side: Side) -> dict[str, int]:
    """What a side puts in the Air Available Box at the start: air groups by type and the naval marker."""
    out: dict[str, int] = {}
    for d in scenario.sides[side].deployment:
        for u in d.units:
            if _is_air(u):
                out[u.type] = out.get(u.type, 0) + u.count
    return out


def _entry(scenario: Scenario, slot: Slot) -> Deployment | Reinforcement:
    s = scenario.sides[slot.side]
    return s.reinforcements[slot.deployment] if slot.kind == "reinforcement" else s.deployment[slot.deployment]


# ------------------------------------------------------------------------------------------ the checks

def _zone(st: IndochinaState, scenario: Scenario, near: Near, slot: Slot, field: str) -> set[Hex]:
    """Every hex on or within ``near.within`` of the places ``near`` names (without the places themselves when
    ``on_place`` is false)."""
    m = st.map
    if near.places:
        key = ("zone", near)
        cache = _cache(m)
        if key in cache:
            return cache[key]
        centres = [h for n in near.places for h in named_hexes(m, n, scenario.source, field)]
    else:
        cache = _cache(m)
        when = ("setup", scenario.source, scenario.id) if slot.kind != "reinforcement" \
            else ("now", frozenset(st.communist_cities))
        key = ("zone", near, when)
        if key in cache:
            return cache[key]
        centres = [h for h in m.hexes if _urban(m, h) and _controller(st, scenario, h, slot) is near.controlled_by
                   and (near.country is None or _country(m, h) == near.country)
                   and (near.kind == "any" or m.has(h, near.kind))]
    zone = {x for c in centres for x in spiral(c, near.within) if x in m}
    if not near.on_place:
        zone -= set(centres)
    cache[key] = zone
    return zone


def _border_zone(st: IndochinaState, country: str, within: int, scenario: Scenario, field: str) -> set[Hex]:
    m = st.map
    cache = _cache(m)
    key = ("border", country, within)
    if key not in cache:
        theirs = [h for h in m.hexes if _country(m, h) == country]
        if not theirs:
            raise DataError(scenario.source, field, f"the map has no {country} hexes, so its border cannot be found")
        edge = [h for h in theirs if any(n in m and _country(m, n) != country for n in h.neighbors())]
        cache[key] = {x for c in edge for x in spiral(c, within) if x in m and _country(m, x) != country}
    return cache[key]


def _level(h: Hex) -> int:
    """Twice the vertical position of a hex's centre (rows grow southward; odd and even columns differ by half)."""
    return 2 * h.r + h.q


def _terrain_problem(st: IndochinaState, c: Counter, h: Hex) -> str | None:
    if c.type == "DNA":
        if not is_water_hex(st, h):
            return f"IC 18.1: a DNA sets up only on a river, lake or coastal hex; {st.label(h)} is none"
        return None
    terr = st.terrain(h)
    row = st.tec().get(terr)
    cost = None if row is None else (row.heavy if c.unit_class == "Heavy" else row.light)
    if cost is None:
        return f"IC 9.5: no unit may enter {terr.replace('_', ' ')} ({st.label(h)})"
    return None


@implements("IC 10.5", "IC 10.3", "IC 17.35", "IC 18.1", "IC 22.3", "IC 22.4", "IC 38.0",
            "IC 38 Introductory", "IC 38 Scenario 1", "IC 38 Scenario 2")
def placement_problem(st: IndochinaState, scenario: Scenario, slot: Slot, hex: Hex | str,
                      placed_now: Iterable[Hex] = ()) -> str | None:
    """Why ``slot``'s counter may not start (or arrive) in ``hex``, naming the rule; None when it may.

    ``st`` holds the units already set up. ``placed_now``: hexes that already took a unit of this group this
    turn (for "one a hex" arrivals).
    """
    return _problem(st, scenario, slot, hex, set(placed_now), _Occupants(st))


class _Label:
    """A hex label worked out only when a refusal prints it."""

    __slots__ = ("st", "h")

    def __init__(self, st: IndochinaState, h: Hex) -> None:
        self.st, self.h = st, h

    def __str__(self) -> str:
        return self.st.label(self.h)

    __format__ = lambda self, spec: format(str(self), spec)


class _Occupants:
    """The units on the map by hex and side, indexed once for a batch of checks."""

    def __init__(self, st: IndochinaState) -> None:
        self.by: dict[tuple[Hex, Side], list] = {}
        for u in st.on_map():
            self.by.setdefault((u.hex, u.side), []).append(u)

    def at(self, h: Hex, side: Side) -> list:
        return self.by.get((h, side), [])


def _problem(st: IndochinaState, scenario: Scenario, slot: Slot, hex: Hex | str, placed_now: set,
             occ: _Occupants) -> str | None:
    m = st.map
    h = m.hex(hex) if isinstance(hex, str) else hex
    if h not in m:
        return f"{slot.rule}: {hex} is not a hex of the map"
    return _static(st, scenario, slot, h) or _dynamic(st, scenario, slot, h, placed_now, occ)


def _static(st: IndochinaState, scenario: Scenario, slot: Slot, h: Hex) -> str | None:
    """The checks that depend on the hex and the counter only (map, scenario words, terrain, borders)."""
    m = st.map
    lab, c, side = st.label(h), slot.counter, slot.side
    p = _placement_of(side, _entry(scenario, slot))
    rule = p.rule or slot.rule
    field = f"sides.{side.value}.{'reinforcements' if slot.kind == 'reinforcement' else 'deployment'}" \
            f"[{slot.deployment}].placement"
    if p.box:
        return f"{rule}: {c.id} goes to the {p.box}, not onto the map"
    country = _country(m, h)
    if country in NEVER_ENTERED:
        return f"IC 22.4: no unit ever sets up in {country} ({lab})"
    if country == "sea" and c.type != "DNA":
        return f"IC 9.5: {lab} is sea"
    problem = _terrain_problem(st, c, h)
    if problem:
        return problem
    if country == "China" and side is Side.FEF:
        return f"IC 22.3: FEF units never enter China ({lab})"
    if p.countries and country not in p.countries:
        return f"{rule}: {c.id} sets up in {' or '.join(p.countries)}; {lab} is in {country or 'no country'}"
    if p.own_country:
        home = HOME.get(c.nationality)
        if home and country != home:
            return f"{rule}: a {c.nationality} unit arrives in {home}; {lab} is in {country}"
    for ref, north in ((p.north_of, True), (p.south_of, False)):
        if not ref:
            continue
        centre = named_hexes(m, ref, scenario.source, field)[0]
        if h == centre:
            return f"{rule}: {ref} itself is excluded"
        mine, theirs = _level(h), _level(centre)
        if (north and mine >= theirs) or (not north and mine <= theirs):
            return f"{rule}: {lab} is not {'north' if north else 'south'} of {ref} (reading: by hex centre, " \
                   f"{ref}'s own level excluded)"
    if side is Side.FEF and slot.kind != "reinforcement" and st.is_urban(h) \
            and _controller(st, scenario, h, slot) is Side.COMMUNIST:
        return f"{rule}: {lab} is a city or town the Communist player holds at the start (17.1)"
    if p.near is not None and h not in _zone(st, scenario, p.near, slot, field):
        return f"{rule}: {lab} is not {_say_near(p.near)}"
    if p.not_near is not None and h in _zone(st, scenario, p.not_near, slot, field):
        return f"{rule}: {lab} is {_say_near(p.not_near)}, where this group may not set up"
    if p.border is not None:
        other, n = p.border
        if h not in _border_zone(st, other, n, scenario, field):
            return f"{rule}: {lab} is more than {n} hexes from the {other} border"
    r = scenario.sides[side].restrictions
    if r is not None and slot.kind == "setup" and st.is_urban(h):
        if r.no_city_or_town == "any":
            return f"{r.rule}: no {side.value} unit starts in a city or town hex ({lab})"
        if r.no_city_or_town == "fef_controlled" and _controller(st, scenario, h, slot) is Side.FEF:
            return f"{r.rule}: no {side.value} unit starts in a city or town the FEF controls ({lab})"
    return None


def _dynamic(st: IndochinaState, scenario: Scenario, slot: Slot, h: Hex, placed_now: set,
             occ: _Occupants) -> str | None:
    """The checks that depend on the units already placed (and on control, for arrivals during play)."""
    return _Dynamic(st, scenario, slot, placed_now, occ).problem(h)


class _Dynamic:
    """The position checks for one slot, with what they need worked out once for a batch of hexes."""

    def __init__(self, st: IndochinaState, scenario: Scenario, slot: Slot, placed_now: set, occ: _Occupants):
        self.st, self.slot, self.placed, self.occ = st, slot, placed_now, occ
        self.p = _placement_of(slot.side, _entry(scenario, slot))
        self.rule = self.p.rule or slot.rule
        r = scenario.sides[slot.side].restrictions
        self.r = r if r is not None and slot.kind == "setup" else None
        c = slot.counter
        self.apart = self.r is not None and self.r.guerrillas_apart and c.type == "guerrilla"
        self.value = stacking_value(c)
        self.needs_friend = self.p.occupied or self.p.on_cadre

    def problem(self, h: Hex) -> str | None:
        occ, side, c, p = self.occ, self.slot.side, self.slot.counter, self.p
        enemy = occ.at(h, side.enemy)
        friends = occ.at(h, side)
        if not enemy and not friends and not self.needs_friend and not self.apart and \
                not (p.one_per_hex and h in self.placed):
            return None                   # an empty hex: nothing below can refuse it
        lab, rule = _Label(self.st, h), self.rule
        if enemy:
            if p.not_with_enemy:
                return f"{rule}: {lab} holds enemy units"
            if self.r is not None and self.r.not_with_enemy_units:
                return f"{self.r.rule}: no {side.value} unit starts with enemy units ({lab})"
            return f"IC 10.3: {lab} holds enemy units ({enemy[0].id}); the two sides never share a hex"
        if p.occupied and not friends:
            return f"{rule}: {c.id} arrives in a city the FEF occupies; no FEF unit is in {lab}"
        if p.on_cadre and not any(u.counter.type == "cadre" and not u.disrupted for u in friends):
            return f"{rule}: {c.id} arrives on a friendly cadre; {lab} has none"
        if p.one_per_hex and h in self.placed:
            return f"{rule}: {lab} already took one unit of this group"
        if c.type == "militia" and any(u.counter.type == "militia" for u in friends):
            return f"IC 17.35: {lab} already holds a Communist militia"
        if self.apart:
            for n in h.neighbors():
                if any(u.counter.type == "guerrilla" for u in occ.at(n, side)):
                    return f"{self.r.rule}: a guerrilla may not start next to a friendly guerrilla " \
                           f"({self.st.label(n)})"
        if self.slot.kind != "reinforcement" and friends:
            total = sum((stacking_value(u.counter) for u in friends), self.value)
            limit = stacking_limit(self.st, h)
            if total > limit:
                return f"IC 10.5: {lab} would hold {total} divisions' worth against a set-up limit of {limit}"
        return None


def _say_near(n: Near) -> str:
    what = ", ".join(n.places) if n.places else (
        f"a{'n' if n.kind == 'any' else ''} {'city or town' if n.kind == 'any' else n.kind} the "
        f"{n.controlled_by.value} controls" + (f" in {n.country}" if n.country else ""))
    if n.within == 0:
        return f"on {what}"
    if not n.on_place:
        return f"within {n.within} of {what} (the place itself excluded)" if n.within > 1 else f"next to {what}"
    return f"on or within {n.within} hex{'es' if n.within > 1 else ''} of {what}"


def legal_hexes(st: IndochinaState, scenario: Scenario, slot: Slot, placed_now: Iterable[Hex] = ()) -> list[Hex]:
    """Every hex where ``slot``'s counter may start, sorted by label (empty for a box slot)."""
    p = _placement_of(slot.side, _entry(scenario, slot))
    if p.box:
        return []
    placed = set(placed_now)
    m = st.map
    hexes = m.hexes
    if p.near is not None:
        field = f"sides.{slot.side.value}.deployment[{slot.deployment}].placement"
        hexes = _zone(st, scenario, p.near, slot, field)
    c = slot.counter
    key = ("static", scenario.source, scenario.id, slot.side, slot.kind, slot.deployment, c.type == "DNA",
           c.unit_class, c.nationality, frozenset(st.communist_cities) if slot.kind == "reinforcement" else None,
           id(st.charts) if st.charts else None)
    cache = _cache(m)
    if key not in cache:
        if p.countries:
            hexes = [h for h in hexes if _country(m, h) in p.countries]
        cache[key] = sorted((h for h in hexes if _static(st, scenario, slot, h) is None), key=m.label)
    check = _Dynamic(st, scenario, slot, placed, _Occupants(st)).problem
    return [h for h in cache[key] if check(h) is None]


# ------------------------------------------------------------------------------------- fortifications

@implements("IC 16.0", "IC 38 Scenario 1", "IC 38 Scenario 2")
def fortification_slots(scenario: Scenario, side: Side = Side.FEF) -> list[FortificationSlot]:
    """The fortification markers a side sets up, one slot a marker, in the scenario's order."""
    f = scenario.sides[side].fortifications
    if f is None or "IC 16.0" in scenario.ignored_rules:
        return []
    out = []
    for i, (count, where) in enumerate(f.placements):
        p = f.rules[i] if i < len(f.rules) and f.rules[i] is not None else Placement(near=Near(0, (where,)))
        for _ in range(count):
            out.append(FortificationSlot(i, len(out) + 1, p, where, p.rule or _rule(scenario, side)))
    return out


@implements("IC 16.2", "IC 16.4")
def fortification_problem(st: IndochinaState, scenario: Scenario, slot: FortificationSlot, hex: Hex | str,
                          fortified: Iterable[Hex] = (), side: Side = Side.FEF) -> str | None:
    """Why a set-up fortification may not go in ``hex`` (``fortified``: hexes that already have one)."""
    m = st.map
    h = m.hex(hex) if isinstance(hex, str) else hex
    if h not in m:
        return f"{slot.rule}: {hex} is not a hex of the map"
    lab = st.label(h)
    p = slot.placement
    probe = Slot(side, 0, _probe(side), slot.rule)
    field = f"sides.{side.value}.fortifications.placements[{slot.index}].placement"
    if p.countries and _country(m, h) not in p.countries:
        return f"{slot.rule}: this fortification goes in {' or '.join(p.countries)}; {lab} is not"
    if p.near is not None and h not in _zone(st, scenario, p.near, probe, field):
        return f"{slot.rule}: {lab} is not {_say_near(p.near)}"
    if st.terrain(h) in ("all_sea", "all_lake"):
        return f"IC 16.2: a fortification goes only in a playable hex; {lab} is {st.terrain(h).replace('_', ' ')}"
    if h in set(fortified) or st.has(h, "fortification"):
        return f"IC 16.2: {lab} already has a fortification (one a hex)"
    held = st.units_at(h, side) or (side is Side.FEF and st.is_urban(h)
                                    and _controller(st, scenario, h, probe) is Side.FEF
                                    and int(m.info(h).attr("militia", 0) or 0) > 0)
    if not held:
        return f"IC 16.4: no {side.value} unit or militia holds {lab}, so a fortification there would be removed"
    return None


def _probe(side: Side) -> Counter:
    return Counter("fortification probe", side, "base", "battalion", 0, 0, 0, 0)


def legal_fortification_hexes(st: IndochinaState, scenario: Scenario, slot: FortificationSlot,
                              fortified: Iterable[Hex] = (), side: Side = Side.FEF) -> list[Hex]:
    """Every hex where the fortification may go, sorted by label."""
    done = set(fortified)
    hexes = st.map.hexes
    if slot.placement.near is not None:
        probe = Slot(side, 0, _probe(side), slot.rule)
        hexes = _zone(st, scenario, slot.placement.near, probe,
                      f"sides.{side.value}.fortifications.placements[{slot.index}].placement")
    return sorted((h for h in hexes if fortification_problem(st, scenario, slot, h, done, side) is None),
                  key=st.label)


__all__ = ["FortificationSlot", "Slot", "air_box", "choices", "control_militia", "fortification_problem", "fortification_slots",
           "initial_control", "legal_fortification_hexes", "legal_hexes", "named_hexes", "placement_problem",
           "reinforcement_slots", "setup_slots"]
