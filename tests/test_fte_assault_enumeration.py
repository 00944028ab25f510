"""How the exact enumeration of an FTE assault (F 8.0) is made fast, each shortcut against the plain procedure.

A fire round's two parts settle the dice of applying their own hits where they can and are remembered on what
they read; the join applies the settled hits with no die to a light copy. Here the distributions so made equal
those of the joint path (both sides' hits applied together after the join, with their dice, as in play), on
cases where the two sides' retreats can meet, and the fallbacks are seen to be taken.
"""
import gc
import importlib.util
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from wargames.core.dist import Parts, _BranchDice, enumerate_chain, enumerate_weights
from wargames.fte import assault as fte_assault
from wargames.fte.assault import AssaultRun, assault_distribution, start

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("fte_assault_cases", ROOT / "tools" / "fte_assault_cases.py")
cases = sys.modules.setdefault(_spec.name, importlib.util.module_from_spec(_spec))
if not hasattr(cases, "CASES"):
    _spec.loader.exec_module(cases)
BY_NAME = {c[0]: c for c in cases.CASES}


def _joint_only(self):
    """round_parts as before the settled parts: both sides' hits applied after the join, with their dice."""
    if self.phase != "attackers" or self.state.sites or any(u.fort for u in self.state.units.values()):
        return None
    return self._joint_parts()


def _distribution(name):
    _, position, reading, plan = BY_NAME[name]
    return dict(assault_distribution(cases.position(position, reading), plan)[0])


@pytest.mark.rule("F 8.0", "F 7.4")
@pytest.mark.parametrize("name", ["book errata combined at US FT 19.19", "book original separate at US FT 20.20",
                                  "two defenders", "two defenders, one attacker, separate", "apc",
                                  "leader's stack", "sapper, separate"])
def test_settled_parts_give_the_joint_distribution(name, monkeypatch):
    """Both sides break in one round in these cases (the defenders retreat first, then the attackers, whose
    paths the defenders' new hexes may block), with separate fire, two defenders, a vehicle and a sapper."""
    fast = _distribution(name)
    monkeypatch.setattr(AssaultRun, "round_parts", _joint_only)
    assert _distribution(name) == fast


@pytest.mark.rule("F 8.0", "F 7.4")
def test_rounds_where_both_sides_break_are_joined(monkeypatch):
    """The case the joint path guards: in one round the defender breaks and retreats, then an attacker breaks
    and retreats from the position the defender's retreat left."""
    both = []
    round_parts = AssaultRun.round_parts

    def spy(self):
        parts = round_parts(self)
        if parts is not None and parts.build is not None:
            build = parts.build

            def watched(run, values):
                new = build(run, values)
                (_, ours), (_, theirs) = values
                hit = [h[0] for h in theirs if h[1] == "B"]
                if any(h[1] == "B" for h in ours) and hit:
                    both.append((new, hit[0]))
                return new

            parts.build = watched
        return parts

    monkeypatch.setattr(AssaultRun, "round_parts", spy)
    _distribution("book errata combined at US FT 19.19")
    assert both and all(r.state.units["NVA FT"].broken and r.state.units[us].broken for r, us in both)
    assert any(r.state.units["NVA FT"].hex not in (None, r.hex) and r.state.units[us].on_map for r, us in both)


def _settled_kinds(name, monkeypatch):
    kinds = []
    settle = AssaultRun._settle

    def spy(self, hits, dice, *, distinct):
        value = settle(self, hits, dice, distinct=distinct)
        kinds.append((distinct, value[0], tuple(h[1] for h in hits)))
        return value

    monkeypatch.setattr(AssaultRun, "_settle", spy)
    _distribution(name)
    return kinds


@pytest.mark.rule("F 8.0")
def test_hits_whose_dice_cannot_be_settled_stay_pending(monkeypatch):
    # two defenders firing at one attacker: a second hit on it reads what the first did there
    kinds = _settled_kinds("two defenders", monkeypatch)
    assert any(d and kind == "pending" and len(effects) == 2 for d, kind, effects in kinds)
    assert any(d and kind == "settled" for d, kind, _ in kinds)
    # a vehicle's hits roll for its passengers: never settled
    kinds = _settled_kinds("apc", monkeypatch)
    assert any(d and kind == "pending" for d, kind, _ in kinds)
    # the attackers' hits are settled even when two land on the same defender (they are applied first)
    kinds = _settled_kinds("book errata separate at US FT 19.19", monkeypatch)
    assert any(not d and kind == "settled" and len(effects) == 2 for d, kind, effects in kinds)


@pytest.mark.rule("F 8.0", "F 21.0")
def test_fire_at_retreating_units_takes_the_joint_path():
    _, position, reading, plan = BY_NAME["pair, one attacker, retreat fire"]
    run = start(cases.position(position, reading), plan)
    run.__dict__["_before"] = frozenset()
    from wargames.core.dice import ScriptedDice
    dice = ScriptedDice([1, 1])                     # TQ check passed; reveal rolls nothing
    while run.phase != "attackers":
        run.step(dice)
    parts = run.round_parts()
    assert parts.build is None and parts.then == AssaultRun.step
    plain = start(cases.position("example", "errata"), cases.PRINTED)
    plain.__dict__["_before"] = frozenset()
    while plain.phase != "attackers":
        plain.step(ScriptedDice([1, 1]))
    assert plain.round_parts().build is not None


