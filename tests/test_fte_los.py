"""FTE line of sight (F 7.0, F 7.3-7.3.3): both situations of the LoS Example (catalog F-E4, F-E5) on the
demonstration map, units in the way, helicopters by altitude, rice paddies, and symmetry."""
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st_

from wargames.core import trace_line
from wargames.core.hexgrid import OffsetLayout
from wargames.core.mapdata import HexInfo, MapData
from wargames.fte.los import line_of_sight, sees, unit_sight
from wargames.fte.state import FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import Unit


@pytest.fixture
def st():
    return FteState(demo_map())


def los(st, a, b, **kw):
    return line_of_sight(st, st.hex(a), st.hex(b), **kw)


# --------------------------------------------------------------------------- LoS Example, situation 1

@pytest.mark.rule("F 7.3.1")
def test_example1_adjacent_hexes_always_see(st):
    s = los(st, "20.20", "20.19")
    assert s.clear and "adjacent" in s.reason
    assert st.map.terrain(st.hex("20.19")) == "jungle"        # even into blocking terrain


@pytest.mark.rule("F 7.3.1", "F 7.3.2")
def test_example1_along_the_hexside_of_one_blocking_hex(st):
    t = trace_line(st.hex("20.20"), st.hex("19.19"))
    assert t.intervening == () and set(t.along[0]) == {st.hex("20.19"), st.hex("19.20")}
    assert los(st, "20.20", "19.19").clear


@pytest.mark.rule("F 7.3.1", "F 7.3.2")
def test_example1_if_19_20_were_blocking_the_line_would_be_blocked(st):
    m = st.map
    h = m.hex("19.20")
    blocked = replace(m, hexes={**m.hexes, h: replace(m.hexes[h], terrain="jungle")})
    s = line_of_sight(FteState(blocked), m.hex("20.20"), m.hex("19.19"))
    assert not s.clear and "both sides" in s.reason


@pytest.mark.rule("F 7.3.1", "F 7.3.2")
def test_example1_no_los_to_22_18_through_21_19(st):
    t = trace_line(st.hex("20.20"), st.hex("22.18"))
    assert [st.label(h) for h in t.intervening] == ["21.20", "21.19"]
    s = los(st, "20.20", "22.18")
    assert not s.clear and "21.19" in s.reason


# --------------------------------------------------------------------------- LoS Example, situation 2 (slopes)

@pytest.mark.rule("F 7.3.1", "F 7.3.2")
def test_example2_from_62_19(st):
    assert los(st, "62.19", "60.18").clear                  # the slope is on the higher hex's hexside
    s = los(st, "62.19", "59.19")
    assert not s.clear and "not on its hexside" in s.reason


@pytest.mark.rule("F 7.3.1", "F 7.3.2")
def test_example2_from_60_20(st):
    assert los(st, "60.20", "59.20").clear and los(st, "60.20", "60.19").clear
    for far in ("59.19", "60.18"):
        s = los(st, "60.20", far)
        assert not s.clear and "not on its hexside" in s.reason


@pytest.mark.rule("F 7.3.1")
def test_example2_elevations(st):
    elev = lambda h: st.map.info(st.hex(h)).attr("elevation", 0)  # noqa: E731
    assert [elev(h) for h in ("60.18", "59.19", "62.19", "60.20")] == [1, 1, 0, 0]


@pytest.mark.rule("F 7.3.1")
def test_a_slope_above_both_ends_blocks(st):
    s = los(st, "22.19", "22.21")          # 22.20 is raised: its slopes are above both ends
    assert not s.clear and "higher than both ends" in s.reason


# --------------------------------------------------------------------------- units in the way (F 7.0, F 7.3.2)

