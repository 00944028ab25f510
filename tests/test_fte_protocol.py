"""FTE on the shared game protocol (wargames.core.game): prompts for every decision, the fuzzer, text forms,
saves and undo, hidden information, invariants and an owner's printed charts played through ``apply``."""
import json
import shutil

import pytest

from wargames import fte
from wargames.core import ScriptedDice
from wargames.core.errors import DataError, RuleViolation
from wargames.core.fuzz import fuzz
from wargames.fte.game import FRAGOS, AssaultStep, OpFireStep, RetreatStep
from wargames.fte.charts import DATA
from wargames.fte.los import line_of_sight
from . import yamlc

pytestmark = pytest.mark.rule("F 3.0")


def frago(tmp_path, units, name="f.yaml", **extra):
    """A one-turn FRAGO on the demonstration map with these units (no random event)."""
    data = {"name": "test", "note": "a test position", "map": "demo", "turns": 1, "first_player": "US",
            "chits": {"US": 2, "NVA/VC": 2}, "random_event": False, "units": units, **extra}
    p = tmp_path / name
    p.write_text(yamlc.safe_dump(data))
    return fte.load_frago(p)


def ft(uid, side, hx, **kw):
    return {"id": uid, "side": side, "fire_rating": 4, "weapon": "SA", "tq": 4, "men": 4, "hex": hx,
            **({"range": 4} if side == "US" else {}), **kw}


#: A US fire team moves from 17.23 into 17.22, in the sight of two NVA fire teams that are too far apart to
#: combine: A in 17.24 and B in 20.23. B cannot see 17.21 and 17.20, the retreat path away from A.
CROSSFIRE = [ft("M", "US", "17.23"), ft("A", "NVA", "17.24"), ft("B", "NVA", "20.23")]


def crossfire(tmp_path, ruleset=None, seed=1):
    g = fte.Game.for_frago(frago(tmp_path, CROSSFIRE)).new(ruleset=ruleset, seed=seed)
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("M",)))
    g.apply(fte.Move(("M",), ("17.22",)))
    return g


def offered(g):
    return {a for a in g.legal_actions if isinstance(a, fte.OpFire)}


def test_a_new_game_starts_with_the_demonstration_frago():
    g = fte.Game.new()
    assert g.scenario == "demo" and set(fte.Game.SCENARIOS) >= {"demo", "lz", "air"}
    assert str(g.prompt) == "US: draw the next activation chit (F 5.0)"
    assert list(g.legal_actions) == [fte.Draw()]
    assert isinstance(g.ruleset, fte.Ruleset) and g.state.charts.tet is g.ruleset.chart("tet")
    with pytest.raises(DataError, match="scenario"):
        fte.Game.new("Ia Drang")


@pytest.mark.parametrize("scenario, seed", [("demo", 11), ("lz", 12), ("air", 13)])
def test_the_fuzzer_finds_nothing_wrong(scenario, seed):
    report = fuzz(fte.Game, actions=400, seed=seed, scenario=scenario)
    assert report.ok, [f.line() for f in report.failures]
    assert report.actions >= 400 and report.illegal_tried > 20
    assert {"F 5.0", "F 6.1", "F 21.0"} <= report.reached


def test_every_action_has_a_text_form_that_parses_back():
    actions = [fte.Draw(), fte.Pass(), fte.EndActivation(), fte.HoldFire(),
               fte.Activate("leader", ("US Ldr", "US FT1"), "US Ldr"),
               fte.Move(("US FT1", "US Ldr"), ("23.24", "23.23"), double_time=True),
               fte.Move(("Huey",), altitude_start="ground"), fte.Move(("US FT1",), drop=(("KIA1", "23.24"),)),
               fte.Fire(("US MG", "US FT2"), "VC FT1", observed=True), fte.Assault(("US FT1",), "24.23", primary="US FT1"),
               fte.Search("US FT1"), fte.Recover("US FT1", pick_up="W1"), fte.DestroyCache("US FT1", site="rice cache"),
               fte.RequestMedevac("US Ldr"), fte.RequestFireMission("US FO", "24.23"),
               fte.Load("US APC", ("US FT2",), ("KIA1",)), fte.Unload("US APC", ("US FT2",), carry=(("W1", "US FT2"),)),
               fte.OpFire(("A", "B"), "M"), fte.Retreat("M", ("17.21", "17.20")), fte.Advance(("US FT1",), "foxholes")]
    for a in actions:
        assert fte.Game.parse_action(str(a)) == a, str(a)
    assert str(fte.OpFire(("A",), "M")) == 'op_fire firers=["A"] target="M"'
    with pytest.raises(DataError):
        fte.Game.parse_action('op_fire firers="A"x')


