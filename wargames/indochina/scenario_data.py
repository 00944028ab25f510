"""Rule 38.0: the three Indochina scenarios as data, with a validating loader.

Each scenario is a YAML file in ``data/scenarios/``: the dates, the starting political and supply points,
which rules are switched off, each side's set-up (nationality, unit type, size, count and where, in words,
since the map is absent), reinforcements by turn, who controls which cities and towns, the lettered special
rules in our own words, and the victory conditions. Anything we read rather than found in the text carries a
``provenance`` of kind ``reconstructed`` with the reason.

:func:`load_scenario` accepts a scenario name (``"introductory"``, ``"scenario1"``, ``"scenario2"``) or a path
to a YAML file of the same shape. The file type is declared once (:func:`_scenario`, built from one record per
part: units, deployments, reinforcements, control, special rules, victory) and read with the safe reader; bad
data raises :class:`~wargames.core.errors.DataError` naming the file, the path to the field
(``sides.FEF.deployment[2].units[0].count``) and its line. Helpers turn a scenario into game values: :func:`starting_points`, :func:`turn_dates`,
:func:`forces`, :func:`reinforcements_for`.
"""
from __future__ import annotations

from collections import Counter as Tally
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import implements
from ..core.charts import PROVENANCE, Provenance
from ..core.errors import RuleViolation
from ..core.schema import At, Bool, Const, Convert, Either, Int, Invalid, List, Nullable, Opt, Record, Str
from .combat import Side
from .fields import NAME, SIDE, load_chart
from .political import PoliticalPoints
from .rules_index import SECTIONS
from .units import SIZES, TYPES
from .weather import weather

DATA = Path(__file__).parent / "data" / "scenarios"
NAMES = ("introductory", "scenario1", "scenario2")
ALIASES = {"intro": "introductory", "1": "scenario1", "2": "scenario2", "s1": "scenario1", "s2": "scenario2"}

SIDES = {s.value: s for s in Side}
NATIONALITIES = {
    "FEF": ("French", "Vietnamese National Army", "Cambodian National Army", "Laotian National Army",
            "British", "Nationalist Chinese"),
    "Communist": ("Viet Minh", "Khmer Issarak", "Pathet Lao"),
}
COUNTRIES = ("Vietnam", "Laos", "Cambodia", "China")
# The 2.31 types, plus what the scenarios name that is not a 2.31 land type: plain "infantry" (printed without
# "regular"), the VNA "commando" groups (catalog B5 #24), and the air units and naval marker of the air box.
UNIT_TYPES = TYPES + ("infantry", "commando", "airstrike", "air transport", "naval bombardment")
UNIT_SIZES = SIZES + ("brigade", "marker")
RULE_IDS = frozenset(s.id for s in SECTIONS)
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


# --------------------------------------------------------------------------- the model

@dataclass(frozen=True, order=True)
class Month:
    year: int
    month: int

    @property
    def label(self) -> str:
        return f"{MONTHS[self.month - 1]} {self.year}"

    def __str__(self) -> str:
        return f"{self.year}-{self.month:02d}"

    def index(self) -> int:
        return self.year * 12 + self.month - 1


@dataclass(frozen=True)
class TurnDate:
    """One game turn: its number, its month, and the weather of rule 26.1 (used if that optional rule is on)."""

    turn: int
    month: Month
    weather: str
    extension: bool = False

    @property
    def label(self) -> str:
        return self.month.label


@dataclass(frozen=True)
class UnitEntry:
    type: str
    size: str | None
    count: int
    nationality: str | None = None      # set only when it differs from its group's
    optional_rule: str = ""             # e.g. "IC 25.0": placed only when that optional rule is used

    @property
    def label(self) -> str:
        return f"{self.type} {self.size}" if self.size and self.size != self.type else self.type


