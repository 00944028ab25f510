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
    """Replays a prefix of branch choices, then takes the first branch of every new roll.

    A roll is a die of ``sides`` equally likely faces. When the caller passes ``classes`` (a function of the
    face) and promises that faces of the same class lead to the same result, the faces are grouped and the
    roll branches once per class, weighted by its share of the faces; the face handed back is the class's
    lowest. Other dice ignore ``classes``, so the procedure is the same code in every mode.
    """

    def __init__(self, prefix: list[int]):
        self.prefix = prefix
        self.choices: list[int] = []
        self.options: list[list[tuple[int, Fraction]]] = []

    def roll(self, sides: int = 6, why: str = "", classes: Callable[[int], Hashable] | None = None) -> int:
        if classes is None:
            opts = [(v, Fraction(1, sides)) for v in range(1, sides + 1)]
        else:
            groups: dict = {}
            for v in range(1, sides + 1):
                groups.setdefault(classes(v), []).append(v)
            opts = [(vs[0], Fraction(len(vs), sides)) for vs in groups.values()]
        k = len(self.choices)
        choice = self.prefix[k] if k < len(self.prefix) else 0
        self.choices.append(choice)
        self.options.append(opts)
        return opts[choice][0]


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
        for choice, opts in zip(dice.choices, dice.options):
            p *= opts[choice][1]
        acc[outcome] += p
        for k in range(len(prefix), len(dice.choices)):
            for c in range(1, len(dice.options[k])):
                stack.append(dice.choices[:k] + [c])
    dist = Distribution(acc)
    if memo:
        _CACHE[key] = dist
    return dist


def enumerate_chain(start: Any, step: Callable[[Any, Any], None], key: Callable[[Any], Hashable],
                    done: Callable[[Any], bool], copy: Callable[[Any], Any]) -> tuple[Distribution, dict]:
    """The exact distribution of a multi-step procedure, merging identical states between steps.

    ``step(state, dice)`` advances a copy of a state by one step (its rolls are enumerated with
    :func:`enumerate_outcomes`); states with the same ``key`` are merged, so a procedure of many rounds costs
    (distinct states) x (branches of one step) instead of the product of every roll. Returns the
    distribution over the final keys and one representative final state per key.
    """
    frontier: dict = {key(start): (start, Fraction(1))}
    final: dict = defaultdict(Fraction)
    reps: dict = {}
    while frontier:
        nxt: dict = {}
        for k, (state, p) in frontier.items():
            if done(state):
                final[k] += p
                reps.setdefault(k, state)
                continue
            seen: dict = {}

            def proc(dice, _state=state):
                s2 = copy(_state)
                step(s2, dice)
                kk = key(s2)
                seen.setdefault(kk, s2)
                return kk

            for kk, q in enumerate_outcomes(proc).items():
                if kk in nxt:
                    nxt[kk] = (nxt[kk][0], nxt[kk][1] + p * q)
                else:
                    nxt[kk] = (seen[kk], p * q)
        frontier = nxt
    return Distribution(final), reps
