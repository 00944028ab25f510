"""Each fire DRM, each exception and each eligibility test of FTE fire and opportunity fire, one at a time.

These tests pin down what `make mutate` (tools/mutate.py) changes: a modifier deleted, its sign inverted, its
condition negated or narrowed, a limit moved by one. Each builds a small position on the demonstration map and
reads the modifiers, the number needed or the eligible firers straight from the engine.
"""
import pytest

from wargames import fte
from wargames.core import Resolution, ScriptedDice, enumerate_outcomes
from wargames.fte.checks import Drm, marker_drms, roll_against, total, tq_check
from wargames.fte.errata import ERRATA, ORIGINAL
from wargames.fte.fire import FireOutcome, fire_distance, to_hit_drms
from wargames.fte.opfire import eligible_opfirers, ended_activation
from wargames.fte.sites import add_site, enter_fort
from wargames.fte.state import FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import CasualtyMarker, Site, Unit

from .test_fte_protocol import frago, ft


def state(*units, readings=ERRATA):
    """The demonstration map with these units: (id, side, hex label, fields)."""
    s = FteState(demo_map(), readings=readings)
    return place(s, [Unit(uid, side, hex=s.hex(h), **kw) for uid, side, h, kw in units])


def team(uid, side, h, **kw):
    """A four-man small-arms fire team (rating 4, TQ 4); American teams have a range of 4."""
    return (uid, side, h, {"fire_rating": 4, "weapon": "SA", "tq": 4, "men": 4,
                           **({"range": 4} if side == "US" else {}), **kw})


def mods(s, target, firer=None, support=(), **kw):
    """The (value, rule) of every DRM of an attack, sorted."""
    f = s.unit(firer) if firer else None
    return sorted((d.value, d.rule) for d in to_hit_drms(s, s.unit(target), f,
                                                          support=[s.unit(u) for u in support], **kw))


def need(s, target, firer, support=(), **kw):
    drms = to_hit_drms(s, s.unit(target), s.unit(firer), support=[s.unit(u) for u in support], **kw)
    return FireOutcome(target, (firer, *support), tuple(drms), s.unit(firer).fire_rating).need


# --------------------------------------------------------------------------- the number needed (F 7.1)

@pytest.mark.rule("F 7.1", "F 1.2")
def test_the_number_needed_stays_between_one_and_nine():
    """A natural 1 always hits and a natural 10 always misses, so the printed need is never below 1 or above 9."""
    out = lambda *values: FireOutcome("T", ("A",), tuple(Drm(v, "F 7.1", "x") for v in values), 4).need
    assert out(3) == 1 and out(5) == 1            # 4 - 3 = 1; 4 - 5 = -1 still hits on a 1
    assert out(-5) == 9 and out(-7) == 9           # 4 + 5 = 9; 4 + 7 = 11 still misses on a 10
    assert out(2, -1) == 3 and out() == 4


@pytest.mark.rule("F 1.2")
def test_rolls_against_a_rating_and_the_naturals():
    plus = [Drm(2, "F 7.1", "x")]
    assert roll_against(4, 2, plus) and not roll_against(4, 3, plus)     # 2 + 2 = 4 hits, 3 + 2 = 5 misses
    assert not roll_against(4, 2, [Drm(3, "F 7.1", "x")])                 # only a 1 is a sure hit
    assert roll_against(4, 9, [Drm(-6, "F 7.1", "x")])                    # only a 10 is a sure miss
    assert roll_against(4, 1, [Drm(5, "F 7.1", "x")])                     # a natural 1
    assert not roll_against(4, 10, [Drm(-8, "F 7.1", "x")])               # a natural 10
    assert not roll_against(4, 1, [Drm(5, "F 7.1", "x")], naturals=False)
    assert roll_against(4, 10, [Drm(-8, "F 7.1", "x")], naturals=False)
    assert not roll_against(4, 5, [])
    assert total([Drm(2, "a", "x"), Drm(-3, "b", "y")]) == -1


# --------------------------------------------------------------------------- range (F 6.8)

