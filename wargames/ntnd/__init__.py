"""No Trumpets No Drums: the Vietnam War, 1965-1975, a strategic and political game (rule ids "NT 19.2").

:class:`~wargames.ntnd.game.Game` plays a scenario turn by turn through the shared protocol (:mod:`game`, with
the air missions in :mod:`air_play` and the battles in :mod:`combat_play`).

Modules mirror the rulebook: :mod:`rules_index` (every section), :mod:`calendar` (the Turn Record, 3),
:mod:`units` (2.2, 4.4: the counter mix and the Allied reinforcement and withdrawal schedule), :mod:`geography`
(the reconstructed map, 5.1, 9.1), :mod:`charts` (every chart, printed or reconstructed), :mod:`scenarios` (the
campaign and the short scenarios, reconstructed set-ups), :mod:`state` (the position), :mod:`hearts_minds` (7),
:mod:`movement`, :mod:`zones` and :mod:`supply` (8, 9, 10, 18), :mod:`combat` (19), :mod:`events` (21),
:mod:`political` (22: the political phase's ledger and victory), :mod:`politics` (22-27: Vietnamization, the
elections, the peace party, the uprising and aid, as one state every rule reads), :mod:`neutrality` (10),
:mod:`air` (11-12), :mod:`engagement` (19 on a position), :mod:`ambush` (20) and :mod:`reaction` (8.8).
"""
from . import (air, air_play, ambush, calendar, charts, combat, combat_play, engagement, events,  # noqa: F401
               game, geography, hearts_minds, movement, neutrality, operations, political, politics, reaction,
               recruitment, reinforcement, rules_index, scenarios, state, supply, units, zones)
from .calendar import Turn
from .charts import NtndCharts, default_charts, load_charts
from .combat import Battle, Engaged, Support, combat_odds, resolve
from .game import Game
from .geography import Geography, load_map, shipped_map
from .politics import Policy, PoliticalTrack, election_odds
from .scenarios import SCENARIOS, load_scenario, scenario
from .state import NtndState, Piece
from .units import Counter, CounterMix, counter_mix, schedule

__all__ = ["Battle", "Counter", "CounterMix", "Engaged", "Game", "Geography", "NtndCharts", "NtndState", "Piece",
           "Policy", "PoliticalTrack", "SCENARIOS", "Support", "Turn", "combat_odds", "counter_mix", "default_charts",
           "election_odds", "load_charts", "load_map", "load_scenario", "resolve", "scenario", "schedule",
           "shipped_map"]
