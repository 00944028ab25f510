"""Scenario Rule 2: setting a scenario up on the valley, every placement a player's decision.

The order is the rule's: the French place the units of their dispositions (SR 2.1), the Vietminh place their
works within the scenario's trench allowance (SR 2.2), then their units (SR 2.3) and the headquarters marker
of each of their regiments (C 12.B.3), and last the French put their aircraft on the Air Chart, choosing how
many Air Force fighter-bombers and spotters to base in the revetment hex (SR 2.4, C 31). The engine offers one
placement at a time and refuses any that breaks a rule; a set-up stage ends when its last piece is placed
(the works stage when the Vietminh player says so).

Readings (the text is silent): a headquarters marker goes into a jungle zone of the Vietminh player's choice,
as the return rule only asks which zone holds it (C 12.B.3); the two F8F and three Cricket counters scenario 1
requires in the revetment are a floor, and the general permission to base eligible aircraft there still lets
the French base more (SR 2.4).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Sequence

from ..core import Hex, Resolution, implements
from ..core.actions import Action
from ..core.errors import RuleViolation
from ..core.game import Prompt, handles
from .entrench import EQUIVALENTS, TRENCH_TERRAIN
from .play import EndPhase, PhasePlay
from .stacking import stacking_problem
from .strongpoints import controller, strongpoint_at
from .terrain import complex_of, jungle_zone, strongpoints, villages
from .units import Side, UnitClass, UnitState
from .zoc import zone_of_control

#: SR 2.3: a trench marker in partial jungle needs a battalion of at least this strength under it.
GARRISON_STRENGTH = 6


@dataclass
class SetupBook:
    """What is still to be placed, and where each unit may go (the disposition it belongs to)."""

    french: list[str] = field(default_factory=list)          # unit ids, in the order of the dispositions
    vietminh: list[str] = field(default_factory=list)
    places: dict[str, str] = field(default_factory=dict)    # unit id -> its disposition's "at" (None: anywhere)
    allowance: int = 0                                      # trench-hex equivalents (SR 1.B.5)
    headquarters: list[str] = field(default_factory=list)   # regiments whose HQ marker is still to be placed
    aircraft: bool = False                                  # the French still put their aircraft on the chart
    revetment_min: dict[str, int] = field(default_factory=dict)   # counters that must start there (SR 2.4)


# --------------------------------------------------------------------------- where units may go

def place_hexes(state, where: str | None, side: Side) -> list[Hex]:
    """The hexes a disposition's ``at`` names: a strongpoint, the French-held (or Vietminh-held) strongpoints of
    a complex, a village, "on or adjacent to" a place, or (None) the whole map."""
    m = state.map
    if where is None:
        return list(m.derived("sorted hexes", lambda: sorted(m.hexes)))
    if where.lower().startswith("any "):            # "Any full jungle hex" (Sc 2)
        kind = where.lower()[4:].removesuffix(" hex").replace(" ", "_")
        return list(m.derived(("any", kind), lambda: sorted(
            h for h in m.hexes if m.terrain(h) == kind or kind not in ("full_jungle", "partial_jungle"))))
    text = where
    around = text.lower().startswith("on or adjacent to ")
    if around:
        text = text[len("on or adjacent to "):]
    sps = strongpoints(m)
    from .scenarios import parse_place, roster_from_map
    name, _ = parse_place(text)
    roster = roster_from_map(m)
    if name in roster.complexes:
        names = [n for n in roster.complexes[name] if controller(state, n) is side]
    elif name in villages(m):
        hexes = [villages(m)[name]]
        names = []
    else:
        names = [roster.code(name)]
        if names[0] not in sps:
            raise RuleViolation("C SR 2", f"{where!r} names no strongpoint, complex or village of the map")
    hexes = [h for n in names for h in sps[n]] if names else hexes
    if around:
        hexes = sorted({n for h in hexes for n in [h, *m.neighbors(h)]})
    return sorted(hexes)


@implements("C SR 2")
def french_place_problem(state, book: SetupBook, u: UnitState, h: Hex) -> str | None:
    """Why a French unit may not be set up in ``h`` (SR 2.1), or None."""
    if h not in place_hexes(state, book.places.get(u.id), Side.FRENCH):
        return f"{u.id} sets up in {book.places.get(u.id)}, and {state.label(h)} is not one of its hexes"
    problem = stacking_problem([*state.units_at(h, Side.FRENCH), u])
    return f"{state.label(h)}: {problem}" if problem else room_problem(state, book, u, h)


def _vm_ground(state, h: Hex) -> bool:
    """Jungle, works, or a strongpoint the Vietminh control (SR 2.3)."""
    m = state.map
    if m.terrain(h) in ("full_jungle", "partial_jungle") or h in state.works:
        return True
    name = strongpoint_at(state, h)
    return name is not None and controller(state, name) is Side.VIETMINH


def unmanned_trenches(state) -> list[Hex]:
    """Trench markers in partial jungle without a Vietminh battalion of six strength points under them."""
    return [h for h, k in sorted(state.works.items()) if k == "trench" and state.map.terrain(h) == "partial_jungle"
            and not any(u.counter.is_battalion and u.strength >= GARRISON_STRENGTH
                        for u in state.units_at(h, Side.VIETMINH))]


@implements("C SR 2")
def vietminh_place_problem(state, book: SetupBook, u: UnitState, h: Hex) -> str | None:
    """Why a Vietminh unit may not be set up in ``h`` (SR 2.3), or None."""
    where = book.places.get(u.id)
    if where is not None and h not in place_hexes(state, where, Side.VIETMINH):
        return f"{u.id} sets up in {where}, and {state.label(h)} is not one of its hexes"
    if where is None and not _vm_ground(state, h):
        return (f"{state.label(h)} is not jungle, a trench, tunnel or pit, or a strongpoint the Vietminh "
                f"control")
    named = where is not None and not where.lower().startswith("any ")
    if not named and h in zone_of_control(state, Side.FRENCH):      # a place the scenario names is where it says
        return f"{state.label(h)} is in a French zone of control"
    problem = stacking_problem([*state.units_at(h, Side.VIETMINH), u])
    if problem:
        return f"{state.label(h)}: {problem}"
    # keep enough strong battalions for every partial-jungle trench still without one (SR 2.3)
    strong = u.counter.is_battalion and u.strength >= GARRISON_STRENGTH
    need = [x for x in unmanned_trenches(state) if x != h or not strong]
    spare = _free_garrisons(state, book) - (1 if strong and not named else 0)
    if len(need) > spare:
        return (f"the trench markers in partial jungle at {', '.join(state.label(x) for x in need)} each need a "
                f"battalion of {GARRISON_STRENGTH} strength points, and too few would be left")
    return room_problem(state, book, u, h) if named else None


def _root_zone(state, h: Hex) -> str | None:
    """The jungle zone a partial-jungle root traces back to: that of the full jungle beside it."""
    zones = sorted({state.map.info(n).attr("zone") for n in state.map.neighbors(h)
                    if state.map.terrain(n) == "full_jungle"} - {None})
    return zones[0] if zones else None


def _systems(state, works: dict[Hex, str]) -> list[tuple[set, set]]:
    """Connected systems of works and the zones of their partial-jungle roots."""
    left, out = set(works), []
    while left:
        start = left.pop()
        group, todo = {start}, [start]
        while todo:
            x = todo.pop()
            for n in state.map.neighbors(x):
                if n in left:
                    left.remove(n)
                    group.add(n)
                    todo.append(n)
        roots = {_root_zone(state, x) for x in group if state.map.terrain(x) == "partial_jungle"}
        out.append((group, roots))
    return out


@implements("C SR 2", "C 18")
def works_problem(state, book: SetupBook, kind: str, hexes: Sequence[Hex]) -> str | None:
    """Why these works may not be set up (SR 2.2), or None."""
    if kind not in EQUIVALENTS:
        return f"{kind!r} is not a kind of work (trench, tunnel, weapons_pit)"
    if not hexes or len(set(hexes)) != len(hexes):
        return "name each hex once"
    works = dict(state.works)
    for h in hexes:
        m = state.map
        if h in works:
            return f"{state.label(h)} already has a {works[h].replace('_', ' ')}"
        if state.units_at(h, Side.FRENCH):
            return f"{state.label(h)} holds a French unit"
        terr = m.terrain(h)
        root = kind == "trench" and terr == "partial_jungle"
        if kind == "tunnel" and terr != "hill":
            return f"a tunnel complex is built only on a hill, and {state.label(h)} is {terr}"
        if kind != "tunnel" and not root and terr not in TRENCH_TERRAIN and "strongpoint" not in m.info(h).features:
            return f"{state.label(h)} is {terr.replace('_', ' ')}: no trench may be dug there"
        if not root and not any(n in works for n in m.neighbors(h)):
            return f"{state.label(h)} does not join a line of works leading back to partial jungle"
        if kind == "weapons_pit" and not any(works.get(n) == "trench" for n in m.neighbors(h)):
            return f"a weapons pit goes next to a trench marker, and {state.label(h)} has none beside it"
        works[h] = kind
    roots = sum(1 for x, k in works.items() if k == "trench" and state.map.terrain(x) == "partial_jungle")
    free = _free_garrisons(state, book)
    if roots > free:
        return (f"{roots} trench markers in partial jungle would each need a battalion of {GARRISON_STRENGTH} "
                f"strength points, and only {free} can be set up there (SR 2.3)")
    total = sum(EQUIVALENTS[k] for k in works.values())
    if total > book.allowance:
        return f"{total} trench-hex equivalents would exceed the scenario's {book.allowance}"
    for group, roots in _systems(state, works):
        if len(roots) == 1:
            size = sum(EQUIVALENTS[works[x]] for x in group)
            if 2 * size > book.allowance:
                return (f"the works tracing back only to jungle zone {next(iter(roots)) or '(none)'} would count "
                        f"{size} equivalents, more than half of the scenario's {book.allowance}")
    return None


def _free_garrisons(state, book: SetupBook) -> int:
    """Vietminh battalions of six strength points or more still to be set up wherever the rules allow."""
    return sum(1 for uid in book.vietminh if state.unit(uid).counter.is_battalion
               and state.unit(uid).strength >= GARRISON_STRENGTH
               and (book.places.get(uid) is None or book.places[uid].lower().startswith("any ")))


# --------------------------------------------------------------------------- headquarters markers, aircraft

def jungle_zones(state) -> list[str]:
    """The jungle zones of the map (C 8, C 13), remembered per map."""
    m = state.map
    return m.derived("jungle zones", lambda: sorted({z for h in m.hexes if (z := jungle_zone(m, h)) is not None}))


@implements("C SR 2", "C 12")
def headquarters_problem(state, book: SetupBook, regiment: str, zone: str) -> str | None:
    """Why a regiment's headquarters marker may not be set up in ``zone`` (C 12.B.3), or None."""
    if regiment not in book.headquarters:
        return (f"regiment {regiment!r} has no headquarters marker waiting to be placed (waiting: "
                f"{', '.join(book.headquarters) or 'none'})")
    zones = jungle_zones(state)
    if zone not in zones:
        return f"{zone!r} is not a jungle zone of the map ({', '.join(zones)})"
    return None