def test_save_load_and_undo_give_identical_positions():
    g = fte.Game.new(seed=4)
    bot = __import__("wargames.core.bots", fromlist=["RandomBot"]).RandomBot(4)
    states = [g.state_dict()]
    for _ in range(60):
        g.apply(bot.choose(g))
        states.append(g.state_dict())
    doc = json.loads(json.dumps(g.save()))
    assert fte.Game.load(doc).state_dict() == g.state_dict()
    assert g.replay().state_dict() == g.state_dict()
    g.undo(7)
    assert g.state_dict() == states[-8]
    g.undo(53)
    assert g.state_dict() == states[0]
    doc["history"][3]["action"] = 'activate how="unit" units=["VC FT1"]'
    with pytest.raises(DataError, match=r"history\[3\]"):
        fte.Game.load(doc)


@pytest.mark.rule("F 21.0", "F 6.1")
def test_opportunity_fire_is_a_prompt_of_the_enemy_with_the_eligible_groups(tmp_path):
    g = crossfire(tmp_path)
    assert str(g.prompt) == "NVA/VC: opportunity fire at 17.22? (F 21.0)"
    assert g.prompt.kind == "opportunity_fire"
    # A and B are not in or next to each other's hex: two groups, and combining them is refused
    assert offered(g) == {fte.OpFire(("A",), "M"), fte.OpFire(("B",), "M")}
    assert fte.HoldFire() in g.legal_actions
    assert isinstance(g.why_illegal(fte.OpFire(("A", "B"), "M")), RuleViolation)
    assert isinstance(g.why_illegal(fte.EndActivation()), RuleViolation)     # the decision comes first
    # A passes its check (1), hits (1) and rolls a 6 on the small-arms column: S; the move ends there
    g.apply(fte.OpFire(("A",), "M"), ScriptedDice([1, 1, 6]))
    assert g.history[-1].action == fte.OpFire(("A",), "M") and g.history[-1].dice == (1, 1, 6)
    assert g.state.units["A"].op_fired and g.state.units["M"].suppressed
    assert offered(g) == {fte.OpFire(("B",), "M")}        # the next group is a new prompt
    g.apply(fte.HoldFire())
    assert g.prompt.kind == "play" and g.state.label(g.state.units["M"].hex) == "17.22"
    assert not g.state.units["B"].op_fired
    assert isinstance(g.why_illegal(fte.Recover("M")), RuleViolation)   # the fire ended M's activation


@pytest.mark.rule("F 21.0", "F 7.4")
def test_a_second_group_gets_no_shot_once_the_first_groups_result_moved_the_target_out_of_its_sight(tmp_path):
    g = crossfire(tmp_path)
    st = g.state
    assert not line_of_sight(st, st.hex("20.23"), st.hex("17.21"))
    assert not line_of_sight(st, st.hex("20.23"), st.hex("17.20"))
    # A breaks M (effect 4: B): M's owner must choose the retreat before anything else
    g.apply(fte.OpFire(("A",), "M"), ScriptedDice([1, 1, 4]))
    assert g.state.units["M"].broken and str(g.prompt).startswith("US: retreat the broken M")
    assert g.prompt.rule == "F 7.4" and g.prompt.kind == "retreat"
    g.apply(fte.Retreat("M", ("17.21", "17.20")))
    seen = []
    while g.prompt.kind == "opportunity_fire":          # each hex of the retreat: A's extra attempt only
        here = g.state.units["M"].hex
        seen.append(g.state.label(here))
        for a in offered(g):
            assert "B" not in a.firers, f"B offered a shot at {g.state.label(here)} without LoS"
        g.apply(fte.HoldFire())
    a_sees = [h for h in ("17.21", "17.20") if line_of_sight(st, st.hex("17.24"), st.hex(h))]
    assert seen == a_sees and seen[:1] == ["17.21"]     # a prompt only where some unit may fire
    assert g.state.label(g.state.units["M"].hex) == "17.20" and g.prompt.kind == "play"
    assert not g.state.units["B"].op_fired            # B never fired at 17.22 after M had left it