@pytest.mark.rule("F 6.8", "F 7.1")
def test_range_to_or_from_a_high_helicopter_is_doubled_both_ways():
    s = state(team("FT", "NVA", "23.22"),
              ("Cobra", "US", "23.24", {"kind": "helicopter", "role": "cobra", "fire_rating": 5, "weapon": "DP",
                                        "range": 3, "men": 2, "altitude": "high"}))
    ft, cobra = s.unit("FT"), s.unit("Cobra")
    assert fire_distance(s, ft, cobra) == 4 and fire_distance(s, cobra, ft) == 4      # 2 hexes, doubled
    assert mods(s, "FT", "Cobra") == [(1, "F 7.1")]                                   # 4 > its range of 3
    cobra.altitude = "treetop"
    assert fire_distance(s, ft, cobra) == 2 and fire_distance(s, cobra, ft) == 2
    assert mods(s, "FT", "Cobra") == []
    cobra.altitude, cobra.destroyed = "high", True                 # a wreck is no longer flying
    assert fire_distance(s, ft, cobra) == 2


@pytest.mark.rule("F 6.8", "F 7.1")
def test_adjacency_counts_hexes_even_when_the_range_is_doubled():
    s = state(team("FT", "NVA", "23.22"),
              ("Cobra", "US", "23.23", {"kind": "helicopter", "role": "cobra", "fire_rating": 5, "weapon": "DP",
                                        "range": 3, "men": 2, "altitude": "high"}))
    assert fire_distance(s, s.unit("Cobra"), s.unit("FT")) == 2
    assert mods(s, "FT", "Cobra") == [(-1, "F 7.1")]                   # adjacent: -1


# --------------------------------------------------------------------------- the target's DRMs

@pytest.mark.rule("F 7.1", "F TEC")
def test_terrain_modifiers_and_the_he_jungle_exception():
    s = state(team("US", "US", "20.20"), ("Mortar", "US", "20.22", {"role": "mortar", "fire_rating": 4,
                                                                    "weapon": "HE", "range": 12, "men": 3}),
              team("J", "NVA", "20.19"), team("P", "NVA", "19.21"))
    assert mods(s, "J", "US") == [(-1, "F 7.1"), (2, "F 7.1")]         # jungle +2, adjacent -1
    assert mods(s, "J", "Mortar") == []                                  # HE: no jungle
    s.unit("Mortar").hex = s.hex("20.20")
    assert mods(s, "J", "Mortar") == []                                  # and no -1 for an adjacent HE firer
    assert mods(s, "P", "Mortar") == [(1, "F 7.1")]                      # HE still pays for a rice paddy
    assert mods(s, "J", "US", terrain=False) == [(-1, "F 7.1")]          # assaulting units' first round


@pytest.mark.rule("F 7.1", "F 6.8", "F TEC")
def test_helicopters_get_terrain_modifiers_only_at_ground_level():
    s = state(team("FT", "NVA", "20.20"),
              ("Slick", "US", "19.21", {"kind": "helicopter", "role": "slick", "men": 2, "altitude": "ground"}))
    assert mods(s, "Slick", "FT") == [(-1, "F 7.1"), (1, "F 7.1")]       # rice paddy +1, adjacent -1
    for alt in ("treetop", "high"):
        s.unit("Slick").altitude = alt
        assert (1, "F 7.1") not in mods(s, "Slick", "FT")


@pytest.mark.rule("F TEC", "F 21.0")
def test_the_trail_modifier_is_for_opportunity_fire_at_a_unit_using_the_trail():
    s = state(team("FT", "NVA", "20.20"), team("M", "US", "19.19"))     # 19.19: grass on the trail
    base = [(1, "F 7.1")]                                                # grass +1
    assert mods(s, "M", "FT", opportunity=True) == base                  # only standing on it: no -1
    assert mods(s, "M", "FT", opportunity=True, way="trail") == sorted(base + [(-1, "F TEC")])
    assert mods(s, "M", "FT", opportunity=True, way="road") == sorted(base + [(-1, "F TEC")])
    assert mods(s, "M", "FT", way="trail") == base                       # an ordinary Fire action
    assert mods(s, "M", "FT", opportunity=True, way="trail", terrain=False) == []


@pytest.mark.rule("F 7.1", "F 18.1")
def test_defensive_modifier_and_concealment():
    s = state(team("FT", "NVA", "23.22"),
              ("APC", "US", "23.24", {"kind": "vehicle", "role": "apc", "fire_rating": 4, "weapon": "DP",
                                      "defense": 2, "men": 2, "range": 6}),
              team("C", "US", "22.23", concealed=True))
    assert mods(s, "APC", "FT") == [(2, "F 7.1")]                         # clear hex, two away
    assert mods(s, "C", "FT") == [(2, "F 18.1")]                          # concealed
    assert mods(s, "C", "FT", he=True) == []                             # HE ignores concealment