def baseable(state) -> dict[str, int]:
    """Counters of each type on the Air Chart that may be based in the revetment hex at set-up: the Available
    and Serviceable Air Force fighter-bombers and spotters (SR 2.4, C 31); none without a revetment hex."""
    from .air import air_type, revetment_hex
    out: dict[str, int] = {}
    if state.air is None or revetment_hex(state) is None:
        return out
    for a in state.air.in_box("available"):
        if air_type(state, a).may_base_at_dien_bien_phu:
            t = state.air.counters[a]
            out[t] = out.get(t, 0) + 1
    return out


@implements("C SR 2", "C 31")
def revetment_problem(state, book: SetupBook, counts: Sequence) -> str | None:
    """Why the French may not base these counters in the revetment hex at set-up (SR 2.4), or None.
    ``counts`` pairs an aircraft type with the number of its counters to base there."""
    able = baseable(state)
    chosen: dict[str, int] = {}
    for pair in counts:
        if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)
                and isinstance(pair[1], int) and not isinstance(pair[1], bool)):
            return f"{pair!r} is not a pair of an aircraft type and a number of counters"
        t, n = pair
        if t in chosen:
            return f"{t} is named twice"
        if t not in able:
            return (f"{t} may not be based at Dien Bien Phu: only Air Force fighter-bombers and spotters of the "
                    f"Available and Serviceable box may ({', '.join(sorted(able)) or 'none here'}; C 31)")
        if not 0 <= n <= able[t]:
            return f"{n} {t}: the Air Chart has {able[t]} available"
        chosen[t] = n
    for t, n in sorted(book.revetment_min.items()):
        if chosen.get(t, 0) < n:
            return f"in this scenario at least {n} {t} counters start in the revetment hex (SR 2.4)"
    return None


