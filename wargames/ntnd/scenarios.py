"""No Trumpets No Drums scenarios as data (NT 2): the campaign game and the named short scenarios.

The rulebook names six scenarios and a campaign (2) but prints none of their set-ups; the scenario booklet is
absent. Each ``data/scenarios/*.yaml`` is our reconstruction from the historical order of battle at its date:
the turns, the starting political points, the Hearts and Minds box of each of the six areas, the political
state (Vietnamization, elections, uprising, Communist aid, Haiphong), the neutrality of Laos and Cambodia, the
victory reading, and where every unit in play starts. Every placement carries a provenance.

:func:`load_scenario` checks a file against the map (hexes, zones, place names), the counter mix (ids, each
counter once) and the Allied schedule, and against the rules a set-up must obey: corps attachment (5.2),
stacking (8.10.1), national limits (8.9, 10), special placements (5.6, 15, 16, 28). A breach raises
:class:`~wargames.core.errors.DataError` naming the file, the field and the unit.

File format (one YAML mapping)::

    name, rule, provenance                  # title, "NT 2", the file's default provenance
    start_turn, end_turn                    # 1..63; turn 1 = Mar/Apr 1965
    first_player: communist                 # NT 3: a turn opens with the Communist player turn
    political_points: {value, provenance}   # the Political Points track at the start (1..249)
    hearts_and_minds: {I|II|III|IV|Laos|Cambodia: {box, provenance}}   # a box id of charts' H&M track
    policy: {vietnamization, vietnamization_turn, elections: [{year, peace_party}], uprising, aid,
             haiphong_mined, provenance}
    neutrality: {Laos|Cambodia: {state: neutral|allied|conquered, provenance}}   # default neutral (10.1)
    victory: {at_end: communist|points_vs_start|draw, provenance}                # 22.4 sudden death always
    setup: [{units: [ids], at: hex label | place name | zone, face: up|down, corps, provenance}]
    air_box: {units: [ids], provenance}     # Allied air units in the Available box (5.6, 11.2)
    dead_pile: {units: [ids], provenance}   # eliminated before the start; may be replaced (4.2.3)

Scheduled Allied counters (units.schedule) are in play at the start exactly when they arrived on an earlier turn
and were not withdrawn on an earlier turn; counters arriving on the start turn enter in its first Allied
reinforcement phase (4.2.1), after the Communist player turn that opens every turn (3). Everything else not
placed is in the counter mix.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..core import Hex, implements
from ..core.charts import PROVENANCE, Provenance, file_provenance
from ..core.errors import DataError, RuleViolation
from ..core.schema import At, Bool, Int, List, Nullable, Opt, Record, Str, load_file
from ..core.yamlio import load_once, locate, mark_of, read_yaml
from .charts import default_charts
from .geography import CORPS, HEADQUARTERS, ZONES, Geography, shipped_map
from .politics import AID_COUNTRIES, ELECTIONS, FULL_DEADLINE, UPRISING_FROM, VIETNAMIZATION, Policy
from .units import (AIR, INDOCHINESE, NVA_DIVISION_CAP, SEATO, SECRET_WAR_TYPES, CounterMix, Schedule,
                    check_corps_assignment, counter_mix, schedule, turn_date)

DATA = Path(__file__).parent / "data" / "scenarios"
#: the shipped scenarios, by name (file stem)
SCENARIOS = ("campaign", "tet", "year_of_the_rat", "1975")
FIRST_TURN, LAST_TURN = 1, 63
AREAS = CORPS + ("Laos", "Cambodia")
NEUTRAL_STATES = ("Laos", "Cambodia")
STATES = ("neutral", "allied", "conquered")
AT_END = ("communist", "points_vs_start", "draw")
FACES = ("up", "down")
PHOENIX_FROM = 21                       # NT 28.4.1: scenarios starting Jul/Aug 1968 or later
ARMOR_SHOCK_YEARS = (1965, 1966, 1967, 1968)   # NT 28.8
SAIGON = "Saigon"
#: NT 8.10.1: the Allied counters stacked besides the two ground combat units, and the slot each takes
#: (16.3: a Montagnard is militia; 28.4.2: a Phoenix unit is used as a Green Beret)
ALLIED_SLOTS = {"firebase": "firebase", "green_beret": "green_beret", "phoenix": "green_beret",
                "militia": "militia", "montagnard": "militia", "patrol_boat": "patrol_boat"}
COMMUNIST_SLOTS = {"artillery": "artillery", "sam": "sam", "vc_base": "vc_base"}
GUERRILLA_HOME = {"VC": "SVN", "PL": "Laos", "KR": "Cambodia"}
GUERRILLA_TYPES = ("cadre", "regiment", "sapper")
INTERCEPTOR_ZONES = ("China", "Hanoi", "Haiphong")


# ------------------------------------------------------------------------------------------ the model

@dataclass(frozen=True)
class Placement:
    """One counter at the start: a hex or an off-board zone (``zone``), face up or inverted, its corps if it
    is an attached Allied unit (5.2)."""

    unit: str
    hex: Hex | None
    zone: str | None
    label: str                      # the hex label or the zone name
    face_up: bool
    corps: str | None
    provenance: Provenance

    @property
    def where(self) -> Hex | str:
        return self.hex if self.hex is not None else self.zone


@dataclass(frozen=True)
class Rated:
    """A value with its provenance (points, an H&M box, a neutrality state)."""

    value: object
    provenance: Provenance


@dataclass(frozen=True)
class Victory:
    """NT 22.4's sudden death always applies (the threshold from the policy); ``at_end`` is our reading of a
    last turn that ends without it: ``communist``, ``points_vs_start`` (the side the track moved towards wins,
    a draw if it ends where it started) or ``draw``."""

    at_end: str
    provenance: Provenance

    def winner(self, points: int, start_points: int) -> str | None:
        """The winner when the last turn ends without a sudden death (None: a draw)."""
        if self.at_end == "communist":
            return "communist"
        if self.at_end == "draw" or points == start_points:
            return None
        return "allied" if points > start_points else "communist"


@dataclass(frozen=True)
class Scenario:
    name: str
    key: str
    rule: str
    start_turn: int
    end_turn: int
    first_player: str
    political_points: Rated
    hearts_and_minds: dict[str, Rated]
    policy: Policy
    policy_provenance: Provenance
    vietnamization_turn: int | None
    neutrality: dict[str, Rated]
    victory: Victory
    placements: tuple[Placement, ...]
    air_box: tuple[str, ...]
    dead_pile: tuple[str, ...]
    pending: tuple[str, ...]        # scheduled Allied counters still to arrive (4.2.1)
    withdrawn: tuple[str, ...]      # scheduled withdrawals already made (4.3.2): out for good
    provenance: Provenance
    source: str

    @property
    def start_date(self) -> str:
        return turn_date(self.start_turn)

    @property
    def end_date(self) -> str:
        return turn_date(self.end_turn)

    @property
    def points(self) -> int:
        return self.political_points.value

    def box(self, area: str) -> str:
        return self.hearts_and_minds[area].value

    def state(self, country: str) -> str:
        """``neutral``, ``allied`` or ``conquered`` (10.1, 10.5, 10.6)."""
        return self.neutrality[country].value

    def placement(self, unit: str) -> Placement:
        for p in self.placements:
            if p.unit == unit:
                return p
        raise KeyError(f"{unit!r} is not on the map at the start of {self.name}")

    @property
    def on_map(self) -> tuple[str, ...]:
        return tuple(p.unit for p in self.placements)

    @property
    def in_play(self) -> frozenset[str]:
        """Counters on the map or in the air box at the start."""
        return frozenset(self.on_map) | frozenset(self.air_box)

    def at(self, where: Hex | str) -> tuple[Placement, ...]:
        return tuple(p for p in self.placements if p.where == where)

    @property
    @implements("NT 28.4.1")
    def phoenix_allowed(self) -> bool:
        """NT 28.4.1: Phoenix units may be raised in scenarios that begin in Jul/Aug 1968 or later, or four
        turns after a National Uprising."""
        return self.start_turn >= PHOENIX_FROM or (
            self.policy.uprising is not None and self.start_turn >= self.policy.uprising + 4)

    @property
    @implements("NT 28.8")
    def armor_shock(self) -> bool:
        """NT 28.8: the armour shock bonus exists in scenarios starting 1965-1968 (the campaign: once)."""
        return int(self.start_date.split()[-1]) in ARMOR_SHOCK_YEARS


# ------------------------------------------------------------------------------------------ schema

_ID = Str(min_len=1, max_len=40)
_UNITS = List(_ID, min_len=1, max_len=80)


def _schema(default: Provenance) -> Record:
    prov = Opt(PROVENANCE, default)
    rated_points = Record({"value": Int(1, 249)}, {"provenance": prov})
    hm = Record({"box": Str(min_len=1, max_len=40)}, {"provenance": prov})
    neutral = Record({"state": Str(STATES)}, {"provenance": prov})
    election = Record({"year": Int(1968, 1972), "peace_party": Bool()})
    policy = Record({"vietnamization": Str(VIETNAMIZATION)},
                    {"vietnamization_turn": Opt(Nullable(Int(FIRST_TURN, LAST_TURN))),
                     "elections": Opt(List(election, max_len=2), []),
                     "uprising": Opt(Nullable(Int(FIRST_TURN, LAST_TURN))),
                     "aid": Opt(List(Str(AID_COUNTRIES), unique=True), []),
                     "haiphong_mined": Opt(Bool(), False), "provenance": prov})
    victory = Record({"at_end": Str(AT_END)}, {"provenance": prov})
    entry = Record({"units": _UNITS, "at": Str(min_len=1, max_len=60, key=True)},
                   {"face": Opt(Str(FACES), "up"), "corps": Opt(Nullable(Str(tuple(HEADQUARTERS)))),
                    "provenance": prov, "note": Opt(Str(), "")},
                   what="a placement {units, at, face, corps, provenance}")
    group = Record({"units": List(_ID, max_len=80)}, {"provenance": prov})
    return Record({"name": Str(min_len=1, max_len=80), "rule": Str(), "start_turn": Int(FIRST_TURN, LAST_TURN),
                   "end_turn": Int(FIRST_TURN, LAST_TURN), "political_points": rated_points,
                   "hearts_and_minds": Record({a: hm for a in AREAS}), "policy": policy,
                   "victory": victory, "setup": List(entry, min_len=1)},
                  {"provenance": Opt(PROVENANCE), "notes": Opt(Str(), ""),
                   "first_player": Opt(Str(("communist", "allied")), "communist"),
                   "neutrality": Opt(Record({}, {c: neutral for c in NEUTRAL_STATES}), {}),
                   "air_box": Opt(group, {"units": [], "provenance": default}),
                   "dead_pile": Opt(group, {"units": [], "provenance": default})})


# ------------------------------------------------------------------------------------------ loading

def load_scenario(path: str | Path, mix: CounterMix | None = None, sched: Schedule | None = None,
                  geo: Geography | None = None, data=None) -> Scenario:
    """Read and check a scenario file (ours or an owner's) against the map, the counter mix and the schedule."""
    path = Path(path)
    file = str(path)
    raw = read_yaml(path) if data is None else data
    own = None
    if isinstance(raw, dict) and "provenance" in raw:
        own = PROVENANCE.check(raw["provenance"], At(file, "provenance", mark_of(raw, "provenance")))
    default = file_provenance(path, own)
    doc = load_file(path, _schema(default), raw)
    return _Checker(file, raw, doc, default, mix or counter_mix(), sched or schedule(),
                    geo or shipped_map()).build(path.stem)


def scenario(name: str) -> Scenario:
    """A shipped scenario by name (see :data:`SCENARIOS`), read once per version of its file."""
    if name not in SCENARIOS:
        raise KeyError(f"no scenario {name!r}; the scenarios are {', '.join(SCENARIOS)}")
    return load_once(load_scenario, DATA / f"{name}.yaml")


class _Checker:
    def __init__(self, file, raw, doc, default, mix, sched, geo):
        self.file, self.raw, self.doc, self.default = file, raw, doc, default
        self.mix, self.sched, self.geo = mix, sched, geo
        self._fields: dict[str, str] = {}

    def fail(self, field: str, reason: str) -> DataError:
        err = DataError(self.file, field, reason)
        mark = locate(self.raw, field) if hasattr(self.raw, "marks") else None
        if mark is not None:
            err.at(*mark)
        return err

    # -- the whole file
    def build(self, key: str) -> Scenario:
        d = self.doc
        start, end = d["start_turn"], d["end_turn"]
        if end < start:
            raise self.fail("end_turn", f"turn {end} is before the start turn {start}")
        track = default_charts().hearts_minds
        hm = {}
        for area in AREAS:
            box = d["hearts_and_minds"][area]["box"]
            if box not in track.ids:
                raise self.fail(f"hearts_and_minds.{area}.box",
                                f"{box!r} is not a box of the Hearts and Minds track ({', '.join(track.ids)})")
            hm[area] = Rated(box, d["hearts_and_minds"][area]["provenance"])
        policy = self.policy(start)
        neutrality = self.neutrality()
        placements = self.placements()
        air = tuple(d["air_box"]["units"])
        dead = tuple(d["dead_pile"]["units"])
        self.each_counter_once(placements, air, dead)
        self.air_box(air)
        self.dead_pile(dead, placements, air)
        self.corps(placements)
        self.countries(placements, neutrality)
        self.stacking(placements)
        self.special(placements, hm, neutrality, start, policy)
        pending, withdrawn = self.schedule_check(placements, air, dead, start)
        victory = Victory(d["victory"]["at_end"], d["victory"]["provenance"])
        return Scenario(d["name"], key, d["rule"], start, end, d["first_player"],
                        Rated(d["political_points"]["value"], d["political_points"]["provenance"]), hm, policy,
                        d["policy"]["provenance"], d["policy"]["vietnamization_turn"], neutrality, victory,
                        placements, air, dead, pending, withdrawn, d["provenance"] or self.default, self.file)

    # -- policy (22-27)
    def policy(self, start: int) -> Policy:
        p = self.doc["policy"]
        v, vt = p["vietnamization"], p["vietnamization_turn"]
        if (v == "none") != (vt is None):
            raise self.fail("policy.vietnamization_turn", "gives the turn Vietnamization was declared, and only "
                                                          "when it was (NT 24.1)")
        if vt is not None and vt >= start:
            raise self.fail("policy.vietnamization_turn", f"turn {vt} is not before the start turn {start}")
        if v == "full" and vt >= FULL_DEADLINE:
            raise self.fail("policy.vietnamization_turn", f"Full Vietnamization is declared before turn "
                                                          f"{FULL_DEADLINE} (NT 24.2)")
        held = [(e["year"], e["peace_party"]) for e in p["elections"]]
        due = [y for y, t in sorted(ELECTIONS.items()) if t < start]
        if [y for y, _ in held] != due:
            raise self.fail("policy.elections", f"must list the elections held before turn {start}: "
                                                f"{due or 'none'} (NT 23.1: turns {sorted(ELECTIONS.values())})")
        up = p["uprising"]
        if up is not None and not UPRISING_FROM <= up <= start:
            raise self.fail("policy.uprising", f"turn {up}: an uprising is declared from turn {UPRISING_FROM} "
                                               f"(NT 26.1) and by the start turn {start}")
        return Policy(vietnamization=v, peace_party=any(pp for _, pp in held), elections=tuple(held),
                      uprising=up, aid=frozenset(p["aid"]), haiphong_mined=p["haiphong_mined"])

    @implements("NT 10.1")
    def neutrality(self) -> dict[str, Rated]:
        """NT 10.1: Laos and Cambodia are neutral unless the scenario says otherwise."""
        given = self.doc["neutrality"]
        out = {}
        for c in NEUTRAL_STATES:
            if c in given and given[c] is not None:
                out[c] = Rated(given[c]["state"], given[c]["provenance"])
            else:
                out[c] = Rated("neutral", Provenance("text", "NT 10.1: neutral unless the scenario says otherwise"))
        return out

    # -- placements
    def placements(self) -> tuple[Placement, ...]:
        out = []
        for i, e in enumerate(self.doc["setup"]):
            hex_, zone, label = self.resolve(e["at"], f"setup[{i}].at")
            for j, uid in enumerate(e["units"]):
                field = f"setup[{i}].units[{j}]"
                if uid not in self.mix:
                    raise self.fail(field, f"{uid!r} is not a counter of {Path(self.mix.source).name} (NT 4.4)")
                out.append(Placement(uid, hex_, zone, label, e["face"] == "up", e["corps"], e["provenance"]))
                self._fields.setdefault(uid, field)
        return tuple(out)

    def field(self, unit: str) -> str:
        return self._fields.get(unit, "setup")

    def resolve(self, at: str, field: str) -> tuple[Hex | None, str | None, str]:
        if at in ZONES:
            return None, at, at
        if re.fullmatch(r"\d{4}", at):
            try:
                h = self.geo.hex(at)
            except (DataError, KeyError, ValueError):
                raise self.fail(field, f"hex {at} is not on the map {self.geo.map.name}") from None
            if h not in self.geo.map.hexes:
                raise self.fail(field, f"hex {at} is not on the map {self.geo.map.name}")
            return h, None, at
        try:
            h = self.geo.place(at)
        except KeyError:
            raise self.fail(field, f"{at!r} is neither a hex label, a place of the map nor an off-board zone "
                                   f"({', '.join(ZONES)})") from None
        return h, None, self.geo.label(h)

    @implements("NT 4.4")
    def each_counter_once(self, placements, air, dead) -> None:
        """NT 4.4: the counter mix is a limit; each counter is in one place at most."""
        seen: dict[str, str] = {}
        items = [(p.unit, self.field(p.unit)) for p in placements]
        items += [(u, f"air_box.units[{j}]") for j, u in enumerate(air)]
        items += [(u, f"dead_pile.units[{j}]") for j, u in enumerate(dead)]
        for uid, field in items:
            if uid not in self.mix:
                raise self.fail(field, f"{uid!r} is not a counter of {Path(self.mix.source).name} (NT 4.4)")
            if uid in seen:
                raise self.fail(field, f"{uid!r} is already placed at {seen[uid]} (NT 4.4: one counter, one "
                                       f"place)")
            seen[uid] = field
        for i, e in enumerate(self.doc["setup"]):
            for j, uid in enumerate(e["units"]):
                if self._fields[uid] != f"setup[{i}].units[{j}]":
                    raise self.fail(f"setup[{i}].units[{j}]", f"{uid!r} is already placed at {self._fields[uid]} "
                                                              f"(NT 4.4: one counter, one place)")

    def air_box(self, air) -> None:
        for j, uid in enumerate(air):
            c = self.mix.get(uid)
            if c.side != "allied" or c.type not in AIR["allied"]:
                raise self.fail(f"air_box.units[{j}]", f"{uid!r} is not an Allied air unit; the air box holds "
                                                       f"only those (NT 5.6, 11.2)")

    def dead_pile(self, dead, placements, air) -> None:
        """The dead pile holds eliminated Allied units, which may be replaced (4.2.3); eliminated Communist
        units go back to the counter mix, to be recruited again (4.1, 7.4, 17.2)."""
        for j, uid in enumerate(dead):
            if self.mix.get(uid).side != "allied":
                raise self.fail(f"dead_pile.units[{j}]", f"{uid!r}: eliminated Communist units return to the "
                                                         f"counter mix, not a dead pile (NT 4.1, 17.2)")

    @implements("NT 5.2", "NT 5.3.1", "NT 5.5", "NT 5.6")
    def corps(self, placements) -> None:
        """NT 5.2: each attached Allied ground combat unit names its corps, starts inside it (or in Laos or
        Cambodia next to it, 5.3.1), and the units of one division, all Marines, all ROK and all Thai units
        share a corps; units that are not attached (5.5, 5.6) name none."""
        assignment = {}
        for p in placements:
            c = self.mix.get(p.unit)
            field = self.field(p.unit)
            if c.attachment != "attached":
                if p.corps is not None:
                    rule = "NT 5.5" if c.attachment == "unattached" else "NT 5.6"
                    raise self.fail(field, f"{p.unit!r} is not attached to a corps ({rule}); give no corps")
                continue
            if p.corps is None:
                raise self.fail(field, f"{p.unit!r} is an attached unit: give its corps (NT 5.2)")
            area = self.area(p)
            if area != p.corps and not (p.corps in CORPS and area in ("Laos", "Cambodia")
                                         and self.geo.may_operate_in(p.corps, area)):
                raise self.fail(field, f"{p.unit!r} is attached to {p.corps} but starts in {area} "
                                       f"({p.label}) (NT 5.2, 5.3)")
            assignment[c] = p.corps
            try:
                check_corps_assignment({c: p.corps})
                check_corps_assignment(assignment)
            except RuleViolation as e:
                raise self.fail(field, f"{p.unit!r}: {e.rule}: {e.reason}") from None

    def area(self, p: Placement) -> str:
        if p.zone is not None:
            return self.geo.zone(p.zone).country
        return self.geo.area(p.hex) or "sea"

    def country(self, p: Placement) -> str:
        if p.zone is not None:
            return self.geo.zone(p.zone).country
        return self.geo.country(p.hex)

    @implements("NT 8.9.1", "NT 8.9.2", "NT 8.2.5", "NT 8.2.3", "NT 8.2.4", "NT 10.2", "NT 10.6",
                "NT 10.8", "NT 6.2", "NT 4.1.2")
    def countries(self, placements, neutrality) -> None:
        """Where a counter may start: guerrillas (8.9.1) and Laotian and Cambodian forces (8.9.2) in their own
        country; no Allied unit in North Vietnam or China (10.7, 10.8); no face-up foreign unit in a neutral
        state save those 10.2.3.1 and 28.11 allow (supply units are never charged, 8.9.4); no unit of a
        conquered state (10.6); interceptors in China, Hanoi or Haiphong (8.2.5); the fleet at sea, on the
        coast or in Haiphong (8.2.3, 9.1.1.1); patrol boats on the coast or a major river (8.2.4, 8.6.2);
        nothing on an all-sea hex but the fleet; Allied units face up, tanks never inverted (6.2), dummies
        always inverted (4.1.2)."""
        for p in placements:
            c = self.mix.get(p.unit)
            field = self.field(p.unit)
            country = self.country(p)

            def no(reason):
                return self.fail(field, f"{p.unit!r} at {p.label}: {reason}")

            if c.side == "allied" and not p.face_up:
                raise no("Allied units are never inverted (only Communist units hide, NT 6.2, 8.8.2)")
            if c.type == "tank" and not p.face_up:
                raise no("a tank regiment is never inverted (NT 6.2)")
            if c.type == "dummy" and p.face_up:
                raise no("a dummy is always inverted (NT 4.1.2; face up it is destroyed, 17.2)")
            if c.side == "allied" and c.type in AIR["allied"]:
                raise no("Allied air units start in the air box, not on the map (NT 5.6, 11.2)")
            if c.type == "interceptor" and p.zone not in INTERCEPTOR_ZONES:
                raise no(f"interceptors stay in {', '.join(INTERCEPTOR_ZONES)} (NT 8.2.5)")
            if c.type == "fleet":
                if not (p.zone == "Haiphong" or (p.hex is not None and (self.geo.is_all_sea(p.hex)
                                                                         or self.geo.is_coastal(p.hex)))):
                    raise no("the fleet keeps to all-sea and coastal hexes or Haiphong (NT 8.2.3, 9.1.1.1)")
                continue
            if p.hex is not None and self.geo.is_all_sea(p.hex):
                raise no("only the fleet may be on an all-sea hex (NT 8.2.3, 19.3)")
            if c.type == "patrol_boat" and not (p.hex is not None and (self.geo.is_coastal(p.hex)
                                                                        or self.geo.has(p.hex, "major_river"))):
                raise no("patrol boats stay on coastal or major river hexes (NT 8.2.4, 8.6.2)")
            if c.side == "allied" and country in ("NV", "China"):
                raise no("an Allied unit in North Vietnam or China would be an invasion (NT 10.7, 10.8)")
            if c.type in GUERRILLA_TYPES and c.nationality in GUERRILLA_HOME \
                    and country != GUERRILLA_HOME[c.nationality]:
                raise no(f"{c.nationality} guerrillas stay in {GUERRILLA_HOME[c.nationality]} (NT 8.9.1)")
            if c.nationality in INDOCHINESE and country != ("Laos" if c.nationality == "Laotian" else "Cambodia"):
                raise no(f"{c.nationality} forces stay in their own country (NT 8.9.2)")
            if c.nationality == "SVN" and c.type in ("militia", "phoenix") and country != "SVN":
                raise no("South Vietnamese militia and Phoenix units stay in South Vietnam (NT 5.6.1, 28.4.1)")
            for state in NEUTRAL_STATES:
                if neutrality[state].value == "conquered" and c.nationality == (
                        "Laotian" if state == "Laos" else "Cambodian"):
                    raise no(f"{state} is conquered: its units have left the counter mix (NT 10.6)")
            if country in NEUTRAL_STATES and neutrality[country].value == "neutral":
                own = ("Laotian", "PL") if country == "Laos" else ("Cambodian", "KR")
                if c.nationality in own or c.type == "supply":
                    continue
                if c.side == "allied":
                    allowed = country == "Laos" and (c.type in SECRET_WAR_TYPES or "thai_333" in c.tags)
                    allowed = allowed or (c.type == "green_beret")
                    if not allowed:
                        raise no(f"{country} is neutral: only {country}'s own forces, Green Berets (15.1) and in "
                                 f"Laos the units of 10.2.3.1 may be there (NT 10.2)")
                elif p.face_up:
                    raise no(f"{country} is neutral: a face-up {c.nationality} unit there violates it; start it "
                             f"inverted (NT 8.9.4, 10.2)")

    @implements("NT 8.10.1", "NT 8.10.1.2", "NT 8.10.1.3", "NT 28.9.1")
    def stacking(self, placements) -> None:
        """NT 8.10.1 at the start (8.10.2 allows no excess at a combat phase): two ground combat units a hex
        (three Allied in Saigon, 8.10.1.2; a dummy counts as one, so that it can pass for one: catalog A5.19);
        besides them one artillery and one SAM (Communist; any supply units; one VC Base, 28.9.1), or one
        firebase, one Green Beret (or Phoenix), one militia (or Montagnard) and one patrol boat (Allied); the
        fleet does not count (8.6.4.2 lands two units in its hex). Off-board zones hold any number
        (8.10.1.3). The two sides never share a hex."""
        by_hex: dict[Hex, list[Placement]] = {}
        for p in placements:
            if p.hex is not None:
                by_hex.setdefault(p.hex, []).append(p)
        saigon = self._saigon()
        for h, ps in by_hex.items():
            sides = {self.mix.get(p.unit).side for p in ps}
            last = ps[-1]
            if len(sides) > 1:
                raise self.fail(self.field(last.unit), f"{last.unit!r} at {last.label}: Allied and Communist units "
                                                       f"never start in one hex")
            side = sides.pop()
            ground, slots = [], {}
            for p in ps:
                c = self.mix.get(p.unit)
                table = ALLIED_SLOTS if side == "allied" else COMMUNIST_SLOTS
                if c.type in table:
                    slots.setdefault(table[c.type], []).append(p)
                elif c.ground_combat or c.type == "dummy":
                    ground.append(p)
            limit = 3 if side == "allied" and h == saigon else 2
            if len(ground) > limit:
                p = ground[limit]
                raise self.fail(self.field(p.unit), f"{p.unit!r} at {p.label}: {len(ground)} ground combat units "
                                                    f"where the limit is {limit} (NT 8.10.1)")
            for slot, items in slots.items():
                if len(items) > 1:
                    p = items[1]
                    raise self.fail(self.field(p.unit), f"{p.unit!r} at {p.label}: a second {slot} in the hex "
                                                        f"(NT 8.10.1{', 28.9.1' if slot == 'vc_base' else ''})")

    def _saigon(self) -> Hex | None:
        try:
            return self.geo.place(SAIGON)
        except KeyError:
            return None

    @implements("NT 15.1", "NT 5.6.1", "NT 5.6.2", "NT 15.2.3.2", "NT 16.2", "NT 16.5", "NT 28.4.1",
                "NT 28.6.1", "NT 28.9.3", "NT 28.11.4", "NT 4.1.7")
    def special(self, placements, hm, neutrality, start, policy) -> None:
        """Special placements: Green Berets on non-town hexes of SVN, Laos or Cambodia (15.1); militia and
        Montagnards in a town or city, or in a Green Beret's zone of influence (5.6.1, 15.2.3.2, 16.5), and
        Montagnards no more than 16.2 allows; firebases with a ground combat unit of their nation (5.6.2);
        Phoenix units only from the dates of 28.4.1, one a corps; the Thai 333 in Laos (28.6.1); the Laotian
        Guard at Luang Prabang or Vientiane (28.11.4); VC Bases in SVN mountain, jungle or swamp, one a corps
        (28.9.3); at most ten NVA divisions unless the uprising was declared before the start (4.1.7)."""
        gbs = [p.hex for p in placements if self.mix.get(p.unit).type == "green_beret" and p.hex is not None]
        montagnards = 0
        phoenix: dict[str, str] = {}
        bases: dict[str, str] = {}
        nva = 0
        for p in placements:
            c = self.mix.get(p.unit)
            field = self.field(p.unit)

            def no(reason):
                return self.fail(field, f"{p.unit!r} at {p.label}: {reason}")

            t = c.type
            if t == "green_beret":
                if p.hex is None or self.geo.is_settlement(p.hex) or self.country(p) not in ("SVN", "Laos",
                                                                                               "Cambodia"):
                    raise no("Green Berets start on a hex without a town or city in SVN, Laos or Cambodia (NT 15.1)")
            if t in ("militia", "montagnard"):
                in_town = p.hex is not None and self.geo.is_settlement(p.hex)
                near_gb = p.hex is not None and any(p.hex.distance(g) <= 2 for g in gbs)
                if not (in_town or near_gb):
                    raise no("militia and Montagnards start in a town or city or in a Green Beret's zone of "
                             "influence (NT 5.6.1, 15.2.3.2, 16.5)")
                if t == "montagnard":
                    montagnards += 1
                    if self.area(p) not in ("Laos", "I", "II"):
                        raise no("Montagnards serve in Laos, I Corps and II Corps (NT 15.2, 16.2)")
            if t == "firebase":
                here = [self.mix.get(q.unit) for q in placements if q.where == p.where and q.unit != p.unit]
                ok = [q for q in here if q.ground_combat and q.type != "militia" and q.side == "allied"
                      and (q.nationality == c.nationality or (c.nationality == "SEATO" and q.nationality in SEATO))]
                if not ok:
                    raise no("a firebase stands with a non-militia ground combat unit of its nation (NT 5.6.2)")
            if t == "phoenix":
                if not (start >= PHOENIX_FROM or (policy.uprising is not None and start >= policy.uprising + 4)):
                    raise no("Phoenix units exist only in scenarios from Jul/Aug 1968 or four turns after the "
                             "uprising (NT 28.4.1)")
                a = self.area(p)
                if a in phoenix:
                    raise no(f"a second Phoenix unit in {a} Corps (NT 28.4.1: one a corps; {phoenix[a]})")
                phoenix[a] = p.unit
            if "thai_333" in c.tags and self.country(p) != "Laos":
                raise no("the Thai 333 Ranger serves only in Laos (NT 28.6.1)")
            if "laotian_guard" in c.tags and p.zone not in ("Luang Prabang", "Vientiane"):
                raise no("the Laotian Guard stays at Luang Prabang or Vientiane (NT 28.11.4)")
            if t == "vc_base":
                if p.hex is None or self.country(p) != "SVN" or self.geo.terrain(p.hex) not in (
                        "mountain", "jungle", "swamp"):
                    raise no("a VC Base stands on a mountain, jungle or swamp hex of South Vietnam (NT 28.9.3)")
                a = self.area(p)
                if a in bases:
                    raise no(f"a second VC Base in {a} Corps (NT 28.9.3: one a corps; {bases[a]})")
                bases[a] = p.unit
            if t == "division" and c.nationality == "NVA":
                nva += 1
        allowed = sum(hm[a].value in ("pro_allied", "allied_control") for a in ("Laos", "I", "II"))
        if neutrality["Laos"].value == "allied" or all(hm[a].value == "allied_control" for a in ("Laos", "I", "II")):
            allowed += 1
        if montagnards > allowed:
            last = [p for p in placements if self.mix.get(p.unit).type == "montagnard"][-1]
            raise self.fail(self.field(last.unit), f"{last.unit!r}: {montagnards} Montagnards, but the Hearts and "
                                                   f"Minds track allows {allowed} (NT 16.2)")
        if (policy.uprising is None or policy.uprising >= start) and nva > NVA_DIVISION_CAP:
            last = [p for p in placements if self.mix.get(p.unit).type == "division"
                    and self.mix.get(p.unit).nationality == "NVA"][-1]
            raise self.fail(self.field(last.unit), f"{last.unit!r}: {nva} NVA divisions in play; at most "
                                                   f"{NVA_DIVISION_CAP} before a National Uprising (NT 4.1.7)")

    @implements("NT 4.2.1", "NT 4.3.1", "NT 4.3.2")
    def schedule_check(self, placements, air, dead, start) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """NT 4.2.1 and 4.3: a scheduled Allied counter is in play (on the map, in the air box or in the dead
        pile) exactly when it arrived before the start turn and was not withdrawn before it; one that may be
        bought (28.3, 28.11.5, firebases) only from its turn; a withdrawn counter never returns (4.3.2)."""
        where = {p.unit: self.field(p.unit) for p in placements}
        where.update({u: f"air_box.units[{j}]" for j, u in enumerate(air)})
        where.update({u: f"dead_pile.units[{j}]" for j, u in enumerate(dead)})
        pending, withdrawn = [], []
        for cid in dict.fromkeys(self.sched.counters()):
            arrive = self.sched.turn_of(cid, "arrive")
            buy = self.sched.turn_of(cid, "buyable")
            leave = self.sched.turn_of(cid, "withdraw")
            gone = leave is not None and leave < start
            if gone:
                withdrawn.append(cid)
                if cid in where:
                    raise self.fail(where[cid], f"{cid!r} was withdrawn on turn {leave} ({turn_date(leave)}), "
                                                f"before the start (NT 4.3.2)")
                continue
            if arrive is not None:
                if arrive < start and cid not in where:
                    raise self.fail("setup", f"{cid!r} arrived on turn {arrive} ({turn_date(arrive)}) and is not "
                                             f"withdrawn before turn {start}: place it, or put it in the air box "
                                             f"or the dead pile (NT 4.2.1)")
                if arrive >= start:
                    if cid in where:
                        raise self.fail(where[cid], f"{cid!r} arrives on turn {arrive} ({turn_date(arrive)}), not "
                                                    f"before the start turn {start} (NT 4.2.1)")
                    pending.append(cid)
            elif buy is not None and buy >= start and cid in where:
                raise self.fail(where[cid], f"{cid!r} may first be bought on turn {buy} ({turn_date(buy)}) "
                                            f"(NT 4.2.1)")
        return tuple(pending), tuple(withdrawn)


__all__ = ["AREAS", "SCENARIOS", "Placement", "Rated", "Scenario", "Victory", "load_scenario", "scenario"]
