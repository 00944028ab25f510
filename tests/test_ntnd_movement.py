"""No Trumpets No Drums, rule 8 (movement) with 8.5 zones, 9 off-board zones and 10 neutral borders, on the
shipped map. Hexes used (reconstructed map): 1815/1816/1916 plain jungle (II Corps), 1915 plain clear (I Corps),
1819-1820-1921 a row of plain jungle, Saigon 1327 - Bien Hoa 1326 on Route 1, An Loc 1324 - Dong Xoai 1424 two
different roads, Tchepone 1210 (Laos) on the trail, Khe Sanh 1310 and Lang Vei 1410 (I Corps, by Laos)."""
from dataclasses import replace
from fractions import Fraction

import pytest

from wargames.core import Resolution, ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.ntnd import movement as mv
from wargames.ntnd import zones
from wargames.ntnd.politics import PoliticalTrack
from wargames.ntnd.state import NtndState

F = Fraction


def fresh(turn=1):
    return NtndState(turn=turn, phase="movement")


def at(s, name):
    return s.geography.label(s.geography.place(name))


def cost(s, unit, a, b):
    return mv.step_cost(s, unit, a, b)


def start(s, unit, **kw):
    kw.setdefault("in_supply", True)
    return mv.begin_move(s, unit, **kw)


# ------------------------------------------------------------------------------------------------ calendar
@pytest.mark.rule("NT 8.2.1", "NT 8.4")
def test_monsoon_and_trail_turns():
    assert [t for t in range(1, 13) if mv.is_monsoon(t)] == [2, 3, 8, 9]
    from wargames.ntnd.units import turn_date
    assert turn_date(mv.IMPROVED_TRAIL_TURN) == "Jan/Feb 1971"
    assert not mv.improved_trail_open(35) and mv.improved_trail_open(36)


# ------------------------------------------------------------------------------------------------ zones
@pytest.mark.rule("NT 8.5.1", "NT 25.2")
def test_zone_of_control_who_and_where():
    s = fresh()
    s.place("VC reg 1", "1816")
    s.place("VC cadre 1", "1916")                   # morale 2: none
    s.place("ARVN 1", "1915", corps="I")            # morale 2: none
    s.place("ARVN Abn", "1814", corps="I")          # morale 3
    s.place("US 1/1", "1715", corps="II")
    assert zones.zoc_hexes(s, "VC reg 1") == {s.geography.hex(x) for x in
                                              ("1816", "1917", "1916", "1815", "1716", "1717", "1817")}
    assert zones.zoc_hexes(s, "VC cadre 1") == set() and zones.zoc_hexes(s, "ARVN 1") == set()
    assert len(zones.zoc_hexes(s, "ARVN Abn")) == 7
    s.update("VC reg 1", face_up=False)
    assert zones.zoc_hexes(s, "VC reg 1") == set()
    s.place("NVA 304", "Hanoi")
    assert zones.zoc_hexes(s, "NVA 304") == set()           # 8.5.4
    s.track = PoliticalTrack(49)                            # 25.1: demoralized
    assert zones.zoc_hexes(s, "ARVN Abn") == set() and len(zones.zoc_hexes(s, "US 1/1")) == 7
    s.track = PoliticalTrack(50)
    assert len(zones.zoc_hexes(s, "ARVN Abn")) == 7


@pytest.mark.rule("NT 8.5.1", "NT 10.2", "NT 10.8")
def test_zone_of_control_and_borders():
    s = fresh()
    g = s.geography
    s.place("NVA 304", "1210")                      # Tchepone, Laos, next to Khe Sanh (SVN)
    z = zones.zoc_hexes(s, "NVA 304")
    assert g.hex("1310") not in z and g.hex("1311") in z
    z = zones.zoc_hexes(s, "NVA 304", declared=["Laos"])
    assert g.hex("1310") in z
    s.standing["Laos"] = "allied"
    assert g.hex("1310") in zones.zoc_hexes(s, "NVA 304")
    # North Vietnam is neutral toward the Allies only (10.8)
    s2 = fresh()
    s2.place("US 173 Abn", "1310")
    s2.place("NVA 320", "1309")
    assert g.hex("1309") not in zones.zoc_hexes(s2, "US 173 Abn")
    assert g.hex("1309") in zones.zoc_hexes(s2, "US 173 Abn", declared=["NV"])
    assert g.hex("1310") in zones.zoc_hexes(s2, "NVA 320")


