"""FTE 18.0-18.2: the concealment phase, the concealed defence DRM, and losing concealment."""
from fractions import Fraction

import pytest

from wargames.core import Resolution, ScriptedDice, enumerate_outcomes
from wargames.core.errors import DataError, RuleViolation
from wargames.fte import concealment as C
from wargames.fte.state import FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import Unit


def state(*units):
    s = FteState(demo_map())
    place(s, [Unit(i, side, hex=s.hex(h), **kw) for i, side, h, kw in units])
    return s


def us(i, h, **kw):
    return (i, "US", h, {"fire_rating": 4, "weapon": "SA", "range": 6, **kw})


def nva(i, h, **kw):
    return (i, "NVA", h, {"fire_rating": 4, "weapon": "SA", **kw})


def concealed_after_phase(s, **kw):
    def run(dice):
        st = s.copy()
        C.concealment_phase(st, dice, **kw)
        return frozenset(u.id for u in st.units.values() if u.concealed)
    return run


@pytest.mark.rule("F 18.0", "F 18.2")
def test_a_unit_no_visible_enemy_sees_hides_without_a_roll():
    s = state(nva("n", "17.26"), us("u", "62.19"))          # far apart, on separate excerpts of the map
    with ScriptedDice([]) as d:
        res = C.concealment_phase(s, d)
    assert res.result == {"u": "ineligible", "n": "automatic"}  # 62.19 is clear terrain
    assert s.unit("n").concealed and not s.unit("u").concealed


@pytest.mark.rule("F 18.2")
def test_jungle_unit_seen_by_two_enemies_regains_concealment_half_the_time():
    # TQ 4, jungle -3 (reconstructed), +1 for each of the two watchers: a roll of 5 or less passes.
    s = state(nva("n", "20.19"), us("a", "20.20"), us("b", "19.20"))
    assert [e.id for e in C.watchers(s, s.unit("n"))] == ["a", "b"]
    dist = enumerate_outcomes(concealed_after_phase(s))
    assert dist[frozenset({"n"})] == Fraction(1, 2)
    assert dist[frozenset()] == Fraction(1, 2)


@pytest.mark.rule("F 18.2", "F TEC")
@pytest.mark.parametrize("hex_, watchers, tq, chance", [
    ("22.22", ["23.23"], 4, Fraction(2, 5)),                    # grass -1, one watcher: 4 or less
    ("24.23", ["23.23", "24.22", "25.24"], 4, Fraction(3, 10)),  # hamlet -2, three watchers: 3 or less
    ("19.21", ["19.20", "20.20"], 4, Fraction(1, 5)),           # rice paddy 0, two watchers: 2 or less
    ("20.19", ["20.20"], 9, Fraction(9, 10)),                   # jungle -3 +1: 11 or less, but a 10 always fails
])
def test_concealment_odds_by_terrain_and_watchers(hex_, watchers, tq, chance):
    s = state(nva("n", hex_, tq=tq), *[us(f"u{i}", h) for i, h in enumerate(watchers)])
    assert len(C.watchers(s, s.unit("n"))) == len(watchers)
    terrain = s.map.terrain(s.hex(hex_))
    need = tq - s.charts.tec.value(terrain, "concealment") - len(watchers)
    expected = Fraction(max(1, min(9, need)), 10)
    assert expected == chance
    dist = enumerate_outcomes(concealed_after_phase(s))
    assert dist[frozenset({"n"})] == expected


@pytest.mark.rule("F 18.2", "F 1.2")
def test_a_natural_one_always_hides_and_a_natural_ten_never_does():
    # TQ 4 in rice paddy (0) seen by five units: only a natural 1 passes.
    s = state(nva("n", "19.21"), *[us(f"u{i}", h) for i, h in
                                   enumerate(["19.20", "20.20", "18.20", "18.21", "19.22"])])
    assert len(C.watchers(s, s.unit("n"))) == 5
    # the US units in cover stay visible by choice, so all five still watch when the NVA unit checks
    dist = enumerate_outcomes(concealed_after_phase(s, decline=[f"u{i}" for i in range(5)]))
    assert dist[frozenset({"n"})] == Fraction(1, 10)
    s2 = state(nva("n", "20.19", tq=9), us("a", "20.20"))
    with ScriptedDice([10]) as d:
        assert C.concealment_phase(s2, d).result["n"] == "failed"


