"""Citadel Rules 15-17: replacements, reinforcements and T'ai desertion, through citadel.Game."""
import datetime as dt

import pytest

from wargames.citadel import Counter, EndPhase, Game, Side, UnitClass, UnitState
from wargames.citadel import replacements as R
from wargames.citadel.replacements import PlaceReinforcement, TakeReplacement
from wargames.core import Resolution, ScriptedDice
from wargames.core.errors import RuleViolation
from tests.test_citadel_supply import add, at_phase

FR, VM = Side.FRENCH, Side.VIETMINH


def company(g, uid, hexlabel, name="Company", parent="X", morale=3, **kw):
    return add(g, uid, FR, hexlabel, cls=UnitClass.INFANTRY, name=name, size="company", type="infantry",
               parent=parent, strength=3, morale=morale, reduced_strength=2, reduced_morale=morale - 1, **kw)


# --------------------------------------------------------------------------- C 15

@pytest.mark.rule("C 15")
def test_infantry_take_replacements_only_below_the_critical_loss_level_and_never_above_it():
    g = Game.new()
    st = g.state
    c = st.unit("1/3BT")
    assert R.replacement_room(st, c) == 0                  # full strength
    c.inverted = True
    assert R.replacement_room(st, c) == 0                  # flipped, no loss beyond: already at its reduced side
    c.losses = 1
    assert R.replacement_room(st, c) == 1
    bn = st.unit("1st Bn")
    bn.losses = 3
    assert R.replacement_room(st, bn) == 0                 # not yet flipped: no infantry replacement
    bn.inverted, bn.losses = True, 4
    assert R.replacement_room(st, bn) == 4
    gun = st.unit("105-A")
    gun.losses = 2
    assert R.replacement_room(st, gun) == 2
    gun.eliminated = True
    assert R.replacement_room(st, gun) == 0                # eliminated units are never rebuilt
    c.eliminated = True
    with pytest.raises(RuleViolation, match="not on the map"):
        R.take_replacement(st, FR, "1/3BT", 1, Resolution())


@pytest.mark.rule("C 15")
def test_french_replacements_at_a_prompt_in_the_supply_phase_within_the_caps():
    g = Game.new()
    st = g.state
    R.reserves_of(st).french_left = {"infantry": 1, "heavy weapons": 1}
    st.unit("105-A").losses = 2
    c = st.unit("1/3BT")
    c.inverted, c.losses = True, 1
    at_phase(g, "supply and transport")
    assert g.prompt.side == "French" and g.prompt.rule == "C 15"
    assert set(g.legal_actions) == {TakeReplacement("105-A"), TakeReplacement("1/3BT"), EndPhase()}
    with pytest.raises(RuleViolation, match="only 1 French heavy weapons"):
        g.apply(TakeReplacement("105-A", 2))
    with pytest.raises(RuleViolation, match="critical loss level"):
        g.apply(TakeReplacement("1/3BT", 2))
    g.apply(TakeReplacement("105-A", 1))
    assert g.state.unit("105-A").strength == 3 and R.reserves_of(g.state).french_left["heavy weapons"] == 0
    with pytest.raises(RuleViolation):
        g.apply(TakeReplacement("1st Bn"))                   # not French
    g.apply(TakeReplacement("1/3BT"))
    assert g.state.unit("1/3BT").inverted and g.state.unit("1/3BT").strength == 2   # never flips back
    assert R.reserves_of(g.state).french_left["infantry"] == 0
    assert g.phase.id != "supply and transport"            # nothing more could be taken: the play ended


@pytest.mark.rule("C 15", "C 26.E")
def test_with_the_airlift_the_french_replacements_are_flown_in_not_prompted():
    from tests.test_citadel_air import game, to_phase
    from wargames.citadel.airplay import Drop
    g = game(available={"C47": 3})
    st = g.state
    st.supply.airlift = True
    st.unit("105-A").losses = 1
    c = st.unit("1/3BT")
    c.inverted, c.losses = True, 1
    R.reserves_of(st).french_left = {"infantry": 2, "heavy weapons": 1}
    gun, inf = st.label(st.unit("105-A").hex), st.label(c.hex)
    to_phase(g, "supply and transport")
    assert g.prompt.rule == "C 26.E"                          # the transport mission, no replacement prompt
    assert not any(isinstance(a, TakeReplacement) for a in g.legal_actions)
    assert Drop(("C47-1",), gun, "low", "N", "replacements", 1, "105-A") in g.legal_actions
    before = g.state_dict()
    for drop, why in ((Drop(("C47-1",), gun, "low", "N", "replacements", 2, "105-A"), "only 1 point"),
                      (Drop(("C47-1",), inf, "low", "N", "replacements", 3, "1/3BT"), "carry 1 to 2"),
                      (Drop(("C47-1",), inf, "low", "N", "replacements", 2, "1/3BT"), "only 1 point"),
                      (Drop(("C47-1",), inf, "low", "N", "replacements", 1, "1st Bn"), "not a French unit"),
                      (Drop(("C47-1",), gun, "low", "N", "replacements", 1, "1/3BT"), "in or next to"),
                      (Drop(("C47-1",), gun, "low", "N", "replacements", 1), "name the French unit")):
        problem = g.why_illegal(drop)
        assert problem is not None and why in problem.reason, (drop, problem)
        with pytest.raises(RuleViolation):
            g.apply(drop)
        assert g.state_dict() == before
    g.apply(Drop(("C47-1",), gun, "low", "N", "replacements", 1, "105-A"))
    again = g.why_illegal(Drop(("C47-2",), gun, "low", "N", "replacements", 1, "105-A"))
    assert again is not None and again.rule == "C 15"          # the point already in the air counts
    g.apply(Drop(("C47-2",), inf, "low", "N", "replacements", 1, "1/3BT"))
    while g.state.phase == "supply and transport":
        g.apply(EndPhase())
    st = g.state
    assert st.unit("105-A").losses == 0 and st.unit("1/3BT").losses == 0 and st.unit("1/3BT").inverted
    assert R.reserves_of(st).french_left == {"infantry": 1, "heavy weapons": 0}


