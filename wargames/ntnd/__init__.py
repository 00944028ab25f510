"""No Trumpets No Drums: the Vietnam War, 1965-1975, a strategic and political game (rule ids "NT 19.2").

The engine is built in layers, and this edition holds the first ones; the ``Game`` that plays a whole turn
through the shared protocol comes next, so none of these rules is reached in play yet.

Modules mirror the rulebook: :mod:`rules_index` (every section), :mod:`calendar` (the Turn Record, 3),
:mod:`units` (2.2, 4.4: the counter mix and the Allied reinforcement and withdrawal schedule), :mod:`geography`
(the reconstructed map, 5.1, 9.1), :mod:`charts` (every chart, printed or reconstructed), :mod:`scenarios` (the
campaign and the short scenarios, reconstructed set-ups), :mod:`state` (the position), :mod:`hearts_minds` (7),
:mod:`movement`, :mod:`zones` and :mod:`supply` (8, 9, 10, 18), :mod:`combat` (19), :mod:`events` (21),
:mod:`political` (22: the political phase's ledger and victory), :mod:`politics` (22-27: Vietnamization, the
elections, the peace party, the uprising and aid, as one state every rule reads).
"""
from . import (calendar, charts, combat, events, geography, hearts_minds, movement, political, politics,  # noqa: F401
               rules_index, scenarios, state, supply, units, zones)
from .calendar import Turn
from .charts import NtndCharts, default_charts, load_charts
from .combat import Battle, Engaged, Support, combat_odds, resolve
from .geography import Geography, load_map, shipped_map
from .politics import Policy, PoliticalTrack, election_odds
from .scenarios import SCENARIOS, load_scenario, scenario
from .state import NtndState, Piece
from .units import Counter, CounterMix, counter_mix, schedule

__all__ = ["Battle", "Counter", "CounterMix", "Engaged", "Geography", "NtndCharts", "NtndState", "Piece", "Policy",
           "PoliticalTrack", "SCENARIOS", "Support", "Turn", "combat_odds", "counter_mix", "default_charts",
           "election_odds", "load_charts", "load_map", "load_scenario", "resolve", "scenario", "schedule",
           "shipped_map"]
