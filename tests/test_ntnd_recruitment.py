"""Communist recruitment (wargames.ntnd.recruitment): NT 4.1, 4.5.1, 7.3.4, 7.4.1, 26.3-26.8, 27.2-27.3."""
from dataclasses import replace

import pytest

from wargames.core.dice import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.ntnd.recruitment import entitlements, in_allied_reach, place_recruit, town_points
from wargames.ntnd.state import NtndState

JUNGLE = "1720"          # II Corps jungle, no settlement
PLEIKU, KONTUM = "1718", "1717"   # II Corps towns
CAMBODIA_JUNGLE = "1520"


def fresh(turn=1, **policy):
    s = NtndState(turn=turn, phase="recruitment")
    if policy:
        s.policy = replace(s.policy, **policy)
    return s


def first(s, pred):
    g = s.geography
    return next(g.label(h) for h in sorted(g.map.hexes) if pred(g, h))


def clear_hex(s, area):
    return first(s, lambda g, h: g.area(h) == area and g.terrain(h) == "clear" and not g.is_settlement(h))


def ring_hex(s, centre, d, area="II"):
    g = s.geography
    c = g.hex(centre)
    return first(s, lambda g, h: g.area(h) == area and c.distance(h) == d and g.terrain(h) != "clear"
                 and not g.is_settlement(h))


@pytest.mark.rule("NT 4.1.1", "NT 4.1.2", "NT 4.1.3", "NT 4.1.4")
def test_the_basic_entitlement():
    s = fresh()
    ent = entitlements(s)
    assert ent.count("basic") == 3 and ent.viet_cong_basic == 3
    assert ent.count("dummy") == len(s.available("communist", type="dummy")) == 8
    assert ent.count("nva", "China") == 2
    assert [w for (src, w) in ent.left if src == "supply"] == ["China", "Hanoi", "Haiphong"]
    assert not ent.town_rolls and not ent.deferred


@pytest.mark.rule("NT 24.2.9", "NT 26.2", "NT 26.5", "NT 14.2.2")
def test_the_policy_decides_the_numbers():
    full = fresh().policy.declare_full(1)
    s = fresh()
    s.policy = full
    assert entitlements(s).count("basic") == 2
    s = fresh(turn=14, uprising=12)
    assert "basic" not in {k[0] for k in entitlements(s).left}           # none during the uprising
    s = fresh(turn=17, uprising=12)                                      # poor recruitment: 1 VC
    ent = entitlements(s)
    assert ent.count("basic") == 3 and ent.viet_cong_basic == 1
    s, ent, _ = place_recruit(s, ent, "basic", "cadre", JUNGLE, face_up=False)
    with pytest.raises(RuleViolation, match="NT 26.5"):
        place_recruit(s, ent, "basic", "cadre", "1722")
    place_recruit(s, ent, "basic", "cadre", CAMBODIA_JUNGLE, nationality="KR")
    s = fresh(haiphong_mined=True)
    ent = entitlements(s)
    assert ("supply", "Haiphong") not in ent.left and ent.deferred == ("supply",)


@pytest.mark.rule("NT 4.1.1")
def test_where_a_cadre_may_go():
    s = fresh()
    ent = entitlements(s)
    new, left, res = place_recruit(s, ent, "basic", "cadre", JUNGLE, face_up=False)
    assert new.piece(res.result).location == JUNGLE and not new.piece(res.result).face_up
    assert new.counter(res.result).nationality == "VC" and left.count("basic") == 2
    assert res.result not in s.pieces                      # the old position is untouched
    for bad, why in [(clear_hex(s, "II"), "clear"), (PLEIKU, "town or city"), ("Hanoi", "country")]:
        with pytest.raises(RuleViolation, match=why):
            place_recruit(s, ent, "basic", "cadre", bad)
    with pytest.raises(RuleViolation, match="own country"):
        place_recruit(s, ent, "basic", "cadre", CAMBODIA_JUNGLE, nationality="VC")
    new, _, res = place_recruit(s, ent, "basic", "cadre", CAMBODIA_JUNGLE)
    assert new.counter(res.result).nationality == "KR"


