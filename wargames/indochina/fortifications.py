"""Rule 16: fortification markers, who may use them, and when they go; with 17.235 and 17.36 on militia.

Markers live in ``Logistics.fortifications`` (a set of hexes, built by :func:`logistics.entrench`, 16.1).
That set does not say whose marker it is, so the owner is kept in an ``owners`` mapping (hex -> side),
filled by :func:`fortify`. Without an entry the owner is taken to be the side whose units hold the hex;
the sweep of 16.4 must then run as soon as units leave, before an enemy can come in.

Readings:

* FEF militia is a friendly defender of its city (17.23, 17.235), so a fortification in an FEF-controlled
  city with militia is not "left by all friendly units" while the militia stands (16.4).
* A fortification printed on the map (the ``fortification`` feature) counts for whoever holds the hex
  and is never removed; only markers are.
"""
from __future__ import annotations

import itertools

from ..core import Hex, Resolution, implements
from ..core.errors import RuleViolation
from .combat import Side
from .logistics import Logistics, entrench
from .state import IndochinaState
from .units import Counter

Owners = dict[Hex, Side]
UNPLAYABLE = ("all_sea", "all_lake")


def _hex(st: IndochinaState, h: Hex | str) -> Hex:
    return st.map.hex(h) if isinstance(h, str) else h


def _holder(st: IndochinaState, h: Hex) -> Side | None:
    """The side whose units (or FEF militia) hold a hex, if any."""
    units = st.units_at(h)
    if units:
        return units[0].side
    if st.fef_militia(h):
        return Side.FEF
    return None


@implements("IC 16.0")
def owner(st: IndochinaState, lg: Logistics, where: Hex | str, owners: Owners | None = None) -> Side | None:
    """Whose fortification is in a hex (None: no fortification there)."""
    h = _hex(st, where)
    if h not in lg.fortifications and not st.has(h, "fortification"):
        return None
    if owners and h in owners:
        return owners[h]
    return _holder(st, h)


@implements("IC 16.0", "IC 16.2", "IC 16.41")
def fortified(st: IndochinaState, lg: Logistics, where: Hex | str, side: Side | None = None,
              owners: Owners | None = None) -> bool:
    """Do the units of ``side`` (default: the side holding the hex) benefit from a fortification here?

    Every friendly unit in the hex gains it (16.2); an enemy's fortification never helps (16.41). This is
    the flag :class:`combat.Combat` takes as ``fortified``.
    """
    h = _hex(st, where)
    side = side if side is not None else _holder(st, h)
    who = owner(st, lg, h, owners)
    return who is not None and side is not None and who is side


@implements("IC 16.2")
def place_marker(st: IndochinaState, lg: Logistics, where: Hex | str, side: Side,
                 owners: Owners | None = None) -> Resolution:
    """Put a marker down (the 16.1 cost already paid): any playable hex, never a second one (16.2)."""
    h = _hex(st, where)
    if st.terrain(h) in UNPLAYABLE:
        raise RuleViolation("IC 16.2", f"{st.label(h)} is not a playable land hex")
    if h in lg.fortifications or st.has(h, "fortification"):
        raise RuleViolation("IC 16.2", f"{st.label(h)} already has a fortification; one per hex")
    lg.fortifications.add(h)
    if owners is not None:
        owners[h] = side
    res = Resolution()
    res.add("IC 16.2", f"{side.value} fortification at {st.label(h)}: every {side.value} unit there benefits",
            result=st.label(h))
    res.result = st.label(h)
    return res


@implements("IC 16.2")
def fortify(st: IndochinaState, lg: Logistics, side: Side, where: Hex | str, owners: Owners | None = None,
            airborne: str | None = None) -> Resolution:
    """Build through :func:`logistics.entrench` (16.1, 15.31) and record the owner. Building does not stop
    the units there from moving or fighting in the same turn (16.2): nothing is marked on them."""
    h = _hex(st, where)
    if st.terrain(h) in UNPLAYABLE:
        raise RuleViolation("IC 16.2", f"{st.label(h)} is not a playable land hex")
    if st.has(h, "fortification"):
        raise RuleViolation("IC 16.2", f"{st.label(h)} already has a fortification; one per hex")
    res = entrench(st, lg, side, h, airborne=airborne)
    if owners is not None:
        owners[h] = side
    res.add("IC 16.2", "the units there may still move and fight this turn")
    return res


@implements("IC 16.4", "IC 16.41")
def sweep(st: IndochinaState, lg: Logistics, owners: Owners | None = None) -> Resolution:
    """Remove every marker whose owner no longer has a unit in the hex: moved out, eliminated or retreated
    (16.4). An enemy who then enters finds nothing to use (16.41). ``result``: the labels removed."""
    res = Resolution()
    gone = []
    for h in sorted(lg.fortifications, key=st.label):
        who = owners.get(h) if owners and h in owners else _holder(st, h)
        holder = _holder(st, h)
        if who is None or holder is not who:
            lg.fortifications.discard(h)
            if owners is not None:
                owners.pop(h, None)
            gone.append(st.label(h))
            why = "no unit holds it" if who is None else f"no {who.value} unit is left there"
            res.add("IC 16.4", f"the fortification at {st.label(h)} is removed: {why}", result=st.label(h))
            if holder is not None and who is not None:
                res.add("IC 16.41", f"the {holder.value} units now there cannot take it over")
    res.result = gone
    return res


@implements("IC 16.41")
def check_use(st: IndochinaState, lg: Logistics, where: Hex | str, side: Side, owners: Owners | None = None) -> None:
    """Claiming the benefit of an enemy fortification is illegal (16.41)."""
    h = _hex(st, where)
    who = owner(st, lg, h, owners)
    if who is not None and who is not side:
        raise RuleViolation("IC 16.41", f"the fortification at {st.label(h)} is {who.value}; it cannot be captured")


# --------------------------------------------------------------------------------------------- militia
@implements("IC 17.235")
def may_convert_dd(st: IndochinaState, lg: Logistics, where: Hex | str, owners: Owners | None = None) -> bool:
    """May the FEF turn a DD into a BB here (16.3(2))? Only FEF defenders in their fortification, and not
    when the FEF militia defends alone (17.235); militia with other units keeps the option."""
    h = _hex(st, where)
    if not fortified(st, lg, h, Side.FEF, owners):
        return False
    return bool(st.units_at(h, Side.FEF))


@implements("IC 17.235")
def check_dd_conversion(st: IndochinaState, lg: Logistics, where: Hex | str, owners: Owners | None = None) -> None:
    h = _hex(st, where)
    if fortified(st, lg, h, Side.FEF, owners) and not st.units_at(h, Side.FEF):
        raise RuleViolation("IC 17.235", f"the FEF militia defends {st.label(h)} alone: no DD to BB conversion")
    if not fortified(st, lg, h, Side.FEF, owners):
        raise RuleViolation("IC 16.3", f"{st.label(h)} is no FEF fortification: no DD to BB conversion")


@implements("IC 17.36")
def extra_militia(st: IndochinaState, count: int = 1) -> list[Counter]:
    """Fresh 1-0 Communist militia counters with unused ids. No counter-mix limit applies to militia
    (17.36): players make as many as mobilization asks for."""
    from .militia import communist_militia
    taken = set(st.units)
    out = []
    for i in itertools.count(1):
        if len(out) == count:
            break
        uid = f"militia {i}"
        if uid not in taken:
            out.append(communist_militia(uid))
            taken.add(uid)
    return out
