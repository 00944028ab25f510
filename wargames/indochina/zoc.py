"""Rule 11: zones of control, blocked for Heavy units by rough terrain unless a road or trail leads in."""
from __future__ import annotations

from ..core import Hex, implements
from .combat import Side
from .state import IndochinaState
from .units import UnitState, is_combat_unit

HEAVY_BLOCKED = ("jungle", "mountain", "cultivated", "swamp")   # 11.22


def _route(st: IndochinaState, a: Hex, b: Hex) -> bool:
    """A contiguous road or trail between two adjacent hexes."""
    return any(st.has(a, r) and st.has(b, r) for r in ("road", "trail"))


@implements("IC 11.0", "IC 11.1", "IC 2.35", "IC 11.2", "IC 11.21", "IC 11.22", "IC 11.7", "IC 11.71")
def zoc_hexes(st: IndochinaState, u: UnitState) -> set[Hex]:
    """The hexes a unit's ZOC reaches.

    None for a parenthesized strength (11.1) or for a unit that is not a combat unit, with a strength of 0 on
    its current side (11.1 gives a ZOC to land combat units, and 2.35 makes those strength 1 or more); never into terrain the unit may not enter (11.21); a Heavy
    unit's ZOC stops at jungle, mountain, cultivated and swamp hexes unless a road or trail joins them
    (11.22); ZOCs cross borders (11.7) except FEF ZOCs into China (11.71).
    """
    if not u.on_map or u.parenthesized or not is_combat_unit(u):
        return set()
    tec = st.tec()
    heavy = u.counter.unit_class == "Heavy"
    out = set()
    for n in st.map.neighbors(u.hex):
        terr = st.terrain(n)
        row = tec.get(terr)
        if row is not None and (row.heavy if heavy else row.light) is None:
            continue
        if heavy and terr in HEAVY_BLOCKED and not _route(st, u.hex, n):
            continue
        if u.side is Side.FEF and st.map.info(n).attr("country") == "China":
            continue
        out.add(n)
    return out


_MEMO: dict = {}             # (map, TEC, the enemy units' places and sides) -> their ZOC hexes
_MEMO_SIZE = 512


def enemy_zoc(st: IndochinaState, side: Side) -> set[Hex]:
    """Every hex in the ZOC of a unit of the other side.

    The answer depends only on the map, the TEC and where each enemy unit stands on which side of its counter,
    so it is remembered by those (a legal-move search asks the same question for every candidate move)."""
    units = st.on_map(side.enemy)
    tec = st.tec()
    key = (id(st.map), id(tec), side, tuple((u.counter, u.hex, u.disrupted) for u in units))
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is st.map and hit[1] is tec:
        return set(hit[2])
    out: set[Hex] = set()
    for u in units:
        out |= zoc_hexes(st, u)
    if len(_MEMO) >= _MEMO_SIZE:
        _MEMO.clear()
    _MEMO[key] = (st.map, tec, frozenset(out))
    return out
