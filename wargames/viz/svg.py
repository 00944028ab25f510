"""Hex maps as SVG text, in pure Python: the live edition's maps (bokeh cannot load in Pyodide).

:func:`draw_map_svg` takes the inputs of :func:`wargames.viz.hexmap.draw_map` (a map, units, paths, VPs,
fire lines, highlight, crop) and draws the same picture from the same numbers: every position comes from
:func:`~wargames.viz.hexmap.overlay_data`, every colour and code from hexmap's palettes, and the alt text
from :func:`~wargames.viz.hexmap.describe`. Returns ``(svg, alt)``; ``svg`` is a standalone ``<svg>``
element with ``role="img"``, its ``<title>`` the alt text, and a legend drawn under the map.

Drawing coordinates (y up) become SVG pixels (y down) with one scale, so hexes keep their shape. Elements
carry class names like the bokeh renderers' names (``hex-tiles``, ``units``, ``path-arrows``...) for tests.

It loads without bokeh (hexmap's bokeh names are stand-ins there: :mod:`wargames.viz.optional`), so the
live edition draws its maps with it.
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

from ..core.hexgrid import Hex
from ..core.mapdata import MapData
from .hexmap import (FEATURE_CODES, FIRE_COLOR, HIGHLIGHT_COLOR, PATH_COLOR, SIDE_STYLES, TERRAIN_CODES,
                     TERRAIN_COLORS, VP_COLOR, FireMark, PathMark, UnitMark, VPMark, center,
                     citadel_marks, corners, describe, hexside_segment, overlay_data)

LEGEND_ROW = 22
LEGEND_COLUMNS = 3
_DASHES = {"solid": "", "dashed": "6 4", "dashdot": "6 3 2 3"}


@dataclass(frozen=True)
class MapStyle:
    """A game's own look for :func:`draw_map_svg`: terrain colours and codes for the legend, hexside styles
    (colour, dash, width, cap) and their legend labels, the feature codes of the codes line, and
    ``restyle(map, drawn_hexes, overlay_data)``, which may recolour the tiles, recode them or change the
    counters' columns in place before drawing. ``notes``: lines printed under the legend; ``alt``: the alt
    text, when the game describes its maps in its own words."""

    terrain_colors: Mapping[str, str] | None = None
    terrain_codes: Mapping[str, str] | None = None
    side_styles: Mapping[str, tuple] | None = None
    side_labels: Mapping[str, str] = field(default_factory=dict)
    feature_codes: Mapping[str, str] | None = None
    restyle: Callable[[MapData, list, dict], None] | None = None
    lines: tuple[Line, ...] = ()
    notes: tuple[str, ...] = ()
    alt: str | None = None


@dataclass(frozen=True)
class Line:
    """A labelled line between two hex centres (FTE's lines of sight, say), drawn over the fire lines; lines
    with the same legend label share one legend entry."""

    source: Hex
    target: Hex
    color: str
    dashed: bool
    label: str
    legend: str


def _esc(text) -> str:
    return html.escape(str(text), quote=True)


def _fmt(v: float) -> str:
    return f"{v:.1f}"


def _points(pts) -> str:
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in pts)


def _dash(dash) -> str:
    if isinstance(dash, (list, tuple)):
        return " ".join(str(d) for d in dash)
    return _DASHES.get(dash, "")


def draw_map_svg(m: MapData, units: Sequence[UnitMark] = (), paths: Sequence[PathMark] = (),
                 vps: Sequence[VPMark] = (), fire_lines: Sequence[FireMark] = (), title: str | None = None,
                 width: int = 900, highlight: Iterable[str | Hex] = (), hexes: Iterable[Hex] | None = None,
                 highlight_label: str = "highlighted", *, style: MapStyle | None = None) -> tuple[str, str]:
    """Draw a map with its overlays as SVG; return ``(svg, alt_text)`` (see the module docstring). ``style``
    gives a game's own palettes and codes (FTE's, say); by default hexmap's."""
    title = title or m.name
    style = style or MapStyle()
    units = list(units)
    drawn = sorted((h for h in (m.hexes if hexes is None else set(hexes)) if h in m.hexes), key=m.label)
    data = overlay_data(m, units, paths, vps, fire_lines, hexes=drawn)
    if style.restyle is not None:
        style.restyle(m, drawn, data)
    terrain_colors, terrain_codes = style.terrain_colors or TERRAIN_COLORS, style.terrain_codes or TERRAIN_CODES
    side_styles = {**SIDE_STYLES, **(style.side_styles or {})}
    feature_codes = style.feature_codes or FEATURE_CODES
    tiles = data["hex-tiles"]
    xs, ys = tiles["x"], tiles["y"]
    x0, x1 = min(xs) - 1.05, max(xs) + 1.05
    y0, y1 = min(ys) - 0.95, max(ys) + 0.95
    scale = width / (x1 - x0)
    map_h = (y1 - y0) * scale
    top = 30.0  # the title line

    def px(x: float, y: float) -> tuple[float, float]:
        return (x - x0) * scale, top + (y1 - y) * scale

    out: list[str] = []
    legend: list[tuple[str, str]] = []   # (swatch svg at 0,0 .. 24,14, label)

    # -- hexes: fill, outline, label, terrain code
    out.append('<g class="hex-tiles">')
    for h, x, y, color, label, code, cx in zip(drawn, xs, ys, tiles["color"], tiles["label"], tiles["code"],
                                                 tiles["code_x"]):
        info = m.hexes[h]
        out.append(f'<polygon points="{_points(px(*c) for c in corners(h))}" fill="{color}" stroke="#888888" '
                   f'stroke-width="0.8"><title>{_esc(label)}: {_esc(info.terrain.replace("_", " "))}</title></polygon>')
        lx, ly = px(x, y + 0.66)
        out.append(f'<text class="hex-labels" x="{_fmt(lx)}" y="{_fmt(ly)}" font-size="11" fill="#444444" '
                   f'text-anchor="middle" dominant-baseline="middle">{_esc(label)}</text>')
        if code:
            anchor = "middle" if cx == x else "end"
            tx, ty = px(cx, y - 0.6)
            out.append(f'<text class="terrain-codes" x="{_fmt(tx)}" y="{_fmt(ty)}" font-size="12" font-weight="bold" '
                       f'fill="#222222" text-anchor="{anchor}" dominant-baseline="middle">{_esc(code)}</text>')
    out.append("</g>")
    seen: dict[str, None] = {}
    for h in drawn:
        seen.setdefault(m.hexes[h].terrain, None)
    for terr in seen:
        code = terrain_codes.get(terr, terr[:1].upper())
        name = terr.replace("_", " ")
        legend.append((f'<rect width="24" height="14" fill="{terrain_colors.get(terr, "#FFFFFF")}" stroke="#888888"/>',
                       f"{code}  {name}" if code else f"{name} (no code)"))

    # -- strongpoints and highlighted hexes (inset outlines)
    def inset(h: Hex, k: float) -> str:
        cx, cy = center(h)
        return _points(px(cx + k * (vx - cx), cy + k * (vy - cy)) for vx, vy in corners(h))

    sps = [h for h in drawn if "strongpoint" in m.hexes[h].features or m.hexes[h].attr("strongpoint")]
    if sps:
        out.append('<g class="strongpoints">' + "".join(
            f'<polygon points="{inset(h, 0.86)}" fill="none" stroke="black" stroke-width="2.5"/>' for h in sps)
            + "</g>")
        legend.append(('<rect x="2" y="1" width="20" height="12" fill="none" stroke="black" stroke-width="2.5"/>',
                       "strongpoint (name in hex)"))
    hl = [h if isinstance(h, Hex) else m.layout.parse(h, source=m.name) for h in highlight]
    if hl:
        out.append('<g class="highlight">' + "".join(
            f'<polygon points="{inset(h, 0.92)}" fill="none" stroke="{HIGHLIGHT_COLOR}" stroke-width="4" '
            f'stroke-dasharray="8 5"/>' for h in hl) + "</g>")
        legend.append((f'<rect x="2" y="1" width="20" height="12" fill="none" stroke="{HIGHLIGHT_COLOR}" '
                       f'stroke-width="3" stroke-dasharray="5 3"/>', highlight_label))

    # -- hexside features, side by side when one side has two
    inside = set(drawn)
    order = list(side_styles)
    rank = lambda f: order.index(f) if f in order else 99  # noqa: E731
    by_feat: dict[str, list[str]] = {}
    for key, side in sorted(m.hexsides.items(), key=lambda kv: sorted(m.label(h) for h in kv[0])):
        if not any(h in inside for h in key):
            continue
        a, b = sorted(key)
        feats = sorted(side.features, key=rank)
        for k, feat in enumerate(feats):
            (ax, ay), (bx, by) = hexside_segment(a, b, offset=(k - (len(feats) - 1) / 2) * 0.16)
            (sx, sy), (ex, ey) = px(ax, ay), px(bx, by)
            by_feat.setdefault(feat, []).append(
                f'<line x1="{_fmt(sx)}" y1="{_fmt(sy)}" x2="{_fmt(ex)}" y2="{_fmt(ey)}"/>')
    for feat in sorted(by_feat, key=rank):
        color, dash, lw, cap = side_styles.get(feat, ("#555555", "solid", 4, "round"))
        line_style = f'stroke="{color}" stroke-width="{lw}" stroke-linecap="{cap}"'
        if _dash(dash):
            line_style += f' stroke-dasharray="{_dash(dash)}"'
        out.append(f'<g class="hexside-{feat}" {line_style}>' + "".join(by_feat[feat]) + "</g>")
        label = style.side_labels.get(feat) or f"{feat.replace('_', ' ')} hexside"
        legend.append((f'<line x1="0" y1="7" x2="24" y2="7" {line_style}/>', label))

    # -- fire lines, under the counters
    f = data["fire-lines"]
    if f["x0"]:
        out.append(f'<g class="fire-lines" stroke="{FIRE_COLOR}" stroke-width="2" stroke-dasharray="6 4">')
        for a, b, c, d in zip(f["x0"], f["y0"], f["x1"], f["y1"]):
            (sx, sy), (ex, ey) = px(a, b), px(c, d)
            out.append(f'<line x1="{_fmt(sx)}" y1="{_fmt(sy)}" x2="{_fmt(ex)}" y2="{_fmt(ey)}"/>')
        out.append("</g>")
        for lx, ly, angle, text in zip(f["lx"], f["ly"], f["angle"], f["text"]):
            sx, sy = px(lx, ly)
            out.append(f'<text class="fire-labels" x="{_fmt(sx)}" y="{_fmt(sy)}" font-size="11" font-weight="bold" '
                       f'fill="{FIRE_COLOR}" text-anchor="middle" transform="rotate({_fmt(-math.degrees(angle))} '
                       f'{_fmt(sx)} {_fmt(sy)})">{_esc(text)}</text>')
        legend.append((f'<line x1="0" y1="7" x2="24" y2="7" stroke="{FIRE_COLOR}" stroke-width="2" '
                       f'stroke-dasharray="6 4"/>', "opportunity fire"))

    # -- the style's own lines
    if style.lines:
        out.append('<g class="sight-lines">')
        for ln in style.lines:
            (ax, ay), (bx, by) = center(ln.source), center(ln.target)
            (sx, sy), (ex, ey) = px(ax, ay), px(bx, by)
            dash = ' stroke-dasharray="8 5"' if ln.dashed else ""
            out.append(f'<line x1="{_fmt(sx)}" y1="{_fmt(sy)}" x2="{_fmt(ex)}" y2="{_fmt(ey)}" stroke="{ln.color}" '
                       f'stroke-width="3"{dash}/>')
            angle = math.degrees(math.atan2(ey - sy, ex - sx))
            if abs(angle) > 90:
                angle -= math.copysign(180, angle)
            lx, ly = sx + 0.55 * (ex - sx), sy + 0.55 * (ey - sy)
            out.append(f'<text x="{_fmt(lx)}" y="{_fmt(ly - 3)}" font-size="11" font-weight="bold" fill="{ln.color}" '
                       f'text-anchor="middle" transform="rotate({_fmt(angle)} {_fmt(lx)} {_fmt(ly)})">'
                       f"{_esc(ln.label)}</text>")
        out.append("</g>")
        for ln in {ln.legend: ln for ln in style.lines}.values():
            dash = ' stroke-dasharray="6 4"' if ln.dashed else ""
            legend.append((f'<line x1="0" y1="7" x2="24" y2="7" stroke="{ln.color}" stroke-width="3"{dash}/>',
                           ln.legend))

    # -- movement arrows, one per step
    s = data["path-arrows"]
    if s["x0"]:
        out.append(f'<g class="path-arrows" stroke="{PATH_COLOR}" stroke-width="3.5" marker-end="url(#wg-arrow)">')
        for a, b, c, d, unit in zip(s["x0"], s["y0"], s["x1"], s["y1"], s["unit"]):
            (sx, sy), (ex, ey) = px(a, b), px(c, d)
            out.append(f'<line x1="{_fmt(sx)}" y1="{_fmt(sy)}" x2="{_fmt(ex)}" y2="{_fmt(ey)}">'
                       f'<title>{_esc(unit)}</title></line>')
        out.append("</g>")
        legend.append((f'<line x1="0" y1="7" x2="20" y2="7" stroke="{PATH_COLOR}" stroke-width="3.5" '
                       f'marker-end="url(#wg-arrow)"/>', "movement (arrow per hex)"))

    # -- counters, pin badges, vulnerability points
    u = data["units"]
    cw, ch = 1.24 * scale, 0.56 * scale
    out.append('<g class="units">')
    for x, y, color, tcolor, text, status, detail, hx in zip(u["x"], u["y"], u["color"], u["text_color"], u["text"],
                                                             u["status"], u["detail"], u["hex"]):
        sx, sy = px(x, y)
        out.append(f'<g><title>{_esc(text)} in {_esc(hx)}: {_esc(detail)}</title>'
                   f'<rect x="{_fmt(sx - cw / 2)}" y="{_fmt(sy - ch / 2)}" width="{_fmt(cw)}" height="{_fmt(ch)}" '
                   f'fill="{color}" stroke="black" stroke-width="1.2"/>'
                   f'<text class="unit-labels" x="{_fmt(sx)}" y="{_fmt(sy - 0.12 * scale)}" font-size="11" '
                   f'font-weight="bold" fill="{tcolor}" text-anchor="middle" dominant-baseline="middle">{_esc(text)}</text>'
                   f'<text class="unit-status" x="{_fmt(sx)}" y="{_fmt(sy + 0.15 * scale)}" font-size="11" '
                   f'fill="{tcolor}" text-anchor="middle" dominant-baseline="middle">{_esc(status)}</text></g>')
    out.append("</g>")
    first: dict[str, str] = {}
    for side, color in zip(u["side"], u["color"]):
        first.setdefault(side, color)
    legend += [(f'<rect width="24" height="14" fill="{c}" stroke="black"/>', f"{side} unit") for side, c in first.items()]
    b = data["pin-badges"]
    if b["x"]:
        out.append('<g class="pin-badges">')
        for x, y in zip(b["x"], b["y"]):
            sx, sy = px(x, y)
            out.append(f'<circle cx="{_fmt(sx)}" cy="{_fmt(sy)}" r="8" fill="white" stroke="black" stroke-width="1.5"/>'
                       f'<text x="{_fmt(sx)}" y="{_fmt(sy)}" font-size="11" font-weight="bold" text-anchor="middle" '
                       f'dominant-baseline="central">P</text>')
        out.append("</g>")
        legend.append(('<circle cx="12" cy="7" r="7" fill="white" stroke="black"/><text x="12" y="7" font-size="10" '
                       'text-anchor="middle" dominant-baseline="central">P</text>', "P  pinned"))
    v = data["vps"]
    if v["x"]:
        out.append('<g class="vps">')
        for x, y, text in zip(v["x"], v["y"], v["text"]):
            sx, sy = px(x, y)
            out.append(f'<polygon points="{_points(_star(sx, sy, 7))}" fill="{VP_COLOR}" stroke="black" stroke-width="1.2"/>'
                       f'<text class="vp-labels" x="{_fmt(sx + 0.16 * scale)}" y="{_fmt(sy)}" font-size="11" '
                       f'font-weight="bold" dominant-baseline="middle">{_esc(text)}</text>')
        out.append("</g>")
        legend.append((f'<polygon points="{_points(_star(12, 7, 7))}" fill="{VP_COLOR}" stroke="black"/>',
                       "vulnerability point (VPn)"))

    # -- legend and the codes line, under the map
    rows = math.ceil(len(legend) / LEGEND_COLUMNS)
    ly0 = top + map_h + 10
    col_w = width / LEGEND_COLUMNS
    out.append('<g class="legend" font-size="12">')
    for i, (swatch, label) in enumerate(legend):
        gx, gy = (i % LEGEND_COLUMNS) * col_w + 6, ly0 + (i // LEGEND_COLUMNS) * LEGEND_ROW
        out.append(f'<g transform="translate({_fmt(gx)} {_fmt(gy)})">{swatch}'
                   f'<text x="32" y="7" dominant-baseline="middle">{_esc(label)}</text></g>')
    out.append("</g>")
    height = ly0 + rows * LEGEND_ROW + 6
    present = sorted({f for h in drawn for f in m.hexes[h].features if f in feature_codes})
    if present:
        codes = ", ".join(f"{feature_codes[f]} {f.replace('_', ' ')}" for f in present)
        out.append(f'<text class="codes" x="6" y="{_fmt(height + 8)}" font-size="12">Codes in hexes: {_esc(codes)}; '
                   "hexes are labelled column-row as printed.</text>")
        height += 24

    for line in style.notes:
        out.append(f'<text class="codes" x="6" y="{_fmt(height + 8)}" font-size="12">{_esc(line)}</text>')
        height += 24
    alt = style.alt if style.alt is not None else describe(m, units, paths, vps, fire_lines, title)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="wg-hexmap" role="img" width="{width}" '
            f'height="{_fmt(height)}" viewBox="0 0 {width} {_fmt(height)}" font-family="sans-serif">'
            f"<title>{_esc(alt)}</title>"
            f'<defs><marker id="wg-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" '
            f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{PATH_COLOR}"/></marker></defs>'
            f'<text class="title" x="6" y="20" font-size="14" font-weight="bold">{_esc(title)}</text>')
    return head + "".join(out) + "</svg>", alt


