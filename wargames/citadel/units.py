"""Rules 3, 4 and Chart 2: counters and their changing status.

A :class:`Counter` is what is printed (front and, for infantry and tanks, back);
a :class:`UnitState` is where it is and what has happened to it: step losses,
inversion, pin, rout, disablement, elimination.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum

from ..core import Hex, implements
from ..core.errors import DataError
from ..core.schema import At, Convert, Int, Invalid, List, Opt, Record, Str
from ..core.sequence import Side as BaseSide
from ..core.state import CounterState
from ..core.copies import immutable


class Side(BaseSide):
    """The two players (``side.enemy`` is the other)."""

    FRENCH = "French"
    VIETMINH = "Vietminh"


class UnitClass(str, Enum):
    INFANTRY = "combat infantry"
    HEAVY_WEAPONS = "heavy weapons"
    TANK = "tank"


# Chart 2 unit types by class.
INFANTRY_TYPES = ("infantry", "paratroopers", "light infantry", "engineers")
WEAPON_TYPES = ("infantry weapons", "howitzer", "antiaircraft", "airborne infantry weapons")
SIZES = ("section", "platoon", "company", "battalion")

# Critical loss level (C 9.3): steps lost before an infantry counter is flipped.
CRITICAL_LOSS_LEVEL = {"company": 1, "battalion": 5}


@implements("C 4", "C Chart 2")
@immutable
@dataclass(frozen=True)
class Counter:
    """A printed counter (Chart 2).

    Infantry: size, type, parent, strength and morale, with reduced values on
    the back. Heavy weapons: size, type, parent, strength, ordnance; no back.
    Tanks: strength and morale modifier, with disabled values on the back.
    ``regiment`` ties Vietminh units to a regiment for strategic movement (C 8).
    """

    id: str
    side: Side
    cls: UnitClass
    name: str
    strength: int
    size: str | None = None
    type: str | None = None
    parent: str | None = None
    morale: int | None = None
    reduced_strength: int | None = None
    reduced_morale: int | None = None
    ordnance: str | None = None
    regiment: str | None = None
    morale_modifier: int | None = None
    provenance: str = "reconstructed"

    def __post_init__(self) -> None:
        for name, schema in COUNTER_FIELDS.items():       # the file's own field schemas, for counters built in code
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, schema.check(value, At("counters", f"counter {self.id}.{name}")))
        problem = counter_problem(self.__dict__)
        if problem:
            field_name, reason = problem
            raise DataError("counters", f"counter {self.id}.{field_name}", reason)

    @property
    def is_battalion(self) -> bool:
        return self.cls is UnitClass.INFANTRY and self.size == "battalion"

    @property
    def critical_loss_level(self) -> int | None:
        return CRITICAL_LOSS_LEVEL.get(self.size) if self.cls is UnitClass.INFANTRY else None

    def to_dict(self) -> dict:
        d = asdict(self)
        d["side"], d["cls"] = self.side.value, self.cls.value
        return d


#: Bumped whenever any unit's hex, elimination or exit changes, so that a state's index of units by hex
#: (``CitadelState.units_at``) knows when it is stale. One counter for all states keeps it simple and safe.
_PLACING = frozenset({"hex", "eliminated", "off_board"})
placements_changed = [0]


@dataclass
class UnitState(CounterState):
    """A counter on the board and its markers (Chart 1: step reduction, pinned, routed)."""

    counter: Counter
    hex: Hex | None = None
    losses: int = 0            # the step-reduction marker under the counter
    inverted: bool = False     # flipped at the critical loss level (C 9.3)
    pinned: bool = False
    pinned_at: int | None = None   # phase index in which the pin was received
    routed: bool = False
    disabled: bool = False     # tanks (C 19.C)
    eliminated: bool = False
    off_board: bool = False    # weapons batteries that exited for strategic movement (C 8)
    in_tunnel: bool = False    # a 75mm recoilless rifle under a tunnel marker (C 18)
    exited_at: int | None = None

    def __setattr__(self, name, value) -> None:
        if name in _PLACING:
            placements_changed[0] += 1
        object.__setattr__(self, name, value)

    def __deepcopy__(self, memo) -> "UnitState":
        """Every field is an immutable value (a frozen counter, a hex, numbers, flags): a shallow copy is deep."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        memo[id(self)] = new
        return new

    @property
    def strength(self) -> int:
        """Current strength: the side showing, less the step-reduction marker."""
        c = self.counter
        if c.cls is UnitClass.TANK:
            return 1 if self.disabled else c.strength
        base = c.reduced_strength if self.inverted else c.strength
        return max(base - self.losses, 0)

    @property
    def morale(self) -> int | None:
        c = self.counter
        return c.reduced_morale if self.inverted else c.morale

    @property
    def on_board(self) -> bool:
        return self.hex is not None and not self.eliminated and not self.off_board

    def to_dict(self) -> dict:
        return {"id": self.id, "hex": None if self.hex is None else [self.hex.q, self.hex.r],
                "losses": self.losses, "inverted": self.inverted, "pinned": self.pinned,
                "routed": self.routed, "disabled": self.disabled, "eliminated": self.eliminated,
                "off_board": self.off_board, "in_tunnel": self.in_tunnel}


