"""Golden tests: the Fire Example (with the errata) and the Assault Example, round by round; then the assault's
own rules, one case each."""
from dataclasses import replace
from fractions import Fraction

import pytest

from wargames import fte
from wargames.core import RandomDice, Resolution, ScriptedDice, enumerate_outcomes
from wargames.core.errors import RuleViolation
from wargames.fte.assault import AssaultPlan, assault, assault_distribution, start
from wargames.fte.errata import ORIGINAL, reading
from wargames.fte.examples import ASSAULT_DICE, assault_example, fire_example
from wargames.fte.fire import fire, to_hit_drms, FireOutcome
from wargames.fte.checks import Drm, total
from wargames.fte.state import FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import Unit

from .test_fte_protocol import frago, ft


def need(state, firers, target, **kw):
    f = [state.unit(i) for i in firers]
    drms = to_hit_drms(state, state.unit(target), f[0], support=f[1:], **kw)
    return FireOutcome(target, tuple(firers), tuple(drms), f[0].fire_rating).need, drms


@pytest.mark.rule("F 7.1", "F 7.2", "F Errata")
def test_fire_example_to_hit_numbers_with_the_errata():
    s = fire_example()
    n_ft, drms = need(s, ["US FT"], "NVA FT")
    assert n_ft == 3 and sorted(d.value for d in drms) == [-1, 2]
    n_mortar, drms = need(s, ["US Mortar"], "NVA FT", observed=True)
    assert n_mortar == 3 and [d.value for d in drms] == [1]          # +1 observer, no jungle for HE
    assert need(s, ["US FT", "US Mortar"], "NVA FT")[0] == 4            # the mortar supports: -1
    assert need(s, ["US Mortar", "US FT"], "NVA FT", observed=True)[0] == 4


@pytest.mark.rule("F 7.2", "F Errata")
def test_fire_example_misprint_reading_gives_five_not_three():
    s = fire_example(reading(observer_drm_plus_one=False))
    assert need(s, ["US Mortar"], "NVA FT", observed=True)[0] == 5


@pytest.mark.rule("F 7.1", "F 7.2", "F 7.4", "F 7.5.1", "F 29.0")
def test_fire_example_play_miss_then_mortar_kia_and_three_vp():
    s = fire_example()
    res = Resolution()
    with ScriptedDice([5], "Fire Example") as d:
        out = fire(s, ["US FT"], "NVA FT", d, res)
    assert (out.need, out.roll, out.hit) == (3, 5, False)
    with ScriptedDice([3, 1], "Fire Example") as d:
        out = fire(s, ["US Mortar"], "NVA FT", d, res, observed=True)
    assert (out.need, out.roll, out.hit, out.effect_roll, out.effect) == (3, 3, True, 1, "KIA")
    nva = s.unit("NVA FT")
    assert nva.reduced and nva.on_map
    assert [(c.kind, s.label(c.hex)) for c in s.casualties.values()] == [("KIA", "20.19")]
    assert s.vp == {"US": 3, "NVA/VC": 0}


@pytest.mark.rule("F 7.3", "F 7.2")
def test_mortar_without_los_needs_an_observer():
    s = fire_example()
    with pytest.raises(RuleViolation) as e:
        fire(s, ["US Mortar"], "NVA FT", ScriptedDice([3, 1]), Resolution())
    assert e.value.rule == "F 7.3"
    s.unit("US Ldr").suppressed = True
    with pytest.raises(RuleViolation) as e:
        fire(s, ["US Mortar"], "NVA FT", ScriptedDice([3, 1]), Resolution(), observed=True)
    assert e.value.rule == "F 7.2"


PLAN = AssaultPlan(("US FT 20.20", "US FT 19.19"), "20.19", combine=True, primary="US FT 20.20",
                   defender_targets=(("NVA FT", "US FT 19.19"),))