@pytest.mark.rule("NT 4.1.1", "NT 8.5.3")
def test_allied_units_and_their_zones_keep_cadres_away():
    s = fresh()
    infantry = s.available("allied", nationality="SVN", type="infantry")[0].id
    s.place(infantry, JUNGLE)
    ent = entitlements(s)
    for loc in (JUNGLE, ring_hex(s, JUNGLE, 1)):
        with pytest.raises(RuleViolation, match="Allied"):
            place_recruit(s, ent, "basic", "cadre", loc)
    place_recruit(s, ent, "basic", "cadre", ring_hex(s, JUNGLE, 2))     # infantry reaches one hex only
    s2 = fresh()
    s2.place("US FB 1", JUNGLE)                                          # a firebase's influence: two hexes
    assert in_allied_reach(s2, s2.geography.hex(ring_hex(s2, JUNGLE, 2)))
    with pytest.raises(RuleViolation, match="zone of control or influence"):
        place_recruit(s2, entitlements(s2), "basic", "cadre", ring_hex(s2, JUNGLE, 2))
    place_recruit(s2, entitlements(s2), "basic", "cadre", ring_hex(s2, JUNGLE, 3))
    s3 = fresh()
    s3.place("VC cadre 1", JUNGLE)                                       # Communist neighbours do not matter
    place_recruit(s3, entitlements(s3), "basic", "cadre", ring_hex(s3, JUNGLE, 1))


@pytest.mark.rule("NT 7.3.4", "NT 26.8")
def test_allied_control_closes_an_area_except_in_the_uprising():
    s = fresh()
    s.hearts_minds["II"] = "allied_control"
    ent = entitlements(s)
    with pytest.raises(RuleViolation, match="NT 7.3.4"):
        place_recruit(s, ent, "basic", "cadre", JUNGLE)
    place_recruit(s, ent, "basic", "cadre", CAMBODIA_JUNGLE)
    s.hearts_minds["II"] = "pro_allied"
    place_recruit(s, ent, "basic", "cadre", JUNGLE)
    up = fresh(turn=12, uprising=12)
    up.hearts_minds["II"] = "allied_control"
    ent = entitlements(up)
    new, left, res = place_recruit(up, ent, "uprising", "regiment", JUNGLE, dice=ScriptedDice([5]))
    assert res.result is None and not new.units("communist") and left.count("uprising", "II") == 3
    new, left, res = place_recruit(up, ent, "uprising", "regiment", JUNGLE, dice=ScriptedDice([4]))
    assert new.counter(res.result).type == "regiment"
    with pytest.raises(RuleViolation, match="dice"):
        place_recruit(up, ent, "uprising", "cadre", JUNGLE)
    up.policy = replace(up.policy, aid=frozenset({"China"}))
    with pytest.raises(RuleViolation, match="NT 7.3.4"):              # other guerrillas may not try
        place_recruit(up, entitlements(up), "aid", "cadre", JUNGLE, country="China", dice=ScriptedDice([1]))
    up.hearts_minds["II"] = "pro_allied"                                 # no roll outside Allied Control
    place_recruit(up, ent, "uprising", "cadre", JUNGLE)


@pytest.mark.rule("NT 26.8", "NT 26.3")
def test_full_vietnamization_rolls_for_every_uprising_unit():
    s = fresh(turn=12)
    s.policy = s.policy.declare_full(1).declare_uprising(12)
    ent = entitlements(s)
    _, _, res = place_recruit(s, ent, "uprising", "cadre", JUNGLE, dice=ScriptedDice([6]))
    assert res.result is None
    _, left, res = place_recruit(s, ent, "uprising", "cadre", JUNGLE, dice=ScriptedDice([1]))
    assert res.result is not None and left.count("uprising", "II") == 3
    with pytest.raises(RuleViolation):          # basic cadres do not roll; there are none in the uprising anyway
        place_recruit(s, ent, "basic", "cadre", JUNGLE)


@pytest.mark.rule("NT 26.3")
def test_late_uprising_turns_give_a_regiment_or_two_cadres():
    s = fresh(turn=14, uprising=12)
    ent = entitlements(s)
    assert ent.count("uprising", "I") == 2 and ent.count("uprising", "IV") == 2
    s1, left, _ = place_recruit(s, ent, "uprising", "regiment", JUNGLE)
    assert ("uprising", "II") not in left.left
    s2, left, _ = place_recruit(s, ent, "uprising", "cadre", JUNGLE)
    with pytest.raises(RuleViolation, match="no regiment"):
        place_recruit(s2, left, "uprising", "regiment", "1722")
    place_recruit(s2, left, "uprising", "cadre", "1722")
    with pytest.raises(RuleViolation):
        place_recruit(s, ent, "uprising", "cadre", CAMBODIA_JUNGLE)       # South Vietnam's corps only


