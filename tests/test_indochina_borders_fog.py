"""Indochina borders (rule 22) and fog of war (rule 21) on the demonstration map (rows 10-11 are China)."""
import pytest

from wargames.core import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.indochina import Side
from wargames.indochina.borders import attack_problem
from wargames.indochina.fog import player_view
from wargames.indochina.movement import move
from wargames.indochina.state import IndochinaState, demo_map
from wargames.indochina.units import Counter

FEF, COM = Side.FEF, Side.COMMUNIST


def unit(uid, side, utype="regular infantry", nat="", **kw):
    return Counter(uid, side, utype, "group", 6, 6, 3, 3, nationality=nat, **kw)


def st_(*placed):
    return IndochinaState.build(demo_map(), placed)


@pytest.mark.rule("IC 22.0", "IC 22.1", "IC 22.3")
@pytest.mark.parametrize("nat,utype,side,allowed", [
    ("French", "regular infantry", FEF, False), ("US", "regular infantry", FEF, False),
    ("VNA", "regular infantry", FEF, False), ("Viet Minh", "regular infantry", COM, True),
    ("Viet Minh", "guerrilla", COM, False), ("Chinese", "regular infantry", COM, True),
    ("Pathet Lao", "light infantry", COM, False)])
def test_who_may_enter_china(nat, utype, side, allowed):
    st = st_((unit("u", side, utype, nat), "1412"))
    if allowed:
        move(st, "u", ["1411"])
        assert st.label(st.unit("u").hex) == "1411"
    else:
        with pytest.raises(RuleViolation) as e:
            move(st, "u", ["1411"])
        assert e.value.rule == "IC 22.1" and "22." in e.value.reason


@pytest.mark.rule("IC 22.2", "IC 22.3")
def test_attacks_into_china():
    st = st_((unit("u", FEF), "1412"))
    assert attack_problem(st, "FEF", st.map.hex("1411")) and not attack_problem(st, "Communist", st.map.hex("1412"))
    assert attack_problem(st, "FEF", st.map.hex("1412")) is None


@pytest.mark.rule("IC 22.4")
def test_burma_and_thailand_are_closed(tmp_path):
    from wargames.indochina.state import load_indochina_map
    p = tmp_path / "m.yaml"
    p.write_text("name: t\nsheet: s\nlayout: {parity: even-q}\nfill: {cols: [1, 3], rows: [1, 3], terrain: clear}\n"
                 "hexes:\n  '0202': {terrain: clear, country: Thailand}\n")
    st = IndochinaState.build(load_indochina_map(p), [(unit("vm", COM, nat="Viet Minh"), "0201")])
    with pytest.raises(RuleViolation) as e:
        move(st, "vm", ["0202"])
    assert "22.4" in e.value.reason


@pytest.mark.rule("IC 21.0", "IC 21.1", "IC 21.2", "IC 21.3")
def test_player_views():
    st = st_((unit("GM", FEF, nat="French"), "1515"), (unit("803", COM, nat="Viet Minh"), "1415"),
             (unit("Chinese", COM, nat="Chinese"), "1610"))
    fef_view = player_view(st, FEF)
    assert fef_view["1415"] == [{"enemy": True, "hidden": True}]
    assert player_view(st, FEF, revealed=["1415"])["1415"][0]["id"] == "803"          # at the instant of combat
    assert player_view(st, FEF, adjacent_to=["1416"])["1415"][0]["has_zoc"] is True    # 21.3
    com_view = player_view(st, COM)
    assert com_view["1515"][0]["id"] == "GM"            # the Communist sees FEF units inside Indochina (21.1(2))
