"""Indochina: the First Indochina War, 1946-54.

``from wargames import indochina; game = indochina.Game.new("scenario1")`` sets up a rulebook scenario (38) on the
reconstructed map, on the shared game protocol (:mod:`wargames.core.game`); ``Game.new()`` starts the small
schematic demonstration; ``indochina.Ruleset.load(folder)`` plays either with an owner's charts.

Modules mirror the rulebook: :mod:`units` (2.3), :mod:`game` (3, sequence of play and the game),
:mod:`political` and :mod:`political_table` (5), :mod:`events` (6), :mod:`mobilization` and :mod:`assistance`
(7), :mod:`reorganization` (4, 8, 10.2x, 13.1x, 20), :mod:`movement` (9), :mod:`stacking` (10), :mod:`zoc` (11),
:mod:`air` (12.1-12.2), :mod:`air_play` (both Air Phases in play), :mod:`bombardment` (the Bombardment Table), :mod:`airstrikes` (12.3, 12.5-12.7),
:mod:`transport` (12.4, 19), :mod:`combat` (13 with every column shift), :mod:`results` (13.5-13.8),
:mod:`disruption` (14), :mod:`logistics` (15), :mod:`fortifications` (16), :mod:`militia` (17), :mod:`riverine`
and :mod:`riverine_play` (18), :mod:`fog` (21), :mod:`borders` (22), :mod:`staging` (23), :mod:`victory` (24), :mod:`weather` (26),
:mod:`optional` (25-31), :mod:`intervention_play` (29-30 in play), :mod:`experimental` and
:mod:`experimental_play` (the experimental rules, and 27.5 in play), :mod:`scenario_data` (38), :mod:`scenarios` (what a game can be
set up with), :mod:`charts` (the reconstructed CRTs and TEC), :mod:`ruleset` (charts and readings),
:mod:`state` (the position and the maps), :mod:`counters` (the counter mix), :mod:`deployment` (the set-up rules
of 38).
"""
from . import (air, air_play, airstrikes, assistance, atomic, bombardment, borders, charts, combat, counters,
               deployment, disruption, events, experimental, experimental_play, fog, fortifications, game,
               intervention_play, logistics, militia, riverine_play,
               mobilization, movement, optional,
               political, political_table, reorganization, results, riverine, ruleset, scenario_data, stacking,
               staging, transport, units, victory, weather, zoc)  # noqa: F401  (importing registers every rule)
from .combat import Combat, Readings, Side, crt_chooser, final_odds, raw_odds, resolve_combat, shifts
from .air_play import AirDropSupply, AirTransport, ChooseStrikeLoss, CommitStrike, IncreaseSorties, ResolveStrike
from .game import (ACTIONS, SEQUENCE, Game, Advance, AmphibiousInvasion, AnswerCeasefire, Attack, BreakDown,
                   ChooseDefenders, ChooseTable, ChooseUnit, ConvertResult, DeclareAmbush, DeclareGeneralOffensive,
                   DeclineAdvance, DeclineAmbush, Deploy, DeployFortification, DropOff, EndPhase, EndTurn,
                   EnhanceDefence, ExamineStack, ForcedMarch, Fortify, Mobilize, Move, MoveForce, NavalTransport,
                   Overrun, PlaceMilitia, PlaceReinforcement, ProposeCeasefire, Recover, Reform, Retreat,
                   RollAssistance, RollEvent, ScoreCities)
from .experimental_play import (EXPERIMENTAL_ACTIONS, AmphibiousAssault, CallAirstrike, ChooseAirstrikeLoss,
                                EndUnderground, GoUnderground, Resurface)
from .intervention_play import (AtomicAttack, DeclareIntervention, PlaceUSPort, ReceiveIntervention,
                                RollChineseAirForce, WithholdAirUnits)
from .riverine_play import RIVERINE_ACTIONS, Disembark, Embark
from .ruleset import Ruleset
from .state import IndochinaState

__all__ = ["ACTIONS", "Advance", "AirDropSupply", "AirTransport", "AmphibiousInvasion", "AnswerCeasefire", "Attack",
           "AmphibiousAssault", "AtomicAttack", "CallAirstrike", "ChooseAirstrikeLoss", "DeclareIntervention",
           "Disembark", "EXPERIMENTAL_ACTIONS", "Embark", "EndUnderground", "RIVERINE_ACTIONS", "GoUnderground", "Resurface", "PlaceUSPort", "ReceiveIntervention", "RollChineseAirForce",
           "WithholdAirUnits",
           "BreakDown", "ChooseDefenders", "ChooseStrikeLoss", "ChooseTable", "ChooseUnit", "Combat",
           "CommitStrike", "ConvertResult", "DeclareAmbush", "DeclareGeneralOffensive", "DeclineAdvance",
           "DeclineAmbush", "Deploy", "DeployFortification", "DropOff", "EndPhase", "EndTurn", "EnhanceDefence",
           "ExamineStack", "ForcedMarch", "Fortify", "Game", "IncreaseSorties", "IndochinaState", "Mobilize",
           "Move", "MoveForce", "NavalTransport", "Overrun", "PlaceMilitia", "PlaceReinforcement",
           "ProposeCeasefire", "Readings", "Recover", "Reform", "ResolveStrike", "Retreat", "RollAssistance",
           "RollEvent", "Ruleset", "SEQUENCE", "ScoreCities", "Side", "crt_chooser", "final_odds", "raw_odds",
           "resolve_combat", "shifts"]