@pytest.mark.rule("F 8.0", "F 7.4", "F 7.1")
def test_assault_example_round_by_round():
    s = assault_example()
    with ScriptedDice(ASSAULT_DICE, "Assault Example") as d:
        run = assault(s, PLAN, d)
    tq = [st for st in run.res.steps if st.rule == "F 8.0" and "TQ check for the assault" in st.text]
    assert [st.inputs["roll"] for st in tq] == [1, 3] and all(st.result for st in tq)
    r1, r2, r3 = run.rounds
    us, nva = r1
    assert us.firers == ("US FT 20.20", "US FT 19.19") and us.target == "NVA FT"
    assert total(list(us.outcome.drms)) == 2 and us.outcome.need == 2 and not us.outcome.hit
    assert sorted(d.value for d in us.outcome.drms) == [-1, -1, 2, 2]      # jungle, concealed, adjacent, support
    assert nva.target == "US FT 19.19" and nva.outcome.need == 5 and nva.outcome.roll == 2
    assert (nva.outcome.effect_roll, nva.outcome.effect) == (5, "B")
    us, nva = r2
    assert us.firers == ("US FT 20.20",) and us.outcome.need == 3 and us.outcome.roll == 10 and not us.outcome.hit
    assert nva.target == "US FT 20.20" and nva.outcome.need == 5 and nva.outcome.roll == 6 and not nva.outcome.hit
    us, nva = r3
    assert (us.outcome.roll, us.outcome.effect_roll, us.outcome.effect) == (2, 8, "S")
    assert (nva.outcome.roll, nva.outcome.effect_roll, nva.outcome.effect) == (2, 9, "S?")
    assert run.result == "unresolved"
    n, b, a = s.unit("NVA FT"), s.unit("US FT 19.19"), s.unit("US FT 20.20")
    assert n.suppressed and not n.broken and not n.concealed and s.label(n.hex) == "20.19"
    assert b.broken and b.hex.distance(s.hex("20.19")) >= 3 and b.activated
    assert s.label(a.hex) == "20.20" and a.activated and not a.suppressed
    assert not s.casualties


@pytest.mark.rule("F 8.0")
def test_assault_bad_input():
    s = assault_example()
    with pytest.raises(RuleViolation) as e:
        assault(s, AssaultPlan(("US FT 22.19",), "20.19"), ScriptedDice([]))
    assert e.value.rule == "F 8.0" and "not adjacent" in e.value.reason
    s.unit("US FT 20.20").suppressed = True
    with pytest.raises(RuleViolation) as e:
        assault(s, AssaultPlan(("US FT 20.20",), "20.19"), ScriptedDice([]))
    assert "suppressed" in e.value.reason
    s2 = assault_example(ORIGINAL)
    s2.unit("US FT 20.20").suppressed = True
    from wargames.fte.assault import check_assault
    check_assault(s2, AssaultPlan(("US FT 20.20",), "20.19"))   # the original rule allowed it


@pytest.mark.rule("F 8.0")
def test_assault_distribution_sums_to_one_and_matches_sampling():
    s = assault_example()
    dist, finals = assault_distribution(s, PLAN)
    assert sum(dist.values()) == 1
    results = dist.map(lambda o: o.result)
    assert set(results) <= {"cleared", "repulsed", "unresolved"}
    # seeded sampling of the same procedure lands near the exact chances
    import random
    n = 400
    counts = {}
    for seed in range(n):
        st = assault_example()
        run = assault(st, PLAN, RandomDice(seed))
        counts[run.result] = counts.get(run.result, 0) + 1
    for r, p in results.items():
        assert abs(counts.get(r, 0) / n - float(p)) < 0.08


@pytest.mark.rule("F 7.2", "F 7.1")
def test_observed_mortar_supports_a_fire_team_led_attack_and_leads_its_own():
    s = fire_example()
    out = fire(s, ["US FT", "US Mortar"], "NVA FT", ScriptedDice([10]), Resolution(), observed=True)
    assert out.need == 4 and not any(d.rule == "F 7.2" for d in out.drms)
    s = fire_example()
    out = fire(s, ["US Mortar", "US FT"], "NVA FT", ScriptedDice([10]), Resolution(), observed=True)
    assert out.need == 4 and any(d.rule == "F 7.2" and d.value == 1 for d in out.drms)


@pytest.mark.rule("F 27.0", "F 7.4")
def test_sapper_ignores_possible_suppression_without_rolling():
    from wargames.fte.fire import apply_effect
    from wargames.fte.units import Unit
    from wargames.fte.state import place
    s = assault_example()
    place(s, [Unit("Sapper", "NVA", role="sapper", fire_rating=5, weapon="HE", men=1, hex=s.hex("20.18"))])
    with ScriptedDice([], "no dice") as d:
        assert apply_effect(s, "Sapper", "S?", d, Resolution()) == "none"


@pytest.mark.rule("F 7.4", "F 7.5.1")
def test_a_destroyed_helicopter_leaves_a_kia_marker_per_passenger():
    from wargames.fte.fire import apply_effect
    from wargames.fte.units import Unit
    from wargames.fte.state import place
    s = assault_example()
    place(s, [Unit("Slick", "US", kind="helicopter", role="slick", men=2, altitude="ground", hex=s.hex("22.19")),
              Unit("FT9", "US", fire_rating=4, weapon="SA", men=3, loaded_in="Slick", hex=s.hex("22.19"))])
    apply_effect(s, "Slick", "KIA", ScriptedDice([]), Resolution(), by="NVA/VC")
    assert [(c.kind, s.label(c.hex)) for c in s.casualties.values()] == [("KIA", "22.19")]
    assert s.vp["NVA/VC"] == 8 + 4