@pytest.mark.rule("F 7.4")
def test_the_retreat_is_the_owners_choice_among_the_legal_paths(tmp_path):
    g = crossfire(tmp_path)
    g.apply(fte.OpFire(("A",), "M"), ScriptedDice([1, 1, 5]))         # 5: B
    st = g.state
    paths = {a.path for a in g.legal_actions}
    assert ("17.21", "17.20") in paths and len(paths) == 4
    for p in paths:                                   # each step farther from A in 17.24
        assert st.hex(p[0]).distance(st.hex("17.24")) > 2 and st.hex(p[1]).distance(st.hex("17.24")) > \
            st.hex(p[0]).distance(st.hex("17.24"))
    before = g.state_dict()
    with pytest.raises(RuleViolation) as e:
        g.apply(fte.Retreat("M", ("17.23", "17.24")))  # back toward the firer
    assert e.value.rule == "F 7.4" and g.state_dict() == before
    with pytest.raises(RuleViolation):
        g.apply(fte.HoldFire())                       # the retreat comes first
    choice = sorted(paths)[-1]
    g.apply(fte.Retreat("M", choice))
    while g.pending:
        g.apply(fte.HoldFire())
    assert g.state.label(g.state.units["M"].hex) == choice[-1]


@pytest.mark.rule("F 7.4")
def test_a_unit_broken_by_a_fire_action_retreats_as_its_owner_chooses(tmp_path):
    units = [ft("M", "US", "17.23"), ft("A", "NVA", "17.24")]
    g = fte.Game.for_frago(frago(tmp_path, units)).new(seed=1)
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("M",)))
    g.apply(fte.Fire(("M",), "A"), ScriptedDice([1, 4]))     # a hit, then B: A must retreat from 17.24
    assert g.prompt.kind == "retreat" and g.prompt.side == "NVA/VC"
    assert all(isinstance(a, fte.Retreat) and a.unit == "A" for a in g.legal_actions)


@pytest.mark.rule("F 29.0")
def test_an_owners_edited_chart_changes_play(tmp_path):
    folder = tmp_path / "charts"
    shutil.copytree(DATA, folder)
    doc = yamlc.safe_load((folder / "target_effects.yaml").read_text())
    assert doc["by_column"]["small_arms"][3] == "B"
    doc["by_column"]["small_arms"][3] = "KIA"         # the owner's chart prints KIA at 4
    (folder / "target_effects.yaml").write_text(yamlc.safe_dump(doc))
    owners = fte.Ruleset.load(folder)
    assert owners.sources["tet"].startswith(str((folder / "target_effects.yaml").resolve()))
    (tmp_path / "a").mkdir()
    shipped = crossfire(tmp_path / "a")
    shipped.apply(fte.OpFire(("A",), "M"), ScriptedDice([1, 1, 4]))
    assert shipped.state.units["M"].broken and shipped.prompt.kind == "retreat"
    (tmp_path / "b").mkdir()
    g = crossfire(tmp_path / "b", ruleset=owners)
    g.apply(fte.OpFire(("A",), "M"), ScriptedDice([1, 1, 4]))
    m = g.state.units["M"]
    assert not m.broken and m.reduced and g.state.vp["NVA/VC"] == 4
    assert any(c.kind == "KIA" for c in g.state.casualties.values())
    assert fte.Game.for_frago(g.frago).load(json.loads(json.dumps(g.save()))).state_dict() == g.state_dict()


def test_an_owners_readings_reach_the_procedures(tmp_path):
    folder = tmp_path / "r"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text("readings: {stacking_drm_negative: false}\n")
    g = fte.Game.new(ruleset=fte.Ruleset.load(folder))
    assert g.state.readings.stacking_drm_negative is False
    with pytest.raises(DataError, match="readings.no_such"):
        fte.Ruleset(readings={"no_such": True})


