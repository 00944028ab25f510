"""Comparing the four combat systems in one vocabulary (the book's part "Comparing the systems").

Each game's module here (:mod:`.citadel`, :mod:`.indochina`, :mod:`.fte`, :mod:`.ntnd`) maps one attack on a
fortified position onto its own game's combat procedure and turns the exact distribution that procedure gives
into a distribution of :class:`Verdict`: who holds the position at the end, what share of each force was lost,
and what became of each side. Nothing here rolls a die: every figure comes from the games' exact enumeration.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Sequence

from ..core import Distribution, Resolution

#: What became of one side at the end of a combat, from the mildest to the worst. ``suppressed`` covers every
#: state that keeps a unit in place but stops it acting (pinned, disrupted, shaken).
FATES = ("stands", "suppressed", "retreats", "routed", "eliminated")


@dataclass(frozen=True, order=True)
class Verdict:
    """One combat's end, in words the four systems share."""

    taken: bool                 # the attacker holds the position at the end
    attacker_loss: Fraction     # share of the attacking force lost, 0 to 1 (steps, strength points or men)
    defender_loss: Fraction
    attacker_fate: str = "stands"   # one of FATES
    defender_fate: str = "stands"

    def __post_init__(self):
        for name in ("attacker_loss", "defender_loss"):
            v = getattr(self, name)
            if not 0 <= v <= 1:
                raise ValueError(f"{name} must be a share between 0 and 1, not {v}")
        for name in ("attacker_fate", "defender_fate"):
            if getattr(self, name) not in FATES:
                raise ValueError(f"{name} must be one of {FATES}, not {getattr(self, name)!r}")

    @property
    def attacker_wiped(self) -> bool:
        """The whole attacking force is gone."""
        return self.attacker_loss == 1 or self.attacker_fate == "eliminated"

    @property
    def no_effect(self) -> bool:
        """Nothing happened: no loss, no change of hands, both sides as they were."""
        return (not self.taken and self.attacker_loss == 0 and self.defender_loss == 0
                and self.attacker_fate == "stands" and self.defender_fate == "stands")


@dataclass(frozen=True)
class Engagement:
    """One system's version of the common engagement: the mapping choices made, and the exact outcome."""

    game: str                       # "citadel", "indochina", "fte" or "ntnd"
    title: str                      # what is fought, in the game's own terms
    mapping: tuple[str, ...]        # each choice made to fit the engagement to the game's scale, with rule ids
    dist: Distribution              # over Verdict
    force: str = ""                 # what "the force" is counted in for the loss shares


@dataclass(frozen=True)
class Summary:
    """The headline figures of a distribution of :class:`Verdict` (exact Fractions)."""

    taken: Fraction
    attacker_loss: Fraction         # expected share lost
    defender_loss: Fraction
    attacker_wiped: Fraction
    no_effect: Fraction
    defender_fates: dict = field(default_factory=dict)     # fate -> probability
    attacker_fates: dict = field(default_factory=dict)


def summarise(dist: Distribution) -> Summary:
    """The headline figures of ``dist``, a distribution of :class:`Verdict`."""
    for v in dist:
        if not isinstance(v, Verdict):
            raise TypeError(f"a comparison distribution holds Verdicts, not {type(v).__name__}")
    return Summary(
        taken=dist.prob(lambda v: v.taken),
        attacker_loss=dist.expectation(lambda v: v.attacker_loss),
        defender_loss=dist.expectation(lambda v: v.defender_loss),
        attacker_wiped=dist.prob(lambda v: v.attacker_wiped),
        no_effect=dist.prob(lambda v: v.no_effect),
        defender_fates={f: dist.prob(lambda v, f=f: v.defender_fate == f) for f in FATES},
        attacker_fates={f: dist.prob(lambda v, f=f: v.attacker_fate == f) for f in FATES},
    )


#: The rows of the common table and charts: (label, how to read it from a Summary).
MEASURES: tuple[tuple[str, Callable[[Summary], Fraction]], ...] = (
    ("position taken", lambda s: s.taken),
    ("defender retreats or routs", lambda s: s.defender_fates["retreats"] + s.defender_fates["routed"]),
    ("defender suppressed", lambda s: s.defender_fates["suppressed"]),
    ("attacker falls back or routs", lambda s: s.attacker_fates["retreats"] + s.attacker_fates["routed"]),
    ("attacker wiped out", lambda s: s.attacker_wiped),
    ("no effect", lambda s: s.no_effect),
    ("attacker loss (mean share)", lambda s: s.attacker_loss),
    ("defender loss (mean share)", lambda s: s.defender_loss),
)


def measures(dist: Distribution) -> dict[str, Fraction]:
    """Every row of :data:`MEASURES` for ``dist``: label -> exact figure."""
    s = summarise(dist)
    return {label: f(s) for label, f in MEASURES}


@dataclass(frozen=True)
class Curve:
    """How one figure moves as one input of a system changes: the points of a sensitivity chart."""

    game: str
    label: str                      # what is varied, in the game's terms
    xs: tuple                       # the force ratio (attacker to defender), as Fractions
    ys: tuple                       # P(position taken), exact
    step: bool = False              # a step function (an odds table's columns) rather than a smooth curve

    def __post_init__(self):
        if len(self.xs) != len(self.ys):
            raise ValueError("a curve needs one y for each x")


@dataclass(frozen=True)
class Worth:
    """What one more of something (a column shift, a modifier, a unit, a morale point) adds to P(taken),
    at each force ratio of a :class:`Curve`."""

    game: str
    label: str                      # "one column shift", "one DRM", "one more unit", "one morale point"
    xs: tuple
    deltas: tuple                   # P(taken) with it minus P(taken) without it, exact


@dataclass(frozen=True)
class HistoryCase:
    """A real engagement a game covers, what happened, and what the game's engine gives."""

    game: str
    title: str                      # e.g. "Béatrice, 13 March 1954"
    happened: str                   # what happened, in a sentence or two
    sources: tuple[str, ...]        # the historical works the facts come from
    setting: str                    # how the engagement is set up in the game (scenario, units, rule ids)
    outcome: str                    # the historical outcome, in the game's terms
    p_historical: Fraction          # the engine's exact probability of that outcome
    change: str                     # what would have had to change for the other outcome
    p_changed: Fraction             # the engine's probability of the historical outcome after that change


@dataclass(frozen=True)
class Example:
    """One combat resolved with the printed or chosen dice, with every step the engine records."""

    game: str
    title: str
    resolution: Resolution


def percent(p: Fraction, digits: int = 1) -> str:
    """A probability as a percentage for prose and tables: ``Fraction(1, 3)`` -> ``"33.3%"``."""
    return f"{float(p) * 100:.{digits}f}%"


def games() -> Sequence[str]:
    """The four systems, in the book's order."""
    return ("citadel", "indochina", "fte", "ntnd")