@pytest.mark.rule("F 8.0", "F 21.0", "F 7.4")
def test_assault_retreat_can_draw_opportunity_fire():
    from dataclasses import replace
    # round 1 as printed; round 2: the US hits with 1 and breaks the NVA unit (5), the NVA misses (10).
    dice = [1, 3, 5, 2, 5, 1, 5, 10]
    s = assault_example()
    with ScriptedDice(dice, "no retreat fire") as d:
        run = assault(s, PLAN, d)
    assert run.result == "cleared" and not [st for st in run.res.steps if st.rule == "F 21.0"]
    s = assault_example()
    with ScriptedDice(dice + [10], "retreat fire") as d:          # the US team's opportunity-fire check fails
        run = assault(s, replace(PLAN, retreat_opfire=True), d)
    checks = [st for st in run.res.steps if st.rule == "F 21.0" and "TQ check" in st.text]
    assert [c.inputs["unit"] for c in checks] == ["US FT 20.20"] and checks[0].result is False
    assert s.unit("US FT 20.20").hex == s.hex("20.19")             # then it advances into the cleared hex


@pytest.mark.rule("F 8.0", "F 25.0")
def test_advance_after_a_cleared_assault_into_the_foxholes():
    from dataclasses import replace
    from wargames.fte.units import Site
    s = assault_example()
    s.sites["fox"] = Site("fox", "foxholes", "NVA", s.hex("20.19"), revealed=True)
    dice = [1, 3, 5, 2, 5, 1, 5, 10]              # the NVA unit breaks in round 2 and retreats
    with ScriptedDice(dice, "advance") as d:
        run = assault(s, replace(PLAN, advance_into="foxholes"), d)
    u = s.unit("US FT 20.20")
    assert run.result == "cleared" and u.hex == s.hex("20.19") and u.fort == "foxholes"
    assert "US FT 20.20" in s.sites["fox"].occupants


# --------------------------------------------------------------------------- every printed number, with its dice

def parts(outcome):
    """(value, rule, reason) of each DRM of an attack, largest first."""
    return sorted(((d.value, d.rule, d.why) for d in outcome.drms), reverse=True)


JUNGLE, ADJACENT = (2, "F 7.1", "target in jungle"), (-1, "F 7.1", "firing into an adjacent hex")


@pytest.mark.rule("F 7.1", "F 7.2", "F Errata")
def test_fire_example_each_way_of_firing_and_its_parts():
    s = fire_example()
    assert sorted(need(s, ["US FT"], "NVA FT")[1], key=lambda d: -d.value) == [
        Drm(*JUNGLE), Drm(*ADJACENT)]                                           # 4 - (2 - 1) = 3
    assert need(s, ["US Mortar"], "NVA FT", observed=True)[1] == [Drm(1, "F 7.2", "observed mortar fire")]
    n, drms = need(s, ["US FT", "US Mortar"], "NVA FT")
    assert n == 4 and sorted(d.value for d in drms) == [-1, -1, 2]               # the mortar supports: -1
    n, drms = need(s, ["US Mortar", "US FT"], "NVA FT", observed=True)
    assert n == 4 and sorted((d.value, d.rule) for d in drms) == [(-1, "F 7.1"), (1, "F 7.2")]


def _game(tmp_path, units):
    """A game from a one-turn FRAGO on the demonstration map holding these units."""
    return fte.Game.for_frago(frago(tmp_path, units)).new(seed=1)


def _shots(g):
    """(firers and target, need, roll) of every to-hit roll since the game began."""
    return [(st.text.split(":")[0], st.inputs["need"], st.inputs["roll"])
            for r in g.resolutions for st in r.steps if st.rule == "F 7.1" and "need" in st.inputs]


