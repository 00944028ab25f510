"""No Trumpets No Drums, rule 18 (supply), with 5.3 (out of corps), on the shipped map."""
from fractions import Fraction

import pytest

from wargames.core import Hex, Resolution
from wargames.core.errors import RuleViolation
from wargames.ntnd import movement as mv
from wargames.ntnd import supply as sp
from wargames.ntnd.state import NtndState

F = Fraction


def fresh(turn=1):
    return NtndState(turn=turn, phase="movement")


def at(s, name):
    return s.geography.label(s.geography.place(name))


@pytest.mark.rule("NT 18.2.1.1", "NT 18.2.1.2", "NT 18.5", "NT 18.4")
def test_units_always_in_supply():
    s = fresh()
    for u, where in (("VC cadre 1", "1916"), ("VC reg 1", "1917"), ("VC sapper 1", "1918"), ("supply 1", "1815"),
                     ("US FB 1", "1715"), ("SVN militia 1", "1614"), ("US 1/1 Cav", "1619"), ("US PB TF116", "1128")):
        s.place(u, where)
        assert sp.always_in_supply(s, u), u
        assert sp.in_supply(s, u)
    s.remove("US FB 1")
    s.remove("supply 1")
    s.place("NVA 304", "1819")
    s.place("US 173 Abn", "1921")
    assert sp.always_in_supply(s, "NVA 304") is None and not sp.in_supply(s, "NVA 304")
    assert sp.always_in_supply(s, "US 173 Abn") is None and not sp.in_supply(s, "US 173 Abn")
    assert sp.in_supply(s, "NVA 304", defending=True) and sp.in_supply(s, "US 173 Abn", defending=True)   # 18.4
    s.update("NVA 304", face_up=False)
    assert sp.always_in_supply(s, "NVA 304") == "NT 18.2.1.2"
    s.place("Lao inf 1", "1212", corps="Laos")
    assert sp.always_in_supply(s, "Lao inf 1") == "NT 18.5"
    s.standing["Laos"] = "allied"
    assert sp.always_in_supply(s, "Lao inf 1") is None


@pytest.mark.rule("NT 18.1.1")
def test_allied_line_to_a_held_city_blocked_by_zones_of_control():
    s = fresh()
    qn = at(s, "Qui Nhon")
    s.place("US 173 Abn", "1916")
    assert sp.supply_line(s, "US 173 Abn") is None            # no city is held, no firebase
    s.place("ARVN 1", qn, corps="II")
    line = sp.supply_line(s, "US 173 Abn")
    assert line.source == "Qui Nhon" and line.path[0] == "1916" and line.path[-1] == qn
    assert line.cost == len(line.path) - 1                     # any length: counted in hexes
    g = s.geography
    beside = next(g.label(n) for n in g.map.neighbors(g.hex(qn)) if not g.is_all_sea(n))
    s.place("NVA 304", beside)                                 # Qui Nhon now lies in its zone of control
    res = Resolution()
    assert not sp.in_supply(s, "US 173 Abn", res=res) and "no supply line" in res.text()
    assert sp.in_supply(s, "US 173 Abn", air_sources=[s.piece("US 173 Abn").location])   # supplied by air
    s.update("NVA 304", face_up=False)                         # no zone of control when inverted
    assert sp.in_supply(s, "US 173 Abn")


@pytest.mark.rule("NT 18.1.1")
def test_allied_sources_firebase_ranger_town_fleet():
    s = fresh()
    g = s.geography
    s.place("US 173 Abn", "1916")
    s.place("US FB 1", "1816")
    assert sp.supply_line(s, "US 173 Abn").source == "US FB 1"
    s.remove("US FB 1")
    s.place("US 1/1", at(s, "An Khe"), corps="II")             # a town, not a city
    assert sp.supply_line(s, "US 173 Abn") is None
    s.place("ARVN ranger 1", "1917", corps="II")
    assert sp.supply_line(s, "ARVN ranger 1").source == "An Khe"   # rangers may use towns
    # the fleet off the coast: its line ends on a coastal hex next to it
    sea = next(n for n in g.map.neighbors(g.place("Qui Nhon")) if g.is_all_sea(n))
    s.place("US Fleet", g.label(sea))
    line = sp.supply_line(s, "US 173 Abn")
    assert line.source == "US Fleet" and g.is_coastal(g.hex(line.path[-1])) and g.hex(line.path[-1]).is_adjacent(sea)


@pytest.mark.rule("NT 18.1.4", "NT 5.3", "NT 5.3.1")
def test_borders_and_corps():
    s = fresh()
    s.place("US 173 Abn", "1123")                              # Cambodia, by III Corps
    s.place("US FB 1", "1124")                                 # South Vietnam
    assert sp.supply_line(s, "US 173 Abn") is None             # Cambodia is neutral
    s.standing["Cambodia"] = "allied"
    assert sp.supply_line(s, "US 173 Abn").source == "US FB 1"
    s.place("US 1/1", "1227", corps="III")                     # My Tho, a city it holds, but in IV Corps
    assert sp.supply_line(s, "US 1/1").source == "My Tho"
    res = Resolution()
    assert not sp.in_supply(s, "US 1/1", res=res) and res.steps[-1].rule == "NT 5.3"
    s.update("US 1/1", location="1123")                        # Cambodia borders III Corps: 5.3.1
    assert sp.in_supply(s, "US 1/1")