@pytest.mark.rule("NT 4.1.2")
def test_dummies_go_inverted_where_cadres_go():
    s = fresh()
    ent = entitlements(s)
    with pytest.raises(RuleViolation, match="inverted"):
        place_recruit(s, ent, "dummy", "dummy", JUNGLE, face_up=True)
    new, left, res = place_recruit(s, ent, "dummy", "dummy", CAMBODIA_JUNGLE, face_up=False)
    assert left.count("dummy") == 7 and not new.piece(res.result).face_up
    with pytest.raises(RuleViolation, match="clear"):
        place_recruit(s, ent, "dummy", "dummy", clear_hex(s, "II"), face_up=False)


@pytest.mark.rule("NT 4.1.3", "NT 4.1.7")
def test_two_nva_units_in_china_within_the_division_cap():
    s = fresh()
    ent = entitlements(s)
    s1, ent1, _ = place_recruit(s, ent, "nva", "division", "China", face_up=False)
    s1, ent1, _ = place_recruit(s1, ent1, "nva", "sam", "China")
    with pytest.raises(RuleViolation, match="no nva"):
        place_recruit(s1, ent1, "nva", "artillery", "China")
    with pytest.raises(RuleViolation, match="China"):
        place_recruit(s, ent, "nva", "artillery", "Hanoi")
    with pytest.raises(RuleViolation, match="NT 4.1.3"):
        place_recruit(s, ent, "nva", "tank", "China")
    crowded = fresh()
    for d in crowded.available("communist", type="division")[:10]:
        crowded.place(d.id, "Hanoi")
    with pytest.raises(RuleViolation, match="NT 4.1.7"):
        place_recruit(crowded, entitlements(crowded), "nva", "division", "China")
    crowded.turn, crowded.policy = 12, crowded.policy.declare_uprising(12)
    place_recruit(crowded, entitlements(crowded), "nva", "division", "China")
    crowded.turn = 11                     # nine in play: the tenth is allowed
    crowded.policy = replace(crowded.policy, uprising=None)
    crowded.remove(crowded.units("communist")[0])
    place_recruit(crowded, entitlements(crowded), "nva", "division", "China")


@pytest.mark.rule("NT 4.1.4")
def test_one_supply_unit_in_each_zone():
    s = fresh()
    ent = entitlements(s)
    s, ent, _ = place_recruit(s, ent, "supply", "supply", "China")
    with pytest.raises(RuleViolation, match="no supply"):
        place_recruit(s, ent, "supply", "supply", "China")
    with pytest.raises(RuleViolation):
        place_recruit(s, ent, "supply", "supply", "Vientiane")
    s, ent, _ = place_recruit(s, ent, "supply", "supply", "Haiphong")
    assert [w for (src, w) in ent.left if src == "supply"] == ["Hanoi"]


@pytest.mark.rule("NT 4.1.6")
def test_the_counter_mix_is_the_limit():
    s = fresh()
    for c in s.available("communist", type="cadre", nationality="KR"):
        s.place(c.id, "Hanoi")
    with pytest.raises(RuleViolation, match="NT 4.1.6.*forfeited"):
        place_recruit(s, entitlements(s), "basic", "cadre", CAMBODIA_JUNGLE)
    with pytest.raises(RuleViolation, match="NT 4.1.6"):
        place_recruit(s, entitlements(s), "basic", "cadre", CAMBODIA_JUNGLE, unit="KR cadre 1")


@pytest.mark.rule("NT 7.4.1")
def test_a_communist_controlled_area_recruits_a_regiment_a_cadre_and_a_supply():
    s = fresh()
    s.hearts_minds["II"] = "communist_control"
    s.hearts_minds["III"] = "pro_communist"
    ent = entitlements(s)
    assert ent.count("control", "II") == 3 and ("control", "III") not in ent.left
    s1, ent1, r = place_recruit(s, ent, "control", "regiment", JUNGLE)
    assert s1.counter(r.result).nationality == "VC"
    s1, ent1, _ = place_recruit(s1, ent1, "control", "supply", PLEIKU)     # any hex of the area
    held = s1.copy()
    held.place("ARVN 22", KONTUM)
    with pytest.raises(RuleViolation, match="Allied units hold"):
        place_recruit(held, ent, "control", "supply", KONTUM)
    with pytest.raises(RuleViolation, match="no regiment"):
        place_recruit(s1, ent1, "control", "regiment", "1722")
    with pytest.raises(RuleViolation):
        place_recruit(s, ent, "control", "cadre", CAMBODIA_JUNGLE)        # its own area only