@dataclass(frozen=True)
class Near:
    """On or within ``within`` hexes of a place: named ``places``, or any city/town ``controlled_by`` a side
    (of ``country`` when given, of ``kind`` city, town or any). ``on_place=False`` leaves the place's own
    hex out ("adjacent to")."""

    within: int
    places: tuple[str, ...] = ()
    controlled_by: Side | None = None
    country: str | None = None
    kind: str = "any"
    on_place: bool = True


@dataclass(frozen=True)
class Placement:
    """The words of a ``where`` as fields the set-up rules check (see :mod:`wargames.indochina.deployment`).

    ``box``: an off-map box instead of a hex. ``countries``: the hex's country is one of these. ``north_of`` /
    ``south_of``: a named place's hex, that hex excluded. ``near`` / ``not_near``: distance to places.
    ``border``: within so many hexes of a country's hexes. ``occupied``: a friendly unit already there;
    ``on_cadre``: on a friendly cadre; ``own_country``: in the unit's own nation's country; ``one_per_hex``:
    at most one unit of this group a hex; ``not_with_enemy``: never in a hex with enemy units."""

    box: str = ""
    countries: tuple[str, ...] = ()
    north_of: str = ""
    south_of: str = ""
    near: Near | None = None
    not_near: Near | None = None
    border: tuple[str, int] | None = None
    occupied: bool = False
    on_cadre: bool = False
    own_country: bool = False
    one_per_hex: bool = False
    not_with_enemy: bool = False
    rule: str = ""
    provenance: Provenance | None = None


@dataclass(frozen=True)
class Restrictions:
    """A side's set-up restrictions: no unit in a city/town hex (``"fef_controlled"`` ones or ``"any"``), none
    with enemy units, no guerrilla next to a friendly guerrilla; ``rule`` is cited in refusals."""

    rule: str
    no_city_or_town: str = ""
    not_with_enemy_units: bool = False
    guerrillas_apart: bool = False
    provenance: Provenance | None = None


@dataclass(frozen=True)
class Deployment:
    nationality: str
    where: str
    units: tuple[UnitEntry, ...]
    country: str | None = None
    places: tuple[str, ...] = ()
    within: int | None = None
    counter: str = ""
    control_militia: bool = False
    provenance: Provenance | None = None
    placement: Placement | None = None


@dataclass(frozen=True)
class Reinforcement:
    turns: tuple[Month, ...]
    nationality: str | tuple[str, ...] | None
    where: str
    units: tuple[UnitEntry, ...]
    political_cost: int | None = None
    provenance: Provenance | None = None
    placement: Placement | None = None


@dataclass(frozen=True)
class Fortifications:
    total: int
    placements: tuple[tuple[int, str], ...]
    note: str = ""
    provenance: Provenance | None = None
    rules: tuple[Placement | None, ...] = ()        # the structured where of each placement, in order


@dataclass(frozen=True)
class SideSetup:
    side: Side
    setup_rules: tuple[str, ...]
    deployment: tuple[Deployment, ...]
    reinforcements: tuple[Reinforcement, ...]
    fortifications: Fortifications | None = None
    restrictions: Restrictions | None = None


@dataclass(frozen=True)
class Place:
    name: str
    country: str | None = None
    kind: str | None = None             # "city" or "town" when the text says
    printed: str = ""                   # the rulebook's spelling, when we use another


@dataclass(frozen=True)
class Control:
    """Who holds which cities and towns at the start: an explicit list, or everything except a list."""

    only: tuple[Place, ...] | None = None
    all_except: tuple[str, ...] | None = None
    scope: str = ""
    militia_each: int = 0
    provenance: Provenance | None = None


@dataclass(frozen=True)
class SpecialRule:
    letter: str
    summary: str
    rules: tuple[str, ...] = ()
    applies_to: tuple[Side, ...] = ()
    provenance: Provenance | None = None


@dataclass(frozen=True)
class VictoryPoints:
    who: str                            # "both", "FEF" or "Communist"
    per: str
    vp: int


