"""Tests for wargames.viz.hexmap: hex geometry, the Citadel Movement Example drawing and its alt text."""
from __future__ import annotations

import math
import re

import pytest

pytest.importorskip("bokeh")

from bokeh.models import Arrow, GlyphRenderer, HoverTool  # noqa: E402

from wargames.citadel.examples import PRINTED_DICE, anne_marie_setup, replay_movement_example  # noqa: E402
from wargames.core import ScriptedDice  # noqa: E402
from wargames.core.hexgrid import DIRECTIONS, Hex, OffsetLayout  # noqa: E402
from wargames.core.mapdata import HexInfo, MapData  # noqa: E402
from wargames.viz.hexmap import (  # noqa: E402
    FireMark, PathMark, UnitMark, VPMark, center, citadel_map, corners, describe, draw_map, hexside_segment,
    movement_example_map, overlay_data, unit_positions,
)

CITADEL = OffsetLayout("even-q")


def close(a, b, tol=1e-9):
    return all(abs(x - y) < tol for x, y in zip(a, b))


def renderer(fig, name) -> GlyphRenderer:
    found = fig.select(name=name)
    assert len(found) == 1, f"expected one renderer named {name!r}, found {len(found)}"
    return found[0]


def rows(r) -> int:
    data = r.data_source.data if isinstance(r, GlyphRenderer) else r.source.data
    return len(next(iter(data.values())))


@pytest.fixture(scope="module")
def run():
    return replay_movement_example(ScriptedDice(PRINTED_DICE))


@pytest.fixture(scope="module")
def drawn(run):
    return movement_example_map(run)


# --------------------------------------------------------------------------- geometry

@pytest.mark.parametrize("size", [1.0, 2.5])
def test_neighbours_are_one_hex_width_apart(size):
    """Flat-topped hexes: adjacent centres are sqrt(3) * size apart, in all six directions."""
    h = Hex(7, -3)
    for dq, dr in DIRECTIONS:
        (x0, y0), (x1, y1) = center(h, size), center(Hex(h.q + dq, h.r + dr), size)
        assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(math.sqrt(3) * size)


def test_center_matches_bokeh_hex_tile_conversion():
    from bokeh.util.hex import axial_to_cartesian
    for h in (Hex(0, 0), Hex(10, 5), Hex(-3, 8)):
        assert close(center(h, 1.7), axial_to_cartesian(h.q, h.r, 1.7, "flattop"))


def test_printed_orientation_rows_down_columns_right():
    """1010 is above-left of 1111; rows grow downwards, columns to the right; even columns sit lower."""
    x1010, y1010 = center(CITADEL.parse("1010"))
    x1111, y1111 = center(CITADEL.parse("1111"))
    assert x1010 < x1111 and y1010 > y1111
    assert center(CITADEL.parse("1011"))[1] < y1010            # same column, next row: below
    assert center(CITADEL.parse("1110"))[0] > x1010             # next column: to the right
    assert center(CITADEL.parse("1010"))[1] < center(CITADEL.parse("1110"))[1]   # even column shifted down
    x0519, y0519 = center(CITADEL.parse("0519"))
    assert x0519 < x1010 and y0519 < y1010                      # 0519 is left of and below 1010


def test_hexside_segment_ends_at_the_two_shared_vertices():
    a = CITADEL.parse("1316")
    for b in a.neighbors():
        ends = hexside_segment(a, b, 2.0)
        shared = [c for c in corners(a, 2.0) if any(close(c, d) for d in corners(b, 2.0))]
        assert len(shared) == 2
        assert all(any(close(e, s) for s in shared) for e in ends)
        assert math.dist(*ends) == pytest.approx(2.0)
    with pytest.raises(ValueError):
        hexside_segment(a, Hex(a.q + 2, a.r), 1.0)


def test_counters_in_one_hex_are_spread_apart():
    m = MapData("t", "north", CITADEL, {CITADEL.parse("0101"): HexInfo("clear")})
    units = [UnitMark("a", "0101", "French"), UnitMark("b", "0101", "French"), UnitMark("c", "0101", "French"),
             UnitMark("dead", "0101", "French", eliminated=True)]
    pos = unit_positions(m, units)
    assert set(pos) == {"a", "b", "c"}
    ys = sorted(y for _, y in pos.values())
    assert min(b - a for a, b in zip(ys, ys[1:])) > 0.3