@pytest.mark.rule("NT 8.5.1")
def test_zone_of_control_stops_at_sea():
    s = fresh()
    g = s.geography
    s.place("KR reg 1", "0326")                     # an all-sea hexside lies between 0326 and 0327
    z = zones.zoc_hexes(s, "KR reg 1", declared=["Cambodia"])
    assert g.all_sea_side(g.hex("0326"), g.hex("0327")) and g.hex("0327") not in z
    assert not any(g.is_all_sea(h) for h in z)


@pytest.mark.rule("NT 8.5.3", "NT 8.5.4")
def test_zone_of_influence():
    s = fresh()
    g = s.geography
    s.place("US FB 1", "1311")                      # in Laos: reaches across the border without a declaration
    z = zones.zoi_hexes(s, "US FB 1")
    assert len(z) == 19 and g.hex("1310") in z and g.hex("1309") in z and g.hex("1110") in z
    assert g.hex("1010") not in z and all(h.distance(g.hex("1311")) <= 2 for h in z)
    s.place("US GB 1", "Vientiane")
    assert zones.zoi_hexes(s, "US GB 1") == set()
    s.place("US 1/1", "1916", corps="II")
    assert zones.zoi_hexes(s, "US 1/1") == set()


# ------------------------------------------------------------------------------------------------ allowances
@pytest.mark.rule("NT 8.2", "NT 8.2.1", "NT 18.2.1.3")
def test_allowances_monsoon_and_supply():
    s = fresh(turn=1)
    s.place("US 1/1", "1916", corps="II")
    s.place("VC reg 1", "1815", face_up=False)
    s.place("US PB TF116", at(s, "Can Tho"))
    assert start(s, "US 1/1").points == 12
    assert start(s, "US 1/1", in_supply=False).points == 6
    assert start(s, "VC reg 1").points == 10
    m = fresh(turn=2)
    m.pieces = s.pieces
    assert start(m, "US 1/1").points == 6
    assert start(m, "US 1/1", in_supply=False).points == 3          # both halvings
    assert start(m, "VC reg 1").points == 10                          # inverted: no monsoon halving
    m.update("VC reg 1", face_up=True)
    assert start(m, "VC reg 1").points == 5
    assert start(m, "US PB TF116").points == 18                       # 8.2.1 exception


@pytest.mark.rule("NT 8.4")
def test_improved_trail():
    for turn, want in ((35, 12), (36, 15)):
        s = fresh(turn)
        s.place("supply 1", "1210")
        assert start(s, "supply 1").points == want
    s = fresh(36)
    s.place("supply 1", "1310")                     # begins in South Vietnam: basic allowance
    assert start(s, "supply 1").points == 12
    s = fresh(36)
    s.place("supply 1", "1211")
    move = replace(start(s, "supply 1"), spent=F(12))
    assert mv.check_step(s, move, "1210").cost == 1                    # still in Laos: 15 points
    s.update("supply 1", location="1210")
    with pytest.raises(RuleViolation, match="NT 8.1.*8.4"):
        mv.check_step(s, replace(move, path=("1210",)), "1310")      # into SVN: the basic 12 apply
    assert mv.check_step(s, replace(move, path=("1210",), spent=F(23, 2)), "1310").cost == F(1, 2)


