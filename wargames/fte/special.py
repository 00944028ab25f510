"""Dummy units (F 22.0) and civilians (F 28.0): NVA/VC counters that only move.

A dummy is a bluff under a Concealed marker: it moves like infantry, and the moment its marker comes off it
leaves the game. Civilians also only move (double time and stealthy included), never share a hex with NVA/VC
infantry, never cost anyone concealment, and stay visible once seen. An American unit that walks into their
hex may question them: on a passed TQ check the NVA/VC player must show two of his concealed units or hidden
sites within 8 hexes of the questioner, scoring as a search would; the civilians leave either way.

The activation rules (:func:`wargames.fte.activation.check_action`) already allow these counters nothing but
a Move; the assault removes them from the hex it attacks (F 8.0). A removed counter keeps its record in
``state.units`` with no hex, as fire combat does.
"""
from __future__ import annotations

from typing import Iterable

from ..core import Hex, Resolution, implements
from ..core.errors import DataError, RuleViolation
from .checks import Drm, tq_check
from .concealment import remove_dummy, uncover
from .sites import leave_hex, owner, reveal_site
from .state import FteState
from .units import Unit

#: How far from the questioning unit the revealed units and sites may be (F 28.0).
INTERROGATION_RANGE = 8
#: How many concealed units or hidden sites a successful interrogation reveals (F 28.0).
INTERROGATION_REVEALS = 2


def _off_map(state: FteState, unit: Unit) -> None:
    leave_hex(state, unit)
    unit.hex = None


# --------------------------------------------------------------------------- dummies

def _check_step(state: FteState, unit: Unit, dest: Hex) -> None:
    if not unit.on_map:
        raise RuleViolation("F 6.4", f"{unit.id} is not on the map")
    if dest not in state.map:
        raise RuleViolation("F 1.2", "a hex without a dot cannot be entered")
    if not unit.hex.is_adjacent(dest):
        raise RuleViolation("F 6.7", f"a stealthy move goes one hex; {state.label(dest)} is not adjacent to "
                                     f"{state.label(unit.hex)}")
    if state.enemies_at(dest, unit):
        raise RuleViolation("F 6.2", f"{state.label(dest)} holds enemy units")


@implements("F 22.0", "F 28.0")
def stealthy_step(state: FteState, unit_id: str, dest: Hex | str, dice, res: Resolution) -> bool:
    """A dummy's or civilians' stealthy move (F 22.0, F 28.0, as F 6.7): one hex; a concealed counter takes a
    TQ check with the concealment modifier of the hex it enters and its markers. It moves either way; failing
    costs the marker, which removes a dummy. Returns True when the counter is still concealed."""
    unit = state.unit(unit_id)
    if unit.role not in ("dummy", "civilians"):
        raise DataError("special", unit_id, "stealthy_step is for dummies and civilians; other units use the "
                                            "movement rules")
    dest = state.hex(dest)
    _check_step(state, unit, dest)
    if unit.role == "civilians":
        check_civilians_stacking(state, unit, dest)
    rule = "F 22.0" if unit.role == "dummy" else "F 28.0"
    if not unit.concealed:
        unit.hex = dest
        res.add("F 6.7", f"{unit.id} steps into {state.label(dest)}; it is visible, so there is no check",
                result=False, unit=unit.id)
        return False
    terrain = state.map.terrain(dest)
    cell = state.charts.tec.terrain[terrain]["concealment"]
    mark = ", reconstructed" if cell.provenance.kind == "reconstructed" else ""
    ok = tq_check(state, unit, dice, res, rule, f"stealthy movement into {state.label(dest)}",
                  [Drm(cell.value, "F 6.7", f"{terrain.replace('_', ' ')} concealment modifier{mark}")])
    unit.hex = dest
    if ok:
        res.add(rule, f"{unit.id} slips into {state.label(dest)} still concealed", result=True, unit=unit.id)
        return True
    uncover(state, unit, res, rule, f"its stealthy move into {state.label(dest)} failed")
    return False


# --------------------------------------------------------------------------- civilians

def _nva_infantry(u: Unit) -> bool:
    return u.player == "NVA/VC" and u.infantry and u.role != "civilians"


@implements("F 28.0", "F 6.2")
def check_civilians_stacking(state: FteState, unit: Unit, dest: Hex) -> None:
    """A Civilians marker and NVA/VC infantry never share a hex, whichever of them moves (F 6.2, F 28.0)."""
    here = [u for u in state.units_at(dest) if u.id != unit.id]
    if unit.role == "civilians" and any(_nva_infantry(u) for u in here):
        raise RuleViolation("F 28.0", f"civilians {unit.id} may not join NVA/VC infantry in {state.label(dest)}")
    if _nva_infantry(unit) and any(u.role == "civilians" for u in here):
        raise RuleViolation("F 28.0", f"{unit.id} may not join the Civilians marker in {state.label(dest)}")


@implements("F 28.0")
def interrogation_candidates(state: FteState, questioner: Unit, civilians: Unit | None = None) -> list[str]:
    """What a successful interrogation may show: the NVA/VC player's concealed units (other than the
    questioned civilians) and hidden sites within 8 hexes of the questioning unit (F 28.0)."""
    near = lambda h: h is not None and questioner.hex.distance(h) <= INTERROGATION_RANGE
    units = [u.id for u in state.on_map("NVA/VC") if u.concealed and near(u.hex)
             and (civilians is None or u.id != civilians.id)]
    sites = [s.id for s in state.sites.values() if owner(s) == "NVA/VC" and not s.revealed and near(s.hex)]
    return units + sites


