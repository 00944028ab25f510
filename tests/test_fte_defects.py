"""Rule defects of Front Toward Enemy found by playing it as a class would, each checked through ``Game.apply``
from a FRAGO start (issue: FTE playable in full). Each test failed before its fix."""
import pytest

from wargames import fte
from wargames.core import ScriptedDice
from wargames.core.errors import DataError, RuleViolation
from wargames.fte.game import AssaultStep, OpFireStep

from .test_fte_protocol import frago, ft


def heli(uid, hx, altitude, **kw):
    return {"id": uid, "side": "US", "kind": "helicopter", "role": "cobra", "altitude": altitude, "tq": 5,
            "defense": 1, "men": 2, "fire_rating": 6, "weapon": "DP", "range": 4, "hex": hx, **kw}


def game(tmp_path, units, first="US", **extra):
    g = fte.Game.for_frago(frago(tmp_path, units, first_player=first, **extra)).new(seed=1)
    g.apply(fte.Draw())
    return g


def to_hit(res):
    """The to-hit steps of a Resolution (F 7.1): their arithmetic, one string each."""
    return [s.arithmetic for s in res.steps if s.rule == "F 7.1" and "needs" in s.text]


def hold_all(g):
    while g.prompt.kind == "opportunity_fire":
        g.apply(fte.HoldFire())


@pytest.mark.rule("F 8.0")
def test_an_assault_on_broken_defenders_fights_its_first_round(tmp_path):
    """Defect 1: the first fire round is always fought; the all-Broken test comes after a round."""
    g = game(tmp_path, [ft("M", "US", "17.23"), ft("D", "NVA", "17.22", broken=True)])
    g.apply(fte.Activate("unit", ("M",)))
    # D is broken, so it may not fire before the assault; M passes its TQ check (1), hits (1) and rolls B (4):
    # D, already broken, retreats two more hexes
    res = g.apply(fte.Assault(("M",), "17.22"), ScriptedDice([1, 1, 4]))
    assert g.pending and isinstance(g.pending[0], AssaultStep)
    assert [(a.side, a.target) for a in g.pending[0].run.rounds[0]] == [("attacker", "D")]
    assert any("fire round 1" in s.text for s in res.steps)
    assert g.prompt.kind == "retreat" and g.prompt.side == "NVA/VC"
    g.apply(next(iter(g.legal_actions)))
    hold_all(g)
    assert g.prompt.kind == "advance"                 # the hex is empty now: M may go in
    g.apply(fte.Advance(("M",)))
    assert g.state.label(g.state.units["M"].hex) == "17.22"


@pytest.mark.rule("F 8.0")
def test_a_missed_first_round_on_broken_defenders_still_ends_the_assault_with_them_in_place(tmp_path):
    g = game(tmp_path, [ft("M", "US", "17.23"), ft("D", "NVA", "17.22", broken=True)])
    g.apply(fte.Activate("unit", ("M",)))
    g.apply(fte.Assault(("M",), "17.22"), ScriptedDice([1, 10]))       # in, then a miss
    assert not g.pending                  # every defender broken after the round: over; D still blocks the hex
    assert g.state.label(g.state.units["D"].hex) == "17.22" and g.state.label(g.state.units["M"].hex) == "17.23"


@pytest.mark.rule("F 8.0", "F 21.0", "F 18.1")
def test_a_concealed_defender_that_fails_its_check_stays_concealed(tmp_path):
    """Defect 2: the TQ check comes first; a concealed defender loses its marker only if it fires."""
    g = game(tmp_path, [ft("M", "US", "17.23"), ft("D", "NVA", "17.22", concealed=True)])
    g.apply(fte.Activate("unit", ("M",)))
    g.apply(fte.Assault(("M",), "17.22"))
    assert isinstance(g.pending[-1], OpFireStep) and g.pending[-1].why == "assault"
    g.apply(fte.OpFire(("D",), "M"), ScriptedDice([9, 10]))     # TQ 4: a 9 fails; M then fails its own (10)
    d = g.state.units["D"]
    assert d.concealed and d.op_fired


