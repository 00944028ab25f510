"""Rule 30: the atomic bomb attack itself, on a reconstructed Atomic Bomb Table.

Placing the marker, one bomb per hex per turn and fallout are in :mod:`optional` (30.3, 30.5, 30.6).
"""
from __future__ import annotations

from pathlib import Path

from ..core import Dice, Provenance, Resolution, implements
from ..core.errors import RuleViolation
from ..core.schema import Map, Record, Str
from ..core.dice import roll_die
from .combat import Side
from .disruption import disrupt
from .fields import DIE_ROLL, HEADER, HEADER_OPTIONAL, TEXT, every_roll, load_chart, provenance, shipped
from .optional import AtomicBombs, Intervention, drop_atomic_bomb
from .state import IndochinaState

DATA = Path(__file__).parent / "data" / "charts"
EFFECTS = ("eliminate", "disrupt_twice", "disrupt")


def _schema(default: Provenance) -> Record:
    row = Record({"effect": Str(EFFECTS), "text": TEXT}, {"provenance": provenance(default)},
                 build=lambda r: (r["effect"], r["text"], r["provenance"]))
    return Record({**HEADER, "results": Map(DIE_ROLL, row)}, HEADER_OPTIONAL, check=every_roll(range(1, 7), "results"),
                  build=lambda v: dict(sorted(v["results"].items())))


@implements("IC Atomic Bomb Table")
def load_atomic_table(path: str | Path | None = None) -> dict[int, tuple[str, str, Provenance]]:
    """The Atomic Bomb Table: (effect, text, provenance) by die roll (a new dict on every call)."""
    return load_chart(DATA / "atomic_bomb.yaml" if path is None else path, _schema)


@implements("IC 30.1", "IC 30.2", "IC Atomic Bomb Table")
def atomic_attack(st: IndochinaState, record: Intervention, bombs: AtomicBombs, label: str, turn: int,
                  dice: Dice) -> Resolution:
    """Bomb a hex: place the marker (30.1(1)), roll once on the table (30.1(2)) and apply it to every land
    unit there (30.1(3)). No airstrike carries it and no antiaircraft fire touches it (30.2); the FEF never
    bombs China (22.3)."""
    h = st.map.hex(label)
    if st.map.info(h).attr("country") == "China":
        raise RuleViolation("IC 22.3", "the FEF never attacks into China, atomic bombs included")
    res = drop_atomic_bomb(record, bombs, label, turn)
    res.add("IC 30.2", "delivered by bombers outside the game: no airstrike is used and no antiaircraft fire is rolled")
    roll = roll_die(dice, 6, "Atomic Bomb Table")
    effect, text, prov = shipped("atomic_bomb")[roll]
    res.add("IC 30.1", f"roll {roll}: {text}" + (" (reconstructed table)" if prov.reconstructed else ""),
            result=effect, roll=roll)
    for u in [u for u in st.on_map() if u.hex == h]:
        if effect == "eliminate":
            u.eliminated = True
            res.add("IC 30.1", f"{u.id} is eliminated")
        elif effect == "disrupt_twice":
            disrupt(u, "combat", res)
        elif not u.disrupted:
            disrupt(u, "bombardment", res)
    res.result = {"roll": roll, "effect": effect}
    return res
