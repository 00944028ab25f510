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
from .charts import CHART_FILES, DATA, Charts
from .errata import ERRATA, SWITCHES, Readings


class Ruleset(CoreRuleset):
    """FTE's charts (one YAML file each) and its errata switches (default: the errata's reading)."""

    GAME = "FTE"
    CHARTS = CHART_FILES
    DEFAULTS = DATA
    READINGS = {f.name: Reading(getattr(ERRATA, f.name), SWITCHES[f.name][0],
                                f"{SWITCHES[f.name][2]} (errata); original: {SWITCHES[f.name][1]}")
                for f in fields(Readings)}

    def errata(self) -> Readings:
        """The readings as the procedures take them (the core checked each is true or false)."""
        return Readings(**self.readings)

    def charts(self) -> Charts:
        """Every chart, the owner's where given, the shipped ones otherwise."""
        return Charts(*(self.chart(name) for name in self.CHARTS))


__all__ = ["Ruleset"]