@pytest.mark.rule("C 15")
def test_vietminh_replacements_from_april_1_accumulate_with_one_weapons_point_a_day():
    g = Game.new()
    st = g.state
    at_phase(g, "strategic bombing", date=dt.date(1954, 3, 31))
    assert R.reserves_of(g.state).vm_pool == 0                    # not before April 1
    g = Game.new()
    st = g.state
    vm105 = add(g, "VM105", VM, "0912", name="105mm battery", size="company", type="howitzer", ordnance="105",
                strength=4)
    vm105.losses = 2
    bn = st.unit("2nd Bn")
    bn.inverted, bn.losses = True, 3
    R.reserves_of(st).vm_pool = 2                                  # two saved from earlier days
    at_phase(g, "strategic bombing", date=dt.date(1954, 4, 2))
    assert R.reserves_of(g.state).vm_pool == 5 and g.prompt.side == "Vietminh"
    with pytest.raises(RuleViolation, match="one replacement a day"):
        g.apply(TakeReplacement("VM105", 2))
    g.apply(TakeReplacement("VM105"))
    assert R.reserves_of(g.state).vm_pool == 4                    # deducted from the pool
    assert TakeReplacement("VM105") not in g.legal_actions   # one heavy weapons point a day
    g.apply(TakeReplacement("2nd Bn", 3))
    assert g.state.unit("2nd Bn").losses == 0 and R.reserves_of(g.state).vm_pool == 1
    assert g.phase.id != "strategic bombing"
    assert R.reserves_of(g.state).vm_pool == 1                    # the rest is saved


@pytest.mark.rule("C 15")
def test_vietminh_may_save_their_points():
    g = Game.new()
    g.state.unit("2nd Bn").inverted, g.state.unit("2nd Bn").losses = True, 1
    at_phase(g, "strategic bombing", date=dt.date(1954, 4, 1))
    assert g.prompt.rule == "C 15"
    g.apply(EndPhase())
    assert R.reserves_of(g.state).vm_pool == 3


# --------------------------------------------------------------------------- C 16

@pytest.mark.rule("C 16")
def test_vietminh_reinforcements_on_full_jungle_next_to_a_map_edge_in_their_movement_phase():
    g = Game.new()
    st = g.state
    vm = add(g, "121/1", VM, None, name="121 Heavy Weapons platoon", size="platoon", type="infantry weapons",
             ordnance="75", strength=2)
    R.reserves_of(st).schedule = {st.date: ("121/1",)}
    hexes = R.vm_reinforcement_hexes(st)
    assert hexes and all(st.map.terrain(h) == "full_jungle" and any(n not in st.map for n in h.neighbors())
                         for h in hexes)
    inland = next(h for h in st.map.hexes if st.map.terrain(h) == "full_jungle" and h not in hexes)
    place = PlaceReinforcement("121/1", st.label(hexes[0]))
    assert place in g.legal_actions
    assert g.why_illegal(PlaceReinforcement("121/1", st.label(inland))).rule == "C 16"
    assert g.why_illegal(EndPhase()).rule == "C 16"          # they must be placed first
    g.apply(place)
    assert g.state.unit("121/1").hex == hexes[0]
    assert g.why_illegal(place).rule == "C 16"               # once only
    assert g.why_illegal(EndPhase()) is None


@pytest.mark.rule("C 16")
def test_french_reinforcements_next_to_a_french_unit_outside_vietminh_zocs_in_the_supply_phase():
    g = Game.new()
    st = g.state
    company(g, "1/5BPVN", None, name="1st Company, 5th Vietnamese Parachute Battalion", parent="5BPVN")
    R.reserves_of(st).schedule = {st.date: ("1/5BPVN",)}
    at_phase(g, "supply and transport")
    st = g.state
    assert g.prompt.rule == "C 16" and g.prompt.side == "French"
    options = {a.hex for a in g.legal_actions}
    zoc = {n for u in st.on_board(VM) for n in u.hex.neighbors()}
    french = {u.hex for u in st.on_board(FR)}
    assert options and all(any(st.map.hex(o).is_adjacent(f) for f in french) for o in options)
    assert not {st.map.hex(o) for o in options} & zoc
    with pytest.raises(RuleViolation):
        g.apply(EndPhase())
    g.apply(PlaceReinforcement("1/5BPVN", sorted(options)[0]))
    assert g.state.unit("1/5BPVN").on_board and g.phase.id != "supply and transport"