def test_generic_draw_map_counts_and_alt_text():
    hexes = {CITADEL.to_hex(c, r): HexInfo("clear") for c in range(1, 5) for r in range(1, 5)}
    m = MapData("small", "north", CITADEL, hexes)
    fig, alt = draw_map(m, [UnitMark("x", "0202", "Red", 4, losses=1, inverted=True),
                            UnitMark("gone", None, "Blue", eliminated=True)],
                        [PathMark("x", ("0101", "0201", "0202"))], [VPMark("x", "0201", 1)],
                        [FireMark("y", "0404", "0201", "x", "roll 3 -> -")], highlight=["0303"])
    assert rows(renderer(fig, "hex-tiles")) == 16
    assert rows(fig.select(type=Arrow)[0]) == 2
    assert rows(renderer(fig, "fire-lines")) == 1
    assert rows(renderer(fig, "highlight")) == 1
    assert "x in 0202 (4 SP, -1, inverted)" in alt and "gone eliminated" in alt
    assert renderer(fig, "units").data_source.data["text"] == ["x"]
    assert "x moved 2 hexes: 0101 - 0201 - 0202; vulnerability point VP1 in 0201" in alt
    assert alt.startswith(describe(m))


def test_a_hex_with_a_vp_and_a_counter_moves_its_code_left_and_names_its_vps_in_the_hover():
    hexes = {CITADEL.to_hex(c, r): HexInfo("clear") for c in range(1, 4) for r in range(1, 4)}
    m = MapData("small", "north", CITADEL, hexes)
    data = overlay_data(m, [UnitMark("x", "0202", "Red"), UnitMark("y", "0101", "Red")], (),
                        [VPMark("x", "0202", 1, ("road hex entered",)), VPMark("y", "0202", 2), VPMark("z", "0303", 1)],
                        dynamic_only=True)["hex-tiles"]
    labels = [m.label(h) for h in sorted(hexes, key=m.label)]
    at = {label: i for i, label in enumerate(labels)}
    x = {label: center(m.hex(label))[0] for label in labels}
    assert data["vps"][at["0202"]] == "x VP1 (road hex entered); y VP2"
    assert data["vps"][at["0303"]] == "z VP1" and data["vps"][at["0101"]] == "none"
    assert data["code_align"][at["0202"]] == "right" and data["code_x"][at["0202"]] == x["0202"] - 0.38
    for label in ("0303", "0101", "0102"):          # a VP without a counter, a counter without a VP, neither
        assert data["code_align"][at[label]] == "center" and data["code_x"][at[label]] == x[label]
    bare = overlay_data(m, dynamic_only=True)["hex-tiles"]
    assert bare["vps"] == ["none"] * 9 and bare["code_align"] == ["center"] * 9


# --------------------------------------------------------------------------- the C 8 Movement Example

@pytest.mark.rule("C 8")
def test_movement_example_figure_has_a_tile_per_hex_and_is_findable(drawn, run):
    fig, _ = drawn
    m = run.phase.state.map
    assert fig.name == "citadel-map"
    tiles = renderer(fig, "hex-tiles").data_source.data
    assert len(tiles["label"]) == len(m.hexes)
    assert set(tiles["label"]) == {m.label(h) for h in m.hexes}
    assert rows(renderer(fig, "strongpoints")) == sum("strongpoint" in m.info(h).features for h in m.hexes) >= 3
    codes = dict(zip(tiles["label"], tiles["code"]))
    assert codes["1414"] == "AM-2" and codes["1316"] == "AM-1" and codes["0910"] == "J"
    for feat in ("barbed_wire", "river", "full_jungle", "drainage_ditch", "hill"):
        assert rows(renderer(fig, f"hexside-{feat}")) > 0
    hovers = {h.renderers[0].name: h for h in fig.select(type=HoverTool)}
    assert set(hovers) == {"hex-tiles", "units"}
    hex_hover, unit_hover = hovers["hex-tiles"], hovers["units"]
    assert {"hex", "terrain", "features"} <= {name for name, _ in hex_hover.tooltips}
    assert unit_hover.renderers == [renderer(fig, "units")]
    assert {"unit", "hex", "status"} == {name for name, _ in unit_hover.tooltips}
    counters = renderer(fig, "units").data_source.data
    detail = dict(zip(counters["text"], zip(counters["hex"], counters["detail"])))
    assert detail["2nd Bn"] == ("1113", "2nd Battalion, Vietminh; 12 SP, -2, pinned")
    assert "strongpoint AM-2" in dict(zip(tiles["label"], tiles["features"]))["1414"]


@pytest.mark.rule("C 8")
def test_movement_example_arrows_follow_each_path_from_its_start(drawn, run):
    fig, _ = drawn
    summary = run.phase.summary()
    arrows = fig.select(type=Arrow)
    assert len(arrows) == 1
    data = arrows[0].source.data
    # One arrow per hex entered: each path is drawn from the jungle hex the battalion started in.
    assert len(data["unit"]) == sum(len(rec["path"]) for rec in summary.values())
    m = run.phase.state.map
    for uid, start in {"1st Bn": "0910", "2nd Bn": "0911", "3rd Bn": "0714", "4th Bn": "0419"}.items():
        hexes = [m.hex(start)] + [m.hex(h) for h in summary[uid]["path"]]
        assert all(a.is_adjacent(b) for a, b in zip(hexes, hexes[1:])), uid
        mine = [i for i, u in enumerate(data["unit"]) if u == uid]
        assert len(mine) == len(hexes) - 1
        for i, a, b in zip(mine, hexes, hexes[1:]):
            (ax, ay), (bx, by) = center(a), center(b)
            # The arrow lies on the segment between the two centres and points from a to b.
            assert (data["x1"][i] - data["x0"][i]) * (bx - ax) + (data["y1"][i] - data["y0"][i]) * (by - ay) > 0
            cross = (data["x0"][i] - ax) * (by - ay) - (data["y0"][i] - ay) * (bx - ax)
            assert cross == pytest.approx(0, abs=1e-9)


