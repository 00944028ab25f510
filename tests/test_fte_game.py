"""The FTE game loop on the demonstration FRAGO: sequence of play, end of turn, replay, bad FRAGOs."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from wargames.core import RandomDice, ScriptedDice
from wargames.core.bots import RandomBot
from wargames.core.errors import DataError, RuleViolation
from wargames.fte import Game
from wargames.fte.game import (Activate, Draw, EndActivation, FRAGOS, Fire, HoldFire, Move, OpFire, Pass,
                               PlaceReinforcement, Retreat, load_frago)
from . import yamlc


def play(seed: int, steps: int = 120) -> Game:
    """Random legal actions, preferring to do something over ending at once; the invariants hold throughout."""
    rng = random.Random(seed)
    g = Game.new(seed=seed)
    for _ in range(steps):
        if g.outcome() is not None:
            break
        legal = list(g.legal_actions)
        choice = rng.choice([a for a in legal if not isinstance(a, (EndActivation, Pass, HoldFire))] or legal)
        g.apply(choice)
        assert g.invariants() == [], (str(choice), g.invariants())
    return g


@pytest.mark.rule("F 3.0", "F 5.0", "F 20.0")
def test_a_whole_scenario_plays_to_a_winner():
    g = Game.new(seed=7)
    rng = random.Random(7)
    for _ in range(2000):
        if g.outcome() is not None:
            break
        legal = list(g.legal_actions)
        quiet = [a for a in legal if isinstance(a, (Draw, Pass, EndActivation, Activate, HoldFire))]
        g.apply(rng.choice(quiet or legal))             # a random event's prompt has answers of its own
    out = g.outcome()
    assert out is not None and out.winner in ("US", "NVA/VC") and out.rule == "F 29.0"
    steps = [s for r in g.resolutions for s in r.steps]
    turns = [s for s in steps if s.rule == "F 20.0" and "turn marker" in s.text]
    assert len(turns) == 3          # four turns: the marker moves three times
    assert any(s.rule == "F 29.0" for s in steps)
    assert g.prompt is None and list(g.legal_actions) == []


@pytest.mark.rule("F 3.0", "F 5.0", "F 5.1", "F 21.0")
@pytest.mark.parametrize("seed", range(6))
def test_random_legal_actions_keep_the_invariants(seed):
    play(seed, steps=80)


@pytest.mark.rule("F 3.0")
@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10**6))
def test_a_seeded_game_replays_identically_from_its_history(seed):
    g = play(seed, steps=40)
    again = g.replay()
    assert [s.line() for r in again.resolutions for s in r.steps] == [s.line() for r in g.resolutions for s in r.steps]
    assert again.state_dict() == g.state_dict()


@pytest.mark.rule("F 5.0", "F 3.0")
def test_illegal_actions_raise_and_change_nothing():
    g = Game.new(seed=1)
    with pytest.raises(RuleViolation):
        g.apply(Move(("US FT1",), ("23.24",)))          # nothing activated yet
    g.apply(Draw())
    g.apply(Activate("unit", ("US FT2",)))
    before = g.state_dict()
    with pytest.raises(RuleViolation) as e:
        g.apply(Move(("US FT1",), ("23.24",)))           # not in this activation
    assert e.value.rule == "F 5.0"
    with pytest.raises(RuleViolation) as e:
        g.apply(Fire(("US FT2",), "VC FT2"))            # no LoS through the hamlet
    assert e.value.rule.startswith("F 7")
    assert g.state_dict() == before and len(g.history) == 2
    g.apply(Move(("US FT2",), ("22.23",)))
    while g.pending:                                     # the enemy may be asked about opportunity fire
        g.apply(HoldFire())
    with pytest.raises(RuleViolation) as e:
        g.apply(Move(("US FT2",), ("22.22",)))          # infantry take one action
    assert e.value.rule == "F 5.0"
    g.apply(EndActivation())
    g.apply(Draw(), ScriptedDice([1]))                   # the first chit in the cup: a US one
    assert g.phase.current == "US"
    with pytest.raises(RuleViolation) as e:
        g.apply(Activate("unit", ("US FT2",)))          # activated twice in a turn
    assert e.value.rule == "F 5.0"


@pytest.mark.rule("F 3.0")
def test_malformed_frago_files_name_the_field(tmp_path):
    good = yamlc.safe_load((FRAGOS / "demo.yaml").read_text())
    cases = [(("turns",), 0, "turns"), (("first_player",), "ARVN", "first_player"),
             (("units", 0, "hex"), "99.99", "units[0].hex"), (("units", 1, "side"), "ROK", "units[1].side"),
             (("chits", "US"), "three", "chits.US"), (("units", 2, "colour"), "green", "units[2].colour")]
    from wargames.fte.game import setup
    for path, value, field in cases:
        data = yamlc.safe_load(yamlc.safe_dump(good))
        node = data
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
        p = tmp_path / "bad.yaml"
        p.write_text(yamlc.safe_dump(data))
        with pytest.raises(DataError) as e:
            setup(load_frago(p))
        assert field in str(e.value) and "bad.yaml" in str(e.value), (field, str(e.value))


def _to_turn(g: Game, turn: int) -> Game:
    """Quiet play (draw, pass, the first answer to any prompt) until ``turn`` begins."""
    while g.state.turn < turn and g.outcome() is None:
        legal = list(g.legal_actions)
        g.apply(next((a for a in legal if isinstance(a, (Draw, Pass))), legal[0]))
    return g


@pytest.mark.rule("F 4.0", "F 20.0")
def test_reinforcements_enter_concealed_on_their_turn_and_end_of_turn_clears_markers(tmp_path):
    data = yamlc.safe_load((FRAGOS / "demo.yaml").read_text())
    data["turns"] = 2
    data["reinforcements"] = [{"turn": 2, "hexes": ["17.22"], "units": [
        {"id": "US FT4", "side": "US", "fire_rating": 4, "weapon": "SA", "range": 4, "tq": 4, "men": 4}]}]
    p = tmp_path / "f.yaml"
    p.write_text(yamlc.safe_dump(data))
    g = _to_turn(Game.for_frago(load_frago(p)).new(seed=2), 2)
    assert g.state.turn == 2 and "US FT4" not in g.state.units          # placed by its owner, not by the engine
    assert str(g.prompt) == "US: place your reinforcements on their map edge: US FT4 (F 4.0)"
    assert list(g.legal_actions) == [PlaceReinforcement("US FT4", "17.22")]
    g.apply(PlaceReinforcement("US FT4", "17.22"))
    u = g.state.units["US FT4"]
    assert u.concealed and g.state.label(u.hex) == "17.22"
    assert not any(v.activated for v in g.state.units.values() if v.id != "US FT4")
    assert g.history[-1].action == PlaceReinforcement("US FT4", "17.22") and g.prompt.kind == "draw"


@pytest.mark.rule("F 7.3.2", "F 6.1")
def test_malformed_fte_maps_name_the_field(tmp_path):
    from wargames.fte.terrain import MAPS, load_fte_map
    good = yamlc.safe_load((MAPS / "demo.yaml").read_text())
    for mutate, field in [(lambda d: d["hexes"]["19.19"].update(terrain="swamp"), "hexes[19.19].terrain"),
                          (lambda d: d["hexes"]["19.19"].update(features=["bridge"]), "hexes[19.19].features"),
                          (lambda d: d["hexes"].update({"19.5x": {"terrain": "clear"}}), "19.5x"),
                          (lambda d: d.update(hexsides=[{"between": ["19.19", "23.23"], "features": ["slope"]}]),
                           "hexsides[0].between")]:
        data = yamlc.safe_load(yamlc.safe_dump(good))
        mutate(data)
        p = tmp_path / "map.yaml"
        p.write_text(yamlc.safe_dump(data))
        with pytest.raises(DataError) as e:
            load_fte_map(p)
        assert field in str(e.value) and "map.yaml" in str(e.value), str(e.value)


def _edited_frago(tmp_path, change, name="edited.yaml"):
    """The demonstration FRAGO (or, for ``lz:`` changes, the landing-zone one) with one change, loaded."""
    data = yamlc.safe_load((FRAGOS / "demo.yaml").read_text())
    change(data)
    p = tmp_path / name
    p.write_text(yamlc.safe_dump(data, sort_keys=False))
    return load_frago(p)


def _reinforce(**kw):
    def change(d):
        d["reinforcements"] = [{"turn": 2, "hexes": ["17.22"], "units": [
            {"id": "US FT4", "side": "US", "fire_rating": 4, "weapon": "SA", "range": 4, "tq": 4, "men": 4}]}]
        d["reinforcements"][0].update(kw)
    return change


APC = {"id": "US APC", "side": "US", "kind": "vehicle", "role": "apc", "fire_rating": 5, "weapon": "DP", "tq": 4,
       "defense": 1}
FT5 = {"id": "US FT5", "side": "US", "fire_rating": 4, "weapon": "SA", "tq": 4, "loaded_in": "US APC"}
SLICK = {"id": "Slick", "side": "US", "kind": "helicopter", "role": "slick", "tq": 5, "defense": 1}


def _set(i, **kw):
    return lambda d: d["units"][i].update(kw)


@pytest.mark.rule("F 3.0", "F 2.0", "F 4.0", "F 29.0")
@pytest.mark.parametrize("change,field,reason", [
    (_set(1, fire_rating="seven"), "units[1].fire_rating", "whole number"),
    (_set(1, tq="high"), "units[1].tq", "whole number"),
    (_set(1, tq=-7), "units[1].tq", "from 1 to 10"),
    (_set(7, concealed="no"), "units[7].concealed", "true or false"),
    (_set(1, men=0), "units[1].men", "from 1 to 4"),
    (_set(1, weapon=None), "units[1].weapon", "both a fire rating and a weapon"),
    (_set(1, altitude="high"), "units[1].altitude", "only helicopters"),
    (_reinforce(hexes=[]), "reinforcements[0].hexes", "1 to 100 entries"),
    (_reinforce(hexes=["99.99"]), "reinforcements[0].hexes[0]", "not on this map"),
    (_reinforce(turn=99), "reinforcements[0].turn", "from 1 to 30"),
    (_reinforce(turn=5), "reinforcements[0].turn", "turn 5 is after the last turn (4)"),
    (_reinforce(units=[{"id": "US FT1", "side": "US"}]), "reinforcements[0].units[0].id", "repeats the unit id"),
    (_reinforce(units=[FT5, APC]), "reinforcements[0].units[0].loaded_in", "must be listed before"),
    (_reinforce(units=[APC, dict(APC, id="APC 2"), dict(APC, id="APC 3")]), "reinforcements[0].units[2]",
     "the group's 1 hex(es) take at most 2 vehicle(s) (2 a hex, F 6.2)"),
    (_reinforce(hexes=["17.22", "17.22"], units=[SLICK, dict(SLICK, id="Slick 2")]), "reinforcements[0].units[1]",
     "take at most 1 helicopter(s)"),
    (_reinforce(units=[dict(SLICK, altitude="high")]), "reinforcements[0].units[0].altitude", "leave it out"),
    (_reinforce(units=[SLICK, dict(APC, loaded_in="Slick")]), "reinforcements[0].units[1].loaded_in",
     "US APC is a vehicle: only infantry are transported (F 6.9)"),
    (_reinforce(units=[SLICK, dict(FT5, loaded_in="Slick"), dict(FT5, id="US FT6", loaded_in="Slick")]),
     "reinforcements[0].units[0]", "Slick carries 8 troops; it may carry 7 (F 6.9)"),
    (lambda d: d.update(vp={"US": -3}), "vp.US", "from 0 to 999"),
    (lambda d: d.update(vp={"NVA/VC": "lots"}), "vp[NVA/VC]", "whole number"),
    (lambda d: d.update(vp={"ARVN": 2}), "vp.ARVN", "is not a field here"),
    (lambda d: d.update(extra_chits=[{"turn": 2, "player": "US", "count": 0}]), "extra_chits[0].count", "from 1 to 20"),
    (lambda d: d.update(extra_chits=[{"turn": 5, "player": "US", "count": 1}]), "extra_chits[0].turn",
     "turn 5 is after the last turn (4)"),
    (lambda d: d.update(extra_chits=[{"turn": 2, "player": "ARVN", "count": 1}]), "extra_chits[0].player", "one of"),
    (lambda d: d.update(casualties=[{"kind": "Injury", "side": "US", "hex": "23.25"}]), "casualties[0].kind", "one of"),
    (lambda d: d.update(casualties=[{"kind": "WIA", "side": "US", "hex": "99.99"}]), "casualties[0].hex",
     "not on this map"),
    (lambda d: d.update(casualties=[{"kind": "KIA", "side": "US", "hex": "24.23"}]), "casualties[0].hex",
     "24.23 holds enemy units"),
    (lambda d: d["key_terrain"][0].update(hex=9999), "key_terrain[0].hex", "'9999' is not a hex label"),
    (lambda d: d["key_terrain"][0].update(hex="99.99"), "key_terrain[0].hex", "not on this map"),
    (lambda d: d["key_terrain"][0].update(player="Martians"), "key_terrain[0].player", "one of"),
    (lambda d: d["key_terrain"].append({"hex": "24.23", "player": "US", "points": 2}), "key_terrain[1].hex",
     "24.23 is key terrain for US already (key_terrain[0])"),
    (lambda d: d["key_terrain"][0].update(points=-1_000_000), "key_terrain[0].points", "from 0 to 100"),
    (lambda d: d["sites"][0].update(hex="99.99"), "sites[0].hex", "not on this map"),
    (lambda d: d["sites"][1].update(id="rice cache"), "sites[1].id", "repeats the site id"),
    (_set(7, hex="23.25"), "units[7].hex", "VC Ldr cannot be set up there: 23.25 holds the enemy unit US Ldr"),
    (_set(11, role="civilians", hex="24.23"), "units[7].hex", "NVA/VC infantry may never stack with Civilians"),
    (lambda d: [d["units"][i].update(kind="helicopter", role="slick", altitude="high", fire_rating=None,
                                     weapon=None, hex="23.26") for i in (1, 2)], "units[2].hex",
     "would hold 2 helicopters; the limit is 1"),
    (_set(1, loaded_in="US MG"), "units[1].loaded_in", "no vehicle or helicopter"),
    (_set(2, id="US FT1"), "units[2].id", "repeats the unit id 'US FT1' of units[1]"),
    (_set(1, loaded_in="US Ldr"), "units[1].loaded_in", "no vehicle or helicopter"),
    (lambda d: d.update(first_player="Martians"), "first_player", "one of"),
    (_set(10, fort="bunker"), "units[10].fort", "no site of kind bunker is set up in 25.25"),
    (_reinforce(units=[{"id": "US FT4", "side": "US", "fort": "foxholes"}]), "reinforcements[0].units[0].fort",
     "in no bunker or foxholes"),
    (lambda d: d.update(map="nowhere.yaml"), "map", "names no map"),
    (lambda d: d.update(map="../../maps/demo.yaml"), "map", "the name of a map file beside the FRAGO"),
    (lambda d: d.update(claymores=["25.25"]), "claymores[0]", "no American infantry"),
    (lambda d: d.update(turns=1_000_000), "turns", "from 1 to 30"),
])
def test_frago_cross_checks_name_the_file_the_field_and_the_line(tmp_path, change, field, reason):
    with pytest.raises(DataError) as e:
        _edited_frago(tmp_path, change)
    err = e.value
    assert err.file.endswith("edited.yaml") and err.field == field and reason in err.reason, str(err)
    assert err.line is not None, str(err)


@pytest.mark.rule("F 3.0")
def test_frago_accepts_its_valid_neighbours(tmp_path):
    """The checks refuse only what they must: reinforcements on the last turn, a unit beside the civilians, a
    unit in the foxholes of its hex, a medic in the enemy's hex (F 6.2), a hex that is key terrain for both."""
    f = _edited_frago(tmp_path, lambda d: (_reinforce(turn=4)(d), _set(1, hex="24.24")(d), _set(10, fort="foxholes")(d),
                                           _set(5, hex="25.25")(d),
                                           d["key_terrain"].append({"hex": "24.23", "player": "NVA/VC", "points": 2})))
    assert f.reinforcements[0]["turn"] == 4 and f.units[1]["hex"] == "24.24" and f.units[10]["fort"] == "foxholes"
    assert f.units[5]["hex"] == "25.25"