@pytest.mark.rule("NT 8.2", "NT 15.2.1", "NT 8.2.5", "NT 10.3.1")
def test_units_that_do_not_move():
    s = fresh()
    for u, where in (("US FB 1", "1916"), ("US GB 1", "1815"), ("SVN militia 1", "1715"), ("VC base 1", "1819")):
        s.place(u, where)
    for u in ("US FB 1", "US GB 1", "VC base 1"):
        with pytest.raises(RuleViolation, match="NT 8.2:"):
            start(s, u)
    m = start(s, "SVN militia 1")                    # inside the Green Beret's zone: unlimited there
    assert m.points is None
    assert mv.check_step(s, m, "1814").cost == 2
    s.place("SVN militia 2", "1819")
    with pytest.raises(RuleViolation, match="NT 8.2:"):
        start(s, "SVN militia 2")
    g = s.geography
    s.update("SVN militia 1", location="1714")                        # two hexes from the Green Beret
    out = next(g.label(n) for n in g.map.neighbors(g.hex("1714")) if n.distance(g.hex("1815")) == 3)
    with pytest.raises(RuleViolation, match="NT 15.2.1"):
        mv.check_step(s, replace(m, path=("1714",)), out)
    s.place("US F 2AD", "1920")
    with pytest.raises(RuleViolation, match="NT 8.2.5"):
        start(s, "US F 2AD")
    s.place("Cam inf 1", at(s, "Kratie"), corps="Cambodia")
    with pytest.raises(RuleViolation, match="NT 10.3.1"):
        start(s, "Cam inf 1")
    s.standing["Cambodia"] = "allied"
    assert start(s, "Cam inf 1").points == 12


# ------------------------------------------------------------------------------------------------ costs
@pytest.mark.rule("NT 8.1", "NT 8.2.2", "NT 8.2.6")
def test_terrain_costs_and_the_one_point_classes():
    s = fresh()
    s.place("US 1/1", "1815", corps="II")
    assert cost(s, "US 1/1", "1815", "1915") == 1                      # clear
    assert cost(s, "US 1/1", "1815", "1916") == 2                      # jungle
    assert cost(s, "US 1/1", "1815", "1715") == F(5, 2)                # mountain
    for u in ("US 1/1 Cav", "ARVN ranger 1", "supply 1", "VC reg 1"):
        s.place(u, "1814", corps="II" if u == "ARVN ranger 1" else None)
        assert cost(s, u, "1814", "1715") == 1, u                      # airmobile, ranger, supply, guerrilla
        s.remove(u)
    s.place("NVA 304", "1814")
    assert cost(s, "NVA 304", "1814", "1715") == F(5, 2)
    s.update("NVA 304", face_up=False)
    assert cost(s, "NVA 304", "1814", "1715") == 1                     # inverted


@pytest.mark.rule("NT 8.2.7")
def test_roads_and_trails_along():
    s = fresh()
    g = s.geography
    s.place("US 1/1", at(s, "Saigon"), corps="III")
    assert cost(s, "US 1/1", "1327", "1326") == F(1, 2)                # Route 1, clear both ways
    assert cost(s, "US 1/1", "1326", "1327") == F(1, 2)
    # An Loc and Dong Xoai both have roads, but not the same one: jungle cost
    assert mv.route_between(g, g.hex("1324"), g.hex("1424")) is None
    assert cost(s, "US 1/1", "1324", "1424") == 2
    # from a hex without the road into a road hex: the terrain
    assert cost(s, "US 1/1", "1619", "1720") == 2
    # the trail through the Laotian mountains: 1 where the mountain costs 5/2 (Tchepone to 1311, Route 9 too)
    assert mv.route_between(g, g.hex("1110"), g.hex("1210")) == "trail"
    assert mv.route_between(g, g.hex("1210"), g.hex("1311")) == "road"
    s.place("NVA 304", "1110")
    assert cost(s, "NVA 304", "1110", "1210") == 1
    assert cost(s, "NVA 304", "1009", "1110") == 2                     # onto the trail from off it
    assert cost(s, "NVA 304", "1210", "1311") == F(1, 2)


@pytest.mark.rule("NT 8.3", "NT 7.4.3")
def test_local_vc():
    s = fresh()
    s.place("US 1/1", "1326", corps="III")
    s.place("US 1/1 Cav", "1326")
    s.place("NVA 304", "1325")
    s.hearts_minds["III"] = "pro_communist"
    assert cost(s, "US 1/1", "1327", "1326") == F(1, 2)
    s.hearts_minds["III"] = "communist_control"
    assert cost(s, "US 1/1", "1327", "1326") == 1 + F(1, 2)            # no road; clear + minor river, no +1
    assert cost(s, "US 1/1", "1324", "1325") == 3                      # jungle 2 + 1
    assert cost(s, "US 1/1 Cav", "1324", "1325") == F(1, 2)            # airmobile: exempt (7.4.3), keeps Route 13
    assert cost(s, "NVA 304", "1324", "1325") == F(1, 2)               # only Allied units
    s.place("ARVN ranger 1", "1426", corps="III")
    assert cost(s, "ARVN ranger 1", "1324", "1325") == 2               # ranger: 1, +1 non-clear
    assert cost(s, "ARVN ranger 1", "1425", "1426") == 1               # clear: no +1
    s.hearts_minds["III"] = "pro_allied"
    assert cost(s, "ARVN ranger 1", "1324", "1325") == F(1, 2)


