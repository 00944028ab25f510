"""NT 22: the political point ledger, what each political phase adds to or takes from the Allied total.

The awards are the chart's (``charts.political_points``, NT 22.4) with the timings of its legend (NT 22.3):

- immediate items (*) move the track when they happen: :func:`immediate_points` prices an elimination or a
  replacement;
- the political phase items are totalled by :func:`ledger`: in the Communist phase only the *** items (those
  against the Allies), in the Allied phase the ** and the *** items; items marked ^ are not counted for a
  neutral state that is still neutral, and Saigon's -25 replaces its city's -2 (^^);
- :func:`end_political_phase` adds the total to the track (with the bounds of 24.2.10, :class:`PoliticalTrack`)
  and makes the sudden-death check (22.4).

Only the six Hearts and Minds areas (the four corps, Laos and Cambodia) are scored: North Vietnam has no marker and
its towns are not among the "corps/countries" of 22.4.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..core import Resolution, implements
from ..core.errors import DataError, RuleViolation
from .charts import NtndCharts, PoliticalItem, charts_in_use, political_phase_items
from .hearts_minds import allied_hold_all, holder, holds_for_politics, settlements
from .politics import Policy
from .state import NtndState
from .units import Counter

PHASES = ("communist", "allied")
SAIGON = "Saigon"
@dataclass(frozen=True)
class Award:
    """One line of the ledger: a chart item, where it applies, how many times, and the signed points."""

    item: str
    area: str | None
    count: int
    points: int
    reason: str

    def __str__(self) -> str:
        return f"{self.points:+d}  {self.reason}"


@dataclass(frozen=True)
class Ledger:
    phase: str
    awards: tuple[Award, ...]

    @property
    def total(self) -> int:
        return sum(a.points for a in self.awards)

    def by_item(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for a in self.awards:
            out[a.item] = out.get(a.item, 0) + a.points
        return out

    def text(self) -> str:
        return "\n".join(str(a) for a in self.awards) + f"\n{self.total:+d}  total ({self.phase} political phase)"


# ------------------------------------------------------------------------------------------- the area questions

def _still_neutral(state: NtndState, area: str) -> bool:
    return state.standing.get(area) == "neutral"


def _communists(state: NtndState, area: str) -> list[str]:
    return state.units("communist", area=area)


def _count(state: NtndState, area: str, item: PoliticalItem, saigon_item: str | None,
           c: NtndCharts) -> tuple[int, str]:
    """How many times an item counts in an area, and what it counted."""
    name = item.name
    box = state.hearts_minds.get(area)
    if name in ("area_pro_allied", "area_allied_control", "area_pro_communist", "area_communist_control"):
        if box is None:
            return 0, ""
        wanted = {"area_pro_allied": ("allied", 1), "area_allied_control": ("allied", 2),
                  "area_pro_communist": ("communist", 1), "area_communist_control": ("communist", 2)}[name]
        b = c.hearts_minds.box(box)
        return int((b.side, b.level) == wanted), f"marker {b.name}"
    if name == "all_towns_allied":
        return int(allied_hold_all(state, area)), "Allied units hold every town and city"
    if name == "no_communist_units":
        return int(not _communists(state, area)), "no Communist unit at all"
    if name == "only_inverted_communists":
        units = _communists(state, area)
        ok = bool(units) and all(not state.piece(u).face_up for u in units if state.counter(u).type != "supply")
        return int(ok), "only inverted Communist units (supply units aside)"
    if name in ("town_held_by_communists", "city_held_by_communists"):
        kind = "town" if name.startswith("town") else "city"
        held = [label for label, k in settlements(state, area).items()
                if k == kind and holder(state, label) == "communist"
                and not (saigon_item and state.geography.name(state.geography.hex(label)) == SAIGON)]
        names = [state.geography.name(state.geography.hex(label)) for label in held]
        return len(held), f"{kind}{'s' if len(held) > 1 else ''} held by face-up Communist units: {', '.join(names)}"
    if name == "saigon_held_by_communists":
        g = state.geography
        try:
            h = g.place(SAIGON)
        except KeyError:
            return 0, ""
        held = g.area(h) == area and holder(state, g.label(h)) == "communist"
        return int(held), "Saigon held by face-up Communist units (instead of its city penalty)"
    raise DataError("political_points.yaml", f"items.{name}", "no rule of the ledger counts this item")


# ------------------------------------------------------------------------------------------- the ledger

@implements("NT 22.1", "NT 22.2", "NT 22.3", "NT 22.4", "NT 22.4 Note", "NT 7.3.2", "NT 7.4.2", "NT 8.9.1")
def ledger(state: NtndState, phase: str, *, charts: NtndCharts | None = None) -> Ledger:
    """Every award of a political phase for this position: ``phase`` is ``"communist"`` (only *** items) or
    ``"allied"`` (** and *** items), per 22.3 and 3.1.7/3.2.7. Items marked ^ skip a state that is still
    neutral; a Communist-held Saigon costs -25 instead of its -2 as a city (^^). Towns count as held only by
    face-up Communist units, never by guerrillas abroad (8.9.1)."""
    if phase not in PHASES:
        raise RuleViolation("NT 22.3", f"a political phase is {PHASES[0]!r} or {PHASES[1]!r}, not {phase!r}")
    c = charts_in_use(charts)
    items = political_phase_items(phase, charts=c)
    replaced = {it.instead_of for it in items if it.instead_of}
    areas = c.hearts_minds.areas
    awards = []
    for it in items:
        if it.per == "unit":
            raise DataError("political_points.yaml", f"items.{it.name}", "a per-unit award is immediate (*), "
                                                                         "not a political-phase item")
        for area in areas:
            if it.not_if_neutral and _still_neutral(state, area):
                continue
            saigon = "saigon_held_by_communists" if it.name in replaced else None
            n, what = _count(state, area, it, saigon, c)
            if n:
                awards.append(Award(it.name, area, n, n * it.points, f"{area}: {what or it.meaning or it.name}"))
    return Ledger(phase, tuple(awards))


@implements("NT 22.4", "NT 3.1.7", "NT 3.2.7")
def end_political_phase(state: NtndState, phase: str, *, charts: NtndCharts | None = None,
                        res: Resolution | None = None) -> tuple[NtndState, str | None]:
    """Add the phase's ledger to the track (the bounds of 24.2.10 apply to the net total) and make the
    sudden-death check of 22.4. Returns the new position and the winner, if any."""
    book = ledger(state, phase, charts=charts)
    new = state.copy()
    new.track = state.track.add(book.total, state.policy, state.turn)
    note = res.add if res is not None else (lambda *a, **k: None)
    for a in book.awards:
        note("NT 22.4", a.reason, result=a.points, item=a.item, area=a.area, count=a.count)
    note("NT 22.4", f"{phase} political phase: {book.total:+d}; track {state.track.points} -> {new.track.points}",
         arithmetic=f"{state.track.points} {book.total:+d}", result=new.track.points)
    winner = new.track.winner(state.policy)
    if winner:
        note("NT 22.4", f"the track stands at {new.track.points}: the {winner} player wins", result=winner)
    return new, winner


# ------------------------------------------------------------------------------------------- immediate items

#: eliminations that earn no points: dummies (17.2), units spent on Hearts and Minds (7.4, 28.4.2), deserters
#: (25.3), uprising units that fail to be placed (7.3.4, 26.8), stranded guerrillas and militia (8.9.1), units
#: removed with their Green Beret (15.2.3.2)
NO_POINTS = {"hearts_minds": "NT 7.4", "desertion": "NT 25.3", "failed_placement": "NT 26.8",
             "stranded": "NT 8.9.1", "green_beret_lost": "NT 15.2.3.2"}
EVENTS = ("eliminated", "replaced")


@implements("NT 22.4", "NT 4.2.3", "NT 17.2", "NT 25.3", "NT 26.8", "NT 8.9.1", "NT 15.2.3.2")
def immediate_points(event: str, unit: Counter, *, cause: str = "combat", policy: Policy = Policy(),
                     next_turn: Iterable[str] = (), charts: NtndCharts | None = None) -> Award:
    """The points an elimination or a replacement moves the track by at once (22.4, items marked *).

    ``eliminated``: +1 for a Communist unit other than supply, -1 for an Allied unit; nothing for a dummy, or when
    ``cause`` is one of :data:`NO_POINTS`. ``replaced`` (bought back from the dead pile): the political cost of
    :meth:`Policy.replacement_pp` (US 2, 0 under Full Vietnamization, 3 after a reversal; SEATO 2, 1 under Full
    Vietnamization); a random event's ``us_replacements_cost_pp`` flag charges the chart's 2 for a US unit
    that would otherwise cost nothing."""
    items = charts_in_use(charts).political_points.items
    if event == "eliminated":
        if cause != "combat" and cause not in NO_POINTS:
            raise ValueError(f"cause is 'combat' or one of {sorted(NO_POINTS)}, not {cause!r}")
        if cause in NO_POINTS:
            return Award("", None, 0, 0, f"{unit.id} eliminated ({cause.replace('_', ' ')}, {NO_POINTS[cause]}): "
                                         f"no points")
        if unit.side == "communist":
            if unit.type in ("supply", "dummy"):
                return Award("", None, 0, 0, f"{unit.id} ({unit.type}) eliminated: no points")
            it = items["communist_unit_eliminated"]
        else:
            it = items["allied_unit_eliminated"]
        return Award(it.name, None, 1, it.points, f"{unit.id} eliminated")
    if event == "replaced":
        if unit.side != "allied":
            raise RuleViolation("NT 4.2.3", f"{unit.id} is not an Allied unit; only Allied units are replaced")
        seato = unit.seato
        if unit.nationality != "US" and not seato:
            return Award("", None, 0, 0, f"{unit.id} replaced: no political cost")
        cost = policy.replacement_pp(unit.nationality)
        it = items["seato_unit_replaced" if seato else "us_unit_replaced"]
        if unit.nationality == "US" and cost == 0 and "us_replacements_cost_pp" in set(next_turn):
            cost = -it.points
            return Award(it.name, None, 1, -cost, f"{unit.id} replaced: a random event charges {cost} points")
        return Award(it.name, None, 1, -cost, f"{unit.id} replaced: {cost} political point(s)")
    raise ValueError(f"event is one of {EVENTS}, not {event!r}")


@implements("NT 22.3")
def apply_immediate(state: NtndState, award: Award, res: Resolution | None = None) -> NtndState:
    """Move the track at once by an immediate award (22.3); no victory check until the phase ends (22.4)."""
    new = state.copy()
    _move_track(new, award, res)
    return new


def score_loss(state: NtndState, unit: str, *, cause: str = "combat", res: Resolution | None = None) -> None:
    """22.3: an eliminated unit (a ground unit or an aircraft) moves the track at once by its 22.4 award.
    In place, on a state the caller owns; the unit may already be off the map."""
    award = immediate_points("eliminated", state.counter(unit), cause=cause, policy=state.policy)
    if award.points:
        _move_track(state, award, res)


def _move_track(state: NtndState, award: Award, res: Resolution | None) -> None:
    before = state.track
    state.track = before.add(award.points, state.policy, state.turn)
    if res is not None:
        res.add("NT 22.3", f"{award.reason}: track {before.points} -> {state.track.points}", result=award.points)


# ------------------------------------------------------------------------------------------- 4.5.1 helper

def town_points(state: NtndState, area: str, *, combat_only: bool = True) -> int:
    """Towns (1) and cities (2) of an area held by face-up Communist units: the count of 4.5.1 (combat units
    only, as that rule says) and of the 22.4 occupation items (any face-up unit)."""
    total = 0
    for label, kind in settlements(state, area).items():
        if any(state.side_of(u) == "communist" and state.piece(u).face_up and holds_for_politics(state, u)
               and (not combat_only or state.counter(u).ground_combat) for u in state.at(label)):
            total += 2 if kind == "city" else 1
    return total
