"""Citadel: The Battle of Dien Bien Phu (1954). Rules 1-10 are executable; the rest are indexed.

``citadel.Game.new()`` starts the demonstration scenario (the Anne-Marie assault); :mod:`game` plays a whole
game turn through the shared protocol (prompts, undo, save and load).

Modules mirror the rulebook: :mod:`units` (Rules 3-4, Chart 2), :mod:`zoc` (5),
:mod:`stacking` (6), :mod:`sequence` (7), :mod:`movement` (8), :mod:`fire` (9),
:mod:`fire_types` (10), :mod:`terrain` (13, as needed), :mod:`charts` (the
reconstructed fire CRT, range modifiers and TEC), :mod:`examples` (the printed
worked examples), :mod:`scenarios` (the orders of battle and the eight scenario outlines, SR 1-3).
"""
from . import (charts, fire, fire_types, game, movement, optional, replacements, rockets, scenarios, sequence,  # noqa: F401
               stacking, supply, supply_play, terrain, units, zoc)  # (registers rules)
from .charts import check_constraints, load_fire_crt, load_range_table, load_terrain_effects
from .examples import anne_marie_setup, replay_movement_example
from .fire import FirePhase, PendingLosses, resolve_fire
from .game import (ACTIONS, AllocateLoss, AnnounceCrossing, EndFire, EndMoves, EndPhase, ExitBoard, Fire, Game, Move,
                   OpportunityFire, Reenter, Ruleset, StrategicMove, Stop)
from .fire_types import line_of_sight, spotted
from .movement import MovementPhase
from .rules_index import SECTIONS
from .state import CitadelState
from .units import Counter, Side, UnitClass, UnitState

__all__ = ["Game", "Ruleset", "ACTIONS", "AllocateLoss", "AnnounceCrossing", "EndFire", "EndMoves", "EndPhase",
           "ExitBoard", "Fire", "Move", "OpportunityFire", "Reenter", "StrategicMove", "Stop", "FirePhase",
           "PendingLosses", "check_constraints", "load_fire_crt", "load_range_table", "load_terrain_effects", "anne_marie_setup",
           "replay_movement_example", "resolve_fire", "line_of_sight", "spotted", "MovementPhase", "SECTIONS",
           "CitadelState", "Counter", "Side", "UnitClass", "UnitState"]