@dataclass(frozen=True)
class Victory:
    kind: str                           # "standard" (rule 24.0) or "points"
    rule: str = ""
    points: tuple[VictoryPoints, ...] = ()
    when: str = ""
    win_ratio: int | None = None
    otherwise: str = ""
    provenance: Provenance | None = None


@dataclass(frozen=True)
class Extension:
    last_turn: Month
    turns: int
    condition: str


@dataclass(frozen=True)
class Scenario:
    id: str
    rule: str
    title: str
    summary: str
    first_turn: Month
    last_turn: Month
    turns: int
    setup_order: tuple[Side, ...]
    political_points: dict[Side, int] | None
    supply_points: dict[Side, int]
    ignored_rules: tuple[str, ...]
    ignore_optional_rules: bool
    no_events_first_turn: bool
    control: dict[Side, Control]
    sides: dict[Side, SideSetup]
    special_rules: tuple[SpecialRule, ...]
    victory: Victory
    extension: Extension | None
    provenance: Provenance
    source: str
    readings: tuple[str, ...] = ()      # header fields that are our reading, not the text

    def turn_of(self, when: str | Month, extended: bool = False) -> int:
        """The turn number of a month ("1950-11" -> 3 in scenario 1)."""
        m = when if isinstance(when, Month) else _month(when, self.source, "turn")
        last = self.extension.last_turn if extended and self.extension else self.last_turn
        if not self.first_turn <= m <= last:
            raise RuleViolation("IC 3.2", f"{m.label} is outside {self.title} ({self.first_turn.label}-{last.label})")
        return m.index() - self.first_turn.index() + 1


# --------------------------------------------------------------------------- the file's schema

def _month_of(text: str) -> Month:
    y, m = int(text[:4]), int(text[5:])
    if not 1 <= m <= 12:
        raise ValueError(f'must be a month written "YYYY-MM", not {text!r}')
    return Month(y, m)


MONTH = Convert(Str(pattern=r"(19|20)\d\d-\d\d", what='a month written "YYYY-MM"'), _month_of)


def _month(raw: Any, file: str, where: str) -> Month:
    """A month written "YYYY-MM" (as a scenario file writes it)."""
    return MONTH.check(raw, At(file, where))


def _months(first: Month, last: Month):
    for i in range(first.index(), last.index() + 1):
        yield divmod(i, 12)[0], divmod(i, 12)[1] + 1


RULE_ID = Str(sorted(RULE_IDS), what="a rule id of the Indochina index")
COUNTRY = Str(COUNTRIES)
PLACE = Str(min_len=1, max_len=500)            # where a group sets up or arrives, in words
COUNT = Int(1, 200)
TURNS = Int(1, 240)
PROV = Opt(PROVENANCE)
NATIONALITY = {side: Str(nats, what=f"a {side} nationality ({', '.join(nats)})")
               for side, nats in NATIONALITIES.items()}


def _unit(side: str) -> Record:
    return Record({"type": Str(UNIT_TYPES, what=f"a unit type ({', '.join(UNIT_TYPES)})"),
                   "size": Nullable(Str(UNIT_SIZES, what=f"a unit size ({', '.join(UNIT_SIZES)}) or ~")),
                   "count": COUNT},
                  {"nationality": Opt(NATIONALITY[side]), "optional_rule": Opt(RULE_ID, "")},
                  build=lambda u: UnitEntry(u["type"], u["size"], u["count"], u["nationality"], u["optional_rule"]))


def _units(side: str) -> List:
    return List(_unit(side), min_len=1, max_len=100, tuple_=True)


def _control_militia_only(d: dict) -> None:
    if d["control_militia"] and any(u.type != "militia" for u in d["units"]):
        raise Invalid("units", "a control-militia group holds only militia")


