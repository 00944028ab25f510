"""Citadel Section I, supply (C 20-24), and the optional Vietminh rules (C 34, C 35), through citadel.Game."""
import datetime as dt

import pytest

from wargames.citadel import Counter, EndFire, EndPhase, Fire, Game, Ruleset, Side, UnitClass, UnitState
from wargames.citadel import supply as S
from wargames.citadel.fire import resolve_fire, take_loss
from wargames.citadel.optional import organic_mortars
from wargames.citadel.rockets import LaunchRockets, RocketHex
from wargames.citadel.supply_play import Desert
from wargames.core import Resolution, ScriptedDice
from wargames.core.errors import RuleViolation

FR, VM = Side.FRENCH, Side.VIETMINH


def at_phase(g: Game, phase: str, dice=None, date: dt.date | None = None) -> Resolution:
    """Put the game at the start of ``phase`` (a test position) and open it as the game would."""
    st = g.state
    if date is not None:
        st.date = date
    st.phase = phase
    g.seq._movement = None
    g.play_index, g.pending, g.days_left = None, None, 2
    g.play_dice = dice if dice is not None else g.dice
    res = Resolution()
    g._open_phase(res)
    return res


def add(g: Game, uid: str, side: Side, hexlabel: str | None, **kw) -> UnitState:
    c = Counter(uid, side, kw.pop("cls", UnitClass.HEAVY_WEAPONS), kw.pop("name", uid), **kw)
    u = UnitState(c, g.state.map.hex(hexlabel) if hexlabel else None)
    g.state.units[uid] = u
    return u


# --------------------------------------------------------------------------- C 20, C 21

@pytest.mark.rule("C 20")
def test_each_side_spends_its_daily_general_supply_in_the_weather_phase():
    g = Game.new()
    res = at_phase(g, "weather")
    st = g.state
    assert st.supply.stock(FR, "GSP") == 200 - 20 and st.supply.stock(VM, "GSP") == 150 - 25
    assert "spends 20 GSP" in res.text() and not S.out_of_general_supply(st, FR)
    assert g.phase.id != "weather"                      # nobody had anything to decide: the phase passed


@pytest.mark.rule("C 21")
def test_a_short_side_spends_all_it_has_and_the_owner_chooses_the_deserters():
    g = Game.new()
    g.state.supply.stocks[FR]["GSP"] = 7
    res = at_phase(g, "weather", ScriptedDice([1]))
    st = g.state
    assert st.supply.stock(FR, "GSP") == 0                  # never voluntarily out of supply: all 7 are spent
    assert S.out_of_general_supply(st, FR) and not S.out_of_general_supply(st, VM)
    assert g.prompt.side == "French" and g.prompt.rule == "C 21" and "1 combat infantry" in g.prompt.question
    assert set(g.legal_actions) == {Desert(("1/3BT",)), Desert(("2/3BT",))}   # infantry only, the owner's
    with pytest.raises(RuleViolation, match="1 more"):
        g.apply(Desert(("1/3BT", "2/3BT")))
    with pytest.raises(RuleViolation):
        g.apply(Desert(("1st Bn",)))
    with pytest.raises(RuleViolation):
        g.apply(EndPhase())
    g.apply(Desert(("2/3BT",)))
    assert g.state.unit("2/3BT").inverted and not g.state.unit("1/3BT").inverted
    assert g.phase.id != "weather"
    assert "out of general" in res.text()


@pytest.mark.rule("C 21")
def test_french_desertion_is_one_die_at_most_one_point_a_company_the_rest_void():
    g = Game.new()
    g.state.supply.stocks[FR]["GSP"] = 0
    res = at_phase(g, "weather", ScriptedDice([5]))
    st = g.state
    assert st.unit("1/3BT").inverted and st.unit("2/3BT").inverted     # 5 points, two companies: one each
    assert "the other 3 have no effect" in res.text()
    assert g.phase.id != "weather"


