"""The shared game protocol (wargames.core.game), its bots and its fuzzer, on a small game of our own.

The toy game: two players race a token to 10 on a track. The player to act either rolls a d6 and advances,
or holds; a roll of 6 lets the *other* player choose whether the roller moves 6 or is sent back 2 (a
decision inside a procedure, answered as a prompt). ``Broken`` variants plant the bugs the fuzzer must find.
"""
import json
from dataclasses import dataclass

import pytest

from wargames.core import RandomDice, ScriptedDice
from wargames.core.bots import FirstChoiceBot, RandomBot, play
from wargames.core.dice import DiceError
from wargames.core.errors import DataError, RuleViolation
from wargames.core.fuzz import fuzz, mutate
from wargames.core.game import Action, Game, IllegalName, Outcome, Prompt, Reading, Ruleset, handles
from wargames.core.rules import implements, reaching, unrecorded


@dataclass(frozen=True)
class Roll(Action):
    player: str


@dataclass(frozen=True)
class Hold(Action):
    player: str


@dataclass(frozen=True)
class Judge(Action):
    player: str
    forward: bool


@dataclass(frozen=True)
class Jump(Action):
    player: str
    squares: tuple[int, ...] = ()
    note: str = "x"


class ToyRules(Ruleset):
    GAME = "toy"
    READINGS = {"goal": Reading(10, "T 1", "squares to win"),
                "dice": Reading("d6", "T 2", "the die rolled", ("d6", "d10"))}


@implements("T 2")
def advance(pos: dict, who: str, n: int) -> None:
    pos[who] = max(0, pos[who] + n)


class Toy(Game):
    NAME = "toy"
    PLAY_RULE = "T 1"
    ACTIONS = (Roll, Hold, Judge, Jump)
    SCENARIOS = {"race": "a race to the goal", "head start": "B starts on 5"}
    DEFAULT_SCENARIO = "race"
    RULESET = ToyRules
    POSITION = ("pos", "turn", "pending")

    def setup(self, scenario):
        self.pos = {"A": 0, "B": 5 if scenario == "head start" else 0}
        self.turn, self.pending = "A", None

    def other(self, p):
        return "B" if p == "A" else "A"

    def candidates(self):
        if self.pending:
            judge = self.other(self.pending)
            return [Judge(judge, True), Judge(judge, False)]
        return [Roll(self.turn), Hold(self.turn), Jump(self.turn, (1, 1))]

    def current_prompt(self):
        if self.pending:
            return Prompt(self.other(self.pending), "T 3", f"move {self.pending} 6 forward or 2 back?", "judge")
        return Prompt(self.turn, "T 1", "roll or hold")

    def result(self):
        for p, n in self.pos.items():
            if n >= self.ruleset["goal"]:
                return Outcome(p, "win", "T 1", f"{p} reached {n}")
        return None

    def position(self):
        return {"pos": dict(self.pos), "turn": self.turn, "pending": self.pending}

    def names(self):
        return {"players": ["A", "B", "C"]}

    def invariants(self):
        return [f"{p} is off the track" for p, n in self.pos.items() if n < 0]

    def _who(self, action):
        if action.player not in self.pos:
            raise DataError("toy", "player", f"no player {action.player!r}")
        expected = self.other(self.pending) if self.pending else self.turn
        if action.player != expected:
            raise RuleViolation("T 1", f"it is {expected}'s decision")

    @handles(Roll)
    def _roll(self, action, dice, res):
        self._who(action)
        if self.pending:
            raise RuleViolation("T 3", "the judge decides first")
        n = dice.roll(6, "move")
        res.add("T 2", f"{action.player} rolls {n}", result=n)
        if n == 6:
            self.pending = action.player
        else:
            advance(self.pos, action.player, n)
            self.turn = self.other(self.turn)

    @handles(Hold)
    def _hold(self, action, dice, res):
        self._who(action)
        if self.pending:
            raise RuleViolation("T 3", "the judge decides first")
        self.turn = self.other(self.turn)

    @handles(Judge)
    def _judge(self, action, dice, res):
        if not self.pending:
            raise RuleViolation("T 3", "nothing to judge")
        self._who(action)
        advance(self.pos, self.pending, 6 if action.forward else -2)
        self.pending = None
        self.turn = self.other(self.turn)

    @handles(Jump)
    def _jump(self, action, dice, res):
        self._who(action)
        if self.pending:
            raise RuleViolation("T 3", "the judge decides first")
        for s in action.squares:
            if s != 1:
                raise RuleViolation("T 4", "a jump goes one square at a time")
            advance(self.pos, action.player, 1)
        if len(action.squares) > 3:
            raise RuleViolation("T 4", "at most three squares")     # raised after moving: apply must undo it
        self.turn = self.other(self.turn)


