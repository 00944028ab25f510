"""wargames.viz.svg: the pure-Python SVG map draws what the bokeh map draws, from the same inputs."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("bokeh")  # svg.py takes its geometry from hexmap, which still imports bokeh

from wargames.citadel.examples import PRINTED_DICE, replay_movement_example  # noqa: E402
from wargames.core import ScriptedDice  # noqa: E402
from wargames.core.hexgrid import OffsetLayout  # noqa: E402
from wargames.core.mapdata import HexInfo, MapData  # noqa: E402
from wargames.viz.hexmap import (FireMark, PathMark, UnitMark, VPMark, citadel_marks, describe,  # noqa: E402
                                 draw_map, overlay_data)
from wargames.viz.svg import SvgMap, draw_map_svg  # noqa: E402

NS = {"s": "http://www.w3.org/2000/svg"}
CITADEL = OffsetLayout("even-q")


def group(root, cls):
    found = root.findall(f".//s:g[@class='{cls}']", NS)
    assert len(found) == 1, f"expected one group {cls!r}, found {len(found)}"
    return found[0]


def texts(root, cls):
    return [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == cls]


@pytest.fixture(scope="module")
def small():
    hexes = {CITADEL.to_hex(c, r): HexInfo("clear") for c in range(1, 5) for r in range(1, 5)}
    hexes[CITADEL.to_hex(3, 3)] = HexInfo("hill")
    m = MapData("small", "north", CITADEL, hexes)
    marks = ([UnitMark("x", "0202", "Red", 4, losses=1, inverted=True, pinned=True),
              UnitMark("gone", None, "Blue", eliminated=True)],
             [PathMark("x", ("0101", "0201", "0202"))], [VPMark("x", "0201", 1)],
             [FireMark("y", "0404", "0201", "x", "roll 3 -> -")])
    return m, marks


def test_small_map_counts_legend_and_alt_text(small):
    m, (units, paths, vps, fires) = small
    svg, alt = draw_map_svg(m, units, paths, vps, fires, highlight=["0303"], title="Small")
    root = ET.fromstring(svg)  # well-formed XML
    assert root.get("role") == "img" and root.find("s:title", NS).text == alt
    assert len(group(root, "hex-tiles").findall("s:polygon", NS)) == 16
    assert len(group(root, "path-arrows").findall("s:line", NS)) == 2
    assert len(group(root, "fire-lines").findall("s:line", NS)) == 1
    assert len(group(root, "highlight").findall("s:polygon", NS)) == 1
    assert len(group(root, "pin-badges").findall("s:circle", NS)) == 1
    assert texts(root, "unit-labels") == ["x"]          # the eliminated unit is not drawn
    assert texts(root, "fire-labels") == ["y: roll 3 -> -"]
    assert texts(root, "vp-labels") == ["VP1"]
    assert sorted(texts(root, "hex-labels")) == sorted(m.label(h) for h in m.hexes)
    assert "H" in texts(root, "terrain-codes")          # the hill's code; clear ground has none
    legend = " | ".join(t.text for t in group(root, "legend").iter("{http://www.w3.org/2000/svg}text"))
    for entry in ("clear (no code)", "H  hill", "highlighted", "opportunity fire", "movement (arrow per hex)",
                  "Red unit", "P  pinned", "vulnerability point (VPn)"):
        assert entry in legend
    # Same alt text as the bokeh map, from the same inputs.
    assert alt == draw_map(m, units, paths, vps, fires, title="Small")[1]
    assert alt.startswith(describe(m, title="Small"))


def test_positions_are_the_bokeh_overlay_positions_scaled(small):
    """Each counter sits where overlay_data puts it: x scaled and shifted, y flipped."""
    m, (units, paths, vps, fires) = small
    svg, _ = draw_map_svg(m, units, paths, vps, fires, width=600)
    root = ET.fromstring(svg)
    data = overlay_data(m, units, paths, vps, fires)
    tiles = data["hex-tiles"]
    xs, ys = tiles["x"], tiles["y"]
    x0, y1 = min(xs) - 1.05, max(ys) + 0.95
    scale = 600 / (max(xs) + 1.05 - x0)
    rect = group(root, "units").find(".//s:rect", NS)
    cx = float(rect.get("x")) + float(rect.get("width")) / 2
    cy = float(rect.get("y")) + float(rect.get("height")) / 2
    assert cx == pytest.approx((data["units"]["x"][0] - x0) * scale, abs=0.2)
    assert cy == pytest.approx(30 + (y1 - data["units"]["y"][0]) * scale, abs=0.2)


def test_crop_draws_only_the_given_hexes(small):
    m, _ = small
    keep = [CITADEL.to_hex(1, 1), CITADEL.to_hex(2, 1)]
    root = ET.fromstring(draw_map_svg(m, hexes=keep)[0])
    assert sorted(texts(root, "hex-labels")) == ["0101", "0201"]


@pytest.mark.rule("C 8")
def test_movement_example_as_svg():
    """The Anne-Marie assault (C 8 Movement Example) from the same marks as the bokeh map."""
    run = replay_movement_example(ScriptedDice(PRINTED_DICE))
    phase = run.phase
    starts = {uid: phase.state.label(rec.start) for uid, rec in phase.records.items()}
    units, paths, vps, fires = citadel_marks(phase.state, phase.summary(), run.shots, starts)
    svg, alt = draw_map_svg(phase.state.map, units, paths, vps, fires, title="C 8 Movement Example")
    root = ET.fromstring(svg)
    shown = [u for u in units if not u.eliminated]
    assert sorted(texts(root, "unit-labels")) == sorted(u.id for u in shown)
    steps = sum(len(p.hexes) - 1 for p in paths)
    assert len(group(root, "path-arrows").findall("s:line", NS)) == steps
    assert len(group(root, "fire-lines").findall("s:line", NS)) == len(fires) > 0
    assert len(texts(root, "vp-labels")) == len({v.hex for v in vps}) > 0
    assert group(root, "strongpoints").findall("s:polygon", NS)
    assert any(g.get("class", "").startswith("hexside-") for g in root.iter("{http://www.w3.org/2000/svg}g"))
    assert alt == describe(phase.state.map, units, paths, vps, fires, "C 8 Movement Example")
    for el in root.iter():                                              # every coordinate is a number
        for key in ("x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "width", "height"):
            if key in el.attrib:
                assert math.isfinite(float(el.get(key))), (el.tag, key)
        for pair in (el.get("points") or "").split():
            assert all(math.isfinite(float(v)) for v in pair.split(","))
    assert SvgMap(svg, alt)._repr_svg_() == svg