@pytest.mark.rule("C 21")
def test_vietminh_desertion_is_twice_the_die_one_point_a_battalion():
    g = Game.new()
    g.state.supply.stocks[VM]["GSP"] = 24
    res = at_phase(g, "weather", ScriptedDice([1]))
    assert "roll 1 x 2 = 2" in res.text()
    assert g.prompt.side == "Vietminh" and "2 combat" in g.prompt.question
    g.apply(Desert(("1st Bn",)))
    with pytest.raises(RuleViolation):
        g.apply(Desert(("1st Bn",)))                           # at most one point a battalion
    g.apply(Desert(("3rd Bn",)))
    st = g.state
    assert [st.unit(b).losses for b in ("1st Bn", "2nd Bn", "3rd Bn", "4th Bn")] == [1, 0, 1, 0]
    assert g.phase.id != "weather"


@pytest.mark.rule("C 21")
def test_light_mortars_are_silent_on_a_day_their_side_is_short():
    g = Game.new()
    st = g.state
    m81 = add(g, "81-A", FR, "1719", name="81mm mortars", size="platoon", type="infantry weapons", ordnance="81",
              strength=2)
    st.supply.short[FR] = st.date
    assert S.silenced_mortar(st, m81)
    st.supply.short[FR] = st.date - dt.timedelta(days=1)
    assert not S.silenced_mortar(st, m81)
    st.supply.short[VM] = st.date                               # the other side's shortage does not silence it
    assert not S.silenced_mortar(st, m81)
    st.supply.short[FR] = st.date
    assert not S.silenced_mortar(st, st.unit("120-A"))          # 120mm mortars are not the light mortars


@pytest.mark.rule("C 21", "C 8")
def test_silent_light_mortars_do_not_opportunity_fire_either():
    from wargames.citadel import EndMoves, Move, OpportunityFire
    from wargames.citadel.examples import FIRST_LEGS
    g = Game.new()
    st = g.state
    add(g, "81-A", FR, "1718", name="81mm mortars", size="platoon", type="infantry weapons", ordnance="81",
        strength=4)
    for uid, leg in FIRST_LEGS.items():
        g.apply(Move((uid,), tuple(leg)))
    g.apply(EndMoves())
    assert OpportunityFire("81-A", "1st Bn") in g.legal_actions      # in range of the 1st Battalion's VP
    g.state.supply.short[FR] = g.state.date                         # but the French are short of GSP today
    assert not any(isinstance(a, OpportunityFire) and a.firer == "81-A" for a in g.legal_actions)
    why = g.why_illegal(OpportunityFire("81-A", "1st Bn"))
    assert why is not None and "general supply" in why.reason


# --------------------------------------------------------------------------- C 22

@pytest.mark.rule("C 22")
def test_golden_c_e12_a_4_sp_vietminh_105_battery_uses_four_points():
    g = Game.new()
    st = g.state
    add(g, "VM105", VM, "0910", name="105mm battery", size="company", type="howitzer", ordnance="105", strength=4)
    assert S.ammunition_kind(st.unit("VM105")) == "105"
    fired = S.firing_strengths(st, ["VM105"])
    assert fired == {"VM105": 4}
    S.consume_ammunition(st, fired, Resolution())
    assert st.supply.stock(VM, "105") == 20 - 4 and st.supply.stock(FR, "105") == 60


def _french_indirect(g: Game) -> None:
    from tests.test_citadel_game import _movement_example
    _movement_example(g)
    g.apply(EndFire())
    g.apply(EndPhase())
    assert g.phase.id == "VM turn: French indirect fire" and g.prompt.side == "French"


@pytest.mark.rule("C 22")
def test_golden_c_e13_three_of_an_8_sp_120_battery_use_three_points():
    g = Game.new()
    _french_indirect(g)
    st = g.state
    before = st.supply.stock(FR, "120")
    target = next(a.target for a in g.legal_actions if isinstance(a, Fire) and a.firers == ("120-A",))
    res = g.apply(Fire(("120-A",), target, (("120-A", 3),)), ScriptedDice([6]))
    assert g.state.supply.stock(FR, "120") == before - 3
    assert "120-A: 3 SP x" in res.text() and "3 point(s) of 120mm mortar ammunition" in res.text()
    assert str(g.history[-1].action).endswith('strengths=[["120-A",3]]')
    assert Game.parse_action(str(g.history[-1].action)) == g.history[-1].action


