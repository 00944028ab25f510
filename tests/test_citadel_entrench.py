"""Citadel Rule 18 (entrenchments) and Rule 19.G (tank movement): works dug during play as a layer of the state,
tunnels, the silenced weapons in a trench, filling in, and where tanks may not go."""
import datetime as dt

import pytest

from wargames.citadel import Counter, Game, Side, UnitClass
from wargames.citadel.entrench import EQUIVALENTS, trench_equivalents
from wargames.citadel.game import Dig, EndPhase, EnterTunnel, Fire, Move
from wargames.citadel.melee import Advance, Melee
from wargames.citadel.units import UnitState
from wargames.core import ScriptedDice
from wargames.core.errors import RuleViolation

LATER = dt.date(1954, 3, 20)


def _game(date=LATER, **positions) -> Game:
    g = Game.new()
    st = g.state
    st.date = date
    for uid, lab in positions.items():
        st.unit(uid.replace("_", " ")).hex = st.map.hex(lab)
    return g


@pytest.mark.rule("C 18")
def test_no_digging_before_march_15():
    g = _game(date=dt.date(1954, 3, 14))
    with pytest.raises(RuleViolation, match="March 15"):
        g.apply(Dig("1st Bn", "trench", ("0910",)))
    g = _game(date=dt.date(1954, 3, 15))
    g.apply(Dig("1st Bn", "trench", ("0910",)))


@pytest.mark.rule("C 18")
def test_a_system_starts_in_the_battalions_jungle_hex_and_grows_four_hexes_a_phase():
    g = _game()
    st = g.state
    assert st.map.terrain(st.unit("1st Bn").hex) == "full_jungle"
    g.apply(Dig("1st Bn", "trench", ("0910", "1010", "1111", "1112")))
    assert {st.label(h) for h in g.state.works} == {"0910", "1010", "1111", "1112"}
    assert trench_equivalents(g.state.works) == 4
    with pytest.raises(RuleViolation, match="already dug this movement phase"):
        g.apply(Dig("1st Bn", "trench", ("1113",)))
    with pytest.raises(RuleViolation, match="1 to 4 trench hexes"):
        g.apply(Dig("2nd Bn", "trench", ("0911", "1011", "1012", "1013", "1014")))
    with pytest.raises(RuleViolation, match="not next to a trench"):
        g.apply(Dig("2nd Bn", "trench", ("1014",)))
    # the works were dug this phase and may be used at once: a Vietminh unit in a trench is never a VP (C 8)
    res = g.apply(Move(("1st Bn",), ("1010", "1111", "1112")))
    assert not any("pauses" in s.text for s in res.steps)


@pytest.mark.rule("C 18")
def test_a_weak_or_routed_battalion_cannot_start_trenches():
    g = _game()
    bn = g.state.unit("1st Bn")
    bn.inverted, bn.losses = True, 4                       # 9 - 4 = 5 strength points
    with pytest.raises(RuleViolation, match="needs 6"):
        g.apply(Dig("1st Bn", "trench", ("0910",)))
    bn = g.state.unit("1st Bn")                            # a refused action restores the position afresh
    bn.losses, bn.routed = 0, True
    with pytest.raises(RuleViolation, match="routed"):
        g.apply(Dig("1st Bn", "trench", ("0910",)))


@pytest.mark.rule("C 18")
def test_tunnels_only_on_hills_pits_only_beside_trenches_and_never_in_a_french_hex():
    g = _game()
    st = g.state
    g.apply(Dig("1st Bn", "trench", ("0910", "1010")))
    hills = [h for h in st.map.hexes if st.map.terrain(h) == "hill"]
    assert hills
    with pytest.raises(RuleViolation, match="only on a hill"):
        g.apply(Dig("2nd Bn", "tunnel", ("1111",)))
    g.apply(Dig("2nd Bn", "weapons_pit", ("1111",)))
    assert g.state.works[g.state.map.hex("1111")] == "weapons_pit"
    assert trench_equivalents(g.state.works) == 2 + EQUIVALENTS["weapons_pit"] == 6
    g2 = _game(**{"1st_Bn": "1313"})
    with pytest.raises(RuleViolation, match="starts in jungle"):
        g2.apply(Dig("1st Bn", "trench", ("1313",)))
    g3 = _game()
    g3.state.works[g3.state.map.hex("1315")] = "trench"
    g3.state.unit("1st Bn").hex = g3.state.map.hex("1314")
    with pytest.raises(RuleViolation, match="holds a French unit"):
        g3.apply(Dig("1st Bn", "trench", ("1316",)))


