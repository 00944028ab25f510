"""Rule 30: the atomic bomb attack itself, on a reconstructed Atomic Bomb Table.

Placing the marker, one bomb per hex per turn and fallout are in :mod:`optional` (30.3, 30.5, 30.6).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..core import Dice, Provenance, Resolution, implements
from ..core.charts import parse_provenance, read_data_file, require
from ..core.errors import DataError, RuleViolation
from .combat import Side
from .disruption import disrupt
from .optional import AtomicBombs, Intervention, drop_atomic_bomb
from .state import IndochinaState

DATA = Path(__file__).parent / "data" / "charts"
EFFECTS = ("eliminate", "disrupt_twice", "disrupt")


@implements("IC Atomic Bomb Table")
@lru_cache(maxsize=None)
def load_atomic_table(path: str | Path | None = None) -> dict[int, tuple[str, str, Provenance]]:
    file, data, default = read_data_file(path or DATA / "atomic_bomb.yaml")
    rows = require(data, "results", dict, file)
    out = {}
    for roll in range(1, 7):
        if roll not in rows:
            raise DataError(file, f"results[{roll}]", "is missing (one row for each face of the die)")
        effect = require(rows[roll], "effect", str, file, f"results[{roll}]")
        if effect not in EFFECTS:
            raise DataError(file, f"results[{roll}].effect", f"must be one of {EFFECTS}, not {effect!r}")
        out[roll] = (effect, require(rows[roll], "text", str, file, f"results[{roll}]"),
                     parse_provenance(rows[roll].get("provenance"), file, f"results[{roll}].provenance", default))
    return out


@implements("IC 30.1", "IC 30.2")
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
    roll = dice.roll(6, "Atomic Bomb Table")
    effect, text, prov = load_atomic_table()[roll]
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