@pytest.mark.rule("C 22")
def test_a_unit_short_of_ammunition_fires_only_what_is_left():
    g = Game.new()
    _french_indirect(g)
    st = g.state
    st.supply.stocks[FR]["120"] = 2
    target = next(a.target for a in g.legal_actions if isinstance(a, Fire) and a.firers == ("120-A",))
    why = g.why_illegal(Fire(("120-A",), target, (("120-A", 3),)))
    assert why.rule == "C 22" and "only 2" in why.reason
    assert g.why_illegal(Fire(("120-A",), target, (("120-A", 9),))).rule == "C 22"     # more than it has
    assert g.why_illegal(Fire(("120-A",), target, (("120-A", 0),))).rule == "C 22"
    assert g.why_illegal(Fire(("120-A",), target, (("105-A", 1),))).rule == "C 22"     # not a firer
    res = g.apply(Fire(("120-A",), target), ScriptedDice([6]))        # unstated: everything it can
    assert "120-A: 2 SP" in res.text() and g.state.supply.stock(FR, "120") == 0
    st = g.state
    st.supply.stocks[FR]["120"] = 0
    other = next((a for a in g.legal_actions if isinstance(a, Fire) and a.firers == ("120-B",)), None)
    assert other is None                                               # no ammunition: no fire


@pytest.mark.rule("C 22")
def test_which_units_need_ammunition():
    g = Game.new()
    kinds = {}
    for uid, side, typ, ordn in [("f105", FR, "howitzer", "105"), ("f155", FR, "howitzer", "155"),
                                 ("f120", FR, "infantry weapons", "120"), ("f81", FR, "infantry weapons", "81"),
                                 ("f75", FR, "infantry weapons", "75"), ("v75h", VM, "howitzer", "75"),
                                 ("v105", VM, "howitzer", "105"), ("v120", VM, "infantry weapons", "120"),
                                 ("v75", VM, "infantry weapons", "75"), ("v82", VM, "infantry weapons", "82")]:
        kinds[uid] = S.ammunition_kind(add(g, uid, side, None, size="company", type=typ, ordnance=ordn, strength=4))
    assert kinds == {"f105": "105", "f155": "155", "f120": "120", "f81": None, "f75": None, "v75h": "75H",
                     "v105": "105", "v120": "120", "v75": "75RR", "v82": None}
    assert S.ammunition_kind(g.state.unit("1/3BT")) is None


@pytest.mark.rule("C 22")
def test_without_section_one_no_ammunition_is_counted():
    g = Game.new()
    g.state.supply = None
    assert S.firing_strengths(g.state, ["120-A"]) == {"120-A": 8}
    S.consume_ammunition(g.state, {"120-A": 8}, Resolution())


# --------------------------------------------------------------------------- C 23

@pytest.mark.rule("C 23")
def test_vietminh_receipts_arrive_at_the_end_of_strategic_bombing_less_bombing():
    g = Game.new()
    st = g.state
    assert S.vm_allowance(dt.date(1954, 3, 31))["GSP"] == 25 and S.vm_allowance(dt.date(1954, 4, 30))["GSP"] == 25
    assert S.vm_allowance(dt.date(1954, 5, 1)) == {"GSP": 27, "105": 10, "120": 5, "75H": 5, "75RR": 4}
    assert S.reduce_receipts(st, "105", 3) == 3
    assert S.reduce_receipts(st, "105", 9) == 7              # only 10 were coming: the excess has no effect
    assert S.reduce_receipts(st, "105", 2) == 0
    with pytest.raises(RuleViolation):
        S.reduce_receipts(st, "155", 1)
    before = dict(st.supply.stocks[VM])
    res = at_phase(g, "strategic bombing")          # the next day's weather phase follows: 25 GSP are spent
    st = g.state
    after = st.supply.stocks[VM]
    assert "receive 25 general supply points, 0 105mm ammunition (10 - 10 bombed)" in res.text()
    assert after["105"] == before["105"] and after["GSP"] == before["GSP"] + 25 - 25
    assert after["120"] == before["120"] + 5 and after["75H"] == before["75H"] + 5 and after["75RR"] == before["75RR"] + 4
    assert st.supply.bombed == {}


