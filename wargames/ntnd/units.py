"""The counter mix (NT 2.1, 2.2, 4.4) and the Allied Reinforcement and Withdrawal Schedule (NT 4.2.1, 4.3.1).

Neither the counter sheet nor the scenario booklet's schedule is in the rulebook. ``data/counters.yaml`` holds
our reconstruction of the 260-counter sheet: 250 units (one row per counter, or one row with a ``count`` for
interchangeable counters such as cadres) and 10 game markers. ``data/schedule.yaml`` lists, by turn, when Allied
formations arrive, may be bought and are withdrawn. Every row carries a provenance: ``text`` (the rule that
states it), ``example`` (the 19.2 example) or ``reconstructed`` (from what).

The data file gives each counter's id, side, nationality, type, size and printed morale. What the rules decide
from the type (the 8.2 movement class, the 2.2 ground-combat flag, the artillery dot, the airmobile symbol, the
5.2-5.6 corps attachment, the 4.2.5 replacement pool, the 8.5 zones) is derived here, once, so a counter can
never disagree with the rules; a row may override the corps attachment where a special rule says so (28.6.1).
Bad data raises :class:`~wargames.core.errors.DataError` naming the file, the field and the unit.
"""
from __future__ import annotations

from collections import Counter as _Tally
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from ..core import implements
from ..core.charts import PROVENANCE, Provenance, file_provenance
from ..core.errors import DataError, RuleViolation
from ..core.schema import At, Int, Invalid, List, Nullable, Opt, Record, Schema, Str, load_file
from ..core.copies import immutable
from ..core.yamlio import load_once, mark_of, read_yaml
from .calendar import LAST_TURN, Turn

DATA = Path(__file__).parent / "data"
COUNTERS = DATA / "counters.yaml"
SCHEDULE = DATA / "schedule.yaml"
COUNTER_SHEET = 260                     # NT 2.1: the sheet's counters, units and markers together

# ------------------------------------------------------------------------------------------ vocabulary
SIDES = ("communist", "allied")
NATIONALITIES = {
    "communist": ("NVA", "VC", "PL", "KR"),
    "allied": ("US", "SVN", "ROK", "Thai", "ANZAC", "Laotian", "Cambodian", "SEATO"),
}
SEATO = ("ROK", "Thai", "ANZAC")        # NT 4.2.5: the SEATO replacement point's nations
INDOCHINESE = ("Laotian", "Cambodian")  # NT 4.2.5: the Indochinese replacement point's nations
POOLS = ("US", "SEATO", "Indochinese", "SVN")

#: NT 2.2, by side: ground combat (non-mechanized, then mechanized), support and air types
GROUND_COMBAT = {
    "communist": ("cadre", "division", "regiment", "sapper", "tank"),
    "allied": ("airmobile", "infantry", "ranger", "marine", "militia", "montagnard", "green_beret", "phoenix",
               "mechanized", "armor"),
}
MECHANIZED = ("tank", "mechanized", "armor")
SUPPORT = {"communist": ("artillery", "sam", "dummy", "vc_base", "supply"),
           "allied": ("firebase", "patrol_boat", "fleet")}
AIR = {"communist": ("interceptor",), "allied": ("gunship", "fighter", "carrier", "sac", "soa")}
TYPES = {s: GROUND_COMBAT[s] + SUPPORT[s] + AIR[s] for s in SIDES}
SIZES = ("division", "brigade", "regiment", "group", "wing", "flotilla", "task_force", "cadre", "unit")

MOVEMENT_CLASSES = ("communist_supply", "communist_other", "allied_ground", "patrol_boat", "airmobile",
                    "air_fleet", "interceptor", "immobile")