@pytest.mark.rule("F 24.0", "F 25.0")
def test_bunker_and_foxholes_modifiers():
    s = state(team("FT", "US", "22.23"), team("B", "NVA", "22.22"), team("F", "NVA", "21.23"))
    add_site(s, Site("bk", "bunker", "NVA", s.hex("22.22"), revealed=True))
    add_site(s, Site("fx", "foxholes", "NVA", s.hex("21.23"), revealed=True))
    enter_fort(s, "B", "bunker", Resolution())
    enter_fort(s, "F", "foxholes", Resolution())
    assert mods(s, "B", "FT") == sorted([(1, "F 7.1"), (-1, "F 7.1"), (2, "F 24.0")])    # grass, adjacent
    assert mods(s, "F", "FT") == sorted([(1, "F 7.1"), (-1, "F 7.1"), (1, "F 25.0")])


@pytest.mark.rule("F 27.0")
def test_fire_at_a_sapper_has_minus_one():
    s = state(team("FT", "US", "23.22"), ("Sap", "NVA", "23.24", {"role": "sapper", "fire_rating": 5,
                                                                 "weapon": "HE", "men": 1}))
    assert mods(s, "Sap", "FT") == [(-1, "F 27.0")]
    assert need(s, "Sap", "FT") == 5


@pytest.mark.rule("F 6.2", "F 7.1", "F Errata")
def test_each_unit_beyond_four_in_the_target_hex():
    crowd = [("N%d" % i, "NVA", "23.24", {}) for i in range(3)]
    s = state(team("FT", "US", "23.22"), team("T", "NVA", "23.24"), *crowd)
    assert mods(s, "T", "FT") == []                                      # four units: nothing
    place(s, [Unit("N3", "NVA", hex=s.hex("23.24"))])
    assert mods(s, "T", "FT") == [(-1, "F 7.1")]                         # five: -1
    place(s, [Unit("Slick", "NVA", kind="helicopter", role="slick", men=2, altitude="ground", hex=s.hex("23.24"))])
    assert mods(s, "T", "FT") == [(-2, "F 7.1")]                         # six, a landed helicopter counts
    s.unit("Slick").destroyed = True
    assert mods(s, "T", "FT") == [(-1, "F 7.1")]                         # a wreck is a marker, not a unit
    s.readings = ORIGINAL
    assert mods(s, "T", "FT") == [(1, "F 6.2")]                          # the rule as first printed: +1


@pytest.mark.rule("F 6.7", "F 21.0")
def test_stealthy_movers_are_harder_to_hit_by_opportunity_fire_only():
    s = state(team("FT", "US", "23.22"), team("T", "NVA", "23.24"))
    assert mods(s, "T", "FT", opportunity=True, stealthy=True) == [(1, "F 6.7")]
    assert mods(s, "T", "FT", stealthy=True) == []
    assert mods(s, "T", "FT", opportunity=True) == []


# --------------------------------------------------------------------------- the firers' DRMs

@pytest.mark.rule("F 7.1", "F 1.2", "F 6.6")
def test_only_the_primary_firers_markers_count():
    s = state(team("A", "US", "23.22"), team("B", "US", "23.22", low_ammo=True), team("T", "NVA", "23.24"))
    assert mods(s, "T", "A", support=["B"]) == [(-1, "F 7.1")]                   # B supports: -1
    s.unit("A").exhausted = True
    assert mods(s, "T", "A", support=["B"]) == [(-1, "F 7.1"), (1, "F 6.6")]
    assert mods(s, "T", "B", support=["A"]) == [(-1, "F 7.1"), (1, "F 19.2")]


@pytest.mark.rule("F 7.1", "F 16.0", "F 26.0")
def test_a_firerless_attack_has_only_the_targets_modifiers():
    s = state(team("A", "US", "22.23", exhausted=True), team("T", "NVA", "22.22", concealed=True))
    assert mods(s, "T") == [(1, "F 7.1"), (2, "F 18.1")]                 # grass, concealed; not HE
    assert mods(s, "T", he=True) == [(1, "F 7.1")]
    assert mods(s, "T", "A", he=True, fire_mission=True) == [(1, "F 7.1")]   # no adjacent, no marker
    assert mods(s, "T", "A") == [(-1, "F 7.1"), (1, "F 6.6"), (1, "F 7.1"), (2, "F 18.1")]