@pytest.mark.rule("NT 8.5.3", "NT 8.5.3.1")
def test_zone_of_influence_doubles_face_up_communists():
    s = fresh()
    s.place("US FB 1", "1816")
    s.place("NVA 304", "1619")
    s.place("US 1/1", "1921", corps="II")
    assert cost(s, "NVA 304", "1715", "1815") == 4                     # jungle 2, doubled
    assert cost(s, "NVA 304", "1614", "1715") == 5                     # mountain 5/2, doubled
    assert cost(s, "NVA 304", "1619", "1620") == F(5, 2)               # outside the zone: jungle + minor river
    assert cost(s, "US 1/1", "1715", "1815") == 2                      # Allied units: no effect
    s.update("NVA 304", face_up=False)
    assert cost(s, "NVA 304", "1715", "1815") == 1                     # inverted: infiltrates instead
    s.update("NVA 304", location="1614")
    check = mv.check_step(s, start(s, "NVA 304"), "1715")
    assert check.infiltrate == "zoi" and check.cost == 1


# ------------------------------------------------------------------------------------------------ legality
@pytest.mark.rule("NT 8.5.2", "NT 8.5.2.1")
def test_zone_of_control_stops_a_face_up_unit():
    s = fresh()
    s.place("VC reg 1", "1816")
    s.place("US 173 Abn", "1715")
    m = start(s, "US 173 Abn")
    s2, m2, res = mv.step(s, m, "1815")
    assert m2.stopped == "NT 8.5.2" and s2.piece("US 173 Abn").location == "1815" and m2.spent == 2
    with pytest.raises(RuleViolation, match="NT 8.5.2"):
        mv.check_step(s2, m2, "1915")
    # a unit that begins in the zone leaves it freely, and stops on entering any of its hexes again
    m3 = start(s2, "US 173 Abn")
    assert mv.check_step(s2, m3, "1814").stop is None
    assert mv.check_step(s2, m3, "1916").stop == "NT 8.5.2"
    assert mv.check_step(s, m, "1814").stop is None
    s.update("VC reg 1", face_up=False)                      # no zone of control while inverted
    assert mv.check_step(s, m, "1815").stop is None


@pytest.mark.rule("NT 8.5")
def test_enemy_hexes():
    s = fresh()
    s.place("VC reg 1", "1816", face_up=False)
    s.place("US 1/1", "1815", corps="II")
    with pytest.raises(RuleViolation, match="enemy units"):
        mv.check_step(s, start(s, "US 1/1"), "1816")
    s.place("US Fleet", at(s, "Qui Nhon"))
    s.place("NVA 304", "2018")
    check = mv.check_step(s, start(s, "NVA 304"), at(s, "Qui Nhon"))
    assert [q.rule for q in check.consequences] == ["NT 14.2.1"]


@pytest.mark.rule("NT 8.1")
def test_allowance_is_a_limit():
    s = fresh()
    s.place("US 1/1", "1815", corps="II")
    m = replace(start(s, "US 1/1"), spent=F(19, 2))
    assert mv.check_step(s, m, "1715").cost == F(5, 2)                 # exactly 12
    with pytest.raises(RuleViolation, match="NT 8.1"):
        mv.check_step(s, replace(m, spent=F(10)), "1715")
    with pytest.raises(RuleViolation, match="not next to"):
        mv.check_step(s, m, "1819")