@pytest.mark.rule("F 14.0", "F 15.0", "F 21.0")
def test_load_and_unload_are_actions_of_the_game():
    g = fte.Game.new("lz", seed=3)
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("US APC",)))
    assert fte.Unload("US APC", ("US FT2",)) in g.legal_actions
    g.apply(fte.Unload("US APC", ("US FT2",)))
    while g.pending:
        g.apply(fte.HoldFire())
    ft2 = g.state.units["US FT2"]
    assert ft2.on_map and ft2.activated and g.state.label(ft2.hex) == "17.23"
    g.apply(fte.Load("US APC", ("US FT2",)))
    while g.pending:
        g.apply(fte.HoldFire())
    assert g.state.units["US FT2"].loaded_in == "US APC"
    with pytest.raises(RuleViolation):
        g.apply(fte.Load("US APC", ("US FT2",)))       # a vehicle's two actions differ


@pytest.mark.rule("F 8.0")
def test_the_defenders_fire_first_and_the_attacker_chooses_to_advance(tmp_path):
    units = [ft("M", "US", "17.23"), ft("D", "NVA", "17.22")]
    g = fte.Game.for_frago(frago(tmp_path, units)).new(seed=1)
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("M",)))
    g.apply(fte.Assault(("M",), "17.22"))
    assert g.prompt.side == "NVA/VC" and g.prompt.rule == "F 8.0" and isinstance(g.pending[-1], OpFireStep)
    assert offered(g) == {fte.OpFire(("D",), "M")}
    # no fire; M's TQ check 1; round 1: M hits (1) with B (4), D misses (10): D breaks and must retreat
    g.apply(fte.HoldFire(), ScriptedDice([1, 1, 4, 10]))
    assert g.prompt.kind == "retreat" and g.prompt.side == "NVA/VC"
    g.apply(next(iter(g.legal_actions)))
    while g.prompt.kind == "opportunity_fire":
        g.apply(fte.HoldFire())
    assert g.prompt.kind == "advance" and g.prompt.side == "US" and isinstance(g.pending[-1], AssaultStep)
    assert set(g.legal_actions) == {fte.Advance(("M",)), fte.Advance()}
    g.apply(fte.Advance(("M",)))
    assert g.state.label(g.state.units["M"].hex) == "17.22" and not g.pending


@pytest.mark.rule("F 18.1", "F 22.0", "F 23.0")
def test_each_side_sees_only_what_it_may():
    g = fte.Game.new()
    us, nva = g.view("US")["position"]["state"], g.view("NVA/VC")["position"]["state"]
    us_units = json.dumps(us["units"])
    assert "VC Dummy" not in us_units and "VC FT1" not in us_units and "US FT1" in us_units
    assert {"marker": "Concealed", "side": "VC", "hex": "24.26"} in us["units"]
    assert "VC Dummy" in json.dumps(nva["units"])
    assert any(s["kind"] == "?" for s in us["sites"]) and not any(s["kind"] == "?" for s in nva["sites"])
    assert "rice cache" not in json.dumps(g.view("US")) and "rice cache" in json.dumps(g.view("NVA/VC"))
    g.apply(fte.Draw())
    g.apply(fte.Pass())
    g.apply(fte.Draw(), ScriptedDice([4]))                   # an NVA/VC chit: he activates his concealed units
    g.apply(fte.Activate("hex", ("VC Ldr", "VC FT1")))
    seen = json.dumps(g.view("US"))
    assert "VC FT1" not in seen and "VC Ldr" not in seen and "VC FT1" in json.dumps(g.view("NVA/VC"))


@pytest.mark.rule("F 6.2", "F 5.0", "F 29.0")
def test_the_invariants_notice_a_broken_position():
    g = fte.Game.new()
    assert g.invariants() == []
    st = g.state
    st.units["VC FT2"].hex = st.units["US FT1"].hex
    st.vp["US"] = -1
    broken = g.invariants()
    assert any("both players" in b for b in broken) and any("VP" in b for b in broken)
    st.units["VC FT2"].hex, st.vp["US"] = st.hex("25.24"), 0
    st.units["US FT1"].carrying.append("nothing")
    assert any("carries nothing" in b for b in g.invariants())


