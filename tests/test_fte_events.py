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