@pytest.mark.rule("F 7.1", "F 7.2", "F 7.4", "F 7.5.1", "F 29.0", "F 5.0")
def test_fire_example_played_through_the_game(tmp_path):
    g = _game(tmp_path, [{"id": "US Ldr", "side": "US", "role": "leader", "tq": 5, "men": 1, "hex": "20.20"},
                          ft("US FT", "US", "20.20"),
                          {"id": "US Mortar", "side": "US", "role": "mortar", "fire_rating": 4, "weapon": "HE",
                           "tq": 4, "range": 12, "men": 3, "hex": "20.22"},
                          ft("NVA FT", "NVA", "20.19")])
    g.apply(fte.Draw())
    g.apply(fte.Activate("leader", ("US Ldr", "US FT", "US Mortar"), "US Ldr"))
    g.apply(fte.Fire(("US FT",), "NVA FT"), ScriptedDice([5], "the fire team misses"))
    g.apply(fte.Fire(("US Mortar",), "NVA FT", observed=True), ScriptedDice([3, 1], "the mortar hits: KIA"))
    assert _shots(g) == [("US FT at NVA FT", 3, 5), ("US Mortar at NVA FT", 3, 3)]
    effect = [st for st in g.resolutions[-1].steps if st.rule == "F 7.4"]
    [kia] = g.state.casualties
    assert g.prompt.kind == "carry" and g.prompt.side == "NVA/VC"     # the reduced NVA unit may take up its KIA
    g.apply(fte.Carry(kia))
    assert [(st.inputs["roll"], st.result) for st in effect] == [(1, "KIA")]
    s = g.state
    nva = s.units["NVA FT"]
    assert nva.reduced and s.label(nva.hex) == "20.19"
    assert [(c.kind, s.label(c.hex)) for c in s.casualties.values()] == [("KIA", "20.19")]
    assert s.vp == {"US": 3, "NVA/VC": 0}
    g.apply(fte.EndActivation())
    assert all(s.units[u].activated for u in ("US Ldr", "US FT", "US Mortar")) and not nva.activated


@pytest.mark.rule("F 8.0", "F 7.1", "F 7.4", "F 18.1")
def test_assault_example_every_printed_number():
    s = assault_example()
    with ScriptedDice(ASSAULT_DICE, "Assault Example") as d:
        run = assault(s, PLAN, d)
    steps = run.res.steps
    tq = [st for st in steps if "TQ check for the assault" in st.text]
    assert [(st.inputs["roll"], st.inputs["drm"], st.result) for st in tq] == [(1, 0, True), (3, 0, True)]
    assert all(st.arithmetic.endswith("vs TQ 4") for st in tq)                 # each needs 4 or lower
    assert any("do not take opportunity fire" in st.text for st in steps)
    (us1, nva1), (us2, nva2), (us3, nva3) = run.rounds
    assert total(list(us1.outcome.drms)) == 2 and parts(us1.outcome) == [
        JUNGLE, (2, "F 18.1", "target is concealed"), ADJACENT, (-1, "F 7.1", "US FT 19.19 supports the attack")]
    assert (us1.outcome.need, us1.outcome.roll, us1.outcome.hit) == (2, 5, False)
    assert parts(nva1.outcome) == [ADJACENT]                                    # no terrain for 19.19 yet
    assert (nva1.outcome.need, nva1.outcome.roll, nva1.outcome.effect_roll, nva1.outcome.effect) == (5, 2, 5, "B")
    for us, nva in ((us2, nva2), (us3, nva3)):                                  # "the same" in round 3
        assert parts(us.outcome) == [JUNGLE, ADJACENT] and us.outcome.need == 3
        assert parts(nva.outcome) == [ADJACENT] and nva.outcome.need == 5       # 20.20 is clear
    assert (us2.outcome.roll, nva2.outcome.roll) == (10, 6) and not us2.outcome.hit and not nva2.outcome.hit
    assert (us3.outcome.roll, us3.outcome.effect_roll, us3.outcome.effect) == (2, 8, "S")
    assert (nva3.outcome.roll, nva3.outcome.effect_roll, nva3.outcome.effect) == (2, 9, "S?")
    text = [st.text for st in steps]
    at = lambda start: next(i for i, t in enumerate(text) if t.startswith(start))
    # the concealed marker comes off between round 1 and round 2
    assert at("fire round 1") < at("NVA FT loses its Concealed marker after the first round") < at("fire round 2")
    # round 3's S is applied only after the NVA unit has fired back, then the S? is checked: 3 passes
    assert at("fire round 3") < at("NVA FT at US FT 20.20: needs 5 or less, rolls 2") < at("NVA FT is Suppressed")
    check = steps[at("US FT 20.20 TQ check for possible suppression")]
    assert (check.inputs["roll"], check.result) == (3, True) and "passes: no effect" in text[-2]
    retreat = [t for t in text if t.startswith("US FT 19.19 retreats into")]
    assert len(retreat) == 2
    n, b, a = s.unit("NVA FT"), s.unit("US FT 19.19"), s.unit("US FT 20.20")
    assert n.suppressed and n.activated and not n.broken and s.label(n.hex) == "20.19"
    assert b.broken and b.activated and b.hex.distance(s.hex("19.19")) == 2
    assert s.label(a.hex) == "20.20" and a.activated and not a.suppressed and not a.broken
    assert run.result == "unresolved"


