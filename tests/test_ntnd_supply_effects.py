"""NT 18.2.1.4, 18.6.2, 18.7.3: what supply does in battle (wargames.ntnd.supply_effects)."""
import pytest

from wargames.core import Resolution
from wargames.core.errors import RuleViolation
from wargames.ntnd import supply_effects as se
from wargames.ntnd.state import NtndState


def position(phase="communist_combat"):
    return NtndState(turn=10, phase=phase)


@pytest.mark.rule("NT 18.2.1.4")
def test_an_unsupplied_unit_of_the_phasing_side_fights_one_point_lower():
    s = position()
    s.place("NVA 304", "1613")                  # far from any source: out of supply
    s.place("NVA 308", "1719")
    s.place("supply 1", "1619")                 # two points from NVA 308
    s.place("VC reg 1", "1614")                 # a guerrilla regiment: always in supply
    s.place("NVA art 45", "1613")               # not a ground combat unit: its fire support is 13.4's business
    s.place("US 1/4", "1717", corps="II")       # the other side: defends, always in supply (18.4)
    assert se.unsupplied_morale(s, ["NVA 304", "NVA 308", "VC reg 1", "NVA art 45", "US 1/4"],
                                "communist") == ("NVA 304",)
    assert se.unsupplied_morale(s, ["US 1/4"], "communist") == ()


@pytest.mark.rule("NT 18.6.2")
def test_an_nva_attack_uses_up_the_supply_unit_that_supplies_it():
    s = position()
    s.place("NVA 304", "1613")
    s.place("NVA 320", "1613")
    s.place("supply 1", "1716")                 # six points away: the only source
    assert se.supply_used_by_attack(s, ["NVA 304", "NVA 320"]) == ("supply 1",)
    after = se.use_up(s, ("supply 1",))
    assert "supply 1" not in after.pieces and "supply 1" in s.pieces


@pytest.mark.rule("NT 18.6.2")
def test_no_supply_unit_is_used_by_units_supplied_otherwise():
    s = position()
    s.place("NVA 304", "1815")                  # six points from North Vietnam
    s.place("supply 1", "1816")
    s.place("VC reg 1", "1613")                 # not NVA
    s.place("supply 2", "1614")
    assert se.supply_used_by_attack(s, ["NVA 304", "VC reg 1"]) == ()
    with pytest.raises(RuleViolation, match="not a supply unit"):
        se.use_up(s, ("NVA 304",))


@pytest.mark.rule("NT 18.7.3")
def test_in_a_zone_the_supply_unit_there_is_used():
    s = position()
    s.place("NVA 304", "Plain of Jars")
    s.place("supply 1", "Plain of Jars")
    assert se.supply_used_by_attack(s, ["NVA 304"]) == ("supply 1",)
    s2 = position()
    s2.place("NVA 304", "Hanoi")                # a home zone (18.7.2): no supply unit needed
    s2.place("supply 1", "Hanoi")
    assert se.supply_used_by_attack(s2, ["NVA 304"]) == ()
