"""FTE 23.0-25.0: hidden sites, bunkers and foxholes."""
import pytest

from wargames.core import Resolution, ScriptedDice
from wargames.core.errors import DataError, RuleViolation
from wargames.fte import sites as S
from wargames.fte.state import FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import Site, Unit


def state(*units, sites=()):
    s = FteState(demo_map())
    place(s, [Unit(i, side, hex=s.hex(h), **kw) for i, side, h, kw in units])
    for sid, kind, side, h, kw in sites:
        S.add_site(s, Site(sid, kind, side, s.hex(h), **kw))
    return s


def nva(i, h, **kw):
    return (i, "NVA", h, {"fire_rating": 4, "weapon": "SA", **kw})


def us(i, h, **kw):
    return (i, "US", h, {"fire_rating": 4, "weapon": "SA", "range": 6, **kw})


def cache_vp(s, event="cache_revealed"):
    return s.charts.vp.value(event, "US")


@pytest.mark.rule("F 24.0", "F 25.0")
def test_bunker_and_foxholes_cover_the_first_two_infantry_units_inside():
    s = state(nva("a", "22.22"), nva("b", "22.22"), nva("c", "22.22"), nva("out", "22.22"),
              nva("f", "21.23"), sites=[("bk", "bunker", "NVA", "22.22", {}), ("fx", "foxholes", "NVA", "21.23", {})])
    res = Resolution()
    for uid in ("a", "b"):
        assert S.enter_fort(s, uid, "bunker", res)
    with pytest.raises(RuleViolation, match="already holds 2"):
        S.enter_fort(s, "c", "bunker", res)
    S.enter_fort(s, "f", "foxholes", res)
    assert [(d.value, d.rule) for d in (S.fort_drm(s, s.unit("a")), S.fort_drm(s, s.unit("b")))] == \
        [(2, "F 24.0"), (2, "F 24.0")]
    assert (S.fort_drm(s, s.unit("f")).value, S.fort_drm(s, s.unit("f")).rule) == (1, "F 25.0")
    assert S.fort_drm(s, s.unit("out")) is None
    # a third unit recorded as inside (e.g. set up that way) gets no cover: only two are counted
    s.unit("c").fort = "bunker"
    assert S.fort_drm(s, s.unit("c")) is None
    assert "entering" not in res.text() and "no movement points" in res.text()


@pytest.mark.rule("F 24.0")
def test_only_infantry_uses_a_bunker_and_an_enemy_bunker_must_be_revealed_first():
    s = state(("apc", "US", "22.22", {"kind": "vehicle", "role": "apc"}), us("u", "22.22"),
              sites=[("bk", "bunker", "NVA", "22.22", {})])
    with pytest.raises(RuleViolation, match="only infantry"):
        S.enter_fort(s, "apc", "bunker", Resolution())
    with pytest.raises(RuleViolation, match="revealed"):
        S.enter_fort(s, "u", "bunker", Resolution())
    s.sites["bk"].revealed = True
    assert S.enter_fort(s, "u", "bunker", Resolution())        # either side may use a known bunker
    assert S.fort_drm(s, s.unit("u")).value == 2


@pytest.mark.rule("F 23.0", "F 24.0", "F 25.0")
def test_using_the_cover_reveals_a_hidden_bunker_without_points():
    s = state(nva("a", "22.22", fort="bunker"), sites=[("bk", "bunker", "NVA", "22.22", {"occupants": ["a"]})])
    res = Resolution()
    assert S.reveal_on_use(s, s.unit("a"), res)
    assert s.sites["bk"].revealed and s.vp == {"US": 0, "NVA/VC": 0}
    assert not S.reveal_on_use(s, s.unit("a"), res)           # already face up


@pytest.mark.rule("F 23.0", "F 24.0", "F 7.1")
def test_a_fire_attack_on_a_unit_in_a_hidden_bunker_counts_the_cover_and_reveals_it():
    from wargames.fte.fire import fire
    s = state(nva("a", "22.22", fort="bunker"), us("u", "23.23"),
              sites=[("bk", "bunker", "NVA", "22.22", {"occupants": ["a"]})])
    res = Resolution()
    with ScriptedDice([1, 6]) as d:                             # a natural 1 hits; 6 on small arms is S
        out = fire(s, ["u"], "a", d, res)
    assert any(x.rule == "F 24.0" and x.value == 2 for x in out.drms)
    assert s.sites["bk"].revealed and s.vp["US"] == 0


