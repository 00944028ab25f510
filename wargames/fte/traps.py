"""Booby traps and claymore mines (F 26.0).

Both are plotted secretly during set-up, one per hex, and stay off the map until they go off. NVA/VC booby
traps go in hexes with a trail or a cache; the first enemy unit to walk in takes a TQ check (status markers
count) and is wounded if it fails. American claymores go in or next to a hex holding American infantry and are
fired at will while unbroken American infantry is in or next to the plotted hex: a 4-strength HE attack on every
enemy unit in the hex or assaulting it, terrain counting. A claymore with no American infantry left in or next
to its hex is lost, and a trap or claymore that has gone off is gone.

``state.booby_traps`` maps each plotted hex to the player who plotted it; ``state.claymores`` holds the US
claymore hexes.
"""
from __future__ import annotations

from typing import Iterable

from ..core import Hex, Resolution, implements
from ..core.errors import RuleViolation
from ..core.dice import roll_die
from .casualties import check_hex
from .state import FteState
from .units import Unit

#: The strength of a claymore's HE attack (F 26.0).
CLAYMORE_STRENGTH = 4
#: Sites that let an NVA/VC booby trap be plotted in their hex (F 26.0 "Caches"): the three kinds of cache and
#: the dummy caches the American cannot tell from them.
TRAP_SITES = ("rice", "medical", "ammo", "dummy")


def _label(state: FteState, h: Hex) -> str:
    return state.label(h)


@implements("F 26.0")
def plot_booby_trap(state: FteState, h: Hex | str, res: Resolution, who: str = "NVA/VC") -> None:
    """Plot an NVA/VC booby trap: on a hex with a trail or an NVA/VC cache, at most one per hex (F 26.0)."""
    h = state.hex(h)
    if who != "NVA/VC":
        raise RuleViolation("F 26.0", "booby traps belong to the NVA/VC player; the American plots claymores")
    if h in state.booby_traps:
        raise RuleViolation("F 26.0", f"{_label(state, h)} already holds a booby trap (one per hex)")
    cache = [s for s in state.sites.values() if s.hex == h and s.kind in TRAP_SITES and s.side != "US"]
    if not state.map.has(h, "trail") and not cache:
        raise RuleViolation("F 26.0", f"{_label(state, h)} has neither a trail nor a cache")
    state.booby_traps[h] = who
    why = "trail" if state.map.has(h, "trail") else "cache"
    res.add("F 26.0", f"a booby trap is plotted in {_label(state, h)} ({why}); it stays off the map", hex=_label(state, h))


def _us_infantry_near(state: FteState, h: Hex | None, *, unbroken: bool = False) -> list[Unit]:
    """American infantry in or next to h (anywhere when h is None)."""
    return [u for u in state.on_map("US") if u.infantry and (h is None or u.hex == h or u.hex.is_adjacent(h))
            and not (unbroken and u.broken)]


def plot_hexes(state: FteState, kind: str) -> list[Hex]:
    """Where the next booby trap ("booby_trap": a trail or an NVA/VC cache) or claymore ("claymore": in or next
    to American infantry) may be plotted, one per hex, by label (F 26.0): what :func:`plot_booby_trap` and
    :func:`plot_claymore` accept."""
    if kind == "booby_trap":
        caches = {x.hex for x in state.sites.values() if x.kind in TRAP_SITES and x.side != "US"}
        ok = [h for h in state.map.hexes if (state.map.has(h, "trail") or h in caches) and h not in state.booby_traps]
    else:
        near = {h for u in _us_infantry_near(state, None) for h in (u.hex, *state.map.neighbors(u.hex))}
        ok = [h for h in near if h in state.map and h not in state.claymores]
    return sorted(ok, key=state.label)


def claymore_ready(state: FteState, h: Hex) -> bool:
    """A claymore is plotted in h and an unbroken American infantry unit in or next to h can fire it (F 26.0)."""
    return h in state.claymores and bool(_us_infantry_near(state, h, unbroken=True))


@implements("F 26.0")
def plot_claymore(state: FteState, h: Hex | str, res: Resolution) -> None:
    """Plot a US claymore in or next to a hex holding American infantry, at most one per hex (F 26.0)."""
    h = state.hex(h)
    if h in state.claymores:
        raise RuleViolation("F 26.0", f"{_label(state, h)} already holds a claymore (one per hex)")
    near = _us_infantry_near(state, h)
    if not near:
        raise RuleViolation("F 26.0", f"no American infantry unit is in or next to {_label(state, h)}")
    state.claymores.add(h)
    res.add("F 26.0", f"a claymore is plotted in {_label(state, h)} beside {near[0].id}", hex=_label(state, h))


@implements("F 26.0")
def sweep_claymores(state: FteState, res: Resolution) -> list[Hex]:
    """Strike from the plot every claymore with no American infantry left in or next to its hex (F 26.0)."""
    lost = [h for h in sorted(state.claymores) if not _us_infantry_near(state, h)]
    for h in lost:
        state.claymores.discard(h)
        res.add("F 26.0", f"the claymore in {_label(state, h)} is struck off: no American infantry is in or next "
                          "to it any more", hex=_label(state, h))
    return lost