@pytest.mark.rule("F 3.0")
def test_each_load_is_a_fresh_frago_and_reloading_sees_an_edit(tmp_path):
    p = tmp_path / "f.yaml"
    p.write_text((FRAGOS / "demo.yaml").read_text())
    a, b = load_frago(p), load_frago(p)
    a.units[0]["tq"] = 9
    assert b.units[0]["tq"] == 5 and load_frago(p).units[0]["tq"] == 5
    p.write_text((FRAGOS / "demo.yaml").read_text().replace("turns: 4", "turns: 3"))
    assert load_frago(p).turns == 3
    g1, g2 = Game.new(), Game.new()
    assert g1.frago is not g2.frago and g1.state.charts is not g2.state.charts
    assert g1.state.map is not g2.state.map


@pytest.mark.rule("F 4.0", "F 14.0", "F 18.2")
def test_a_reinforcement_loaded_in_its_transport_enters_with_it_where_its_owner_places_it(tmp_path):
    f = _edited_frago(tmp_path, _reinforce(hexes=["17.22", "17.23"], units=[APC, dict(FT5, id="US FT6", loaded_in=None),
                                                                          FT5]))
    g = _to_turn(Game.for_frago(f).new(seed=2), 2)
    assert {a for a in g.legal_actions} == {PlaceReinforcement(u, h) for u in ("US APC", "US FT6")
                                            for h in ("17.22", "17.23")}
    for bad, rule in [(PlaceReinforcement("US FT5", "17.22"), "F 4.0"),       # it enters aboard the APC
                      (PlaceReinforcement("US APC", "17.24"), "F 4.0"),       # not on the group's edge
                      (PlaceReinforcement("US APC", "17.23", "high"), "F 6.8"),
                      (Draw(), "F 4.0")]:                                     # the phase waits for the placements
        with pytest.raises(RuleViolation) as e:
            g.apply(bad)
        assert e.value.rule == rule, (bad, e.value)
    g.apply(PlaceReinforcement("US APC", "17.23"))
    g.apply(PlaceReinforcement("US FT6", "17.22"))
    apc, ft5, ft6 = (g.state.units[u] for u in ("US APC", "US FT5", "US FT6"))
    assert ft5.loaded_in == "US APC" and ft5.hex == apc.hex == g.state.hex("17.23") and not ft5.concealed
    assert ft6.concealed and g.state.label(ft6.hex) == "17.22" and g.prompt.kind == "draw"


