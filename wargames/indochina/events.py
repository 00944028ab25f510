"""Rule 6: random events, read from two dice as a number from 11 to 66."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..core import Dice, Provenance, Resolution, implements
from ..core.charts import parse_provenance, read_data_file, require
from ..core.errors import DataError

DATA = Path(__file__).parent / "data" / "charts"
NUMBERS = tuple(10 * t + o for t in range(1, 7) for o in range(1, 7))


@dataclass(frozen=True)
class Event:
    number: int
    name: str
    effect: str
    provenance: Provenance


@implements("IC Random Events Table")
@lru_cache(maxsize=None)
def load_events(path: str | Path | None = None) -> dict[int, Event]:
    file, data, default = read_data_file(path or DATA / "random_events.yaml")
    table = require(data, "events", dict, file)
    missing = [n for n in NUMBERS if n not in table]
    if missing:
        raise DataError(file, f"events.{missing[0]}", "is missing: the table needs every number from 11 to 66")
    extra = [n for n in table if n not in NUMBERS]
    if extra:
        raise DataError(file, f"events.{extra[0]}", "is not a two-dice reading (11-66, digits 1-6)")
    return {n: Event(n, require(table[n], "name", str, file, f"events.{n}"),
                     require(table[n], "effect", str, file, f"events.{n}"),
                     parse_provenance(table[n].get("provenance"), file, f"events.{n}.provenance", default))
            for n in NUMBERS}


@implements("IC 6.0", "IC 6.1", "IC 6.2")
def roll_event(dice: Dice, res: Resolution | None = None, table: dict[int, Event] | None = None) -> Event:
    """6.1: the first die is the tens digit, the second the ones digit (our reading of which die is which).
    ``table``: the Events Table played with (default: the shipped one)."""
    res = res if res is not None else Resolution()
    tens, ones = dice.roll(6, "event: tens die"), dice.roll(6, "event: ones die")
    event = (table or load_events())[10 * tens + ones]
    res.add("IC 6.1", f"dice {tens} and {ones} read as {10 * tens + ones}: {event.name}"
            + (" (reconstructed entry)" if event.provenance.reconstructed else ""), result=event.number)
    res.result = event
    return event