@pytest.mark.rule("F 18.0", "F 18.2")
def test_the_us_player_checks_first():
    # A US unit in jungle next to a visible NVA unit in jungle: each sees the other. The US rolls first; if it
    # hides, the NVA unit has no visible watcher left and hides without a roll.
    s = state(us("u", "21.19"), nva("n", "20.19"))
    a = s.copy()
    with ScriptedDice([1]) as d:
        res = C.concealment_phase(a, d)
    assert res.result == {"u": "passed", "n": "automatic"}
    b = s.copy()
    with ScriptedDice([10, 1]) as d:
        res = C.concealment_phase(b, d)
    assert res.result == {"u": "failed", "n": "passed"}
    assert [st.text for st in res.find("F 18.0")] == ["US checks for concealment", "NVA/VC checks for concealment"]


@pytest.mark.rule("F 18.2", "F Marker DRMs")
def test_broken_and_suppressed_units_may_check_with_their_markers():
    s = state(nva("n", "20.19", broken=True), us("a", "20.20"))
    with ScriptedDice([3]) as d:
        res = C.concealment_phase(s, d)
    step = [st for st in res.steps if st.inputs.get("roll") == 3][0]
    assert "broken" in step.arithmetic
    broken_tq = s.charts.markers.value("broken", "tq")
    assert step.inputs["drm"] == broken_tq - 3 + 1
    assert res.result["n"] == ("passed" if 3 + broken_tq - 3 + 1 <= 4 else "failed")


@pytest.mark.rule("F 18.2")
def test_vehicles_helicopters_loaded_units_and_clear_terrain_never_hide():
    s = state(("apc", "US", "22.22", {"kind": "vehicle", "role": "apc"}),
              ("slick", "US", "20.19", {"kind": "helicopter", "role": "slick", "altitude": "treetop"}),
              ("rider", "US", "22.22", {"loaded_in": "apc"}),
              us("open", "20.20"))
    with ScriptedDice([]) as d:
        res = C.concealment_phase(s, d)
    assert res.result == {"apc": "ineligible", "slick": "ineligible", "open": "ineligible"}
    assert "loaded" in C.cannot_conceal(s, s.unit("rider"))
    assert not any(u.concealed for u in s.units.values())


@pytest.mark.rule("F 18.0")
def test_gaining_concealment_is_optional():
    s = state(nva("n", "17.26"), nva("m", "20.19"), us("a", "20.20"))
    with ScriptedDice([]) as d:
        res = C.concealment_phase(s, d, decline=["n", "m"])
    assert res.result == {"a": "ineligible", "n": "declined", "m": "declined"}
    with pytest.raises(DataError):
        C.concealment_phase(s, ScriptedDice([]), decline=["nobody"])


@pytest.mark.rule("F 28.0", "F 18.1", "F 18.2")
def test_civilians_never_cost_concealment_and_never_hide_again():
    s = state(("civ", "VC", "20.19", {"role": "civilians"}), us("u", "21.19"))
    with ScriptedDice([]) as d:
        res = C.concealment_phase(s, d)
    assert res.result == {"u": "automatic", "civ": "ineligible"}      # the visible civilians do not watch
    assert "Civilians" in C.cannot_conceal(s, s.unit("civ"))
    s.unit("u").concealed = True
    s.unit("u").hex = s.hex("20.20")                                  # moves next to the civilians
    assert not C.lose_concealment_if_seen(s, s.unit("u"), Resolution(), "F 6.1", "move")


@pytest.mark.rule("F 18.1")
def test_concealed_target_drm_is_plus_two_but_not_against_he():
    s = state(nva("n", "20.19", concealed=True), nva("v", "21.19"))
    d = C.concealment_drm(s, s.unit("n"))
    assert (d.value, d.rule) == (2, "F 18.1")
    assert C.concealment_drm(s, s.unit("n"), he=True) is None
    assert C.concealment_drm(s, s.unit("v")) is None


