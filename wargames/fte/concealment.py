"""Concealment (F 18.0-18.2): who may hide, what hiding is worth, and when it is lost.

A Concealed marker hides a unit's identity from the other player and makes it harder to hit (+2 to fire
attacks, which HE ignores). Concealment is lost by acting in the sight of a Visible enemy unit, by most fire
results, or by the owner's choice; it is regained only in the end-of-turn concealment phase, where the US
player checks first. Civilians never make anyone lose concealment, and a dummy that loses its marker is gone
(F 22.0, see :mod:`wargames.fte.special`).
"""
from __future__ import annotations

from typing import Iterable

from ..core import Resolution, implements
from ..core.errors import DataError, RuleViolation
from .checks import Drm, tq_check
from .los import sees
from .sites import leave_hex
from .state import PLAYERS, FteState
from .units import Unit

#: The +2 a Concealed target adds to fire attacks against it (F 18.1); HE ignores it (F 7.1).
CONCEALED_DRM = 2

#: Actions that cost a Concealed unit its marker when a Visible enemy unit can see it (F 18.1).
REVEALING_ACTIONS = ("fire", "move", "assault", "search", "destroy_cache", "load", "opportunity_fire")
#: Actions that never cost concealment by themselves.
QUIET_ACTIONS = ("recover", "request_medevac", "request_fire_mission", "unload", "interrogate", "pass")
#: Snipers keep their marker when they shoot (F 18.1 exception).
SNIPER_KEEPS = ("fire", "opportunity_fire")


def _label(state: FteState, unit: Unit) -> str:
    return state.label(unit.hex) if unit.hex is not None else "off map"


@implements("F 18.1", "F 28.0")
def watchers(state: FteState, unit: Unit) -> list[Unit]:
    """The Visible enemy units that can see ``unit``: not Concealed, on the map, and not Civilians markers
    (civilians never cost anyone concealment, F 28.0). LoS is the ordinary LoS of F 7.3, where friendly
    units do not block (they block only fire, F 7.0)."""
    if not unit.on_map:
        return []
    return [e for e in state.on_map() if e.player != unit.player and not e.concealed and e.role != "civilians"
            and sees(state, e, unit)]


@implements("F 18.1")
def concealment_drm(state: FteState, target: Unit, he: bool = False) -> Drm | None:
    """The defence DRM a Concealed target gets against a fire attack: +2, but nothing against HE (F 7.1)."""
    if not target.concealed or he:
        return None
    return Drm(CONCEALED_DRM, "F 18.1", "target is concealed")


@implements("F 18.1", "F 22.0")
def uncover(state: FteState, unit: Unit, res: Resolution, rule: str, why: str) -> None:
    """Take the Concealed marker off a unit. A dummy whose marker comes off is removed from the game (F 22.0)."""
    if not unit.concealed:
        return
    unit.concealed = False
    if unit.role == "dummy":
        res.add(rule, f"{unit.id} loses its Concealed marker ({why}) and turns out to be a dummy",
                result=False, unit=unit.id)
        remove_dummy(state, unit, res)
        return
    res.add(rule, f"{unit.id} loses its Concealed marker: {why}", result=False, unit=unit.id)


