"""Rule 38.0: the three Indochina scenarios as data, with a validating loader.

Each scenario is a YAML file in ``data/scenarios/``: the dates, the starting political and supply points,
which rules are switched off, each side's set-up (nationality, unit type, size, count and where, in words,
since the map is absent), reinforcements by turn, who controls which cities and towns, the lettered special
rules in our own words, and the victory conditions. Anything we read rather than found in the text carries a
``provenance`` of kind ``reconstructed`` with the reason.

:func:`load_scenario` accepts a scenario name (``"introductory"``, ``"scenario1"``, ``"scenario2"``) or a path
to a YAML file of the same shape; bad data raises :class:`~wargames.core.errors.DataError` naming the file and
the field. Helpers turn a scenario into game values: :func:`starting_points`, :func:`turn_dates`,
:func:`forces`, :func:`reinforcements_for`.
"""
from __future__ import annotations

from collections import Counter as Tally
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import implements
from ..core.charts import Provenance, parse_provenance, read_data_file, require
from ..core.errors import DataError, RuleViolation
from .combat import Side
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


@dataclass(frozen=True)
class Reinforcement:
    turns: tuple[Month, ...]
    nationality: str | tuple[str, ...] | None
    where: str
    units: tuple[UnitEntry, ...]
    political_cost: int | None = None
    provenance: Provenance | None = None


@dataclass(frozen=True)
class Fortifications:
    total: int
    placements: tuple[tuple[int, str], ...]
    note: str = ""
    provenance: Provenance | None = None


@dataclass(frozen=True)
class SideSetup:
    side: Side
    setup_rules: tuple[str, ...]
    deployment: tuple[Deployment, ...]
    reinforcements: tuple[Reinforcement, ...]
    fortifications: Fortifications | None = None


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


# --------------------------------------------------------------------------- validation helpers

def _check_keys(data: dict, allowed: set[str], file: str, where: str) -> None:
    for k in data:
        if k not in allowed:
            raise DataError(file, f"{where}.{k}" if where else str(k), "is not a known field")


def _month(raw: Any, file: str, where: str) -> Month:
    if not isinstance(raw, str):
        raise DataError(file, where, f"must be a month written \"YYYY-MM\", not {raw!r}")
    y, sep, m = raw.partition("-")
    if not (sep and y.isdigit() and m.isdigit() and len(y) == 4 and 1 <= int(m) <= 12):
        raise DataError(file, where, f"must be a month written \"YYYY-MM\", not {raw!r}")
    return Month(int(y), int(m))


def _count(raw: Any, file: str, where: str, allow_zero: bool = False) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < (0 if allow_zero else 1):
        want = "a whole number >= 0" if allow_zero else "a positive whole number"
        raise DataError(file, where, f"must be {want}, not {raw!r}")
    return raw


def _side(raw: Any, file: str, where: str) -> Side:
    if raw not in SIDES:
        raise DataError(file, where, f"{raw!r} is not a side (FEF or Communist)")
    return SIDES[raw]


def _rule_ids(raw: Any, file: str, where: str) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise DataError(file, where, f"must be a list of rule ids, not {type(raw).__name__}")
    for i, r in enumerate(raw):
        if r not in RULE_IDS:
            raise DataError(file, f"{where}[{i}]", f"{r!r} is not a rule id of the Indochina index")
    return tuple(raw)


def _opt_str(data: dict, key: str, file: str, where: str) -> str:
    v = data.get(key, "")
    if v is None:
        return ""
    if not isinstance(v, str):
        raise DataError(file, f"{where}.{key}", f"must be text, not {type(v).__name__}")
    return v


def _opt_prov(data: dict, key: str, file: str, where: str) -> Provenance | None:
    return parse_provenance(data[key], file, f"{where}.{key}") if data.get(key) is not None else None


def _nationality(raw: Any, side: str, file: str, where: str, allow_none: bool = False,
                 allow_list: bool = False) -> str | tuple[str, ...] | None:
    if raw is None and allow_none:
        return None
    if isinstance(raw, list) and allow_list:
        if not raw:
            raise DataError(file, where, "must list at least one nationality")
        return tuple(_nationality(r, side, file, f"{where}[{i}]") for i, r in enumerate(raw))
    if raw not in NATIONALITIES[side]:
        raise DataError(file, where, f"{raw!r} is not a {side} nationality ({', '.join(NATIONALITIES[side])})")
    return raw


