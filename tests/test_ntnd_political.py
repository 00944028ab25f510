"""NT 22 political points: the ledger of each political phase on a constructed position (every item, its timing,
the ^ and ^^ notes), the end-of-phase application with its bounds and the sudden-death check, and the immediate
items (eliminations and replacements)."""
import pytest

from wargames.core import Resolution
from wargames.core.errors import RuleViolation
from wargames.ntnd import political as pol
from wargames.ntnd.politics import Policy, PoliticalTrack
from wargames.ntnd.state import NtndState

I_TOWNS = ("1310", "1409", "1510", "1610", "1811", "1812", "1913", "1914", "2014")
US = ("US 1/1", "US 2/1", "US 3/1", "US 1/1 Cav", "US 2/1 Cav", "US 3/1 Cav", "USMC 1", "USMC 5", "USMC 7")
SAIGON, BIEN_HOA, TAY_NINH, MY_THO, TCHEPONE = "1327", "1326", "1125", "1227", "1210"


def position() -> NtndState:
    """I Allied Control, every town Allied, no Communists; II pro-Allied, only inverted Communists (and a face-up
    supply unit); III pro-Communist, Saigon, Bien Hoa and Tay Ninh held face up; IV Communist Control, My Tho held;
    Laos still neutral and pro-Communist, Tchepone held; Cambodia allied, neutral box, no Communists."""
    s = NtndState(turn=30, phase="politics", track=PoliticalTrack(100))
    s.hearts_minds = {"I": "allied_control", "II": "pro_allied", "III": "pro_communist", "IV": "communist_control",
                      "Laos": "pro_communist", "Cambodia": "neutral"}
    s.standing = {"Laos": "neutral", "Cambodia": "allied"}
    for u, label in zip(US, I_TOWNS):
        s.place(u, label)
    s.place("VC cadre 1", "1614", face_up=False)
    s.place("supply 1", "1615")
    s.place("VC reg 1", SAIGON)
    s.place("NVA 304", BIEN_HOA)
    s.place("VC cadre 2", TAY_NINH)
    s.place("VC reg 2", MY_THO)
    s.place("PL cadre 1", TCHEPONE)
    return s


@pytest.mark.rule("NT 22.3", "NT 22.4", "NT 7.4.2")
def test_communist_phase_counts_only_the_triple_star_items():
    book = pol.ledger(position(), "communist")
    assert book.by_item() == {"area_pro_communist": -2, "area_communist_control": -2,
                              "city_held_by_communists": -4, "town_held_by_communists": -1,
                              "saigon_held_by_communists": -25}
    assert book.total == -34


@pytest.mark.rule("NT 22.1", "NT 22.2", "NT 22.3", "NT 22.4", "NT 7.3.2")
def test_allied_phase_counts_double_and_triple_star_items():
    book = pol.ledger(position(), "allied")
    assert book.by_item() == {"area_pro_allied": 1, "area_allied_control": 2, "all_towns_allied": 2,
                              "no_communist_units": 6, "only_inverted_communists": 2,
                              "area_pro_communist": -2, "area_communist_control": -2,
                              "city_held_by_communists": -4, "town_held_by_communists": -1,
                              "saigon_held_by_communists": -25}
    assert book.total == -21
    per_area = {}
    for a in book.awards:
        per_area[a.area] = per_area.get(a.area, 0) + a.points
    assert per_area == {"I": 7, "II": 3, "III": -29, "IV": -4, "Laos": -1, "Cambodia": 3}


@pytest.mark.rule("NT 22.4")
def test_saigon_replaces_its_city_penalty():
    s = position()
    cities = [a for a in pol.ledger(s, "communist").awards if a.item == "city_held_by_communists"]
    assert [(a.area, a.points) for a in cities] == [("III", -2), ("IV", -2)]     # Bien Hoa and My Tho, not Saigon
    s.remove("VC reg 1")
    book = pol.ledger(s, "communist")
    assert "saigon_held_by_communists" not in book.by_item() and book.total == -34 + 25


@pytest.mark.rule("NT 22.4")
def test_caret_items_skip_a_state_still_neutral():
    s = position()
    s.standing["Laos"] = "allied"
    book = pol.ledger(s, "communist")
    assert [(a.area, a.points) for a in book.awards if a.item == "town_held_by_communists"] == \
        [("III", -1), ("Laos", -1)]
    s.remove("PL cadre 1")
    s.standing["Laos"] = "neutral"
    assert "Laos" not in [a.area for a in pol.ledger(s, "allied").awards if a.item == "no_communist_units"]
    s.standing["Laos"] = "communist"
    assert "Laos" in [a.area for a in pol.ledger(s, "allied").awards if a.item == "no_communist_units"]


@pytest.mark.rule("NT 22.4")
def test_inverted_communists_hold_nothing_and_face_up_units_spoil_the_bonus():
    s = position()
    s.update("VC reg 2", face_up=False)            # My Tho no longer held
    assert pol.ledger(s, "communist").total == -34 + 2

    def inverted_only(s):
        return [a.area for a in pol.ledger(s, "allied").awards if a.item == "only_inverted_communists"]

    assert inverted_only(s) == ["II", "IV"]        # IV's one unit is now inverted too
    s.update("VC cadre 1", face_up=True)           # II: a face-up cadre, no +2
    assert inverted_only(s) == ["IV"]
    s.update("VC cadre 1", face_up=False)
    s.update("supply 1", face_up=False)
    assert inverted_only(s) == ["II", "IV"]


