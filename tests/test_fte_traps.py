"""FTE 26.0: booby traps and claymore mines."""
from fractions import Fraction

import pytest

from wargames.core import Resolution, ScriptedDice, enumerate_outcomes
from wargames.core.errors import RuleViolation
from wargames.fte import traps as T
from wargames.fte.sites import add_site
from wargames.fte.state import FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import Site, Unit


def state(*units):
    s = FteState(demo_map())
    place(s, [Unit(i, side, hex=s.hex(h), **kw) for i, side, h, kw in units])
    return s


def nva(i, h, **kw):
    return (i, "NVA", h, {"fire_rating": 4, "weapon": "SA", **kw})


def us(i, h, **kw):
    return (i, "US", h, {"fire_rating": 4, "weapon": "SA", "range": 6, **kw})


@pytest.mark.rule("F 26.0")
def test_booby_traps_go_on_trails_or_caches_one_per_hex():
    s = state()
    add_site(s, Site("c", "rice", "NVA", s.hex("22.22")))
    res = Resolution()
    T.plot_booby_trap(s, "21.20", res)                          # a trail hex
    T.plot_booby_trap(s, "22.22", res)                          # a cache hex
    assert s.booby_traps == {s.hex("21.20"): "NVA/VC", s.hex("22.22"): "NVA/VC"}
    with pytest.raises(RuleViolation, match="one per hex"):
        T.plot_booby_trap(s, "21.20", res)
    with pytest.raises(RuleViolation, match="neither a trail nor a cache"):
        T.plot_booby_trap(s, "22.19", res)
    with pytest.raises(RuleViolation, match="claymores"):
        T.plot_booby_trap(s, "19.19", res, who="US")


def _enter(s, ids, h):
    def run(dice):
        st = s.copy()
        for i in ids:
            st.unit(i).hex = st.hex(h)
        return T.trigger_booby_trap(st, h, ids, dice, Resolution()), st.vp["NVA/VC"], st.hex(h) in st.booby_traps
    return run


@pytest.mark.rule("F 26.0")
def test_the_first_enemy_unit_in_fails_its_check_three_times_in_five():
    s = state(us("u", "21.21"))
    s.booby_traps[s.hex("21.20")] = "NVA/VC"
    wia = s.charts.vp.value("enemy_wia", "NVA/VC")
    dist = enumerate_outcomes(_enter(s, ["u"], "21.20"))
    assert dist == {("WIA", wia, False): Fraction(3, 5), ("none", 0, False): Fraction(2, 5)}


@pytest.mark.rule("F 26.0")
def test_a_stack_entering_picks_its_victim_at_random():
    s = state(us("a", "21.21"), us("b", "21.21"))
    s.booby_traps[s.hex("21.20")] = "NVA/VC"

    def run(dice):
        st = s.copy()
        for i in "ab":
            st.unit(i).hex = st.hex("21.20")
        T.trigger_booby_trap(st, "21.20", ["a", "b"], dice, Resolution())
        return tuple(sorted(i for i in "ab" if st.unit(i).reduced))
    dist = enumerate_outcomes(run)
    assert dist == {("a",): Fraction(3, 10), ("b",): Fraction(3, 10), (): Fraction(2, 5)}


@pytest.mark.rule("F 26.0")
def test_friends_and_helicopters_do_not_set_off_a_trap_and_a_used_trap_is_gone():
    s = state(nva("n", "21.20"), ("heli", "US", "21.20", {"kind": "helicopter", "role": "slick",
                                                          "altitude": "treetop"}), us("u", "21.20"))
    h = s.hex("21.20")
    s.booby_traps[h] = "NVA/VC"
    with ScriptedDice([]) as d:
        assert T.trigger_booby_trap(s, h, ["n", "heli"], d, Resolution()) is None
    assert h in s.booby_traps
    with ScriptedDice([2]) as d:                                # passes its TQ 4 check
        assert T.trigger_booby_trap(s, h, ["u"], d, Resolution()) == "none"
    assert h not in s.booby_traps
    with ScriptedDice([]) as d:
        assert T.trigger_booby_trap(s, h, ["u"], d, Resolution()) is None