ATTACHMENTS = ("attached", "unattached", "none")
#: NT 28.6.1, 28.11.4-28.11.5: the two Laotian royal cities (off-board zones) of the Thai 333, the Guard and the
#: Para-Commando
LAOS_CAPITALS = ("Luang Prabang", "Vientiane")
#: NT 10.2.3.1 / 28.11.1: Allied unit types that operate in Laos without violating it (the Thai 333 by its tag)
SECRET_WAR_TYPES = ("green_beret", "soa", "montagnard")
#: NT 8.2: immobile counters (militia and Montagnards move only inside a Green Beret's zone of influence, 15.2.1)
IMMOBILE_TYPES = ("green_beret", "militia", "montagnard", "phoenix", "firebase", "vc_base")
#: NT 2.2 and 19.2.1: the counters that carry the artillery dot (fire support, not ground combat units)
ARTILLERY_TYPES = ("artillery", "firebase", "patrol_boat", "fleet")
#: NT 8.5.3: the counters that project a zone of influence, and its reach in hexes
ZOI_TYPES = ("firebase", "fleet", "green_beret")
ZOI_RADIUS = 2
#: the tags a row may carry (facts about one counter that other rules look up)
TAGS = ("usmc", "laotian_guard", "thai_qc", "thai_333", "para_commando", "5sfm", "usmc_iii", "organic_helicopters",
        "vc_formed")
#: NT 24.3.5: the US counters that may be handed to the ARVN, and the tag a handed-over counter carries in play
TRANSFERABLE_TYPES = ("gunship", "firebase")
TRANSFERRED = "transferred"
NVA_DIVISION_CAP = 10                   # NT 4.1.7 / 28.10: NVA divisions on the map before a National Uprising


@immutable
@dataclass(frozen=True)
class Counter:
    """One counter of the mix (NT 2.2). ``morale`` is the printed morale (None: the counter has none, e.g. a
    dummy, supply, SAM or air unit). The rest is derived from the type by the rules named on each field."""

    id: str
    side: str
    nationality: str
    type: str
    size: str
    morale: int | None
    movement_class: str                 # NT 8.2
    mechanized: bool                    # NT 2.2: the mechanized ground combat units
    division: str | None                # the division a brigade or regiment belongs to (NT 5.2.2), if any
    attachment: str                     # NT 5.2-5.6: "attached", "unattached" or "none"
    replacement_cost: tuple[tuple[str, int], ...]   # NT 4.2.3 and special rules: (pool, points) to buy it
    name: str = ""                      # the historical designation
    tags: frozenset[str] = frozenset()
    provenance: Provenance = field(default=Provenance("reconstructed", ""), compare=False)

    @property
    def ground_combat(self) -> bool:
        """NT 2.2: listed among the ground combat units (:func:`piece_kind`)."""
        return piece_kind(self) == "ground combat"

    @property
    def artillery(self) -> bool:
        """NT 2.2 note: the small circle of fire support (19.2.1), as :func:`artillery_dot` reads it."""
        return artillery_dot(self)

    @property
    def airmobile(self) -> bool:
        """NT 2.2 note: the box-and-triangle of organic airmobility (11.1.4 note), as :func:`airmobile_symbol`."""
        return airmobile_symbol(self)

    @property
    def seato(self) -> bool:
        """NT 4.2.5: a SEATO unit (ROK, Thai, ANZAC, or the SEATO firebase)."""
        return self.nationality in SEATO or self.nationality == "SEATO"

    @property
    def indochinese(self) -> bool:
        return self.nationality in INDOCHINESE

    @property
    def rp_pool(self) -> str | None:
        """The pool whose point replaces this counter by default (NT 4.2.5); None for a Communist counter."""
        return self.replacement_cost[0][0] if self.replacement_cost else None

    @property
    def zoc(self) -> bool:
        """Whether the counter projects a zone of control when face up (NT 8.5.1; see :func:`has_zoc`)."""
        return has_zoc(self)

    @property
    def zoi_radius(self) -> int:
        """NT 8.5.3: 2 for a firebase, the fleet or a Green Beret; 0 otherwise (a VC Base has none, 28.9.1)."""
        return ZOI_RADIUS if self.type in ZOI_TYPES else 0

    @property
    def corps_group(self) -> str | None:
        """NT 5.2.2 and 5.7: the name of the set of attached units that must share one corps: every USMC unit,
        every ROK unit, every Thai unit but the 333, or the brigades of one US division. None if no such set."""
        if self.attachment != "attached":
            return None
        if "usmc" in self.tags:
            return "USMC"
        if self.nationality in ("ROK", "Thai"):
            return self.nationality
        if self.nationality == "US" and self.division:
            return f"US {self.division}"
        return None

    def __str__(self) -> str:
        return self.id


# ------------------------------------------------------------------------------------------ rules on counters

