"""Rule 2.3 and 11.11: land units, their two sides (combat effective and disrupted) and their class."""
from __future__ import annotations

import copy
from dataclasses import dataclass
from fractions import Fraction

from ..core import Hex, implements
from ..core.errors import DataError
from ..core.state import CounterState
from ..core.copies import immutable
from .combat import Side

# The unit types of 2.31, alphabetically.
TYPES = ("DNA", "airborne infantry", "artillery", "base", "cadre", "death commando", "gendarmerie", "guerrilla",
         "light infantry", "marine infantry", "mechanized", "militia", "regular infantry")
SIZES = ("division", "group", "regiment", "battalion", "cadre")
FEF_LIGHT_TYPES = ("light infantry", "cadre", "gendarmerie")      # 11.11
COMMUNIST_HEAVY_TYPES = ("artillery", "mechanized")               # 11.11


@implements("IC 2.31", "IC 2.32", "IC 11.11")
@immutable
@dataclass(frozen=True)
class Counter:
    """A land unit: front (combat effective) and back (disrupted) strength and movement.

    A parenthesized strength defends only and projects no ZOC (2.31, 11.1). The class is printed on the
    counter; :func:`default_class` gives the 11.11 rule for counters entered without one.
    """

    id: str
    side: Side
    type: str
    size: str
    strength: int
    movement: int
    disrupted_strength: int
    disrupted_movement: int
    cls: str = ""                     # "Heavy" or "Light"; empty: by 11.11
    parenthesized: bool = False
    disrupted_parenthesized: bool = False
    nationality: str = ""

    def __post_init__(self) -> None:
        where = f"counter {self.id}"
        if self.type not in TYPES:
            raise DataError("counters", f"{where}.type", f"must be one of {TYPES}")
        if self.size not in SIZES:
            raise DataError("counters", f"{where}.size", f"must be one of {SIZES}")
        for f in ("strength", "movement", "disrupted_strength", "disrupted_movement"):
            v = getattr(self, f)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise DataError("counters", f"{where}.{f}", f"must be a whole number >= 0, not {v!r}")
        if self.cls not in ("", "Heavy", "Light"):
            raise DataError("counters", f"{where}.cls", "must be Heavy or Light")

    @property
    def unit_class(self) -> str:
        return self.cls or default_class(self.side, self.type)


def default_class(side: Side, unit_type: str) -> str:
    """11.11: FEF units are Heavy except light infantry, cadres and gendarmerie; Communist units are
    Light except artillery and mechanized."""
    if side is Side.FEF:
        return "Light" if unit_type in FEF_LIGHT_TYPES else "Heavy"
    return "Heavy" if unit_type in COMMUNIST_HEAVY_TYPES else "Light"


@dataclass
class UnitState(CounterState):
    counter: Counter
    hex: Hex | None = None
    disrupted: bool = False
    eliminated: bool = False

    def __deepcopy__(self, memo) -> "UnitState":
        """Every field is an immutable value (a frozen counter, a hex, flags): a shallow copy is a deep one."""
        new = copy.copy(self)
        memo[id(self)] = new
        return new

    @property
    def strength(self) -> int:
        return self.counter.disrupted_strength if self.disrupted else self.counter.strength

    @property
    def movement(self) -> int:
        return self.counter.disrupted_movement if self.disrupted else self.counter.movement

    @property
    def parenthesized(self) -> bool:
        c = self.counter
        return c.disrupted_parenthesized if self.disrupted else c.parenthesized

    @property
    def on_map(self) -> bool:
        return self.hex is not None and not self.eliminated


@implements("IC 10.1", "IC 10.11")
def stacking_value(c: Counter) -> Fraction:
    """Division = 1, group or regiment = 1/2; cadres, bases, battalions and militia count nothing (10.1, 10.11)."""
    if c.type in ("cadre", "base", "militia") or c.size in ("battalion", "cadre"):
        return Fraction(0)
    return Fraction(1) if c.size == "division" else Fraction(1, 2)


@implements("IC 2.35")
def is_combat_unit(u: "UnitState") -> bool:
    """2.35: a combat unit has a strength of 1 or more on its current side, bracketed or not."""
    return u.strength >= 1


@implements("IC 2.35")
def occupies(units: list["UnitState"], side: Side, h: Hex) -> bool:
    """2.35: a side occupies a hex only while one of its land units is in it (zones of control do not count)."""
    return any(u.on_map and u.side is side and u.hex == h for u in units)


@implements("IC 2.36")
def modified_roll(roll: int, drm: int) -> int:
    """2.36: a die-roll modifier is added to (or, when negative, subtracted from) the number rolled."""
    return roll + drm


@implements("IC Counter Corrections")
def counter_errata(c: Counter) -> list[str]:
    """The counter errata as checks: a front strength of 1 needs a bracketed (1) on the back."""
    problems = []
    if c.strength == 1 and not (c.disrupted_strength == 1 and c.disrupted_parenthesized):
        problems.append(f"{c.id}: a front strength of 1 has a bracketed (1) on its reverse (counter errata)")
    return problems