@pytest.mark.rule("NT 5.3", "NT 5.3.1", "NT 5.5")
def test_corps_confinement():
    s = fresh()
    s.place("US 1/1", "1327", corps="III")
    m = start(s, "US 1/1")
    with pytest.raises(RuleViolation, match="NT 5.3"):
        mv.check_step(s, m, "1227")                                   # My Tho, IV Corps
    assert mv.check_step(s, m, "1326").cost == F(1, 2)
    s.place("US 173 Abn", "1327")
    assert mv.check_step(s, start(s, "US 173 Abn"), "1227").cost      # unattached: free (5.5)
    # an attached unit may enter a bordering Laos or Cambodia (5.3.1): III Corps borders Cambodia
    s.place("US 1/5 Mech", "1124", corps="III")
    assert mv.check_step(s, start(s, "US 1/5 Mech"), "1123").cost
    s.place("USMC 1", "1310", corps="I")
    check = mv.check_step(s, start(s, "USMC 1"), "1311")               # I Corps borders Laos
    assert check.consequences[0].kind == "neutrality_violation"
    # after a retreat out of its corps, it may walk back
    s.update("US 1/1", location="1227")
    assert mv.check_step(s, start(s, "US 1/1"), "1327").cost


@pytest.mark.rule("NT 8.2")
def test_airmobile_range():
    s = fresh()
    s.place("US 1/1 Cav", "1423")                # III Corps, by II Corps
    m = start(s, "US 1/1 Cav")
    assert m.points is None and mv.check_step(s, m, "1523").cost == 1   # into II: bordering III
    far = replace(m, start_area="IV")
    with pytest.raises(RuleViolation, match="NT 8.2"):
        mv.check_step(s, far, "1523")                                   # II does not border IV
    s2 = fresh(2)
    s2.place("US 1/1 Cav", "1423")
    m2 = start(s2, "US 1/1 Cav")
    assert m2.points == 9
    assert mv.check_step(s2, replace(m2, start_area="IV"), "1523").cost == 1   # monsoon: points, not areas


@pytest.mark.rule("NT 8.9.1", "NT 8.9.2", "NT 10.3.3")
def test_national_limits():
    s = fresh()
    s.place("VC reg 1", "1124")
    with pytest.raises(RuleViolation, match="NT 8.9.1"):
        mv.check_step(s, start(s, "VC reg 1"), "1123")                 # into Cambodia
    s.place("PL reg 1", "1311")
    with pytest.raises(RuleViolation, match="NT 8.9.1"):
        mv.check_step(s, start(s, "PL reg 1"), "1310")
    s.place("Lao inf 1", "1312", corps="Laos")
    with pytest.raises(RuleViolation, match="NT 8.9.2"):
        mv.check_step(s, start(s, "Lao inf 1"), "1411")
    assert mv.check_step(s, start(s, "Lao inf 1"), "1212").consequences == ()
    s.place("NVA 304", "1209")
    assert mv.check_step(s, start(s, "NVA 304"), "1309").cost         # 8.9.4: NVA go anywhere


@pytest.mark.rule("NT 10.2", "NT 10.2.3.1", "NT 10.5.1", "NT 10.8", "NT 8.9.4")
def test_neutral_borders_are_consequences():
    s = fresh()
    s.place("US 173 Abn", "1310")
    check = mv.check_step(s, start(s, "US 173 Abn"), "1311")
    assert [(q.kind, q.country, q.side) for q in check.consequences] == [("neutrality_violation", "Laos", "allied")]
    assert [q.kind for q in mv.check_step(s, start(s, "US 173 Abn"), "1309").consequences] == ["nv_invasion"]
    s.place("Thai 333", "1410")
    assert mv.check_step(s, start(s, "Thai 333"), "1311").consequences == ()     # 10.2.3.1
    s.standing["Laos"] = "allied"
    assert mv.check_step(s, start(s, "US 173 Abn"), "1311").consequences == ()
    s.standing["Laos"] = "neutral"
    s.place("NVA 304", "1309")
    check = mv.check_step(s, start(s, "NVA 304"), "1209")
    assert [q.kind for q in check.consequences] == ["neutrality_violation"]
    s.update("NVA 304", location="1110")
    check = mv.check_step(s, start(s, "NVA 304"), "1210")               # within Laos, into Tchepone
    assert [q.kind for q in check.consequences] == ["joins_allies"]
    s.update("NVA 304", face_up=False)
    assert mv.check_step(s, start(s, "NVA 304"), "1210").consequences == ()
    s.update("NVA 304", location="1309")
    assert mv.check_step(s, start(s, "NVA 304"), "1209").consequences == ()
    s.place("PL reg 1", "1110")
    assert mv.check_step(s, start(s, "PL reg 1"), "1111").consequences == ()     # at home (inventory 6.2)
    s.place("Lao inf 1", "1411", corps="Laos")                 # forced out by a retreat, going home
    assert mv.check_step(s, start(s, "Lao inf 1"), "1311").consequences == ()
    s.place("US PB TF116", "1201")                              # not a ground unit: no invasion of NV
    assert mv.check_step(s, start(s, "US PB TF116"), "1101").consequences == ()
    s.place("supply 1", "1309")                                 # 8.9.4: a supply unit violates nothing
    assert mv.check_step(s, start(s, "supply 1"), "1209").consequences == ()


