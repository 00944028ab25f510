"""Rules 13.5-13.8 with 11.5 and 14.0: applying a combat result to the units, retreat and advance."""
from __future__ import annotations

from typing import Sequence

from ..core import Hex, Resolution, implements
from ..core.errors import RuleViolation
from .charts import RESULTS, default_charts
from .borders import border_problem
from .disruption import disrupt
from .state import IndochinaState
from .zoc import enemy_zoc


def _enterable(st: IndochinaState, uid: str, a: Hex, b: Hex) -> str | None:
    """Why a unit may not retreat or advance from ``a`` into ``b`` (13.8), or None."""
    _, _, tec = default_charts()
    u = st.unit(uid)
    row = tec.get(st.terrain(b))
    prohibited = row is not None and (row.heavy if u.counter.unit_class == "Heavy" else row.light) is None
    if prohibited and not (st.has(a, "road") and st.has(b, "road")):
        return f"{st.label(b)} is {st.terrain(b).replace('_', ' ')}, closed to it (13.8)"
    if st.units_at(b, u.side.enemy):
        return f"{st.label(b)} holds enemy units"
    return border_problem(st, u, a, b)


@implements("IC 13.62", "IC 11.53", "IC 13.7")
def retreat(st: IndochinaState, uid: str, to: str, res: Resolution) -> str:
    """Retreat one hex. Into an enemy ZOC a combat effective unit is disrupted, a disrupted one eliminated."""
    u = st.unit(uid)
    h = st.map.hex(to)
    if not u.hex.is_adjacent(h):
        raise RuleViolation("IC 13.62", f"{uid} retreats one hex; {to} is not adjacent to {st.label(u.hex)}")
    why = _enterable(st, uid, u.hex, h)
    if why:
        raise RuleViolation("IC 13.62", f"{uid} may not retreat there: {why}")
    in_zoc = h in enemy_zoc(st, u.side)
    u.hex = h
    res.add("IC 13.62", f"{uid} retreats to {to}" + (" into an enemy zone of control" if in_zoc else ""))
    if in_zoc:
        return disrupt(u, "retreat", res)
    return "retreated"


@implements("IC 13.5", "IC 13.6", "IC 13.61", "IC 11.52")
def apply_result(st: IndochinaState, code: str, attackers: Sequence[str], defender_hex: str, table: str,
                 choices: dict | None = None, militia_alone: bool = False) -> Resolution:
    """Apply a CRT result. ``choices``: ``{"attacker_unit": id, "defender_unit": id, "retreats": {id: hex}}``
    for the picks a result leaves to a player. Returns the Resolution; ``result["advance"]`` is how many
    hexes the attackers may advance (0, 1 or 2)."""
    if code not in RESULTS:
        raise RuleViolation("IC 13.5", f"{code!r} is not a combat result")
    choices = choices or {}
    res = Resolution()
    h = st.map.hex(defender_hex)
    atk = [st.unit(a) for a in attackers]
    dfn = [u for u in st.on_map() if u.hex == h and u.side is not atk[0].side]
    res.add("IC 13.5", f"{code}: {RESULTS[code]}")

    def pick(units, key, who):
        if not units:
            return None                 # e.g. a lone FEF militia: never disrupted (17.234)
        uid = choices.get(key)
        if uid is None:
            return max(units, key=lambda u: (u.strength, u.id))      # stated default: the strongest unit
        found = [u for u in units if u.id == uid]
        if not found:
            raise RuleViolation("IC 13.5", f"{uid} is not one of the {who} units")
        return found[0]

    if code == "AE":
        lost = pick(atk, "attacker_unit", "attacking")
        lost.eliminated = True
        res.add("IC 13.5", f"{lost.id} is eliminated")
        for u in atk:
            if u is not lost:
                disrupt(u, "combat", res)
    elif code == "AD":
        disrupt(pick(atk, "attacker_unit", "attacking"), "combat", res)
    elif code == "AR":
        for u in atk:
            if disrupt(u, "combat", res) != "eliminated":
                retreat(st, u.id, _retreat_hex(choices, u.id), res)
    elif code == "BB":
        disrupt(pick(atk, "attacker_unit", "attacking"), "combat", res)
        if dfn:
            disrupt(pick(dfn, "defender_unit", "defending"), "combat", res)
    elif code == "SK":
        if dfn:
            disrupt(pick(dfn, "defender_unit", "defending"), "combat", res)
    elif code == "DD":
        for u in dfn:
            disrupt(u, "combat", res)
    elif code == "DR":
        for u in dfn:
            if disrupt(u, "combat", res) != "eliminated":
                retreat(st, u.id, _retreat_hex(choices, u.id), res)
    elif code == "DE":
        for u in dfn:
            u.eliminated = True
            res.add("IC 13.5", f"{u.id} is eliminated")
    if code in ("DD", "SK", "BB"):
        from .militia import militia_outside_cities
        for u in dfn:
            if u.on_map:
                militia_outside_cities(st, u, code, res)
    cleared = not [u for u in dfn if u.on_map and u.hex == h]
    advance = 0
    if militia_alone and code in ("SK", "BB", "DD") and cleared:
        advance = 1
        res.add("IC 17.234", "the FEF militia stood alone: the attackers may advance into the hex and eliminate it")
    elif code in ("DE", "DR") and cleared:
        qualified = table == "Mobile" and all(u.counter.unit_class == "Light" or u.counter.type == "mechanized"
                                              for u in atk if u.on_map)
        advance = 2 if qualified else 1
        res.add("IC 13.61", f"the attackers may advance up to {advance} hex{'es' if advance > 1 else ''} "
                f"(first into {defender_hex}), ignoring enemy ZOCs and at no movement cost")
    res.result = {"code": code, "advance": advance}
    return res


def _retreat_hex(choices: dict, uid: str) -> str:
    try:
        return choices["retreats"][uid]
    except (KeyError, TypeError):
        raise RuleViolation("IC 13.62", f"a retreat hex must be chosen for {uid}") from None


@implements("IC 13.61", "IC 13.8")
def advance(st: IndochinaState, uids: Sequence[str], path: Sequence[str], allowed: int, defender_hex: str) -> Resolution:
    """Advance after combat: the first hex is the one the defenders left; a second only if allowed."""
    if not 1 <= len(path) <= allowed:
        raise RuleViolation("IC 13.61", f"this result allows an advance of {allowed} hex(es), not {len(path)}")
    if path[0] != defender_hex:
        raise RuleViolation("IC 13.61", f"the first hex of an advance is {defender_hex}, where the defenders were")
    res = Resolution()
    for uid in uids:
        u = st.unit(uid)
        cur = u.hex
        for lab in path:
            h = st.map.hex(lab)
            if not cur.is_adjacent(h):
                raise RuleViolation("IC 13.61", f"{lab} is not adjacent to {st.label(cur)}")
            why = _enterable(st, uid, cur, h)
            if why:
                raise RuleViolation("IC 13.8", f"{uid} may not advance: {why}")
            cur = h
        u.hex = cur
        res.add("IC 13.61", f"{uid} advances to {st.label(cur)}")
    return res