@pytest.mark.rule("F 7.0", "F 7.3.2")
def test_friendly_units_block_fire_but_not_mortar_fire(st):
    place(st, [Unit("FT", "US", fire_rating=4, weapon="SA", hex=st.hex("23.23")),
               Unit("MORT", "US", role="mortar", fire_rating=4, weapon="HE", hex=st.hex("23.23")),
               Unit("IN", "US", fire_rating=4, weapon="SA", hex=st.hex("23.24")),
               Unit("N", "NVA", fire_rating=4, weapon="SA", hex=st.hex("23.25"))])
    assert [st.label(h) for h in trace_line(st.hex("23.23"), st.hex("23.25")).intervening] == ["23.24"]
    fire = unit_sight(st, st.unit("FT"), st.unit("N"), fire=True)
    assert not fire.clear and "friendly unit" in fire.reason
    assert sees(st, st.unit("MORT"), st.unit("N"), fire=True, mortar=True)
    assert sees(st, st.unit("FT"), st.unit("N"))                 # plain LoS: units do not block
    assert sees(st, st.unit("N"), st.unit("FT"), fire=True)      # enemy units do not block


@pytest.mark.rule("F 7.0", "F 7.3.2")
def test_helicopters_block_fire_only_at_ground_level(st):
    place(st, [Unit("FT", "US", fire_rating=4, weapon="SA", hex=st.hex("23.23")),
               Unit("H", "US", kind="helicopter", role="slick", altitude="treetop", hex=st.hex("23.24")),
               Unit("N", "NVA", fire_rating=4, weapon="SA", hex=st.hex("23.25"))])
    assert sees(st, st.unit("FT"), st.unit("N"), fire=True)
    st.unit("H").altitude = "ground"
    assert not sees(st, st.unit("FT"), st.unit("N"), fire=True)


@pytest.mark.rule("F 7.3.2")
def test_civilians_do_not_block(st):
    place(st, [Unit("N", "NVA", fire_rating=4, weapon="SA", hex=st.hex("23.23")),
               Unit("C", "VC", role="civilians", hex=st.hex("23.24")),
               Unit("A", "US", fire_rating=4, weapon="SA", hex=st.hex("23.25"))])
    assert sees(st, st.unit("N"), st.unit("A"), fire=True)


# --------------------------------------------------------------------------- helicopters (F 7.3.3)

@pytest.mark.rule("F 7.3.3")
def test_helicopter_los_by_altitude_blocking_next_to_the_helicopter(st):
    # 20.20 -> 22.18 crosses the jungle of 21.19, which lies next to 22.18 but not next to 20.20.
    assert st.hex("21.19").is_adjacent(st.hex("22.18")) and not st.hex("21.19").is_adjacent(st.hex("20.20"))
    assert los(st, "20.20", "22.18", b_altitude="high").clear
    assert not los(st, "20.20", "22.18", b_altitude="treetop").clear
    assert not los(st, "20.20", "22.18", b_altitude="ground").clear
    assert los(st, "22.18", "20.20", a_altitude="high").clear          # the same line the other way


@pytest.mark.rule("F 7.3.3")
def test_helicopter_los_blocking_next_to_the_ground_unit(st):
    # 17.20 -> 17.24: the jungle of 17.21 is next to 17.20.
    assert not los(st, "17.20", "17.24", b_altitude="high").clear
    assert not los(st, "17.20", "17.24", b_altitude="treetop").clear
    # With the helicopter at 17.20 instead, the jungle is next to it, not to the ground unit.
    assert los(st, "17.24", "17.20", b_altitude="high").clear
    assert not los(st, "17.24", "17.20", b_altitude="treetop").clear


@pytest.mark.rule("F 7.3.3")
def test_helicopter_in_the_air_looks_over_slopes(st):
    assert not los(st, "62.19", "59.19").clear
    assert los(st, "62.19", "59.19", b_altitude="high").clear


# --------------------------------------------------------------------------- rice paddies

