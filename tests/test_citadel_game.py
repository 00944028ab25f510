"""Citadel through the shared game protocol: the Movement Example played by prompts, fire phases, loss
allocation as prompts, undo, save and load, owners' charts, and random play."""
import json
import shutil

import pytest

from wargames import citadel
from wargames.citadel import (AllocateLoss, EndFire, EndMoves, EndPhase, Fire, Game, Move, OpportunityFire,
                              Ruleset, Stop)
from wargames.citadel.examples import FIRST_LEGS, PRINTED_ASSIGNMENT, PRINTED_DICE
from wargames.core import ScriptedDice
from wargames.core.errors import DataError, RuleViolation
from wargames.core.fuzz import fuzz
from wargames.core.game import IllegalName
from . import yamlc

VM, FR = "Vietminh", "French"


def _first_step(g: Game) -> None:
    for uid, leg in FIRST_LEGS.items():
        g.apply(Move((uid,), tuple(leg)))
    g.apply(EndMoves())


def _movement_example(g: Game) -> None:
    """C 8 Movement Example, as the players would take it, with the printed outcome's dice."""
    _first_step(g)
    for target, firer in PRINTED_ASSIGNMENT.items():
        g.apply(OpportunityFire(firer, target), ScriptedDice([PRINTED_DICE[len(g.history) - 5]]))
    g.apply(Move(("1st Bn",), ("1212", "1313", "1413")))
    g.apply(Move(("4th Bn",), ("0817", "0917", "1017")))
    g.apply(EndMoves())


@pytest.mark.rule("C 8", "C 9", "C 7")
def test_the_movement_example_is_played_through_prompts_with_the_printed_outcome():
    g = Game.new()
    assert str(g.prompt).startswith("Vietminh: move units (step 1)")
    assert Move(("2/3BT",), ("1415",)) not in g.legal_actions            # not the moving player's unit
    _first_step(g)
    assert g.prompt.side == FR and g.prompt.kind == "opportunity fire" and g.prompt.rule == "C 8"
    offered = {(a.firer, a.target) for a in g.legal_actions if isinstance(a, OpportunityFire)}
    assert ("105-A", "1st Bn") in offered and ("120-B", "4th Bn") in offered
    assert not any(isinstance(a, Move) for a in g.legal_actions)
    with pytest.raises(RuleViolation):
        g.apply(Move(("1st Bn",), ("1212",)))                               # the French are firing
    for target, firer in PRINTED_ASSIGNMENT.items():
        g.apply(OpportunityFire(firer, target), ScriptedDice([PRINTED_DICE[len(g.history) - 5]]))
    st = g.state
    assert [st.unit(b).pinned for b in ("1st Bn", "2nd Bn", "3rd Bn", "4th Bn")] == [False, True, True, False]
    # every paused battalion has been fired at once: the window closes by itself and the Vietminh move on
    assert g.prompt.side == VM and "opportunity fire ends" in g.resolutions[-1].text()
    why = g.why_illegal(Move(("1st Bn",), ("1113",)))
    assert why.rule == "C 8" and "pinned unit 2nd Bn" in why.reason              # the printed reason
    assert Move(("2nd Bn",), ("1213",)) not in g.legal_actions               # pinned: no further move
    g.apply(Move(("1st Bn",), ("1212", "1313", "1413")))
    assert g.state.unit("1st Bn").hex == g.state.map.hex("1413")
    g.apply(Move(("4th Bn",), ("0817", "0917", "1017")))
    g.apply(EndMoves())
    assert {(a.firer, a.target) for a in g.legal_actions if isinstance(a, OpportunityFire)} >= {("120-B", "4th Bn")}
    assert not any(a.target == "1st Bn" for a in g.legal_actions if isinstance(a, OpportunityFire))  # ZOC: no VP
    g.apply(OpportunityFire("120-B", "4th Bn"), ScriptedDice([PRINTED_DICE[4]]))
    assert g.state.unit("4th Bn").pinned
    rolls = [h.dice for h in g.history if h.dice]
    assert rolls == [(6,), (2,), (3,), (4,), (1,)]
    assert str(g.history[5].action) == 'opportunity_fire firer="105-A" target="1st Bn"'
    assert g.prompt.side == VM and EndPhase() in g.legal_actions     # every unit pinned or in a ZOC