@pytest.mark.rule("F 7.1")
def test_beyond_range_up_to_double_and_each_supporting_unit():
    s = state(team("A", "US", "23.22", range=2), team("B", "US", "23.22"), team("C", "US", "23.22"),
              team("T", "NVA", "23.24"), team("U", "NVA", "23.25"))
    assert mods(s, "T", "A") == []                                       # exactly at range: nothing
    assert mods(s, "U", "A") == [(1, "F 7.1")]                            # one beyond
    assert mods(s, "U", "A", support=["B", "C"]) == [(-1, "F 7.1"), (-1, "F 7.1"), (1, "F 7.1")]
    assert need(s, "U", "A", support=["B", "C"]) == 5


@pytest.mark.rule("F 7.2", "F Errata")
def test_observed_mortar_fire_is_plus_one_after_the_errata():
    s = state(("M", "US", "23.22", {"role": "mortar", "fire_rating": 4, "weapon": "HE", "range": 12, "men": 3}),
              team("T", "NVA", "23.25"))
    assert mods(s, "T", "M", observed=True) == [(1, "F 7.2")]
    s.readings = ORIGINAL
    assert mods(s, "T", "M", observed=True) == [(-1, "F 7.2")]


@pytest.mark.rule("F 21.0", "F QRC")
def test_a_concealed_firer_has_minus_one_in_opportunity_fire_only():
    s = state(team("A", "US", "23.22", concealed=True), team("T", "NVA", "23.24"))
    assert mods(s, "T", "A", opportunity=True) == [(-1, "F 21.0")]
    assert mods(s, "T", "A") == []                                        # its own Fire action: nothing
    assert mods(s, "T", "A", opportunity=True, firer_concealed=False) == []   # concealment already lost
    s.unit("A").concealed = False
    assert mods(s, "T", "A", opportunity=True) == []
    assert mods(s, "T", "A", opportunity=True, firer_concealed=True) == [(-1, "F 21.0")]


# --------------------------------------------------------------------------- status markers (F 1.2)

@pytest.mark.rule("F 1.2", "F Revisions", "F 7.5.2")
def test_marker_drms_add_up_and_the_original_reading_keeps_the_largest():
    s = state(team("A", "US", "23.22", exhausted=True, low_ammo=True, hero=True))
    a = s.unit("A")
    values = lambda roll: sorted(d.value for d in marker_drms(s, a, roll))
    assert values("fire") == [-1, 1, 1] and values("tq") == [-1, 1]      # low ammo is 0 on TQ: left out
    s.readings = ORIGINAL
    assert values("fire") == [1] and values("tq") == [1]
    a.exhausted = a.low_ammo = False
    assert marker_drms(s, a, "fire") == [Drm(-1, "F 19.4", "hero")]        # one marker: nothing to choose
    s.casualties["K"] = _kia(s, "K", a)
    a.carrying = ["K"]
    assert marker_drms(s, a, "fire") == [Drm(-1, "F 19.4", "hero")]        # carrying a KIA is 0 on fire
    assert [d.value for d in marker_drms(s, a, "tq")] == [1]               # +1 beats the hero's -1
    s.readings = ERRATA
    assert sorted(d.value for d in marker_drms(s, a, "tq")) == [-1, 1]


@pytest.mark.rule("F 7.5.2")
def test_only_a_carried_kia_weighs_on_troop_quality():
    s = state(team("A", "US", "23.22"))
    a = s.unit("A")
    s.casualties["W"] = _kia(s, "W", a, kind="WIA")
    a.carrying = ["W", "gone"]                                           # a marker no longer in play is skipped
    assert marker_drms(s, a, "tq") == []
    s.casualties["K"] = _kia(s, "K", a)
    a.carrying.append("K")
    assert marker_drms(s, a, "tq") == [Drm(1, "F 7.5.2", "carrying kia")]


def _kia(s, cid, unit, kind="KIA"):
    return CasualtyMarker(cid, kind, "US", hex=None, carried_by=unit.id)


@pytest.mark.rule("F 1.2")
def test_troop_quality_checks_use_the_markers_and_the_naturals():
    s = state(team("A", "US", "23.22", exhausted=True))
    a = s.unit("A")
    check = lambda roll, **kw: tq_check(s, a, ScriptedDice([roll]), Resolution(), "F 1.2", "a test", **kw)
    assert check(3) and not check(4)                                     # TQ 4, exhausted +1
    res = Resolution()
    assert tq_check(s, a, ScriptedDice([1]), res, "F 1.2", "a test", [Drm(9, "F 1.2", "x")])
    assert "a natural 1 always passes" in res.steps[-1].text
    res = Resolution()
    assert not tq_check(s, a, ScriptedDice([10]), res, "F 1.2", "a test", [Drm(-9, "F 1.2", "x")])
    assert "a natural 10 always fails" in res.steps[-1].text
    res = Resolution()
    assert tq_check(s, a, ScriptedDice([2]), res, "F 1.2", "a test") and "natural" not in res.steps[-1].text
    with ScriptedDice([], "no roll") as d:
        assert tq_check(s, a, d, Resolution(), "F 8.0", "the assault", auto="a leader")
    assert check(4, markers=False)
    chance = enumerate_outcomes(lambda d: tq_check(s, a, d, Resolution(), "F 1.2", "a test"))
    assert chance[True] == pytest.approx(3 / 10)                          # 1, 2, 3 on a d10