def _triggers(u: Unit) -> bool:
    """Units that set off a booby trap: anything on the ground (a helicopter's crew never walks in)."""
    return u.on_map and u.kind != "helicopter"


@implements("F 26.0")
def trigger_booby_trap(state: FteState, h: Hex | str, entering: Iterable[str], dice, res: Resolution) -> str | None:
    """Units ``entering`` hex h: if it holds a booby trap plotted by their enemy, it goes off (F 26.0).

    One of the entering enemy units (picked at random with the dice when a stack enters) takes a TQ check with
    its status markers; a failure is a WIA, scored as usual. The trap is then gone. Returns None when nothing
    goes off, else the effect actually applied ("none" when the check is passed)."""
    from .fire import apply_effect  # fire imports the modules that supply its DRMs
    h = state.hex(h)
    plotter = state.booby_traps.get(h)
    if plotter is None:
        return None
    victims = [state.unit(i) for i in entering]
    victims = [u for u in victims if u.player != plotter and _triggers(u) and u.hex == h]
    if not victims:
        return None
    del state.booby_traps[h]
    if len(victims) == 1:
        victim = victims[0]
    else:
        pick = roll_die(dice, len(victims), f"which of {len(victims)} units sets off the booby trap")
        victim = victims[pick - 1]
        res.add("F 26.0", f"a stack of {len(victims)} enters; the die picks {victim.id}",
                arithmetic=f"d{len(victims)} = {pick}", result=victim.id, roll=pick)
    res.add("F 26.0", f"{victim.id} sets off the booby trap in {_label(state, h)}", unit=victim.id)
    from .checks import tq_check
    if tq_check(state, victim, dice, res, "F 26.0", "the booby trap"):
        res.add("F 26.0", "the trap goes off harmlessly", result="none")
        return "none"
    return apply_effect(state, victim.id, "WIA", dice, res, rule="F 26.0", by=plotter)


@implements("F 26.0")
def detonate_claymore(state: FteState, h: Hex | str, dice, res: Resolution, *,
                      assaulting: Iterable[str] = ()) -> dict:
    """Fire the claymore plotted in hex h (F 26.0): allowed at any time while an unbroken American infantry
    unit is in or next to h. Each enemy unit in h, and each unit in ``assaulting`` (enemy units assaulting h
    from next door), takes a 4-strength HE attack with its terrain modifier. The claymore is then gone.
    Returns each target's :class:`~wargames.fte.fire.FireOutcome`."""
    from .fire import he_attack
    h = state.hex(h)
    if h not in state.claymores:
        raise RuleViolation("F 26.0", f"no claymore is plotted in {_label(state, h)}")
    if not _us_infantry_near(state, h):
        sweep_claymores(state, res)
        raise RuleViolation("F 26.0", f"the claymore in {_label(state, h)} was lost: no American infantry is in "
                                      "or next to it")
    firers = _us_infantry_near(state, h, unbroken=True)
    if not firers:
        raise RuleViolation("F 26.0", f"only an unbroken American infantry unit in or next to "
                                      f"{_label(state, h)} can fire its claymore")
    targets = [u for u in state.units_at(h) if u.player != "US"]
    for i in assaulting:
        u = state.unit(i)
        if u.player == "US" or not u.on_map or not u.hex.is_adjacent(h):
            raise RuleViolation("F 26.0", f"{i} is not an enemy unit assaulting {_label(state, h)} from next door")
        if u not in targets:
            targets.append(u)
    state.claymores.discard(h)
    res.add("F 26.0", f"{firers[0].id} fires the claymore in {_label(state, h)}: a {CLAYMORE_STRENGTH}-strength "
                      f"HE attack on {', '.join(u.id for u in targets) or 'nobody'}", hex=_label(state, h),
            targets=[u.id for u in targets])
    out = {}
    for u in targets:
        if u.on_map:
            out[u.id] = he_attack(state, u.id, CLAYMORE_STRENGTH, dice, res, rule="F 26.0", by="US")
    res.result = out
    return out



@implements("F 7.5.3", "F 17.1", "F 26.0")
def arrive(state: FteState, h: Hex, entering: Iterable[str], dice, res: Resolution) -> None:
    """What happens when units enter a hex, however they came (a Move, a broken unit's retreat, the advance
    after an assault): a Medic or casualty marker left alone with them is settled (F 7.5.3, F 17.1), then a
    booby trap plotted there by their enemy goes off (F 26.0)."""
    check_hex(state, h, res)
    trigger_booby_trap(state, h, [uid for uid in entering if state.unit(uid).on_map and state.unit(uid).hex == h],
                       dice, res)


__all__ = ["CLAYMORE_STRENGTH", "plot_booby_trap", "plot_claymore", "sweep_claymores", "trigger_booby_trap",
           "detonate_claymore", "claymore_ready", "plot_hexes", "arrive"]
