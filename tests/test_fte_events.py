"""FTE random events (F 19.0-19.10)."""
from fractions import Fraction

import pytest

from wargames.core import Resolution, RuleViolation, ScriptedDice, enumerate_outcomes
from wargames.fte import casualties as cas
from wargames.fte import events as ev
from wargames.fte.actions import departures_due, enforce_departures, request_fire_mission
from wargames.fte.errata import ORIGINAL
from wargames.fte.state import FireMission, FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import Unit
from . import yamlc

M = demo_map()


def _state(*units: Unit, **kw) -> FteState:
    st = FteState(M, **kw)
    place(st, units)
    return st


def _ft(uid, where, side="US", men=4, **kw):
    return Unit(uid, side, fire_rating=4, weapon="SA", tq=4, men=men, hex=M.hex(where), **kw)


def _leader(uid, where, side="US", **kw):
    return Unit(uid, side, role="leader", tq=5, men=1, hex=M.hex(where), **kw)


# --------------------------------------------------------------------------- F 19.0 the procedure

@pytest.mark.rule("F 19.0", "F Random Event Table")
@pytest.mark.parametrize("first,second,side,event", [
    (2, 2, "US", "Low Ammo"), (10, 7, "US", "Aerial Observer"), (4, 8, "US", "AH-1 Cobras"),
    (1, 7, "NVA/VC", "NVA Artillery"), (9, 8, "NVA/VC", "VC"), (3, 9, "NVA/VC", "No Event"),
    (6, 10, "US", "No Event"), (5, 6, "NVA/VC", "Check Fire")])
def test_parity_picks_the_side_and_the_second_roll_the_event(first, second, side, event):
    st = _state(_ft("a", "22.19"), _ft("n", "24.23", side="NVA"), _leader("nl", "24.23", side="NVA"))
    dice = ScriptedDice([first, second, 5])       # a third roll for NVA Artillery's delay
    out = ev.random_event(st, dice, Resolution())
    assert (out["side"], out["event"]) == (side, event)


@pytest.mark.rule("F 19.0")
def test_exact_event_odds():
    def proc(dice):
        st = _state()
        return ev.random_event(st, dice, Resolution())["event"]
    dist = enumerate_outcomes(proc)
    assert dist["No Event"] == Fraction(2, 10)            # rows 9-10 for both sides
    assert dist["Injury"] == Fraction(1, 10)              # row 1 of either column
    assert dist["VC"] == Fraction(1, 20) and dist["AH-1 Cobras"] == Fraction(1, 20)


@pytest.mark.rule("F 19.0")
def test_side_only_events_are_refused_to_the_other_side():
    st = _state()
    with pytest.raises(RuleViolation):
        ev.resolve_event(st, "NVA/VC", "AH-1 Cobras", ScriptedDice([]), Resolution())
    with pytest.raises(RuleViolation):
        ev.resolve_event(st, "US", "VC", ScriptedDice([]), Resolution())


# --------------------------------------------------------------------------- each event

@pytest.mark.rule("F 19.1")
def test_injury_goes_on_a_visible_three_or_four_man_unit_chosen_by_the_opponent():
    st = _state(_ft("a", "22.19", men=2), _ft("b", "22.19", concealed=True), _ft("c", "22.19", men=3),
                _ft("d", "22.19"))
    assert ev.resolve_event(st, "US", "Injury", ScriptedDice([]), Resolution()) == "c"     # default: lowest id
    assert st.units["c"].injury and not st.units["c"].reduced
    assert ev.resolve_event(st, "US", "Injury", ScriptedDice([]), Resolution()) == "No Event"  # already in play
    st2 = _state(_ft("c", "22.19", men=3), _ft("d", "22.19"))
    assert ev.resolve_event(st2, "US", "Injury", ScriptedDice([]), Resolution(), choice="d") == "d"
    with pytest.raises(RuleViolation):
        ev.resolve_event(_state(_ft("a", "22.19", men=2), _ft("d", "22.19")), "US", "Injury", ScriptedDice([]),
                         Resolution(), choice="a")
    assert ev.resolve_event(_state(_ft("a", "22.19", men=2)), "US", "Injury", ScriptedDice([]),
                            Resolution()) == "No Event"