@pytest.mark.rule("NT 9.1", "NT 9.1.1.1", "NT 10.7")
def test_zone_steps_take_the_turn():
    s = fresh()
    s.place("NVA 304", "1001")                    # Thanh Hoa borders Hanoi
    m = start(s, "NVA 304")
    assert mv.step_cost(s, "NVA 304", "1001", "Hanoi") is None
    s2, m2, _ = mv.step(s, m, "Hanoi")
    assert m2.stopped == "NT 9.1" and m2.spent == 10 and s2.piece("NVA 304").location == "Hanoi"
    with pytest.raises(RuleViolation, match="whole turn"):
        mv.check_step(s, replace(m, path=("1101",)), "Hanoi")
    with pytest.raises(RuleViolation, match="NT 9.1"):
        mv.check_step(s2, start(s2, "NVA 304"), "Vientiane")          # not adjacent
    assert mv.check_step(s2, start(s2, "NVA 304"), "China").cost is None
    s.place("US 173 Abn", "Luang Prabang")
    with pytest.raises(RuleViolation, match="NT 10.7"):
        mv.check_step(s, start(s, "US 173 Abn"), "China")
    assert [q.kind for q in mv.check_step(s, start(s, "US 173 Abn"), "Vientiane").consequences] == []
    s.place("US 1/1 Cav", "0104")                                 # Laos, by the Plain of Jars and Vientiane
    assert [q.country for q in mv.check_step(s, start(s, "US 1/1 Cav"), "Vientiane").consequences] == []
    s.place("US 11 ACR", "Hanoi")
    assert mv.check_step(s, start(s, "US 11 ACR"), "Plain of Jars").consequences[0].country == "Laos"
    s.place("US Fleet", "1101")                                   # coastal, by Hanoi and Haiphong
    assert mv.check_step(s, start(s, "US Fleet"), "Haiphong").cost is None
    with pytest.raises(RuleViolation, match="NT 9.1.1.1"):
        mv.check_step(s, start(s, "US Fleet"), "Hanoi")
    s.place("NVA int 921", "Hanoi")
    m = start(s, "NVA int 921")
    assert mv.check_step(s, m, "China").cost is None
    with pytest.raises(RuleViolation, match="NT 8.2.5"):
        mv.check_step(s, m, "Plain of Jars")


@pytest.mark.rule("NT 8.2.3", "NT 8.2.4", "NT 8.6.1", "NT 8.6.2")
def test_water():
    s = fresh()
    g = s.geography
    s.place("US Fleet", "1201")
    m = start(s, "US Fleet")
    assert m.points is None and mv.check_step(s, m, "1202").cost == 0
    s.place("US PB TF116", at(s, "Can Tho"))
    pb = start(s, "US PB TF116")
    riverside = [g.label(n) for n in g.map.neighbors(g.place("Can Tho")) if g.naval(n)]
    dry = [g.label(n) for n in g.map.neighbors(g.place("Can Tho")) if not g.naval(n)]
    assert mv.check_step(s, pb, riverside[0]).cost == 1
    with pytest.raises(RuleViolation, match="NT 8.2.4"):
        mv.check_step(s, pb, dry[0])
    s.place("NVA 304", "1002")
    sea = next(g.label(n) for n in g.map.neighbors(g.hex("1002")) if g.is_all_sea(n))
    with pytest.raises(RuleViolation, match="all-sea"):
        mv.check_step(s, start(s, "NVA 304"), sea)


