"""Front Toward Enemy maps: :func:`wargames.viz.hexmap.draw_map` with FTE terrain, slopes, counters and sight lines.

What this adds to the generic map:

- FTE terrain colours (Paul Tol's "light" scheme, colour-blind safe) with a text code in every hex
  (H hamlet, G grass, Pd rice paddy, J jungle; clear has none; ``:`` trail, ``r`` road, ``u`` tunnel) and an
  up arrow with the elevation for raised hexes (``↑1``);
- slopes: a thick brown line on every hexside between hexes of different elevation (F 7.3.2), plus any slope
  a map file names; the hover shows each hex's elevation;
- counters coloured by side (Okabe-Ito: US bluish green, NVA orange, VC grey) with their status markers as
  short codes (C concealed, S suppressed, B broken, Ex exhausted, AC activation complete, ...);
- lines of sight: solid for a clear line, dashed with "no LoS" for a blocked one;
- ``region``: a column range, so the west excerpt (columns 17-25) and the east one (57-63) of the
  demonstration map can be drawn on their own; a second pair of numbers also limits the rows, so a map can be
  cropped to the hexes of one action;
- every text on the map (hex labels, codes, counters, legend) is at least :data:`MIN_TEXT_PX` pixels high.

The alt text is the generic description plus the slopes and the sight lines.
"""
from __future__ import annotations

import math
import re
from fractions import Fraction
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from ..core.hexgrid import Hex, hexside
from ..core.mapdata import MapData, SideInfo
from .hexmap import PathMark, UnitMark, center, describe, draw_map, overlay_data, with_alt_text
from .optional import bokeh_name, bokeh_names
from .svg import Line, MapStyle, draw_map_svg

value = bokeh_name("bokeh.core.property.vectorization", "value")
(ColumnDataSource, GlyphRenderer, HoverTool, Legend, LegendItem, Text, Title) = bokeh_names(
    "bokeh.models", "ColumnDataSource", "GlyphRenderer", "HoverTool", "Legend", "LegendItem", "Text", "Title")


def as_hex(m, h):
    """A hex from a label of map ``m`` (or a hex as it is)."""
    return h if isinstance(h, Hex) else m.layout.parse(h, source=m.name)

FTE_TERRAIN_COLORS = {"clear": "#F4F4EC", "hamlet": "#FFAABB", "grass": "#BBCC33", "rice_paddy": "#99DDFF",
                      "jungle": "#44BB99"}
FTE_TERRAIN_CODES = {"clear": "", "hamlet": "H", "grass": "G", "rice_paddy": "Pd", "jungle": "J"}
FTE_FEATURE_CODES = {"trail": ":", "road": "r", "tunnel": "u"}
SIDE_FILL = {"US": "#009E73", "NVA": "#E69F00", "VC": "#BBBBBB"}
SLOPE_COLOR = "#AA7733"
CLEAR_COLOR = "#0072B2"
BLOCKED_COLOR = "#D55E00"
STATUS_CODES = {"concealed": "C", "suppressed": "S", "broken": "B", "exhausted": "Ex", "activated": "AC",
                "op_fired": "OF", "low_ammo": "LA", "hero": "Hero", "immobilized": "Imm", "downed": "Dn",
                "injury": "Inj"}
ALTITUDE_CODES = {"high": "High", "treetop": "TT", "ground": "Gnd"}
MIN_TEXT_PX = 11   # the smallest text on a map a projector or a phone can still show legibly


def _px(size) -> float | None:
    """A CSS font size ("8pt", "13px", "1em") in pixels (None when it is not a plain length)."""
    m = re.fullmatch(r"\s*([0-9.]+)\s*(px|pt|em|rem)\s*", str(size or ""))
    if not m:
        return None
    return float(m[1]) * {"px": 1.0, "pt": 4 / 3, "em": 16.0, "rem": 16.0}[m[2]]