def movement_class(side: str, type_: str) -> str:
    """NT 8.2: the row of the movement chart a counter moves by."""
    if type_ in IMMOBILE_TYPES:
        return "immobile"
    if side == "communist":
        return {"supply": "communist_supply", "interceptor": "interceptor"}.get(type_, "communist_other")
    if type_ == "patrol_boat":
        return "patrol_boat"
    if type_ == "airmobile":
        return "airmobile"
    if type_ == "fleet" or type_ in AIR["allied"]:
        return "air_fleet"
    return "allied_ground"


def default_attachment(side: str, nationality: str, type_: str, size: str, division: str | None) -> str:
    """NT 5.2-5.6: whether an Allied counter must be attached to a corps, enters at a corps HQ but moves
    freely, or has no corps at all.

    - none: Communist counters; Green Berets, militia, Montagnards and firebases (5.6), Phoenix units (used as
      Green Berets, 28.4.2); the fleet, patrol boats and air units (5.6).
    - unattached (5.5): ARVN regiments; US brigades and regiments without a division; US airmobile units.
    - attached (5.2): every other Allied ground combat unit, Laotian and Cambodian ones to their own corps.
    """
    if side == "communist" or type_ not in GROUND_COMBAT["allied"] or type_ in (
            "green_beret", "militia", "montagnard", "phoenix"):
        return "none"
    if nationality == "SVN" and size == "regiment":
        return "unattached"
    if nationality == "US" and (type_ == "airmobile" or (size in ("brigade", "regiment") and not division)):
        return "unattached"
    return "attached"


def default_replacement_cost(side: str, nationality: str, type_: str) -> tuple[tuple[str, int], ...]:
    """NT 4.2.3 and 4.2.5: one point of the counter's own pool (US, SEATO, Indochinese or SVN); Montagnards are
    raised with a US point (16.5). Communist counters are not bought: empty."""
    if side == "communist":
        return ()
    if type_ == "montagnard":
        return (("US", 1),)
    pool = ("US" if nationality == "US" else "SEATO" if nationality in SEATO or nationality == "SEATO"
            else "Indochinese" if nationality in INDOCHINESE else "SVN")
    return ((pool, 1),)


@lru_cache(maxsize=None)
def as_arvn(counter: Counter) -> Counter:
    """NT 24.3.5: a US gunship or firebase handed to the ARVN is a South Vietnamese counter from then on, for
    every rule, but only a US replacement point replaces it."""
    return replace(counter, nationality="SVN", replacement_cost=(("US", 1),), tags=counter.tags | {TRANSFERRED})


PIECE_KINDS = ("ground combat", "support", "air")


@implements("NT 2.2")
def piece_kind(counter: Counter) -> str:
    """NT 2.2: which of the three kinds of playing piece a counter is (ground combat, support or air unit), read
    from its side's lists of types. Stacking (8.10.1) counts the ground combat kind."""
    for kind, table in zip(PIECE_KINDS, (GROUND_COMBAT, SUPPORT, AIR)):
        if counter.type in table[counter.side]:
            return kind
    raise DataError(str(COUNTERS), f"{counter.id}.type", f"{counter.type!r} is no {counter.side} piece of NT 2.2")


@implements("NT 2.2 Note")
def artillery_dot(counter: Counter) -> bool:
    """NT 2.2 note: the small circle of a counter that gives fire support (artillery, firebases, patrol boats
    and the fleet, 19.2.2)."""
    return counter.type in ARTILLERY_TYPES


@implements("NT 2.2 Note", "NT 11.1.4 Note")
def airmobile_symbol(counter: Counter) -> bool:
    """NT 2.2 note: the box-and-triangle of an airmobile counter (1st Cav brigades, the 5SFM, the Laotian
    Para-Commando). Such a unit carries its own helicopters: it needs none attached (11.1.4 note)."""
    return counter.type == "airmobile"


@implements("NT 8.5.1")
def has_zoc(counter: Counter, face_up: bool = True) -> bool:
    """NT 8.5.1: a face-up ground combat unit whose printed morale is 3 or 4 has a zone of control (one hex
    around it and its own hex). Morale lowered in play (ground support, supply) does not matter: the rule reads
    the printed value."""
    return face_up and counter.ground_combat and counter.morale in (3, 4)


