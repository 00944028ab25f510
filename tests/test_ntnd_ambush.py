"""No Trumpets No Drums, rule 20: ambushes. Hexes of the shipped map: 1715 mountain (II Corps) with neighbours
1815 and 1814 (jungle), 1714 and 1614 (mountain), 1615 (mountain, trail) and 1716 (jungle town); 1915 clear
(I Corps) with neighbours 1815, 1916, 1814, 1914, 2014, 2015."""
from fractions import Fraction

import pytest

from wargames.core import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.ntnd import ambush as am
from wargames.ntnd import movement as mv
from wargames.ntnd.charts import defence_modifier
from wargames.ntnd.combat import combat_odds
from wargames.ntnd.state import NtndState

F = Fraction


def totals(res):
    """The totals before the dice, from the combat log."""
    return [s.result for s in res.steps if s.text == "Totals before the dice"][0]


def mountain_ambush():
    """US 1/1 steps from 1716 into the mountain hex 1715, next to an inverted VC regiment (1815), an inverted NVA
    division (1814) and inverted NVA artillery (1714). A face-up artillery group (1614) and a firebase (1716) are
    near, but neither may help in an ambush."""
    s = NtndState(turn=1, phase="allied_movement")
    s.place("US 1/1", "1716", corps="II")
    s.place("US FB 1", "1716")
    s.place("VC reg 1", "1815", face_up=False)
    s.place("NVA 304", "1814", face_up=False)
    s.place("NVA art 45", "1714", face_up=False)
    s.place("NVA art 68", "1614", face_up=True)
    move = mv.begin_move(s, "US 1/1", in_supply=True)
    s, move, _ = mv.step(s, move, "1715")
    return s, move


@pytest.mark.rule("NT 20.2", "NT 20.3")
def test_opportunities_after_a_step():
    s, move = mountain_ambush()
    assert move.stopped is None
    assert am.ambush_opportunities(s, "US 1/1") == ("VC reg 1", "NVA 304", "NVA art 45")
    # face-up units do not ambush; neither do dummies, supply units or VC Bases
    s.place("dummy 1", "1615", face_up=False)
    s.place("supply 1", "1615", face_up=False)
    assert am.ambush_opportunities(s, "US 1/1") == ("VC reg 1", "NVA 304", "NVA art 45")
    # only ground units are ambushed
    s.place("US PB TF116", "1916")
    assert am.ambush_opportunities(s, "US PB TF116") == ()
    assert am.ambush_opportunities(s, "US FB 1") == ()


@pytest.mark.rule("NT 20.4", "NT 20.4.1", "NT 20.4.2", "NT 20.4.3", "NT 20.4.4", "NT 20.5", "NT 20.6")
def test_golden_mountain_ambush():
    """Communist: (3 + 4) / 2 = 3.5, +2 for the mountain of the ambushed hex, +1 surprise, +1 for the ambushing
    artillery, +1 for two units to one: 8.5. Allied: 3 and nothing else (no terrain; the firebase next door and
    the face-up artillery are out of it). Dice 2 and 6: 10.5 against 9, a Communist win, not by twice."""
    s, _ = mountain_ambush()
    before = dict(s.pieces)
    new, res = am.resolve_ambush(s, "US 1/1", ("VC reg 1", "NVA 304", "NVA art 45"), ScriptedDice([2, 6]),
                                 supplied=("NVA 304", "NVA art 45"))
    assert s.pieces == before                          # the given state is untouched
    assert totals(res) == {"communist": F(17, 2), "allied": F(3)}
    out = res.result
    assert out.hex == "1715" and out.winner == "communist" and not out.combat.double
    finals = [s_.result for s_ in res.steps if s_.rule == "NT 19.2.6" and "rolls" in s_.text]
    assert finals == [F(21, 2), F(9)]
    assert (out.allied_losses, out.allied_eligible) == (1, ("US 1/1",))
    assert out.communist_losses == 0
    assert out.allied_wiped_out and not out.communist_must_retreat
    assert ("communist", "enter 1715 with surviving ambushers, or not", "NT 20.5") in out.decisions
    # the ambushers are face up now and stay so; nobody has moved yet
    for u in ("VC reg 1", "NVA 304", "NVA art 45"):
        assert new.piece(u).face_up and new.piece(u).location == s.piece(u).location
    # settle: the Allies lose US 1/1 and two ambushers enter the hex
    done = am.settle_ambush(new, out, allied_losses=["US 1/1"], enter=["VC reg 1", "NVA 304"])
    assert "US 1/1" in done.dead and "US 1/1" not in done.pieces
    assert done.track.points == new.track.points - 1        # the Allied loss scores at once, once (22.3)
    assert set(done.at("1715")) == {"VC reg 1", "NVA 304"} and done.piece("NVA 304").face_up


