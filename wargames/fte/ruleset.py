"""The charts and errata readings an FTE game is played with (an owner's printed charts included).

:class:`Ruleset` lists every chart file of ``data/charts/`` with its loader and every errata switch of
:class:`~wargames.fte.errata.Readings` (the errata reading by default). A game carries its ruleset, and the
position's :class:`~wargames.fte.state.FteState` gets the charts and readings from it, so every procedure
played through :class:`wargames.fte.Game` reads the owner's charts.
"""
from __future__ import annotations

from dataclasses import fields

from ..core.game import Reading
from ..core.game import Ruleset as CoreRuleset
from .charts import (DATA, Charts, default_charts, load_fire_request, load_marker_drms, load_medevac, load_random_events,
                     load_target_effects, load_terrain_chart, load_vp_chart)
from .errata import ERRATA, SWITCHES, Readings
from .fire_missions import default_fire_mission_chart, load_fire_mission_chart


class Ruleset(CoreRuleset):
    """FTE's charts (one YAML file each) and its errata switches (default: the errata's reading)."""

    GAME = "FTE"
    CHARTS = {
        "tec": ("terrain_effects.yaml", load_terrain_chart),
        "tet": ("target_effects.yaml", load_target_effects),
        "fire_request": ("fire_request.yaml", load_fire_request),
        "medevac": ("medevac.yaml", load_medevac),
        "events": ("random_events.yaml", load_random_events),
        "vp": ("victory_points.yaml", load_vp_chart),
        "markers": ("markers.yaml", load_marker_drms),
        "fire_missions": ("fire_missions.yaml", load_fire_mission_chart),
    }
    DEFAULTS = DATA
    READINGS = {f.name: Reading(getattr(ERRATA, f.name), SWITCHES[f.name][0],
                                f"{SWITCHES[f.name][2]} (errata); original: {SWITCHES[f.name][1]}")
                for f in fields(Readings)}

    def chart(self, name: str):
        """A chart by name: the owner's if given, else the shipped one (loaded once for every game)."""
        if name not in self._charts and self.sources.get(name) == "default":
            self._charts[name] = (default_fire_mission_chart() if name == "fire_missions"
                                  else getattr(default_charts(), name))
        return super().chart(name)

    def errata(self) -> Readings:
        """The readings as the procedures take them (the core checked each is true or false)."""
        return Readings(**self.readings)

    def charts(self) -> Charts:
        """Every chart, the owner's where given, the shipped ones otherwise."""
        return Charts(*(self.chart(name) for name in self.CHARTS))


__all__ = ["Ruleset"]
