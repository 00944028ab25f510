"""Indochina rule 17: FEF militia in cities and towns, Communist militia, and control changing on advance."""
import pytest

from wargames.core import Resolution, ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.indochina import Side
from wargames.indochina import SEQUENCE, Advance, Attack, ChooseTable, EndPhase, Game
from wargames.indochina.militia import defending_strengths, place_communist_militia
from wargames.indochina.state import IndochinaState, demo_map
from wargames.indochina.units import Counter

COM, FEF = Side.COMMUNIST, Side.FEF


def game_at(phase_id, *placed):
    g = Game.new(seed=1)
    st = IndochinaState.build(demo_map(), placed, charts=g.state.charts)
    g.state, g.phase_index, g.event_rolled = st, SEQUENCE.index_of(phase_id), True
    return g


def attack(g, attackers, hex_, table, roll):
    g.apply(Attack(attackers, hex_))
    return g.apply(ChooseTable("Communist", table), ScriptedDice([roll]))


def vm(uid, hex_, s=6):
    return (Counter(uid, COM, "regular infantry", "regiment", s, 6, 2, 4, nationality="Viet Minh"), hex_)


@pytest.mark.rule("IC 17.0", "IC 17.1", "IC 17.2", "IC 17.21", "IC 17.22", "IC 17.23")
def test_fef_militia_defends_with_its_printed_strength():
    g = game_at("Communist Combat", vm("803", "1618"))
    st = g.state
    h = st.map.hex("1619")
    assert st.controller(h) is FEF and st.fef_militia(h) == 2
    assert defending_strengths(st, h) == ((2,), True)
    assert st.controller(st.map.hex("1610")) is COM            # Chinese cities are always Communist
    gm = Counter("GM", FEF, "regular infantry", "group", 5, 6, 2, 3)
    st2 = IndochinaState.build(demo_map(), [(gm, "1619")])
    assert defending_strengths(st2, st2.map.hex("1619")) == ((5, 2), False)       # adds to units (17.23)


@pytest.mark.rule("IC 17.13", "IC 17.232", "IC 17.233", "IC 17.33", "IC 17.231")
def test_capturing_a_city_needs_an_advance():
    g = game_at("Communist Combat", vm("803", "1618", s=12))
    assert Attack(("803",), "1619") in list(g.legal_actions)    # militia alone can be attacked
    res = attack(g, ("803",), "1619", "Mobile", 6)              # 12 vs 2 = 6/1: a six is DE
    assert res.result is not None and "IC 17.231" in res.text()
    assert g.state.controller(g.state.map.hex("1619")) is FEF    # not yet: no advance
    assert g.prompt.kind == "advance" and g.prompt.side == "Communist"
    with pytest.raises(RuleViolation):
        g.apply(EndPhase())
    g.apply(Advance("Communist", ("803",), ("1619",)))
    st = g.state
    assert st.controller(st.map.hex("1619")) is COM
    assert any(u.counter.type == "militia" and st.label(u.hex) == "1619" for u in st.on_map(COM))


@pytest.mark.rule("IC 17.322", "IC 17.3", "IC 17.35", "IC 17.31")
def test_fef_retakes_and_militia_limits():
    g = game_at("Communist Combat", vm("803", "1618", s=12))
    attack(g, ("803",), "1619", "Mobile", 6)
    g.apply(Advance("Communist", ("803",), ("1619",)))
    st = g.state
    with pytest.raises(RuleViolation) as e:
        place_communist_militia(st, "1619", on_cadre=False)
    assert e.value.rule == "IC 17.35"
    with pytest.raises(RuleViolation) as e:
        place_communist_militia(st, "1717")
    assert e.value.rule == "IC 17.31"
    # the FEF clears the city and advances: the Communist militia goes and control returns
    from wargames.indochina.militia import advance_into
    for u in st.units_at(st.map.hex("1619"), COM):
        if u.counter.type != "militia":
            u.eliminated = True
    res = Resolution()
    for u in st.units_at(st.map.hex("1619"), COM):
        u.eliminated = True
    advance_into(st, st.map.hex("1619"), FEF, "DE", res)
    assert st.controller(st.map.hex("1619")) is FEF and st.fef_militia(st.map.hex("1619")) == 2


@pytest.mark.rule("IC 17.32", "IC 17.321")
def test_communist_militia_outside_cities_dies_on_disruption():
    from wargames.indochina.results import apply_result
    st = IndochinaState.build(demo_map(), [vm("803", "1717")])
    m = place_communist_militia(st, "1717", on_cadre=False)
    gm = Counter("GM", FEF, "regular infantry", "group", 6, 6, 3, 3)
    st.units["GM"] = type(m)(gm, st.map.hex("1616"))
    apply_result(st, "DD", ["GM"], "1717", "Mobile")
    assert m.eliminated and st.unit("803").disrupted


@pytest.mark.rule("IC 17.234")
def test_lone_militia_hit_by_dd_can_be_overrun_by_an_advance():
    g2 = game_at("Communist Combat", vm("803", "1618", s=6))
    res = attack(g2, ("803",), "1619", "Assault", 4)            # 3/1 on Assault, roll 4: DD
    assert res.result["result"] == "DD"
    assert g2.prompt.kind == "advance" and g2.combat["advance"] == 1
    g2.apply(Advance("Communist", ("803",), ("1619",)))
    assert g2.state.controller(g2.state.map.hex("1619")) is COM