@pytest.mark.rule("NT 20.4.1", "NT 20.4.4", "NT 20.4.3", "NT 20.6")
def test_each_modifier_counts():
    s, _ = mountain_ambush()
    ambushers = ("VC reg 1", "NVA 304", "NVA art 45")

    def total(**kw):
        kw.setdefault("supplied", ("NVA 304", "NVA art 45"))
        return totals(am.resolve_ambush(s, "US 1/1", kw.pop("units", ambushers), ScriptedDice([1, 1]), **kw)[1])

    assert total()["communist"] == F(17, 2)
    # 20.6: NVA 304 unsupplied: -1 to it (avg -1/2); the artillery unsupplied: no fire support
    assert total(supplied=("NVA art 45",))["communist"] == F(8)
    assert total(supplied=("NVA 304",))["communist"] == F(15, 2)
    # 20.4.3: without the ambushing artillery no fire support at all (the face-up 1614 group does not count)
    assert total(units=("VC reg 1", "NVA 304"), supplied=("NVA 304",))["communist"] == F(15, 2)
    # one unit alone: 4 + 2 + 1 (no outnumbering)
    assert total(units=("NVA 304",), supplied=("NVA 304",))["communist"] == F(7)
    # the Allied total: printed morale only
    assert total()["allied"] == F(3)


@pytest.mark.rule("NT 20.4.1")
def test_terrain_of_the_ambushed_hex_only():
    """Ambushed in the jungle town 1716, the Communists get its whole TEC bonus; the Allies none."""
    s = NtndState(turn=1, phase="allied_movement")
    s.place("US 1/1", "1716", corps="II")
    s.place("VC reg 1", "1815", face_up=False)           # 1815 is jungle: its terrain is not used
    b = am.ambush_battle(s, "US 1/1", ["VC reg 1"])
    bonus = defence_modifier("jungle", ["town"])
    assert bonus >= 2
    assert b.attackers[0].current_morale == 3 + bonus + 1
    assert b.defender_hex.terrain == "clear" and not b.defender_hex.features and b.attacker_hexes == ()
    s2 = NtndState(turn=1, phase="allied_movement")
    s2.place("US 1/1", "1915", corps="I")                 # clear
    s2.place("VC reg 1", "1815", face_up=False)
    assert am.ambush_battle(s2, "US 1/1", ["VC reg 1"]).attackers[0].current_morale == 4


@pytest.mark.rule("NT 20.4.2")
def test_allied_support_only_from_the_ambushed_hex():
    s, _ = mountain_ambush()
    s.update("US FB 1", location="1715")                  # the firebase now shares the ambushed hex
    _, res = am.resolve_ambush(s, "US 1/1", ("VC reg 1", "NVA 304"), ScriptedDice([6, 1]), supplied=("NVA 304",))
    assert totals(res)["allied"] == F(4)
    out = res.result
    # 6 + 7.5 = 13.5 against 4 + 1 = 5: twice; the only ground combat unit goes, but the firebase survives the
    # losses, so the Allies are not wiped out and the ambushers must retreat (20.5)
    assert out.combat.double and out.allied_losses == 1
    assert not out.allied_wiped_out and out.communist_must_retreat


