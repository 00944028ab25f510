"""Exact probability distributions with :class:`fractions.Fraction`.

:func:`enumerate_outcomes` runs a dice-taking procedure once for every branch of
every roll it makes (depth first, by replaying a prefix of rolls) and adds up
the exact probability of each result. The procedure is the same code that runs
with :class:`~wargames.core.dice.RandomDice` or :class:`~wargames.core.dice.ScriptedDice`.
"""
from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction
from typing import Any, Callable, Hashable, Iterable, Iterator, Mapping


class Distribution(Mapping):
    """Outcome -> exact probability. Probabilities are Fractions that sum to 1."""

    def __init__(self, probs: Mapping[Hashable, Fraction]):
        self._p = {k: Fraction(v) for k, v in probs.items() if v != 0}
        negative = [k for k, v in self._p.items() if v < 0]
        if negative:
            raise ValueError(f"negative probability for outcome {negative[0]!r}")
        total = sum(self._p.values(), Fraction(0))
        if total != 1:
            raise ValueError(f"probabilities sum to {total}, not 1")

    @classmethod
    def uniform(cls, outcomes: Iterable[Hashable]) -> "Distribution":
        outs = list(outcomes)
        acc: dict = defaultdict(Fraction)
        for o in outs:
            acc[o] += Fraction(1, len(outs))
        return cls(acc)

    def __getitem__(self, outcome) -> Fraction:
        return self._p.get(outcome, Fraction(0))

    def __contains__(self, outcome) -> bool:
        # Mapping's default would call __getitem__, which answers 0 for any outcome.
        return outcome in self._p

    def __iter__(self) -> Iterator:
        return iter(self._p)

    def __len__(self) -> int:
        return len(self._p)

    def prob(self, event: Callable[[Any], bool]) -> Fraction:
        """P(event): the total probability of the outcomes for which ``event`` is true."""
        return sum((p for o, p in self._p.items() if event(o)), Fraction(0))

    def map(self, f: Callable[[Any], Hashable]) -> "Distribution":
        acc: dict = defaultdict(Fraction)
        for o, p in self._p.items():
            acc[f(o)] += p
        return Distribution(acc)

    def expectation(self, f: Callable[[Any], Any] = lambda o: o) -> Fraction:
        return sum((p * Fraction(f(o)) for o, p in self._p.items()), Fraction(0))

    def sample(self, rng: random.Random):
        """Draw one outcome (for Monte Carlo comparisons)."""
        x = Fraction(rng.random())
        acc = Fraction(0)
        last = None
        for o, p in self._p.items():
            acc += p
            last = o
            if x < acc:
                return o
        return last

    def __repr__(self) -> str:
        body = ", ".join(f"{o!r}: {p}" for o, p in self._p.items())
        return f"Distribution({{{body}}})"


class _BranchDice:
    """Replays a prefix of rolls, then takes 1 for every new roll and records its die size."""

    def __init__(self, prefix: list[int]):
        self.prefix = prefix
        self.values: list[int] = []
        self.sides: list[int] = []

    def roll(self, sides: int = 6, why: str = "") -> int:
        k = len(self.values)
        value = self.prefix[k] if k < len(self.prefix) else 1
        self.values.append(value)
        self.sides.append(sides)
        return value


_CACHE: dict = {}


def enumerate_outcomes(procedure: Callable[..., Hashable], *args, memo: bool = False, **kwargs) -> Distribution:
    """The exact distribution of ``procedure(dice, *args, **kwargs)`` over all dice branches.

    The procedure's result must be hashable. With ``memo=True`` the distribution
    is cached on (procedure, args, kwargs), which must then be hashable too.
    """
    key = None
    if memo:
        key = (procedure, args, tuple(sorted(kwargs.items())))
        if key in _CACHE:
            return _CACHE[key]
    acc: dict = defaultdict(Fraction)
    stack: list[list[int]] = [[]]
    while stack:
        prefix = stack.pop()
        dice = _BranchDice(prefix)
        outcome = procedure(dice, *args, **kwargs)
        p = Fraction(1)
        for s in dice.sides:
            p /= s
        acc[outcome] += p
        for k in range(len(prefix), len(dice.values)):
            for v in range(2, dice.sides[k] + 1):
                stack.append(dice.values[:k] + [v])
    dist = Distribution(acc)
    if memo:
        _CACHE[key] = dist
    return dist
