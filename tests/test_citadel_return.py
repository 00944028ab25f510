"""C 12, the return phase, played through ``citadel.Game``: who may return, along which paths, to where."""
from __future__ import annotations

import pytest

from wargames import citadel
from wargames.citadel import EndMoves, Move, OpportunityFire, Side
from wargames.citadel.examples import FIRST_LEGS, PRINTED_ASSIGNMENT, PRINTED_DICE
from wargames.citadel.game import EndPhase
from wargames.citadel.melee import Advance, Melee, Retreat
from wargames.citadel.returnphase import ReturnMove, destination_problem, return_path_problem, return_paths
from wargames.core import RuleViolation, ScriptedDice


@pytest.fixture(scope="module")
def after_melee():
    """The Anne-Marie day: 1st Bn takes AM-2 (1414), the T'ai company falls back to 1415 (C 11)."""
    game = citadel.Game.new()
    for bn, leg in FIRST_LEGS.items():
        game.apply(Move((bn,), tuple(leg)))
    game.apply(EndMoves())
    for (bn, battery), die in zip(PRINTED_ASSIGNMENT.items(), PRINTED_DICE):
        game.apply(OpportunityFire(battery, bn), ScriptedDice([die]))
    game.apply(Move(("1st Bn",), ("1212", "1313", "1413")))
    game.apply(Move(("4th Bn",), ("0817", "0917", "1017")))
    game.apply(EndMoves())
    game.apply(OpportunityFire("120-B", "4th Bn"), ScriptedDice([PRINTED_DICE[4]]))
    while game.phase.id != "VM melee":
        game.apply(EndPhase())
    game.apply(Melee(("1st Bn",), "1414"), ScriptedDice([3, 4, 2]))
    game.apply(Retreat("2/3BT", "1415"))
    game.apply(Advance(("1st Bn",)))
    game.apply(EndPhase())
    return game


@pytest.fixture
def french_return(after_melee):
    game = citadel.Game.load(after_melee.save())
    while game.phase.id != "French return":
        game.apply(EndPhase())
    return game


@pytest.mark.rule("C 12")
def test_french_units_return_only_to_strongpoints_along_free_paths(french_return):
    game, st = french_return, french_return.state
    offers = [a for a in game.legal_actions if isinstance(a, ReturnMove)]
    assert ReturnMove("2/3BT", ("1316",)) in offers
    for a in offers:                    # every offer is a legal path, and ends in a strongpoint
        u = st.unit(a.unit)
        assert return_path_problem(st, u, [st.map.hex(x) for x in a.path]) is None
        assert "strongpoint" in st.map.info(st.map.hex(a.path[-1])).features
    before = game.state_dict()
    for path, words in ((("1516",), "not a strongpoint"), (("1315", "1316"), "zones of control"),
                        (("1317",), "does not follow on")):
        why = game.why_illegal(ReturnMove("2/3BT", path))
        assert why is not None and why.rule == "C 12" and words in why.reason, (path, why)
        with pytest.raises(RuleViolation):
            game.apply(ReturnMove("2/3BT", path))
        assert game.state_dict() == before
    game.apply(ReturnMove("2/3BT", ("1316",)))
    assert game.state.unit("2/3BT").hex == st.map.hex("1316")
    again = game.why_illegal(ReturnMove("2/3BT", ("1416",)))
    assert again is not None and "already returned" in again.reason


@pytest.mark.rule("C 12")
def test_vietminh_return_needs_their_headquarters_zone_or_a_strongpoint_they_hold(after_melee):
    st = citadel.Game.load(after_melee.save()).state
    bn = st.unit("2nd Bn")
    assert return_paths(st, bn) == {}           # no headquarters zone recorded: no jungle to return to
    assert "neither a strongpoint nor full jungle" in return_path_problem(st, bn, [st.map.hex("1012")])
    st.hq_zones["Rgt X"] = "Z1"
    reach = return_paths(st, bn)
    assert reach
    for end, path in reach.items():
        assert return_path_problem(st, bn, path) is None
        if st.map.terrain(end) == "full_jungle":
            assert st.map.info(end).attr("zone") == "Z1"
    st.hq_zones["Rgt X"] = "Z2"
    assert all(st.map.info(h).attr("zone") != "Z1" for h in return_paths(st, bn)
               if st.map.terrain(h) == "full_jungle")
    assert st.control["AM-2"] is Side.VIETMINH and st.control["AM-1"] is Side.FRENCH
    why = destination_problem(st, st.unit("3rd Bn"), st.map.hex("1416"))
    assert why is not None and "not controlled by the Vietminh" in why