# --------------------------------------------------------------------------- who may fire (F 21.0)

@pytest.mark.rule("F 21.0", "F 7.0", "F 27.0")
def test_eligible_opportunity_firers():
    s = state(team("T", "NVA", "23.24"), team("Mate", "NVA", "23.25"),
              team("A", "US", "23.22"), team("Br", "US", "23.22", broken=True),
              ("Ldr", "US", "23.22", {"role": "leader", "tq": 5, "men": 1}),
              ("Sap", "NVA", "23.26", {"role": "sapper", "fire_rating": 5, "weapon": "HE", "men": 1}))
    assert eligible_opfirers(s, "T") == ["A"]                   # not a friend, a leader, a broken unit
    s.unit("A").op_fired = True
    assert eligible_opfirers(s, "T") == []
    assert eligible_opfirers(s, "T", retreating=True) == ["A"]            # once more at a retreating unit
    assert eligible_opfirers(s, "T", retreating=True, used_on_retreat={"A"}) == []
    s.unit("A").op_fired = False
    assert eligible_opfirers(s, "T", retreating=True, used_on_retreat={"A"}) == ["A"]
    s.unit("Sap").hex, s.unit("Mate").hex = s.hex("23.22"), s.hex("23.21")
    assert eligible_opfirers(s, "A") == ["T", "Mate"]                     # the sapper attacks only in assaults


@pytest.mark.rule("F 21.0", "F 7.1")
def test_opportunity_fire_reaches_double_the_printed_range():
    s = state(team("A", "US", "23.21", range=2), team("T", "NVA", "23.25"))
    assert eligible_opfirers(s, "T") == ["A"]                               # 4 hexes: double its range
    s.unit("T").hex = s.hex("23.26")
    assert eligible_opfirers(s, "T") == []                                  # 5 hexes


@pytest.mark.rule("F 21.0", "F 7.0", "F 7.3.2")
def test_friendly_units_block_opportunity_fire_except_a_mortars():
    s = state(team("A", "US", "23.22"), ("M", "US", "23.22", {"role": "mortar", "fire_rating": 4, "weapon": "HE",
                                                             "range": 12, "men": 3}),
              team("B", "US", "23.23"), team("T", "NVA", "23.24"))
    assert eligible_opfirers(s, "T") == ["M", "B"]                # B stands between A and the target
    s.unit("B").hex = s.hex("22.23")                              # off the line, still next to the target
    assert eligible_opfirers(s, "T") == ["A", "M", "B"]


@pytest.mark.rule("F 21.0", "F 7.4")
def test_only_an_applied_result_ends_the_targets_activation():
    assert not ended_activation(None)
    assert not ended_activation(FireOutcome("T", ("A",), hit=False))
    assert not ended_activation(FireOutcome("T", ("A",), hit=True, applied="none"))       # a passed S?
    assert ended_activation(FireOutcome("T", ("A",), hit=True, applied="S"))


@pytest.mark.rule("F TEC", "F 21.0", "F 6.5")
@pytest.mark.parametrize("start, trail", [("19.18", True), ("18.19", False)])
def test_in_play_only_a_mover_that_came_by_the_trail_gets_the_trail_modifier(tmp_path, start, trail):
    # 19.19 is grass on the trail; from 19.18 the mover follows the trail, from 18.19 it walks in across country
    g = fte.Game.for_frago(frago(tmp_path, [ft("M", "US", start), ft("A", "NVA", "20.19")])).new(seed=1)
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("M",)))
    g.apply(fte.Move(("M",), ("19.19",)))
    g.apply(fte.OpFire(("A",), "M"), ScriptedDice([1, 10], "A passes its check and misses"))
    shot = [st for st in g.resolutions[-1].steps if st.rule == "F 7.1"][-1]
    assert shot.inputs["need"] == (5 if trail else 4)                    # grass +1, adjacent -1, trail -1
    assert ("trail (note a)" in shot.arithmetic) == trail
