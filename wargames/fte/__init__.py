"""Front Toward Enemy: US and NVA/VC firefights in Vietnam, d10 activation (the FTE rulebook and its errata).

``from wargames import fte; game = fte.Game.new()`` plays the demonstration FRAGO through the shared protocol.
"""
from . import (actions, activation, assault, casualties, charts, checks, concealment, errata, events, frago, game,  # noqa: F401
               fire, fire_missions, los, movement, opfire, placement, ruleset, sites, special, state, terrain,
               traps, units, victory)
from .errata import ERRATA, ORIGINAL, Readings
from .game import (Abandon, Activate, Advance, Assault, AssaultTarget, Carry, Conceal, DestroyCache, DetonateClaymore, Draw,
                   EndActivation, EventChoice, EventTarget, Fire, FireMissionOrder, Frago, Game, HoldFire, Interrogate,
                   Land, Load, MedevacEntry, Move, OpFire, Pass, Plot, Recover, RequestFireMission, RequestMedevac, Retreat,
                   PlaceCobra, PlaceReinforcement, PlaceVC, Search, Show, Unload, demo_frago, load_frago)
from .rules_index import SECTIONS
from .ruleset import Ruleset
from .state import FteState
from .units import CasualtyMarker, Site, Unit

__all__ = ["SECTIONS", "Game", "Ruleset", "Frago", "load_frago", "demo_frago", "Unit", "Site", "CasualtyMarker",
           "FteState", "Readings", "ERRATA", "ORIGINAL", "Draw", "Activate", "Pass", "EndActivation", "Move", "Fire",
           "Assault", "Search", "Recover", "DestroyCache", "RequestMedevac", "RequestFireMission", "Load", "Unload",
           "OpFire", "HoldFire", "Retreat", "Advance", "EventChoice", "AssaultTarget", "Conceal", "Abandon", "Land", "Interrogate", "Show", "FireMissionOrder", "MedevacEntry", "EventTarget", "DetonateClaymore",
           "Carry", "Plot", "PlaceReinforcement", "PlaceCobra", "PlaceVC"]