@pytest.mark.rule("F 8.0", "F 21.0", "F 18.1")
def test_a_concealed_defender_that_fires_gets_the_concealed_firers_minus_one_then_is_seen(tmp_path):
    g = game(tmp_path, [ft("M", "US", "17.23"), ft("D", "NVA", "17.22", concealed=True)])
    g.apply(fte.Activate("unit", ("M",)))
    g.apply(fte.Assault(("M",), "17.22"))
    res = g.apply(fte.OpFire(("D",), "M"), ScriptedDice([1, 7, 10]))   # passes, a 7 misses (needs 6), M's TQ 10
    [arith] = to_hit(res)
    assert "-1 a concealed unit's opportunity fire (F 21.0)" in arith and arith.endswith("net -2 -> 6")
    assert not g.state.units["D"].concealed


@pytest.mark.rule("F 26.0", "F 7.4")
def test_a_broken_unit_retreating_into_a_booby_trap_sets_it_off(tmp_path):
    """Defect 4: a retreat enters hexes like a move does."""
    units = [ft("M", "US", "20.20"), ft("A", "NVA", "21.21")]
    g = game(tmp_path, units, first="NVA/VC", booby_traps=["20.19"])
    g.apply(fte.Activate("unit", ("A",)))
    g.apply(fte.Fire(("A",), "M"), ScriptedDice([1, 4]))          # a hit, B: M retreats away from 21.21
    paths = [a.path for a in g.legal_actions if isinstance(a, fte.Retreat)]
    path = next(p for p in paths if p[0] == "20.19")
    g.apply(fte.Retreat("M", path), ScriptedDice([9]))             # the trap's TQ check fails: a WIA
    assert not g.state.booby_traps
    assert g.state.units["M"].reduced and any(c.kind == "WIA" for c in g.state.casualties.values())


@pytest.mark.rule("F 7.5.3", "F 8.0")
def test_advancing_after_an_assault_captures_a_wia_left_alone_in_the_hex(tmp_path):
    g = game(tmp_path, [ft("M", "US", "17.23"), ft("D", "NVA", "17.22", men=2)])
    g.apply(fte.Activate("unit", ("M",)))
    g.apply(fte.Assault(("M",), "17.22"))
    # no defensive fire; M in (1); round 1: M hits (1), WIA (2): the 2-man D is replaced by a WIA marker
    g.apply(fte.HoldFire(), ScriptedDice([1, 1, 2, 10]))        # D fires back at once: a miss (10)
    assert g.prompt.kind == "advance" and [c.kind for c in g.state.casualties.values()] == ["WIA"]
    res = g.apply(fte.Advance(("M",)))
    assert not g.state.casualties and g.state.vp["US"] == 3 + 2       # the WIA, then its capture
    assert res.find("F 7.5.3")


@pytest.mark.rule("F 7.4")
def test_passengers_of_a_destroyed_vehicle_retreat_on_a_broken_result(tmp_path):
    """Defect 5: only a fire mission's Broken result stays put."""
    units = [{"id": "APC", "side": "US", "kind": "vehicle", "role": "apc", "fire_rating": 5, "weapon": "DP",
              "range": 6, "tq": 4, "defense": 1, "men": 4, "hex": "17.23"},
             ft("P", "US", "17.23", loaded_in="APC"), ft("D", "NVA", "17.24")]
    g = game(tmp_path, units, first="NVA/VC")
    g.apply(fte.Activate("unit", ("D",)))
    g.apply(fte.Fire(("D",), "APC"), ScriptedDice([1, 1, 5]))       # a hit, KIA: destroyed; P rolls 5 (B)
    assert "APC" not in [u.id for u in g.state.on_map()]
    assert g.state.units["P"].broken
    [crew] = g.state.casualties                        # the crew's KIA marker: P may take it up at once
    assert g.prompt.kind == "carry" and set(g.legal_actions) == {fte.Carry(crew, "P"), fte.Carry(crew)}
    g.apply(fte.Carry(crew))
    assert g.prompt.kind == "retreat" and g.prompt.side == "US" and "away from 17.24" in g.prompt.question


@pytest.mark.rule("F 6.8")
def test_a_helicopter_at_ground_level_pays_one_mp_a_hex_across_a_slope(tmp_path):
    """Defect 6: 22.19 (elevation 0) to 22.20 (elevation 1) crosses a slope."""
    slick = {"id": "H", "side": "US", "kind": "helicopter", "role": "slick", "altitude": "ground", "tq": 5,
             "defense": 1, "hex": "22.19"}
    g = game(tmp_path, [slick, ft("A", "NVA", "25.25")])
    g.apply(fte.Activate("unit", ("H",)))
    assert fte.Move(("H",), ("22.20", "23.20")) in g.legal_actions
    g.apply(fte.Move(("H",), ("22.20", "23.20")))
    hold_all(g)
    assert g.state.label(g.state.units["H"].hex) == "23.20"