def test_actions_have_a_text_form_that_parses_back():
    for a in (Roll("A"), Judge("B", False), Jump("A", (1, 1)), Jump("A", (), "a b=\"c\"")):
        assert Toy.parse_action(str(a)) == a
    assert str(Judge("B", False)) == 'judge player="B" forward=false'
    assert str(Jump("A")) == 'jump player="A"'             # defaults are left out
    for bad in ("fly", "roll player=A", 'roll player="A" player="B"', 'roll who="A"', "roll", 'roll  player="A"x'):
        with pytest.raises(DataError):
            Toy.parse_action(bad)


def test_legal_actions_is_a_view_and_in_checks_any_action():
    g = Toy.new(seed=1)
    legal = g.legal_actions
    assert list(legal) == [Roll("A"), Hold("A"), Jump("A", (1, 1))] and len(legal) == 3
    assert Jump("A", (1, 1, 1)) in legal                    # not listed, but legal
    assert Jump("A", (1, 1, 1, 1)) not in legal and Roll("B") not in legal and "roll" not in legal
    assert isinstance(g.why_illegal(Roll("B")), RuleViolation)
    assert g.why_illegal(Roll("A")) is None
    assert g.state_dict()["position"]["pos"] == {"A": 0, "B": 0}     # probing changed nothing


def test_apply_is_transactional_and_refusals_name_the_rule():
    g = Toy.new(seed=1)
    before = g.state_dict()
    with pytest.raises(RuleViolation) as e:
        g.apply(Jump("A", (1, 1, 1, 1)))                     # moves four squares, then refuses
    assert e.value.rule == "T 4" and g.state_dict() == before and g.history == []
    with pytest.raises(IllegalName) as e:                    # an unknown name is a RuleViolation too
        g.apply(Roll("Z"))
    assert isinstance(e.value, RuleViolation) and "Z" in e.value.reason
    with pytest.raises(RuleViolation):
        g.apply(object())


def test_dice_faces_are_checked_and_scripts_must_be_used_up():
    g = Toy.new(seed=1)
    before = g.state_dict()
    with pytest.raises(DiceError, match="7 is not a roll of a d6"):
        g.apply(Roll("A"), ScriptedDice([7]))

    class Loaded:
        def roll(self, sides=6, why="", classes=None):
            return 0
    with pytest.raises(DiceError, match="0 is not a roll of a d6"):
        g.apply(Roll("A"), Loaded())
    with pytest.raises(DiceError, match="never used"):
        g.apply(Roll("A"), ScriptedDice([3, 4]))
    with pytest.raises(DiceError, match="run out"):
        g.apply(Roll("A"), ScriptedDice([]))
    assert g.state_dict() == before and not g.history


def test_decisions_inside_a_procedure_are_prompts_for_the_player_the_rule_names():
    g = Toy.new()
    assert str(g.prompt) == "A: roll or hold (T 1)"
    g.apply(Roll("A"), ScriptedDice([6]))
    assert g.prompt == Prompt("B", "T 3", "move A 6 forward or 2 back?", "judge")
    assert set(g.legal_actions) == {Judge("B", True), Judge("B", False)}
    g.apply(Judge("B", False))
    assert g.history[-1].action == Judge("B", False) and g.state_dict()["position"]["pos"]["A"] == 0