@pytest.mark.rule("F 19.1")
def test_a_dropped_injury_marker_still_blocks_a_second_injury():
    st = _state(_ft("c", "22.19"), _ft("d", "22.19"))
    ev.resolve_event(st, "US", "Injury", ScriptedDice([]), Resolution())
    cas.drop_injury(st, "c", Resolution())
    assert ev.injury_on_map(st)
    assert ev.resolve_event(st, "NVA/VC", "Injury", ScriptedDice([]), Resolution()) == "No Event"


@pytest.mark.rule("F 19.2")
def test_low_ammo_goes_on_a_combat_unit_and_may_be_declined():
    st = _state(_leader("l", "22.19"), _ft("b", "22.19", concealed=True), _ft("c", "22.19"))
    assert ev.resolve_event(st, "US", "Low Ammo", ScriptedDice([]), Resolution()) == "c"   # Visible first
    assert st.units["c"].low_ammo
    assert ev.resolve_event(st, "US", "Low Ammo", ScriptedDice([]), Resolution(), choice=False) == "No Event"


@pytest.mark.rule("F 19.3")
def test_rally_removes_broken_first_then_suppressed():
    st = _state(_ft("a", "22.19", suppressed=True), _ft("b", "22.19", broken=True))
    assert ev.resolve_event(st, "US", "Rally", ScriptedDice([]), Resolution()) == "b"
    assert not st.units["b"].broken
    assert ev.resolve_event(st, "US", "Rally", ScriptedDice([]), Resolution()) == "a"
    assert not st.units["a"].suppressed
    assert ev.resolve_event(st, "US", "Rally", ScriptedDice([]), Resolution()) == "No Event"


@pytest.mark.rule("F 19.4")
def test_the_hero_lasts_until_the_sides_next_random_event():
    st = _state(_ft("a", "22.19"), _ft("n", "22.18", side="NVA"))
    with ScriptedDice([2, 3]) as d:                   # US Hero
        ev.random_event(st, d, Resolution())
    assert st.units["a"].hero and st.hero == {"US": "a"}
    with ScriptedDice([1, 9]) as d:                   # an NVA/VC event leaves the US hero alone
        ev.random_event(st, d, Resolution())
    assert st.units["a"].hero
    with ScriptedDice([4, 9]) as d:                   # the next US event takes it away
        ev.random_event(st, d, Resolution())
    assert not st.units["a"].hero and "US" not in st.hero


@pytest.mark.rule("F 19.5")
def test_higher_hq():
    st = _state()
    ev.resolve_event(st, "NVA/VC", "Higher HQ", ScriptedDice([]), Resolution())
    assert st.higher_hq == {"NVA/VC"}


@pytest.mark.rule("F 19.6")
def test_cobras_arrive_in_pairs_stay_three_turns_and_are_not_doubled():
    """Arriving on turn 2, the turn of arrival is the first of their three: gone by the end of turn 4."""
    st = _state(turn=2)
    assert ev.resolve_event(st, "US", "AH-1 Cobras", ScriptedDice([]), Resolution()) == "Cobras"
    cobras = [u for u in st.on_map("US") if u.role == "cobra"]
    assert len(cobras) == 2 and len({u.hex for u in cobras}) == 2 and st.cobras_leave == 4
    assert ev.resolve_event(st, "US", "AH-1 Cobras", ScriptedDice([]), Resolution()) == "No Event"
    st.turn = 3
    assert departures_due(st) == []
    st.turn = 4
    assert sorted(departures_due(st)) == sorted(u.id for u in cobras)
    enforce_departures(st, Resolution())
    assert not [u for u in st.on_map("US") if u.role == "cobra"] and st.cobras_leave is None


@pytest.mark.rule("F 19.6")
def test_cobra_hexes_must_be_two_free_edge_hexes():
    st = _state()
    with pytest.raises(RuleViolation):
        ev.resolve_event(st, "US", "AH-1 Cobras", ScriptedDice([]), Resolution(), choice=["22.19", "17.15"])
    with pytest.raises(RuleViolation):
        ev.resolve_event(st, "US", "AH-1 Cobras", ScriptedDice([]), Resolution(), choice=["17.15", "17.15"])
    ev.resolve_event(st, "US", "AH-1 Cobras", ScriptedDice([]), Resolution(),
                     choice={"hexes": ["17.15", "25.16"], "altitude": "high"})
    assert sorted(st.label(u.hex) for u in st.on_map("US")) == ["17.15", "25.16"]


