"""FTE 22.0 dummy units and 28.0 civilians (including interrogation)."""
from fractions import Fraction

import pytest

from wargames.core import Resolution, ScriptedDice, enumerate_outcomes
from wargames.core.errors import RuleViolation
from wargames.fte import special as SP
from wargames.fte.concealment import lose_concealment_if_seen
from wargames.fte.sites import add_site
from wargames.fte.state import FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import Site, Unit


def state(*units, sites=()):
    s = FteState(demo_map())
    place(s, [Unit(i, side, hex=s.hex(h), **kw) for i, side, h, kw in units])
    for sid, kind, side, h in sites:
        add_site(s, Site(sid, kind, side, s.hex(h)))
    return s


def dummy(i, h, **kw):
    return (i, "NVA", h, {"role": "dummy", "concealed": True, **kw})


def civ(i, h, **kw):
    return (i, "VC", h, {"role": "civilians", "concealed": True, **kw})


def us(i, h, **kw):
    return (i, "US", h, {"fire_rating": 4, "weapon": "SA", "range": 6, **kw})


def nva(i, h, **kw):
    return (i, "NVA", h, {"fire_rating": 4, "weapon": "SA", **kw})


@pytest.mark.rule("F 22.0", "F 28.0")
def test_dummies_and_civilians_may_only_move():
    from wargames.fte.activation import check_action
    s = state(dummy("d", "20.19"), civ("c", "22.22"))
    for uid, rule in (("d", "F 22.0"), ("c", "F 28.0")):
        check_action(s, uid, "move")
        with pytest.raises(RuleViolation) as e:
            check_action(s, uid, "search")
        assert e.value.rule == rule


@pytest.mark.rule("F 22.0")
def test_a_dummy_seen_on_the_move_leaves_the_game():
    s = state(dummy("d", "21.20"), us("u", "20.20"))
    res = Resolution()
    assert lose_concealment_if_seen(s, s.unit("d"), res, "F 6.1", "move")
    assert not s.unit("d").on_map and "dummy d in 21.20 is removed from the game" in res.text()
    assert s.vp == {"US": 0, "NVA/VC": 0}


@pytest.mark.rule("F 22.0", "F 6.7")
def test_a_dummy_slipping_into_jungle_stays_hidden_seven_times_in_ten():
    s = state(dummy("d", "21.20"))

    def run(dice):
        st = s.copy()
        kept = SP.stealthy_step(st, "d", "20.19", dice, Resolution())
        return kept, st.unit("d").on_map
    # TQ 4, jungle -3 (reconstructed): 7 or less keeps the marker; failing removes the dummy
    assert enumerate_outcomes(run) == {(True, True): Fraction(7, 10), (False, False): Fraction(3, 10)}
    with pytest.raises(RuleViolation, match="one hex"):
        SP.stealthy_step(s, "d", "23.23", ScriptedDice([]), Resolution())


@pytest.mark.rule("F 28.0", "F 6.2")
def test_civilians_never_share_a_hex_with_nva_or_vc_infantry():
    s = state(civ("c", "22.22"), nva("n", "21.23"), us("u", "23.23"))
    with pytest.raises(RuleViolation, match="civilians"):
        SP.check_civilians_stacking(s, s.unit("c"), s.hex("21.23"))
    with pytest.raises(RuleViolation, match="Civilians marker"):
        SP.check_civilians_stacking(s, s.unit("n"), s.hex("22.22"))
    SP.check_civilians_stacking(s, s.unit("u"), s.hex("22.22"))   # Americans may walk in
    SP.check_civilians_stacking(s, s.unit("c"), s.hex("23.23"))
    with pytest.raises(RuleViolation, match="civilians"):
        SP.stealthy_step(s, "c", "21.23", ScriptedDice([]), Resolution())


@pytest.mark.rule("F 28.0")
def test_civilians_use_stealthy_movement_too():
    s = state(civ("c", "22.22"))
    with ScriptedDice([9]) as d:                                    # fails: 9 - 1 (grass) > TQ 4
        assert not SP.stealthy_step(s, "c", "21.23", d, Resolution())
    assert s.unit("c").on_map and not s.unit("c").concealed       # civilians stay, but are now visible


def village(**kw):
    """An American unit questions civilians in 23.23; NVA/VC things are hidden around it."""
    return state(us("q", "23.23"), civ("c", "23.23"), nva("n", "22.22", concealed=True), dummy("d", "24.23"),
                 nva("far", "60.18", concealed=True), nva("seen", "21.23"),
                 sites=[("rice", "rice", "NVA", "21.23"), ("bk", "bunker", "VC", "20.24"),
                        ("fx", "foxholes", "NVA", "62.19")])


@pytest.mark.rule("F 28.0")
def test_what_a_successful_interrogation_may_reveal():
    s = village()
    assert SP.interrogation_candidates(s, s.unit("q"), s.unit("c")) == ["n", "d", "rice", "bk"]


@pytest.mark.rule("F 28.0")
def test_interrogation_success_by_default_shows_the_cheapest_two():
    s = village()
    res = Resolution()
    with ScriptedDice([4]) as d:
        shown = SP.interrogate(s, "q", "c", d, res)
    assert shown == ["d", "n"]                                      # a dummy first, then a real unit
    assert not s.unit("d").on_map and not s.unit("n").concealed
    assert not s.unit("c").on_map and s.vp["US"] == 0


@pytest.mark.rule("F 28.0", "F 9.0")
def test_interrogation_scores_revealed_caches_as_a_search():
    s = village()
    with ScriptedDice([1]) as d:
        SP.interrogate(s, "q", "c", d, Resolution(), choice=["rice", "bk"])
    assert s.sites["rice"].revealed and s.sites["bk"].revealed
    assert s.vp["US"] == 2 * s.charts.vp.value("cache_revealed", "US")


@pytest.mark.rule("F 28.0")
def test_failed_interrogation_shows_nothing_and_the_civilians_go_anyway():
    s = village()
    with ScriptedDice([5]) as d:
        assert SP.interrogate(s, "q", "c", d, Resolution()) == []
    assert not s.unit("c").on_map and s.unit("n").concealed


@pytest.mark.rule("F 28.0")
def test_interrogation_succeeds_two_times_in_five_for_a_tq_4_unit():
    s = village()

    def run(dice):
        return tuple(SP.interrogate(s.copy(), "q", "c", dice, Resolution()))
    assert enumerate_outcomes(run) == {("d", "n"): Fraction(2, 5), (): Fraction(3, 5)}


@pytest.mark.rule("F 28.0")
def test_interrogation_rules_and_choices_are_checked():
    s = village()
    with pytest.raises(RuleViolation, match="within 8"):
        SP.interrogate(s, "q", "c", ScriptedDice([]), Resolution(), choice=["n", "far"])
    with pytest.raises(RuleViolation, match="2 different"):
        SP.interrogate(s, "q", "c", ScriptedDice([]), Resolution(), choice=["n"])
    with pytest.raises(RuleViolation, match="only American"):
        SP.interrogate(s, "seen", "c", ScriptedDice([]), Resolution())
    s.unit("q").hex = s.hex("22.23")
    with pytest.raises(RuleViolation, match="in the Civilians hex"):
        SP.interrogate(s, "q", "c", ScriptedDice([]), Resolution())
    # with a single item in range, one is all the NVA/VC player has to show
    s2 = state(us("q", "62.19"), civ("c", "62.19"), nva("n", "60.18", concealed=True))
    with ScriptedDice([1]) as d:
        assert SP.interrogate(s2, "q", "c", d, Resolution(), choice=["n"]) == ["n"]