BOXES = ("Air Available Box", "Far Eastern Staging Area")
BORDER_COUNTRY = Str(COUNTRIES + ("Thailand", "Burma"), what="a country of the map")
PLACE_NAMES = List(NAME, min_len=1, max_len=50, unique=True, tuple_=True)


def _near_fields(v: dict) -> None:
    if bool(v["places"]) == (v["controlled_by"] is not None):
        raise ValueError("needs exactly one of 'places' (a list of names) or 'controlled_by' (a side)")
    if v["places"] and (v["country"] is not None or v["kind"] != "any"):
        raise Invalid("country" if v["country"] is not None else "kind",
                      "belongs with 'controlled_by', not with named places")
    if not v["on_place"] and v["within"] < 1:
        raise Invalid("on_place", "false leaves nothing when within is 0")


NEAR = Record({"within": Int(0, 20)},
              {"places": Opt(PLACE_NAMES, ()), "controlled_by": Opt(SIDE), "country": Opt(COUNTRY),
               "kind": Opt(Str(("city", "town", "any")), "any"), "on_place": Opt(Bool(), True)},
              check=_near_fields, build=lambda v: Near(**v), what="a near {within, places or controlled_by, ...}")
NOT_NEAR = Record({"within": Int(0, 20), "places": PLACE_NAMES}, build=lambda v: Near(v["within"], v["places"]),
                  what="a not_near {within, places}")


def _placement_fields(v: dict) -> None:
    if v["north_of"] and v["south_of"]:
        raise Invalid("south_of", "cannot go with north_of (nothing is both)")
    if v["box"]:
        for key in ("countries", "north_of", "south_of", "near", "not_near", "border"):
            if v[key]:
                raise Invalid(key, f"has no meaning for the off-map box {v['box']!r}")


def _placement(v: dict) -> Placement:
    b = v["border"]
    return Placement(**{**v, "border": (b["country"], b["within"]) if b else None})


PLACEMENT = Record(
    {},
    {"box": Opt(Str(BOXES), ""), "countries": Opt(List(COUNTRY, min_len=1, max_len=4, unique=True, tuple_=True), ()),
     "north_of": Opt(NAME, ""), "south_of": Opt(NAME, ""), "near": Opt(NEAR), "not_near": Opt(NOT_NEAR),
     "border": Opt(Record({"country": BORDER_COUNTRY, "within": Int(1, 20)})),
     "occupied": Opt(Bool(), False), "on_cadre": Opt(Bool(), False), "own_country": Opt(Bool(), False),
     "one_per_hex": Opt(Bool(), False), "not_with_enemy": Opt(Bool(), False), "rule": Opt(RULE_ID, ""),
     "provenance": PROV},
    check=_placement_fields, build=_placement, what="a placement {countries, near, ...}")

RESTRICTIONS = Record(
    {"rule": RULE_ID},
    {"no_city_or_town": Opt(Str(("fef_controlled", "any")), ""), "not_with_enemy_units": Opt(Bool(), False),
     "guerrillas_apart": Opt(Bool(), False), "provenance": PROV},
    build=lambda v: Restrictions(**v), what="restrictions {rule, ...}")


def _deployment(side: str) -> Record:
    return Record({"nationality": NATIONALITY[side], "where": PLACE, "units": _units(side)},
                  {"country": Opt(COUNTRY), "places": Opt(List(NAME, max_len=50, tuple_=True), ()),
                   "within": Opt(Int(1, 20)), "counter": Opt(Str(), ""), "control_militia": Opt(Bool(), False),
                   "provenance": PROV, "placement": Opt(PLACEMENT)},
                  check=_control_militia_only, build=lambda d: Deployment(**d))