def _units(raw: Any, side: str, file: str, where: str) -> tuple[UnitEntry, ...]:
    if not isinstance(raw, list) or not raw:
        raise DataError(file, where, "must be a non-empty list of units")
    out = []
    for i, u in enumerate(raw):
        w = f"{where}[{i}]"
        if not isinstance(u, dict):
            raise DataError(file, w, f"must be a mapping, not {type(u).__name__}")
        _check_keys(u, {"type", "size", "count", "nationality", "optional_rule"}, file, w)
        t = require(u, "type", str, file, w)
        if t not in UNIT_TYPES:
            raise DataError(file, f"{w}.type", f"{t!r} is not a unit type ({', '.join(UNIT_TYPES)})")
        if "size" not in u:
            raise DataError(file, f"{w}.size", "is missing (write ~ when the text gives no size)")
        size = u["size"]
        if size is not None and size not in UNIT_SIZES:
            raise DataError(file, f"{w}.size", f"{size!r} is not a unit size ({', '.join(UNIT_SIZES)})")
        count = _count(u.get("count"), file, f"{w}.count") if "count" in u else None
        if count is None:
            raise DataError(file, f"{w}.count", "is missing")
        nat = _nationality(u["nationality"], side, file, f"{w}.nationality") if "nationality" in u else None
        opt = u.get("optional_rule", "")
        if opt and opt not in RULE_IDS:
            raise DataError(file, f"{w}.optional_rule", f"{opt!r} is not a rule id of the Indochina index")
        out.append(UnitEntry(t, size, count, nat, opt))
    return tuple(out)


def _where(d: dict, file: str, w: str) -> dict:
    where = require(d, "where", str, file, w)
    country = d.get("country")
    if country is not None and country not in COUNTRIES:
        raise DataError(file, f"{w}.country", f"{country!r} is not one of {', '.join(COUNTRIES)}")
    places = d.get("places", [])
    if not isinstance(places, list) or not all(isinstance(p, str) for p in places):
        raise DataError(file, f"{w}.places", "must be a list of place names")
    within = d.get("within")
    if within is not None:
        within = _count(within, file, f"{w}.within")
    return {"where": where, "country": country, "places": tuple(places), "within": within}


def _deployment(raw: Any, side: str, file: str, where: str) -> tuple[Deployment, ...]:
    if not isinstance(raw, list) or not raw:
        raise DataError(file, where, "must be a non-empty list of set-up groups")
    out = []
    for i, d in enumerate(raw):
        w = f"{where}[{i}]"
        if not isinstance(d, dict):
            raise DataError(file, w, f"must be a mapping, not {type(d).__name__}")
        _check_keys(d, {"nationality", "where", "country", "places", "within", "units", "counter",
                        "control_militia", "provenance"}, file, w)
        nat = _nationality(require(d, "nationality", str, file, w), side, file, f"{w}.nationality")
        loc = _where(d, file, w)
        units = _units(require(d, "units", list, file, w), side, file, f"{w}.units")
        cm = d.get("control_militia", False)
        if not isinstance(cm, bool):
            raise DataError(file, f"{w}.control_militia", "must be true or false")
        if cm and any(u.type != "militia" for u in units):
            raise DataError(file, f"{w}.units", "a control-militia group holds only militia")
        out.append(Deployment(nat, loc["where"], units, loc["country"], loc["places"], loc["within"],
                              _opt_str(d, "counter", file, w), cm, _opt_prov(d, "provenance", file, w)))
    return tuple(out)