@pytest.mark.rule("F 8.0", "F 7.4", "F 21.0")
def test_assault_example_played_through_the_game(tmp_path):
    g = _game(tmp_path, [{"id": "US Ldr", "side": "US", "role": "leader", "tq": 5, "men": 1, "hex": "21.20"},
                          ft("US FT 20.20", "US", "20.20"), ft("US FT 19.19", "US", "19.19"),
                          ft("US FT 22.19", "US", "22.19"), ft("NVA FT", "NVA", "20.19", concealed=True)])
    g.apply(fte.Draw())
    g.apply(fte.Activate("leader", ("US Ldr", "US FT 20.20", "US FT 19.19", "US FT 22.19"), "US Ldr"))
    assert fte.Assault(("US FT 22.19",), "20.19") not in g.legal_actions          # not adjacent
    g.apply(fte.Assault(("US FT 20.20", "US FT 19.19"), "20.19", primary="US FT 20.20"))
    assert g.prompt.side == "NVA/VC" and g.prompt.rule == "F 8.0"
    g.apply(fte.HoldFire(), ScriptedDice([1, 3, 5], "TQ checks 1 and 3; round 1: the US misses with 5"))
    assert g.state.units["NVA FT"].concealed
    g.apply(fte.AssaultTarget("NVA FT", "US FT 19.19"), ScriptedDice([2, 5], "the NVA hits: B"))
    assert g.prompt.kind == "retreat" and not g.state.units["NVA FT"].concealed
    g.apply(fte.Retreat("US FT 19.19", ("19.18", "19.17")), ScriptedDice([10, 6, 2, 8, 2, 9, 3], "rounds 2, 3"))
    assert _shots(g) == [("US FT 20.20 + US FT 19.19 at NVA FT", 2, 5), ("NVA FT at US FT 19.19", 5, 2),
                         ("US FT 20.20 at NVA FT", 3, 10), ("NVA FT at US FT 20.20", 5, 6),
                         ("US FT 20.20 at NVA FT", 3, 2), ("NVA FT at US FT 20.20", 5, 2)]
    s = g.state
    n, b, a = s.units["NVA FT"], s.units["US FT 19.19"], s.units["US FT 20.20"]
    assert n.suppressed and not n.broken and s.label(n.hex) == "20.19"
    assert b.broken and s.label(b.hex) == "19.17" and a.activated and s.label(a.hex) == "20.20"
    assert not a.suppressed and not s.casualties and g.prompt.kind == "play"


# --------------------------------------------------------------------------- the assault's own rules (F 8.0)

def _assault(s, plan, dice):
    with ScriptedDice(dice, "assault") as d:
        return assault(s, plan, d)


def _texts(run):
    return [st.text for st in run.res.steps]


@pytest.mark.rule("F 8.0")
def test_leaders_and_units_stacked_with_an_assaulting_leader_go_in_without_a_roll():
    s = assault_example()
    s.unit("US FT 20.20").hex = s.hex("21.20")                                  # with the leader, next to 20.19
    plan = AssaultPlan(("US Ldr", "US FT 20.20", "US FT 19.19"), "20.19", primary="US FT 20.20",
                       defender_targets=(("NVA FT", "US FT 19.19"),))
    run = _assault(s, plan, [3] + [10, 10] * 3)                                  # only 19.19 rolls
    tq = [t for t in _texts(run) if "TQ check for the assault" in t]
    assert tq == ["US Ldr passes its TQ check for the assault automatically: a leader",
                  "US FT 20.20 passes its TQ check for the assault automatically: stacked with an assaulting leader",
                  "US FT 19.19 TQ check for the assault: rolls 3, passes"]
    assert run.rounds[0][0].firers == ("US FT 20.20", "US FT 19.19")           # the leader does not fire
    s = assault_example()
    s.unit("US FT 20.20").hex = s.hex("21.20")                                  # the leader stays out: a roll
    run = _assault(s, PLAN, [1, 3, 10, 10, 10, 10, 10, 10])
    assert [st.inputs["roll"] for st in run.res.steps if "TQ check for the assault" in st.text] == [1, 3]