@pytest.mark.rule("NT 20.5", "NT 19.3")
def test_allies_survive_and_ambushers_retreat():
    """Clear 1915: VC reg 1 (3) and VC cadre 1 (2) ambush US 1/1 (3). Communist (4 + 3) / 2 + 1 (two to one) =
    4.5; dice 1 and 6: 5.5 against 9, an Allied win, not by twice: one ambusher lost, the other retreats."""
    s = NtndState(turn=1, phase="allied_movement")
    s.place("US 1/1", "1915", corps="I")
    s.place("VC reg 1", "1815", face_up=False)
    s.place("VC cadre 1", "1916", face_up=False)
    s.place("US 2/1", "1816", corps="II")
    new, res = am.resolve_ambush(s, "US 1/1", ["VC reg 1", "VC cadre 1"], ScriptedDice([1, 6]))
    out = res.result
    assert totals(res) == {"communist": F(9, 2), "allied": F(3)}
    assert out.winner == "allied" and out.allied_losses == 0 and out.communist_losses == 1
    assert out.communist_eligible == ("VC reg 1", "VC cadre 1")
    assert out.communist_must_retreat and not out.allied_wiped_out
    legal = am.ambush_retreat_hexes(new, "VC reg 1", avoid="1915")
    assert "1915" not in legal and "1816" not in legal and "1715" in legal
    with pytest.raises(RuleViolation) as e:
        am.settle_ambush(new, out, communist_losses=["VC cadre 1"], retreats={"VC reg 1": "1816"})
    assert e.value.rule == "NT 19.3"
    with pytest.raises(RuleViolation) as e:
        am.settle_ambush(new, out, communist_losses=["VC cadre 1"], enter=["VC reg 1"])
    assert e.value.rule == "NT 20.5"
    with pytest.raises(RuleViolation):                      # the wrong number of losses
        am.settle_ambush(new, out, retreats={"VC reg 1": "1715", "VC cadre 1": "2015"})
    done = am.settle_ambush(new, out, communist_losses=["VC cadre 1"], retreats={"VC reg 1": "1715"})
    assert done.piece("VC reg 1").location == "1715" and done.piece("VC reg 1").face_up
    assert done.piece("US 1/1").location == "1915"          # the Allies never retreat
    assert "VC cadre 1" not in done.pieces
    assert done.track.points == new.track.points + 1        # a Communist unit eliminated: +1 at once (22.3)


@pytest.mark.rule("NT 20.5", "NT 19.2.6")
def test_a_tie_makes_the_survivors_retreat():
    """A tie costs each side a unit; the Allied mover is gone but US 2/1 in the hex survives, so the remaining
    ambusher retreats and the Allies stay (no optional retreat)."""
    s = NtndState(turn=1, phase="allied_movement")
    s.place("US 1/1", "1915", corps="I")
    s.place("US 2/1", "1915", corps="I")
    s.place("VC reg 1", "1815", face_up=False)
    s.place("VC reg 2", "1916", face_up=False)
    _, res = am.resolve_ambush(s, "US 1/1", ["VC reg 1", "VC reg 2"], ScriptedDice([3, 4]))
    out = res.result
    assert totals(res) == {"communist": F(4), "allied": F(3)}
    assert out.winner is None and out.allied_losses == 1 and out.communist_losses == 1
    assert out.allied_eligible == ("US 1/1", "US 2/1")
    assert out.communist_must_retreat and not out.allied_wiped_out


