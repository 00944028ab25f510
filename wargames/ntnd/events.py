"""NT 21: the random events phase, and what an event does to the position.

The chart (``charts.random_events``, reconstructed: the player aid card is not in the text) gives each event's
effects as data; :func:`charts.random_event` reads the two dice and makes the checks of 21.2 (an event that happens
once a game, or one tied to a state that has already left neutrality). This module rolls with the position's
history and applies the effects:

- political points (a fixed number, or dice of them) move the track as the next turn begins;
- a coup in Laos or Cambodia ends that state's neutrality (it joins the Allies, as in 10.5, with no political
  cost); a coup in Saigon is its political points and its next-turn flag;
- the Allied player may move one South Vietnamese corps marker toward Allied Control (his choice of corps);
- everything else happens during the next turn: changed replacement points, extra Communist units at the next
  recruitment and flags that other rules read. They are returned as a :class:`NextTurn` record, since the
  position has no field for them yet.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from ..core import Dice, Resolution, implements
from ..core.dice import roll_die
from ..core.errors import RuleViolation
from .charts import Event, NtndCharts, charts_in_use, random_event
from .hearts_minds import CORPS
from .state import NtndState

@dataclass(frozen=True)
class NextTurn:
    """What an event leaves for the next turn (21.1): replacement points by pool (added to that turn's), Communist
    units gained at the next recruitment and where they go, and the flags other rules read
    (``no_svn_replacements``, ``laotian_intervention``, ``us_replacements_cost_pp``, ``no_allied_air_missions``)."""

    turn: int
    event: int | None = None
    replacements: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    communist_units: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    place: str = ""
    flags: frozenset[str] = frozenset()


def neutral_states(state: NtndState) -> tuple[str, ...]:
    return tuple(c for c, s in state.standing.items() if s == "neutral")


@implements("NT 21.1", "NT 21.2", "NT 3.2.8")
def roll_event(state: NtndState, dice: Dice, *, charts: NtndCharts | None = None,
               res: Resolution | None = None) -> Event | None:
    """The random events phase's roll (21.1): the Communist die (tens), then the Allied die (ones). None when
    the reading is 41-66, or the event cannot happen again (21.2)."""
    comm = roll_die(dice, 6, "NT 21.1 random event: Communist die (tens)")
    allied = roll_die(dice, 6, "NT 21.1 random event: Allied die (ones)")
    return random_event(comm, allied, occurred=state.events_occurred, neutral_states=neutral_states(state),
                        charts=charts_in_use(charts), res=res)


@implements("NT 21.1", "NT 21.2", "NT 10.5.2")
def apply_event(state: NtndState, event: Event | int | None, dice: Dice, *, corps: str | None = None,
                charts: NtndCharts | None = None, res: Resolution | None = None) -> tuple[NtndState, NextTurn]:
    """Apply an event (a chart :class:`Event` or its number; None: no event). Returns the new position and the
    record of what waits for the next turn. ``corps`` is the Allied player's choice of South Vietnamese corps
    for an event that moves a marker; it must be one whose marker can still move (None only when none can).
    An event that 21.2 rules out (once a game, or superseded) is refused."""
    c = charts_in_use(charts)
    nxt_turn = state.turn + 1
    if event is None:
        return state.copy(), NextTurn(nxt_turn)
    if isinstance(event, int):
        try:
            event = c.random_events.events[event]
        except KeyError:
            raise RuleViolation("NT 21.1", f"{event} is not a reading with an event (11-36)") from None
    if event.once and event.number in state.events_occurred:
        raise RuleViolation("NT 21.2", f"{event.number} ({event.name}) happens once a game and has happened")
    if event.void(neutral_states(state)):
        raise RuleViolation("NT 21.2", f"{event.number} ({event.name}) is superseded: "
                                       f"{event.effects['requires_neutral']} is no longer neutral")
    fx = event.effects
    note = res.add if res is not None else (lambda *a, **k: None)
    track = c.hearts_minds
    steps = fx.get("hearts_minds", 0)
    if steps:
        movable = [k for k in CORPS if k in state.hearts_minds
                   and track.shift(state.hearts_minds[k], steps, excess="lose")[1] == 0]
        if corps is None and movable:
            raise RuleViolation("NT 21.1", f"{event.name}: the Allied player names a corps to move "
                                           f"({', '.join(movable)})")
        if corps is not None and corps not in movable:
            raise RuleViolation("NT 21.1", f"{event.name}: the {corps} marker cannot move {steps} box(es); "
                                           f"choose one of {', '.join(movable) or 'none'}")
    new = state.copy()
    if event.once:
        new.events_occurred = state.events_occurred | {event.number}
    points = fx.get("political", 0)
    for k in range(-fx.get("political_dice", 0)):
        points -= roll_die(dice, 6, f"NT 21 {event.name}: political die {k + 1}")
    for k in range(fx.get("political_dice", 0)):
        points += roll_die(dice, 6, f"NT 21 {event.name}: political die {k + 1}")
    if points:
        new.track = state.track.add(points, state.policy, nxt_turn)
        note("NT 21.1", f"{event.name}: {points:+d} political points, track {state.track.points} -> "
                        f"{new.track.points}", result=points)
    coup = fx.get("coup", "")
    if coup in ("Laos", "Cambodia"):
        new.standing[coup] = "allied"
        note("NT 10.5.2", f"{event.name}: {coup} leaves neutrality and joins the Allies, at no political cost",
             result="allied")
    if steps and corps is not None:
        new.hearts_minds[corps] = track.shift(state.hearts_minds[corps], steps, rule="NT 21.1")[0]
        note("NT 21.1", f"{event.name}: the {corps} marker moves to {track.box(new.hearts_minds[corps]).name}",
             result=new.hearts_minds[corps])
    record = NextTurn(nxt_turn, event.number, MappingProxyType(dict(fx.get("replacements", {}))),
                      MappingProxyType(dict(fx.get("communist_units", {}))), fx.get("place", ""),
                      frozenset(fx.get("next_turn", ())))
    if record.replacements or record.communist_units or record.flags:
        note("NT 21.1", f"{event.name}, next turn: " + "; ".join(
            [f"{n:+d} {p} replacement point(s)" for p, n in record.replacements.items()]
            + [f"{n} {t} unit(s) at the next recruitment ({record.place})" for t, n in record.communist_units.items()]
            + sorted(f.replace("_", " ") for f in record.flags)), result=record)
    return new, record


def random_events_phase(state: NtndState, dice: Dice, *, corps: str | None = None,
                        charts: NtndCharts | None = None, res: Resolution | None = None
                        ) -> tuple[NtndState, NextTurn]:
    """The whole phase (3.2.8): roll, then apply. ``corps`` answers the choice an event may ask for (the game
    asks it after the roll, with :func:`roll_event` and :func:`apply_event` separately)."""
    event = roll_event(state, dice, charts=charts, res=res)
    return apply_event(state, event, dice, corps=corps, charts=charts, res=res)
