"""Indochina: the First Indochina War, 1946-54. Land combat (13.0) and its shifts are executable now.

Modules mirror the rulebook: :mod:`political` (5), :mod:`events` (6), :mod:`mobilization` (7),
:mod:`units` (2.3), :mod:`movement` (9), :mod:`stacking` (10), :mod:`zoc` (11), :mod:`combat` (13, with
16.3, 20.1, 25, 26.3, 27.3, 28.2, 31.21), :mod:`results` (13.5-13.8), :mod:`disruption` (14), :mod:`weather`
(26), :mod:`charts` (the reconstructed CRTs and TEC), :mod:`state` (the position and the demonstration map).
"""
from . import (air, borders, charts, combat, disruption, events, fog, game, logistics, militia,  # noqa: F401
               mobilization, movement, optional, political, results, scenario_data, victory,
               stacking, units, weather, zoc)  # (importing registers the rules)
from .combat import Combat, Readings, Side, crt_chooser, final_odds, raw_odds, resolve_combat, shifts

__all__ = ["Combat", "Readings", "Side", "crt_chooser", "final_odds", "raw_odds", "resolve_combat", "shifts"]