@pytest.mark.rule("NT 18.1.2", "NT 18.6.2", "NT 28.9.2")
def test_communist_six_points():
    s = fresh()
    s.place("NVA 304", "1309")
    assert sp.supply_line(s, "NVA 304") == sp.SupplyLine(("1309",), F(0), "North Vietnam")
    s.update("NVA 304", location="1310")                       # Khe Sanh: Route 9 then Route 1
    assert sp.supply_line(s, "NVA 304") == sp.SupplyLine(("1310", "1409", "1309"), F(1), "North Vietnam")
    # from the II Corps highlands, up Route 1, exactly six points
    s.update("NVA 304", location="1815")
    line = sp.supply_line(s, "NVA 304")
    assert line.cost == 6 and line.source == "North Vietnam" and line.path[-1] == "1309"
    s.update("NVA 304", location="1816")                       # one jungle hex further: 8
    assert sp.supply_line(s, "NVA 304") is None
    s.place("supply 1", "1819")
    assert sp.supply_line(s, "NVA 304").source == "supply 1"
    s.place("VC base 1", "1916")                               # 28.9.2: a VC Base serves Viet Cong units only
    assert sp.supply_line(s, "NVA 304").source == "supply 1"
    s.place("VC reg 1", "1817")
    line = sp.supply_line(s, "VC reg 1")
    assert line.source == "VC base 1" and line.path[-1] == "1916"


@pytest.mark.rule("NT 18.1.2", "NT 18.1.4")
def test_communist_line_blocked():
    s = fresh()
    s.place("NVA 304", "1310")
    s.place("US FB 1", "1510")                                 # zone of influence over 1409
    assert sp.supply_line(s, "NVA 304") is None                # and Laos is neutral: no way round
    s.standing["Laos"] = "allied"
    line = sp.supply_line(s, "NVA 304")
    assert line is not None and line.path[1] in ("1209", "1210", "1311")
    s2 = fresh()
    s2.place("NVA 304", "1210")                                # Tchepone, Laos
    assert sp.supply_line(s2, "NVA 304") is None               # neutral Laos: no line across its borders
    s2.place("supply 1", "1110")
    assert sp.supply_line(s2, "NVA 304").source == "supply 1"  # within Laos is fine
    s3 = fresh()
    s3.place("NVA 304", "1310")
    s3.place("US 173 Abn", "1510")                             # its zone of control covers 1409, not 1309
    assert sp.supply_line(s3, "NVA 304") == sp.SupplyLine(("1310", "1309"), F(3), "North Vietnam")
    s3.update("US 173 Abn", location="1409")                   # next to 1309, across North Vietnam's border
    assert sp.supply_line(s3, "NVA 304") == sp.SupplyLine(("1310", "1309"), F(3), "North Vietnam")
    assert sp.supply_line(s3, "NVA 304", enemy_declared=["NV"]) is None     # 10.2, 10.8: declared
    s3.update("US 173 Abn", location="1611")
    assert sp.supply_line(s3, "NVA 304").cost == 1


@pytest.mark.rule("NT 18.7.1", "NT 18.7.2", "NT 18.7.3", "NT 18.1.3")
def test_zones():
    s = fresh()
    s.place("NVA 304", "Hanoi")
    assert sp.in_supply(s, "NVA 304")
    s.place("NVA 320", "Plain of Jars")
    assert not sp.in_supply(s, "NVA 320")
    s.place("supply 1", "Plain of Jars")
    assert sp.in_supply(s, "NVA 320")
    s.standing["Laos"] = "allied"
    s.place("Lao Guard", "Luang Prabang", corps="Laos")
    assert sp.in_supply(s, "Lao Guard")
    s.place("US 173 Abn", "Vientiane")
    assert not sp.in_supply(s, "US 173 Abn")
    s.place("US FB 1", "Vientiane")
    assert sp.in_supply(s, "US 173 Abn")
    with pytest.raises(RuleViolation, match="NT 18.1.3"):
        sp.supply_line(s, "US 173 Abn")


@pytest.mark.rule("NT 18.2.1.3")
def test_out_of_supply_halves_the_move():
    s = fresh()
    s.place("NVA 304", "1816")
    supplied = sp.in_supply(s, "NVA 304")
    assert not supplied and mv.begin_move(s, "NVA 304", in_supply=supplied).points == 5


@pytest.mark.rule("NT 11.1.3", "NT 18.1.1", "NT 18.7.3")
def test_air_supply_makes_a_source_for_the_turn():
    s = fresh()
    s.place("US 3/1", "1424", corps="III")                     # Saigon empty: no line
    assert not sp.in_supply(s, "US 3/1")
    assert sp.in_supply(s, "US 3/1", air_sources=["1424"])
    assert sp.supply_line(s, "US 3/1", air_sources=["1325"]).source == "air supply at 1325"
    for unit in ("US 1/1", "US 2/1", "US 3/4"):
        s.place(unit, "Plain of Jars", corps="I")
    supplied = [u for u in ("US 1/1", "US 2/1", "US 3/4") if sp.in_supply(s, u, air_sources=["Plain of Jars"])]
    assert supplied == ["US 1/1", "US 2/1"]                   # two ground units a mission, the first there
    assert all(sp.in_supply(s, u, air_sources=["Plain of Jars"] * 2) for u in ("US 1/1", "US 2/1", "US 3/4"))