@pytest.mark.rule("NT 8.2.3")
def test_fleet_keeps_to_sea_and_coast():
    s = fresh()
    g = s.geography
    coast = g.place("Qui Nhon")
    inland = next(n for n in g.map.neighbors(coast) if not g.is_coastal(n) and not g.is_all_sea(n))
    s.place("US Fleet", g.label(coast))
    with pytest.raises(RuleViolation, match="NT 8.2.3"):
        mv.check_step(s, start(s, "US Fleet"), g.label(inland))


@pytest.mark.rule("NT 8.6.1", "NT 8.6.2")
def test_communist_sea_move():
    s = fresh()
    g = s.geography
    s.place("supply 1", at(s, "Qui Nhon"))
    m = start(s, "supply 1", by_sea=True)
    coast = [g.label(n) for n in g.map.neighbors(g.place("Qui Nhon")) if g.is_coastal(n)]
    sea = [g.label(n) for n in g.map.neighbors(g.place("Qui Nhon")) if g.is_all_sea(n)]
    assert mv.check_step(s, m, coast[0]).cost == 1
    with pytest.raises(RuleViolation, match="NT 8.6.2"):
        mv.check_step(s, m, sea[0])
    boat = next(g.label(n) for n in g.map.neighbors(g.hex(coast[0])) if g.is_all_sea(n))
    assert mv.check_step(s, m, coast[0]).infiltrate is None
    s.place("US PB TF116", boat)
    check = mv.check_step(s, m, coast[0])
    assert check.infiltrate == "sea"
    s2, m2, _ = mv.step(s, m, coast[0], dice=ScriptedDice([3]))
    assert "supply 1" not in s2.pieces and m2.stopped == "NT 8.6.2"
    s3, m3, _ = mv.step(s, m, coast[0], dice=ScriptedDice([4]))
    assert s3.piece("supply 1").location == coast[0] and m3.stopped is None
    s.place("supply 2", "1815")
    with pytest.raises(RuleViolation, match="NT 8.6.1"):
        start(s, "supply 2", by_sea=True)
    # out of Haiphong by sea: one point into a coastal hex it borders, not a whole-turn zone step
    s.place("supply 3", "Haiphong")
    hm = start(s, "supply 3", by_sea=True)
    check = mv.check_step(s, hm, "1101")
    assert check.cost == 1 and check.stop is None
    assert mv.check_step(s, start(s, "supply 3"), "1101").cost is None        # by land: the whole turn
    with pytest.raises(RuleViolation, match="NT 8.6.1"):
        mv.check_step(s, hm, "1201")                                           # all sea
    from wargames.ntnd.politics import Policy
    s.policy = Policy(haiphong_mined=True)
    with pytest.raises(RuleViolation, match="NT 14.2.2"):
        start(s, "supply 3", by_sea=True)


@pytest.mark.rule("NT 14.1.3")
def test_patrol_boats_stop_river_movement():
    s = fresh()
    g = s.geography
    ct = g.place("Can Tho")
    s.place("US PB TF116", g.label(ct))
    river = [n for n in g.map.neighbors(ct) if g.river(n)]
    s.place("NVA 304", g.label(river[0]))
    h = river[0]
    nxt = next(n for n in g.map.neighbors(h) if g.river(n) and n != ct and n.distance(ct) == 2)
    s.update("NVA 304", location=g.label(h))
    assert mv.check_step(s, start(s, "NVA 304"), g.label(nxt)).stop == "NT 14.1.3"
    s.remove("US PB TF116")
    assert mv.check_step(s, start(s, "NVA 304"), g.label(nxt)).stop is None


# ------------------------------------------------------------------------------------------------ infiltration
@pytest.mark.rule("NT 8.5.2", "NT 9.2")
def test_infiltration_targets_and_odds():
    s = fresh()
    s.place("NVA 304", "1815", face_up=False)
    assert mv.infiltration_need(s, "1916") == 4 and mv.infiltration_need(s, "1915") == 5
    assert mv.infiltration_need(s, "1715") == 4                       # mountain
    assert mv.infiltration_need(s, at(s, "Saigon")) == 4               # a city on clear ground
    assert mv.infiltration_need(s, "1426") == 5                        # clear with a road
    assert mv.infiltration_need(s, "Hanoi") == 4                       # zones are non-clear (9.2)
    assert mv.infiltration_odds(s, "NVA 304", ["1916"])[1] == F(1, 2)
    assert mv.infiltration_odds(s, "NVA 304", ["1915"])[1] == F(1, 3)
    three = mv.infiltration_odds(s, "NVA 304", ["1819", "1820", "1921"])
    assert three[3] == F(1, 8) and three[0] == F(1, 2) and three[1] == F(1, 4) and three[2] == F(1, 8)


