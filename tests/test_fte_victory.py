"""FTE victory (F 29.0) and the errata's casualty clarification, cases 1-3 (catalog F-E12), played through the
fire-effect, casualty-check, medevac and evacuation code with scripted dice."""
import pytest

from wargames.core import Resolution, ScriptedDice
from wargames.fte import actions as act
from wargames.fte import casualties as cas
from wargames.fte.fire import apply_effect
from wargames.fte.state import FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import Unit
from wargames.fte.victory import net, winner

M = demo_map()
EDGE = "17.23"          # a clear hex on the map edge, where a medevac can land


def _wounded(start=(10, 10)) -> tuple[FteState, str]:
    """The base of the clarification: the NVA wound a US fire team (a WIA marker) and score 4: net -4."""
    st = FteState(M)
    st.vp = {"US": start[0], "NVA/VC": start[1]}
    place(st, [Unit("ft", "US", fire_rating=4, weapon="SA", tq=4, range=6, men=4, hex=M.hex(EDGE)),
               Unit("lt", "US", role="leader", tq=5, men=1, hex=M.hex(EDGE))])
    res = Resolution()
    assert apply_effect(st, "ft", "WIA", ScriptedDice([]), res, by="NVA/VC") == "WIA"
    (mid,) = st.casualties
    assert net(st) == -4
    return st, mid


def _evacuate(st: FteState, mid: str) -> None:
    """Medevac: request (roll 1, next turn), arrive, land, load the marker, leave the following turn."""
    res = Resolution()
    act.request_medevac(st, "lt", ScriptedDice([1]), res)
    st.turn += 1
    heli = act.medevac_arrives(st, res, where=EDGE)
    heli.altitude = "ground"
    act.load(st, heli.id, res, markers=[mid])
    st.turn += 1
    act.enforce_departures(st, res)
    assert mid not in st.casualties


@pytest.mark.rule("F Clarifications", "F 17.0", "F 7.5.3", "F 29.0")
def test_case_1_dow_then_the_kia_is_evacuated():
    st, mid = _wounded()
    with ScriptedDice([10]) as d:
        assert cas.check_casualties(st, d, Resolution()) == {mid: "DOW"}
    assert st.casualties[mid].kind == "KIA" and net(st) == -6
    _evacuate(st, mid)
    assert net(st) == -4 and st.vp == {"US": 10, "NVA/VC": 14}


@pytest.mark.rule("F Clarifications", "F 17.0", "F 29.0")
def test_case_2_returned_to_duty():
    st, mid = _wounded()
    with ScriptedDice([2]) as d:
        assert cas.check_casualties(st, d, Resolution()) == {mid: "RTD"}
    assert net(st) == -2 and not st.casualties


@pytest.mark.rule("F Clarifications", "F 7.5.3", "F 29.0")
def test_case_3_the_wia_is_evacuated():
    st, mid = _wounded()
    with ScriptedDice([5]) as d:                       # the casualty check leaves it a WIA
        assert cas.check_casualties(st, d, Resolution()) == {mid: "remains"}
    _evacuate(st, mid)
    assert net(st) == -1 and st.vp == {"US": 13, "NVA/VC": 14}


@pytest.mark.rule("F 29.0")
def test_the_clarification_nets_are_differences_a_total_never_goes_below_zero():
    st, mid = _wounded(start=(0, 0))
    cas.check_wia(st, mid, ScriptedDice([9]), Resolution())
    assert st.vp == {"US": 0, "NVA/VC": 4} and net(st) == -4      # the -2 for the DOW is lost at zero


@pytest.mark.rule("F 29.0")
@pytest.mark.parametrize("us,nva,who", [(5, 4, "US"), (4, 5, "NVA/VC"), (7, 7, "NVA/VC"), (0, 0, "NVA/VC")])
def test_most_points_win_and_ties_go_to_the_nva(us, nva, who):
    st = FteState(M)
    st.vp = {"US": us, "NVA/VC": nva}
    res = Resolution()
    assert winner(st, res) == who and res.result == who
