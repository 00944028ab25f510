"""Die rolls against a rating (F 1.2): marker modifiers and Troop Quality checks.

A check succeeds when the d10 roll plus its modifiers is at most the rating; a positive modifier hurts the
roller. Unless a rule says otherwise, a natural 1 always succeeds and a natural 10 always fails. Marker DRMs
add up (the errata's revision of F 1.2); the original reading applies only the largest.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core import Resolution, implements
from ..core.dice import roll_die
from .state import FteState
from .units import Unit


@dataclass(frozen=True)
class Drm:
    """One die roll modifier: its value, the rule, and a few words on why."""

    value: int
    rule: str
    why: str

    def text(self) -> str:
        return f"{self.value:+d} {self.why} ({self.rule})"


MARKER_RULES = {"exhausted": "F 6.6", "low_ammo": "F 19.2", "carrying_kia": "F 7.5.2", "suppressed": "F 7.4",
                "broken": "F 7.4", "hero": "F 19.4"}


@implements("F 1.2", "F Marker DRMs")
def marker_drms(state: FteState, unit: Unit, roll: str) -> list[Drm]:
    """The status-marker DRMs on a unit for a ``roll`` of "fire" or "tq" (F 1.2)."""
    chart = state.charts.markers
    held = [m for m in ("exhausted", "low_ammo", "suppressed", "broken", "hero") if getattr(unit, m)]
    if any(state.casualties[c].kind == "KIA" for c in unit.carrying if c in state.casualties):
        held.append("carrying_kia")
    drms = [Drm(chart.value(m, roll), MARKER_RULES[m], m.replace("_", " ")) for m in held]
    drms = [d for d in drms if d.value]
    if not state.readings.marker_drms_cumulative and len(drms) > 1:
        worst = max(drms, key=lambda d: d.value)
        drms = [Drm(worst.value, worst.rule, f"{worst.why} (largest marker only, original F 1.2)")]
    return drms


def total(drms: list[Drm]) -> int:
    return sum(d.value for d in drms)


def roll_against(rating: int, roll: int, drms: list[Drm], *, naturals: bool = True) -> bool:
    """Success when roll + DRMs <= rating; with ``naturals`` a 1 always succeeds and a 10 always fails."""
    if naturals and roll == 1:
        return True
    if naturals and roll == 10:
        return False
    return roll + total(drms) <= rating


@implements("F 1.2")
def tq_check(state: FteState, unit: Unit, dice, res: Resolution, rule: str, purpose: str,
             extra: list[Drm] = (), *, markers: bool = True, auto: str = "") -> bool:
    """A Troop Quality check: d10 + DRMs <= TQ (F 1.2). ``auto`` names a reason it passes without a roll."""
    if auto:
        res.add(rule, f"{unit.id} passes its TQ check for {purpose} automatically: {auto}", result=True, unit=unit.id)
        return True
    drms = (marker_drms(state, unit, "tq") if markers else []) + list(extra)
    roll = roll_die(dice, 10, f"TQ check of {unit.id} for {purpose}", classes=lambda v: roll_against(unit.tq, v, drms))
    ok = roll_against(unit.tq, roll, drms)
    mods = " ".join(d.text() for d in drms)
    natural = " (a natural 1 always passes)" if roll == 1 else " (a natural 10 always fails)" if roll == 10 else ""
    res.add(rule, f"{unit.id} TQ check for {purpose}: rolls {roll}{natural}, {'passes' if ok else 'fails'}",
            arithmetic=f"{roll}{' ' + mods if mods else ''} = {roll + total(drms)} vs TQ {unit.tq}",
            result=ok, unit=unit.id, roll=roll, drm=total(drms))
    return ok