def _star(x: float, y: float, r: float) -> list[tuple[float, float]]:
    """A five-pointed star centred on (x, y), point up (SVG y down)."""
    pts = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * i)
        pts.append((x + radius * math.cos(a), y + radius * math.sin(a)))
    return pts


class SvgMap:
    """An SVG map that Jupyter displays inline, with its alt text; ``caption=True`` prints the alt text under
    the map as well (as :func:`wargames.viz.hexmap.with_alt_text` does under a bokeh map)."""

    def __init__(self, svg: str, alt: str, caption: bool = False):
        self.svg, self.alt, self.caption = svg, alt, caption

    def _repr_svg_(self) -> str | None:
        return None if self.caption else self.svg

    def _repr_html_(self) -> str:
        return self.svg + (f"<p class='map-alt-text'>{_esc(self.alt)}</p>" if self.caption else "")

    def __repr__(self) -> str:
        return f"<SvgMap: {self.alt[:80]}...>"


def citadel_map_svg(state, run_summary: dict | None = None, shots: Sequence[dict] | None = None,
                    starts: dict[str, str] | None = None, **kw) -> tuple[str, str]:
    """:func:`wargames.viz.hexmap.citadel_map` as SVG: the same marks, drawn by :func:`draw_map_svg`."""
    return draw_map_svg(state.map, *citadel_marks(state, run_summary, shots, starts), **kw)


def movement_example_svg(run, **kw) -> tuple[str, str]:
    """:func:`wargames.viz.hexmap.movement_example_map` as SVG: the end position of an ``ExampleRun`` with
    each battalion's path from its start, its vulnerability points and every shot."""
    phase = run.phase
    starts = {uid: phase.state.label(rec.start) for uid, rec in phase.records.items()}
    kw.setdefault("title", "C 8 Movement Example: the Anne-Marie assault")
    return citadel_map_svg(phase.state, phase.summary(), run.shots, starts=starts, **kw)