@pytest.mark.rule("C 18")
def test_vietminh_weapons_in_a_trench_may_not_fire_but_in_a_pit_they_may():
    from wargames.citadel.entrench import silenced_in_trench
    g = _game()
    st = g.state
    rr = UnitState(Counter("RR", Side.VIETMINH, UnitClass.HEAVY_WEAPONS, "75mm RR", 4, type="infantry weapons",
                           ordnance="75"), st.map.hex("1111"))
    st.units["RR"] = rr
    st.works[rr.hex] = "trench"
    assert silenced_in_trench(st, rr)
    st.works[rr.hex] = "weapons_pit"
    assert not silenced_in_trench(st, rr)


@pytest.mark.rule("C 18")
def test_a_tunnel_holds_two_recoilless_rifles_outside_the_stack():
    from wargames.citadel.stacking import stacking_problem
    g = _game()
    st = g.state
    hill = sorted(h for h in st.map.hexes if st.map.terrain(h) == "hill")[0]
    st.works[hill] = "tunnel"
    rrs = []
    for i in range(3):
        u = UnitState(Counter(f"RR{i}", Side.VIETMINH, UnitClass.HEAVY_WEAPONS, "75mm RR", 4,
                              type="infantry weapons", ordnance="75"), hill)
        st.units[u.id] = u
        rrs.append(u)
    g.apply(EnterTunnel("RR0"))
    g.apply(EnterTunnel("RR1"))
    with pytest.raises(RuleViolation, match="already holds"):
        g.apply(EnterTunnel("RR2"))
    assert g.state.unit("RR0").in_tunnel and g.state.unit("RR1").in_tunnel
    six = [UnitState(Counter(f"W{i}", Side.VIETMINH, UnitClass.HEAVY_WEAPONS, "82mm", 4, type="infantry weapons",
                             ordnance="82"), hill) for i in range(6)]
    assert stacking_problem([*six, g.state.unit("RR0"), g.state.unit("RR1")]) is None
    assert stacking_problem([*six, g.state.unit("RR2")]) is not None


@pytest.mark.rule("C 18", "C 11")
def test_french_infantry_ending_a_melee_phase_in_a_trench_fill_it_in():
    g = _game(**{"1st_Bn": "1413"})
    st = g.state
    st.works[st.map.hex("1414")] = "trench"
    while g.phase.id != "VM melee":
        g.apply(EndPhase())
    res = g.apply(EndPhase())
    assert any("fill in the trench" in s.text for s in res.steps)
    assert g.state.map.hex("1414") not in g.state.works


@pytest.mark.rule("C 19.G")
def test_tanks_do_not_cross_full_jungle_hexsides_or_rivers_without_a_road():
    from wargames.citadel.tanks import tank_crossing_problem
    g = _game()
    st = g.state
    tank = UnitState(Counter("Conti", Side.FRENCH, UnitClass.TANK, "Conti", 3, type="tank", morale_modifier=3))
    river = next(k for k, v in st.map.hexsides.items() if "river" in v.features)
    a, b = sorted(river)
    roads = "road" in st.map.info(a).features and "road" in st.map.info(b).features
    assert bool(tank_crossing_problem(st, tank, a, b)) is not roads
    dry = next((x, y) for x in st.map.hexes for y in st.map.neighbors(x) if not st.map.side(x, y))
    assert tank_crossing_problem(st, tank, *dry) is None
