"""What supply does in battle (NT 18.2.1.4, 18.6.1, 18.6.2, 18.7.3), as procedures for the combat phases to call.

:mod:`.supply` says whether a unit is in supply. This module applies the consequences the combat code does not
apply yet:

* :func:`unsupplied_morale`: the units of the phasing side that began its combat phase out of supply; each fights
  with one point less morale (18.2.1.4). The defending side is always in supply (18.4), so it never loses morale
  this way.
* :func:`supply_used_by_attack` and :func:`use_up`: a supply unit that supplied an NVA attack is used up once the
  attack is over (18.6.2; in a zone, the supply unit there, 18.7.3).

The combat phases call them (:mod:`.combat_play`). Supply units attacked alone (18.6.1) die in the battle itself
(:func:`.combat.resolve`).

Readings:

* An attacking NVA unit uses up a supply unit only when the supply unit is what puts it in supply: a unit
  supplied without any supply unit (from North Vietnam, a VC Base, a home zone, or because it is always in
  supply) uses none. When it needs one, it uses the one its supply line reaches (:func:`.supply.supply_line`,
  the cheapest line); attackers that reach the same supply unit share it, so it is used up once.
* A supply unit used up goes back to the counter mix (:meth:`NtndState.remove`);
  the rulebook gives no political points for supply units (22.4).
"""
from __future__ import annotations

from typing import Iterable

from ..core import Resolution, implements
from ..core.errors import RuleViolation
from .charts import NtndCharts
from .state import NtndState
from .supply import in_supply, supply_line

#: the type of a Communist supply unit
SUPPLY = "supply"


@implements("NT 18.2.1.4")
def unsupplied_morale(state: NtndState, units: Iterable[str], side: str, *, air_sources: Iterable[str] = (),
                      enemy_declared: Iterable[str] = (), charts: NtndCharts | None = None) -> tuple[str, ...]:
    """The ground combat units of ``side`` (the phasing side) among ``units`` that are out of supply in ``state``,
    the position at the start of the combat phase: each fights with one morale point less (18.2.1.4, applied by
    :func:`.engagement.battle_from_state`). ``air_sources``: this turn's air supply missions (11.1.3)."""
    out = []
    for u in units:
        c = state.counter(u)
        if c.side == side and c.ground_combat and not in_supply(state, u, air_sources=air_sources,
                                                               enemy_declared=enemy_declared, charts=charts):
            out.append(u)
    return tuple(out)


def _without_dumps(state: NtndState) -> NtndState:
    """The position with every supply unit taken off (what an attacker's supply is without them)."""
    bare = state.copy()
    for u in list(bare.pieces):
        if bare.counter(u).type == SUPPLY:
            bare.remove(u)
    return bare


@implements("NT 18.6.2", "NT 18.7.3")
def supply_used_by_attack(state: NtndState, attackers: Iterable[str], *, enemy_declared: Iterable[str] = (),
                          charts: NtndCharts | None = None) -> tuple[str, ...]:
    """The supply units an NVA attack by ``attackers`` uses up (18.6.2, 18.7.3; see the module's readings):
    for each NVA attacker that is in supply only thanks to a supply unit, that supply unit, each named once."""
    used: list[str] = []
    bare = None
    for u in attackers:
        c = state.counter(u)
        if c.side != "communist" or c.nationality != "NVA":
            continue
        bare = bare or _without_dumps(state)            # one position without supply units for the whole attack
        if in_supply(bare, u, enemy_declared=enemy_declared, charts=charts):
            continue
        where = state.piece(u).location
        if state.in_zone(u):
            dumps = [v for v in state.at(where) if state.counter(v).type == SUPPLY and state.side_of(v) == "communist"]
            source = dumps[0] if dumps else None
        else:
            line = supply_line(state, u, enemy_declared=enemy_declared, charts=charts)
            source = line.source if line is not None and line.source in state.pieces else None
        if source is not None and source not in used:
            used.append(source)
    return tuple(used)


def use_up(state: NtndState, supplies: Iterable[str], *, res: Resolution | None = None) -> NtndState:
    """Return the used-up supply units to the counter mix (18.6.2). Returns the new position."""
    supplies = tuple(supplies)
    new = state.copy()
    for u in supplies:
        if state.counter(u).type != SUPPLY:
            raise RuleViolation("NT 18.6.2", f"{u} is not a supply unit")
        new.remove(u)
    if res is not None and supplies:
        res.add("NT 18.6.2", f"used up by the attack: {', '.join(supplies)}", result=supplies)
    return new


__all__ = ["supply_used_by_attack", "unsupplied_morale", "use_up"]