@pytest.mark.rule("C 8")
def test_save_load_undo_and_replay_give_the_same_position():
    g = Game.new(seed=3)
    _movement_example(g)
    doc = json.loads(json.dumps(g.save()))
    assert Game.load(doc).state_dict() == g.state_dict() == g.replay().state_dict()
    at = g.state_dict()
    last = g.history[-1]
    g.undo()
    assert g.state_dict() != at
    g.apply(last.action, ScriptedDice(list(last.dice)))
    assert g.state_dict() == at
    g.undo(len(g.history))
    assert g.state_dict() == Game.new().state_dict()
    doc["history"][3]["action"] = 'move units=["1st Bn"] path=["1113"]'    # tampered
    with pytest.raises(DataError, match=r"history\[3\]"):
        Game.load(doc)


@pytest.mark.rule("C 8")
def test_refused_actions_change_nothing_and_name_the_rule():
    g = Game.new()
    before = g.state_dict()
    for bad, rule in ((Move(("1st Bn",), ("1010", "1111", "1112", "1113")), "C 8"),    # runs past its VP
                      (Move(("1st Bn",), ("0911",)), "C 6"),                            # onto the 2nd Bn
                      (Stop("1st Bn"), "C 8"), (EndFire(), "C 8"),
                      (OpportunityFire("105-A", "1st Bn"), "C 8"),
                      (Fire(("105-A",), "1112"), "C 7"), (AllocateLoss("1st Bn"), "C 9.2")):
        with pytest.raises(RuleViolation) as e:
            g.apply(bad)
        assert e.value.rule == rule, (bad, e.value)
        assert g.state_dict() == before and not g.history
    with pytest.raises(IllegalName):
        g.apply(Move(("No Such Bn",), ("1010",)))
    with pytest.raises(IllegalName):
        g.apply(Move(("1st Bn",), ("9999",)))
    assert g.state_dict() == before


def _to_vm_direct_fire(g: Game) -> None:
    while not (g.phase.kind == "direct fire" and g.fire_side.value == VM):
        g.apply(EndPhase())


@pytest.mark.rule("C 9.2", "C 9.1", "C 10")
def test_losses_to_a_stack_are_allocated_by_prompts_owner_first():
    g = Game.new()
    st = g.state
    # A set-up for this test: both T'ai companies of one battalion in the clear hex 1313, next to the 1st Bn.
    st.unit("1/3BT").hex = st.unit("2/3BT").hex = st.map.hex("1313")
    st.unit("1st Bn").hex = st.map.hex("1312")
    _to_vm_direct_fire(g)
    fire = Fire(("1st Bn",), "1313")
    assert fire in g.legal_actions
    g.apply(fire, ScriptedDice([1]))                      # two losses (reconstructed chart)
    assert g.prompt.side == FR and g.prompt.kind == "loss" and g.prompt.rule == "C 9.2"
    assert set(g.legal_actions) == {AllocateLoss("1/3BT"), AllocateLoss("2/3BT")}
    with pytest.raises(RuleViolation):
        g.apply(EndPhase())                               # the losses come first
    g.apply(AllocateLoss("2/3BT"))
    # the second loss is the Vietminh player's pick, but a company takes one loss a phase: 1/3BT is forced
    assert g.prompt.kind != "loss"
    assert st.unit("1/3BT").inverted and st.unit("2/3BT").inverted
    picks = [s.text for s in g.resolutions[-1].steps if s.rule == "C 9.2"]
    assert picks == ["loss 1 of 2: the French player chooses 2/3BT",
                     "loss 2 of 2: the Vietminh player has only one choice: 1/3BT"]
    assert [str(h.action) for h in g.history[-2:]] == ['fire firers=["1st Bn"] target="1313"',
                                                       'allocate_loss unit="2/3BT"']


@pytest.mark.rule("C 9", "C 10")
def test_direct_fire_is_simultaneous_both_sides_fire_in_turn():
    g = Game.new()
    st = g.state
    st.unit("1/3BT").hex = st.map.hex("1313")
    st.unit("1st Bn").hex = st.map.hex("1312")
    _to_vm_direct_fire(g)
    g.apply(Fire(("1st Bn",), "1313"), ScriptedDice([1]))        # the company is flipped and pinned
    assert st.unit("1/3BT").pinned
    g.apply(EndPhase())
    assert g.prompt.side == FR and "direct fire" in g.prompt.question
    assert Fire(("1/3BT",), "1312") in g.legal_actions            # pinned in this phase, it still fires back
    g.apply(Fire(("1/3BT",), "1312"), ScriptedDice([6]))
    assert "1/3BT: 3 SP" in g.resolutions[-1].text()            # with its strength before this phase's loss


