"""The official errata, revisions and clarifications as switches.

The errata sheet (31 Aug 2019) governs where it conflicts with the rulebook, so :data:`ERRATA` (every switch
on) is the default everywhere. :data:`ORIGINAL` turns every switch off and gives the rulebook as first
printed, so the book and the widgets can show both readings side by side. Each switch names the rule it
changes.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace

from ..core import implements


@implements("F Errata", "F Revisions")
@dataclass(frozen=True)
class Readings:
    """Which reading of each changed rule to apply (True = the errata or revision)."""

    stacking_drm_negative: bool = True      # F 6.2: -1 (not +1) per unit beyond four in the target hex
    observer_drm_plus_one: bool = True      # F 7.2 / Fire Example: the observer DRM is +1 (example printed -1)
    vc_event_places_all: bool = True        # F 19.7: commander, fire team, dummy AND civilians (printed "or")
    nva_only_fire_requests: bool = True     # F 13.0 chart header: "NVA", so VC leaders cannot request
    assault_needs_unsuppressed: bool = True  # F 8.0: only non-suppressed units may be activated to assault
    suppressed_defenders_fight_on: bool = True  # F 8.0 step 8: only attacking suppressed units drop out
    unload_slick_may_load_casualties: bool = True  # F 15.0: the reinforcement slick may still load WIA/KIA
    injury_allows_double_time: bool = True  # F 19.1: the "no Double Time" restriction is deleted
    marker_drms_cumulative: bool = True     # F 1.2: marker DRMs add up (original: only the largest applies)

    def changed(self) -> list[str]:
        """The names of the switches that differ from the errata."""
        return [f.name for f in fields(self) if getattr(self, f.name) != getattr(ERRATA, f.name)]


ERRATA = Readings()
ORIGINAL = Readings(**{f.name: False for f in fields(Readings)})

#: The rule each switch changes, and a one-line description of both readings (for the book and the widgets).
SWITCHES: dict[str, tuple[str, str, str]] = {
    "stacking_drm_negative": ("F 6.2", "+1 per unit beyond four in the hex", "-1 per unit beyond four in the target hex"),
    "observer_drm_plus_one": ("F 7.2", "observed mortar fire -1 (as the Fire Example printed it)", "observed mortar fire +1"),
    "vc_event_places_all": ("F 19.7", "place one of: commander, fire team, dummy or civilians", "place all four"),
    "nva_only_fire_requests": ("F 13.0", "NVA and VC leaders may request fire missions", "only NVA leaders and FOs may"),
    "assault_needs_unsuppressed": ("F 8.0", "suppressed units may be activated to assault", "only non-suppressed units may"),
    "suppressed_defenders_fight_on": ("F 8.0", "suppressed units on both sides drop out of the assault",
                                      "only suppressed attackers drop out; suppressed defenders fight on"),
    "unload_slick_may_load_casualties": ("F 15.0", "a slick that unloaded reinforcements may only move",
                                         "it may also load WIA and KIA markers"),
    "injury_allows_double_time": ("F 19.1", "an injured unit may not double time", "it may"),
    "marker_drms_cumulative": ("F 1.2", "only the largest marker DRM applies", "marker DRMs add up"),
}


def reading(**changes: bool) -> Readings:
    """The errata with some switches changed, e.g. ``reading(observer_drm_plus_one=False)``."""
    return replace(ERRATA, **changes)
