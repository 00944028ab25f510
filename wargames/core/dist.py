"""Exact probability distributions with :class:`fractions.Fraction`.

:func:`enumerate_outcomes` runs a dice-taking procedure once for every branch of
every roll it makes (depth first, by replaying a prefix of rolls) and adds up
the exact probability of each result. The procedure is the same code that runs
with :class:`~wargames.core.dice.RandomDice` or :class:`~wargames.core.dice.ScriptedDice`.
"""
from __future__ import annotations

import gc
import random
from collections import defaultdict
from fractions import Fraction
from dataclasses import dataclass
from itertools import product
from math import lcm
from typing import Any, Callable, Hashable, Iterable, Iterator, Mapping, Sequence


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
    roll branches once per class, weighted by its number of faces; the face handed back is the class's
    lowest. Other dice ignore ``classes``, so the procedure is the same code in every mode. Weights are whole
    numbers (faces) over the product of the sides rolled: no Fraction is made while enumerating.
    """

    def __init__(self, prefix: list[int], known: Sequence[list[tuple[int, int]]] = ()):
        self.prefix = prefix
        self.known = known
        self.choices: list[int] = []
        self.options: list[list[tuple[int, int]]] = []
        self.weight = 1
        self.den = 1

    def roll(self, sides: int = 6, why: str = "", classes: Callable[[int], Hashable] | None = None) -> int:
        k = len(self.choices)
        if k < len(self.known):
            # a replayed roll: the run that branched here already grouped this die's faces (the procedure is
            # deterministic given the earlier rolls), so its classes are not computed again
            opts = self.known[k]
        elif classes is None:
            opts = [(v, 1) for v in range(1, sides + 1)]
        else:
            groups: dict = {}
            for v in range(1, sides + 1):
                groups.setdefault(classes(v), []).append(v)
            opts = [(vs[0], len(vs)) for vs in groups.values()]
        choice = self.prefix[k] if k < len(self.prefix) else 0
        self.choices.append(choice)
        self.options.append(opts)
        face, n = opts[choice]
        self.weight *= n
        self.den *= sides
        return face


def enumerate_weights(procedure: Callable[..., Hashable], *args, **kwargs) -> tuple[dict, int]:
    """Every result of ``procedure(dice, *args, **kwargs)`` over all dice branches, with whole-number weights:
    returns ``({result: weight}, denominator)``, the weights summing to the denominator."""
    leaves: list = []
    stack: list = [([], ())]
    while stack:
        prefix, known = stack.pop()
        dice = _BranchDice(prefix, known)
        outcome = procedure(dice, *args, **kwargs)
        leaves.append((outcome, dice.weight, dice.den))
        for k in range(len(prefix), len(dice.choices)):
            for c in range(1, len(dice.options[k])):
                stack.append((dice.choices[:k] + [c], dice.options[:k + 1]))
    den = 1
    for _, _, d in leaves:
        if den % d:
            den = lcm(den, d)
    acc: dict = {}
    for outcome, w, d in leaves:
        acc[outcome] = acc.get(outcome, 0) + w * (den // d)
    return acc, den


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
    weights, den = enumerate_weights(procedure, *args, **kwargs)
    dist = Distribution({o: Fraction(w, den) for o, w in weights.items()})
    if memo:
        _CACHE[key] = dist
    return dist


@dataclass
class Parts:
    """A step made of independent parts, for :func:`enumerate_chain`.

    Each part is ``part(state, dice) -> value`` (a hashable value); it runs on its own copy of the state, and
    the parts must not depend on one another (say, two sides' fire in one round, both aimed from the position
    at the round's start and applied later). Their rolls are enumerated part by part and the results combined,
    so a step of two parts with m and n branches costs m + n runs instead of m x n. ``join(state, values)``
    then brings a copy of the state to where the whole step would have left it, rolling no dice.
    """

    parts: Sequence[Callable[[Any, Any], Hashable]]
    join: Callable[[Any, tuple], None] | None = None
    #: optional: the step goes on after the join, rolling dice (enumerated for each combination of the parts'
    #: values, on the joined state, without stopping to merge positions in between)
    then: Callable[[Any, Any], None] | None = None
    #: optional, instead of ``join``: ``build(state, values)`` returns a new joined state made without changing
    #: ``state`` (say, from a state a part reached, kept aside by the part), which saves a copy per combination
    build: Callable[[Any, tuple], Any] | None = None
    #: optional: for each part, a key holding everything that part reads, and a dict (kept by the caller for one
    #: enumeration) where a part's values and weights are remembered on its key, so that another state with
    #: the same key for that part does not enumerate it again
    keys: Sequence[Hashable] | None = None
    memo: dict | None = None
    #: optional: which combinations of the parts' values go on with ``then`` (by default all)
    then_when: Callable[[tuple], bool] | None = None
    #: optional: how a part's copy of the state is made (by default the chain's ``copy``), say a lighter copy
    #: of only what the parts change
    copy: Callable[[Any], Any] | None = None


#: A cache for pure queries made many times during an enumeration (say, where a unit may retreat from a
#: position): ``enumeration_memo(name)`` is a dict kept while the process lives, which callers key on every
#: input the query reads. :func:`clear_memo` empties it.
_MEMO: dict[str, dict] = {}
MEMO_LIMIT = 100_000


def enumeration_memo(name: str) -> dict:
    memo = _MEMO.setdefault(name, {})
    if len(memo) > MEMO_LIMIT:
        memo.clear()
    return memo


def clear_memo() -> None:
    _MEMO.clear()


def _shift(c: tuple, by: tuple) -> tuple:
    return tuple(x + y for x, y in zip(c, by)) if by else c


def _expand(state, step, key, copy, tally, parts) -> tuple[dict, int]:
    """One step from ``state``: {(key, counters): [a state reached, weight]} and the weights' denominator."""
    plan = parts(state) if parts is not None else None
    out: dict = {}
    if plan is None:
        seen: dict = {}

        def proc(dice):
            s2 = copy(state)
            step(s2, dice)
            kk = (key(s2), tally(s2) if tally else ())
            if kk not in seen:
                seen[kk] = s2
            return kk

        weights, den = enumerate_weights(proc)
        for kk, w in weights.items():
            out[kk] = [seen[kk], w]
        return out, den
    each = []
    den = 1
    memo = plan.memo if plan.keys is not None else None
    part_copy = plan.copy or copy
    for i, part in enumerate(plan.parts):
        known = memo.get((i, plan.keys[i])) if memo is not None else None
        if known is None:
            weights, d = enumerate_weights(lambda dice, part=part: part(part_copy(state), dice))
            known = (list(weights.items()), d)
            if memo is not None:
                memo[(i, plan.keys[i])] = known
        each.append(known[0])
        den *= known[1]
    then, build = plan.then, plan.build
    rest = 1
    for combo in product(*each):
        w = 1
        for _, wi in combo:
            w *= wi
        values = tuple(v for v, _ in combo)
        if then is None or (plan.then_when is not None and not plan.then_when(values)):
            if build is not None:
                s2 = build(state, values)
            else:
                s2 = copy(state)
                plan.join(s2, values)
            kk = (key(s2), tally(s2) if tally else ())
            entry = out.get(kk)
            if entry is not None:
                entry[1] += w * rest
            else:
                out[kk] = [s2, w * rest]
            continue
        seen: dict = {}

        def proc(dice):
            if build is not None:
                s2 = build(state, values)
            else:
                s2 = copy(state)
                plan.join(s2, values)
            then(s2, dice)
            kk = (key(s2), tally(s2) if tally else ())
            if kk not in seen:
                seen[kk] = s2
            return kk

        weights, d = enumerate_weights(proc)
        if rest % d or d % rest:            # bring every combination to one denominator
            common = lcm(rest, d)
            if common != rest:
                for v in out.values():
                    v[1] *= common // rest
                rest = common
        for kk, wk in weights.items():
            wk *= w * (rest // d)
            if kk in out:
                out[kk][1] += wk
            else:
                out[kk] = [seen[kk], wk]
    return out, den * rest


def enumerate_chain(start: Any, step: Callable[[Any, Any], None], key: Callable[[Any], Hashable],
                    done: Callable[[Any], bool], copy: Callable[[Any], Any], *,
                    tally: Callable[[Any], tuple] | None = None,
                    parts: Callable[[Any], Parts | None] | None = None) -> tuple[Distribution, dict]:
    """The exact distribution of a multi-step procedure, merging identical positions between steps.

    ``step(state, dice)`` advances a copy of a state by one step (its rolls are enumerated branch by branch);
    states with the same ``key`` are merged, so a procedure of many rounds costs (distinct states) x (branches
    of one step) instead of the product of every roll. The key must hold everything the later steps read.

    ``tally(state)`` (optional) gives whole-number counters (losses, points) that no later step reads: they
    are carried beside the key instead of in it, and merged positions keep the counters of each share of
    their probability, so positions that differ only in their counters are expanded once. ``parts(state)``
    (optional) may declare the next step as independent :class:`Parts`.

    Returns the distribution over the final keys (with a tally: over ``(final key, counters)``) and one
    representative final state per key. Probabilities are whole numbers over a common denominator until the
    end.

    The cyclic garbage collector is paused meanwhile: the enumeration makes many small short-lived objects,
    and each collection they set off would walk every object of the process again.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _enumerate_chain(start, step, key, done, copy, tally, parts)
    finally:
        if collecting:
            gc.enable()


def _enumerate_chain(start, step, key, done, copy, tally, parts) -> tuple[Distribution, dict]:
    t0 = tally(start) if tally else ()
    # key -> [representative, its counters, {offset from its counters: weight}]
    frontier: dict = {key(start): [start, t0, {tuple(0 for _ in t0): 1}]}
    den = 1
    final: dict = {}
    reps: dict = {}
    while frontier:
        expanded = []
        step_den = 1
        for k, (state, t, counts) in frontier.items():
            if done(state):
                reps.setdefault(k, state)
                for c, w in counts.items():
                    fk = (k, _shift(c, t))
                    final[fk] = final.get(fk, 0) + w       # over den, which later layers scale up
                continue
            branches, d = _expand(state, step, key, copy, tally, parts)
            if step_den % d:
                step_den = lcm(step_den, d)
            expanded.append((counts, branches, d))
        nxt: dict = {}
        for counts, branches, d in expanded:
            scale = step_den // d
            for (k2, t2), (s2, w) in branches.items():
                entry = nxt.get(k2)
                if entry is None:
                    entry = nxt[k2] = [s2, t2, {}]
                shift = tuple(x - y for x, y in zip(t2, entry[1])) if tally else ()
                acc = entry[2]
                ww = w * scale
                if any(shift):
                    for c, cw in counts.items():
                        c2 = _shift(c, shift)
                        acc[c2] = acc.get(c2, 0) + cw * ww
                else:
                    for c, cw in counts.items():
                        acc[c] = acc.get(c, 0) + cw * ww
        frontier = nxt
        if expanded:
            den *= step_den
            if step_den != 1:
                for fk in final:
                    final[fk] *= step_den
    probs = {fk: Fraction(w, den) for fk, w in final.items()}
    if tally:
        return Distribution(probs), reps
    return Distribution({k: p for (k, _), p in probs.items()}), reps