@pytest.mark.rule("NT 22.4", "NT 8.9.1")
def test_guerrillas_abroad_hold_no_town():
    s = position()
    s.remove("VC cadre 2")
    s.place("KR cadre 1", TAY_NINH)
    assert "town_held_by_communists" not in pol.ledger(s, "communist").by_item()
    s.remove("KR cadre 1")
    s.place("NVA 308", TAY_NINH)                   # NVA units are not guerrillas
    assert pol.ledger(s, "communist").by_item()["town_held_by_communists"] == -1


@pytest.mark.rule("NT 22.4")
def test_one_missing_town_spoils_all_towns_allied():
    s = position()
    s.remove(US[0], eliminated=False)
    assert "all_towns_allied" not in pol.ledger(s, "allied").by_item()


@pytest.mark.rule("NT 22.3")
def test_a_bad_phase_is_refused():
    with pytest.raises(RuleViolation):
        pol.ledger(position(), "both")


# ------------------------------------------------------------------------------------------------ end of phase

@pytest.mark.rule("NT 22.4")
def test_end_of_phase_moves_the_track_and_checks_victory():
    s = position()
    res = Resolution()
    new, winner = pol.end_political_phase(s, "allied", res=res)
    assert (new.track.points, winner, s.track.points) == (79, None, 100)
    assert res.steps[-1].result == 79
    s.track = PoliticalTrack(30)
    new, winner = pol.end_political_phase(s, "communist")
    assert (new.track.points, winner) == (-4, "communist")
    s.track = PoliticalTrack(34)
    new, winner = pol.end_political_phase(s, "communist")
    assert (new.track.points, winner) == (0, None)                  # zero is not below zero


@pytest.mark.rule("NT 22.4", "NT 24.4.3")
def test_the_allies_win_above_the_threshold():
    s = position()
    for a in ("III", "IV", "Laos"):
        s.hearts_minds[a] = "neutral"
    for u in ("VC reg 1", "NVA 304", "VC cadre 2", "VC reg 2", "PL cadre 1"):
        s.remove(u)
    assert pol.ledger(s, "allied").total == 7 + 3 + 3 * 3   # I, II, and +3 in III, IV, Cambodia
    s.track = PoliticalTrack(231)
    assert pol.end_political_phase(s, "allied")[1] is None          # 250 does not exceed 250
    s.track = PoliticalTrack(232)
    assert pol.end_political_phase(s, "allied")[1] == "allied"
    s.policy = Policy(vietnamization="partial").reverse()
    assert pol.end_political_phase(s, "allied")[1] is None          # 300 after a reversal


@pytest.mark.rule("NT 24.2.10")
def test_full_vietnamization_bounds_the_net_total():
    s = position()
    s.turn, s.policy, s.track = 10, Policy(vietnamization="full"), PoliticalTrack(20)
    new, winner = pol.end_political_phase(s, "communist")
    assert (new.track.points, winner) == (1, None)
    s.turn = 24
    assert pol.end_political_phase(s, "communist")[1] == "communist"


# ------------------------------------------------------------------------------------------------ immediate items

def counter(unit):
    return position().counter(unit)


@pytest.mark.rule("NT 22.4", "NT 17.2")
@pytest.mark.parametrize("unit,cause,points", [
    ("NVA 304", "combat", 1), ("VC cadre 1", "combat", 1), ("NVA SAM 1", "combat", 1), ("supply 1", "combat", 0),
    ("dummy 1", "combat", 0), ("VC cadre 1", "hearts_minds", 0), ("VC reg 1", "failed_placement", 0),
    ("VC cadre 1", "stranded", 0), ("US 1/1", "combat", -1), ("ARVN 1", "combat", -1), ("US F 2AD", "combat", -1),
    ("ARVN 1", "desertion", 0), ("SVN militia 1", "green_beret_lost", 0), ("SVN militia 1", "stranded", 0)])
def test_elimination_points(unit, cause, points):
    assert pol.immediate_points("eliminated", counter(unit), cause=cause).points == points


@pytest.mark.rule("NT 4.2.3", "NT 24.2.4", "NT 24.4.1", "NT 22.4")
def test_replacement_points():
    full, reversed_ = Policy(vietnamization="full"), Policy(vietnamization="full").reverse()
    cases = [("US 1/1", Policy(), -2), ("US 1/1", full, 0), ("US 1/1", reversed_, -3), ("ROK 1", Policy(), -2),
             ("ROK 1", full, -1), ("SEATO FB", Policy(), -2), ("ARVN 1", Policy(), 0), ("Lao inf 1", Policy(), 0)]
    for unit, policy, points in cases:
        assert pol.immediate_points("replaced", counter(unit), policy=policy).points == points, unit
    flagged = pol.immediate_points("replaced", counter("US 1/1"), policy=full, next_turn={"us_replacements_cost_pp"})
    assert flagged.points == -2
    assert pol.immediate_points("replaced", counter("US 1/1"), next_turn={"us_replacements_cost_pp"}).points == -2
    with pytest.raises(RuleViolation):
        pol.immediate_points("replaced", counter("US 1/1"), policy=Policy(peace_party=True))
    with pytest.raises(RuleViolation):
        pol.immediate_points("replaced", counter("NVA 304"))


@pytest.mark.rule("NT 22.3")
def test_immediate_items_move_the_track_without_a_victory_check():
    s = position()
    s.track = PoliticalTrack(0)
    new = pol.apply_immediate(s, pol.immediate_points("eliminated", counter("US 1/1")))
    assert new.track.points == -1 and s.track.points == 0


@pytest.mark.rule("NT 4.5.1")
def test_town_points():
    s = position()
    assert pol.town_points(s, "III") == 2 + 2 + 1
    s.place("supply 2", "1324")                    # An Loc: a supply unit is not a combat unit (4.5.1)
    assert pol.town_points(s, "III") == 5 and pol.town_points(s, "III", combat_only=False) == 6
