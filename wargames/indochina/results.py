"""Rules 13.5-13.8 with 11.5 and 14.0: applying a combat result to the units, retreat and advance."""
from __future__ import annotations

from typing import Sequence

from ..core import Hex, Resolution, implements
from ..core.errors import RuleViolation
from .charts import RESULTS
from .borders import border_problem
from .disruption import disrupt
from .state import IndochinaState
from .zoc import enemy_zoc


def why_not_enterable(st: IndochinaState, uid: str, a: Hex, b: Hex) -> str | None:
    """Why a unit may not retreat or advance from ``a`` into ``b`` (13.8), or None."""
    tec = st.tec()
    u = st.unit(uid)
    row = tec.get(st.terrain(b))
    prohibited = row is not None and (row.heavy if u.counter.unit_class == "Heavy" else row.light) is None
    if prohibited and not (st.has(a, "road") and st.has(b, "road")):
        return f"{st.label(b)} is {st.terrain(b).replace('_', ' ')}, closed to it (13.8)"
    if st.units_at(b, u.side.enemy):
        return f"{st.label(b)} holds enemy units"
    return border_problem(st, u, a, b)


@implements("IC 13.61")
def two_hex_advance(u, table: str) -> bool:
    """13.61(1): may this attacker advance a second hex? Each unit on its own (our reading of the absent
    CRT notes): Light and mechanized units, after a DE or DR on the Mobile table; the others stop after one."""
    return table == "Mobile" and (u.counter.unit_class == "Light" or u.counter.type == "mechanized")


@implements("IC 17.2")
def fef_militia_in_the_way(st: IndochinaState, uid: str, b: Hex) -> str | None:
    """FEF militia counts as a unit in its hex (17.2): a Communist unit may not retreat or move into an FEF
    city or town whose militia is there (it enters only by advancing after combat, 17.13)."""
    u = st.unit(uid)
    if u.side.value == "Communist" and st.fef_militia(b) > 0:
        return f"{st.label(b)} holds FEF militia ({st.fef_militia(b)}), which counts as a unit there (17.2)"
    return None


@implements("IC 13.62", "IC 11.53", "IC 13.7")
def retreat(st: IndochinaState, uid: str, to: str, res: Resolution) -> str:
    """Retreat one hex. Into an enemy ZOC a combat effective unit is disrupted, a disrupted one eliminated."""
    u = st.unit(uid)
    h = st.map.hex(to)
    if not u.hex.is_adjacent(h):
        raise RuleViolation("IC 13.62", f"{uid} retreats one hex; {to} is not adjacent to {st.label(u.hex)}")
    why = why_not_enterable(st, uid, u.hex, h) or fef_militia_in_the_way(st, uid, h)
    if why:
        raise RuleViolation("IC 13.62", f"{uid} may not retreat there: {why}")
    in_zoc = h in enemy_zoc(st, u.side)
    u.hex = h
    res.add("IC 13.62", f"{uid} retreats to {to}" + (" into an enemy zone of control" if in_zoc else ""))
    if in_zoc:
        return disrupt(u, "retreat", res)
    return "retreated"


#: The picks a result leaves to a player (13.5 and the result key): (which side picks, what happens to the unit).
PICKS = {"AE": (("attacker", "eliminated"),), "AD": (("attacker", "disrupted"),),
         "BB": (("attacker", "disrupted"), ("defender", "disrupted")), "SK": (("defender", "disrupted"),)}


def combatants(st: IndochinaState, attackers: Sequence[str], defender_hex: str) -> tuple[list, list]:
    """The attacking units and the units defending the hex (every enemy unit there, 13.12)."""
    h = st.map.hex(defender_hex)
    atk = [st.unit(a) for a in attackers]
    dfn = [u for u in st.on_map() if u.hex == h and u.side is not atk[0].side]
    return atk, dfn


def pick_candidates(st: IndochinaState, attackers: Sequence[str], defender_hex: str, who: str) -> list[str]:
    """The units the owner may pick from for a result's single loss (13.5): ids in order."""
    atk, dfn = combatants(st, attackers, defender_hex)
    return sorted(u.id for u in (atk if who == "attacker" else dfn) if u.on_map)