def revetment_choices(state, book: SetupBook) -> list[tuple[tuple[str, int], ...]]:
    """Every way to base the eligible counters in the revetment within the scenario's floor (SR 2.4)."""
    from itertools import product
    able = baseable(state)
    types = sorted(able)
    ranges = [range(book.revetment_min.get(t, 0), able[t] + 1) for t in types]
    return [tuple((t, n) for t, n in zip(types, ns) if n) for ns in product(*ranges)]


# --------------------------------------------------------------------------- the set-up through Game

@dataclass(frozen=True)
class Place(Action):
    """Set a unit up in a hex (SR 2.1, SR 2.3)."""
    unit: str
    hex: str


@dataclass(frozen=True)
class PlaceWorks(Action):
    """Set Vietminh works up: a line of trench hexes, a tunnel or a weapons pit (SR 2.2)."""
    kind: str
    hexes: tuple[str, ...]


@dataclass(frozen=True)
class PlaceHeadquarters(Action):
    """Set a Vietminh regiment's headquarters marker up in a jungle zone (SR 2.3, C 12.B.3)."""
    regiment: str
    zone: str


@dataclass(frozen=True)
class BaseAircraft(Action):
    """Put the aircraft on the Air Chart: how many counters of each type start in the revetment hex (SR 2.4,
    C 31); the rest stay Available and Serviceable. ``revetment`` pairs a type with a number of counters."""
    revetment: tuple[tuple[str, int], ...] = ()