@pytest.mark.rule("F 19.0", "F 19.1", "F 19.2")
def test_a_random_events_unit_is_chosen_by_the_player_the_rule_names(tmp_path):
    units = [ft("M", "US", "17.23"), ft("N", "US", "22.22"), ft("A", "NVA", "25.25")]
    g = fte.Game.for_frago(frago(tmp_path, units, random_event=True, chits={"US": 1, "NVA/VC": 1})).new(seed=1)
    g.apply(fte.Draw())
    g.apply(fte.Pass())
    # the cup holds US, NVA/VC and the event chit: draw the event (3 of 3), an even roll (US), then 1: Injury
    g.apply(fte.Draw(), ScriptedDice([3, 2, 1]))
    assert g.prompt.side == "NVA/VC" and g.prompt.rule == "F 19.1" and g.prompt.kind == "event"
    assert set(g.legal_actions) == {fte.EventChoice("M"), fte.EventChoice("N")}     # no declining an Injury
    g.apply(fte.EventChoice("N"))
    assert g.state.units["N"].injury and not g.state.units["M"].injury
    assert g.history[-1].action == fte.EventChoice("N") and str(g.prompt).startswith("US: draw")
    g.undo(2)
    g.apply(fte.Draw(), ScriptedDice([3, 2, 2]))            # 2: Low Ammo, which the opponent may decline
    assert fte.EventChoice() in g.legal_actions and g.prompt.rule == "F 19.2"
    g.apply(fte.EventChoice())
    assert not any(u.low_ammo for u in g.state.units.values())


@pytest.mark.rule("F 8.0")
def test_each_assault_round_asks_who_fires_at_whom(tmp_path):
    units = [ft("M", "US", "17.23"), ft("D1", "NVA", "17.22"), ft("D2", "NVA", "17.22")]
    g = fte.Game.for_frago(frago(tmp_path, units)).new(seed=1)
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("M",)))
    g.apply(fte.Assault(("M",), "17.22"))
    g.apply(fte.HoldFire(), ScriptedDice([1]))            # no defenders' fire; M passes its TQ check
    assert g.prompt.side == "US" and g.prompt.kind == "assault_target" and "round 1" in g.prompt.question
    assert set(g.legal_actions) == {fte.AssaultTarget("M", "D1"), fte.AssaultTarget("M", "D2")}
    with pytest.raises(RuleViolation):
        g.apply(fte.AssaultTarget("M", "M"))
    # M misses D2 (10); both defenders can only shoot M, so nobody is asked; both miss (10, 10)
    g.apply(fte.AssaultTarget("M", "D2"), ScriptedDice([10, 10, 10]))
    round1 = g.pending[-1].run.rounds[0]
    assert [(a.side, a.firers, a.target) for a in round1] == [
        ("attacker", ("M",), "D2"), ("defender", ("D1",), "M"), ("defender", ("D2",), "M")]
    assert g.prompt.kind == "assault_target" and "round 2" in g.prompt.question


@pytest.mark.rule("F 18.0", "F 18.2")
def test_each_player_chooses_which_units_try_to_hide_the_us_first(tmp_path):
    # N stands in the jungle of 19.18 out of the enemy's sight; M in clear terrain cannot hide
    units = [ft("M", "US", "17.23"), ft("N", "US", "19.18"), ft("A", "NVA", "20.23"), ft("C", "NVA", "22.22")]
    g = fte.Game.for_frago(frago(tmp_path, units, chits={"US": 0, "NVA/VC": 0})).new(seed=1)
    g.apply(fte.Draw())
    g.apply(fte.Pass())
    g.apply(fte.Draw())                                     # the cup is empty: fire missions, casualties...
    assert g.prompt.side == "US" and g.prompt.kind == "conceal" and g.prompt.rule == "F 18.2"
    assert set(g.legal_actions) == {fte.Conceal(("N",)), fte.Conceal()}
    with pytest.raises(RuleViolation, match="clear terrain"):
        g.apply(fte.Conceal(("M",)))
    g.apply(fte.Conceal())                                  # the US player keeps N visible
    assert not g.state.units["N"].concealed
    assert g.prompt.side == "NVA/VC" and g.prompt.kind == "conceal"
    g.undo()
    g.apply(fte.Conceal(("N",)))
    assert g.state.units["N"].concealed
    while g.prompt is not None and g.prompt.kind == "conceal":
        g.apply(next(iter(g.legal_actions)))
    assert g.outcome() is not None and g.outcome().rule == "F 29.0"