@pytest.mark.rule("F 26.0", "F Marker DRMs")
def test_the_booby_trap_check_counts_status_markers():
    s = state(us("u", "21.20", exhausted=True))
    s.booby_traps[s.hex("21.20")] = "NVA/VC"
    res = Resolution()
    with ScriptedDice([4]) as d:                                # 4 + 1 exhausted = 5 > TQ 4: wounded
        assert T.trigger_booby_trap(s, "21.20", ["u"], d, res) == "WIA"
    assert "exhausted" in res.text() and s.unit("u").reduced


@pytest.mark.rule("F 26.0")
def test_claymores_are_plotted_in_or_next_to_american_infantry():
    s = state(us("u", "20.20"), ("apc", "US", "23.23", {"kind": "vehicle", "role": "apc"}))
    res = Resolution()
    T.plot_claymore(s, "20.20", res)
    T.plot_claymore(s, "20.19", res)
    with pytest.raises(RuleViolation, match="one per hex"):
        T.plot_claymore(s, "20.19", res)
    with pytest.raises(RuleViolation, match="no American infantry"):
        T.plot_claymore(s, "22.22", res)                        # only a vehicle is next to it


def _claymore_hit(s, h, **kw):
    def run(dice):
        st = s.copy()
        out = T.detonate_claymore(st, h, dice, Resolution(), **kw)
        return tuple(sorted((k, o.hit) for k, o in out.items()))
    return run


@pytest.mark.rule("F 26.0", "F 7.1")
@pytest.mark.parametrize("target_hex, claymore_hex, us_hex, chance", [
    ("20.19", "20.19", "20.20", Fraction(2, 5)),   # jungle: HE ignores its +2; concealment ignored too
    ("22.22", "22.22", "23.23", Fraction(3, 10)),  # grass +1
    ("24.23", "24.23", "23.23", Fraction(1, 5)),   # hamlet +2
])
def test_a_claymore_is_a_four_strength_he_attack_with_terrain(target_hex, claymore_hex, us_hex, chance):
    s = state(nva("n", target_hex, concealed=True), us("u", us_hex))
    s.claymores.add(s.hex(claymore_hex))
    dist = enumerate_outcomes(_claymore_hit(s, claymore_hex))
    assert dist[(("n", True),)] == chance


@pytest.mark.rule("F 26.0")
def test_the_claymore_hits_every_enemy_in_the_hex_and_those_assaulting_it():
    s = state(nva("a", "20.19"), nva("b", "20.19"), us("u", "20.20"), nva("c", "22.19"))
    s.claymores.add(s.hex("20.20"))
    res = Resolution()
    with ScriptedDice([9, 9]) as d:                              # two misses
        out = T.detonate_claymore(s, "20.20", d, res, assaulting=["a", "b"])
    assert sorted(out) == ["a", "b"] and s.hex("20.20") not in s.claymores
    s.claymores.add(s.hex("20.19"))
    with ScriptedDice([9, 9]) as d:
        assert sorted(T.detonate_claymore(s, "20.19", d, Resolution())) == ["a", "b"]
    s.claymores.add(s.hex("20.20"))
    with pytest.raises(RuleViolation, match="assaulting"):
        T.detonate_claymore(s, "20.20", ScriptedDice([]), Resolution(), assaulting=["c"])


@pytest.mark.rule("F 26.0")
def test_only_unbroken_american_infantry_fires_a_claymore_and_it_is_lost_when_they_leave():
    s = state(us("u", "20.20", broken=True), nva("n", "20.19"))
    s.claymores.add(s.hex("20.19"))
    with pytest.raises(RuleViolation, match="unbroken"):
        T.detonate_claymore(s, "20.19", ScriptedDice([]), Resolution())
    place(s, [Unit("v", "US", hex=s.hex("19.20"))])             # another unit, next to the plotted hex
    with ScriptedDice([9]) as d:
        T.detonate_claymore(s, "20.19", d, Resolution())
    s.claymores.add(s.hex("20.19"))
    for i in ("u", "v"):
        s.unit(i).hex = s.hex("23.26")
    res = Resolution()
    assert T.sweep_claymores(s, res) == [s.hex("20.19")] and not s.claymores
    s.claymores.add(s.hex("20.19"))
    with pytest.raises(RuleViolation, match="lost"):
        T.detonate_claymore(s, "20.19", ScriptedDice([]), Resolution())
    assert not s.claymores