def test_undo_goes_back_through_die_rolls_and_by_replay_past_the_snapshots():
    g = Toy.new(ruleset=ToyRules(readings={"goal": 100}), seed=3)
    states = [g.state_dict()]
    for _ in range(6):
        g.apply(FirstChoiceBot().choose(g))
        states.append(g.state_dict())
    g.undo()
    assert g.state_dict() == states[5] and len(g.history) == 5
    g.undo(2)
    assert g.state_dict() == states[3]
    with pytest.raises(RuleViolation):
        g.undo(4)
    g.UNDO_SNAPSHOTS = 1                                     # older positions now come back by replay
    for _ in range(3):
        g.apply(Hold(g.turn))
    g.undo(5)
    assert g.state_dict() == states[1] and len(g.history) == 1


def test_save_and_load_replay_the_game_and_refuse_bad_saves():
    g = Toy.new("head start", ToyRules(readings={"goal": 30}), seed=5)
    play(g, RandomBot(5), max_actions=12)
    doc = json.loads(json.dumps(g.save()))
    assert Toy.load(doc).state_dict() == g.state_dict()
    assert doc["ruleset"]["readings"] == {"goal": 30, "dice": "d6"}

    def broken(change):
        d = json.loads(json.dumps(doc))
        change(d)
        return d
    cases = {
        "history": lambda d: d.update(history="x"),
        "history[1]": lambda d: d["history"].__setitem__(1, {"action": "hold"}),
        "history[2].action": lambda d: d["history"][2].update(action="teleport"),
        "dice": lambda d: d["history"][0].update(dice=[9]),
        "position_digest": lambda d: d["history"].pop(),               # truncated
        "format": lambda d: d.update(format=99),
        "game": lambda d: d.update(game="chess"),
        "seed": lambda d: d.pop("seed"),
        "readings.speed": lambda d: d["ruleset"]["readings"].update(speed=1),
    }
    for field, change in cases.items():
        with pytest.raises(DataError) as e:
            Toy.load(broken(change))
        assert field in str(e.value), (field, str(e.value))
    d = broken(lambda d: d["history"].insert(0, {"action": 'roll player="B"', "dice": [1]}))
    with pytest.raises(DataError, match=r"history\[0\].*refused on replay"):
        Toy.load(d)


def test_rulesets_check_their_readings():
    assert ToyRules.default()["goal"] == 10
    with pytest.raises(DataError, match="readings.speed"):
        ToyRules(readings={"speed": 2})
    with pytest.raises(DataError, match="readings.dice: 'd8' is not one of 'd6', 'd10'"):
        ToyRules(readings={"dice": "d8"})
    with pytest.raises(DataError, match="readings.goal: must be of type int"):
        ToyRules.default().with_readings(goal="ten")
    assert ToyRules.default().with_readings(dice="d10")["dice"] == "d10"
    with pytest.raises(DataError, match="scenario"):
        Toy.new("chess")


def test_rules_reached_are_recorded_only_for_actions_carried_out():
    g = Toy.new()
    with reaching() as found:
        g.legal_actions and list(g.legal_actions)           # probes do not count
        assert Jump("A", (1,)) in g.legal_actions
    assert found == set()
    with reaching() as found:
        with pytest.raises(RuleViolation):
            g.apply(Jump("A", (1, 1, 1, 1)))
    assert found == set()
    with reaching() as found:
        g.apply(Roll("A"), ScriptedDice([2]))
    assert found == {"T 2"}


def test_an_action_runs_under_the_profile_hook_only_while_a_recorder_is_open(monkeypatch):
    """The hook that notes rules reached makes every call dearer: with nobody recording, apply sets none."""
    import sys
    hooks = []
    real = Toy._roll

    def spying(self, action, dice, res):
        hooks.append(sys.getprofile())
        return real(self, action, dice, res)

    monkeypatch.setitem(Toy._HANDLERS, Roll, spying)
    g = Toy.new()
    g.apply(Roll("A"), ScriptedDice([2]))
    with reaching() as found:
        g.apply(Roll("B"), ScriptedDice([2]))
    assert hooks[0] is None and hooks[1] is not None and found == {"T 2"}


