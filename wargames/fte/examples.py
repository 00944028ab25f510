"""The rulebook's Fire and Assault Examples as positions on the demonstration map.

The rulebook prints neither counter values nor, for the Fire Example, hex numbers. What the examples state
is kept (fire ratings 4, TQ 4, an NVA unit in jungle, adjacency); the rest is our own placement, consistent
with the LoS Example's illustration (catalog F-4): the NVA unit in jungle hex 20.19.
"""
from __future__ import annotations

from .errata import ERRATA, Readings
from .state import FteState, place
from .terrain import demo_map
from .units import Unit


def fire_example(readings: Readings = ERRATA) -> FteState:
    """The Fire Example: a US leader with a fire team in 20.20 and a mortar in 20.22 (no LoS through the
    jungle of 20.21), against a visible four-man NVA unit in the jungle of 20.19."""
    s = FteState(demo_map(), readings=readings)
    h = s.hex
    return place(s, [
        Unit("US Ldr", "US", role="leader", tq=5, men=1, hex=h("20.20")),
        Unit("US FT", "US", fire_rating=4, weapon="SA", tq=4, range=4, men=4, hex=h("20.20")),
        Unit("US Mortar", "US", role="mortar", fire_rating=4, weapon="HE", tq=4, range=12, men=3, hex=h("20.22")),
        Unit("NVA FT", "NVA", fire_rating=4, weapon="SA", tq=4, men=4, hex=h("20.19")),
    ])


def assault_example(readings: Readings = ERRATA) -> FteState:
    """The Assault Example: US fire teams in 20.20 and 19.19 (both adjacent to 20.19) and a third in 22.19
    (not adjacent), their leader in 21.20, against a concealed NVA unit in the jungle of 20.19."""
    s = FteState(demo_map(), readings=readings)
    h = s.hex
    return place(s, [
        Unit("US Ldr", "US", role="leader", tq=5, men=1, hex=h("21.20")),
        Unit("US FT 20.20", "US", fire_rating=4, weapon="SA", tq=4, range=4, men=4, hex=h("20.20")),
        Unit("US FT 19.19", "US", fire_rating=4, weapon="SA", tq=4, range=4, men=4, hex=h("19.19")),
        Unit("US FT 22.19", "US", fire_rating=4, weapon="SA", tq=4, range=4, men=4, hex=h("22.19")),
        Unit("NVA FT", "NVA", fire_rating=4, weapon="SA", tq=4, men=4, hex=h("20.19"), concealed=True),
    ])


#: The Assault Example's dice in the order the engine rolls them: TQ checks (1, 3); round 1: US to-hit 5,
#: NVA to-hit 2 and effect 5; round 2: US 10, NVA 6; round 3: US 2 and effect 8, NVA 2 and effect 9, then
#: the US unit's TQ check for the possible suppression, 3.
ASSAULT_DICE = (1, 3, 5, 2, 5, 10, 6, 2, 8, 2, 9, 3)