# --------------------------------------------------------------------------- C 17

def _tai_game():
    g = Game.new()
    st = g.state
    for uid in ("1/3BT", "2/3BT"):                # the scenario's companies sit in Anne-Marie; move them
        st.unit(uid).hex = st.map.hex("1720")
    return g


@pytest.mark.rule("C 17")
def test_tai_desertion_needs_two_complexes_in_vietminh_hands(monkeypatch):
    g = _tai_game()
    st = g.state
    assert not R.tai_desertion_active(st)                  # the demonstration map has Anne-Marie only
    R.roll_tai_desertion(st, ScriptedDice([]), Resolution())   # no roll at all
    held = {"B"}
    monkeypatch.setattr(R, "complex_held", lambda state, code, side: side is VM and code in held)
    assert not R.tai_desertion_active(st)
    held.add("G")
    assert R.tai_desertion_active(st)
    res = at_phase(g, "weather", ScriptedDice([6]))        # through the game: the weather phase rolls
    assert "T'ai desertion roll 6: no unit" in res.text()


@pytest.mark.rule("C 17")
@pytest.mark.parametrize("roll,group", [(1, "2BT"), (2, "3BT"), (3, "light"), (4, "light"), (5, None), (6, None)])
def test_the_tai_roll_selects_a_group(roll, group):
    g = _tai_game()
    st = g.state
    company(g, "5/2BT", "1721", name="5th Company, 2nd T'ai Battalion", parent="2BT")
    company(g, "248", "1821", name="248 T'ai Light Company", parent="CSM")
    company(g, "1/2REI", "1819", name="1st Company, 2nd Foreign Legion", parent="1/2REI")
    name, units = R.tai_group(st, roll)
    ids = {u.id for u in units}
    expected = {"2BT": {"5/2BT"}, "3BT": {"1/3BT", "2/3BT"}, "light": {"248"}, None: set()}[group]
    assert ids == expected


@pytest.mark.rule("C 17")
def test_each_company_rolls_against_morale_and_the_hhc_follows_a_battalion_that_has_gone(monkeypatch):
    g = _tai_game()
    st = g.state
    hhc = company(g, "HHC/3BT", "1721", name="HHC, 3rd T'ai Battalion", parent="3BT")
    monkeypatch.setattr(R, "tai_desertion_active", lambda state: True)
    res = Resolution()
    R.roll_tai_desertion(st, ScriptedDice([2, 2, 3]), res)     # 3rd battalion; morale 3: below, equal
    assert not st.unit("1/3BT").eliminated and st.unit("1/3BT").losses == 0 and not st.unit("1/3BT").inverted
    assert st.unit("2/3BT").inverted                            # equal: one strength point
    assert hhc.on_board
    R.roll_tai_desertion(st, ScriptedDice([2, 4, 3]), res)     # above morale 3 and above reduced morale 2
    assert st.unit("1/3BT").eliminated and st.unit("2/3BT").eliminated
    assert st.unit("HHC/3BT").eliminated                       # all its companies went: the HHC goes too
    assert "HHC/3BT deserts with them" in res.text()


@pytest.mark.rule("C 17")
def test_the_hhc_stays_while_any_company_stays(monkeypatch):
    g = _tai_game()
    st = g.state
    company(g, "HHC/3BT", "1721", name="HHC, 3rd T'ai Battalion", parent="3BT")
    monkeypatch.setattr(R, "tai_desertion_active", lambda state: True)
    R.roll_tai_desertion(st, ScriptedDice([2, 6, 1]), Resolution())
    assert st.unit("1/3BT").eliminated and not st.unit("2/3BT").eliminated and st.unit("HHC/3BT").on_board


@pytest.mark.rule("C 17")
def test_isabelle_exemption_while_non_tai_companies_outnumber_tai_ones(monkeypatch):
    g = _tai_game()
    st = g.state
    monkeypatch.setattr(R, "_in_isabelle", lambda state, u: u.hex == state.map.hex("1720"))
    company(g, "A", "1720", name="Legion A")
    assert not R.isabelle_exempt(st)                 # 1 non-T'ai against 2 T'ai
    company(g, "B", "1720", name="Legion B")
    assert not R.isabelle_exempt(st)                 # 2 against 2: not more
    company(g, "C", "1720", name="Legion C")
    assert R.isabelle_exempt(st)
    monkeypatch.setattr(R, "tai_desertion_active", lambda state: True)
    R.roll_tai_desertion(st, ScriptedDice([2]), Resolution())      # no company roll: both exempt
    assert st.unit("1/3BT").on_board and st.unit("2/3BT").on_board


@pytest.mark.rule("C 17")
def test_tai_units_are_recognised_by_name():
    g = Game.new()
    assert R.is_tai(g.state.unit("1/3BT")) and not R.is_tai(g.state.unit("1st Bn"))
    assert not R.is_tai(g.state.unit("105-A"))
