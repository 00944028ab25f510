"""Opportunity fire (F 21.0): a TQ check, an Op Fired marker either way, then one (possibly combined) attack.

Moves, searches, cache destruction, loading, unloading, entering or leaving bunkers and foxholes, assaults
(by the defenders) and the retreat of broken units give the enemy a chance to fire. Each unbroken enemy combat
unit with LoS may try once per activation; against a broken unit's retreat it may try once more even if it
already fired.
"""
from __future__ import annotations

from ..core import Hex, Resolution, implements
from ..core.errors import RuleViolation
from .checks import tq_check
from .fire import FireOutcome, combine_groups, fire, fire_distance
from .los import unit_sight
from .state import FteState


def eligible_opfirers(state: FteState, target_id: str, *, retreating: bool = False,
                      used_on_retreat: set[str] = frozenset()) -> list[str]:
    """Enemy units that may attempt opportunity fire at the target now (F 21.0)."""
    target = state.unit(target_id)
    out = []
    for u in state.on_map():
        if u.player == target.player or not u.is_combat or u.broken or u.role == "sapper":
            continue
        if u.op_fired and not (retreating and u.id not in used_on_retreat):
            continue
        if not unit_sight(state, u, target, fire=True, mortar=u.role == "mortar"):
            continue
        if u.range is not None and fire_distance(state, u, target) > 2 * u.range:
            continue
        out.append(u.id)
    return out


@implements("F 21.0")
def opportunity_fire(state: FteState, firer_ids: list[str], target_id: str, dice, res: Resolution, *,
                     stealthy: bool = False, retreating: bool = False, used_on_retreat: set[str] | None = None,
                     primary: str | None = None, way: str | None = None) -> FireOutcome | None:
    """Each named unit takes a TQ check and is marked Op Fired whatever the result; those that pass combine
    in one attack on the triggering unit (``primary`` first if it passed), or in several when they are too far
    apart to combine. Returns the attack that ended the target's activation (else the last one), or None if no
    unit passed."""
    if not firer_ids:
        return None
    allowed = set(eligible_opfirers(state, target_id, retreating=retreating,
                                    used_on_retreat=used_on_retreat or set()))
    for fid in firer_ids:
        if fid not in allowed:
            u = state.unit(fid)
            why = ("it has already attempted opportunity fire this activation" if u.op_fired else
                   "it is broken" if u.broken else "it has no LoS to the target, is out of range, or is not an "
                   "enemy combat unit")
            raise RuleViolation("F 21.0", f"{fid} may not attempt opportunity fire at {target_id}: {why}")
    passed = []
    for fid in firer_ids:
        u = state.unit(fid)
        ok = tq_check(state, u, dice, res, "F 21.0", f"opportunity fire at {target_id}")
        if retreating and u.op_fired and used_on_retreat is not None:
            used_on_retreat.add(fid)
        u.op_fired = True
        if ok:
            passed.append(fid)
    if not passed:
        res.add("F 21.0", "no unit passed its check: no opportunity fire")
        return None
    if primary in passed:
        passed.remove(primary)
        passed.insert(0, primary)
    decisive = last = None
    groups = combine_groups(state, passed)
    target = state.unit(target_id)
    at = target.hex
    for group in groups:
        if not target.on_map or target.hex != at or any(r[0] == target_id for r in state.retreats_due):
            break           # the target has gone (or must retreat): later groups no longer see it here
        if len(groups) > 1:
            res.add("F 21.0", f"{' + '.join(group)} fire together; units not in or next to their hexes fire apart")
        last = fire(state, group, target_id, dice, res, opportunity=True, stealthy=stealthy, way=way)
        if decisive is None and ended_activation(last):
            decisive = last
    return decisive or last


def ended_activation(out: FireOutcome | None) -> bool:
    """Any applied result of opportunity fire ends the target's activation (F 7.4); a passed S? does not."""
    return out is not None and out.hit and out.applied not in (None, "none")


def retreat_opfire_hook(state: FteState, choose=None):
    """An opportunity-fire hook for a broken unit's retreat (F 7.4, 21.0).

    ``choose(state, unit_id, hex, candidates)`` returns the unit ids that attempt fire (default: nobody, the
    owner's choice being not to fire). Each unit may use its extra retreat attempt once per retreat.
    """
    used: set[str] = set()

    def hook(st: FteState, unit_id: str, h: Hex, dice, res: Resolution) -> bool:
        if choose is None:
            return False
        cands = eligible_opfirers(st, unit_id, retreating=True, used_on_retreat=used)
        picks = list(choose(st, unit_id, h, cands) or [])
        if not picks:
            return False
        out = opportunity_fire(st, picks, unit_id, dice, res, retreating=True, used_on_retreat=used)
        return ended_activation(out)

    return hook
