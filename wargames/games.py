"""The games on the shared protocol, by name (imported on first use).

:data:`GAMES` holds the games that have a ``Game`` class (fuzzing and the protocol tests play each of them).
:data:`INDEXED` holds games whose rules index exists before their ``Game`` does (none in this edition; No Trumpets
No Drums was one until its ``Game`` came): the status pages and the coverage appendix list their sections, but
nothing plays them.
"""
from __future__ import annotations

import importlib
import pkgutil

GAMES = {"citadel": "wargames.citadel", "indochina": "wargames.indochina", "fte": "wargames.fte",
         "ntnd": "wargames.ntnd"}
TITLES = {"citadel": "Citadel", "indochina": "Indochina", "fte": "Front Toward Enemy", "ntnd": "No Trumpets No Drums"}
INDEXED: dict[str, str] = {}
INDEXED_TITLES: dict[str, str] = {}


def package(name: str) -> str:
    """The package of a game, with or without a ``Game``."""
    return GAMES[name] if name in GAMES else INDEXED[name]


def import_all(name: str) -> list[str]:
    """Import every module of a game's package, so that each ``@implements`` in it is registered.

    A game with a ``Game`` imports its modules from its ``__init__``; a game without one may have modules that
    nothing imports yet, and they are found here by walking the package. Import errors are not hidden.
    """
    pkg = importlib.import_module(package(name))
    names = [info.name for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")]
    for module in names:
        importlib.import_module(module)
    return names


def game_class(name: str):
    """The ``Game`` class of a game package."""
    return importlib.import_module(GAMES[name]).Game


def sections(name: str):
    """Every rulebook section of a game (its rules index); for a game without a ``Game``, every module of its
    package is imported first so that the registry sees the rules its code implements."""
    if name not in GAMES:
        import_all(name)
    return importlib.import_module(package(name) + ".rules_index").SECTIONS


def reach_plays(name: str, seeds=(1, 2)) -> list[tuple[str, int, dict | None]]:
    """The random whole games that measure which rules of a game play reaches, as (scenario, seed, readings):
    each scenario (``Game.REACH_SCENARIOS``, by default all) once for each seed, and once more for each of the
    game's rule variants (``Game.VARIANTS``, whose readings replace None)."""
    cls = game_class(name)
    plays = [(seed, None) for seed in seeds] + [(seeds[0], dict(r)) for r in cls.VARIANTS.values()]
    return [(scenario, seed, readings) for scenario in cls.REACH_SCENARIOS or cls.SCENARIOS
            for seed, readings in plays]


def play_reached(name: str, scenario: str, seed: int, readings: dict | None, actions: int) -> set[str]:
    """Rule ids whose code ran in the carried-out actions of one random game of ``actions`` actions from a
    scenario start. Each action is drawn lazily (:meth:`Game.random_legal_action`): the same uniform choice as
    from the full list of legal actions, at a fraction of the checks."""
    from .core.fuzz import fuzz
    cls = game_class(name)
    ruleset = None if readings is None else cls.RULESET(readings=readings)
    # legal play only: this asks which rules play reaches, not whether refusals and saves hold
    return fuzz(cls, actions, seed=seed, scenario=scenario, illegal_rate=0.0, round_trip_rate=0.0,
                ruleset=ruleset, lazy=True).reached


def rules_reached(name: str, actions: int, seeds=(1, 2)) -> set[str]:
    """Rule ids whose code ran in the random whole games of :func:`reach_plays`, played one after another."""
    found: set[str] = set()
    for play in reach_plays(name, seeds):
        found |= play_reached(name, *play, actions)
    return found
