"""Rule 24: who won. Military, Political and Decisive Victory, the Draw, and the Geneva ceasefire.

The functions take plain inputs (who holds each city and town, the two political indexes) so they can be
used with any map. Our readings of the catalog's open questions:

- only cities and towns **in Indochina** (Vietnam, Laos, Cambodia) count for a Military Victory: Chinese
  cities are always Communist and the FEF could never win otherwise (catalog B5 #13);
- an index at 0 or below while the other is at 1 or more ends the game at once in a Decisive Victory;
  both at 0 or below together is a Draw (B5 #12);
- a World War Three event (29.5) means both players lose.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable

from ..core import Resolution, implements
from ..core.errors import RuleViolation
from .combat import Side

INDOCHINA = ("Vietnam", "Laos", "Cambodia")
TOWN_SHARE = Fraction(51, 100)      # 24.1(1)[2]
POLITICAL_MARGIN = 60               # 24.1(2)


@dataclass(frozen=True)
class Place:
    """A city or town, its country, and the side occupying it (with units or militia), if any."""

    name: str
    kind: str                        # "city" or "town"
    holder: Side | None
    country: str = "Vietnam"

    def __post_init__(self) -> None:
        if self.kind not in ("city", "town"):
            raise RuleViolation("IC 24.1", f"{self.name} must be a city or a town, not {self.kind!r}")


@dataclass
class Outcome:
    level: str                       # "Decisive", "Political", "Military", "Draw", "Both lose"
    winner: Side | None
    military: Side | None = None
    political: Side | None = None
    log: Resolution = field(default_factory=Resolution)


@implements("IC 24.1")
def military_victory(places: Iterable[Place], side: Side, *, count_chinese_cities: bool = False,
                     res: Resolution | None = None) -> bool:
    """24.1(1): the side occupies every city and at least 51% of the towns in Indochina."""
    res = res if res is not None else Resolution()
    places = list(places)
    cities = [p for p in places if p.kind == "city" and (p.country in INDOCHINA or count_chinese_cities)]
    towns = [p for p in places if p.kind == "town" and p.country in INDOCHINA]
    cities_held = [p for p in cities if p.holder is side]
    towns_held = [p for p in towns if p.holder is side]
    all_cities = bool(cities) and len(cities_held) == len(cities)
    share = Fraction(len(towns_held), len(towns)) if towns else Fraction(0)
    enough_towns = bool(towns) and share >= TOWN_SHARE
    res.add("IC 24.1", f"{side.value}: {len(cities_held)} of {len(cities)} cities, {len(towns_held)} of {len(towns)} "
            f"towns ({float(share):.0%}, 51% needed): " + ("Military Victory" if all_cities and enough_towns else "no"),
            arithmetic=f"{len(towns_held)}/{len(towns)} >= 51/100", result=all_cities and enough_towns)
    return all_cities and enough_towns


@implements("IC 24.1")
def political_victory(fef: int, communist: int) -> Side | None:
    """24.1(2): the side with at least 60 more political points than the other."""
    if fef - communist >= POLITICAL_MARGIN:
        return Side.FEF
    if communist - fef >= POLITICAL_MARGIN:
        return Side.COMMUNIST
    return None


@implements("IC 24.1")
def collapse(fef: int, communist: int) -> Outcome | None:
    """24.1(3)(a) and 24.1(4)(c), checked after every change of the indexes: one index at 0 or less while
    the other has at least 1 ends the game in a Decisive Victory for the other; both at once is a Draw."""
    res = Resolution()
    if fef <= 0 and communist <= 0:
        res.add("IC 24.1", f"both indexes fell to 0 or less together ({fef}, {communist}): Draw")
        return Outcome("Draw", None, log=res)
    for loser, mine, theirs in ((Side.FEF, fef, communist), (Side.COMMUNIST, communist, fef)):
        if mine <= 0 and theirs >= 1:
            res.add("IC 24.1", f"the {loser.value} index is {mine}: the game ends, Decisive Victory for the "
                    f"{loser.enemy.value} player")
            return Outcome("Decisive", loser.enemy, log=res)
    return None


@implements("IC 24.0", "IC 24.1", "IC 29.5")
def victory(places: Iterable[Place], fef: int, communist: int, *, world_war_three: bool = False,
            count_chinese_cities: bool = False) -> Outcome:
    """The result at the end of the game (or of a ceasefire).

    Both Military and Political Victory for one side is Decisive; Military for one and Political for the
    other, or neither, is a Draw; one of them alone is that level of victory (24.1). World War Three means
    both lose (29.5).
    """
    if world_war_three:
        res = Resolution()
        res.add("IC 29.5", "World War Three broke out: both players lose")
        return Outcome("Both lose", None, log=res)
    early = collapse(fef, communist)
    if early is not None:
        return early
    res = Resolution()
    places = list(places)
    mil = [s for s in (Side.FEF, Side.COMMUNIST)
           if military_victory(places, s, count_chinese_cities=count_chinese_cities, res=res)]
    military = mil[0] if len(mil) == 1 else None
    political = political_victory(fef, communist)
    res.add("IC 24.1", f"political indexes FEF {fef}, Communist {communist}: "
            + (f"Political Victory for the {political.value} player" if political else "no side leads by 60"),
            arithmetic=f"{fef} - {communist} = {fef - communist}")
    if military and political and military is political:
        level, winner = "Decisive", military
    elif military and political:
        level, winner = "Draw", None
    elif military or political:
        level, winner = ("Military", military) if military else ("Political", political)
    else:
        level, winner = "Draw", None
    res.add("IC 24.1", f"{level}" + (f" Victory for the {winner.value} player" if winner else ""), result=level)
    return Outcome(level, winner, military, political, res)


@implements("IC 24.2")
def ceasefire(geneva_talks: bool, fef_agrees: bool, communist_agrees: bool, places: Iterable[Place],
              fef: int, communist: int, **kw) -> Outcome | None:
    """24.2: while a Geneva Talks event is in effect both players may agree to end the game; victory is then
    judged at once. Without both agreeing the game goes on (None)."""
    if not geneva_talks:
        raise RuleViolation("IC 24.2", "a ceasefire may be agreed only while a Geneva Talks event is in effect")
    if not (fef_agrees and communist_agrees):
        return None
    out = victory(places, fef, communist, **kw)
    log = Resolution()
    log.add("IC 24.2", "both players agree to a ceasefire: the game ends now")
    log.extend(out.log)
    out.log = log
    return out