@pytest.mark.rule("F 6.8", "F 7.1")
def test_range_is_doubled_when_the_firer_is_the_helicopter_at_high_altitude(tmp_path):
    """Defect 8: a High Cobra of range 4 firing 3 hexes is at range 6 (beyond range, within double)."""
    g = game(tmp_path, [heli("H", "17.23", "high"), ft("A", "NVA", "20.23")])
    assert g.state.map.hex("17.23").distance(g.state.map.hex("20.23")) == 3
    g.apply(fte.Activate("unit", ("H",)))
    res = g.apply(fte.Fire(("H",), "A"), ScriptedDice([10]))
    [arith] = to_hit(res)
    assert "+1 beyond range (6 > 4), up to double (F 7.1)" in arith
    g2 = game(tmp_path, [heli("H", "17.23", "high", range=2), ft("A", "NVA", "20.23")])
    g2.apply(fte.Activate("unit", ("H",)))
    with pytest.raises(RuleViolation, match="beyond double its range"):
        g2.apply(fte.Fire(("H",), "A"))


@pytest.mark.rule("F 6.8", "F 7.1")
def test_fire_between_adjacent_hexes_keeps_its_minus_one_at_high_altitude(tmp_path):
    """Defect 11, our reading: F 7.1's -1 is for firing into an adjacent hex, and F 6.8 doubles only the range
    counted; a High helicopter next door is still in an adjacent hex."""
    g = game(tmp_path, [heli("H", "17.23", "high"), ft("A", "NVA", "17.22")])
    g.apply(fte.Activate("unit", ("H",)))
    res = g.apply(fte.Fire(("H",), "A"), ScriptedDice([10]))
    [arith] = to_hit(res)
    assert "-1 firing into an adjacent hex (F 7.1)" in arith and "beyond range" not in arith
    g = game(tmp_path, [heli("H", "17.23", "high"), ft("A", "NVA", "17.22")], first="NVA/VC")
    g.apply(fte.Activate("unit", ("A",)))
    res = g.apply(fte.Fire(("A",), "H"), ScriptedDice([10]))       # and the other way round
    [arith] = to_hit(res)
    assert "-1 firing into an adjacent hex (F 7.1)" in arith


@pytest.mark.rule("F TEC", "F 21.0")
def test_the_trail_or_road_minus_one_is_for_a_unit_using_it(tmp_path):
    """Defect 12, our reading of TEC note a: a unit moving along the road (23.24 to 23.23) draws the -1; one
    stepping onto the road from off it (22.23 to 23.23) does not."""
    for start, minus in (("23.24", True), ("22.23", False)):
        g = game(tmp_path, [ft("M", "US", start), ft("A", "NVA", "23.26")])
        g.apply(fte.Activate("unit", ("M",)))
        g.apply(fte.Move(("M",), ("23.23",)))
        res = g.apply(fte.OpFire(("A",), "M"), ScriptedDice([1, 10]))
        [arith] = to_hit(res)
        assert ("(note a)" in arith) is minus, start


@pytest.mark.rule("F 7.4")
def test_a_downed_helicopter_may_only_be_activated_to_unload(tmp_path):
    """Defect 3a."""
    units = [heli("H", "17.23", "ground", downed=True, role="slick"), ft("P", "US", "17.23", loaded_in="H"),
             ft("A", "NVA", "17.21")]
    g = game(tmp_path, units)
    g.apply(fte.Activate("unit", ("H",)))
    with pytest.raises(RuleViolation, match="downed: it may only be activated to Unload"):
        g.apply(fte.Fire(("H",), "A"))
    assert not any(isinstance(a, (fte.Fire, fte.Move)) for a in g.legal_actions)
    g.apply(fte.Unload("H", ("P",)))
    hold_all(g)
    assert g.state.units["P"].on_map
    g.apply(fte.EndActivation())          # a downed helicopter owes no Move