@implements("IC 13.5", "IC 13.6", "IC 13.61", "IC 11.52")
def apply_losses(st: IndochinaState, code: str, attackers: Sequence[str], defender_hex: str, table: str,
                 picks: dict | None = None, militia_alone: bool = False) -> Resolution:
    """Apply a CRT result except its retreats. ``picks``: ``{"attacker": id, "defender": id}``, the unit each
    owner chose where the result hits one unit (needed only when there is more than one to choose from).

    ``result``: ``code``, ``retreats`` (the ids that must now retreat one hex each, 13.62, in order) and
    ``advance`` (how many hexes the attackers may advance once the retreats are done: 0, 1 or 2).
    """
    if code not in RESULTS:
        raise RuleViolation("IC 13.5", f"{code!r} is not a combat result")
    picks = picks or {}
    res = Resolution()
    h = st.map.hex(defender_hex)
    atk, dfn = combatants(st, attackers, defender_hex)
    res.add("IC 13.5", f"{code}: {RESULTS[code]}")

    def pick(units, who):
        units = [u for u in units if u.on_map]
        if not units:
            return None                 # e.g. a lone FEF militia: never disrupted (17.234)
        if len(units) == 1:
            return units[0]
        uid = picks.get(who)
        if uid is None:
            raise RuleViolation("IC 13.5", f"the {who} must choose which unit the {code} result hits")
        found = [u for u in units if u.id == uid]
        if not found:
            raise RuleViolation("IC 13.5", f"{uid} is not one of the {who}'s units in this combat")
        return found[0]

    retreating: list[str] = []
    if code == "AE":
        lost = pick(atk, "attacker")
        lost.eliminated = True
        res.add("IC 13.5", f"{lost.id} is eliminated")
        for u in atk:
            if u is not lost:
                disrupt(u, "combat", res)
    elif code == "AD":
        disrupt(pick(atk, "attacker"), "combat", res)
    elif code == "AR":
        for u in atk:
            if disrupt(u, "combat", res) != "eliminated":
                retreating.append(u.id)
    elif code == "BB":
        disrupt(pick(atk, "attacker"), "combat", res)
        if dfn:
            disrupt(pick(dfn, "defender"), "combat", res)
    elif code == "SK":
        if dfn:
            disrupt(pick(dfn, "defender"), "combat", res)
    elif code == "DD":
        for u in dfn:
            disrupt(u, "combat", res)
    elif code == "DR":
        for u in dfn:
            if disrupt(u, "combat", res) != "eliminated":
                retreating.append(u.id)
    elif code == "DE":
        for u in dfn:
            u.eliminated = True
            res.add("IC 13.5", f"{u.id} is eliminated")
    if code in ("DD", "SK", "BB"):
        from .militia import militia_outside_cities
        for u in dfn:
            if u.on_map:
                militia_outside_cities(st, u, code, res)
    cleared = not [u for u in dfn if u.on_map and u.hex == h and u.id not in retreating]
    advance = 0
    if militia_alone and code in ("SK", "BB", "DD") and cleared:
        advance = 1
        res.add("IC 17.234", "the FEF militia stood alone: the attackers may advance into the hex and eliminate it")
    elif code in ("DE", "DR") and cleared:
        qualified = any(two_hex_advance(u, table) for u in atk if u.on_map)
        advance = 2 if qualified else 1
        res.add("IC 13.61", f"the attackers may advance up to {advance} hex{'es' if advance > 1 else ''} "
                f"(first into {defender_hex}), ignoring enemy ZOCs and at no movement cost")
    res.result = {"code": code, "retreats": retreating, "advance": advance}
    return res


@implements("IC 13.62", "IC 13.8")
def retreat_options(st: IndochinaState, uid: str) -> list[str]:
    """The hexes a unit may retreat into (13.62, 13.8, 11.53), in label order: every adjacent hex it could
    enter that holds no enemy unit (enemy zones of control allowed, at their cost)."""
    u = st.unit(uid)
    return sorted(st.label(n) for n in st.map.neighbors(u.hex) if not why_not_enterable(st, uid, u.hex, n)
                  and not fef_militia_in_the_way(st, uid, n))