def _reinforcement(side: str) -> Record:
    """Its months are checked against the game's length by the scenario (see :func:`_cross_checks`)."""
    nat = NATIONALITY[side]
    return Record({"turns": Either(Const("every"), List(MONTH, min_len=1, max_len=240)),
                   "nationality": Nullable(Either(nat, List(nat, min_len=1, max_len=10, unique=True, tuple_=True))),
                   "where": PLACE, "units": _units(side)},
                  {"political_cost": Opt(Nullable(Int(0, 99))), "provenance": PROV, "placement": Opt(PLACEMENT)})


def _fortifications_add_up(f: dict) -> None:
    placed = sum(c for c, _ in f["placements"])
    if placed != f["total"]:
        raise Invalid("total", f"is {f['total']} but the placements add up to {placed}")


def _fortifications(f: dict) -> Fortifications:
    rules = tuple(r for _, _, r in f["placements"])
    return Fortifications(f["total"], tuple((c, w) for c, w, _ in f["placements"]), f["note"], f["provenance"],
                          rules if any(r is not None for r in rules) else ())


FORTIFICATIONS = Record(
    {"total": Int(1, 99),
     "placements": List(Record({"count": Int(1, 99), "where": PLACE}, {"placement": Opt(PLACEMENT)},
                               build=lambda p: (p["count"], p["where"], p["placement"])),
                        min_len=1, max_len=50, tuple_=True)},
    {"note": Opt(Str(), ""), "provenance": PROV},
    check=lambda f: _fortifications_add_up({**f, "placements": [(c, w) for c, w, _ in f["placements"]]}),
    build=_fortifications)


def _side_setup(side: str) -> Record:
    return Record({"setup_rules": List(Str(min_len=1, max_len=1000), max_len=50, tuple_=True),
                   "deployment": List(_deployment(side), min_len=1, max_len=200, tuple_=True)},
                  {"reinforcements": Opt(Nullable(List(_reinforcement(side), max_len=200))),
                   "fortifications": Opt(Nullable(FORTIFICATIONS)), "restrictions": Opt(RESTRICTIONS)})


def _one_kind_of_list(c: dict) -> None:
    if (c["only"] is None) == (c["all_except"] is None):
        raise ValueError("needs exactly one of 'only' (a list) or 'all_except' (a list)")


CONTROL = Record({}, {"only": Opt(List(Record({"name": NAME}, {"country": Opt(COUNTRY),
                                                             "kind": Opt(Str(("city", "town"))),
                                                             "printed": Opt(Str(max_len=200), "")},
                                              build=lambda p: Place(**p)), max_len=300, tuple_=True)),
                      "all_except": Opt(List(NAME, max_len=300, tuple_=True)),
                      "scope": Opt(Str(max_len=500), ""), "militia_each": Opt(Int(0, 9), 0), "provenance": PROV},
                 check=_one_kind_of_list, build=lambda c: Control(**c), what="a control {only or all_except, ...}")


SPECIAL_RULE = Record({"letter": Str(min_len=1, max_len=20), "summary": Str(min_len=1)},
                      {"rules": Opt(List(RULE_ID, max_len=50, tuple_=True), ()),
                       "applies_to": Opt(List(SIDE, max_len=2, unique=True, tuple_=True), ()), "provenance": PROV},
                      build=lambda r: SpecialRule(**r))


def _victory_fields(v: dict) -> None:
    if v["kind"] == "standard":
        if v["rule"] is None:
            raise Invalid("rule", "is missing (a standard victory names its rule)")
        for key in ("points", "win_ratio"):
            if v[key] is not None:
                raise Invalid(key, "belongs to a victory of kind 'points'")
    else:
        for key in ("points", "win_ratio"):
            if v[key] is None:
                raise Invalid(key, "is missing (a victory of kind 'points' needs it)")


VICTORY = Record(
    {"kind": Str(("standard", "points"))},
    {"rule": Opt(RULE_ID),
     "points": Opt(List(Record({"who": Str(("both", "FEF", "Communist")), "per": Str(min_len=1, max_len=200),
                                "vp": Int(1, 99)}, build=lambda p: VictoryPoints(**p)),
                        min_len=1, max_len=20, tuple_=True)),
     "when": Opt(Str(max_len=500), ""), "win_ratio": Opt(Int(1, 99)), "otherwise": Opt(Str(max_len=500), ""),
     "otherwise_provenance": PROV, "provenance": PROV},
    check=_victory_fields)