@pytest.mark.rule("F 23.0", "F 9.0", "F 25.0")
def test_a_search_reveals_every_enemy_site_in_the_hex_and_scores_the_real_ones():
    s = state(sites=[("c1", "rice", "NVA", "22.22", {}), ("d1", "dummy", "NVA", "22.22", {}),
                     ("f1", "foxholes", "NVA", "22.22", {}), ("b1", "bunker", "VC", "22.22", {}),
                     ("mine", "foxholes", "US", "22.22", {})])
    res = Resolution()
    found = S.reveal_hidden_in_hex(s, s.hex("22.22"), "US", res)
    assert found == ["rice", "dummy", "foxholes", "bunker"]
    assert "d1" not in s.sites                                  # a dummy cache is simply removed
    assert s.vp["US"] == 2 * cache_vp(s)                        # the cache and the bunker, not the foxholes
    assert not s.sites["mine"].revealed                         # the searcher's own site is not "found"
    with pytest.raises(RuleViolation, match="never hidden again"):
        S.reveal_site(s, "c1", "US", res)
    with pytest.raises(RuleViolation, match="knows"):
        S.reveal_site(s, "mine", "US", res)


@pytest.mark.rule("F 23.0", "F 25.0", "F 11.0", "F 24.0")
def test_destroying_sites():
    s = state(nva("a", "22.22", fort="bunker"),
              sites=[("bk", "bunker", "NVA", "22.22", {"revealed": True, "occupants": ["a"]}),
                     ("fx", "foxholes", "NVA", "21.23", {"revealed": True}),
                     ("hid", "ammo", "NVA", "21.23", {}),
                     ("own", "bunker", "US", "23.23", {"revealed": True})])
    res = Resolution()
    with pytest.raises(RuleViolation, match="foxholes"):
        S.destroy_site(s, "fx", "US", res)
    with pytest.raises(RuleViolation, match="hidden"):
        S.destroy_site(s, "hid", "US", res)
    S.destroy_site(s, "bk", "US", res)
    assert "bk" not in s.sites and s.unit("a").fort is None
    assert s.vp["US"] == cache_vp(s, "cache_destroyed")
    S.destroy_site(s, "own", "US", res)                          # no points for wrecking your own
    assert s.vp["US"] == cache_vp(s, "cache_destroyed")


@pytest.mark.rule("F 24.0", "F 25.0", "F 8.0")
def test_opportunity_fire_on_entering_or_leaving_happens_outside_the_cover():
    s = state(nva("a", "22.22"), sites=[("bk", "bunker", "NVA", "22.22", {}), ("fx", "foxholes", "NVA", "22.22", {})])
    seen = []

    def opfire(st, unit, res):
        seen.append(unit.fort)
        return False
    res = Resolution()
    assert S.enter_fort(s, "a", "bunker", res, opportunity=opfire)
    S.exit_fort(s, "a", res, opportunity=opfire)
    assert seen == [None, None] and s.unit("a").fort is None
    assert S.enter_fort(s, "a", "foxholes", res, advancing=True, opportunity=opfire)
    assert seen == [None, None]                                  # advancing after an assault: no fire
    S.exit_fort(s, "a", res)
    assert not S.enter_fort(s, "a", "bunker", res, opportunity=lambda st, u, r: True)   # stopped by the fire
    assert s.unit("a").fort is None and s.sites["bk"].occupants == []


@pytest.mark.rule("F 27.0", "F 24.0")
def test_a_sapper_hit_wrecks_the_bunker_without_points():
    s = state(us("u", "22.22", fort="bunker"), sites=[("bk", "bunker", "US", "22.22", {"occupants": ["u"]})])
    res = Resolution()
    assert S.sapper_hit(s, s.unit("u"), res)
    assert "bk" not in s.sites and s.unit("u").fort is None and s.vp["NVA/VC"] == 0
    assert not S.sapper_hit(s, s.unit("u"), res)


@pytest.mark.rule("F 23.0")
def test_hidden_markers_show_only_a_question_mark_to_the_other_side():
    s = state(sites=[("c1", "medical", "NVA", "22.22", {}), ("c2", "tunnel", "NVA", "25.23", {"revealed": True})])
    assert S.public_sites(s, "US") == [{"hex": "22.22", "kind": "?", "revealed": False},
                                       {"hex": "25.23", "kind": "tunnel", "revealed": True, "id": "c2"}]
    assert S.public_sites(s, "NVA/VC")[0]["kind"] == "medical"


@pytest.mark.rule("F 23.0")
def test_bad_site_data_is_reported():
    s = state()
    with pytest.raises(DataError, match="kind"):
        S.add_site(s, Site("x", "gold", "NVA", s.hex("22.22")))
    S.add_site(s, Site("x", "rice", "NVA", s.hex("22.22")))
    with pytest.raises(DataError, match="twice"):
        S.add_site(s, Site("x", "rice", "NVA", s.hex("22.22")))
    s.units["ghost"] = Unit("ghost", "NVA", hex=s.hex("21.23"), fort="bunker")
    with pytest.raises(DataError, match="no bunker"):
        S.fort_drm(s, s.unit("ghost"))