@pytest.mark.rule("C 23")
def test_french_deliveries_join_at_the_end_of_the_supply_phase_and_misdrops_feed_the_vietminh():
    g = Game.new()
    st = g.state
    S.deliver(st, "155", 4)
    assert st.supply.stock(FR, "155") == 0                   # not yet: at the end of the phase
    assert S.misdrop_to_vietminh(st, "GSP", 2) == 2 and st.supply.stock(VM, "GSP") == 152
    assert S.misdrop_to_vietminh(st, "120", 4) == 4 and st.supply.stock(VM, "120") == 14
    assert S.misdrop_to_vietminh(st, "155", 1) == 0           # no use to the Vietminh
    with pytest.raises(RuleViolation):
        S.deliver(st, "75RR", 1)
    at_phase(g, "supply and transport")
    assert g.state.supply.stock(FR, "155") == 4 and g.state.supply.arriving == {}


def _air_game_at(phase: str, date: str = "1954-03-17") -> Game:
    g = Game.new("anne_marie_air")
    while g.phase.id != phase or g.state.date.isoformat() != date:
        g.apply(EndPhase())
    return g


@pytest.mark.rule("C 23", "C 26")
@pytest.mark.parametrize("altitude,roll,french,vietminh", [("low", 1, 4, 0), ("medium", 6, 0, 4), ("low", 6, 0, 0)])
def test_air_drops_feed_the_stocks_of_whoever_recovers_them(altitude, roll, french, vietminh):
    from wargames.citadel.airplay import Drop
    g = _air_game_at("supply and transport")
    before = {s: g.state.supply.stock(s, "105") for s in (FR, VM)}
    g.apply(Drop(("C47-1",), "1720", altitude, "N", "ammo_105", 4))
    g.apply(EndPhase())                                     # end placement: the Vietminh antiaircraft may fire
    assert g.prompt.rule == "C 28"
    res = g.apply(EndPhase(), ScriptedDice([roll]))         # no flak; the drop roll
    st = g.state
    assert g.phase.id == "strategic bombing"                # the supply and transport phase is over
    assert st.supply.stock(FR, "105") == before[FR] + french
    assert st.supply.stock(VM, "105") == before[VM] + vietminh
    assert ("French deliveries join the stocks" in res.text()) == bool(french)


@pytest.mark.rule("C 23", "C 26")
def test_strategic_bombing_cuts_the_vietminh_receipts_of_the_day():
    from wargames.citadel import air
    from wargames.citadel.airplay import BombStack
    g = Game.new("anne_marie_air", seed=1)
    g.state.air = air.new_air_state({"B26": 4})
    while g.phase.id != "VM movement" or g.state.date.isoformat() != "1954-03-18":
        g.apply(EndPhase())
    g.state.air.weather.update(delta="clear", supply_lines="clear")     # the bombers fly and none turns back (C 27)
    while g.phase.id != "strategic bombing":
        g.apply(EndPhase())
    before = g.state.supply.stock(VM, "105")
    g.apply(BombStack(("B26-1", "B26-2", "B26-3", "B26-4"), "medium"))
    g.apply(EndPhase())                                     # the supply-line batteries may fire
    res = g.apply(EndPhase(), ScriptedDice([4, 1]))         # the C 26.D example: 3 points of 105mm ammunition
    assert "bombing destroys 3 of today's 10 105mm" in res.text()
    assert g.state.supply.stock(VM, "105") == before + 10 - 3


# --------------------------------------------------------------------------- C 24

def _in_french_indirect(g):
    g.state.phase = "VM turn: VM indirect fire"
    return g.state


@pytest.mark.rule("C 24")
@pytest.mark.parametrize("rolls,kind,lost", [([4], None, 0), ([5, 3], "120", 3), ([6, 2], "105", 2), ([1], None, 0)])
def test_a_lost_french_105_point_may_hit_a_dump(rolls, kind, lost):
    g = Game.new()
    st = _in_french_indirect(g)
    before = dict(st.supply.stocks[FR])
    res = Resolution()
    dice = ScriptedDice(rolls)
    take_loss(st, st.unit("105-A"), dice, res)
    dice.finish()
    for k in ("105", "120"):
        assert st.supply.stocks[FR][k] == before[k] - (lost if k == kind else 0)
    assert "C 24" in {s.rule for s in res.steps}


