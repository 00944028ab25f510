"""Every section of the Front Toward Enemy rulebook: its id, a title in our words, and its status.

Ids follow the rulebook's numbering with the prefix ``F`` ("F 7.1", "F 7.3.2"). Unnumbered parts get
descriptive ids: the charts the text prints only in part ("F TEC", "F TET", ...), the marker values it never
prints ("F Marker DRMs"), the quick reference ("F QRC") and the three parts of the official errata sheet
("F Errata", "F Revisions", "F Clarifications"). Sections that no code implements yet say why.
"""
from __future__ import annotations

from ..core.rules import Section

_ROWS: tuple[tuple[str, str], ...] = (
    ("F 1.0", "What the game is: company-level firefights, 5-minute turns, 50-metre hexes"),
    ("F 1.1", "The pieces: infantry, vehicles, helicopters, markers; activation by chits"),
    ("F 1.2", "Summary of the major rules: the d10, 1 succeeds and 10 fails, checks against TQ"),
    ("F 2.0", "Reading a counter: fire rating and weapon class, TQ, range, defence, men, reduced side"),
    ("F 3.0", "Set-up and the six-step sequence of play"),
    ("F 4.0", "Placing reinforcements on the scenario's map edge"),
    ("F 5.0", "The activation phase: the chit cup, one activation per unit, actions per unit class"),
    ("F 5.1", "Who an activation may activate: leaders, hexes, helicopters, vehicles, passing; leader losses"),
    ("F 6.0", "The Move action (heading)"),
    ("F 6.1", "Moving: classes, the Terrain Effects Chart and its notes, concealment loss on the move"),
    ("F 6.2", "Stacking limits and hexes that hold enemy units"),
    ("F 6.3", "Movement allowances"),
    ("F 6.4", "Moving hex to hex with enough movement points"),
    ("F 6.5", "Terrain costs and leaving the map"),
    ("F 6.6", "Double Time movement and the Exhausted marker"),
    ("F 6.7", "Stealthy movement"),
    ("F 6.8", "Helicopter altitudes and movement"),
    ("F 6.9", "Transport capacity of vehicles and slicks"),
    ("F 6.10", "Abandoning an immobilized vehicle"),
    ("F 7.0", "The Fire action: who may fire, LoS, friendly units in the way, mortars and high helicopters"),
    ("F 7.1", "The to-hit procedure and its die roll modifiers"),
    ("F 7.2", "Observed mortar fire"),
    ("F 7.3", "Line of sight: when it is needed"),
    ("F 7.3.1", "Tracing line of sight: what blocks it, slopes, adjacent hexes"),
    ("F 7.3.2", "Blocking terrain, slopes, and units that block"),
    ("F 7.3.3", "Line of sight to and from helicopters"),
    ("F 7.4", "Fire effects: KIA, WIA, B, S, S? for infantry, civilians, vehicles and helicopters"),
    ("F 7.5", "Casualties (heading)"),
    ("F 7.5.1", "Combat losses: reducing or removing a unit and placing a KIA/WIA marker"),
    ("F 7.5.2", "Carrying KIA and WIA markers"),
    ("F 7.5.3", "Evacuating casualties; casualties captured or removed by the enemy"),
    ("F 8.0", "The Assault action: eligibility, opportunity fire, TQ checks, three rounds, advance"),
    ("F 9.0", "The Search action and Searching markers"),
    ("F 10.0", "The Recover action"),
    ("F 11.0", "The Destroy Cache action"),
    ("F 12.0", "The Request Medevac action and the Medevac Request Table"),
    ("F 13.0", "The Request Fire Mission action and the Fire Request Table"),
    ("F 14.0", "The Load action"),
    ("F 15.0", "The Unload action"),
    ("F 16.0", "Executing fire missions: accuracy, scatter, the area attacked"),
    ("F 17.0", "Checking casualties: died of wounds, returned to duty"),
    ("F 17.1", "Medics"),
    ("F 18.0", "The concealment phase"),
    ("F 18.1", "Being concealed and losing concealment"),
    ("F 18.2", "Becoming concealed"),
    ("F 19.0", "Random events: whose event, and the table"),
    ("F 19.1", "Injury"),
    ("F 19.2", "Low Ammo"),
    ("F 19.3", "Rally"),
    ("F 19.4", "Hero"),
    ("F 19.5", "Higher HQ"),
    ("F 19.6", "AH-1 Cobras"),
    ("F 19.7", "VC reinforcements"),
    ("F 19.8", "Aerial Observer"),
    ("F 19.9", "NVA Artillery"),
    ("F 19.10", "Check Fire"),
    ("F 20.0", "End of turn"),
    ("F 21.0", "Opportunity fire"),
    ("F 22.0", "Dummy units"),
    ("F 23.0", "Hidden caches, tunnels, foxholes and bunkers"),
    ("F 24.0", "Bunkers"),
    ("F 25.0", "Foxholes"),
    ("F 26.0", "Booby traps and claymore mines"),
    ("F 27.0", "NVA sappers"),
    ("F 28.0", "Civilians and interrogation"),
    ("F 29.0", "Victory points and who wins"),
    ("F QRC", "The quick reference charts: movement allowances and the fire procedure"),
    ("F TEC", "Terrain Effects Chart (printed in part; the rest reconstructed)"),
    ("F TET", "Target Effects Table (rows 1-6 printed; rows 7-10 reconstructed)"),
    ("F Medevac Table", "Medevac Request Table (printed in full)"),
    ("F Fire Request Table", "Fire Request Table (rows 1-8 printed; row 9 reconstructed)"),
    ("F Random Event Table", "Random Event Table (rows 1-8 printed; rows 9-10 reconstructed)"),
    ("F VP Chart", "Victory Point Chart (printed in part; the rest reconstructed)"),
    ("F Marker DRMs", "Status marker modifiers the text never prints (Suppressed, Broken, Hero)"),
    ("F Errata", "Official errata: stacking DRM sign, observer DRM, VC event, fire request header, scenario 1-5"),
    ("F Revisions", "Official revisions: cumulative markers, assault eligibility and drop-out, unload, injury"),
    ("F Clarifications", "Official clarifications: casualty VP cases 1-3, injuries, helicopters, leaders"),
)

_NO_RULES = {
    "F 1.0": "scale and setting; nothing to execute",
    "F 1.1": "an overview of the pieces; each part has its own numbered rule",
    "F 6.0": "a heading over 6.1-6.10",
    "F 7.5": "a heading over 7.5.1-7.5.3",
}

# Sections whose code has not landed yet, with the reason (emptied as the steps land).
PLANNED: dict[str, str] = {}

SECTIONS: tuple[Section, ...] = tuple(
    Section(i, t, "no-rules", _NO_RULES[i]) if i in _NO_RULES
    else Section(i, t, "planned", PLANNED[i]) if i in PLANNED
    else Section(i, t) for i, t in _ROWS)
