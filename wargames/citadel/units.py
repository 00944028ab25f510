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
from ..core.sequence import Side as BaseSide
from ..core.state import CounterState


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
        where = f"counter {self.id}"
        for f in ("strength", "morale", "reduced_strength", "reduced_morale", "morale_modifier"):
            v = getattr(self, f)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise DataError("counters", f"{where}.{f}", f"must be a whole number, not {v!r}")
        if isinstance(self.ordnance, int) and not isinstance(self.ordnance, bool):
            object.__setattr__(self, "ordnance", str(self.ordnance))   # YAML reads `ordnance: 105` as a number
        if self.ordnance is not None and not isinstance(self.ordnance, str):
            raise DataError("counters", f"{where}.ordnance", f"must be an ordnance designation such as '105', not {self.ordnance!r}")
        if self.strength <= 0:
            raise DataError("counters", f"{where}.strength", "must be positive")
        if self.cls is UnitClass.INFANTRY:
            if self.size not in ("company", "battalion"):
                raise DataError("counters", f"{where}.size", "combat infantry counters are companies or battalions")
            if self.type not in INFANTRY_TYPES:
                raise DataError("counters", f"{where}.type", f"must be one of {INFANTRY_TYPES}")
            for f in ("morale", "reduced_strength", "reduced_morale"):
                if getattr(self, f) is None:
                    raise DataError("counters", f"{where}.{f}", "infantry counters are backprinted and need it")
        elif self.cls is UnitClass.HEAVY_WEAPONS:
            if self.type not in WEAPON_TYPES:
                raise DataError("counters", f"{where}.type", f"must be one of {WEAPON_TYPES}")
            if not self.ordnance:
                raise DataError("counters", f"{where}.ordnance", "heavy weapons counters show their ordnance")

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
    exited_at: int | None = None

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
                "off_board": self.off_board}


def load_counters(data: list[dict], file: str = "counters") -> list[Counter]:
    """Build counters from YAML-style records, naming the file and field on any error."""
    out = []
    for i, rec in enumerate(data):
        where = f"counters[{i}]"
        if not isinstance(rec, dict):
            raise DataError(file, where, f"must be a mapping of counter fields, not {type(rec).__name__}")
        try:
            side = Side(rec["side"])
            cls = UnitClass(rec["class"])
        except KeyError as e:
            raise DataError(file, f"{where}.{e.args[0]}", "is missing") from None
        except ValueError as e:
            raise DataError(file, where, str(e)) from None
        fields = {k: v for k, v in rec.items() if k not in ("side", "class")}
        try:
            out.append(Counter(side=side, cls=cls, **fields))
        except TypeError as e:
            raise DataError(file, where, str(e)) from None
        except DataError as e:
            raise DataError(file, e.field.replace(f"counter {fields.get('id')}", where), e.reason) from None
    return out