@pytest.mark.rule("F 7.4")
def test_a_broken_helicopter_may_only_fly_off_the_map(tmp_path):
    """Defect 3b."""
    g = game(tmp_path, [heli("H", "20.20", "treetop", broken=True), ft("A", "NVA", "25.25")])
    g.apply(fte.Activate("unit", ("H",)))
    with pytest.raises(RuleViolation, match="only Move is to fly off the map"):
        g.apply(fte.Move(("H",), ("20.19",)))
    with pytest.raises(RuleViolation, match="may only Move"):
        g.apply(fte.Recover("H"))
    with pytest.raises(RuleViolation, match="must take its Move"):
        g.apply(fte.EndActivation())
    [away] = [a for a in g.legal_actions if isinstance(a, fte.Move)]
    assert away.exit_map
    g.apply(away)
    hold_all(g)
    assert not g.state.units["H"].on_map


@pytest.mark.rule("F 5.0", "F 5.1", "F 21.0")
def test_a_helicopter_cannot_end_its_activation_without_its_move(tmp_path):
    """Defect 3c: its Move may be a hover, still open to opportunity fire."""
    g = game(tmp_path, [heli("H", "17.23", "treetop"), ft("A", "NVA", "17.21")])
    g.apply(fte.Activate("unit", ("H",)))
    g.apply(fte.Fire(("H",), "A"), ScriptedDice([10]))
    with pytest.raises(RuleViolation, match="must take its Move action first"):
        g.apply(fte.EndActivation())
    g.apply(fte.Move(("H",)))
    assert g.prompt.kind == "opportunity_fire" and fte.OpFire(("A",), "H") in g.legal_actions
    hold_all(g)
    g.apply(fte.EndActivation())


@pytest.mark.rule("F 2.0", "F 7.5.1", "F 7.5.2")
def test_a_flipped_unit_takes_its_reduced_sides_values(tmp_path):
    """Defect 9: the reduced side fires, counts and carries as a smaller unit. A FRAGO may give the printed
    reduced values; without them ours are one figure fewer and a fire rating one lower (reconstructed)."""
    units = [ft("M", "US", "17.23"), ft("A", "NVA", "17.24"), ft("B", "NVA", "17.22", reduced_fire_rating=2,
                                                                   reduced_men=2)]
    g = game(tmp_path, units)
    g.apply(fte.Activate("unit", ("M",)))
    res = g.apply(fte.Fire(("M",), "A"), ScriptedDice([1, 1]))       # a hit, KIA: A flips
    a = g.state.units["A"]
    assert (a.reduced, a.fire_rating, a.men, a.carry_limit) == (True, 3, 3, 1)
    assert "fire rating 3, 3 men (reconstructed counter values)" in res.find("F 7.5.1")[0].text
    b = fte.Game.for_frago(frago(tmp_path, [dict(units[2], reduced=True), units[0]], name="g.yaml")).new()
    assert (b.state.units["B"].fire_rating, b.state.units["B"].men) == (2, 2)      # set up on its reduced side
    with pytest.raises(DataError, match="reduced_men"):
        frago(tmp_path, [ft("C", "US", "17.23", reduced_men=4)], name="bad.yaml")


@pytest.mark.rule("F 14.0", "F 15.0", "F 21.0")
def test_the_enemy_may_fire_before_a_load_and_a_unit_it_stops_stays_behind(tmp_path):
    apc = {"id": "APC", "side": "US", "kind": "vehicle", "role": "apc", "fire_rating": 5, "weapon": "DP",
           "range": 6, "tq": 4, "defense": 1, "men": 4, "hex": "17.23"}
    units = [apc, ft("P", "US", "17.23"), ft("A", "NVA", "17.21")]
    g = game(tmp_path, units)
    g.apply(fte.Activate("unit", ("APC",)))
    g.apply(fte.Load("APC", ("P",)))
    assert g.prompt.kind == "opportunity_fire" and "before" in g.prompt.question
    assert not g.state.units["P"].loaded_in                      # not aboard yet
    assert {fte.OpFire(("A",), "P"), fte.OpFire(("A",), "APC"), fte.HoldFire()} <= set(g.legal_actions)
    g.apply(fte.OpFire(("A",), "P"), ScriptedDice([1, 1, 6]))    # passes, hits, S: P's activation is over
    assert g.state.units["P"].suppressed and g.state.units["P"].loaded_in is None and not g.pending
    # the other way: hold fire before, then A may fire after, at the loaded APC
    g = game(tmp_path, units)
    g.apply(fte.Activate("unit", ("APC",)))
    g.apply(fte.Load("APC", ("P",)))
    g.apply(fte.HoldFire())
    assert g.state.units["P"].loaded_in == "APC"
    assert g.prompt.kind == "opportunity_fire" and set(g.legal_actions) == {fte.OpFire(("A",), "APC"), fte.HoldFire()}