def _reinforcements(raw: Any, side: str, first: Month, last: Month, file: str, where: str
                    ) -> tuple[Reinforcement, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise DataError(file, where, f"must be a list, not {type(raw).__name__}")
    out = []
    span = [Month(y, m) for y, m in _months(first, last)]
    for i, r in enumerate(raw):
        w = f"{where}[{i}]"
        if not isinstance(r, dict):
            raise DataError(file, w, f"must be a mapping, not {type(r).__name__}")
        _check_keys(r, {"turns", "nationality", "where", "units", "political_cost", "provenance"}, file, w)
        if "turns" not in r:
            raise DataError(file, f"{w}.turns", "is missing")
        t = r["turns"]
        if t == "every":
            turns = tuple(span)
        elif isinstance(t, list) and t:
            turns = tuple(_month(x, file, f"{w}.turns[{j}]") for j, x in enumerate(t))
            for j, m in enumerate(turns):
                if not first <= m <= last:
                    raise DataError(file, f"{w}.turns[{j}]",
                                    f"{m} is outside the scenario ({first} to {last})")
        else:
            raise DataError(file, f"{w}.turns", f"must be \"every\" or a non-empty list of months, not {t!r}")
        if "nationality" not in r:
            raise DataError(file, f"{w}.nationality", "is missing (write ~ when the text names none)")
        nat = _nationality(r["nationality"], side, file, f"{w}.nationality", allow_none=True, allow_list=True)
        loc = require(r, "where", str, file, w)
        units = _units(require(r, "units", list, file, w), side, file, f"{w}.units")
        cost = r.get("political_cost")
        if cost is not None:
            cost = _count(cost, file, f"{w}.political_cost", allow_zero=True)
        out.append(Reinforcement(turns, nat, loc, units, cost, _opt_prov(r, "provenance", file, w)))
    return tuple(out)


def _fortifications(raw: Any, file: str, where: str) -> Fortifications | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise DataError(file, where, f"must be a mapping, not {type(raw).__name__}")
    _check_keys(raw, {"total", "placements", "note", "provenance"}, file, where)
    total = _count(raw.get("total"), file, f"{where}.total")
    places = require(raw, "placements", list, file, where)
    out = []
    for i, p in enumerate(places):
        w = f"{where}.placements[{i}]"
        out.append((_count(require(p, "count", int, file, w), file, f"{w}.count"), require(p, "where", str, file, w)))
    if sum(c for c, _ in out) != total:
        raise DataError(file, f"{where}.total", f"is {total} but the placements add up to {sum(c for c, _ in out)}")
    return Fortifications(total, tuple(out), _opt_str(raw, "note", file, where), _opt_prov(raw, "provenance", file, where))


def _control(raw: Any, file: str) -> dict[Side, Control]:
    if not isinstance(raw, dict):
        raise DataError(file, "control", f"must be a mapping of side to control, not {type(raw).__name__}")
    out: dict[Side, Control] = {}
    for key, c in raw.items():
        side = _side(key, file, f"control.{key}")
        w = f"control.{key}"
        if not isinstance(c, dict):
            raise DataError(file, w, f"must be a mapping, not {type(c).__name__}")
        _check_keys(c, {"only", "all_except", "scope", "militia_each", "provenance"}, file, w)
        if ("only" in c) == ("all_except" in c):
            raise DataError(file, w, "needs exactly one of 'only' (a list) or 'all_except' (a list)")
        only = None
        excl = None
        if "only" in c:
            lst = require(c, "only", list, file, w)
            places = []
            for i, p in enumerate(lst):
                pw = f"{w}.only[{i}]"
                _check_keys(p if isinstance(p, dict) else {}, {"name", "country", "kind", "printed"}, file, pw)
                name = require(p, "name", str, file, pw)
                country = p.get("country")
                if country is not None and country not in COUNTRIES:
                    raise DataError(file, f"{pw}.country", f"{country!r} is not one of {', '.join(COUNTRIES)}")
                kind = p.get("kind")
                if kind not in (None, "city", "town"):
                    raise DataError(file, f"{pw}.kind", f"must be city or town, not {kind!r}")
                places.append(Place(name, country, kind, _opt_str(p, "printed", file, pw)))
            only = tuple(places)
        else:
            lst = require(c, "all_except", list, file, w)
            if not all(isinstance(x, str) for x in lst):
                raise DataError(file, f"{w}.all_except", "must be a list of place names")
            excl = tuple(lst)
        me = c.get("militia_each", 0)
        me = _count(me, file, f"{w}.militia_each", allow_zero=True)
        out[side] = Control(only, excl, _opt_str(c, "scope", file, w), me, _opt_prov(c, "provenance", file, w))
    for side, c in out.items():          # "all except X" must be exactly the other side's list
        other = out.get(side.enemy)
        if c.all_except is not None and other is not None and other.only is not None:
            if sorted(c.all_except) != sorted(p.name for p in other.only):
                raise DataError(file, f"control.{side.value}.all_except",
                                f"must name exactly the places the {side.enemy.value} player controls")
    return out


def _months(first: Month, last: Month):
    for i in range(first.index(), last.index() + 1):
        yield divmod(i, 12)[0], divmod(i, 12)[1] + 1


def _points(raw: Any, file: str, key: str, allow_none: bool) -> dict[Side, int] | None:
    if raw is None and allow_none:
        return None
    if not isinstance(raw, dict):
        raise DataError(file, key, f"must be a mapping of side to points, not {type(raw).__name__}")
    out = {}
    for k, v in raw.items():
        out[_side(k, file, f"{key}.{k}")] = _count(v, file, f"{key}.{k}", allow_zero=(key == "supply_points"))
    for s in Side:
        if s not in out:
            raise DataError(file, f"{key}.{s.value}", "is missing")
    return out


# --------------------------------------------------------------------------- the loader

TOP_KEYS = {"id", "rule", "title", "summary", "provenance", "first_turn", "last_turn", "turns", "turns_provenance",
            "extension", "setup_order", "political_points", "political_points_provenance", "supply_points",
            "ignored_rules", "ignore_optional_rules", "no_events_first_turn", "control", "sides",
            "special_rules", "victory"}


def scenario_path(name_or_path: str | Path) -> Path:
    """A scenario's file: a built-in name ("scenario1", "intro", "2", ...) or a path."""
    key = str(name_or_path)
    key = ALIASES.get(key.lower(), key)
    if key in NAMES:
        return DATA / f"{key}.yaml"
    return Path(name_or_path)


@implements("IC 38.0", "IC 38 Introductory", "IC 38 Scenario 1", "IC 38 Scenario 2")
def load_scenario(name_or_path: str | Path) -> Scenario:
    """Load and check a scenario file; any bad field raises DataError naming the file and the field."""
    path = scenario_path(name_or_path)
    file, data, default = read_data_file(path)
    _check_keys(data, TOP_KEYS, file, "")
    sid = require(data, "id", str, file)
    rule = require(data, "rule", str, file)
    if rule not in RULE_IDS or not rule.startswith("IC 38"):
        raise DataError(file, "rule", f"{rule!r} is not a scenario id of rule 38.0")
    title = require(data, "title", str, file)
    summary = require(data, "summary", str, file)
    first = _month(require(data, "first_turn", str, file), file, "first_turn")
    last = _month(require(data, "last_turn", str, file), file, "last_turn")
    if last < first:
        raise DataError(file, "last_turn", f"{last} comes before the first turn {first}")
    turns = _count(require(data, "turns", int, file), file, "turns")
    span = last.index() - first.index() + 1
    if turns != span:
        raise DataError(file, "turns", f"is {turns} but {first} to {last} is {span} monthly turns")
    readings = []
    tp = _opt_prov(data, "turns_provenance", file, "")
    if tp and tp.reconstructed:
        readings.append(f"turns: {tp.source}")
    ext = None
    if data.get("extension") is not None:
        e = data["extension"]
        _check_keys(e if isinstance(e, dict) else {}, {"last_turn", "turns", "condition"}, file, "extension")
        elast = _month(require(e, "last_turn", str, file, "extension"), file, "extension.last_turn")
        if elast <= last:
            raise DataError(file, "extension.last_turn", f"{elast} does not extend past the last turn {last}")
        eturns = _count(require(e, "turns", int, file, "extension"), file, "extension.turns")
        if eturns != elast.index() - first.index() + 1:
            raise DataError(file, "extension.turns",
                            f"is {eturns} but {first} to {elast} is {elast.index() - first.index() + 1} turns")
        ext = Extension(elast, eturns, require(e, "condition", str, file, "extension"))
    order = require(data, "setup_order", list, file)
    setup_order = tuple(_side(s, file, f"setup_order[{i}]") for i, s in enumerate(order))
    if sorted(s.value for s in setup_order) != sorted(SIDES):
        raise DataError(file, "setup_order", "must list each side once")
    if "political_points" not in data:
        raise DataError(file, "political_points", "is missing (write ~ when the scenario has none)")
    pp = _points(data["political_points"], file, "political_points", allow_none=True)
    ppp = _opt_prov(data, "political_points_provenance", file, "")
    if ppp and ppp.reconstructed:
        readings.append(f"political points: {ppp.source}")
    sp = _points(require(data, "supply_points", dict, file), file, "supply_points", allow_none=False)
    ignored = _rule_ids(require(data, "ignored_rules", list, file), file, "ignored_rules")
    ign_opt = require(data, "ignore_optional_rules", bool, file)
    no_ev = require(data, "no_events_first_turn", bool, file)
    if pp is None and "IC 5.0" not in ignored:
        raise DataError(file, "political_points", "may be empty only when rule IC 5.0 is ignored")
    control = _control(require(data, "control", dict, file), file)

    sides_raw = require(data, "sides", dict, file)
    sides: dict[Side, SideSetup] = {}
    for key, s in sides_raw.items():
        side = _side(key, file, f"sides.{key}")
        w = f"sides.{key}"
        if not isinstance(s, dict):
            raise DataError(file, w, f"must be a mapping, not {type(s).__name__}")
        _check_keys(s, {"setup_rules", "deployment", "reinforcements", "fortifications"}, file, w)
        rules = require(s, "setup_rules", list, file, w)
        if not all(isinstance(r, str) for r in rules):
            raise DataError(file, f"{w}.setup_rules", "must be a list of sentences")
        dep = _deployment(require(s, "deployment", list, file, w), key, file, f"{w}.deployment")
        reinf = _reinforcements(s.get("reinforcements"), key, first, last, file, f"{w}.reinforcements")
        fort = _fortifications(s.get("fortifications"), file, f"{w}.fortifications")
        sides[side] = SideSetup(side, tuple(rules), dep, reinf, fort)
    for s in Side:
        if s not in sides:
            raise DataError(file, f"sides.{s.value}", "is missing")
    for side, c in control.items():           # one control militia per listed place, when the text says so
        if c.militia_each and c.only is not None:
            placed = sum(u.count for d in sides[side].deployment if d.control_militia for u in d.units)
            want = c.militia_each * len(c.only)
            if placed != want:
                raise DataError(file, f"sides.{side.value}.deployment",
                                f"places {placed} control militia but {len(c.only)} controlled places need {want}")

    specials = []
    for i, r in enumerate(require(data, "special_rules", list, file)):
        w = f"special_rules[{i}]"
        _check_keys(r if isinstance(r, dict) else {}, {"letter", "summary", "rules", "applies_to", "provenance"},
                    file, w)
        applies = r.get("applies_to", [])
        if not isinstance(applies, list):
            raise DataError(file, f"{w}.applies_to", "must be a list of sides")
        specials.append(SpecialRule(require(r, "letter", str, file, w), require(r, "summary", str, file, w),
                                    _rule_ids(r.get("rules", []), file, f"{w}.rules"),
                                    tuple(_side(a, file, f"{w}.applies_to[{j}]") for j, a in enumerate(applies)),
                                    _opt_prov(r, "provenance", file, w)))

    v = require(data, "victory", dict, file)
    _check_keys(v, {"kind", "rule", "points", "when", "win_ratio", "otherwise", "otherwise_provenance",
                    "provenance"}, file, "victory")
    vkind = require(v, "kind", str, file, "victory")
    if vkind == "standard":
        vrule = require(v, "rule", str, file, "victory")
        if vrule not in RULE_IDS:
            raise DataError(file, "victory.rule", f"{vrule!r} is not a rule id of the Indochina index")
        victory = Victory("standard", vrule, provenance=_opt_prov(v, "provenance", file, "victory"))
    elif vkind == "points":
        vps = []
        for i, p in enumerate(require(v, "points", list, file, "victory")):
            w = f"victory.points[{i}]"
            who = require(p, "who", str, file, w)
            if who != "both":
                _side(who, file, f"{w}.who")
            vps.append(VictoryPoints(who, require(p, "per", str, file, w),
                                     _count(require(p, "vp", int, file, w), file, f"{w}.vp")))
        ratio = _count(require(v, "win_ratio", int, file, "victory"), file, "victory.win_ratio")
        op = _opt_prov(v, "otherwise_provenance", file, "victory")
        if op and op.reconstructed:
            readings.append(f"victory, otherwise: {op.source}")
        victory = Victory("points", "", tuple(vps), _opt_str(v, "when", file, "victory"), ratio,
                          _opt_str(v, "otherwise", file, "victory"), _opt_prov(v, "provenance", file, "victory"))
    else:
        raise DataError(file, "victory.kind", f"must be standard or points, not {vkind!r}")

    return Scenario(sid, rule, title, summary, first, last, turns, setup_order, pp, sp, ignored, ign_opt, no_ev,
                    control, sides, tuple(specials), victory, ext, default, file, tuple(readings))


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