@pytest.mark.rule("F 27.0", "F 8.0")
def test_a_sapper_goes_in_without_a_roll_and_is_removed_after_its_attack():
    s = FteState(demo_map())
    place(s, [Unit("D", "US", fire_rating=4, weapon="SA", range=4, hex=s.hex("23.23")),
              Unit("Sap", "NVA", role="sapper", fire_rating=5, weapon="HE", men=1, hex=s.hex("23.22")),
              Unit("N", "NVA", fire_rating=4, weapon="SA", hex=s.hex("23.24"))])
    run = _assault(s, AssaultPlan(("Sap", "N"), "23.23"), [2] + [10, 10] * 3)
    assert [t for t in _texts(run) if "TQ check for the assault" in t] == [
        "Sap passes its TQ check for the assault automatically: a sapper", "N TQ check for the assault: rolls 2, passes"]
    us = [a for a in run.rounds[0] if a.side == "defender"][0]
    assert us.target == "Sap" and us.outcome.need == 6                          # -1 sapper, -1 adjacent
    assert s.unit("Sap").hex is None and "sapper Sap is removed after its attack (no VP)" in _texts(run)
    assert s.vp == {"US": 0, "NVA/VC": 0}


@pytest.mark.rule("F 8.0", "F 7.4")
def test_broken_defenders_do_not_fire_but_the_first_round_is_fought():
    s = assault_example()
    s.unit("NVA FT").broken = True
    run = _assault(s, PLAN, [1, 3, 10])
    assert [a.side for r in run.rounds for a in r] == ["attacker"] and run.result == "cleared"


@pytest.mark.rule("F 8.0", "F 27.0")
def test_leaders_and_sappers_in_the_assaulted_hex_do_not_fire():
    s = assault_example()
    place(s, [Unit("NVA Ldr", "NVA", role="leader", tq=5, men=1, hex=s.hex("20.19")),
              Unit("NVA Sap", "NVA", role="sapper", fire_rating=5, weapon="HE", men=1, hex=s.hex("20.19"))])
    run = _assault(s, PLAN, [1, 3] + [10, 10] * 3)
    assert {a.firers for r in run.rounds for a in r if a.side == "defender"} == {("NVA FT",)}


@pytest.mark.rule("F 8.0", "F Revisions")
def test_suppressed_defenders_fight_on_only_after_the_revision():
    s = assault_example()
    s.unit("NVA FT").suppressed = True
    run = _assault(s, PLAN, [1, 3] + [10, 10] * 3)
    nva = [a for r in run.rounds for a in r if a.side == "defender"]
    assert len(nva) == 3 and nva[0].outcome.need == 3                          # -1 adjacent, +2 suppressed
    s = assault_example(ORIGINAL)
    s.unit("NVA FT").suppressed = True
    run = _assault(s, PLAN, [1, 3, 10, 10, 10])
    assert [a.side for r in run.rounds for a in r] == ["attacker"] * 3 and run.result == "unresolved"
    s = assault_example(ORIGINAL)                          # unsuppressed, it fires under either reading
    run = _assault(s, PLAN, ASSAULT_DICE)
    assert [[a.side for a in r] for r in run.rounds] == [["attacker", "defender"]] * 3


@pytest.mark.rule("F 8.0", "F 7.1")
def test_the_assaulting_units_get_their_terrain_modifier_from_the_second_round():
    s = assault_example()                                    # the NVA unit fires at 19.19 (grass, +1) each round
    run = _assault(s, PLAN, [1, 3] + [10, 10] * 3)
    assert [[a.outcome.need for a in r] for r in run.rounds] == [[2, 5], [4, 4], [4, 4]]
    assert [parts(r[1].outcome) for r in run.rounds[1:]] == [[(1, "F 7.1", "target in grass"), ADJACENT]] * 2


@pytest.mark.rule("F 8.0", "F 7.4")
def test_when_both_sides_break_together_the_defender_retreats_first():
    s = assault_example()
    run = _assault(s, PLAN, [1, 3, 1, 4, 1, 5])              # the US hits: B; the NVA hits 19.19: B
    text = _texts(run)
    first = lambda start: next(i for i, t in enumerate(text) if t.startswith(start))
    assert first("NVA FT ends its retreat") < first("US FT 19.19 ends its retreat")
    assert run.result == "cleared" and len(run.rounds) == 1
    assert s.label(s.unit("US FT 20.20").hex) == "20.19" and s.label(s.unit("US FT 19.19").hex) != "20.19"