@pytest.mark.rule("C 24")
def test_one_dump_roll_a_phase_only_for_french_105s_only_in_indirect_fire():
    g = Game.new()
    st = _in_french_indirect(g)
    st.supply.stocks[FR]["105"] = 2
    take_loss(st, st.unit("105-A"), ScriptedDice([6, 5]), Resolution())
    assert st.supply.stock(FR, "105") == 0                  # cannot go below nothing
    take_loss(st, st.unit("105-B"), ScriptedDice([]), Resolution())    # no second roll this phase
    take_loss(st, st.unit("120-A"), ScriptedDice([]), Resolution())    # not a 105
    st.phase, st.fire_phase_start = "VM direct fire", st.fire_phase_start + 1
    take_loss(st, st.unit("105-C"), ScriptedDice([]), Resolution())    # direct fire: no dump roll


# --------------------------------------------------------------------------- C 34, C 35 (optional)

@pytest.mark.rule("C 34")
def test_battalion_mortars_only_with_the_reading_in_indirect_fire():
    g = Game.new(ruleset=Ruleset.default(battalion_mortars=True))
    st = g.state
    bn = st.unit("1st Bn")
    assert organic_mortars(st, bn) is None                    # a movement phase
    st.phase = "VM turn: VM indirect fire"
    assert organic_mortars(st, bn) == 4
    bn.inverted = True
    assert organic_mortars(st, bn) == 2
    assert organic_mortars(st, st.unit("1/3BT")) is None      # French companies have none
    plain = Game.new()
    plain.state.phase = "VM turn: VM indirect fire"
    assert organic_mortars(plain.state, plain.state.unit("1st Bn")) is None


@pytest.mark.rule("C 34")
def test_battalion_mortars_fire_in_the_vietminh_indirect_step_unless_they_entered_a_french_zoc():
    from tests.test_citadel_game import _movement_example
    g = Game.new(ruleset=Ruleset.default(battalion_mortars=True))
    _movement_example(g)
    g.apply(EndFire())
    g.apply(EndPhase())
    assert g.phase.id == "VM turn: VM indirect fire" and g.prompt.side == "Vietminh"
    fires = [a for a in g.legal_actions if isinstance(a, Fire)]
    assert fires and all(len(a.firers) >= 1 for a in fires)
    why = g.why_illegal(Fire(("1st Bn",), "1414"))
    assert why is not None and why.rule == "C 34"            # 1st Bn moved into the French ZOC at 1413
    ok = next(a for a in fires if a.firers == ("4th Bn",))
    res = g.apply(ok, ScriptedDice([6]))
    assert "4th Bn: 4 SP" in res.text() and "mortar_82" not in res.text()
    assert g.state.supply.stock(VM, "105") == 20                      # the battalion's mortars use no ammunition


@pytest.mark.rule("C 34", "C 21")
def test_the_gsp_penalty_silences_battalion_mortars():
    from wargames.citadel.optional import mortar_problems
    g = Game.new(ruleset=Ruleset.default(battalion_mortars=True))
    st = g.state
    assert mortar_problems(st, st.unit("2nd Bn"), None) == []
    st.supply.short[VM] = st.date
    assert [r for r, _ in mortar_problems(st, st.unit("2nd Bn"), None)] == ["C 21"]


@pytest.mark.rule("C 35")
def test_rockets_from_may_6_once_a_day_forty_factors_on_a_hex_and_its_neighbours():
    from wargames.citadel.optional import rockets_available
    g = Game.new(ruleset=Ruleset.default(rockets=True))
    st = g.state
    assert "May 6" in rockets_available(st)
    st.date = dt.date(1954, 5, 6)
    assert rockets_available(st) is None
    assert "not in use" in rockets_available(Game.new().state)
    # put the French companies side by side and go to the Vietminh indirect fire step
    st.unit("2/3BT").hex = st.map.hex("1416")
    at_phase(g, "VM turn: VM indirect fire")
    assert g.prompt.side == "Vietminh"
    launch = LaunchRockets("1316")
    assert launch in g.legal_actions
    res = g.apply(launch, ScriptedDice([6]))
    assert "40 rocket factors" in res.text() and "total 40" in res.text()
    assert g.prompt.rule == "C 35" and set(g.legal_actions) == {RocketHex("1416")}
    with pytest.raises(RuleViolation):
        g.apply(EndPhase())
    g.apply(RocketHex("1416"), ScriptedDice([6]))
    assert "once a day" in g.why_illegal(LaunchRockets("1316")).reason or \
        g.why_illegal(LaunchRockets("1316")).rule == "C 35"
    assert g.state.rockets["left"] == []