@pytest.mark.rule("F 8.0")
def test_a_settled_check_whose_target_the_attackers_changed_is_refused():
    """The defenders' settled checks were rolled on the round's start; the join refuses to use them on a target
    the attackers' hits changed (it never happens: the attackers hit only defenders)."""
    run = start(cases.position("example", "errata"), cases.PRINTED)
    run.__dict__.update(_before=frozenset(), _parts_memo={})
    from wargames.core.dice import ScriptedDice
    while run.phase != "attackers":
        run.step(ScriptedDice([1, 1]))
    parts = run.round_parts()
    us = "US FT 19.19"
    ours = ("settled", ((us, "S", run.hex, "US"),))            # as if the attackers' hit had landed on 19.19
    theirs = ("settled", ((us, "WIA", run.hex, "NVA/VC"),))
    for i, value in ((0, ours), (1, theirs)):                 # the rounds shown need a record of each value
        run.__dict__["_parts_memo"]["records"].setdefault(parts.keys[i], {})[value] = []
    with pytest.raises(AssertionError, match="changed US FT 19.19"):
        parts.build(run, (ours, theirs))


def test_finished_runs_are_keyed_on_their_result_alone():
    s = cases.position("example", "errata")
    run = start(s, cases.PRINTED)
    run.__dict__["_before"] = frozenset()
    run.in_assault = ["US FT 20.20", "US FT 19.19"]
    run.round = 3
    a, b = run.copy(), run.copy()
    a.phase = b.phase = "done"
    a.result = b.result = "repulsed"
    b.state.units["US FT 19.19"].hex = None
    assert a.position_key() == b.position_key() == ("done", "repulsed")
    a.phase = b.phase = "finish"                  # no advance after a repulse: nothing left to read
    assert a.position_key() == b.position_key()
    a.result = b.result = "cleared"               # the defender is still there: no advance either
    assert a.position_key() == b.position_key()
    for r in (a, b):
        r.state.units["NVA FT"].hex = None        # an empty hex is advanced into: who goes in matters
    assert a.position_key() != b.position_key()
    b.state.units["US FT 19.19"].hex = a.state.units["US FT 19.19"].hex
    b.state.units["US FT 19.19"].men = 3          # not how many men: the advance reads no more of them...
    assert a.position_key() == b.position_key()
    for r in (a, b):
        r.state.booby_traps[r.hex] = "NVA/VC"     # ...unless a booby trap waits in the hex (F 26.0)
    assert a.position_key() != b.position_key()


def test_light_copies_share_only_what_the_hits_leave_alone():
    s = cases.position("example", "errata")
    c = s.copy_for({"NVA FT"})
    assert c.units["NVA FT"] is not s.units["NVA FT"] and c.units["NVA FT"] == s.units["NVA FT"]
    assert c.units["US Ldr"] is s.units["US Ldr"]
    assert c.units is not s.units and c.casualties is not s.casualties and c.vp is not s.vp
    assert c.cup is not s.cup and c.cup.chits is not s.cup.chits
    c.units["NVA FT"].men = 1
    c.vp["US"] = 9
    assert s.units["NVA FT"].men == 4 and s.vp["US"] == 0


# ------------------------------------------------------------------ the core enumeration's shortcuts

def _two_dice(dice):
    a = dice.roll(6, classes=lambda v: v > 4)
    b = dice.roll(6, classes=lambda v: v % 3)
    return (a > 4, b % 3)


def test_replayed_rolls_reuse_their_grouped_faces():
    calls = []

    def proc(dice):
        a = dice.roll(6, classes=lambda v: calls.append(v) or v > 4)
        b = dice.roll(6, classes=lambda v: v % 3)
        return (a > 4, b % 3)

    weights, den = enumerate_weights(proc)
    assert den == 36 and sum(weights.values()) == 36
    assert weights == {(a, b): (2 if a else 4) * 2 for a in (True, False) for b in (0, 1, 2)}
    assert len(calls) == 6                         # the first die's classes computed once, not once per branch
    d = _BranchDice([1, 0], known=[[(1, 4), (5, 2)]])
    assert d.roll(6, classes=lambda v: 1 / 0) == 5  # a known roll never asks its classes


def _chain(parts_of, steps=2):
    """A toy chain: each step draws two dice (as parts) and adds them to a total; done after ``steps``."""
    def step(st, dice):
        n, total = st
        st[:] = [n + 1, total + dice.roll(3) + dice.roll(2)]

    return enumerate_chain([0, 0], step, lambda st: tuple(st), lambda st: st[0] == steps, list, parts=parts_of)


def test_parts_with_build_memo_and_then_when_match_the_plain_step():
    plain, _ = _chain(None)
    memo: dict = {}
    runs = []

    def first(st, dice):
        runs.append(1)
        return dice.roll(3)

    def second(st, dice):
        return dice.roll(2)

    def parts_of(st):
        def build(state, values):
            return [state[0] + 1, state[1] + values[0] + values[1]]

        def then(state, dice):                     # a coin for odd totals, which changes nothing
            dice.roll(2)

        return Parts((first, second), build=build, then=then, then_when=lambda values: sum(values) % 2 == 1,
                     keys=("first", st[0]), memo=memo)

    fast, _ = _chain(parts_of)
    assert dict(fast) == dict(plain)
    assert len(runs) == 3                          # the first part, keyed "first", enumerated once (3 faces)
    assert sum(fast.values()) == 1 and fast[(2, 4)] == Fraction(1, 36) * 1


def test_the_chain_enumeration_leaves_the_garbage_collector_as_it_found_it():
    assert gc.isenabled()
    _chain(None)
    assert gc.isenabled()
    gc.disable()
    try:
        _chain(None)
        assert not gc.isenabled()
    finally:
        gc.enable()