@pytest.mark.rule("F 26.0")
def test_the_us_player_fires_a_claymore_when_the_enemy_walks_into_it(tmp_path):
    units = [ft("M", "US", "22.22", broken=False), ft("A", "NVA", "24.22")]
    g = game(tmp_path, units, first="NVA/VC", claymores=["23.22"])
    g.apply(fte.Activate("unit", ("A",)))
    g.apply(fte.Move(("A",), ("23.22",)))
    assert g.prompt.side == "US" and fte.DetonateClaymore("23.22") in g.legal_actions
    g.apply(fte.DetonateClaymore("23.22"), ScriptedDice([1, 6]))   # HE 4 hits A in the clear, B: it breaks
    assert not g.state.claymores and g.state.units["A"].broken
    assert g.prompt.kind == "retreat" and g.prompt.side == "NVA/VC"


@pytest.mark.rule("F 3.0")
def test_every_implemented_section_is_reached_in_play_or_has_a_written_reason():
    """What the coverage appendix shows, with the same random games (400 actions, two seeds a FRAGO)."""
    from wargames.games import rules_reached, sections
    reached = rules_reached("fte", 400)
    missed = [s.id for s in sections("fte") if s.status == "implemented" and s.id not in reached
              and not fte.Game.why_not_in_play(s.id)]
    assert missed == []


@pytest.mark.rule("F 7.4", "F 21.0", "F 6.1")
def test_opportunity_fire_ends_only_its_targets_activation_and_the_rest_of_the_stack_moves_on(tmp_path):
    g = game(tmp_path, [ft("M1", "US", "17.24"), ft("M2", "US", "17.24"), ft("A", "NVA", "20.23")])
    g.apply(fte.Activate("hex", ("M1", "M2")))
    g.apply(fte.Move(("M1", "M2"), ("17.23", "17.22")))
    assert {fte.OpFire(("A",), "M1"), fte.OpFire(("A",), "M2")} <= set(g.legal_actions)
    g.apply(fte.OpFire(("A",), "M1"), ScriptedDice([1, 1, 6]))      # passes, hits, S: M1 stops in 17.23
    hold_all(g)
    lab = lambda uid: g.state.label(g.state.units[uid].hex)
    assert (lab("M1"), lab("M2")) == ("17.23", "17.22")
    assert g.state.units["M1"].suppressed and not g.state.units["M2"].suppressed


@pytest.mark.rule("F 7.5.2")
def test_a_new_casualty_marker_may_be_taken_up_at_once_by_its_owners_unit_in_the_hex(tmp_path):
    g = game(tmp_path, [ft("M", "US", "17.23"), ft("A", "NVA", "17.21", men=2), ft("B", "NVA", "17.21")])
    g.apply(fte.Activate("unit", ("M",)))
    g.apply(fte.Fire(("M",), "A"), ScriptedDice([1, 2]))        # a hit, WIA: the 2-man A becomes a WIA marker
    [wia] = g.state.casualties
    assert g.prompt.side == "NVA/VC" and g.prompt.kind == "carry"
    assert set(g.legal_actions) == {fte.Carry(wia, "B"), fte.Carry(wia)}
    with pytest.raises(RuleViolation):
        g.apply(fte.Carry(wia, "M"))
    g.apply(fte.Carry(wia, "B"))
    assert g.state.units["B"].carrying == [wia] and g.prompt.side == "US"        # back to the activation


@pytest.mark.rule("F 10.0", "F 7.5.2")
def test_a_recover_action_may_be_nothing_but_picking_up_a_marker(tmp_path):
    g = game(tmp_path, [ft("M", "US", "17.23"), ft("A", "NVA", "17.21", men=2), ft("B", "NVA", "17.21")])
    g.apply(fte.Activate("unit", ("M",)))
    g.apply(fte.Fire(("M",), "A"), ScriptedDice([1, 2]))
    [wia] = g.state.casualties
    g.apply(fte.Carry(wia))                                     # left on the ground for now
    g.apply(fte.EndActivation())
    g.apply(fte.Draw(), ScriptedDice([3]))                      # the cup: US, US, NVA/VC, NVA/VC
    g.apply(fte.Activate("unit", ("B",)))
    b = g.state.units["B"]
    assert not (b.suppressed or b.broken or b.exhausted or b.low_ammo)      # nothing else to recover from
    g.apply(fte.Recover("B", pick_up=wia))
    assert b.carrying == [wia]