@implements("F 18.1", "F 6.1")
def lose_concealment_if_seen(state: FteState, unit: Unit, res: Resolution, rule: str, action: str) -> bool:
    """A Concealed unit that performs one of the revealing actions while a Visible enemy unit sees it loses its
    marker (F 18.1). For a move, call it with the unit already in the hex it has just entered (F 6.1); a
    stealthy step is decided by its own check instead (F 6.7). Snipers keep their marker when they fire.
    Returns True when the marker came off."""
    if action not in REVEALING_ACTIONS + QUIET_ACTIONS:
        raise DataError("concealment", "action", f"unknown action {action!r}; expected one of "
                        f"{', '.join(REVEALING_ACTIONS + QUIET_ACTIONS)}")
    if not unit.concealed or action in QUIET_ACTIONS:
        return False
    if unit.role == "sniper" and action in SNIPER_KEEPS:
        res.add("F 18.1", f"{unit.id} is a sniper and keeps its Concealed marker when it shoots",
                result=True, unit=unit.id)
        return False
    seen_by = watchers(state, unit)
    if not seen_by:
        res.add("F 18.1", f"{unit.id} stays concealed: no Visible enemy unit sees {_label(state, unit)} "
                          f"during its {action.replace('_', ' ')}", result=True, unit=unit.id)
        return False
    names = ", ".join(e.id for e in seen_by)
    uncover(state, unit, res, rule, f"{action.replace('_', ' ')} in sight of Visible enemy {names} (F 18.1)")
    return True


@implements("F 18.1")
def reveal(state: FteState, unit_id: str, res: Resolution) -> None:
    """The owner may take a Concealed marker off his own unit at any time (F 18.1), e.g. so that the enemy's
    concealed units near it lose theirs when they act."""
    unit = state.unit(unit_id)
    if not unit.concealed:
        raise RuleViolation("F 18.1", f"{unit_id} is not concealed, so there is no marker to remove")
    uncover(state, unit, res, "F 18.1", "removed by its owner")


@implements("F 18.2")
def strip_on_load(state: FteState, unit: Unit, res: Resolution) -> None:
    """A loaded infantry unit is never concealed (F 18.2): loading takes the marker off whoever sees it."""
    if unit.concealed:
        uncover(state, unit, res, "F 18.2", f"loaded aboard {unit.loaded_in or 'a transport'}; loaded units are "
                                            "never concealed")


@implements("F 18.2")
def conceal_reinforcement(state: FteState, unit: Unit, res: Resolution) -> bool:
    """Infantry arriving as reinforcements enter Concealed unless they arrive loaded (F 18.2)."""
    if unit.infantry and unit.loaded_in is None:
        unit.concealed = True
        res.add("F 18.2", f"{unit.id} enters as a reinforcement under a Concealed marker", result=True, unit=unit.id)
        return True
    what = "loaded" if unit.infantry else f"a {unit.kind}"
    res.add("F 18.2", f"{unit.id} enters visible: it is {what}", result=False, unit=unit.id)
    return False


@implements("F 18.2", "F 28.0")
def cannot_conceal(state: FteState, unit: Unit) -> str:
    """Why ``unit`` cannot gain concealment in this phase (an empty string when it can try)."""
    if unit.destroyed or unit.hex is None:
        return "it is not on the map"
    if unit.loaded_in is not None:
        return "it is loaded, and loaded units are never concealed (F 18.2)"
    if not unit.infantry:
        return f"it is a {unit.kind}, and only infantry can be concealed (F 18.2)"
    if unit.concealed:
        return "it is already concealed"
    if unit.role == "civilians":
        return "a Civilians marker once seen stays visible (F 28.0)"
    if state.map.terrain(unit.hex) == "clear":
        return f"{state.label(unit.hex)} is clear terrain (F 18.2)"
    return ""


@implements("F 18.2")
def concealment_drms(state: FteState, unit: Unit, seen_by: list[Unit]) -> list[Drm]:
    """The DRMs of a concealment check besides the status markers: the terrain's concealment modifier and +1
    for each Visible enemy unit with LoS (F 18.2)."""
    terrain = state.map.terrain(unit.hex)
    cell = state.charts.tec.terrain[terrain]["concealment"]
    mark = ", reconstructed" if cell.provenance.kind == "reconstructed" else ""
    return [Drm(cell.value, "F 18.2", f"{terrain.replace('_', ' ')} concealment modifier{mark}"),
            Drm(len(seen_by), "F 18.2", f"seen by {', '.join(e.id for e in seen_by)}")]