@pytest.mark.rule("F 4.0", "F 6.2")
def test_two_vehicles_enter_together_in_one_hex_and_a_third_must_go_elsewhere(tmp_path):
    """Defect 7: the limit is two vehicles a hex, checked as each one is placed."""
    apcs = [dict(APC, id=f"APC {k}") for k in (1, 2, 3)]
    f = _edited_frago(tmp_path, _reinforce(hexes=["17.22", "17.23"], units=apcs))
    g = _to_turn(Game.for_frago(f).new(seed=2), 2)
    g.apply(PlaceReinforcement("APC 1", "17.22"))
    g.apply(PlaceReinforcement("APC 2", "17.22"))
    assert PlaceReinforcement("APC 3", "17.22") not in g.legal_actions
    with pytest.raises(RuleViolation, match="would hold 3 vehicles") as e:
        g.apply(PlaceReinforcement("APC 3", "17.22"))
    assert e.value.rule == "F 6.2"
    assert list(g.legal_actions) == [PlaceReinforcement("APC 3", "17.23")]
    g.apply(PlaceReinforcement("APC 3", "17.23"))
    assert [g.state.label(g.state.units[a["id"]].hex) for a in apcs] == ["17.22", "17.22", "17.23"]


@pytest.mark.rule("F 4.0", "F 6.8", "F 15.0")
def test_a_helicopter_reinforcement_enters_at_treetop_or_high_as_its_owner_chooses(tmp_path):
    f = _edited_frago(tmp_path, _reinforce(hexes=["17.22", "17.23"], units=[SLICK, dict(FT5, loaded_in="Slick")]))
    g = _to_turn(Game.for_frago(f).new(seed=2), 2)
    assert set(g.legal_actions) == {PlaceReinforcement("Slick", h, a) for h in ("17.22", "17.23")
                                    for a in ("treetop", "high")}
    for alt in (None, "ground"):
        with pytest.raises(RuleViolation, match="Treetop or High") as e:
            g.apply(PlaceReinforcement("Slick", "17.22", alt))
        assert e.value.rule == "F 4.0"
    g.apply(PlaceReinforcement("Slick", "17.23", "high"))
    slick, ft5 = g.state.units["Slick"], g.state.units["US FT5"]
    assert slick.altitude == "high" and slick.brought_reinforcements and slick.entered_turn == 2
    assert ft5.loaded_in == "Slick" and not ft5.concealed


