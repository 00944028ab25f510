"""What supply does in battle (NT 18.2.1.4, 18.6.1, 18.6.2, 18.7.3), as procedures for the combat phases to call.

:mod:`.supply` says whether a unit is in supply. This module applies the consequences the combat code does not
apply yet:

* :func:`unsupplied_morale`: a unit of the phasing side that begins its combat phase out of supply fights with one
  point less morale (18.2.1.4). The result is a map from unit to an
  :class:`~wargames.ntnd.combat.Adjustment`, in the form the battle's engaged units carry. The defending side is
  always in supply (18.4), so it never loses morale this way.
* :func:`lone_supply_units` and :func:`eliminate_lone_supply`: Communist supply units attacked with no ground
  combat or support unit beside them are eliminated (18.6.1).
* :func:`supply_used_by_attack` and :func:`use_up`: a supply unit that supplied an NVA attack is used up once the
  attack is over (18.6.2; in a zone, the supply unit there, 18.7.3).

Readings:

* "Supply or support units" beside a supply unit (18.6.1) are the Communist ground combat units, artillery, SAMs
  and VC Bases in its hex or zone; another supply unit or a dummy does not protect it.
* An attacking NVA unit uses up a supply unit only when the supply unit is what puts it in supply: a unit
  supplied without any supply unit (from North Vietnam, a VC Base, a home zone, or because it is always in
  supply) uses none. When it needs one, it uses the one its supply line reaches (:func:`.supply.supply_line`,
  the cheapest line); attackers that reach the same supply unit share it, so it is used up once.
* A supply unit used up, or eliminated when caught alone, goes back to the counter mix (:meth:`NtndState.remove`);
  the rulebook gives no political points for supply units (22.4).
"""
from __future__ import annotations

from typing import Iterable

from ..core import Resolution, implements
from ..core.errors import RuleViolation
from .charts import NtndCharts
from .combat import Adjustment
from .state import NtndState
from .supply import in_supply, supply_line

#: Communist units that keep a supply unit in their hex from being picked off alone (18.6.1, our reading)
PROTECTORS = ("artillery", "sam", "vc_base")
#: the type of a Communist supply unit
SUPPLY = "supply"


@implements("NT 18.2.1.4")
def unsupplied_morale(state: NtndState, units: Iterable[str], side: str, *,
                      charts: NtndCharts | None = None) -> dict[str, Adjustment]:
    """The -1 morale of 18.2.1.4 for each ground combat unit of ``side`` (the phasing side) among ``units`` that is
    out of supply; ``state`` is the position at the start of the combat phase."""
    out = {}
    for u in units:
        c = state.counter(u)
        if c.side != side or not c.ground_combat:
            continue
        if not in_supply(state, u, charts=charts):
            out[u] = Adjustment(-1, "NT 18.2.1.4", "out of supply at the start of the combat phase")
    return out


def _protected(state: NtndState, location: str) -> bool:
    return any(state.side_of(u) == "communist" and (state.counter(u).ground_combat or
                                                   state.counter(u).type in PROTECTORS)
               for u in state.at(location))


@implements("NT 18.6.1")
def lone_supply_units(state: NtndState, location: str) -> tuple[str, ...]:
    """The Communist supply units at ``location`` that have no ground combat or support unit with them (18.6.1):
    an attack on them eliminates them without a battle. Empty when something protects them."""
    supplies = tuple(u for u in state.at(location) if state.side_of(u) == "communist"
                     and state.counter(u).type == SUPPLY)
    return () if _protected(state, location) else supplies


@implements("NT 18.6.1")
def eliminate_lone_supply(state: NtndState, location: str, attackers: Iterable[str], *,
                          res: Resolution | None = None) -> NtndState:
    """An Allied attack by ``attackers`` on a hex or zone where only Communist supply units stand (and perhaps
    dummies or other units that cannot defend them) eliminates those supply units (18.6.1). Returns the new
    position; RuleViolation if the supply units there are not alone or there are none."""
    attackers = tuple(attackers)
    if not attackers or any(state.side_of(u) != "allied" for u in attackers):
        raise RuleViolation("NT 18.6.1", "an Allied attack needs Allied attackers")
    victims = lone_supply_units(state, location)
    if not victims:
        raise RuleViolation("NT 18.6.1", f"no Communist supply unit stands alone at {location}")
    new = state.copy()
    for u in victims:
        new.remove(u)
    if res is not None:
        res.add("NT 18.6.1", f"{', '.join(victims)} attacked at {location} by {', '.join(attackers)} with no unit "
                             "to defend them: eliminated", result=victims)
    return new


def _supplied_without_dumps(state: NtndState, unit: str, charts: NtndCharts | None) -> bool:
    bare = state.copy()
    for u in list(bare.pieces):
        if bare.counter(u).type == SUPPLY and u != unit:
            bare.remove(u)
    return in_supply(bare, unit, charts=charts)


@implements("NT 18.6.2", "NT 18.7.3")
def supply_used_by_attack(state: NtndState, attackers: Iterable[str], *,
                          charts: NtndCharts | None = None) -> tuple[str, ...]:
    """The supply units an NVA attack by ``attackers`` uses up (18.6.2, 18.7.3; see the module's readings):
    for each NVA attacker that is in supply only thanks to a supply unit, that supply unit, each named once."""
    used: list[str] = []
    for u in attackers:
        c = state.counter(u)
        if c.side != "communist" or c.nationality != "NVA":
            continue
        if _supplied_without_dumps(state, u, charts):
            continue
        where = state.piece(u).location
        if state.in_zone(u):
            dumps = [v for v in state.at(where) if state.counter(v).type == SUPPLY and state.side_of(v) == "communist"]
            source = dumps[0] if dumps else None
        else:
            line = supply_line(state, u, charts=charts)
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


__all__ = ["PROTECTORS", "eliminate_lone_supply", "lone_supply_units", "supply_used_by_attack",
           "unsupplied_morale", "use_up"]