@implements("NT 4.2.5")
def pools_that_may_replace(counter: Counter) -> frozenset[str]:
    """NT 4.2.5: the replacement-point pools that may pay for this Allied counter.

    SVN points buy only SVN units; the Indochinese point only Laotian and Cambodian ones; the SEATO point
    SEATO units and, as aid, SVN, Laotian and Cambodian ones; US points US units and the same aid.
    A special cost (Montagnards 16.5, USMC III 28.3.1, the Para-Commando 28.11.5) names its own pools.
    """
    if counter.side != "allied":
        return frozenset()
    pools = {p for p, _ in counter.replacement_cost}
    if counter.nationality in ("SVN",) + INDOCHINESE and counter.type != "montagnard" and len(pools) == 1 \
            and TRANSFERRED not in counter.tags:
        pools |= {"US", "SEATO"}
    return frozenset(pools)


SVN_CORPS = ("I", "II", "III", "IV")


@implements("NT 5.2.1", "NT 5.2.2", "NT 5.2.3")
def check_corps_assignment(assignment: dict[Counter, str]) -> None:
    """NT 5.2: the corps each attached Allied unit in play is attached to.

    Laotian units go to the Laotian corps and Cambodian units to the Cambodian one (5.2.1); every other attached
    unit, SVN divisions included (5.2.3), to one of the four SVN corps (5.2.2). The units of one group (all the
    Marines, all the ROK units, all Thai units but the 333, the brigades of one US division) share a corps
    (5.2.2). Units that are not attached (5.5, 5.6) have no corps. Raises RuleViolation.
    """
    group_corps: dict[str, tuple[str, str]] = {}
    for counter, corps in assignment.items():
        if counter.attachment != "attached":
            raise RuleViolation("NT 5.5" if counter.attachment == "unattached" else "NT 5.6",
                                f"{counter.id} is not attached to a corps")
        home = ("Laos",) if counter.nationality == "Laotian" else ("Cambodia",) \
            if counter.nationality == "Cambodian" else SVN_CORPS
        if corps not in home:
            rule = "NT 5.2.1" if counter.indochinese else "NT 5.2.3" if counter.nationality == "SVN" else "NT 5.2.2"
            raise RuleViolation(rule, f"{counter.id} may be attached only to {' or '.join(home)}, not {corps}")
        group = counter.corps_group
        if group is not None:
            first = group_corps.setdefault(group, (corps, counter.id))
            if first[0] != corps:
                raise RuleViolation("NT 5.2.2", f"{counter.id} must join {first[1]} in {first[0]} Corps "
                                                f"(the {group} units share one corps)")


@implements("NT 4.1.7")
def check_nva_division_cap(on_map: int, uprising_declared: bool) -> None:
    """NT 4.1.7 / 28.10: before a National Uprising has been declared, a new NVA division may not bring the
    number on the map above ten. Raises RuleViolation; ``on_map`` counts the divisions including the new one."""
    if not uprising_declared and on_map > NVA_DIVISION_CAP:
        raise RuleViolation("NT 4.1.7", f"{on_map} NVA divisions would be on the map; at most "
                                        f"{NVA_DIVISION_CAP} until a National Uprising is declared")


# ------------------------------------------------------------------------------------------ the mix

@immutable
@dataclass(frozen=True)
class Marker:
    name: str
    count: int
    provenance: Provenance