@pytest.mark.rule("F 8.0")
def test_an_assault_is_repulsed_when_no_attacker_is_left():
    s = assault_example()
    run = _assault(s, AssaultPlan(("US FT 20.20",), "20.19"), [1, 10, 1, 4])     # the NVA unit breaks it
    assert run.result == "repulsed" and len(run.rounds) == 1 and s.unit("US FT 20.20").broken


@pytest.mark.rule("F 8.0", "F Revisions")
def test_a_suppressed_attacker_drops_out_of_the_assault():
    s = assault_example()
    run = _assault(s, PLAN, [1, 3, 10, 1, 6] + [10, 10] * 2)                    # 6: S on 19.19
    assert [(a.firers, a.target) for a in run.rounds[1]] == [(("US FT 20.20",), "NVA FT"),
                                                             (("NVA FT",), "US FT 20.20")]
    b = s.unit("US FT 19.19")
    assert b.suppressed and not b.broken and s.label(b.hex) == "19.19"


@pytest.mark.rule("F 8.0", "F 7.4")
def test_a_broken_vehicle_stays_put_and_drops_out_of_the_assault():
    s = assault_example()
    s.unit("US FT 20.20").hex = None
    place(s, [Unit("APC", "US", kind="vehicle", role="apc", fire_rating=4, weapon="DP", defense=2, range=6, men=2,
                   hex=s.hex("20.20"))])
    plan = AssaultPlan(("APC", "US FT 19.19"), "20.19", primary="APC", defender_targets=(("NVA FT", "APC"),))
    run = _assault(s, plan, [1, 3, 10, 1, 5] + [10, 10] * 2)                   # 5: B on the APC
    apc = s.unit("APC")
    assert apc.broken and s.label(apc.hex) == "20.20"
    assert [(a.firers, a.target) for a in run.rounds[1]] == [(("US FT 19.19",), "NVA FT"),
                                                             (("NVA FT",), "US FT 19.19")]


@pytest.mark.rule("F 8.0", "F 7.5.1")
def test_an_eliminated_attacker_drops_out_of_the_assault():
    s = assault_example()
    s.unit("US FT 19.19").men = 2
    run = _assault(s, PLAN, [1, 3, 10, 1, 1] + [10, 10] * 2)                   # 1: KIA, a two-man team is gone
    assert not s.unit("US FT 19.19").on_map and s.vp["NVA/VC"] == 4
    assert [a.firers for a in run.rounds[1]] == [("US FT 20.20",), ("NVA FT",)]


@pytest.mark.rule("F 8.0", "F 22.0", "F 28.0")
def test_dummies_and_civilians_in_the_hex_are_removed_before_the_fire():
    s = assault_example()
    place(s, [Unit("Dummy", "NVA", role="dummy", men=1, hex=s.hex("20.19"), concealed=True)])
    run = _assault(s, PLAN, [1, 3] + [10, 10] * 3)
    assert s.unit("Dummy").hex is None and "Dummy is revealed as a dummy and removed" in _texts(run)
    s = assault_example()
    s.unit("NVA FT").hex = None
    place(s, [Unit("Civ", "VC", role="civilians", men=1, hex=s.hex("20.19"), concealed=True)])
    run = _assault(s, PLAN, [1, 3])
    assert run.rounds == [] and run.result == "cleared" and s.label(s.unit("US FT 20.20").hex) == "20.19"


@pytest.mark.rule("F 8.0")
def test_no_fire_round_when_every_attacker_stays_back():
    s = assault_example()
    run = _assault(s, PLAN, [9, 9])
    assert run.rounds == [] and run.result == "repulsed"
    assert [t for t in _texts(run) if t.endswith("stays back")] == ["US FT 20.20 stays back", "US FT 19.19 stays back"]


@pytest.mark.rule("F 8.0", "F 21.0")
@pytest.mark.parametrize("men, effect, what", [(4, 6, "suppressed"), (4, 4, "broken"), (2, 1, "gone")])
def test_an_attacker_hit_by_the_defenders_opportunity_fire_stays_out(men, effect, what):
    s = assault_example()
    s.unit("US FT 19.19").men = men
    plan = replace(PLAN, defender_opfire=(("NVA FT", "US FT 19.19"),))
    # the NVA unit's check (1), its hit (1) and effect; then 20.20 alone rolls its TQ check and fights
    run = _assault(s, plan, [1, 1, effect, 1] + [10, 10] * 3)
    assert [st.inputs["unit"] for st in run.res.steps if "TQ check for the assault" in st.text] == ["US FT 20.20"]
    assert "US FT 19.19 is out of the assault after the opportunity fire" in _texts(run)
    assert [a.firers for a in run.rounds[0]] == [("US FT 20.20",), ("NVA FT",)]
    b = s.unit("US FT 19.19")
    assert {"suppressed": b.suppressed, "broken": b.broken, "gone": not b.on_map}[what]