@pytest.mark.rule("NT 20.7")
def test_airmobile_targets():
    """An airmobile unit flies: guerrillas may not ambush it, no terrain counts, face-up artillery next to it
    supports, and a supplied SAM next to it adds 1."""
    s = NtndState(turn=1, phase="allied_movement")
    s.place("US 1/1 Cav", "1715")
    s.place("VC reg 1", "1815", face_up=False)
    s.place("NVA 304", "1814", face_up=False)
    s.place("NVA art 68", "1614", face_up=True)
    s.place("NVA SAM 1", "1615", face_up=True)
    assert am.ambush_opportunities(s, "US 1/1 Cav") == ("NVA 304",)
    with pytest.raises(RuleViolation) as e:
        am.resolve_ambush(s, "US 1/1 Cav", ["VC reg 1", "NVA 304"], ScriptedDice([1, 1]))
    assert e.value.rule == "NT 20.7"
    _, res = am.resolve_ambush(s, "US 1/1 Cav", ["NVA 304"], ScriptedDice([1, 1]), supplied=["NVA 304", "NVA SAM 1"])
    assert totals(res) == {"communist": F(4 + 1 + 1 + 1), "allied": F(4)}
    _, res = am.resolve_ambush(s, "US 1/1 Cav", ["NVA 304"], ScriptedDice([1, 1]), supplied=["NVA 304"])
    assert totals(res)["communist"] == F(6)


@pytest.mark.rule("NT 8.9.1")
def test_guerrillas_abroad_do_not_ambush():
    s = NtndState(turn=1, phase="allied_movement")
    s.place("US 1/1", "1715", corps="II")
    s.place("VC reg 1", "1815", face_up=False)
    s.place("PL reg 1", "1814", face_up=False)           # a Pathet Lao regiment in South Vietnam
    assert am.ambush_opportunities(s, "US 1/1") == ("VC reg 1",)


@pytest.mark.rule("NT 20.3", "NT 20.6", "NT 11.3", "NT 20.4.2")
def test_refusals_leave_the_state_alone():
    s, _ = mountain_ambush()
    before = dict(s.pieces)
    s.place("VC reg 2", "1917", face_up=False)            # not next to 1715
    before = dict(s.pieces)
    cases = [
        (dict(ambushers=["VC reg 2"]), "NT 20.3"),
        (dict(ambushers=["NVA art 45"]), "NT 20.3"),                         # artillery alone
        (dict(ambushers=["NVA art 68"]), "NT 20.3"),                         # face up already
        (dict(ambushers=[]), "NT 20.2"),
        (dict(ambushers=["VC reg 1"], supplied=["VC reg 1"]), "NT 20.6"),
        (dict(ambushers=["VC reg 1"], ground_support=["VC reg 1"]), "NT 20.4.2"),   # no air unit in 1715
    ]
    for kw, rule in cases:
        with pytest.raises(RuleViolation) as e:
            am.resolve_ambush(s, "US 1/1", kw.pop("ambushers"), ScriptedDice([1, 1]), **kw)
        assert e.value.rule == rule, kw
        assert s.pieces == before
    s.place("US F 2AD", "1715")
    b = am.ambush_battle(s, "US 1/1", ["VC reg 1"], ground_support=["VC reg 1"])
    assert b.attackers[0].current_morale == 3 + 2 + 1 - 1
    monsoon = s.copy()
    monsoon.turn = 2
    with pytest.raises(RuleViolation) as e:
        am.ambush_battle(monsoon, "US 1/1", ["VC reg 1"], ground_support=["VC reg 1"])
    assert e.value.rule == "NT 11.3"


@pytest.mark.rule("NT 20.4", "NT 19.2.6")
def test_exact_odds_of_the_golden_ambush():
    """8.5 against 3: the Communists always win (5.5 + c - a > 0); by twice when 8.5 + c >= 2 (3 + a), that is
    6 + 5 + 3 + 1 + 0 + 0 = 15 of the 36 rolls."""
    s, _ = mountain_ambush()
    odds = am.ambush_odds(s, "US 1/1", ("VC reg 1", "NVA 304", "NVA art 45"), supplied=("NVA 304", "NVA art 45"))
    assert dict(odds) == {("communist", True): F(15, 36), ("communist", False): F(21, 36)}
    battle = am.ambush_battle(s, "US 1/1", ("VC reg 1", "NVA 304", "NVA art 45"), supplied=("NVA 304", "NVA art 45"))
    assert combat_odds(battle) == odds


