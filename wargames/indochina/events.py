"""Rule 6: random events, read from two dice as a number from 11 to 66."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core import Dice, Provenance, Resolution, implements
from ..core.schema import Int, Map, Record
from ..core.dice import roll_die
from .fields import HEADER, HEADER_OPTIONAL, NAME, TEXT, every_roll, load_chart, provenance, shipped

DATA = Path(__file__).parent / "data" / "charts"
NUMBERS = tuple(10 * t + o for t in range(1, 7) for o in range(1, 7))


@dataclass(frozen=True)
class Event:
    number: int
    name: str
    effect: str
    provenance: Provenance


def _schema(default: Provenance) -> Record:
    event = Record({"name": NAME, "effect": TEXT}, {"provenance": provenance(default)})
    return Record({**HEADER, "events": Map(Int(11, 66), event)}, HEADER_OPTIONAL, check=every_roll(NUMBERS, "events"),
                  build=lambda v: {n: Event(n, e["name"], e["effect"], e["provenance"])
                                   for n, e in sorted(v["events"].items())})


@implements("IC Random Events Table")
def load_events(path: str | Path | None = None) -> dict[int, Event]:
    """The Random Events Table by two-dice reading, 11 to 66 (a new dict on every call)."""
    return load_chart(DATA / "random_events.yaml" if path is None else path, _schema)


@implements("IC 6.0", "IC 6.1", "IC 6.2")
def roll_event(dice: Dice, res: Resolution | None = None, table: dict[int, Event] | None = None) -> Event:
    """6.1: the first die is the tens digit, the second the ones digit (our reading of which die is which).
    ``table``: the Events Table played with (default: the shipped one)."""
    res = res if res is not None else Resolution()
    tens, ones = roll_die(dice, 6, "event: tens die"), roll_die(dice, 6, "event: ones die")
    event = (table or shipped("random_events"))[10 * tens + ones]
    res.add("IC 6.1", f"dice {tens} and {ones} read as {10 * tens + ones}: {event.name}"
            + (" (reconstructed entry)" if event.provenance.reconstructed else ""), result=event.number)
    res.result = event
    return event
