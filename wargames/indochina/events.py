"""Rule 6: random events, read from two dice as a number from 11 to 66."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..core import Dice, Provenance, Resolution, implements
from ..core.schema import At, Int, List, Map, Opt, Record, Str
from ..core.dice import roll_die
from .fields import HEADER, HEADER_OPTIONAL, NAME, SIDE, TEXT, every_roll, load_chart, provenance, shipped

DATA = Path(__file__).parent / "data" / "charts"
NUMBERS = tuple(10 * t + o for t in range(1, 7) for o in range(1, 7))


#: What an event may do in play, each a key of its ``effects`` (the game applies them, :mod:`game`):
#: ``political``/``supply``: points gained (+) or lost (-) by side; ``this_turn``: conditions for the rest of
#: the turn; ``more_cities_gains``/``lower_index_gains``: points for the side with more cities in Indochina or
#: the lower political index (none on a tie); ``examine``: the side that may look at one enemy stack (21.2);
#: ``free_militia``: the Communist player may place one militia on a cadre (17.31) at no cost;
#: ``mobilization``: a change to the next Mobilization Phase of the side named.
THIS_TURN = ("no air operations", "no combat", "weather reversed", "monsoon", "geneva talks", "world war three")
MOBILIZATION = ("no staging area", "free VNA group", "staging area discount", "discount")
_AMOUNTS = Map(SIDE, Int(-20, 20))
EFFECTS = Record({}, {"political": Opt(_AMOUNTS, {}), "supply": Opt(_AMOUNTS, {}),
                      "this_turn": Opt(List(Str(THIS_TURN), unique=True), []),
                      "more_cities_gains": Opt(Int(1, 9), 0), "lower_index_gains": Opt(Int(1, 9), 0),
                      "examine": Opt(SIDE), "free_militia": Opt(Int(1, 3), 0),
                      "mobilization": Opt(Map(SIDE, Str(MOBILIZATION)), {})},
                 what="an event's effects")
NO_EFFECTS = EFFECTS.check({}, At("events"))


@dataclass(frozen=True)
class Event:
    number: int
    name: str
    effect: str
    provenance: Provenance
    effects: dict = field(default_factory=dict, compare=False)


def _schema(default: Provenance) -> Record:
    event = Record({"name": NAME, "effect": TEXT}, {"provenance": provenance(default), "effects": Opt(EFFECTS)})
    return Record({**HEADER, "events": Map(Int(11, 66), event)}, HEADER_OPTIONAL, check=every_roll(NUMBERS, "events"),
                  build=lambda v: {n: Event(n, e["name"], e["effect"], e["provenance"],
                                            e["effects"] or NO_EFFECTS)
                                   for n, e in sorted(v["events"].items())})


@implements("IC Random Events Table")
def load_events(path: str | Path | None = None) -> dict[int, Event]:
    """The Random Events Table by two-dice reading, 11 to 66 (a new dict on every call)."""
    return load_chart(DATA / "random_events.yaml" if path is None else path, _schema)


@implements("IC 6.0", "IC 6.1", "IC 6.2", "IC Random Events Table")
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