@pytest.mark.rule("F 19.7", "F Errata")
def test_vc_event_places_all_four_near_a_hamlet_adds_a_chit_and_happens_twice():
    st = _state()
    st.cup.chits["NVA/VC"] = 3
    st.cup.refill()
    ev.resolve_event(st, "NVA/VC", "VC", ScriptedDice([]), Resolution())
    vc = [u for u in st.on_map("NVA/VC")]
    assert sorted(u.role for u in vc) == ["civilians", "dummy", "fire_team", "leader"]
    assert all(u.concealed and u.side == "VC" for u in vc)
    hamlets = [h for h in st.map.hexes if st.map.terrain(h) == "hamlet"]
    assert all(min(u.hex.distance(h) for h in hamlets) <= 3 for u in vc)
    civ = next(u for u in vc if u.role == "civilians")
    assert not [u for u in st.units_at(civ.hex) if u.role != "civilians"]
    assert st.cup.chits["NVA/VC"] == 4 and st.cup.cup.count("NVA/VC") == 4 and st.vc_events == 1
    ev.resolve_event(st, "NVA/VC", "VC", ScriptedDice([]), Resolution())
    assert ev.resolve_event(st, "NVA/VC", "VC", ScriptedDice([]), Resolution()) == "No Event"
    assert st.vc_events == 2 and len(st.on_map("NVA/VC")) == 8


@pytest.mark.rule("F 19.7")
def test_original_vc_event_places_one_item_and_hexes_are_checked():
    st = _state(readings=ORIGINAL)
    ev.resolve_event(st, "NVA/VC", "VC", ScriptedDice([]), Resolution(), choice={"items": ["civilians"]})
    assert [u.role for u in st.on_map("NVA/VC")] == ["civilians"]
    with pytest.raises(RuleViolation):
        ev.resolve_event(st, "NVA/VC", "VC", ScriptedDice([]), Resolution(), choice={"items": ["dummy", "commander"]})
    st2 = _state()
    with pytest.raises(RuleViolation):           # 19.19 is far from every hamlet
        ev.resolve_event(st2, "NVA/VC", "VC", ScriptedDice([]), Resolution(), choice={"hexes": {"dummy": "19.19"}})
    with pytest.raises(RuleViolation):           # civilians never with NVA/VC infantry
        ev.resolve_event(st2, "NVA/VC", "VC", ScriptedDice([]), Resolution(),
                         choice={"hexes": {"fire_team": "24.23", "civilians": "24.23"}})


@pytest.mark.rule("F 19.8")
def test_aerial_observer_until_the_next_us_event():
    st = _state(_leader("l", "20.20"))
    with ScriptedDice([2, 7]) as d:
        ev.random_event(st, d, Resolution())
    assert st.aerial_observer
    assert request_fire_mission(st, "l", "19.19", ScriptedDice([6]), Resolution()).turn == st.turn + 1  # ARTY 2 - 1
    with ScriptedDice([2, 9]) as d:
        ev.random_event(st, d, Resolution())
    assert not st.aerial_observer


@pytest.mark.rule("F 19.9")
@pytest.mark.parametrize("roll,delay", [(1, 1), (3, 1), (4, 2), (6, 2), (7, 3), (9, 3), (10, 4)])
def test_nva_artillery_delay(roll, delay):
    st = _state(_ft("a", "22.19"))
    with ScriptedDice([roll]) as d:
        ev.resolve_event(st, "NVA/VC", "NVA Artillery", d, Resolution())
    (m,) = st.fire_missions
    assert (m.side, m.mission, st.label(m.target), m.turn - st.turn) == ("NVA/VC", "ARTY", "22.19", delay)


@pytest.mark.rule("F 19.9")
def test_nva_artillery_target_rules():
    st = _state(_leader("nl", "20.20", side="NVA"), _ft("a", "22.17", concealed=True))
    ev.resolve_event(st, "NVA/VC", "NVA Artillery", ScriptedDice([2]), Resolution(), choice="19.19")  # leader sees
    with pytest.raises(RuleViolation) as e:
        ev.resolve_event(st, "NVA/VC", "NVA Artillery", ScriptedDice([2]), Resolution(), choice="22.18")
    assert e.value.rule == "F 19.9"
    assert ev.resolve_event(st, "NVA/VC", "NVA Artillery", ScriptedDice([]), Resolution()) == "No Event"