@implements("IC 13.62")
def cannot_retreat(st: IndochinaState, uid: str, res: Resolution) -> None:
    """A unit that must retreat but has no hex it may retreat into is eliminated (our reading: the printed
    CRT's retreat instructions are absent; see the ambiguities appendix)."""
    u = st.unit(uid)
    u.eliminated = True
    res.add("IC 13.62", f"{uid} has no hex to retreat into and is eliminated")


def apply_result(st: IndochinaState, code: str, attackers: Sequence[str], defender_hex: str, table: str,
                 choices: dict | None = None, militia_alone: bool = False) -> Resolution:
    """Apply a CRT result with every pick given up front, for the chapters and exact enumeration.

    ``choices``: ``{"attacker_unit": id, "defender_unit": id, "retreats": {id: hex}}`` (a pick not given
    is the strongest unit, as the chapters state); a unit whose retreat
    is not given and that has no legal hex is eliminated (:func:`cannot_retreat`). In play, :class:`Game`
    asks each owner instead. ``result["advance"]`` is how many hexes the attackers may advance (0, 1 or 2).
    """
    choices = choices or {}
    picks = {"attacker": choices.get("attacker_unit"), "defender": choices.get("defender_unit")}
    for who, _ in PICKS.get(code, ()):
        if picks[who] is None:                   # the chapters' stated default: the strongest unit
            atk, dfn = combatants(st, attackers, defender_hex)
            units = [u for u in (atk if who == "attacker" else dfn) if u.on_map]
            if units:
                picks[who] = max(units, key=lambda u: (u.strength, u.id)).id
    res = apply_losses(st, code, attackers, defender_hex, table, picks, militia_alone)
    for uid in res.result["retreats"]:
        where = (choices.get("retreats") or {}).get(uid)
        if where is None and not retreat_options(st, uid):
            cannot_retreat(st, uid, res)
        else:
            retreat(st, uid, _retreat_hex(choices, uid), res)
    res.result = {"code": code, "advance": res.result["advance"]}
    return res


def _retreat_hex(choices: dict, uid: str) -> str:
    try:
        return choices["retreats"][uid]
    except (KeyError, TypeError):
        raise RuleViolation("IC 13.62", f"a retreat hex must be chosen for {uid}") from None


@implements("IC 13.61", "IC 13.8")
def advance(st: IndochinaState, uids: Sequence[str], path: Sequence[str], allowed: int, defender_hex: str,
            table: str | None = None) -> Resolution:
    """Advance after combat: the first hex is the one the defenders left; a second only if allowed and, when
    ``table`` is given, only for units that qualify for it on that table (:func:`two_hex_advance`)."""
    if not 1 <= len(path) <= allowed:
        raise RuleViolation("IC 13.61", f"this result allows an advance of {allowed} hex(es), not {len(path)}")
    if len(path) == 2 and table is not None:
        slow = [uid for uid in uids if not two_hex_advance(st.unit(uid), table)]
        if slow:
            raise RuleViolation("IC 13.61", f"{', '.join(slow)} may advance one hex only; a second hex is for "
                                            f"Light and mechanized units after a Mobile-table result")
    if path[0] != defender_hex:
        raise RuleViolation("IC 13.61", f"the first hex of an advance is {defender_hex}, where the defenders were")
    res = Resolution()
    ends = {}
    for uid in uids:                      # every unit's path is checked before any unit moves
        u = st.unit(uid)
        cur = u.hex
        for lab in path:
            h = st.map.hex(lab)
            if not cur.is_adjacent(h):
                raise RuleViolation("IC 13.61", f"{lab} is not adjacent to {st.label(cur)}")
            why = why_not_enterable(st, uid, cur, h)
            if why:
                raise RuleViolation("IC 13.8", f"{uid} may not advance: {why}")
            cur = h
        ends[uid] = cur
    for uid, cur in ends.items():
        st.unit(uid).hex = cur
        res.add("IC 13.61", f"{uid} advances to {st.label(cur)}")
    return res
