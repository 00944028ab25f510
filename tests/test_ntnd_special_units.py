"""Rules the chapters on rules 13-18 exercise that had no marked test: the fleet pushed out to sea in play
(NT 14.2.1), militia raised by Green Berets (NT 15.2), Montagnards bought back within the limit (NT 16.4) and
unsupplied AA units silent in their own turn (NT 18.3)."""
from fractions import Fraction as F

import pytest

from wargames.core.errors import RuleViolation
from wargames.ntnd import air
from wargames.ntnd.game import EndPhase, Game, MoveFleet, Muster, Step
from wargames.ntnd.reinforcement import check_placement, purchase
from wargames.ntnd.state import NtndState


def communist_movement(seed=14):
    game = Game.new("campaign", seed=seed)
    while game.phase.id != "communist_movement":
        if game.phase.id == "recruitment" and game.book.entitlement is None:
            game.apply(Muster())
        game.apply(EndPhase())
    return game


@pytest.mark.rule("NT 14.2.1")
def test_the_fleet_alone_in_a_hex_the_enemy_enters_moves_out_to_sea():
    game = communist_movement()
    s = NtndState(turn=game.state.turn, phase=game.state.phase, track=game.state.track)
    s.place("US Fleet", "2119")
    s.place("NVA 304", "2019")
    game.state = s
    game.apply(Step("NVA 304", "2119"))
    assert game.prompt.rule == "NT 14.2.1" and game.prompt.side == "allied"
    assert set(game.legal_actions) == {MoveFleet("2218"), MoveFleet("2219")}
    with pytest.raises(RuleViolation, match="NT 14.2.1"):
        game.apply(MoveFleet("2017"))                     # a land hex
    with pytest.raises(RuleViolation):
        game.apply(Step("NVA 304", "2120"))              # the Allied decision comes first
    game.apply(MoveFleet("2219"))
    assert game.state.piece("US Fleet").location == "2219" and game.prompt.rule != "NT 14.2.1"


@pytest.mark.rule("NT 15.2")
def test_militia_are_raised_with_a_green_beret_in_their_own_country():
    s = NtndState(turn=10, phase="reinforcement")
    s.place("US GB 1", "1615")                            # II Corps, mountain
    s.place("US GB 2", "1517")                            # Cambodia
    check_placement(s, s.counter("SVN militia 1"), "1615")
    check_placement(s, s.counter("Cam militia 1"), "1517")
    for unit, at in (("Cam militia 1", "1615"), ("Lao militia 1", "1517"), ("SVN militia 1", "1616")):
        with pytest.raises(RuleViolation, match="NT 5.6.1"):
            check_placement(s, s.counter(unit), at)


@pytest.mark.rule("NT 16.4")
def test_a_lost_montagnard_is_bought_back_only_within_the_limit():
    s = NtndState(turn=10, phase="reinforcement")
    s.hearts_minds = {a: "neutral" for a in ("I", "II", "III", "IV", "Laos", "Cambodia")}
    s.hearts_minds["II"] = "pro_allied"                   # one Montagnard allowed
    s.place("US GB 1", "1615")
    s.dead.add("SVN Montagnard 1")
    s.replacement_points["US"] = F(2)
    bought, _ = purchase(s, "SVN Montagnard 1", location="1615")
    assert bought.piece("SVN Montagnard 1").location == "1615" and bought.replacement_points["US"] == 1
    bought.dead.add("SVN Montagnard 2")
    with pytest.raises(RuleViolation, match="NT 16.2"):
        purchase(bought, "SVN Montagnard 2", location="1615")


@pytest.mark.rule("NT 18.3")
def test_unsupplied_artillery_and_sams_fire_no_aa_in_their_own_turn():
    fired = {}
    for phase in ("allied_reaction", "air_operations"):
        s = NtndState(turn=10, phase=phase)
        s.place("NVA 304", "1613")
        s.place("NVA art 45", "1613")
        s.place("NVA SAM 1", "1613")
        mission = air.Mission("ground_support", "1613", ("US F 2AD",))
        fired[phase] = air.aa_units(s, mission, unsupplied=("NVA art 45", "NVA SAM 1"))
    assert fired["allied_reaction"] == ["NVA 304"]
    assert fired["air_operations"] == ["NVA 304", "NVA art 45", "NVA SAM 1"]
