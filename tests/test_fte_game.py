"""The FTE game loop on the demonstration FRAGO: sequence of play, end of turn, replay, fuzzing, bad FRAGOs."""
import random

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from wargames.core import RandomDice, Resolution, ScriptedDice
from wargames.core.errors import DataError, RuleViolation
from wargames.fte.game import (Activate, Draw, EndActivation, FRAGOS, Fire, FteGame, Move, Pass, demo_frago, fire_all,
                               load_frago, replay)


def _invariants(g: FteGame):
    s = g.state
    for h in {u.hex for u in s.on_map()}:
        here = s.units_at(h)
        assert sum(u.kind == "vehicle" for u in here) <= 2
        assert sum(u.kind == "helicopter" and not u.destroyed for u in here) <= 1
        players = {u.player for u in here if u.role != "civilians"}
        assert len(players) <= 1, f"enemies share {s.label(h)}: {[u.id for u in here]}"
    assert all(v >= 0 for v in s.vp.values())
    if g.phase is not None:
        done = [uid for a in g.phase.history for uid in a.units]
        assert len(done) == len(set(done)), "a unit was activated twice in one turn"


def play(seed: int, steps: int = 120, policy=None) -> FteGame:
    rng = random.Random(seed)
    g = FteGame.new(opfire_policy=policy)
    dice = RandomDice(seed)
    for _ in range(steps):
        if g.over:
            break
        legal = g.legal_actions()
        # prefer doing something over ending at once
        choice = rng.choice([a for a in legal if not isinstance(a, (EndActivation, Pass))] or legal)
        g.apply(choice, dice)
        _invariants(g)
    return g


@pytest.mark.rule("F 3.0", "F 5.0", "F 20.0")
def test_a_whole_scenario_plays_to_a_winner():
    g = FteGame.new()
    dice = RandomDice(7)
    rng = random.Random(7)
    for _ in range(2000):
        if g.over:
            break
        legal = g.legal_actions()
        g.apply(rng.choice([a for a in legal if isinstance(a, (Draw, Pass, EndActivation, Activate))]), dice)
    assert g.over and g.result in ("US", "NVA/VC")
    turns = [s for s in g.log.steps if s.rule == "F 20.0" and "turn marker" in s.text]
    assert len(turns) == 3          # four turns: the marker moves three times
    assert any(s.rule == "F 29.0" for s in g.log.steps)


@pytest.mark.rule("F 3.0", "F 5.0", "F 5.1")
@pytest.mark.parametrize("seed", range(6))
def test_fuzz_random_legal_actions_keep_the_invariants(seed):
    play(seed, steps=80, policy=fire_all if seed % 2 else None)


@pytest.mark.rule("F 3.0")
@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10**6))
def test_a_seeded_game_replays_identically_from_its_log(seed):
    g = play(seed, steps=40)
    again = replay(g.frago, g.history)
    assert [st.line() for st in again.log.steps] == [st.line() for st in g.log.steps]
    assert again.state.vp == g.state.vp
    assert {u.id: (u.hex, u.status()) for u in again.state.units.values()} == \
           {u.id: (u.hex, u.status()) for u in g.state.units.values()}


@pytest.mark.rule("F 5.0", "F 3.0")
def test_illegal_actions_raise_and_change_nothing():
    g = FteGame.new()
    with pytest.raises(RuleViolation):
        g.apply(Move(("US FT1",), ("23.24",)), RandomDice(1))          # nothing activated yet
    g.apply(Draw(), RandomDice(1))
    g.apply(Activate("unit", ("US FT2",)), RandomDice(1))
    before = (g.state.units["US FT2"].hex, len(g.history))
    with pytest.raises(RuleViolation) as e:
        g.apply(Move(("US FT1",), ("23.24",)), RandomDice(1))           # not in this activation
    assert e.value.rule == "F 5.0"
    with pytest.raises(RuleViolation) as e:
        g.apply(Fire(("US FT2",), "VC FT2"), RandomDice(1))            # no LoS through the hamlet
    assert e.value.rule.startswith("F 7")
    assert (g.state.units["US FT2"].hex, len(g.history)) == before
    g.apply(Move(("US FT2",), ("22.23",)), RandomDice(1))
    with pytest.raises(RuleViolation) as e:
        g.apply(Move(("US FT2",), ("22.22",)), RandomDice(1))          # infantry take one action
    assert e.value.rule == "F 5.0"
    g.apply(EndActivation(), RandomDice(1))
    g.apply(Draw(), RandomDice(3))
    if g.phase is not None and g.phase.current == "US":
        with pytest.raises(RuleViolation) as e:
            g.apply(Activate("unit", ("US FT2",)), RandomDice(1))      # activated twice in a turn
        assert e.value.rule == "F 5.0"