@pytest.mark.rule("C 9")
def test_an_owners_printed_crt_is_played(tmp_path):
    folder = tmp_path / "charts"
    shutil.copytree(citadel.game.CHARTS, folder)
    crt = yamlc.safe_load((folder / "fire_crt.yaml").read_text())
    col = crt["columns"].index("11-14")
    crt["results"][6][col] = "P"                                 # a 6 on 11-14 now pins
    (folder / "fire_crt.yaml").write_text(yamlc.safe_dump(crt))
    mine = Ruleset.load(folder)
    assert mine.sources["fire_crt"].startswith(str(folder.resolve()))
    g, ref = Game.new(ruleset=mine), Game.new()
    for game in (g, ref):
        _first_step(game)
        game.apply(OpportunityFire("105-A", "1st Bn"), ScriptedDice([6]))
    assert g.state.unit("1st Bn").pinned and not ref.state.unit("1st Bn").pinned
    assert Game.load(json.loads(json.dumps(g.save()))).state_dict() == g.state_dict()
    (folder / "fire_crt.yaml").write_text(yamlc.safe_dump({**crt, "name": "changed"}))
    with pytest.raises(DataError, match="has changed since the save"):
        Game.load(g.save())
    (folder / "extra.yaml").write_text("x: 1")
    with pytest.raises(DataError, match="extra.yaml"):
        Ruleset.load(folder)


@pytest.mark.rule("C 9")
def test_an_owners_chart_with_one_bad_cell_gets_one_message_naming_file_cell_and_line(tmp_path):
    folder = tmp_path / "charts"
    folder.mkdir()
    src = (citadel.game.CHARTS / "fire_crt.yaml").read_text()
    row = '  4: ["-", "-", "-", "-", "1", "1", "2P"'
    assert row in src
    (folder / "fire_crt.yaml").write_text(src.replace(row, row.replace('"2P"', '"2Q"')))
    with pytest.raises(DataError) as e:
        Ruleset.load(folder)
    line = src.splitlines().index(next(x for x in src.splitlines() if x.startswith(row))) + 1
    assert (e.value.file, e.value.field, e.value.line) == (str(folder / "fire_crt.yaml"), "results[4][15-18]", line)
    assert "'2Q'" in e.value.reason and str(e.value).count("2Q") == 1


@pytest.mark.rule("C 7", "C 2")
def test_a_whole_day_is_played_to_an_outcome():
    g = Game.new(seed=5)
    while g.outcome() is None:
        g.apply(EndPhase() if EndPhase() in g.legal_actions else next(iter(g.legal_actions)))
    out = g.outcome()
    assert out.winner == FR and out.rule == "C 2" and g.prompt is None and list(g.legal_actions) == []
    steps = [s.text for r in g.resolutions for s in r.steps]
    assert any("French movement" in t for t in steps) and any("melee phase ends" in t for t in steps)
    assert any("return phase ends" in t or "no unit can return" in t for t in steps)
    with pytest.raises(RuleViolation):
        g.apply(EndPhase())


@pytest.mark.rule("C 8", "C 9", "C 10")
def test_random_play_finds_no_crash_dead_end_or_broken_invariant():
    report = fuzz(Game, actions=300, seed=11)
    assert report.ok, [f.line() for f in report.failures]
    assert report.games_finished >= 1 and report.round_trips >= 1
    assert {"C 8", "C 9", "C 9.5", "C 10"} <= report.reached


@pytest.mark.rule("C 7")
def test_every_offered_action_round_trips_through_its_text():
    g = Game.new()
    _first_step(g)
    for game in (Game.new(), g):
        for a in game.legal_actions:
            assert Game.parse_action(str(a)) == a


@pytest.mark.rule("C 8")
def test_a_unit_paused_by_an_announced_crossing_can_always_be_fired_at_next():
    """Found by make fuzz: a unit that announced a river crossing without moving left only EndPhase, which is
    refused while a unit is paused: a dead end. EndMoves must be offered."""
    from wargames.citadel import AnnounceCrossing
    g = Game.new()
    while g.prompt.side != FR:
        g.apply(EndPhase())
    g.state.unit("1/3BT").hex = g.state.map.hex("1713")         # a set-up: the company by the river
    assert AnnounceCrossing("1/3BT", "1612") in g.legal_actions
    g.apply(AnnounceCrossing("1/3BT", "1612"))
    assert EndMoves() in list(g.legal_actions)                   # offered, though the company has not moved
    g.apply(EndMoves())