@pytest.mark.rule("NT 25.4.1", "NT 20.5")
def test_arvn_deserters_in_an_ambush():
    """Demoralized ARVN under the severe regime: the ambushed ARVN division (printed 2) rolls first, without
    the -1 for attacking (it is ambushed); a 3 deserts it, the hex is empty and the ambusher may enter."""
    from wargames.ntnd.combat import Desertion
    s = NtndState(turn=1, phase="allied_movement")
    s.place("ARVN 1", "1915", corps="I")
    s.place("VC reg 1", "1815", face_up=False)
    new, res = am.resolve_ambush(s, "ARVN 1", ["VC reg 1"], ScriptedDice([3]), desertion=Desertion())
    out = res.result
    assert out.deserted == ("ARVN 1",) and out.allied_wiped_out and not out.combat.fought
    done = am.settle_ambush(new, out, enter=["VC reg 1"])
    assert "ARVN 1" not in done.pieces and done.piece("VC reg 1").location == "1915"
    # a 2 stays (2 is not above 2): then the battle is fought with two more dice
    _, res = am.resolve_ambush(s, "ARVN 1", ["VC reg 1"], ScriptedDice([2, 1, 1]), desertion=Desertion())
    assert res.result.deserted == () and res.result.combat.fought


@pytest.mark.rule("NT 28.8", "NT 20.4.4")
def test_armour_shock_passes_through():
    s = NtndState(turn=1, phase="allied_movement")
    s.place("US 1/1", "1915", corps="I")
    s.place("NVA tank 202", "1815", face_up=False)
    base = totals(am.resolve_ambush(s, "US 1/1", ["NVA tank 202"], ScriptedDice([1, 1]), supplied=["NVA tank 202"])[1])
    shock = totals(am.resolve_ambush(s, "US 1/1", ["NVA tank 202"], ScriptedDice([1, 1]), supplied=["NVA tank 202"],
                                     armour_shock=True)[1])
    assert base["communist"] == 4 + 1 and shock["communist"] == 4 + 1 + 1


@pytest.mark.rule("NT 19.3.2", "NT 19.3.6", "NT 20.5")
def test_retreat_into_a_full_hex():
    """The survivor of the 1915 ambush retreats into 1715, which already holds two NVA divisions: the owner must
    eliminate exactly one unit there (19.3.2)."""
    s = NtndState(turn=1, phase="allied_movement")
    s.place("US 1/1", "1915", corps="I")
    s.place("VC reg 1", "1815", face_up=False)
    s.place("VC cadre 1", "1916", face_up=False)
    s.place("NVA 308", "1715")
    s.place("NVA 312", "1715")
    new, res = am.resolve_ambush(s, "US 1/1", ["VC reg 1", "VC cadre 1"], ScriptedDice([1, 6]))
    out = res.result
    kw = dict(communist_losses=["VC cadre 1"], retreats={"VC reg 1": "1715"})
    with pytest.raises(RuleViolation) as e:
        am.settle_ambush(new, out, **kw)
    assert e.value.rule == "NT 19.3.2"
    with pytest.raises(RuleViolation):                      # two is more than the excess
        am.settle_ambush(new, out, overstack_losses=["NVA 308", "NVA 312"], **kw)
    with pytest.raises(RuleViolation):                      # not in the crowded hex
        am.settle_ambush(new, out, overstack_losses=["US 1/1"], **kw)
    done = am.settle_ambush(new, out, overstack_losses=["NVA 308"], **kw)
    assert set(done.at("1715")) == {"NVA 312", "VC reg 1"}
    with pytest.raises(RuleViolation) as e:                 # None only when no hex is open
        am.settle_ambush(new, out, communist_losses=["VC cadre 1"], retreats={"VC reg 1": None})
    assert e.value.rule == "NT 19.3.6"