def _scenario_rule(rule: str) -> str:
    if not rule.startswith("IC 38"):
        raise ValueError(f"{rule!r} is not a scenario id of rule 38.0")
    return rule


def _by_side(schema_for) -> Record:
    return Record({s.value: schema_for(s.value) for s in Side})


def _cross_checks(v: dict) -> None:
    """What the fields say together: dates and lengths, points, months of reinforcements, control militia."""
    first, last = v["first_turn"], v["last_turn"]
    if last < first:
        raise Invalid("last_turn", f"{last} comes before the first turn {first}")
    span = last.index() - first.index() + 1
    if v["turns"] != span:
        raise Invalid("turns", f"is {v['turns']} but {first} to {last} is {span} monthly turns")
    e = v["extension"]
    if e is not None:
        if e["last_turn"] <= last:
            raise Invalid("extension.last_turn", f"{e['last_turn']} does not extend past the last turn {last}")
        n = e["last_turn"].index() - first.index() + 1
        if e["turns"] != n:
            raise Invalid("extension.turns", f"is {e['turns']} but {first} to {e['last_turn']} is {n} turns")
    if v["political_points"] is None and "IC 5.0" not in v["ignored_rules"]:
        raise Invalid("political_points", "may be empty only when rule IC 5.0 is ignored")
    for side, s in v["sides"].items():
        for i, r in enumerate(s["reinforcements"] or ()):
            if r["turns"] != "every":
                for j, m in enumerate(r["turns"]):
                    if not first <= m <= last:
                        raise Invalid(f"sides.{side}.reinforcements[{i}].turns[{j}]",
                                      f"{m} is outside the scenario ({first} to {last})")
    letters: dict[str, int] = {}
    for i, r in enumerate(v["special_rules"]):
        if r.letter in letters:
            raise Invalid(f"special_rules[{i}].letter", f"repeats the letter of special_rules[{letters[r.letter]}]")
        letters[r.letter] = i
    control = v["control"]
    for side, c in control.items():
        if c is None:
            continue
        other = control.get(Side(side).enemy.value)
        if c.all_except is not None and other is not None and other.only is not None:
            if sorted(c.all_except) != sorted(p.name for p in other.only):
                raise Invalid(f"control.{side}.all_except",
                              f"must name exactly the places the {Side(side).enemy.value} player controls")
        if c.militia_each and c.only is not None:      # one control militia per listed place, when the text says so
            placed = sum(u.count for d in v["sides"][side]["deployment"] if d.control_militia for u in d.units)
            want = c.militia_each * len(c.only)
            if placed != want:
                raise Invalid(f"sides.{side}.deployment",
                              f"places {placed} control militia but {len(c.only)} controlled places need {want}")