def enlarge_text(fig, min_px: float = MIN_TEXT_PX):
    """Raise every text size of a figure (text glyphs, legend, titles) to at least ``min_px`` pixels."""
    def bigger(size):
        px = _px(size)
        return size if px is not None and px >= min_px else f"{min_px:g}px"
    for r in fig.select(type=GlyphRenderer):
        if isinstance(r.glyph, Text) and isinstance(r.glyph.text_font_size, str):
            r.glyph.text_font_size = bigger(r.glyph.text_font_size)
    for legend in fig.select(type=Legend):
        legend.label_text_font_size = bigger(legend.label_text_font_size)
    for title in fig.select(type=Title):
        title.text_font_size = bigger(title.text_font_size)
    return fig


@dataclass(frozen=True)
class FteUnitMark(UnitMark):
    """A counter with its FTE status markers (names from :data:`STATUS_CODES`) and, for helicopters, altitude."""

    marks: tuple[str, ...] = ()
    altitude: str | None = None

    @property
    def status(self) -> str:
        bits = ["activation complete" if m == "activated" else m.replace("_", " ") for m in self.marks]
        if self.altitude:
            bits.append(f"{self.altitude} level")
        return ", ".join(bits)

    @property
    def codes(self) -> str:
        bits = [STATUS_CODES.get(m, m) for m in self.marks]
        if self.altitude:
            bits.append(ALTITUDE_CODES[self.altitude])
        return " ".join(bits)


@dataclass(frozen=True)
class SightMark:
    """A line of sight between two hex centres, and whether it is clear."""

    source: str | Hex
    target: str | Hex
    clear: bool
    label: str = ""
    reason: str = ""


def unit_marks(state, ids: Iterable[str] | None = None) -> list[FteUnitMark]:
    """Marks for the units of an :class:`~wargames.fte.state.FteState` on the map (all, or those named)."""
    out = []
    for u in state.units.values():
        if (ids is not None and u.id not in ids) or not u.on_map:
            continue
        marks = tuple(m for m in STATUS_CODES if getattr(u, m, False))
        name = u.role.replace("_", " ") if u.kind == "infantry" else u.kind
        out.append(FteUnitMark(u.id, u.hex, u.side, name=name, marks=marks, altitude=u.altitude))
    return out


def elevation(m: MapData, h: Hex) -> int:
    return int(m.info(h).attr("elevation", 0))


def _in_region(m: MapData, h: Hex, region: tuple[int, ...] | None) -> bool:
    if region is None:
        return True
    col, row = m.layout.to_offset(h)
    if not region[0] <= col <= region[1]:
        return False
    return len(region) < 4 or region[2] <= row <= region[3]


def region_map(m: MapData, region: tuple[int, ...] | None) -> MapData:
    """The part of a map in a column range (inclusive) and, when ``region`` has four numbers
    ``(first column, last column, first row, last row)``, a row range too; every slope hexside is marked as a
    ``slope`` feature so the generic drawer draws it."""
    hexes = {h: i for h, i in m.hexes.items() if _in_region(m, h, region)}
    sides = {k: s for k, s in m.hexsides.items() if all(h in hexes for h in k)}
    for h in hexes:
        for n in h.neighbors():
            if n in hexes and elevation(m, h) != elevation(m, n):
                key = hexside(h, n)
                old = sides.get(key)
                sides[key] = SideInfo((old.features if old else frozenset()) | {"slope"},
                                      old.provenance if old else hexes[h].provenance)
    name = m.name if region is None else f"{m.name}, columns {region[0]}-{region[1]}" + (
        f", rows {region[2]}-{region[3]}" if len(region) >= 4 else "")
    return replace(m, name=name, hexes=hexes, hexsides=sides)


def _one(fig, name):
    found = fig.select(name=name)
    return found[0] if found else None