@pytest.mark.rule("F 6.10", "F 11.0", "F 21.0")
def test_abandoning_a_vehicle_and_destroying_a_cache_are_played_through_apply(tmp_path):
    units = [{"id": "APC", "side": "US", "kind": "vehicle", "role": "apc", "fire_rating": 5, "weapon": "DP",
              "range": 6, "tq": 4, "defense": 1, "hex": "17.23", "immobilized": True},
             ft("M", "US", "22.22"), ft("A", "NVA", "22.20")]
    sites = [{"id": "rice", "kind": "rice", "side": "NVA", "hex": "22.22", "revealed": True}]
    g = fte.Game.for_frago(frago(tmp_path, units, sites=sites, chits={"US": 1, "NVA/VC": 0})).new(seed=1)
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("APC",)))
    assert fte.Abandon("APC") in g.legal_actions
    assert isinstance(g.why_illegal(fte.Move(("APC",), ("17.22",))), RuleViolation)
    g.apply(fte.Abandon("APC"))
    assert g.state.units["APC"].hex is None and any(u.id.startswith("APC-crew") for u in g.state.on_map("US"))
    g.apply(fte.EndActivation())
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("M",)))
    g.apply(fte.DestroyCache("M"))
    assert g.state.vp["US"] > 0 and "rice" not in g.state.sites
    assert g.prompt.side == "NVA/VC" and g.prompt.kind == "opportunity_fire"    # A sees 22.22
    assert offered(g) == {fte.OpFire(("A",), "M")}


@pytest.mark.rule("F 7.4", "F 6.8")
def test_the_owner_sets_a_downed_helicopter_down(tmp_path):
    units = [{"id": "Huey", "side": "US", "kind": "helicopter", "role": "slick", "altitude": "treetop", "tq": 5,
              "defense": 1, "hex": "17.23"}, ft("A", "NVA", "17.24")]
    g = fte.Game.for_frago(frago(tmp_path, units)).new(seed=1)
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("Huey",)))
    g.apply(fte.Move(("Huey",), ("17.22",)))
    assert offered(g) == {fte.OpFire(("A",), "Huey")}
    g.apply(fte.OpFire(("A",), "Huey"), ScriptedDice([1, 1, 2]))        # a hit and WIA: Downed
    huey = g.state.units["Huey"]
    assert huey.downed and g.prompt.side == "US" and g.prompt.kind == "land" and g.prompt.rule == "F 7.4"
    options = {a.hex for a in g.legal_actions}
    assert "17.22" in options and len(options) > 1
    assert all(g.state.hex(h).distance(g.state.hex("17.22")) <= 1 for h in options)
    with pytest.raises(RuleViolation):
        g.apply(fte.Land("Huey", "20.20"))                               # out of reach
    choice = sorted(options - {"17.22"})[0]
    g.apply(fte.Land("Huey", choice))
    huey = g.state.units["Huey"]                       # a refused action restores a copy of the position
    assert g.state.label(huey.hex) == choice and huey.altitude == "ground" and g.state.vp["NVA/VC"] > 0


@pytest.mark.rule("F 28.0")
def test_an_american_unit_entering_civilians_may_question_them_and_the_nva_chooses_what_to_show(tmp_path):
    civ = {"id": "Civ", "side": "VC", "role": "civilians", "tq": 3, "men": 2, "hex": "17.22", "concealed": True}
    units = [ft("M", "US", "17.23"), civ, ft("A", "NVA", "20.23", concealed=True),
             ft("B", "NVA", "19.18", concealed=True), ft("C", "NVA", "22.22", concealed=True)]
    g = fte.Game.for_frago(frago(tmp_path, units)).new(seed=1)
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("M",)))
    g.apply(fte.Move(("M",), ("17.22",)))
    while g.prompt.kind == "opportunity_fire":               # the opportunity fire comes first
        g.apply(fte.HoldFire())
    assert g.prompt.side == "US" and g.prompt.kind == "interrogate" and g.prompt.rule == "F 28.0"
    assert set(g.legal_actions) == {fte.Interrogate("Civ", "M"), fte.Interrogate("Civ")}
    g.apply(fte.Interrogate("Civ", "M"), ScriptedDice([1]))     # M passes its TQ check
    assert g.prompt.side == "NVA/VC" and g.prompt.kind == "show"
    assert set(g.legal_actions) == {fte.Show(("A", "B")), fte.Show(("A", "C")), fte.Show(("B", "C"))}
    with pytest.raises(RuleViolation):
        g.apply(fte.Show(("A",)))                              # two, when there are two to show
    g.apply(fte.Show(("A", "C")))
    u = g.state.units
    assert not u["A"].concealed and not u["C"].concealed and u["B"].concealed and not u["Civ"].on_map
    assert g.prompt.kind == "play"