@pytest.mark.rule("F 18.1", "F 6.1")
@pytest.mark.parametrize("action, lost", [("fire", True), ("move", True), ("assault", True), ("search", True),
                                          ("destroy_cache", True), ("load", True), ("opportunity_fire", True),
                                          ("recover", False), ("unload", False)])
def test_revealing_actions_in_sight_of_a_visible_enemy(action, lost):
    s = state(nva("n", "20.19", concealed=True), us("a", "20.20"))
    res = Resolution()
    assert C.lose_concealment_if_seen(s, s.unit("n"), res, "F 18.1", action) is lost
    assert s.unit("n").concealed is not lost


@pytest.mark.rule("F 18.1")
def test_no_loss_out_of_sight_or_when_only_concealed_enemies_see():
    s = state(nva("n", "20.19", concealed=True), us("a", "20.20", concealed=True), us("far", "62.19"))
    assert not C.lose_concealment_if_seen(s, s.unit("n"), Resolution(), "F 18.1", "fire")
    assert s.unit("n").concealed
    with pytest.raises(DataError):
        C.lose_concealment_if_seen(s, s.unit("n"), Resolution(), "F 18.1", "dance")


@pytest.mark.rule("F 18.1")
def test_snipers_keep_concealment_when_they_shoot_but_not_when_they_move():
    s = state(nva("sn", "20.19", role="sniper", concealed=True), us("a", "20.20"))
    for action in ("fire", "opportunity_fire"):
        assert not C.lose_concealment_if_seen(s, s.unit("sn"), Resolution(), "F 18.1", action)
    assert C.lose_concealment_if_seen(s, s.unit("sn"), Resolution(), "F 6.1", "move")


@pytest.mark.rule("F 18.1")
def test_owner_may_reveal_a_unit_at_any_time():
    s = state(nva("n", "17.26", concealed=True))
    res = Resolution()
    C.reveal(s, "n", res)
    assert not s.unit("n").concealed and "removed by its owner" in res.text()
    with pytest.raises(RuleViolation):
        C.reveal(s, "n", res)


@pytest.mark.rule("F 18.1", "F 7.4")
def test_a_broken_result_takes_the_concealed_marker_off():
    from wargames.fte.fire import apply_effect
    s = state(nva("n", "20.19", concealed=True), us("a", "20.20"))
    res = Resolution()
    apply_effect(s, "n", "B", ScriptedDice([]), res, away_from=s.hex("20.20"), by="US")
    assert s.unit("n").broken and not s.unit("n").concealed


@pytest.mark.rule("F 18.1", "F 22.0")
def test_a_dummy_that_loses_its_marker_leaves_the_game():
    s = state(("d", "NVA", "20.19", {"role": "dummy", "concealed": True}), us("a", "20.20"))
    res = Resolution()
    assert C.lose_concealment_if_seen(s, s.unit("d"), res, "F 6.1", "move")
    assert s.unit("d").hex is None and not s.unit("d").on_map
    assert "F 22.0" in res.rules()


@pytest.mark.rule("F 18.2")
def test_reinforcements_enter_concealed_unless_loaded():
    s = state()
    place(s, [Unit("r", "US", hex=s.hex("23.26")), Unit("p", "US", hex=s.hex("23.26"), loaded_in="apc"),
              Unit("apc", "US", kind="vehicle", role="apc", hex=s.hex("23.26"))])
    res = Resolution()
    assert C.conceal_reinforcement(s, s.unit("r"), res)
    assert not C.conceal_reinforcement(s, s.unit("p"), res)
    assert not C.conceal_reinforcement(s, s.unit("apc"), res)
    s.unit("r").loaded_in = "apc"
    C.strip_on_load(s, s.unit("r"), res)
    assert not s.unit("r").concealed


@pytest.mark.rule("F 18.1")
def test_the_enemy_sees_only_a_concealed_marker():
    s = state(("v", "VC", "20.19", {"concealed": True, "role": "leader"}))
    assert C.public_view(s, s.unit("v"), "US") == {"marker": "Concealed", "side": "VC", "hex": "20.19"}
    assert C.public_view(s, s.unit("v"), "NVA/VC")["role"] == "leader"