def draw_fte_map(m: MapData, units: Sequence[UnitMark] = (), paths: Sequence[PathMark] = (),
                 sight: Sequence[SightMark] = (), *, region: tuple[int, ...] | None = None,
                 title: str | None = None, width: int = 720, highlight: Iterable[str | Hex] = (),
                 name: str = "fte-map"):
    """Draw an FTE map (or the columns in ``region``) with counters, paths and sight lines; returns
    ``(figure, alt_text)``."""
    sub = region_map(m, region)
    title = title or sub.name
    fig, _ = draw_map(sub, units, paths, title=title, width=width, highlight=highlight, name=name)
    hexes = sorted(sub.hexes, key=lambda h: sub.label(h))
    tiles = _one(fig, "hex-tiles")
    data = dict(tiles.data_source.data)
    infos = [sub.hexes[h] for h in hexes]
    assert data["label"] == [sub.label(h) for h in hexes]
    data["color"] = [FTE_TERRAIN_COLORS.get(i.terrain, "#FFFFFF") for i in infos]
    data["code"] = tile_codes(sub, hexes)
    data["elevation"] = [elevation(sub, h) for h in hexes]
    tiles.data_source.data = data
    for tool in fig.select(type=HoverTool):
        if tiles in (tool.renderers if isinstance(tool.renderers, list) else []):
            tool.tooltips = list(tool.tooltips[:2]) + [("elevation", "@elevation")] + [
                t for t in tool.tooltips[2:] if t[0] != "vulnerability points"]
    slope = _one(fig, "hexside-slope")
    if slope is not None:
        slope.glyph.line_color = SLOPE_COLOR
        slope.glyph.line_width = 6
        slope.glyph.line_dash = "solid"
    legend = fig.select(type=Legend)[0]
    for item in legend.items:
        if item.renderers == [tiles] and item.index is not None:
            terr = infos[item.index].terrain
            code = FTE_TERRAIN_CODES.get(terr, "")
            item.label = value(f"{code}  {terr.replace('_', ' ')}" if code else f"{terr.replace('_', ' ')} (no code)")
        elif slope is not None and item.renderers == [slope]:
            item.label = value("slope (hexside between elevations)")
    # counters: side colours and status codes
    usrc = _one(fig, "units")
    if usrc is not None and units:
        usrc.data_source.data = _fte_units(dict(usrc.data_source.data), units)
    # lines of sight
    if sight:
        src = {k: [] for k in ("x0", "y0", "x1", "y1", "lx", "ly", "text", "color", "dash", "angle")}
        for s in sight:
            (x0, y0), (x1, y1) = center(as_hex(sub, s.source)), center(as_hex(sub, s.target))
            angle = math.atan2(y1 - y0, x1 - x0)
            if abs(angle) > math.pi / 2:
                angle -= math.copysign(math.pi, angle)
            src["x0"].append(x0), src["y0"].append(y0), src["x1"].append(x1), src["y1"].append(y1)
            src["lx"].append(x0 + 0.55 * (x1 - x0)), src["ly"].append(y0 + 0.55 * (y1 - y0))
            src["text"].append(s.label or ("LoS" if s.clear else "no LoS"))
            src["color"].append(CLEAR_COLOR if s.clear else BLOCKED_COLOR)
            src["dash"].append("solid" if s.clear else "dashed")
            src["angle"].append(angle)
        for clear in (True, False):
            rows = [i for i, c in enumerate(src["color"]) if (c == CLEAR_COLOR) == clear]
            if not rows:
                continue
            part = ColumnDataSource({k: [v[i] for i in rows] for k, v in src.items()})
            r = fig.segment(x0="x0", y0="y0", x1="x1", y1="y1", source=part, line_width=3,
                            line_color=CLEAR_COLOR if clear else BLOCKED_COLOR,
                            line_dash="solid" if clear else "dashed", name=f"sight-{'clear' if clear else 'blocked'}")
            fig.text(x="lx", y="ly", text="text", angle="angle", source=part, text_font_size=f"{MIN_TEXT_PX}px",
                     text_align="center", text_baseline="bottom", text_font_style="bold",
                     text_color=CLEAR_COLOR if clear else BLOCKED_COLOR, background_fill_color="white",
                     background_fill_alpha=0.8)
            legend.items.append(LegendItem(label="line of sight clear (solid)" if clear
                                           else "line of sight blocked (dashed)", renderers=[r]))
    note = status_note(units)
    if note:
        fig.add_layout(Title(text=note, text_font_size=f"{MIN_TEXT_PX}px", text_font_style="normal"), "below")
    enlarge_text(fig)
    alt = describe_fte(sub, units, paths, sight, title)
    fig.tags = [{"alt": alt}]
    return fig, alt