def test_an_unrecorded_block_reaches_nothing_and_gives_the_recorder_back():
    g = Toy.new()
    with reaching() as found:
        with unrecorded():
            g.apply(Roll("A"), ScriptedDice([2]))
        assert found == set()
        g.apply(Roll("B"), ScriptedDice([2]))
    assert found == {"T 2"}


def test_the_fuzzer_passes_a_sound_game():
    report = fuzz(Toy, actions=300, seed=1, round_trip_rate=0.1)
    assert report.ok, [f.line() for f in report.failures]
    assert report.actions >= 300 and report.games_finished > 5 and report.round_trips > 5
    assert report.illegal_tried > 20 and report.reached == {"T 2"}


class RefusalLeaks(Toy):
    """Planted bug: a refused jump still counts, in a part of the position outside the snapshot."""

    def setup(self, scenario):
        super().setup(scenario)
        self.tries = 0

    def position(self):
        return {**super().position(), "tries": self.tries}

    @handles(Jump)
    def _jump(self, action, dice, res):
        self.tries += 1
        Toy._jump(self, action, dice, res)


class OffersIllegal(Toy):
    """Planted bug: offers a Judge when nothing is pending."""

    def candidates(self):
        return list(super().candidates()) + [Judge(self.turn, True)]

    def why_illegal(self, action):
        return None


class Crashes(Toy):
    @handles(Hold)
    def _hold(self, action, dice, res):
        raise KeyError("boom")


class DeadEnd(Toy):
    def candidates(self):
        return [] if self.pos["A"] > 3 else super().candidates()


@pytest.mark.parametrize("cls, kind", [(OffersIllegal, "offered-refused"), (Crashes, "crash"),
                                       (DeadEnd, "dead-end")])
def test_the_fuzzer_finds_planted_bugs(cls, kind):
    report = fuzz(cls, actions=200, seed=2)
    assert any(f.kind == kind for f in report.failures), [f.line() for f in report.failures]


def test_the_fuzzer_finds_a_refusal_that_changes_the_position():
    report = fuzz(RefusalLeaks, actions=300, seed=2, illegal_rate=0.6)
    assert any(f.kind == "refused-changed" for f in report.failures), [f.line() for f in report.failures]


def test_mutations_change_one_field():
    import random
    rng = random.Random(0)
    out = {str(mutate(Jump("A", (1,)), {"p": ["B"]}, rng)) for _ in range(50)}
    assert len(out) > 3 and all(s.startswith("jump") for s in out)


def test_the_fuzzer_plays_the_last_game_on_to_its_outcome_when_asked():
    short = fuzz(Toy, actions=2, seed=1)
    assert short.games_finished == 0 and short.finish_actions == 0
    done = fuzz(Toy, actions=2, seed=1, finish=500)
    assert done.games_finished == 1 and 0 < done.finish_actions <= 500 and done.ok
    assert done.actions > short.actions
    capped = fuzz(Toy, actions=2, seed=1, finish=1)
    assert capped.games_finished == 0 and capped.finish_actions == 1


def test_canonical_data_does_not_depend_on_set_order_or_hashing():
    import dataclasses
    from wargames.core.game import canonical

    @dataclasses.dataclass(frozen=True)
    class Policy:
        aid: frozenset
        turns: tuple

    a = Policy(frozenset(["USSR", "China"]), (1, 2))
    b = Policy(frozenset(["China", "USSR"]), (1, 2))
    assert canonical(a) == canonical(b) == {"aid": ["China", "USSR"], "turns": [1, 2]}
    assert canonical({3: {"x", "a"}}) == {"3": ["a", "x"]}


def test_canonical_strict_takes_plain_data_only():
    from enum import Enum

    from wargames.core.game import canonical

    class Colour(Enum):
        RED = "red"

    assert canonical({"a": (1, Colour.RED), 2: [None, 1.5]}, strict=True) == {"a": [1, "red"], "2": [None, 1.5]}
    for bad in ({"a": {1, 2}}, [Outcome("x", "y", "C 1", "why")], object()):
        with pytest.raises(DataError, match="not plain data"):
            canonical(bad, strict=True)
    assert canonical({"a": {2, 1}}) == {"a": [1, 2]}        # not strict: sets sorted, as for digests


