"""The games on the shared protocol, by name (imported on first use)."""
from __future__ import annotations

import importlib

GAMES = {"citadel": "wargames.citadel", "indochina": "wargames.indochina", "fte": "wargames.fte"}
TITLES = {"citadel": "Citadel", "indochina": "Indochina", "fte": "Front Toward Enemy"}


def game_class(name: str):
    """The ``Game`` class of a game package."""
    return importlib.import_module(GAMES[name]).Game


def sections(name: str):
    """Every rulebook section of a game (its rules index)."""
    return importlib.import_module(GAMES[name] + ".rules_index").SECTIONS


def rules_reached(name: str, actions: int, seeds=(1, 2)) -> set[str]:
    """Rule ids whose code ran in carried-out actions of random whole games played from a scenario start: each
    scenario (``Game.REACH_SCENARIOS``, by default all) once for each seed, and once more for each of the game's
    rule variants (``Game.VARIANTS``)."""
    from .core.fuzz import fuzz
    found: set[str] = set()
    cls = game_class(name)
    plays = [(seed, None) for seed in seeds] + [(seeds[0], cls.RULESET(readings=dict(r)))
                                                for r in cls.VARIANTS.values()]
    for scenario in cls.REACH_SCENARIOS or cls.SCENARIOS:
        for seed, ruleset in plays:
            # legal play only: this asks which rules play reaches, not whether refusals and saves hold
            found |= fuzz(cls, actions, seed=seed, scenario=scenario, illegal_rate=0.0, round_trip_rate=0.0,
                          ruleset=ruleset).reached
    return found
