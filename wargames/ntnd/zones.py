"""No Trumpets No Drums: zones of control and zones of influence (NT 8.5), as movement and supply read them.

* A zone of control (8.5.1) is the unit's own hex and the six around it, for a face-up ground combat unit with a
  printed morale of 3 or 4 (:func:`wargames.ntnd.units.has_zoc`). It never reaches into, out of or within an
  off-board zone (8.5.1, 8.5.4), never crosses an all-sea hexside nor reaches into an all-sea hex (our reading:
  no ground unit goes there, so the fleet at sea ignores zones of control), and crosses a neutral border only when the
  owning player has announced that it does (8.5.1, 10.2: ``declared``, the neutral countries so announced).
  Demoralized ARVN units have none (25.2).
* A zone of influence (8.5.3) reaches two hexes from an Allied firebase, the fleet or a Green Beret, across
  borders and over water, but not into or out of off-board zones (8.5.4).

"Neutral" here means: Laos or Cambodia while its standing is neutral (10.1), and North Vietnam toward the Allies
(10.8 makes an Allied zone of control reaching into it an invasion). A border hexside is neutral when one of the
two countries it separates is neutral toward the unit's side; the owner's declaration must name that country.
"""
from __future__ import annotations

from typing import Iterable

from ..core import Hex, implements
from ..core.hexgrid import spiral
from .state import NtndState

#: the countries that may be neutral (10.1), and North Vietnam, neutral toward Allied ground units (10.8)
NEUTRAL_STATES = ("Laos", "Cambodia")


def neutral_to(state: NtndState, country: str, side: str) -> bool:
    """Whether ``country`` is neutral for ``side``'s units: Laos and Cambodia while neutral (10.1, 10.5), and
    North Vietnam for the Allies (10.8)."""
    if country in NEUTRAL_STATES:
        return state.standing.get(country) == "neutral"
    return country == "NV" and side == "allied"


def neutral_border(state: NtndState, a: Hex, b: Hex, side: str) -> str | None:
    """The neutral country whose border the hexside a-b is, for ``side`` (None if it is no neutral border)."""
    g = state.geography
    if not g.border_side(a, b):
        return None
    for country in (g.country(b), g.country(a)):
        if neutral_to(state, country, side):
            return country
    return None


@implements("NT 8.5.1", "NT 25.2")
def exerts_zoc(state: NtndState, unit: str) -> bool:
    """Whether a piece has a zone of control now: face up, a ground combat unit of printed morale 3-4, on the map,
    and not an ARVN unit while ARVN is demoralized (25.2)."""
    piece, counter = state.piece(unit), state.counter(unit)
    if not counter.zoc or not piece.face_up or state.in_zone(unit):
        return False
    return not (counter.nationality == "SVN" and state.policy.demoralized(state.track.points))


@implements("NT 8.5.1", "NT 8.5.4", "NT 10.2", "NT 10.2 Note", "NT 10.8")
def zoc_hexes(state: NtndState, unit: str, *, declared: Iterable[str] = ()) -> frozenset[Hex]:
    """The hexes of a unit's zone of control (empty if it has none): its hex and each land neighbour not behind
    an all-sea hexside, nor behind a neutral border unless its owner has declared that country in ``declared``."""
    if not exerts_zoc(state, unit):
        return frozenset()
    g, side, declared = state.geography, state.side_of(unit), set(declared)
    h = state.hex_of(unit)
    out = {h}
    for n in g.map.neighbors(h):
        if g.is_all_sea(n) or g.all_sea_side(h, n):
            continue
        country = neutral_border(state, h, n, side)
        if country is not None and country not in declared:
            continue
        out.add(n)
    return frozenset(out)


def enemy_zoc(state: NtndState, side: str, *, declared: Iterable[str] = ()) -> dict[Hex, list[str]]:
    """Every hex in a zone of control of ``side``'s enemy, with the enemy units that cast it. ``declared``: the
    neutral countries the enemy has announced its zones of control reach into (10.2)."""
    declared = tuple(sorted(set(declared)))

    def compute() -> dict[Hex, list[str]]:
        out: dict[Hex, list[str]] = {}
        for unit in state.units(_enemy(side)):
            for h in zoc_hexes(state, unit, declared=declared):
                out.setdefault(h, []).append(unit)
        return out
    key = ("enemy_zoc", side, declared, state.track.points, state.policy, tuple(sorted(state.standing.items())))
    return {h: list(us) for h, us in state.derived(key, compute).items()}


@implements("NT 8.5.3", "NT 8.5.4")
def zoi_hexes(state: NtndState, unit: str) -> frozenset[Hex]:
    """The hexes within two of an Allied firebase, fleet or Green Beret on the map (8.5.3; none in a zone, 8.5.4).
    Borders do not stop it, and it reaches over sea: the fleet casts it from the sea."""
    radius = state.counter(unit).zoi_radius
    if not radius or state.in_zone(unit):
        return frozenset()
    g = state.geography
    return frozenset(h for h in spiral(state.hex_of(unit), radius) if h in g.map)


def enemy_zoi(state: NtndState, side: str, *, types: Iterable[str] | None = None) -> dict[Hex, list[str]]:
    """Every hex in a zone of influence of ``side``'s enemy, with its sources (optionally only of some types)."""
    types = None if types is None else tuple(sorted(set(types)))

    def compute() -> dict[Hex, list[str]]:
        out: dict[Hex, list[str]] = {}
        for unit in state.units(_enemy(side)):
            if types is not None and state.counter(unit).type not in types:
                continue
            for h in zoi_hexes(state, unit):
                out.setdefault(h, []).append(unit)
        return out
    return {h: list(us) for h, us in state.derived(("enemy_zoi", side, types), compute).items()}


def in_green_beret_zoi(state: NtndState, h: Hex) -> bool:
    """Whether a hex lies in an Allied Green Beret's zone of influence (8.2, 15.2.1)."""
    return h in enemy_zoi(state, "communist", types=("green_beret",))


def _enemy(side: str) -> str:
    if side not in ("communist", "allied"):
        raise ValueError(f"side is 'communist' or 'allied', not {side!r}")
    return "allied" if side == "communist" else "communist"


__all__ = ["NEUTRAL_STATES", "enemy_zoc", "enemy_zoi", "exerts_zoc", "in_green_beret_zoi", "neutral_border",
           "neutral_to", "zoc_hexes", "zoi_hexes"]