@pytest.mark.rule("F 19.10")
def test_check_fire_cancels_only_the_triggering_sides_missions():
    st = _state()
    h = st.hex("22.19")
    st.fire_missions = [FireMission("US", "ARTY", h, 2), FireMission("NVA/VC", "ARTY", h, 2),
                        FireMission("US", "BN Mortar", h, 3)]
    ev.resolve_event(st, "US", "Check Fire", ScriptedDice([]), Resolution())
    assert [m.side for m in st.fire_missions] == ["NVA/VC"]


# --------------------------------------------------------------------------- in a game: the players choose

def _event_game(tmp_path, units, turns=4, ruleset=None, **extra):
    """A FRAGO whose cup holds only the Random Event chit: the US first activation is passed, and the next Draw
    is the event (its two d10 given)."""
    from wargames import fte
    data = {"name": "events", "note": "random events in play", "map": "demo", "turns": turns, "first_player": "US",
            "chits": {"US": 0, "NVA/VC": 0}, "random_event": True, "units": units, **extra}
    p = tmp_path / "events.yaml"
    p.write_text(yamlc.safe_dump(data))
    g = fte.Game.for_frago(fte.load_frago(p)).new(seed=5, ruleset=ruleset)
    g.apply(fte.Draw())
    g.apply(fte.Pass())
    return g


US_FT = {"id": "US FT", "side": "US", "fire_rating": 4, "weapon": "SA", "range": 4, "tq": 4, "men": 4, "hex": "20.20"}
NVA_FT = {"id": "NVA FT", "side": "NVA", "fire_rating": 4, "weapon": "SA", "tq": 4, "men": 4, "hex": "17.19"}


def _quiet_to(g, turn):
    from wargames import fte
    while g.state.turn < turn and g.outcome() is None:
        legal = list(g.legal_actions)
        g.apply(next((a for a in legal if isinstance(a, (fte.Draw, fte.Pass, fte.HoldFire))), legal[0]))


@pytest.mark.rule("F 19.6", "F 4.0")
def test_in_a_game_the_us_player_brings_each_cobra_in_and_they_leave_at_the_end_of_their_third_turn(tmp_path):
    from wargames import fte
    g = _event_game(tmp_path, [US_FT, NVA_FT])
    g.apply(fte.Draw(), ScriptedDice([2, 8]))                # even: a US event; 8: AH-1 Cobras
    assert str(g.prompt) == ("US: AH-1 Cobras: on which map-edge hex, at which altitude, does the first Cobra "
                             "arrive? (F 19.6)")
    offered = set(g.legal_actions)
    assert fte.PlaceCobra("17.15", "high") in offered and fte.PlaceCobra("17.15", "treetop") in offered
    assert not any(a.hex in ("20.20", "17.19") for a in offered)        # not an edge; an enemy's hex
    for bad, rule in [(fte.PlaceCobra("20.20"), "F 19.6"), (fte.PlaceCobra("17.19"), "F 6.2"),
                      (fte.PlaceCobra("17.15", "ground"), "F 4.0"), (fte.Draw(), "F 19.6")]:
        with pytest.raises(RuleViolation) as e:
            g.apply(bad)
        assert e.value.rule == rule, (bad, e.value)
    g.apply(fte.PlaceCobra("17.15", "high"))
    assert "second Cobra" in str(g.prompt)
    with pytest.raises(RuleViolation, match="helicopters; the limit is 1"):
        g.apply(fte.PlaceCobra("17.15", "treetop"))
    g.apply(fte.PlaceCobra("25.16", "treetop"))
    cobras = {g.state.label(u.hex): u for u in g.state.on_map("US") if u.role == "cobra"}
    assert {h: u.altitude for h, u in cobras.items()} == {"17.15": "high", "25.16": "treetop"}
    assert [h.action for h in g.history[-2:]] == [fte.PlaceCobra("17.15", "high"), fte.PlaceCobra("25.16")]
    assert {u.leaves_turn for u in cobras.values()} == {3} and g.prompt.kind == "draw"
    _quiet_to(g, 3)
    assert len([u for u in g.state.on_map("US") if u.role == "cobra"]) == 2      # turns 1, 2 and 3
    _quiet_to(g, 4)
    assert not [u for u in g.state.units.values() if u.role == "cobra" and u.on_map]   # gone by the end of turn 3
    assert any(s.rule == "F 19.6" and "had to leave by the end of turn 3" in s.text
               for r in g.resolutions for s in r.steps)


