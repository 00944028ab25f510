"""The charts and readings an Indochina game is played with (an owner's printed charts can replace ours).

``Ruleset.load(folder)`` reads any of the chart files of ``data/charts`` from an owner's folder (the others
stay the shipped reconstructions) and ``ruleset.yaml`` with ``readings:``. The game hands its combat charts
to the procedures it calls (through the position's ``charts``), so an edited CRT changes results in play.
"""
from __future__ import annotations

from pathlib import Path

from ..core.game import Reading, Ruleset as CoreRuleset
from .assistance import load_assistance, load_full_chart
from .atomic import load_atomic_table
from .bombardment import load_bombardment_table
from .charts import DATA, load_crt, load_terrain_effects
from .combat import Readings, Side
from .events import load_events
from .fields import hold_ruleset
from .mobilization import load_mobilization_chart
from .political_table import load_political_table
from .transport import AIR_TRANSPORT_MP


def _us(path: Path):
    return load_assistance(Side.FEF, path)


def _chinese(path: Path):
    return load_assistance(Side.COMMUNIST, path)


class Ruleset(CoreRuleset):
    """Indochina's charts (each file of ``data/charts`` with its loader) and readings."""

    GAME = "Indochina"
    DEFAULTS = DATA
    CHARTS = {
        "mobile_crt": ("mobile_crt.yaml", load_crt),
        "assault_crt": ("assault_crt.yaml", load_crt),
        "terrain_effects": ("terrain_effects.yaml", load_terrain_effects),
        "bombardment": ("bombardment.yaml", load_bombardment_table),
        "atomic_bomb": ("atomic_bomb.yaml", load_atomic_table),
        "us_assistance": ("us_assistance.yaml", _us),
        "chinese_assistance": ("chinese_assistance.yaml", _chinese),
        "mobilization": ("mobilization.yaml", load_mobilization_chart),
        "mobilization_full": ("mobilization_full.yaml", load_full_chart),
        "political_points": ("political_points.yaml", load_political_table),
        "random_events": ("random_events.yaml", load_events),
    }
    READINGS = {
        "baseline": Reading(Readings.ONE_THIRD.value, "IC 13.22",
                            "the lower baseline: '1/3' (ours: odds below the lowest column start there) or "
                            "'3/1' (as printed: any starting odds below 3/1 start at 3/1)",
                            tuple(x.value for x in Readings)),
        "overruns": Reading(True, "IC 27.0", "optional rule 27, overruns, on or off"),
        "ambushes": Reading(True, "IC 28.0", "optional rule 28, ambushes, on or off"),
        "general_offensive": Reading(True, "IC 31.0", "optional rule 31, the General Offensive, on or off"),
        "death_commandos": Reading(True, "IC 25.0", "optional rule 25, Death Commandos, on or off"),
        "weather": Reading(True, "IC 26.0", "optional rule 26, weather, on or off (off: every turn is Clear)"),
        "intervention": Reading(True, "IC 29.0", "optional rule 29, intervention (and with it the atomic bombs of "
                                                 "30), on or off"),
        "intervention_overflow": Reading("lose", "IC 29.21b",
                                         "an index pushed past 100 by intervention: 'lose' (the declaring side loses "
                                         "the excess, 29.21b, 29.411) or 'keep' (the optional variant: nobody does)",
                                         ("lose", "keep")),
        "extended_scenario": Reading(False, "IC 38 Scenario 2",
                                     "Scenario 2's optional extension to April 1955 (special rule c), which both "
                                     "players agree to before play; scenarios without an extension ignore it"),
        "air_transport_mp": Reading("errata", "IC 12.43",
                                    "movement points an air-transported unit keeps: 'errata' (the TEC errata) "
                                    "or '12.43' (the rule as printed)", tuple(AIR_TRANSPORT_MP)),
        "bombardment_errata": Reading(True, "IC Errata", "the errata's corrections to the Bombardment Table"),
        "underground": Reading(False, "IC Exp Going Underground",
                               "experimental: Communist cadres, guerrillas and militia may hide off the map in an "
                               "Underground step after each Movement Phase, on or off"),
        "aircraft_range": Reading(False, "IC Exp Aircraft Range",
                                  "experimental: the distance from a base (or a carrier) to the target modifies "
                                  "FEF airstrikes, on or off"),
        "naval_operations": Reading(False, "IC Exp Naval Operations",
                                    "experimental: amphibious assault, invasion supply and supply lines over lake "
                                    "and sea hexes, on or off"),
    }

    @property
    def baseline(self) -> Readings:
        return Readings(self.readings["baseline"])

    def combat_charts(self) -> tuple:
        """(Mobile CRT, Assault CRT, TEC), as the combat procedures take them."""
        return self.chart("mobile_crt"), self.chart("assault_crt"), self.chart("terrain_effects")


hold_ruleset(Ruleset)       # the shipped charts the procedures read (fields.shipped) come from it