@pytest.mark.rule("NT 4.5.1")
def test_held_towns_may_raise_an_extra_cadre():
    s = fresh()
    regs = [c.id for c in s.available("communist", type="regiment", nationality="VC")]
    s.place(regs[0], PLEIKU)                                              # town: 1
    s.place(regs[1], KONTUM, face_up=False)                               # inverted: does not count
    assert town_points(s, "II") == 1
    s.update(regs[1], face_up=True)
    assert town_points(s, "II") == 2
    s.place("supply 1", "1721")                                           # supply is no combat unit
    assert town_points(s, "II") == 2
    ent = entitlements(s, ScriptedDice([1]))
    assert ent.town_rolls[0].points == 2 and ent.count("extra", "II") == 1
    ent = entitlements(s, ScriptedDice([2]))                              # must be lower, not equal
    assert ent.count("extra", "II") == 0
    city = fresh()
    city.place(regs[0], "1610")                                           # Hue, a city: 2
    assert town_points(city, "I") == 2
    with pytest.raises(RuleViolation, match="dice"):
        entitlements(city)
    s2, _, r = place_recruit(s, entitlements(s, ScriptedDice([1])), "extra", "cadre", "1722")
    assert s2.area_of(s2.piece(r.result).location) == "II"


@pytest.mark.rule("NT 27.2", "NT 27.3", "NT 27.4", "NT 14.2.2", "NT 6.2")
def test_foreign_aid():
    s = fresh(aid=frozenset({"China", "USSR"}))
    ent = entitlements(s)
    place_recruit(s, ent, "aid", "cadre", JUNGLE, country="China")
    place_recruit(s, ent, "aid", "sam", "China", country="China")
    with pytest.raises(RuleViolation, match="NT 27.2"):
        place_recruit(s, ent, "aid", "tank", "China", country="China")
    with pytest.raises(RuleViolation, match="China"):
        place_recruit(s, ent, "aid", "supply", "Hanoi", country="China")
    s1, ent1, r = place_recruit(s, ent, "aid", "tank", "Haiphong", country="USSR")
    assert s1.piece(r.result).location == "Haiphong"
    with pytest.raises(RuleViolation, match="no aid"):
        place_recruit(s1, ent1, "aid", "sam", "Haiphong", country="USSR")
    with pytest.raises(RuleViolation, match="NT 6.2"):
        place_recruit(s, ent, "aid", "tank", "Haiphong", country="USSR", face_up=False)
    mined = fresh(aid=frozenset({"USSR"}), haiphong_mined=True)
    ent = entitlements(mined)
    with pytest.raises(RuleViolation, match="NT 14.2.2"):
        place_recruit(mined, ent, "aid", "artillery", "Haiphong", country="USSR")
    s2, ent2, r = place_recruit(mined, ent, "aid", "artillery", "China", country="USSR")
    assert r.result is None and s2 is mined and ent2.deferred == ("supply", "artillery")
    nxt = fresh(turn=2)
    ent = entitlements(nxt, held_over=ent2.deferred)
    assert ent.count("held_over", "China") == 2
    nxt, ent, _ = place_recruit(nxt, ent, "held_over", "artillery", "China")
    with pytest.raises(RuleViolation):
        place_recruit(nxt, ent, "held_over", "artillery", "China")


@pytest.mark.rule("NT 21.1")
def test_units_from_random_events():
    s = fresh()
    ent = entitlements(s, events=(({"cadre": 2}, "South Vietnam"), ({"supply": 1}, "Cambodia"),
                                  ({"sam": 1}, "China")))
    assert ent.count("event", "South Vietnam") == 2
    s1, ent1, _ = place_recruit(s, ent, "event", "cadre", JUNGLE)
    s1, ent1, _ = place_recruit(s1, ent1, "event", "cadre", "1722")
    with pytest.raises(RuleViolation, match="no cadre"):
        place_recruit(s1, ent1, "event", "cadre", "1620")
    with pytest.raises(RuleViolation, match="no cadre"):
        place_recruit(s, ent, "event", "cadre", CAMBODIA_JUNGLE)     # promised to South Vietnam
    place_recruit(s, ent, "event", "supply", CAMBODIA_JUNGLE)
    place_recruit(s, ent, "event", "sam", "China")
    with pytest.raises(RuleViolation, match="NT 21.1"):
        entitlements(s, events=(({"cadre": 1}, "Thailand"),))
    mined = fresh(haiphong_mined=True)
    assert entitlements(mined, events=(({"supply": 1}, "Haiphong"),)).deferred == ("supply", "supply")