@pytest.mark.rule("F 4.0", "F 6.2")
def test_a_reinforcement_finding_its_edge_closed_tries_again_next_turn(tmp_path):
    f = _edited_frago(tmp_path, lambda d: (_reinforce()(d), d.update(turns=3),
                                           d["units"].append({"id": "NVA Scout", "side": "NVA", "men": 1,
                                                              "hex": "17.22"})))
    g = _to_turn(Game.for_frago(f).new(seed=2), 2)
    steps = [s.text for s in g.resolutions[-1].steps if s.rule == "F 4.0"]
    assert "US FT4 finds every hex of its map edge closed to it (F 6.2): it tries again next turn" in steps
    assert "US FT4" not in g.state.units and g.prompt.kind == "draw"


@pytest.mark.rule("F 4.0", "F 5.0", "F 29.0")
def test_a_frago_sets_starting_vp_and_adds_chits_in_the_place_reinforcements_step(tmp_path):
    f = _edited_frago(tmp_path, lambda d: d.update(vp={"NVA/VC": 5},
                                                   extra_chits=[{"turn": 2, "player": "US", "count": 2}]))
    assert f.vp == {"US": 0, "NVA/VC": 5} and f.extra_chits == [{"turn": 2, "player": "US", "count": 2}]
    g = Game.for_frago(f).new(seed=3)
    assert g.state.vp == {"US": 0, "NVA/VC": 5}
    first = g.apply(Draw())
    assert any(s.rule == "F 29.0" and s.text == "the FRAGO's starting VP: US 0, NVA/VC 5" for s in first.steps)
    assert g.state.cup.chits == {"US": 3, "NVA/VC": 3}
    _to_turn(g, 2)
    assert g.state.cup.chits["US"] == 5 and g.state.cup.cup.count("US") == 5
    steps = [s for r in g.resolutions for s in r.steps if s.rule == "F 4.0"]
    assert [s.text for s in steps] == ["the FRAGO adds 2 US activation chit(s): US now has 5"]
    _to_turn(g, 3)
    assert g.state.cup.chits["US"] == 5                  # added for good, like every chit back in the cup (F 20.0)


@pytest.mark.rule("F 3.0")
def test_a_frago_may_name_a_map_file_beside_it(tmp_path):
    from wargames.fte.terrain import MAPS
    (tmp_path / "mine.yaml").write_text((MAPS / "demo.yaml").read_text().replace("FTE demonstration map", "Mine"))
    f = _edited_frago(tmp_path, lambda d: d.update(map="mine.yaml"))
    assert Game.for_frago(f).new(seed=1).state.map.name == "Mine"


@pytest.mark.rule("F 7.5", "F 7.5.3", "F 14.0")
def test_a_frago_may_start_with_casualty_markers_lying_on_the_map(tmp_path):
    f = _edited_frago(tmp_path, lambda d: d.update(casualties=[{"kind": "WIA", "side": "US", "hex": "23.25"},
                                                               {"kind": "KIA", "side": "VC", "hex": "25.24"}]))
    g = Game.for_frago(f).new(seed=1)
    s = g.state
    assert [(m.kind, m.side, s.label(m.hex), m.carried_by) for m in s.casualties.values()] == [
        ("WIA", "US", "23.25", None), ("KIA", "VC", "25.24", None)]
    assert s.vp == {"US": 0, "NVA/VC": 0}            # the FRAGO's vp field scores them, if it wants