@pytest.mark.rule("F 16.0", "F 13.0")
def test_the_side_that_asked_for_a_fire_mission_may_call_it_off_when_it_is_due(tmp_path):
    units = [{"id": "FO", "side": "US", "role": "fo", "tq": 4, "men": 1, "hex": "17.23"}, ft("A", "NVA", "17.21")]
    g = fte.Game.for_frago(frago(tmp_path, units, chits={"US": 0, "NVA/VC": 0})).new(seed=1)
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("FO",)))
    g.apply(fte.RequestFireMission("FO", "17.21"), ScriptedDice([1]))   # a natural 1: BN Mortar, no delay
    g.apply(fte.EndActivation())
    g.apply(fte.Draw())                                     # the cup is empty: step c
    assert g.prompt.side == "US" and g.prompt.kind == "fire_mission" and g.prompt.rule == "F 16.0"
    assert set(g.legal_actions) == {fte.FireMissionOrder(), fte.FireMissionOrder(cancel=True)}
    g.apply(fte.FireMissionOrder(cancel=True), ScriptedDice([]))        # called off: no accuracy roll
    assert not g.state.fire_missions and g.prompt.kind != "fire_mission"
    g.undo()
    g.apply(fte.FireMissionOrder())                         # or it executes: accuracy, then the HE attacks
    assert not g.state.fire_missions
    steps = [s.rule for s in g.resolutions[-1].steps]
    assert "F 16.0" in steps


@pytest.mark.rule("F 12.0", "F 4.0")
def test_the_us_player_brings_the_medevac_in_where_he_chooses(tmp_path):
    units = [{"id": "Lt", "side": "US", "role": "leader", "fire_rating": 3, "weapon": "SA", "range": 3, "tq": 5,
              "men": 1, "hex": "17.23"}, ft("A", "NVA", "25.25")]
    g = fte.Game.for_frago(frago(tmp_path, units, turns=2, chits={"US": 0, "NVA/VC": 0})).new(seed=1)
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("Lt",)))
    g.apply(fte.RequestMedevac("Lt"), ScriptedDice([1]))
    due = g.state.medevac_turn
    assert due == 2, due
    g.apply(fte.EndActivation())
    g.apply(fte.Draw())
    while g.prompt.kind != "medevac":
        g.apply(next(iter(g.legal_actions)))
    assert g.state.turn == 2 and g.prompt.side == "US" and g.prompt.rule == "F 12.0"
    assert fte.MedevacEntry("17.23", "high") in g.legal_actions
    with pytest.raises(RuleViolation):
        g.apply(fte.MedevacEntry("22.22"))                     # not a map-edge hex
    g.apply(fte.MedevacEntry("17.23", "high"))
    slick = g.state.units[g.state.medevac_unit]
    assert g.state.label(slick.hex) == "17.23" and slick.altitude == "high" and g.prompt.kind == "draw"


@pytest.mark.rule("F 19.9")
def test_the_nva_player_targets_the_artillery_of_the_random_event(tmp_path):
    units = [ft("M", "US", "17.23"), ft("A", "NVA", "25.25")]
    g = fte.Game.for_frago(frago(tmp_path, units, random_event=True, chits={"US": 1, "NVA/VC": 1})).new(seed=1)
    g.apply(fte.Draw())
    g.apply(fte.Pass())
    g.apply(fte.Draw(), ScriptedDice([3, 1, 7]))            # the event chit, an odd roll (NVA/VC), 7: NVA Artillery
    assert g.prompt.side == "NVA/VC" and g.prompt.rule == "F 19.9"
    assert fte.EventTarget("17.22") in g.legal_actions and fte.EventTarget("17.23") in g.legal_actions
    g.apply(fte.EventTarget("17.22"), ScriptedDice([4]))      # delay ceil(4/3) = 2 turns
    (mission,) = g.state.fire_missions
    assert g.state.label(mission.target) == "17.22" and mission.turn == 3 and mission.mission == "ARTY"