def _scenario(file: str, default: Provenance) -> Record:
    points = lambda lo: Record({s.value: Int(lo, 100) for s in Side},
                               build=lambda p: {Side(k): n for k, n in p.items()})

    def build(v: dict) -> Scenario:
        first, last = v["first_turn"], v["last_turn"]
        span = tuple(Month(y, m) for y, m in _months(first, last))
        sides = {}
        for key, s in v["sides"].items():
            reinf = tuple(Reinforcement(span if r["turns"] == "every" else tuple(r["turns"]), r["nationality"],
                                        r["where"], r["units"], r["political_cost"], r["provenance"],
                                        r["placement"])
                          for r in s["reinforcements"] or ())
            sides[Side(key)] = SideSetup(Side(key), s["setup_rules"], s["deployment"], reinf, s["fortifications"],
                                         s["restrictions"])
        readings = []
        for label, prov in (("turns", v["turns_provenance"]), ("political points", v["political_points_provenance"]),
                            ("victory, otherwise", v["victory"]["otherwise_provenance"])):
            if prov is not None and prov.reconstructed:
                readings.append(f"{label}: {prov.source}")
        w = v["victory"]
        victory = Victory(w["kind"], w["rule"] or "", w["points"] or (), w["when"], w["win_ratio"], w["otherwise"],
                          w["provenance"])
        e = v["extension"]
        return Scenario(v["id"], v["rule"], v["title"], v["summary"], first, last, v["turns"], v["setup_order"],
                        v["political_points"], v["supply_points"], v["ignored_rules"], v["ignore_optional_rules"],
                        v["no_events_first_turn"], {Side(k): c for k, c in v["control"].items() if c is not None},
                        sides, v["special_rules"], victory,
                        Extension(e["last_turn"], e["turns"], e["condition"]) if e else None, default, file,
                        tuple(readings))

    return Record(
        {"id": Str(min_len=1, max_len=60), "rule": Convert(RULE_ID, _scenario_rule), "title": NAME,
         "summary": Str(min_len=1), "first_turn": MONTH, "last_turn": MONTH, "turns": TURNS,
         "setup_order": List(SIDE, min_len=2, max_len=2, unique=True, tuple_=True),
         "political_points": Nullable(points(1)), "supply_points": points(0),
         "ignored_rules": List(RULE_ID, max_len=100, unique=True, tuple_=True),
         "ignore_optional_rules": Bool(), "no_events_first_turn": Bool(),
         "control": Record({}, {s.value: Opt(CONTROL) for s in Side}),
         "sides": _by_side(_side_setup),
         "special_rules": List(SPECIAL_RULE, max_len=50, tuple_=True),
         "victory": VICTORY},
        {"provenance": PROV, "turns_provenance": PROV, "political_points_provenance": PROV,
         "extension": Opt(Nullable(Record({"last_turn": MONTH, "turns": TURNS,
                                           "condition": Str(min_len=1, max_len=1000)})))},
        check=_cross_checks, build=build, what="a scenario")


# --------------------------------------------------------------------------- the loader

def scenario_path(name_or_path: str | Path) -> Path:
    """A scenario's file: a built-in name ("scenario1", "intro", "2", ...) or a path."""
    key = str(name_or_path)
    key = ALIASES.get(key.lower(), key)
    if key in NAMES:
        return DATA / f"{key}.yaml"
    return Path(name_or_path)


@implements("IC 38.0", "IC 38 Introductory", "IC 38 Scenario 1", "IC 38 Scenario 2")
def load_scenario(name_or_path: str | Path) -> Scenario:
    """Load and check a scenario file; any bad field raises DataError naming the file, the field and its line."""
    path = scenario_path(name_or_path)
    return load_chart(path, lambda default: _scenario(str(path), default))


def all_scenarios() -> dict[str, Scenario]:
    """The three scenarios of rule 38.0, by name."""
    return {n: load_scenario(n) for n in NAMES}


# --------------------------------------------------------------------------- helpers

@implements("IC 5.1")
def starting_points(scenario: Scenario) -> PoliticalPoints:
    """Each side's political points index at the start (5.1: the scenario sets it)."""
    if scenario.political_points is None:
        raise RuleViolation("IC 5.0", f"{scenario.title} switches political points off")
    return PoliticalPoints(fef=scenario.political_points[Side.FEF],
                           communist=scenario.political_points[Side.COMMUNIST])


def starting_supply(scenario: Scenario, side: Side | str) -> int:
    """A side's supply points at the start (0 where the scenario says none)."""
    return scenario.supply_points[_as_side(side)]