@pytest.mark.rule("F 19.7", "F 6.2", "F Errata")
def test_in_a_game_the_nva_vc_player_places_each_vc_item_near_a_hamlet(tmp_path):
    from wargames import fte
    g = _event_game(tmp_path, [US_FT, dict(US_FT, id="US FT2", hex="22.23")])
    g.apply(fte.Draw(), ScriptedDice([1, 8]))                # odd: an NVA/VC event; 8: VC
    assert str(g.prompt) == ("NVA/VC: VC event: where does the VC commander go, within three hexes of a hamlet? "
                             "(F 19.7)")
    assert {a.item for a in g.legal_actions} == {"commander"}
    hexes = {a.hex for a in g.legal_actions}
    assert "24.23" in hexes and "19.19" not in hexes and "22.23" not in hexes     # too far; American-held
    for bad, why in [(fte.PlaceVC("fire_team", "24.23"), "commander is placed now"),
                     (fte.PlaceVC("commander", "19.19"), "more than three hexes from every hamlet"),
                     (fte.PlaceVC("commander", "22.23"), "American units")]:
        with pytest.raises(RuleViolation, match=why):
            g.apply(bad)
    for item, hx in (("commander", "24.23"), ("fire_team", "24.23"), ("dummy", "25.24")):
        g.apply(fte.PlaceVC(item, hx))
    with pytest.raises(RuleViolation, match="Civilians may not stack with NVA/VC infantry"):
        g.apply(fte.PlaceVC("civilians", "24.23"))
    g.apply(fte.PlaceVC("civilians", "24.24"))
    vc = {u.role: g.state.label(u.hex) for u in g.state.on_map("NVA/VC") if u.side == "VC"}
    assert vc == {"leader": "24.23", "fire_team": "24.23", "dummy": "25.24", "civilians": "24.24"}
    assert all(u.concealed for u in g.state.on_map("NVA/VC"))
    assert g.state.cup.chits["NVA/VC"] == 1 and g.state.cup.cup.count("NVA/VC") == 1 and g.state.vc_events == 1
    assert g.prompt.kind == "draw"


@pytest.mark.rule("F 19.7")
def test_in_a_game_the_original_vc_event_places_one_item_of_the_players_choice(tmp_path):
    from wargames import fte
    g = _event_game(tmp_path, [US_FT], ruleset=fte.Ruleset(readings={"vc_event_places_all": False}))
    g.apply(fte.Draw(), ScriptedDice([1, 8]))
    assert {a.item for a in g.legal_actions} == {"commander", "fire_team", "dummy", "civilians"}
    g.apply(fte.PlaceVC("dummy", "25.24"))
    assert [u.role for u in g.state.on_map("NVA/VC")] == ["dummy"] and g.state.cup.chits["NVA/VC"] == 1
    assert g.prompt.kind == "draw"


@pytest.mark.rule("F 19.9")
def test_in_a_game_nva_artillery_may_target_what_an_nva_leader_sees_with_no_american_visible(tmp_path):
    from wargames import fte
    ldr = {"id": "NVA Ldr", "side": "NVA", "role": "leader", "tq": 5, "men": 1, "hex": "20.20"}
    g = _event_game(tmp_path, [dict(US_FT, hex="23.25", concealed=True), ldr])
    g.apply(fte.Draw(), ScriptedDice([1, 7]))                # odd: an NVA/VC event; 7: NVA Artillery
    assert g.prompt.rule == "F 19.9" and g.prompt.side == "NVA/VC"
    offered = {a.hex for a in g.legal_actions}
    assert {"20.20", "21.20", "19.21"} <= offered and "23.25" not in offered       # the leader's hex and its ring
    assert fte.EventTarget("19.19") in g.legal_actions                          # any hex he sees is accepted
    assert fte.EventTarget("24.24") not in g.legal_actions                      # one he does not see is not
    g.apply(fte.EventTarget("19.19"), ScriptedDice([4]))
    (m,) = g.state.fire_missions
    assert (g.state.label(m.target), m.turn) == ("19.19", 3)