@pytest.mark.rule("F 26.0")
def test_plotted_booby_traps_go_off_and_claymores_are_fired_in_play(tmp_path):
    units = [ft("M", "US", "19.17"), ft("N", "US", "21.22"), ft("A", "NVA", "22.22")]
    g = fte.Game.for_frago(frago(tmp_path, units, booby_traps=["19.18"], claymores=["22.22"],
                                 chits={"US": 2, "NVA/VC": 0})).new(seed=1)
    assert g.state.booby_traps and g.state.claymores
    assert "19.18" not in json.dumps(g.view("US")["position"]["state"]["booby_traps"])     # secret
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("M",)))
    # a claymore is no action of a unit: fired during the US activation, a 4-strength HE attack on A
    assert fte.DetonateClaymore("22.22") in g.legal_actions
    g.apply(fte.DetonateClaymore("22.22"), ScriptedDice([10]))              # a miss
    assert not g.state.claymores
    g.apply(fte.Move(("M",), ("19.18",)), ScriptedDice([9]))                # the trap: TQ check 9 fails
    assert not g.state.booby_traps and g.state.units["M"].reduced
    assert any(c.kind == "WIA" for c in g.state.casualties.values())
    with pytest.raises(DataError, match="claymores"):
        fte.Game.for_frago(frago(tmp_path, units, name="bad.yaml", claymores=["25.25"])).new()


@pytest.mark.rule("F 5.1")
def test_helicopters_activated_together_take_the_same_actions(tmp_path):
    heli = lambda uid, hx: {"id": uid, "side": "US", "kind": "helicopter", "role": "slick", "altitude": "ground",
                            "tq": 5, "defense": 1, "hex": hx}
    units = [heli("H1", "17.23"), heli("H2", "17.22"), ft("M", "US", "17.22"), ft("A", "NVA", "25.25")]
    g = fte.Game.for_frago(frago(tmp_path, units)).new(seed=1)
    g.apply(fte.Draw())
    g.apply(fte.Activate("helicopters", ("H1", "H2")))
    g.apply(fte.Move(("H1",)))                                 # a hover counts as its Move
    while g.pending:
        g.apply(fte.HoldFire())
    with pytest.raises(RuleViolation, match="same actions"):
        g.apply(fte.Load("H2", ("M",)))
    g.apply(fte.Move(("H2",)))


@pytest.mark.rule("F 24.0", "F 25.0", "F 21.0")
def test_units_get_into_and_out_of_cover_as_part_of_a_move_under_fire_outside(tmp_path):
    units = [ft("M", "US", "17.23"), ft("A", "NVA", "17.24")]
    sites = [{"id": "fox", "kind": "foxholes", "side": "US", "hex": "17.22"}]
    g = fte.Game.for_frago(frago(tmp_path, units, sites=sites, turns=2, chits={"US": 0, "NVA/VC": 0})).new(seed=1)
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("M",)))
    assert isinstance(g.why_illegal(fte.Move(("M",), ("17.22",), fort="bunker")), RuleViolation)   # none there
    g.apply(fte.Move(("M",), ("17.22",), fort="foxholes"))
    seen = []
    while g.prompt.kind == "opportunity_fire":
        seen.append(g.state.units["M"].fort)
        g.apply(fte.HoldFire())
    assert seen == [None, None]          # at the hex entered, then outside the foxholes before getting in
    assert g.state.units["M"].fort == "foxholes" and "M" in g.state.sites["fox"].occupants
    g.apply(fte.EndActivation())
    while g.prompt.kind != "activate":                       # on to the next turn's first activation
        g.apply(fte.Conceal() if g.prompt.kind == "conceal" else next(iter(g.legal_actions)))
    g.apply(fte.Activate("unit", ("M",)))
    assert isinstance(g.why_illegal(fte.Move(("M",), ("17.21",))), RuleViolation)   # leave the cover first
    g.apply(fte.Move(("M",), ("17.21",), leave_fort=True))
    assert g.state.units["M"].fort is None and "M" not in g.state.sites["fox"].occupants
