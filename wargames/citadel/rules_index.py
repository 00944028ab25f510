"""Every section of the Citadel rulebook: its id, a title in our words, and its status.

Sections that no code implements yet say why. The registry test fails if a
section is missing here, if an implemented section has no code, test or chapter,
or if code registers a rule id that is not listed.
"""
from __future__ import annotations

from ..core.rules import Section

_LATER = "planned: a later issue implements the rest of Citadel"
_MELEE = "planned with Rule 11 (melee), a later issue"

SECTIONS: tuple[Section, ...] = (
    Section("C 1", "What the game covers and who plays", "no-rules", "historical introduction; nothing to execute"),
    Section("C 2", "Turn length (one day) and victory in general"),
    Section("C 3", "Components: counters, two maps, charts, one six-sided die", "no-rules",
            "a list of the box contents; the die and map scale live in the core dice and map data"),
    Section("C 4", "Unit counters: markers, ground units, air units"),
    Section("C 5", "Zones of control"),
    Section("C 6", "Stacking, with limits that add together"),
    Section("C 6.1", "Stacking: infantry class"),
    Section("C 6.2", "Stacking: heavy weapons class"),
    Section("C 6.3", "Stacking: tanks"),
    Section("C 7", "Sequence of play"),
    Section("C 8", "Movement and opportunity fire"),
    Section("C 9", "Fire combat procedure"),
    Section("C 9.1", "At most one loss per unit per fire phase, except Vietminh battalions"),
    Section("C 9.2", "Sharing losses in a stack; losses nobody can take are void"),
    Section("C 9.3", "Critical loss level and inversion"),
    Section("C 9.4", "Elimination"),
    Section("C 9.5", "No unit fires, or is fired at, twice in a fire phase"),
    Section("C 10", "Weapon types, fire phases, line of sight and spotting"),
    Section("C 11", "Melee combat: odds, averaged morale, morale checks, routs, the table, retreats and advance"),
    Section("C 12", "The return phase"),
    Section("C 13", "Terrain, monsoon swamps, jungle zones, hill hexsides"),
    Section("C 14", "Strongpoints and complexes, and who controls them"),
    Section("C 14.B", "Strongpoint effects: fire modifiers, and no small-arms fire at a strongpoint"),
    Section("C 14.C", "Gabrielle-5 is attacked in melee only from strongpoint hexes"),
    Section("C 15", "Replacements"),
    Section("C 16", "Reinforcements"),
    Section("C 17", "T'ai desertion"),
    Section("C 18", "Vietminh entrenchments: digging, tunnels, weapons pits, filling in"),
    Section("C 19", "Tanks"),
    Section("C 19.A", "Tank fire: small arms and a 75mm recoilless rifle at one hex"),
    Section("C 19.B", "Tanks in melee"),
    Section("C 19.C", "Tank losses: a die roll disables or destroys"),
    Section("C 19.D", "Towing disabled tanks"),
    Section("C 19.E", "Tank repair"),
    Section("C 19.F", "The Armor bunker: -6 against tanks there, and repairs"),
    Section("C 19.G", "Tank movement restrictions"),
    Section("C 20", "General supply requirements"),
    Section("C 21", "General supply penalties"),
    Section("C 22", "Ammunition requirements"),
    Section("C 23", "Provision of supply"),
    Section("C 24", "Ammunition dumps"),
    Section("C 25", "Air units: four aircraft a counter, four categories"),
    Section("C 26", "Air missions: tactical air, flak suppression, spotting, strategic bombing, transport"),
    Section("C 27", "Weather over the valley, the supply lines and the delta"),
    Section("C 28", "Antiaircraft fire, flight paths and the take-off pattern"),
    Section("C 29", "Aircraft maintenance: return to duty, culling, routine maintenance"),
    Section("C 30", "Transport availability"),
    Section("C 31", "The Dien Bien Phu airfield"),
    Section("C 32", "Civilian pilots' strikes"),
    Section("C 33", "Naval rotation"),
    Section("C 34", "Vietminh battalion weapons"),
    Section("C 35", "Vietminh rockets"),
    Section("C SR 1", "How scenario data is presented"),
    Section("C SR 2", "Setting up a scenario"),
    Section("C SR 3", "Scenario victory"),
    *(Section(f"C Sc {n}", title) for n, title in (
        (1, "Scenario 1: Beatrice and Gabrielle fall"), (2, "Scenario 2: the flak raid"),
        (3, "Scenario 3: first battles for the five hills and the Huguettes"),
        (4, "Scenario 4: second battle for the five hills"), (5, "Scenario 5: second battle for the Huguettes, part 1"),
        (6, "Scenario 6: second battle for the Huguettes, part 2"), (7, "Scenario 7: the fall of Dien Bien Phu"),
        (8, "Scenario 8: the whole battle"))),
    Section("C Chart 1", "Counter reference: markers", "no-rules", "a key to marker symbols; the markers are UnitState fields"),
    Section("C Chart 2", "Counter reference: unit identification"),
    Section("C Chart 3", "Counter reference: air units (absent; values reconstructed from the B26 and C47)"),
    Section("C Fire CRT", "Fire Combat Results Table (absent from the text; reconstructed)"),
    Section("C Range table", "Range modifiers (absent from the text; reconstructed)"),
    Section("C TEC", "Terrain Effects Chart, fire and movement entries (absent; reconstructed)"),
    Section("C MCT", "Melee Combat Table (absent from the text; reconstructed)"),
    Section("C Air Chart", "Air chart: weather, antiaircraft, supply bombing, transport weights (absent; reconstructed)"),
    Section("C Turn Record Chart", "Turn record chart (absent; dates are derivable)"),
    Section("C Scenario Information Chart", "Scenario information chart (absent)"),
)


def section(rule_id: str) -> Section:
    for s in SECTIONS:
        if s.id == rule_id:
            return s
    raise KeyError(rule_id)