@pytest.mark.rule("F 3.0")
def test_malformed_frago_files_name_the_field(tmp_path):
    good = yaml.safe_load((FRAGOS / "demo.yaml").read_text())
    cases = [(("turns",), 0, "turns"), (("first_player",), "ARVN", "first_player"),
             (("units", 0, "hex"), "99.99", "units[0].hex"), (("units", 1, "side"), "ROK", "units[1].side"),
             (("chits", "US"), "three", "chits.US"), (("units", 2, "colour"), "green", "units[2].colour")]
    from wargames.fte.game import setup
    for path, value, field in cases:
        data = yaml.safe_load(yaml.safe_dump(good))
        node = data
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
        p = tmp_path / "bad.yaml"
        p.write_text(yaml.safe_dump(data))
        with pytest.raises(DataError) as e:
            setup(load_frago(p))
        assert field in str(e.value) and "bad.yaml" in str(e.value), (field, str(e.value))


@pytest.mark.rule("F 4.0", "F 20.0")
def test_reinforcements_enter_concealed_on_their_turn_and_end_of_turn_clears_markers(tmp_path):
    data = yaml.safe_load((FRAGOS / "demo.yaml").read_text())
    data["turns"] = 2
    data["reinforcements"] = [{"turn": 2, "hexes": ["17.22"], "units": [
        {"id": "US FT4", "side": "US", "fire_rating": 4, "weapon": "SA", "range": 4, "tq": 4, "men": 4}]}]
    p = tmp_path / "f.yaml"
    p.write_text(yaml.safe_dump(data))
    g = FteGame.new(load_frago(p))
    dice = RandomDice(2)
    while g.state.turn == 1 and not g.over:
        legal = g.legal_actions()
        g.apply(next((a for a in legal if isinstance(a, (Draw, Pass))), legal[0]), dice)
    assert g.state.turn == 2 and "US FT4" in g.state.units
    u = g.state.units["US FT4"]
    assert u.concealed and g.state.label(u.hex) == "17.22"
    assert not any(v.activated for v in g.state.units.values() if v.id != "US FT4")


@pytest.mark.rule("F 7.3.2", "F 6.1")
def test_malformed_fte_maps_name_the_field(tmp_path):
    from wargames.fte.terrain import MAPS, load_fte_map
    good = yaml.safe_load((MAPS / "demo.yaml").read_text())
    for mutate, field in [(lambda d: d["hexes"]["19.19"].update(terrain="swamp"), "hexes[19.19].terrain"),
                          (lambda d: d["hexes"]["19.19"].update(features=["bridge"]), "hexes[19.19].features"),
                          (lambda d: d["hexes"].update({"19.5x": {"terrain": "clear"}}), "19.5x"),
                          (lambda d: d.update(hexsides=[{"between": ["19.19", "23.23"], "features": ["slope"]}]),
                           "hexsides[0].between")]:
        data = yaml.safe_load(yaml.safe_dump(good))
        mutate(data)
        p = tmp_path / "map.yaml"
        p.write_text(yaml.safe_dump(data))
        with pytest.raises(DataError) as e:
            load_fte_map(p)
        assert field in str(e.value) and "map.yaml" in str(e.value), str(e.value)