@immutable
@dataclass(frozen=True)
class CounterMix:
    """The counters the game holds (NT 4.4: a limit; nothing is built beyond it) and the markers."""

    counters: tuple[Counter, ...]
    markers: tuple[Marker, ...]
    source: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self.counters})

    def __len__(self) -> int:
        return len(self.counters)

    def __iter__(self):
        return iter(self.counters)

    def __contains__(self, counter_id: object) -> bool:
        return counter_id in self._by_id

    @property
    def total(self) -> int:
        """Units and markers together (NT 2.1's 260)."""
        return len(self.counters) + sum(m.count for m in self.markers)

    def get(self, counter_id: str) -> Counter:
        try:
            return self._by_id[counter_id]
        except KeyError:
            raise RuleViolation("NT 4.4", f"the counter mix has no counter {counter_id!r}") from None

    def select(self, side: str | None = None, nationality: str | None = None, type: str | None = None,
               size: str | None = None, tag: str | None = None, division: str | None = None) -> tuple[Counter, ...]:
        """The counters that match every filter given."""
        return tuple(c for c in self.counters
                     if (side is None or c.side == side) and (nationality is None or c.nationality == nationality)
                     and (type is None or c.type == type) and (size is None or c.size == size)
                     and (tag is None or tag in c.tags) and (division is None or c.division == division))

    @implements("NT 4.4", "NT 6.1.4")
    def limit(self, **filters) -> int:
        """NT 4.4 / 6.1.4: how many counters of this kind exist; no more can ever be in play at once."""
        return len(self.select(**filters))

    @implements("NT 4.4", "NT 4.1.6", "NT 6.1.4")
    def available(self, in_use: Iterable[str], **filters) -> tuple[Counter, ...]:
        """NT 4.4: the counters of this kind not in use (on the map, waiting on the turn track, or withdrawn
        for good); recruitment, promotion and purchase take from these only (4.1.6, 6.1.4)."""
        used = set(in_use)
        unknown = used - set(self._by_id)
        if unknown:
            raise RuleViolation("NT 4.4", f"not counters of the mix: {', '.join(sorted(unknown))}")
        return tuple(c for c in self.select(**filters) if c.id not in used)

    def take(self, in_use: Iterable[str], rule: str = "NT 4.4", **filters) -> Counter:
        """The first available counter of this kind, or RuleViolation when the mix is exhausted."""
        free = self.available(in_use, **filters)
        if not free:
            kind = " ".join(str(v) for v in filters.values())
            raise RuleViolation(rule, f"every {kind} counter of the mix ({self.limit(**filters)}) is in use")
        return free[0]


# ------------------------------------------------------------------------------------------ loading

ID = Str(min_len=1, max_len=40)
_ROW_FIELDS = {"id": ID, "side": Str(SIDES), "nationality": Str(min_len=1, max_len=20),
               "type": Str(tuple(dict.fromkeys(TYPES["communist"] + TYPES["allied"]))), "size": Str(SIZES)}


def _row_check(v: dict) -> None:
    side, nat, type_ = v["side"], v["nationality"], v["type"]
    if nat not in NATIONALITIES[side]:
        raise Invalid("nationality", f"{nat!r} is not a {side} nationality ({', '.join(NATIONALITIES[side])})")
    if type_ not in TYPES[side]:
        raise Invalid("type", f"{type_!r} is not a {side} unit type (NT 2.2: {', '.join(TYPES[side])})")
    if nat == "SEATO" and type_ != "firebase":
        raise Invalid("nationality", "only the SEATO firebase is of no single SEATO nation (NT 5.6.2)")
    morale = v["morale"]
    needs = type_ in GROUND_COMBAT[side] or type_ in ("artillery", "firebase", "patrol_boat", "vc_base")
    if needs and morale is None:
        raise Invalid("morale", f"is missing: a {type_} has a printed morale (NT 19.2.1, 13.1.3, 14.1.1)")
    if not needs and morale is not None:
        raise Invalid("morale", f"a {type_} has no printed morale (it never fights on its own; NT 2.2, 11, 17.2)")
    if v["division"] is not None and (side != "allied" or type_ not in GROUND_COMBAT["allied"]
                                      or v["size"] not in ("brigade", "regiment")):
        raise Invalid("division", "only Allied ground brigades and regiments belong to a division (NT 5.2.2)")
    if v["attachment"] is not None and v["attachment"] != default_attachment(side, nat, type_, v["size"],
                                                                             v["division"]):
        if not v["attachment_rule"]:
            raise Invalid("attachment", "differs from the NT 5.2-5.6 default: give the rule as attachment_rule")
    if v["count"] > 1 and (v["name"] or v["tags"]):
        raise Invalid("count", "a row of several counters holds interchangeable ones: no name or tags")


def _expand(v: dict) -> list[Counter]:
    side, nat, type_, size = v["side"], v["nationality"], v["type"], v["size"]
    attachment = v["attachment"] or default_attachment(side, nat, type_, size, v["division"])
    cost = tuple((c["pool"], c["points"]) for c in v["cost"]) if v["cost"] else \
        default_replacement_cost(side, nat, type_)
    ids = [v["id"]] if v["count"] == 1 else [f"{v['id']} {i}" for i in range(1, v["count"] + 1)]
    return [Counter(i, side, nat, type_, size, v["morale"], movement_class(side, type_), type_ in MECHANIZED, v["division"],
                    attachment, cost, v["name"], frozenset(v["tags"]), v["provenance"]) for i in ids]