@pytest.mark.rule("C 8")
def test_movement_example_fire_lines_and_vps(drawn, run):
    fig, _ = drawn
    fire = renderer(fig, "fire-lines").data_source.data
    assert len(fire["x0"]) == len(run.shots) == 5
    labels = renderer(fig, "fire-labels").data_source.data["text"]
    assert "105-B: 11-14, roll 2 -> 2P" in labels
    st = run.phase.state
    for i, shot in enumerate(run.shots):
        assert close((fire["x0"][i], fire["y0"][i]), center(st.unit(shot["firer"]).hex))
        assert close((fire["x1"][i], fire["y1"][i]), center(st.map.hex(shot["hex"])))
    vps = renderer(fig, "vp-labels").data_source.data["text"]
    assert sorted(vps) == ["VP1", "VP1", "VP1", "VP1", "VP2"]


@pytest.mark.rule("C 8")
def test_movement_example_units_show_status(drawn, run):
    fig, _ = drawn
    units = renderer(fig, "units").data_source.data
    assert len(units["text"]) == len([u for u in run.phase.state.units.values() if u.on_board])
    status = dict(zip(units["text"], units["status"]))
    assert status["2nd Bn"] == "12 -2" and status["1st Bn"] == "14"
    assert rows(renderer(fig, "pin-badges")) == 3
    french, vietminh = (units["color"][units["text"].index(u)] for u in ("105-A", "1st Bn"))
    assert french != vietminh


@pytest.mark.rule("C 8")
def test_movement_example_alt_text(drawn):
    _, alt = drawn
    for bn, pinned in (("1st Bn", False), ("2nd Bn", True), ("3rd Bn", True), ("4th Bn", True)):
        status = re.search(rf"{bn} in \d{{4}} \(([^)]*)\)", alt).group(1)
        assert ("pinned" in status) is pinned, status
    assert "1st Bn moved 6 hexes: 0910 - 1010 - 1111 - 1112 - 1212 - 1313 - 1413" in alt
    assert "VP1 in 0718, VP2 in 1017" in alt
    assert "105-B in 1721 fired at 2nd Bn in 1113: column 11-14, roll 2, result 2P, pinned" in alt
    assert "AM-1 in 1316, 1416; AM-2 in 1414" in alt


def test_citadel_map_without_a_run_draws_the_set_up():
    st = anne_marie_setup()
    fig, alt = citadel_map(st)
    arrows = fig.select(type=Arrow)          # present but empty, so a page can swap in another outcome
    assert all(len(a.source.data["x0"]) == 0 for a in arrows)
    assert rows(renderer(fig, "units")) == len(st.units)
    assert "1st Bn in 0910" in alt and "pinned" not in alt


def test_every_map_text_is_at_least_11_px(drawn):
    """Hex labels, codes, counters, badges, VP and fire labels, legend and notes: nothing under 11 px."""
    from bokeh.models import Legend, Text, Title
    fig, _ = drawn

    def px(size: str) -> float:
        value = float(size[:-2])
        return value * 4 / 3 if size.endswith("pt") else value
    sizes = [r.glyph.text_font_size for r in fig.renderers if isinstance(r.glyph, Text)]
    sizes += [lg.label_text_font_size for lg in fig.select({"type": Legend})]
    sizes += [t.text_font_size for t in fig.select({"type": Title}) if t.text]
    sizes = [s if isinstance(s, str) else s["value"] for s in sizes]
    assert len(sizes) >= 8 and min(px(s) for s in sizes) >= 11, sizes


@pytest.mark.rule("C 8")
def test_the_map_can_be_cropped_to_the_action(run):
    from wargames.viz.hexmap import action_hexes, citadel_marks
    st = run.phase.state
    units, paths, vps, fires = citadel_marks(st, run.phase.summary(), run.shots)
    crop = action_hexes(st.map, units, paths, vps, fires, margin=0)
    labels = {st.map.label(h) for h in crop}
    assert len(crop) < len(st.map.hexes)
    assert {"0419", "1316", "1819", "1721"} <= labels and "0307" not in labels
    assert [st.map.label(h) for h in crop] == sorted(labels)          # in the order the map draws them
    fig, _ = movement_example_map(run, hexes=crop)
    assert rows(renderer(fig, "hex-tiles")) == len(crop)