def paddy_map(n_paddies: int) -> FteState:
    """A straight column of hexes 10.01-10.06, the first n in between of rice paddy."""
    lay = OffsetLayout("even-q", 2, 2, ".")
    hexes = {lay.to_hex(10, r): HexInfo("clear") for r in range(1, 7)}
    for r in range(2, 2 + n_paddies):
        hexes[lay.to_hex(10, r)] = HexInfo("rice_paddy")
    return FteState(MapData("paddies", "test", lay, hexes))


@pytest.mark.rule("F 7.3.1", "F 7.3.2")
def test_three_rice_paddies_block_two_do_not():
    two, three = paddy_map(2), paddy_map(3)
    assert line_of_sight(two, two.hex("10.01"), two.hex("10.05")).clear
    s = line_of_sight(three, three.hex("10.01"), three.hex("10.05"))
    assert not s.clear and "3 rice paddy" in s.reason
    # the two end hexes never count
    assert line_of_sight(three, three.hex("10.02"), three.hex("10.04")).clear


# --------------------------------------------------------------------------- symmetry

_M = demo_map()
_WEST = sorted((h for h in _M.hexes if _M.layout.to_offset(h)[0] <= 25), key=lambda h: (h.q, h.r))
_EAST = sorted((h for h in _M.hexes if _M.layout.to_offset(h)[0] >= 57), key=lambda h: (h.q, h.r))
_STATE = FteState(_M)


@pytest.mark.rule("F 7.3.1")
@settings(max_examples=200, deadline=None)
@given(st_.sampled_from([_WEST, _EAST]).flatmap(lambda hs: st_.tuples(st_.sampled_from(hs), st_.sampled_from(hs))))
def test_los_between_ground_units_is_symmetric(pair):
    """Within each excerpt of the demonstration map (lines between the excerpts cross hexes with no dot)."""
    a, b = pair
    assert line_of_sight(_STATE, a, b).clear == line_of_sight(_STATE, b, a).clear


@pytest.mark.rule("F 1.2", "F 7.3.1")
def test_lines_between_the_excerpts_cross_hexes_without_dots(st):
    s = los(st, "25.20", "57.20")
    assert not s.clear and "no dot" in s.reason


# --------------------------------------------------------------------------- the map drawing (wargames.viz.fte)

@pytest.mark.rule("F 7.3.1", "F 7.3.2")
def test_los_map_draws_lines_slopes_and_counters(st):
    pytest.importorskip("bokeh")
    from bokeh.models import HoverTool
    from wargames.viz.fte import SIDE_FILL, draw_fte_map, sight_marks, unit_marks

    place(st, [Unit("A", "US", fire_rating=4, weapon="SA", hex=st.hex("20.20"), concealed=True, activated=True),
               Unit("N", "NVA", fire_rating=4, weapon="SA", hex=st.hex("20.19"), broken=True)])
    lines = sight_marks(st, [("20.20", "19.19"), ("20.20", "22.18")])
    fig, alt = draw_fte_map(st.map, unit_marks(st), sight=lines, region=(17, 25))
    tiles = fig.select(name="hex-tiles")[0].data_source.data
    assert all(lab[:2] <= "25" for lab in tiles["label"]) and "#FFFFFF" not in tiles["color"]
    assert tiles["elevation"][tiles["label"].index("19.19")] == 1
    assert any(("elevation", "@elevation") in t.tooltips for t in fig.select(type=HoverTool))
    slopes = fig.select(name="hexside-slope")[0]
    assert slopes.glyph.line_width == 6 and any("19.19/20.19" == b for b in slopes.data_source.data["between"])
    assert len(fig.select(name="sight-clear")[0].data_source.data["x0"]) == 1
    assert len(fig.select(name="sight-blocked")[0].data_source.data["x0"]) == 1
    units = fig.select(name="units")[0].data_source.data
    assert units["status"] == ["C AC", "B"] and units["color"] == [SIDE_FILL["US"], SIDE_FILL["NVA"]]
    assert "Line of sight 20.20 to 22.18: blocked" in alt and "A in 20.20 (concealed, activation complete)" in alt
    assert fig.tags == [{"alt": alt}]