@pytest.mark.rule("NT 8.5.2", "NT 8.5.3")
def test_infiltration_steps():
    s = fresh()
    s.place("US 1/1", "1816", corps="II")
    s.place("NVA 304", "1715", face_up=False)
    m = start(s, "NVA 304")
    assert mv.check_step(s, m, "1815").infiltrate == "zoc"
    with pytest.raises(RuleViolation, match="dice"):
        mv.step(s, m, "1815")
    res = Resolution()
    s2, m2, _ = mv.step(s, m, "1815", dice=ScriptedDice([3]), res=res)
    assert s2.piece("NVA 304").location == "1715" and s2.piece("NVA 304").face_up and m2.stopped == "NT 8.5.2"
    assert not s.piece("NVA 304").face_up                             # the given state is untouched
    assert "rolled 3, needs 4+" in res.text()
    s3, m3, _ = mv.step(s, m, "1815", dice=ScriptedDice([4]))
    assert s3.piece("NVA 304").location == "1815" and not s3.piece("NVA 304").face_up and m3.stopped is None
    assert m3.spent == 1
    # a zone of influence alone: failure stops the unit but leaves it inverted
    z = fresh()
    z.place("US FB 1", "1816")
    z.place("NVA 304", "1614", face_up=False)
    m = start(z, "NVA 304")
    z2, m2, _ = mv.step(z, m, "1715", dice=ScriptedDice([3]))
    assert z2.piece("NVA 304").location == "1614" and not z2.piece("NVA 304").face_up and m2.stopped == "NT 8.5.3"


@pytest.mark.rule("NT 8.6.4", "NT 8.6.4.1", "NT 8.6.4.2", "NT 8.6.4.3")
def test_amphibious_landing():
    s = fresh()
    g = s.geography
    s.place("USMC 1", at(s, "Da Nang"), corps="I")
    m = start(s, "USMC 1")
    target = at(s, "Qui Nhon")                                   # II Corps, coastal
    with pytest.raises(RuleViolation, match="NT 8.6.4.2"):
        mv.check_step(s, m, target, amphibious=True)             # the fleet is not there yet
    s.place("US Fleet", target)
    check = mv.check_step(s, m, target, amphibious=True)
    assert check.cost == 6 and check.consequences == ()
    s2, m2, _ = mv.step(s, m, target, amphibious=True)
    assert m2.spent == 6 and m2.landed and s2.piece("USMC 1").location == target
    inland = next(g.label(n) for n in g.map.neighbors(g.hex(target)) if not g.is_coastal(n) and not g.is_all_sea(n))
    assert mv.check_step(s2, m2, inland).cost                   # in II Corps, outside its own: allowed (8.6.4.3)
    with pytest.raises(RuleViolation, match="NT 5.3"):
        mv.check_step(s2, replace(m2, landed=False), inland)
    s.place("US 1/1", at(s, "Hoi An"), corps="I")
    with pytest.raises(RuleViolation, match="marines and rangers"):
        mv.check_step(s, start(s, "US 1/1"), target, amphibious=True)
    s.place("USMC 5", "1814", corps="I")
    with pytest.raises(RuleViolation, match="coastal town or city"):
        mv.check_step(s, start(s, "USMC 5"), target, amphibious=True)


@pytest.mark.rule("NT 28.11.4")
def test_the_laotian_guard_moves_only_between_the_royal_cities():
    s = fresh()
    s.place("Lao Guard", "Vientiane", corps="Laos")
    assert mv.check_step(s, start(s, "Lao Guard"), "Luang Prabang")
    border = s.geography.neighbours("Vientiane")
    hexes = [x for x in border if x not in s.geography.zones]
    with pytest.raises(RuleViolation, match="NT 28.11.4"):
        mv.check_step(s, start(s, "Lao Guard"), hexes[0])