class _Unit(Schema):
    """A counter row; any error names the unit's id."""

    accepts = (dict,)

    def __init__(self, record: Record):
        self.record = record

    def check(self, value, at):
        try:
            return self.record.check(value, at)
        except DataError as e:
            uid = value.get("id") if isinstance(value, dict) else None
            raise e.explained(f" (unit {uid!r})") if uid is not None else e

    def describe(self):
        return "a counter {id, side, nationality, type, size, morale, provenance, ...}"


def _counter_schema(default: Provenance) -> Schema:
    cost = Record({"pool": Str(POOLS), "points": Int(1, 4)})
    row = Record(dict(_ROW_FIELDS, morale=Nullable(Int(1, 4))),
                 {"count": Opt(Int(1, 60), 1), "name": Opt(Str(max_len=80), ""), "division": Opt(Nullable(ID)),
                  "attachment": Opt(Nullable(Str(ATTACHMENTS))), "attachment_rule": Opt(Str(max_len=200), ""),
                  "cost": Opt(List(cost, min_len=1)), "tags": Opt(List(Str(TAGS)), []),
                  "provenance": Opt(PROVENANCE, default), "notes": Opt(Str(), "")},
                 check=_row_check, build=_expand, what="a counter")
    marker = Record({"name": Str(min_len=1, max_len=60), "count": Int(1, 20)},
                    {"provenance": Opt(PROVENANCE, default)}, build=lambda v: Marker(**v))
    return Record({"name": Str(), "rule": Str(), "counters": List(_Unit(row), min_len=1),
                   "markers": List(marker)},
                  {"provenance": Opt(PROVENANCE), "notes": Opt(Str(), "")})


def load_counters(path: str | Path = COUNTERS, data=None) -> CounterMix:
    """Read a counter-mix file (ours, or an owner's printed one) into a :class:`CounterMix`."""
    file = str(path)
    raw = read_yaml(path) if data is None else data
    own = None
    if isinstance(raw, dict) and "provenance" in raw:
        own = PROVENANCE.check(raw["provenance"], At(file, "provenance", mark_of(raw, "provenance")))
    doc = load_file(path, _counter_schema(file_provenance(path, own)), raw)
    counters = [c for rows in doc["counters"] for c in rows]
    seen: dict[str, int] = {}
    for i, rows in enumerate(doc["counters"]):
        for c in rows:
            if c.id in seen:
                raise At(file, f"counters[{i}].id", mark_of(raw["counters"], i)).error(
                    f"repeats the counter id {c.id!r} (first in counters[{seen[c.id]}]) (unit {c.id!r})")
            seen[c.id] = i
    mix = CounterMix(tuple(counters), tuple(doc["markers"]), file)
    if mix.total != COUNTER_SHEET:
        raise At(file, "counters", mark_of(raw, "counters")).error(
            f"{len(mix)} units and {mix.total - len(mix)} markers make {mix.total} counters; the sheet has "
            f"{COUNTER_SHEET} (NT 2.1)")
    return mix


# ------------------------------------------------------------------------------------------ the schedule

def turn_date(turn: int) -> str:
    """The two-month period of a turn, from the Turn Record (:mod:`.calendar`)."""
    return Turn(turn).label


KINDS = ("arrive", "buyable", "withdraw")


@immutable
@dataclass(frozen=True)
class ScheduleEntry:
    """Counters that arrive free (NT 4.2.1), may be bought from this turn on (28.3, 28.11.5, 24.2.2), or must
    be withdrawn (4.3.1), on one turn."""

    turn: int
    kind: str
    counters: tuple[str, ...]
    provenance: Provenance
    note: str = ""

    @property
    def date(self) -> str:
        return turn_date(self.turn)