@pytest.mark.rule("F 8.0", "F 21.0", "F 18.1")
@pytest.mark.parametrize("dice, concealed, shots", [
    ([9, 1, 3, 5], True, [("US FT 20.20 + US FT 19.19 at NVA FT", 2, 5)]),        # the check fails: no shot
    ([1, 10, 1, 3, 5], False, [("NVA FT at US FT 19.19", 5, 10),                   # grass +1, adjacent -1,
                               ("US FT 20.20 + US FT 19.19 at NVA FT", 4, 5)])])  # concealed firer -1
def test_a_concealed_defenders_opportunity_fire_checks_first_and_fires_with_minus_one(tmp_path, dice, concealed,
                                                                                     shots):
    g = _game(tmp_path, [{"id": "US Ldr", "side": "US", "role": "leader", "tq": 5, "men": 1, "hex": "21.20"},
                          ft("US FT 20.20", "US", "20.20"), ft("US FT 19.19", "US", "19.19"),
                          ft("NVA FT", "NVA", "20.19", concealed=True)])
    g.apply(fte.Draw())
    g.apply(fte.Activate("leader", ("US Ldr", "US FT 20.20", "US FT 19.19"), "US Ldr"))
    g.apply(fte.Assault(("US FT 20.20", "US FT 19.19"), "20.19", primary="US FT 20.20"))
    g.apply(fte.OpFire(("NVA FT",), "US FT 19.19"), ScriptedDice(dice, "the defender's opportunity fire"))
    nva = g.state.units["NVA FT"]
    assert nva.op_fired and nva.concealed == concealed
    assert _shots(g) == shots and g.prompt.kind == "assault_target"


@pytest.mark.rule("F 8.0", "F Revisions")
def test_a_leader_put_out_of_the_assault_no_longer_spares_his_stack_the_check():
    s = assault_example()
    s.unit("US FT 20.20").hex = s.hex("21.20")                                  # stacked with the leader
    plan = AssaultPlan(("US Ldr", "US FT 20.20", "US FT 19.19"), "20.19", primary="US FT 20.20",
                       defender_opfire=(("NVA FT", "US Ldr"),), defender_targets=(("NVA FT", "US FT 19.19"),))
    # the NVA unit's check 1, hit 1, effect 6: S, the leader is out; then both teams roll (2, 3)
    run, dice = start(s, plan), ScriptedDice([1, 1, 6, 2, 3], "a suppressed leader")
    while run.phase != "reveal":
        run.step(dice)
    assert s.unit("US Ldr").suppressed and "US Ldr is out of the assault after the opportunity fire" in _texts(run)
    rolled = [st.inputs["unit"] for st in run.res.steps if "TQ check for the assault: rolls" in st.text]
    assert rolled == ["US FT 20.20", "US FT 19.19"]


@pytest.mark.rule("F 8.0", "F 21.0")
def test_a_planned_opportunity_shot_at_an_attacker_already_broken_is_held():
    """Two defenders plan their opportunity fire at the same attacker; the first shot breaks it (it runs back,
    F 7.4), so the second defender keeps its fire instead of firing at a unit no longer in the assault."""
    from wargames.compare.fte import BUNKER_HEX, position
    from wargames.core.dice import ScriptedDice
    from wargames.fte.assault import AssaultPlan, assault
    from wargames.fte.state import place
    from wargames.fte.units import Unit
    s = position()
    place(s, [Unit("US FT 2", "US", fire_rating=4, weapon="SA", tq=4, range=4, men=4, hex=s.hex(BUNKER_HEX))])
    plan = AssaultPlan(("NVA FT 1", "NVA FT 2"), BUNKER_HEX, advance=False,
                       defender_opfire=(("US FT", "NVA FT 1"), ("US FT 2", "NVA FT 1")))
    # US FT: TQ check 2 (passes), to-hit 1 (hits), effect 5 (B): NVA FT 1 breaks and retreats two hexes
    run = start(s, plan)
    dice = ScriptedDice([2, 1, 5])
    while run.phase != "tq":
        run.step(dice)
    dice.finish()                                   # the second defender rolled nothing
    texts = [st.text for st in run.res.steps]
    assert "NVA FT 1 is Broken" in texts
    assert "US FT 2 holds its fire: NVA FT 1 is already out of the assault" in texts
    assert s.unit("US FT").op_fired and not s.unit("US FT 2").op_fired