@implements("IC 3.2", "IC Turn Record Chart")
def turn_dates(scenario: Scenario, extended: bool = False) -> list[TurnDate]:
    """The game turns month by month (3.2: the scenario sets the length); ``extended`` plays the optional
    extension where the scenario has one."""
    if extended and scenario.extension is None:
        raise RuleViolation("IC 3.2", f"{scenario.title} has no optional extension")
    last = scenario.extension.last_turn if extended else scenario.last_turn
    out = []
    for n, (y, m) in enumerate(_months(scenario.first_turn, last), start=1):
        out.append(TurnDate(n, Month(y, m), weather(m), extended and n > scenario.turns))
    return out


def game_length(scenario: Scenario, extended: bool = False) -> int:
    """The number of game turns (3.2)."""
    return len(turn_dates(scenario, extended))


def forces(scenario: Scenario, side: Side | str, nationality: str | None = None,
           optional: bool = False) -> dict[str, int]:
    """A side's set-up summed by unit type and size ("regular infantry group": 15, ...).

    Units that an optional rule adds (death commandos) count only with ``optional=True``; the militia that
    marks a controlled place counts like any other set-up unit.
    """
    tally: Tally[str] = Tally()
    for d in scenario.sides[_as_side(side)].deployment:
        for u in d.units:
            nat = u.nationality or d.nationality
            if nationality is not None and nat != nationality:
                continue
            if u.optional_rule and not optional:
                continue
            tally[u.label] += u.count
    return dict(tally)


def reinforcements_for(scenario: Scenario, side: Side | str, when: str | Month) -> dict[str, int]:
    """The units a side receives in one turn's mobilization phase, summed by type and size."""
    m = when if isinstance(when, Month) else _month(when, scenario.source, "turn")
    scenario.turn_of(m)
    tally: Tally[str] = Tally()
    for r in scenario.sides[_as_side(side)].reinforcements:
        if m in r.turns:
            for u in r.units:
                tally[u.label] += u.count
    return dict(tally)


def controlled(scenario: Scenario, side: Side | str) -> list[str] | str:
    """The places a side holds at the start: a list of names, or a sentence for "all except ..."."""
    c = scenario.control.get(_as_side(side))
    if c is None:
        return []
    if c.only is not None:
        return [p.name for p in c.only]
    return f"all except {', '.join(c.all_except)}" + (f" ({c.scope})" if c.scope else "")


def reconstructed(scenario: Scenario) -> list[str]:
    """Where the scenario file departs from the bare text: the list of our readings, for the book."""
    out = list(scenario.readings)
    for side, c in scenario.control.items():
        if c.provenance and c.provenance.reconstructed:
            out.append(f"control ({side.value}): {c.provenance.source}")
    for side, s in scenario.sides.items():
        for d in s.deployment:
            if d.provenance and d.provenance.reconstructed:
                out.append(f"{side.value} set-up, {d.nationality}: {d.provenance.source}")
            q = d.placement
            if q is not None and q.provenance and q.provenance.reconstructed:
                out.append(f"{side.value} set-up, {d.nationality}, where: {q.provenance.source}")
        for r in s.reinforcements:
            q = r.placement
            if q is not None and q.provenance and q.provenance.reconstructed:
                out.append(f"{side.value} reinforcements, where: {q.provenance.source}")
        if s.fortifications and s.fortifications.provenance and s.fortifications.provenance.reconstructed:
            out.append(f"{side.value} fortifications: {s.fortifications.provenance.source}")
    for r in scenario.special_rules:
        if r.provenance and r.provenance.reconstructed:
            out.append(f"special rule {r.letter}: {r.provenance.source}")
    if scenario.victory.provenance and scenario.victory.provenance.reconstructed:
        out.append(f"victory: {scenario.victory.provenance.source}")
    return out


def _as_side(side: Side | str) -> Side:
    if isinstance(side, Side):
        return side
    if side not in SIDES:
        raise RuleViolation("IC 38.0", f"{side!r} is not a side (FEF or Communist)")
    return SIDES[side]