class Crowded(Toy):
    """Many candidates, most of them illegal, one of them twice: the lazy draw must still be uniform."""

    def candidates(self):
        other = self.other(self.turn)
        extra = [Judge(self.turn, True), Judge(other, False), Roll(other), Hold(other), Jump(self.turn, (2,))]
        return extra + list(super().candidates()) + [Hold(self.turn)]


def test_a_lazy_draw_is_a_uniform_choice_among_the_legal_actions():
    import random
    from collections import Counter
    game = Crowded.new("race", seed=1)
    legal = list(game.legal_actions)
    assert len(legal) == 3 and len(game.unique_candidates()) == 8
    rng = random.Random(7)
    drawn = Counter(game.random_legal_action(rng) for _ in range(3000))
    assert set(drawn) == set(legal)
    assert all(900 <= n <= 1100 for n in drawn.values()), drawn        # 1000 each; sd about 26
    always = Counter(game.random_legal_action(rng, prefer=(Hold,), rate=1.0) for _ in range(200))
    assert always == Counter({Hold("A"): 200})
    never = Counter(game.random_legal_action(rng, prefer=(Hold,), rate=0.0) for _ in range(3000))
    assert 900 <= never[Hold("A")] <= 1100


def test_a_lazy_draw_gives_none_when_nothing_is_legal_or_the_game_is_over():
    import random
    game = DeadEnd.new("race", seed=1)
    game.pos["A"] = 4
    assert game.random_legal_action(random.Random(1)) is None
    won = Toy.new("race", seed=1)
    won.pos["B"] = 99
    assert won.outcome() is not None and won.random_legal_action(random.Random(1)) is None


def test_lazy_fuzzing_passes_a_sound_game_and_finds_planted_bugs():
    report = fuzz(Toy, actions=300, seed=1, illegal_rate=0.0, round_trip_rate=0.0, lazy=True)
    assert report.ok and report.actions >= 300 and report.games_finished > 5 and report.reached == {"T 2"}
    for cls, kind in [(OffersIllegal, "offered-refused"), (Crashes, "crash"), (DeadEnd, "dead-end")]:
        found = fuzz(cls, actions=200, seed=2, illegal_rate=0.0, round_trip_rate=0.0, lazy=True).failures
        assert any(f.kind == kind for f in found), (cls.__name__, [f.line() for f in found])
    with pytest.raises(ValueError, match="lazy"):
        fuzz(Toy, actions=10, lazy=True)


class CrashesOnApply(Crashes):
    """The legality probe only checks whose turn it is, so the crash comes in ``apply`` itself."""

    def check_action(self, action):
        if not isinstance(action, Judge):
            self._who(action)
        elif not self.pending:
            raise RuleViolation("T 3", "nothing to judge")


def test_a_failure_carries_the_save_of_the_position_before_the_failing_action():
    failures = fuzz(CrashesOnApply, actions=200, seed=2, illegal_rate=0.0, round_trip_rate=0.0).failures
    crash = next(f for f in failures if f.kind == "crash")
    assert crash.action.startswith("hold")
    again = CrashesOnApply.load(crash.save)
    with pytest.raises(KeyError, match="boom"):
        again.apply(CrashesOnApply.parse_action(crash.action))


class BreaksInvariant(Toy):
    @handles(Hold)
    def _hold(self, action, dice, res):
        Toy._hold(self, action, dice, res)
        self.pos[action.player] = -1


def test_an_invariant_failure_carries_the_save_from_before_the_action():
    failures = fuzz(BreaksInvariant, actions=200, seed=2, illegal_rate=0.0, round_trip_rate=0.0).failures
    broken = next(f for f in failures if f.kind == "invariant")
    before = BreaksInvariant.load(broken.save)
    assert not before.invariants()
    before.apply(BreaksInvariant.parse_action(broken.action))
    assert before.invariants() == [broken.detail]