#: The default NVA/VC choice: show what costs least first. Dummies and dummy caches vanish and score nothing,
#: foxholes score nothing, then come real concealed units, and last the caches, tunnels and bunkers that give
#: the Americans points; ties go to what is farther from the questioner, then to the lower id.
_COST = {"dummy_unit": 0, "dummy": 1, "foxholes": 2, "unit": 3, "tunnel": 4, "bunker": 4, "rice": 5,
         "medical": 5, "ammo": 5, "civilians": 0}


def default_choice(state: FteState, questioner: Unit, candidates: list[str]) -> list[str]:
    """The NVA/VC player's pick when none is given (see ``_COST``): the two cheapest items to show."""
    def cost(i: str):
        if i in state.units:
            u = state.units[i]
            kind = "dummy_unit" if u.role == "dummy" else "civilians" if u.role == "civilians" else "unit"
            h = u.hex
        else:
            s = state.sites[i]
            kind, h = s.kind, s.hex
        return (_COST[kind], -questioner.hex.distance(h), i)
    return sorted(candidates, key=cost)[:INTERROGATION_REVEALS]


@implements("F 28.0")
def check_interrogation(state: FteState, questioner_id: str, civilians_id: str) -> tuple[Unit, Unit]:
    """Who may question whom: an American unit (a helicopter only on the ground) in the Civilians' hex."""
    q = state.unit(questioner_id)
    civ = state.unit(civilians_id)
    if civ.role != "civilians" or not civ.on_map:
        raise RuleViolation("F 28.0", f"{civilians_id} is not a Civilians marker on the map")
    if q.side != "US":
        raise RuleViolation("F 28.0", f"only American units interrogate civilians; {q.id} is {q.side}")
    if not q.on_map or q.hex != civ.hex:
        raise RuleViolation("F 28.0", f"{q.id} must be in the Civilians hex to question them")
    if q.kind == "helicopter" and q.altitude != "ground":
        raise RuleViolation("F 28.0", f"{q.id} is a helicopter in the air and cannot question anyone")
    return q, civ


def check_shown(state: FteState, q: Unit, civ: Unit, picked: list[str]) -> list[str]:
    """The NVA/VC player's pick of what to show, checked: two different candidates (or all there are)."""
    candidates = interrogation_candidates(state, q, civ)
    need = min(INTERROGATION_REVEALS, len(candidates))
    bad = [i for i in picked if i not in candidates]
    if bad:
        raise RuleViolation("F 28.0", f"{bad[0]} is not a concealed NVA/VC unit or hidden NVA/VC site within "
                                      f"{INTERROGATION_RANGE} hexes of {q.id}")
    if len(set(picked)) != len(picked) or len(picked) != need:
        raise RuleViolation("F 28.0", f"the NVA/VC player must show {need} different item(s), not {picked}")
    return picked


@implements("F 28.0")
def question(state: FteState, q: Unit, civ: Unit, dice, res: Resolution) -> bool:
    """The questioner's TQ check, modified by its status markers: a pass makes the civilians talk."""
    return tq_check(state, q, dice, res, "F 28.0", f"interrogating {civ.id}")


@implements("F 28.0", "F 23.0")
def reveal_shown(state: FteState, civ: Unit, shown: Iterable[str], res: Resolution) -> None:
    """Reveal what the NVA/VC player showed (sites score as after a search; a dummy leaves the game)."""
    where = state.label(civ.hex)
    shown = list(shown)
    if not shown:
        res.add("F 28.0", f"the civilians talk, but nothing of the NVA/VC is hidden within "
                          f"{INTERROGATION_RANGE} hexes", result=[])
    for i in shown:
        if i in state.units:
            uncover(state, state.units[i], res, "F 28.0", f"the civilians in {where} gave it away")
        else:
            reveal_site(state, i, "US", res, "F 28.0")


def remove_civilians(state: FteState, civ: Unit, res: Resolution) -> None:
    """After an interrogation the Civilians marker leaves play, whatever the result (F 28.0)."""
    where = state.label(civ.hex)
    _off_map(state, civ)
    civ.concealed = False
    res.add("F 28.0", f"the Civilians marker {civ.id} is removed from {where}", unit=civ.id)


@implements("F 28.0")
def interrogate(state: FteState, questioner_id: str, civilians_id: str, dice, res: Resolution, *,
                choice: Iterable[str] | None = None) -> list[str]:
    """An American unit that has entered a Civilians hex (after any opportunity fire) questions them (F 28.0).

    It takes a TQ check with its status markers. On a pass the NVA/VC player shows two of his concealed units or
    hidden sites within 8 hexes of the questioner, or as many as there are; ``choice`` names them (called
    directly, without one: :func:`default_choice`; in a game the NVA/VC player is prompted). The Civilians
    marker is removed whatever the result. Returns the ids revealed."""
    q, civ = check_interrogation(state, questioner_id, civilians_id)
    picked = None if choice is None else check_shown(state, q, civ, list(choice))
    shown: list[str] = []
    if question(state, q, civ, dice, res):
        shown = picked if picked is not None else default_choice(state, q, interrogation_candidates(state, q, civ))
        reveal_shown(state, civ, shown, res)
    else:
        res.add("F 28.0", "the civilians tell nothing", result=[])
    remove_civilians(state, civ, res)
    res.result = shown
    return shown

__all__ = ["INTERROGATION_RANGE", "INTERROGATION_REVEALS", "remove_dummy", "stealthy_step",
           "check_civilians_stacking", "interrogation_candidates", "default_choice", "interrogate",
           "check_interrogation", "check_shown", "question", "reveal_shown", "remove_civilians"]