def tile_codes(m: MapData, hexes: Sequence[Hex]) -> list[str]:
    """Each hex's code on an FTE map: terrain, then trail/road/tunnel, then its elevation (↑n)."""
    codes = []
    for h in hexes:
        i = m.hexes[h]
        code = FTE_TERRAIN_CODES.get(i.terrain, i.terrain[:1].upper())
        code += "".join(c for f, c in FTE_FEATURE_CODES.items() if f in i.features)
        if elevation(m, h):
            code += f" ↑{elevation(m, h)}"
        codes.append(code.strip())
    return codes


def status_note(units: Sequence[UnitMark]) -> str:
    """The line decoding the status codes the counters show ("" when none shows one)."""
    present = [m for m in STATUS_CODES if any(m in getattr(u, "marks", ()) for u in units)]
    names = {"activated": "activation complete"}
    return ("Counter codes: " + ", ".join(f"{STATUS_CODES[m]} {names.get(m, m.replace('_', ' '))}" for m in present)
            if present else "")


def draw_fte_map_svg(m: MapData, units: Sequence[UnitMark] = (), paths: Sequence[PathMark] = (),
                     sight: Sequence[SightMark] = (), *, region: tuple[int, ...] | None = None,
                     title: str | None = None, width: int = 720, highlight: Iterable[str | Hex] = (),
                     labels: Sequence[str] | None = None) -> tuple[str, str]:
    """:func:`draw_fte_map` as SVG: FTE's terrain colours and codes, slopes, counters in the side colours with
    their status codes, and the lines of sight; ``labels`` replaces the counters' names (one per unit shown).
    Returns ``(svg, alt_text)``."""
    sub = region_map(m, region)
    lines = tuple(Line(as_hex(sub, s.source), as_hex(sub, s.target), CLEAR_COLOR if s.clear else BLOCKED_COLOR,
                       not s.clear, s.label or ("LoS" if s.clear else "no LoS"),
                       "line of sight clear (solid)" if s.clear else "line of sight blocked (dashed)") for s in sight)

    def restyle(mm: MapData, drawn: list, data: dict) -> None:
        tiles = data["hex-tiles"]
        tiles["color"] = [FTE_TERRAIN_COLORS.get(mm.hexes[h].terrain, "#FFFFFF") for h in drawn]
        tiles["code"] = tile_codes(mm, drawn)
        if units:
            _fte_units(data["units"], units)
            if labels is not None:
                data["units"]["text"] = list(labels)

    note = status_note(units)
    style = MapStyle(terrain_colors=FTE_TERRAIN_COLORS, terrain_codes=FTE_TERRAIN_CODES,
                     side_styles={"slope": (SLOPE_COLOR, "solid", 6, "round")},
                     side_labels={"slope": "slope (between elevations)"}, feature_codes=FTE_FEATURE_CODES,
                     restyle=restyle, lines=lines, notes=(note,) if note else (),
                     alt=describe_fte(sub, units, paths, sight, title))
    return draw_map_svg(sub, units, paths, title=title or sub.name, width=width, highlight=highlight, style=style)


def _fte_units(ud: dict, units: Sequence[UnitMark]) -> dict:
    by_id = {u.id: u for u in units}
    ud["color"] = [SIDE_FILL.get(s, "#FFFFFF") for s in ud["side"]]
    ud["text_color"] = ["black"] * len(ud["side"])
    ud["status"] = [getattr(by_id[t], "codes", "") for t in ud["text"]]
    return ud


def units_data(m: MapData, units: Sequence[UnitMark], region: tuple[int, ...] | None = None) -> dict:
    """The ``units`` source columns of :func:`draw_fte_map` for these counters, without drawing a figure
    (pages that swap between precomputed positions use it)."""
    return _fte_units(overlay_data(region_map(m, region), units)["units"], units)