@implements("F 18.2")
def try_to_conceal(state: FteState, unit: Unit, dice, res: Resolution, *, decline: bool = False) -> str:
    """One unit's concealment step (F 18.2). Returns "ineligible", "declined", "automatic" (nobody Visible
    sees it), "passed" or "failed" (the TQ check, 1 passes and 10 fails; broken and suppressed units may try)."""
    why = cannot_conceal(state, unit)
    if why:
        res.add("F 18.2", f"{unit.id} cannot become concealed: {why}", result="ineligible", unit=unit.id)
        return "ineligible"
    if decline:
        res.add("F 18.2", f"{unit.id} stays visible by its owner's choice", result="declined", unit=unit.id)
        return "declined"
    seen_by = watchers(state, unit)
    if not seen_by:
        unit.concealed = True
        res.add("F 18.2", f"{unit.id} in {state.label(unit.hex)} becomes concealed automatically: no Visible "
                          "enemy unit sees it", result="automatic", unit=unit.id)
        return "automatic"
    res.add("F 18.2", f"{unit.id} is seen by {', '.join(e.id for e in seen_by)} and must pass a TQ check",
            unit=unit.id, watchers=[e.id for e in seen_by])
    ok = tq_check(state, unit, dice, res, "F 18.2", "concealment", concealment_drms(state, unit, seen_by))
    if ok:
        unit.concealed = True
    return "passed" if ok else "failed"


@implements("F 18.0", "F 18.2")
def concealment_phase(state: FteState, dice, res: Resolution | None = None, *,
                      decline: Iterable[str] = ()) -> Resolution:
    """The Check for Concealment phase (F 18.0): the US player checks all his units first, then the NVA/VC
    player, so US units that have just hidden no longer count as Visible watchers. Units named in ``decline``
    stay visible (gaining concealment is optional). ``res.result`` maps each unit id to its outcome."""
    res = res if res is not None else Resolution()
    skip = set(decline)
    unknown = skip - set(state.units)
    if unknown:
        raise DataError("concealment", "decline", f"no such unit {sorted(unknown)[0]!r}")
    outcome: dict[str, str] = {}
    for who in PLAYERS:  # "US" first (F 18.0)
        res.add("F 18.0", f"{who} checks for concealment", player=who)
        for unit in list(state.on_map(who)):
            if unit.on_map and not unit.concealed:
                outcome[unit.id] = try_to_conceal(state, unit, dice, res, decline=unit.id in skip)
    res.result = outcome
    return res


@implements("F 18.1")
def public_view(state: FteState, unit: Unit, viewer: str) -> dict:
    """What ``viewer`` ("US" or "NVA/VC") may know of a unit: the other side's Concealed units show only a
    marker, its nationality (VC have their own markers, F 2.0) and its hex (F 18.1)."""
    where = _label(state, unit)
    if unit.concealed and unit.player != viewer:
        return {"marker": "Concealed", "side": unit.side, "hex": where}
    return {"id": unit.id, "side": unit.side, "role": unit.role, "hex": where, "status": unit.status()}



@implements("F 22.0")
def remove_dummy(state: FteState, unit: Unit, res: Resolution) -> None:
    """A dummy that is no longer concealed is removed from the game (F 22.0), with no points for anyone."""
    if unit.role != "dummy":
        raise DataError("state", unit.id, "is not a dummy unit")
    where = state.label(unit.hex) if unit.hex is not None else "off map"
    leave_hex(state, unit)
    unit.hex = None
    unit.concealed = False
    res.add("F 22.0", f"dummy {unit.id} in {where} is removed from the game", result="removed", unit=unit.id)


__all__ = ["CONCEALED_DRM", "REVEALING_ACTIONS", "watchers", "concealment_drm", "uncover", "lose_concealment_if_seen",
           "reveal", "strip_on_load", "conceal_reinforcement", "cannot_conceal", "concealment_drms",
           "try_to_conceal", "concealment_phase", "public_view", "remove_dummy"]