@pytest.mark.rule("F 26.0")
def test_each_player_plots_his_traps_in_secret_at_set_up(tmp_path):
    """A FRAGO may leave the plotting to the players: the number each gets, then a prompt per trap."""
    g = fte.Game.for_frago(frago(tmp_path, [ft("M", "US", "22.22"), ft("A", "NVA", "25.25")],
                                 plots={"booby_traps": 2, "claymores": 1})).new(seed=1)
    assert g.prompt.side == "NVA/VC" and g.prompt.kind == "plot" and "2 left" in g.prompt.question
    offered = {a.hex for a in g.legal_actions}
    assert {"19.19", "21.20"} <= offered and "22.22" not in offered           # trails (and caches) only
    with pytest.raises(RuleViolation, match="neither a trail nor a cache"):
        g.apply(fte.Plot("booby_trap", "22.22"))
    g.apply(fte.Plot("booby_trap", "19.19"))
    g.apply(fte.Plot("booby_trap", "21.20"))
    assert g.prompt.side == "US" and {a.hex for a in g.legal_actions} == {
        "22.22", "23.23", "23.22", "22.21", "21.22", "21.23", "22.23"}           # in or next to M
    g.apply(fte.Plot("claymore", "23.22"))
    assert g.prompt.kind == "draw"
    assert g.view("US")["position"]["state"]["booby_traps"] == []           # the other player's plots are secret
    assert g.view("NVA/VC")["position"]["state"]["booby_traps"] == ["19.19", "21.20"]
    assert g.view("NVA/VC")["position"]["state"]["claymores"] == []


@pytest.mark.rule("F 7.4")
def test_a_destroyed_helicopter_takes_its_passengers_and_every_marker_aboard_with_it(tmp_path):
    units = [heli("H", "17.23", "treetop", role="slick"), ft("P", "US", "17.23", loaded_in="H"),
             ft("A", "NVA", "17.21")]
    g = fte.Game.for_frago(frago(tmp_path, units, first_player="NVA/VC", casualties=[
        {"kind": "WIA", "side": "US", "hex": "17.23"}])).new(seed=1)
    [wia] = g.state.casualties
    s = g.state
    from wargames.fte.casualties import attach
    attach(s, s.casualties[wia], s.units["P"])             # P, aboard, carries a WIA
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("A",)))
    g.apply(fte.Fire(("A",), "H"), ScriptedDice([1, 1]))     # a hit, KIA: the slick is destroyed
    assert s.units["H"].destroyed and not s.units["P"].on_map and s.units["P"].carrying == []
    assert wia not in s.casualties and g.invariants() == []


@pytest.mark.rule("F 5.0", "F 5.1")
def test_a_helicopter_that_its_group_keeps_from_moving_owes_no_move(tmp_path):
    """Helicopters activated together take the same actions: when one unloaded first, another with nothing aboard
    cannot follow with a Move, and its activation may still end (found by random play of the air FRAGO)."""
    slick = lambda uid, hx: {"id": uid, "side": "US", "kind": "helicopter", "role": "slick", "altitude": "ground",
                             "tq": 5, "defense": 1, "hex": hx}
    units = [slick("H1", "17.23"), slick("H2", "17.22"), ft("P", "US", "17.22", loaded_in="H2"),
             ft("A", "NVA", "25.25")]
    g = game(tmp_path, units)
    g.apply(fte.Activate("helicopters", ("H1", "H2")))
    g.apply(fte.Unload("H2", ("P",)))
    hold_all(g)
    with pytest.raises(RuleViolation, match="same actions"):
        g.apply(fte.Move(("H1",)))
    with pytest.raises(RuleViolation, match="H2 must take its Move"):
        g.apply(fte.EndActivation())
    g.apply(fte.Move(("H2",)))
    hold_all(g)
    g.apply(fte.EndActivation())