#: Counter values are printed single or double digits (a Vietminh battalion is 14-4); morale is 0 to 9.
MAX_STRENGTH, MAX_MORALE = 60, 9


def counter_problem(c: dict) -> tuple[str, str] | None:
    """(field, reason) for what a counter's class requires and it lacks (Chart 2), or None.

    ``c`` holds a :class:`Counter`'s fields (``cls``, ``size``, ...)."""
    if c["cls"] is UnitClass.INFANTRY:
        if c.get("size") not in ("company", "battalion"):
            return "size", "combat infantry counters are companies or battalions"
        if c.get("type") not in INFANTRY_TYPES:
            return "type", f"must be one of {INFANTRY_TYPES}"
        for f in ("morale", "reduced_strength", "reduced_morale"):
            if c.get(f) is None:
                return f, "infantry counters are backprinted and need it"
        if c["reduced_strength"] > c["strength"]:
            return "reduced_strength", f"must not exceed the front strength {c['strength']}"
    elif c["cls"] is UnitClass.HEAVY_WEAPONS:
        if c.get("type") not in WEAPON_TYPES:
            return "type", f"must be one of {WEAPON_TYPES}"
        if not c.get("ordnance"):
            return "ordnance", "heavy weapons counters show their ordnance"
    return None


def _counter(v: dict) -> Counter:
    fields = {**{k: val for k, val in v.items() if k not in ("side", "class")},
              "side": Side(v["side"]), "cls": UnitClass(v["class"])}
    problem = counter_problem(fields)
    if problem:
        raise Invalid(*problem)
    return Counter(**fields)


def _unique_ids(counters: list[Counter]) -> list[Counter]:
    seen: dict[str, int] = {}
    for i, c in enumerate(counters):
        if c.id in seen:
            raise Invalid(f"[{i}].id", f"repeats the id {c.id!r} of counters[{seen[c.id]}]")
        seen[c.id] = i
    return counters


_MORALE = Int(0, MAX_MORALE)
_ID = Str(min_len=1, max_len=40)
#: The fields of a counter besides its side and class, and their schemas (a file's record and a counter made in
#: code are checked by the same ones).
COUNTER_FIELDS = {
    "id": _ID, "name": Str(min_len=1, max_len=200), "strength": Int(1, MAX_STRENGTH), "size": Str(SIZES),
    "type": Str(INFANTRY_TYPES + WEAPON_TYPES + ("tank",)), "parent": _ID, "morale": _MORALE,
    "reduced_strength": Int(0, MAX_STRENGTH), "reduced_morale": _MORALE,
    "ordnance": Str(key=True, pattern=r"[1-9]\d{1,2}|\.\d{2}", what="an ordnance designation such as '105' or '.50'"),
    "regiment": _ID, "morale_modifier": Int(-MAX_MORALE, MAX_MORALE), "provenance": Str(max_len=2000)}
_REQUIRED = ("id", "name", "strength")
#: One counter record (Chart 2): what is printed on it.
COUNTER = Record(
    {"side": Str([s.value for s in Side]), "class": Str([c.value for c in UnitClass]),
     **{k: COUNTER_FIELDS[k] for k in _REQUIRED}},
    {**{k: Opt(s) for k, s in COUNTER_FIELDS.items() if k not in _REQUIRED},
     "provenance": Opt(COUNTER_FIELDS["provenance"], "reconstructed")},
    build=_counter, what="a counter {id, side, class, name, strength, ...}")
#: A list of counters, each id once.
COUNTERS = Convert(List(COUNTER, min_len=1, max_len=2000), _unique_ids)


def load_counters(data: list[dict], file: str = "counters") -> list[Counter]:
    """Build counters from YAML-style records, naming the file and field on any error."""
    return COUNTERS.check(data, At(file, "counters", getattr(data, "mark", None)))