@immutable
@dataclass(frozen=True)
class Schedule:
    entries: tuple[ScheduleEntry, ...]
    source: str

    def on(self, turn: int, kind: str | None = None) -> tuple[str, ...]:
        """The counters of every entry of ``turn`` (of one ``kind`` if given)."""
        return tuple(c for e in self.entries if e.turn == turn and (kind is None or e.kind == kind)
                     for c in e.counters)

    def turn_of(self, counter_id: str, kind: str) -> int | None:
        """The turn a counter arrives (``"arrive"``), may first be bought or is withdrawn; None if never."""
        return next((e.turn for e in self.entries if e.kind == kind and counter_id in e.counters), None)

    def counters(self, kind: str | None = None) -> tuple[str, ...]:
        return tuple(c for e in self.entries if kind is None or e.kind == kind for c in e.counters)


def _entry_check(v: dict) -> None:
    expected = turn_date(v["turn"])
    if v["date"] != expected:
        raise Invalid("date", f"turn {v['turn']} is {expected}, not {v['date']} (turn 1 is Mar/Apr 1965)")


def _schedule_schema(default: Provenance) -> Schema:
    entry = Record({"turn": Int(1, LAST_TURN), "date": Str(min_len=8, max_len=12), "kind": Str(KINDS),
                    "counters": List(ID, min_len=1)},
                   {"provenance": Opt(PROVENANCE, default), "note": Opt(Str(), "")}, check=_entry_check,
                   build=lambda v: ScheduleEntry(v["turn"], v["kind"], tuple(v["counters"]), v["provenance"],
                                                 v["note"]),
                   what="a schedule entry {turn, date, kind, counters, provenance}")
    return Record({"name": Str(), "rule": Str(), "entries": List(entry, min_len=1)},
                  {"provenance": Opt(PROVENANCE), "notes": Opt(Str(), "")})


@implements("NT 4.2.1", "NT 4.3.1")
def load_schedule(path: str | Path = SCHEDULE, mix: CounterMix | None = None, data=None) -> Schedule:
    """Read the Allied Reinforcement and Withdrawal Schedule and check it against the counter mix: every
    counter named exists and is Allied; none arrives (or becomes buyable) twice; a counter is withdrawn at most
    once, and only after it arrived or became buyable."""
    file = str(path)
    raw = read_yaml(path) if data is None else data
    own = None
    if isinstance(raw, dict) and "provenance" in raw:
        own = PROVENANCE.check(raw["provenance"], At(file, "provenance", mark_of(raw, "provenance")))
    doc = load_file(path, _schedule_schema(file_provenance(path, own)), raw)
    mix = mix if mix is not None else load_counters()
    first: dict[tuple[str, str], int] = {}
    for i, e in enumerate(doc["entries"]):
        for j, cid in enumerate(e.counters):
            where = At(file, f"entries[{i}].counters[{j}]", mark_of(raw["entries"][i]["counters"], j))
            if cid not in mix:
                raise where.error(f"names {cid!r}, which is not a counter of {Path(mix.source).name}")
            if mix.get(cid).side != "allied":
                raise where.error(f"{cid!r} is a Communist counter; the schedule is the Allies' (NT 4.2.1)")
            key = ("enter" if e.kind in ("arrive", "buyable") else "withdraw", cid)
            if key in first:
                raise where.error(f"{cid!r} already {'enters' if key[0] == 'enter' else 'leaves'} in "
                                  f"entries[{first[key]}]")
            first[key] = i
            if e.kind == "withdraw":
                entered = [k for k, en in enumerate(doc["entries"]) if en.kind != "withdraw" and cid in en.counters]
                if not entered:
                    raise where.error(f"{cid!r} is withdrawn but never arrives (NT 4.3.1)")
                if doc["entries"][entered[0]].turn >= e.turn:
                    raise where.error(f"{cid!r} is withdrawn on turn {e.turn}, not after its arrival on turn "
                                      f"{doc['entries'][entered[0]].turn}")
    return Schedule(tuple(doc["entries"]), file)


def counter_mix() -> CounterMix:
    """The shipped counter mix (read once per version of the file; it is immutable, so it is shared)."""
    return load_once(load_counters, COUNTERS)


def schedule() -> Schedule:
    """The shipped schedule, checked against the shipped mix."""
    return load_once(_shipped_schedule, SCHEDULE)


def _shipped_schedule(path: Path) -> Schedule:
    return load_schedule(path, counter_mix())


def tally(counters: Iterable[Counter], key=lambda c: (c.side, c.nationality, c.type)) -> dict:
    """How many counters there are of each kind (for the book and the report)."""
    return dict(_Tally(key(c) for c in counters))