def _stage(game) -> str:
    return game.state.setup_stage


class SetupPlay(PhasePlay):
    """The set-up phase of a scenario (SR 2): French units, Vietminh works, Vietminh units and headquarters
    markers, French aircraft."""

    ACTIONS = (Place, PlaceWorks, PlaceHeadquarters, BaseAircraft)

    def play_open(self, res: Resolution) -> bool:
        st = self.state
        st.setup_stage = "French" if st.setup.french else "works"
        res.add("C SR 2", "set-up: the French player places the units of the dispositions" if st.setup.french
                else "set-up: the Vietminh player places works")
        SetupPlay._next(self, res)
        return st.setup_stage != "done"

    def play_prompt(self) -> Prompt:
        st, stage = self.state, _stage(self)
        if stage == "French":
            uid = st.setup.french[0]
            return Prompt("French", "C SR 2", f"set up the French units ({len(st.setup.french)} left; next "
                                              f"{uid} in {st.setup.places.get(uid)})", "set-up")
        if stage == "works":
            used = sum(EQUIVALENTS[k] for k in st.works.values())
            return Prompt("Vietminh", "C SR 2", f"place trenches, tunnels and weapons pits ({used} of "
                                                f"{st.setup.allowance} trench equivalents), or end", "set-up")
        if stage == "headquarters":
            return Prompt("Vietminh", "C SR 2", f"place the headquarters marker of each regiment in a jungle zone "
                                                f"(C 12.B.3; waiting: {', '.join(st.setup.headquarters)})", "set-up")
        if stage == "aircraft":
            floor = ", ".join(f"at least {n} {t}" for t, n in sorted(st.setup.revetment_min.items()))
            return Prompt("French", "C SR 2", "choose the aircraft based in the revetment hex of Dien Bien Phu "
                                              f"(SR 2.4, C 31{'; ' + floor if floor else ''})", "set-up")
        return Prompt("Vietminh", "C SR 2", f"set up the Vietminh units ({len(st.setup.vietminh)} left)", "set-up")

    def play_candidates(self) -> list:
        st, stage = self.state, _stage(self)
        book = st.setup
        if stage == "French":
            uid = book.french[0]
            return [Place(uid, st.label(h)) for h in place_hexes(st, book.places.get(uid), Side.FRENCH)]
        if stage == "works":
            out = []
            for h in sorted({n for w in st.works for n in st.map.neighbors(w)} - set(st.works)):
                out += [PlaceWorks(k, (st.label(h),)) for k in ("trench", "tunnel", "weapons_pit")]
            out += [PlaceWorks("trench", (st.label(h),)) for h in sorted(st.map.hexes)
                    if st.map.terrain(h) == "partial_jungle" and h not in st.works][:40]
            return out + [EndPhase()]
        if stage == "headquarters":
            return [PlaceHeadquarters(r, z) for r in book.headquarters for z in jungle_zones(st)]
        if stage == "aircraft":
            return [BaseAircraft(c) for c in revetment_choices(st, book)]
        uid = book.vietminh[0]
        where = book.places.get(uid)
        hexes = place_hexes(st, where, Side.VIETMINH)
        if where is None:
            hexes = [h for h in hexes if _vm_ground(st, h)]
        zoc = zone_of_control(st, Side.FRENCH) if where is None or where.lower().startswith("any ") else frozenset()
        u, out = st.unit(uid), []
        named = where is not None and not where.lower().startswith("any ")
        strong = u.counter.is_battalion and u.strength >= GARRISON_STRENGTH
        need = unmanned_trenches(st)
        if strong and not named and len(need) > _free_garrisons(st, book) - 1:
            hexes = need                  # the last strong battalions go under the unmanned trench markers
        for h in hexes:                   # a spread of legal hexes (any other legal hex is accepted too)
            if h not in zoc and not stacking_problem([*st.units_at(h, Side.VIETMINH), u]):
                out.append(Place(uid, st.label(h)))
        return out[::max(1, len(out) // 80)]

    def play_check(self, action) -> bool:
        if isinstance(action, Place):
            SetupPlay._check_place(self, action)
            return True
        if isinstance(action, PlaceWorks):
            SetupPlay._check_works(self, action)
            return True
        if isinstance(action, PlaceHeadquarters):
            SetupPlay._check_headquarters(self, action)
            return True
        if isinstance(action, BaseAircraft):
            SetupPlay._check_aircraft(self, action)
            return True
        return False

    def _check_place(self, a: Place) -> tuple[UnitState, Hex]:
        st, stage = self.state, _stage(self)
        book = st.setup
        u = st.unit(a.unit)
        h = st.map.hex(a.hex)
        todo = book.french if stage == "French" else book.vietminh if stage == "Vietminh" else []
        if u.id not in todo:
            raise RuleViolation("C SR 2", f"{u.id} is not waiting to be set up now (the {stage} stage)")
        why = (french_place_problem if stage == "French" else vietminh_place_problem)(st, book, u, h)
        if why:
            raise RuleViolation("C SR 2", why)
        return u, h

    def _check_works(self, a: PlaceWorks) -> list[Hex]:
        st = self.state
        if _stage(self) != "works":
            raise RuleViolation("C SR 2", "works are set up after the French units and before the Vietminh ones")
        hexes = [st.map.hex(x) for x in a.hexes]
        why = works_problem(st, st.setup, a.kind, hexes)
        if why:
            raise RuleViolation("C SR 2", why)
        return hexes

    def _check_headquarters(self, a: PlaceHeadquarters) -> None:
        if _stage(self) != "headquarters":
            raise RuleViolation("C SR 2", "the headquarters markers are set up after the Vietminh units "
                                          f"(this is the {_stage(self)} stage)")
        why = headquarters_problem(self.state, self.state.setup, a.regiment, a.zone)
        if why:
            raise RuleViolation("C 12.B.3", why)

    def _check_aircraft(self, a: BaseAircraft) -> None:
        if _stage(self) != "aircraft":
            raise RuleViolation("C SR 2", "the French put their aircraft on the Air Chart last (SR 2.4; this is "
                                          f"the {_stage(self)} stage)")
        why = revetment_problem(self.state, self.state.setup, a.revetment)
        if why:
            raise RuleViolation("C SR 2", why)

    @handles(Place)
    def _place(self, a: Place, dice, res: Resolution) -> None:
        u, h = SetupPlay._check_place(self, a)
        st = self.state
        u.hex = h
        (st.setup.french if u.side is Side.FRENCH else st.setup.vietminh).remove(u.id)
        res.add("C SR 2", f"{u.id} sets up in {st.label(h)}")
        SetupPlay._next(self, res)

    @handles(PlaceWorks)
    def _works(self, a: PlaceWorks, dice, res: Resolution) -> None:
        hexes = SetupPlay._check_works(self, a)
        for h in hexes:
            self.state.works[h] = a.kind
        res.add("C SR 2", f"{a.kind.replace('_', ' ')} set up in {', '.join(a.hexes)}")

    @handles(PlaceHeadquarters)
    def _headquarters(self, a: PlaceHeadquarters, dice, res: Resolution) -> None:
        SetupPlay._check_headquarters(self, a)
        st = self.state
        st.hq_zones[a.regiment] = a.zone
        st.setup.headquarters.remove(a.regiment)
        res.add("C 12.B.3", f"the headquarters marker of regiment {a.regiment} sets up in jungle zone {a.zone}")
        SetupPlay._next(self, res)

    @handles(BaseAircraft)
    def _aircraft(self, a: BaseAircraft, dice, res: Resolution) -> None:
        SetupPlay._check_aircraft(self, a)
        st = self.state
        based = []
        for t, n in a.revetment:
            for aid in st.air.in_box("available", t)[:n]:           # counters of a type are alike: the first n
                st.air.box[aid] = "revetment"
                based.append(aid)
        res.add("C SR 2", f"aircraft based in the revetment hex: {', '.join(based) or 'none'}; the rest stay "
                          f"Available and Serviceable (SR 2.4, C 31)")
        st.setup.aircraft = False
        SetupPlay._next(self, res)

    def play_end(self, res: Resolution) -> None:
        if _stage(self) != "works":
            raise RuleViolation("C SR 2", "every piece of the set-up must be placed")
        self.state.setup_stage = "Vietminh"
        res.add("C SR 2", "the Vietminh works are in place; the Vietminh player sets up his units")
        SetupPlay._next(self, res)

    def _next(self, res: Resolution) -> None:
        st = self.state
        if st.setup_stage == "French" and not st.setup.french:
            st.setup_stage = "works"
            res.add("C SR 2", "the French units are in place; the Vietminh player places works")
        if st.setup_stage == "works" and st.setup.allowance == 0:
            st.setup_stage = "Vietminh"
            res.add("C SR 2", "the scenario allows no Vietminh works: the Vietminh player sets up his units")
        if st.setup_stage == "Vietminh" and not st.setup.vietminh:
            st.setup_stage = "headquarters"
            if st.setup.headquarters:
                res.add("C SR 2", "the Vietminh units are in place; the Vietminh player places the headquarters "
                                  "markers of his regiments (C 12.B.3)")
        if st.setup_stage == "headquarters" and not st.setup.headquarters:
            st.setup_stage = "aircraft"
            if st.setup.aircraft and baseable(st):
                res.add("C SR 2", "the French player puts his aircraft on the Air Chart (SR 2.4)")
            else:
                st.setup.aircraft = False
        if st.setup_stage == "aircraft" and not st.setup.aircraft:
            from .strongpoints import note_occupation
            note_occupation(st)
            res.add("C SR 2", "the set-up is complete: the scenario begins")
            st.setup_stage = "done"
            if self.play_index is not None and self._play() is SetupPlay and self.phase.id == "set-up":
                self.play_done(res)


# --------------------------------------------------------------------------- a scenario's opening position

@implements("C SR 2", "C SR 1")
def scenario_state(number: int, m=None):
    """The state at the start of a scenario's set-up, and its outline: every counter the scenario uses, at its
    printed strength, waiting to be placed; reinforcements off the map until their date (C 16)."""
    from .scenarios import absent_at_start, load_scenario_outline, roster_from_map, shipped_oob, vm_strengths
    from .state import CitadelState
    from .terrain import valley_map
    from .sequence import SETUP
    m = valley_map() if m is None else m
    oob = shipped_oob()
    outline = load_scenario_outline(number, oob)
    book = SetupBook(allowance=outline.information["vm_trenches"])
    chosen: dict[str, tuple] = {}                  # counter id -> (inverted, losses)

    def take(p, at, side_list):
        if p.counter in chosen:
            raise RuleViolation("C SR 2", f"{outline.source}: {p.counter} is set up twice")
        chosen[p.counter] = (p.inverted, p.losses)
        book.places[p.counter] = at
        side_list.append(p.counter)

    for g in outline.french:
        for p in g.placements:
            take(p, g.at, book.french)
    absent = absent_at_start(outline)
    if outline.partial_setup:
        for g in outline.vietminh:
            for p in g.placements:
                take(p, g.at, book.vietminh)
    else:
        for cid, p in vm_strengths(outline, oob).items():
            take(p, None, book.vietminh)
        regiments = set(outline.information["vm_regiments"])
        for cid, c in sorted(oob.counters.items()):
            if (c.side is Side.VIETMINH and c.cls is UnitClass.HEAVY_WEAPONS and cid not in absent
                    and (c.regiment is None or c.regiment in regiments) and cid not in chosen):
                take(type(p)(cid), None, book.vietminh)
    book.headquarters = sorted({oob.counters[cid].regiment for cid in book.vietminh
                                if oob.counters[cid].regiment}, key=lambda r: (len(r), r))
    placements = [(oob.counters[cid], None) for cid in chosen]
    later = {}
    for when, ps in {**outline.french_reinforcements, **outline.vm_reinforcements}.items():
        for p in ps:
            if p.counter not in chosen:
                placements.append((oob.counters[p.counter], None))
                later.setdefault(when.isoformat(), []).append(p.counter)
    st = CitadelState.build(m, placements, date=outline.start, phase=SETUP.id)
    for cid, (inverted, losses) in chosen.items():
        u = st.unit(cid)
        u.inverted, u.losses = inverted, losses
    roster = roster_from_map(m)
    held = roster.expand(outline.information["vm_strongpoints"])
    for g in outline.french + outline.vietminh:
        held |= {roster.code(x) for x in getattr(g, "vm_held", [])}
    for name in held:
        st.control[name] = Side.VIETMINH
    st.setup = book
    crowded = crowded_dispositions(st, book)
    if crowded:
        raise RuleViolation("C SR 2", f"{outline.source}: the French units listed for {crowded[0]} cannot all set up "
                                      f"there within the stacking limits (C 6)")
    st.start_phase = "French movement" if outline.player_turn == "French" else "weather"
    from .replacements import Reserves
    caps = outline.information["french_replacements"]
    st.reserves = Reserves(french_left={"infantry": caps["infantry"], "heavy weapons": caps["artillery"]},
                           schedule={dt.date.fromisoformat(d): tuple(ids) for d, ids in later.items()})
    return st, outline


@implements("C SR 1", "C Scenario Information Chart", "C 23", "C 25")
def advanced_rules(state, outline) -> None:
    """Sections I and II for a scenario: both sides' stocks and the French Air Chart from the Scenario
    Information Chart (SR 1.B.1-3); reinforcements and replacements then come by air (C 15.B, C 16)."""
    from .air import new_air_state
    from .supply import SIDE_KINDS, Supply
    info = outline.information
    stocks = {Side.FRENCH: info["french_supply"], Side.VIETMINH: info["vm_supply"]}
    state.supply = Supply({side: {k: int(stocks[side].get(k, 0)) for k in SIDE_KINDS[side]} for side in Side},
                          airlift=True)
    state.air = new_air_state(info["french_aircraft"], info.get("french_aircraft_aborted") or {})
    book: SetupBook = state.setup
    book.aircraft = True                       # the French base aircraft in the revetment last (SR 2.4)
    book.revetment_min = {"F8F": 2, "Cricket": 3} if outline.number == 1 else {}
    able = baseable(state)
    short = [t for t, n in book.revetment_min.items() if able.get(t, 0) < n]
    if short:
        raise RuleViolation("C SR 2", f"{outline.source}: too few {short[0]} counters for the revetment set-up of "
                                      f"SR 2.4")


# --------------------------------------------------------------------------- room for the rest of a disposition

def _fits(units: Sequence[UnitState], here: dict) -> bool:
    """Whether ``units`` can still be stacked into the hexes ``here`` (hex -> friendly units already in it) by
    the limits of C 6: one battalion, or a battalion's companies, or two companies of different parents; six
    weapons units; tanks without limit. Exact for these limits with whole battalions kept together."""
    from math import ceil
    groups: dict[str, int] = {}
    for u in units:
        if u.counter.cls is UnitClass.INFANTRY:
            key = f"(own) {u.id}" if u.counter.size == "battalion" or not u.counter.parent else u.counter.parent
            groups[key] = groups.get(key, 0) + 1
    empty = pairable = 0
    for inside in here.values():
        inf = [x for x in inside if x.counter.cls is UnitClass.INFANTRY]
        parents = {x.counter.parent or f"(own) {x.id}" for x in inf}
        if not inf:
            empty += 1
        elif len(parents) == 1 and inf[0].counter.size == "company" and next(iter(parents)) in groups:
            groups.pop(next(iter(parents)))          # the rest of that battalion joins its companies
        elif len(inf) == 1 and inf[0].counter.size == "company":
            pairable += 1
    big = sum(1 for n in groups.values() if n >= 2) + sum(1 for k in groups if k.startswith("(own)")
                                                           and any(u.id == k[6:] and u.counter.size == "battalion"
                                                                   for u in units))
    singles = sum(1 for k, n in groups.items() if n == 1 and not (
        k.startswith("(own)") and any(u.id == k[6:] and u.counter.size == "battalion" for u in units)))
    singles = max(0, singles - pairable)
    weapons = sum(1 for u in units if u.counter.cls is UnitClass.HEAVY_WEAPONS)
    room = sum(6 - sum(1 for x in inside if x.counter.cls is UnitClass.HEAVY_WEAPONS) for inside in here.values())
    return big + ceil(singles / 2) <= empty and weapons <= room


@implements("C SR 2", "C 6")
def crowded_dispositions(state, book: SetupBook) -> list[str]:
    """The French dispositions whose units cannot all stand in their hexes within stacking (SR 2.1, C 6): a
    scenario that lists one could never finish its set-up."""
    groups: dict[str, list[UnitState]] = {}
    for uid in book.french:
        groups.setdefault(book.places.get(uid), []).append(state.unit(uid))
    return [where for where, units in groups.items()
            if not _fits(units, {h: list(state.units_at(h, Side.FRENCH))
                                 for h in place_hexes(state, where, Side.FRENCH)})]


@implements("C SR 2")
def room_problem(state, book: SetupBook, u: UnitState, h: Hex) -> str | None:
    """Why placing ``u`` in ``h`` would leave too little room for the rest of its disposition (C 6), or None."""
    where = book.places.get(u.id)
    hexes = place_hexes(state, where, u.side)
    rest = [state.unit(x) for x in (book.french if u.side is Side.FRENCH else book.vietminh)
            if x != u.id and book.places.get(x) == where]
    if not rest or len(hexes) > 60:
        return None
    here = {x: [*state.units_at(x, u.side)] for x in hexes}
    here[h] = [*here.get(h, []), u]
    if not _fits(rest, here):
        return f"{u.id} in {state.label(h)} would leave too little room in {where} for the rest of its units (C 6)"
    return None
