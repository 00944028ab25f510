"""Counters (F 2.0) and the markers units carry (F 1.2, F 6.6, F 9.0, F 18.1, F 19).

A unit records what its counter prints (fire rating and weapon class, troop quality, range, defensive modifier,
men, reduced side) and the status markers on it. NVA and VC units use the same markers (F 2.0); their
nationality still matters for leader activation (F 5.1) and fire requests (F 13.0).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core import Hex, implements
from ..core.errors import DataError

SIDES = ("US", "NVA", "VC")
KINDS = ("infantry", "vehicle", "helicopter")
WEAPONS = ("SA", "DP", "HE")
ALTITUDES = ("high", "treetop", "ground")
#: Infantry roles with rules of their own; anything else is an ordinary fire or weapons team.
ROLES = ("fire_team", "weapons_team", "mg", "mortar", "leader", "fo", "medic", "sniper", "sapper", "dummy",
         "civilians", "slick", "hog", "cobra", "apc")
CAPACITY = {"slick": 7, "apc": 8}


def player(side: str) -> str:
    """The player who commands a side: "US" or "NVA/VC"."""
    return "US" if side == "US" else "NVA/VC"


def problem(unit: dict) -> tuple[str, str] | None:
    """What is wrong with a unit's fields, as (field, reason), or None: a value outside its vocabulary, a
    combat unit without both a fire rating and a weapon class, an altitude on anything but a helicopter."""
    for name, allowed in (("side", SIDES), ("kind", KINDS), ("role", ROLES)):
        if unit.get(name) not in allowed:
            return name, f"must be one of {allowed}, not {unit.get(name)!r}"
    if (unit.get("fire_rating") is None) != (unit.get("weapon") is None):
        return "weapon", "a combat unit needs both a fire rating and a weapon class"
    if unit.get("weapon") is not None and unit["weapon"] not in WEAPONS:
        return "weapon", f"must be one of {WEAPONS}, not {unit['weapon']!r}"
    if unit.get("kind") == "helicopter" and unit.get("altitude") not in ALTITUDES:
        return "altitude", f"a helicopter needs an altitude, one of {ALTITUDES}"
    if unit.get("kind") != "helicopter" and unit.get("altitude") is not None:
        return "altitude", "only helicopters have an altitude"
    if not 1 <= unit.get("men", 0) <= 4:
        return "men", f"must be 1 to 4 figures, not {unit.get('men')!r}"
    if unit.get("reduced_men") is not None and unit["reduced_men"] >= unit["men"]:
        return "reduced_men", f"the reduced side has fewer figures than the full side ({unit['men']})"
    if unit.get("reduced_fire_rating") is not None and (unit.get("fire_rating") is None
                                                        or unit["reduced_fire_rating"] > unit["fire_rating"]):
        return "reduced_fire_rating", "only a combat unit has one, and it is no better than the full side's"
    return None


@implements("F 2.0", "F 7.5.1")
def reduced_side(u: "Unit") -> tuple[int | None, int, bool]:
    """The fire rating and figures of a unit's reduced side, and whether they are our reconstruction.

    The counters' reduced values are not printed in the rules (F 2.0 only names the white stripe), so a FRAGO
    may give them (``reduced_fire_rating``, ``reduced_men``); otherwise we reconstruct them: one figure fewer,
    since the KIA or WIA marker placed with the flip is one troop (F 6.9, F 7.5.2), and a fire rating one lower,
    never below 1. Range and troop quality stay."""
    given = u.reduced_men is not None and (u.reduced_fire_rating is not None or u.fire_rating is None)
    men = u.reduced_men if u.reduced_men is not None else max(1, u.men - 1)
    rating = u.reduced_fire_rating if u.reduced_fire_rating is not None else (
        None if u.fire_rating is None else max(1, u.fire_rating - 1))
    return rating, men, not given


@implements("F 2.0")
@dataclass
class Unit:
    """One counter on the map and its markers."""

    id: str
    side: str                      # US, NVA or VC
    kind: str = "infantry"         # infantry, vehicle, helicopter
    role: str = "fire_team"
    fire_rating: int | None = None  # None: not a Combat Unit (F 2.0)
    weapon: str | None = None      # SA (red), DP (white), HE (yellow)
    tq: int = 4
    range: int | None = None       # printed on American units only
    defense: int = 0               # Defensive Modifier (vehicles and helicopters)
    men: int = 4
    reduced: bool = False
    reduced_fire_rating: int | None = None   # the reduced side's values; None: reconstructed (reduced_side)
    reduced_men: int | None = None
    hex: Hex | None = None         # None: off the map or loaded
    altitude: str | None = None    # helicopters only
    # status markers
    concealed: bool = False
    suppressed: bool = False
    broken: bool = False
    exhausted: bool = False
    low_ammo: bool = False
    hero: bool = False
    op_fired: bool = False
    activated: bool = False        # Activation Complete
    searching: int = 0             # -1 Searching markers (F 9.0)
    immobilized: bool = False      # vehicles (F 7.4 WIA)
    downed: bool = False           # helicopters (F 7.4 WIA)
    destroyed: bool = False        # a destroyed helicopter stays on the map as a marker
    fort: str | None = None        # "bunker" or "foxholes" the unit is in (F 24, F 25)
    loaded_in: str | None = None   # the vehicle or helicopter carrying it (F 6.9)
    carrying: list[str] = field(default_factory=list)  # KIA/WIA/Injury marker ids (F 7.5.2)
    injury: bool = False           # carries the Injury marker (F 19.1)
    # helicopter and reinforcement bookkeeping (F 4.0, F 12.0, F 15.0, F 19.6)
    entered_turn: int | None = None
    brought_reinforcements: bool = False
    move_only: bool = False        # a slick that unloaded reinforcements may only move (F 4.0, F 15.0)
    leaves_turn: int | None = None
    loaded_from: Hex | None = None

    def __post_init__(self) -> None:
        bad = problem(vars(self))
        if bad is not None:
            raise DataError("units", f"unit {self.id}.{bad[0]}", bad[1])

    @property
    def player(self) -> str:
        return "US" if self.side == "US" else "NVA/VC"       # player(self.side), inline: read very often

    @property
    def is_combat(self) -> bool:
        return self.fire_rating is not None

    @property
    def is_leader(self) -> bool:
        return self.role == "leader"

    @property
    def infantry(self) -> bool:
        return self.kind == "infantry"

    @property
    def on_map(self) -> bool:
        return self.hex is not None and self.loaded_in is None

    @property
    def capacity(self) -> int:
        """Troops it can transport (F 6.9): a UH-1 slick 7, a vehicle 8, anything else 0."""
        if self.kind == "vehicle":
            return 8
        return CAPACITY.get(self.role, 0) if self.kind == "helicopter" else 0

    def flip(self) -> str:
        """Turn the counter to its reduced side (F 7.5.1): the reduced fire rating and figures replace the full
        ones. Returns a few words on the values and their provenance."""
        rating, men, ours = reduced_side(self)
        self.fire_rating, self.men, self.reduced = rating, men, True
        self.reduced_fire_rating = self.reduced_men = None
        values = (f"fire rating {rating}, " if rating is not None else "") + f"{men} men"
        return values + (" (reconstructed counter values)" if ours else "")

    @property
    def carry_limit(self) -> int:
        """KIA/WIA markers it may carry (F 7.5.2): a four-man unit 2, a three-man unit 1, others none."""
        if not self.infantry:
            return 0
        return {4: 2, 3: 1}.get(self.men, 0)

    def status(self) -> list[str]:
        names = ("concealed", "suppressed", "broken", "exhausted", "low_ammo", "hero", "op_fired", "activated",
                 "immobilized", "downed")
        out = [n for n in names if getattr(self, n)]
        if self.searching:
            out.append(f"searching x{self.searching}")
        return out


@dataclass
class CasualtyMarker:
    """A KIA, WIA or Injury marker (F 7.5): on the map, carried by an infantry unit, or loaded."""

    id: str
    kind: str            # KIA, WIA, Injury
    side: str            # whose casualty it is
    hex: Hex | None = None
    carried_by: str | None = None

    @property
    def player(self) -> str:
        return "US" if self.side == "US" else "NVA/VC"       # player(self.side), inline: read very often


@dataclass
class Site:
    """A cache, dummy cache, tunnel, foxholes or bunker marker (F 23-25), hidden until revealed."""

    id: str
    kind: str            # rice, medical, ammo, dummy, tunnel, foxholes, bunker
    side: str            # who set it up
    hex: Hex
    revealed: bool = False
    occupants: list[str] = field(default_factory=list)   # units inside a bunker or foxholes

    KINDS = ("rice", "medical", "ammo", "dummy", "tunnel", "foxholes", "bunker")

    @property
    def is_cache(self) -> bool:
        return self.kind in ("rice", "medical", "ammo")