def describe_fte(m: MapData, units: Sequence[UnitMark] = (), paths: Sequence[PathMark] = (),
                 sight: Sequence[SightMark] = (), title: str | None = None) -> str:
    """The generic description plus raised ground, slopes and lines of sight."""
    out = [describe(m, units, paths, title=title)]
    high = sorted(m.label(h) for h in m.hexes if elevation(m, h))
    if high:
        out.append(f"Raised ground (elevation 1 or more): {', '.join(high)}.")
    slopes = sorted("|".join(sorted(m.label(h) for h in k)) for k, s in m.hexsides.items() if "slope" in s.features)
    if slopes:
        out.append(f"Slopes on {len(slopes)} hexsides (thick brown lines): {', '.join(slopes)}.")
    for s in sight:
        a, b = m.label(as_hex(m, s.source)), m.label(as_hex(m, s.target))
        out.append(f"Line of sight {a} to {b}: {'clear' if s.clear else 'blocked'}"
                   + (f" ({s.reason})" if s.reason else "") + ".")
    return " ".join(out)


def sight_marks(state, pairs: Sequence[tuple[str, str]], **kw) -> list[SightMark]:
    """Trace each (from, to) pair with :func:`wargames.fte.los.line_of_sight` and mark the result."""
    from ..fte.los import line_of_sight
    out = []
    for a, b in pairs:
        s = line_of_sight(state, state.hex(a), state.hex(b), **kw)
        out.append(SightMark(a, b, s.clear, reason=s.reason))
    return out


def tec_html(chart) -> str:
    """The Terrain Effects Chart as an HTML table, every value marked T (rule text), E (forced by a worked
    example) or R (reconstructed by the project), with the source in a tooltip."""
    import html
    marks = {"text": "T", "example": "E", "reconstructed": "R", "printed": "P"}
    cols = ("concealment", "fire", "infantry", "vehicle", "helicopter_air", "helicopter_ground", "blocking")
    heads = ("Concealment", "Fire", "Infantry MP", "Vehicle MP", "Helicopter High/Treetop", "Helicopter Ground",
             "Blocks LoS")

    def fmt(x, col: str) -> str:
        if x is None:
            return "P"
        if isinstance(x, bool):
            return "yes" if x else "no"
        x = Fraction(x)
        whole = x.numerator // x.denominator
        if x.denominator == 2:
            return f"{whole}½" if whole else "½"
        if col in ("concealment", "fire") and x:
            return f"{int(x):+d}"
        return str(int(x))

    def cell(v, col: str) -> str:
        if v is None:
            return "<td>—</td>"
        k = v.provenance.kind
        tip = html.escape(f"{k}: {v.provenance.source}" if v.provenance.source else k)
        style = " style='background:#fff3cd'" if k == "reconstructed" else ""
        return f"<td title='{tip}'{style}>{html.escape(fmt(v.value, col))}<sup>{marks.get(k, '?')}</sup></td>"

    rows = []
    for t, row in chart.terrain.items():
        rows.append(f"<tr><th>{t.replace('_', ' ')}</th>" + "".join(cell(row.get(c), c) for c in cols) + "</tr>")
    for f, row in chart.features.items():
        label = f"{f} (+ added)" if f == "slope" else f"{f} (between connected hexes)"
        rows.append(f"<tr><th>{label}</th>" + "".join(cell(row.get(c), c) for c in cols) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in heads)
    return ("<table class='wg-chart'><caption>Terrain Effects Chart (F TEC): <sup>T</sup> rule text, "
            "<sup>E</sup> forced by a worked example, <sup>R</sup> reconstructed (shaded). P: prohibited."
            f"</caption><thead><tr><th></th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


__all__ = ["MIN_TEXT_PX", "FteUnitMark", "SightMark", "draw_fte_map", "draw_fte_map_svg", "describe_fte", "enlarge_text", "region_map",
           "sight_marks", "tec_html", "unit_marks", "with_alt_text"]
