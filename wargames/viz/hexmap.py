"""Bokeh hex maps: terrain, hexside features, units, movement paths, vulnerability points and fire lines.

Flat-topped hexes are drawn with bokeh's ``hex_tile`` (orientation ``"flattop"``) from the axial (q, r)
of :class:`~wargames.core.hexgrid.Hex`. bokeh's flat-top conversion already negates y
(``y = -size * sqrt(3) * (r + q/2)``), so rows grow downwards and columns to the right, as on a printed
map; :func:`center` is that same conversion and every other glyph is placed with it.

Colours come from colour-blind-safe palettes (Paul Tol's "light" scheme for terrain, Okabe-Ito for the
sides and overlays), and every colour has a redundant cue: a text code in each hex, line dashes for hexside
features, marker shapes for the sides, a "P" badge for pinned units. :func:`draw_map` also returns an alt
text that describes the position in words.

The engine never imports this module; it only reads engine data (:class:`MapData`, unit states, the
movement summary and the list of shots).
"""
from __future__ import annotations

import functools
import html
import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Sequence

from .optional import bokeh_name, bokeh_names

from ..core.hexgrid import Hex
from ..core.mapdata import MapData

column = bokeh_name("bokeh.layouts", "column")
(Arrow, ColumnDataSource, Div, HoverTool, Legend, LegendItem, Title, VeeHead) = bokeh_names(
    "bokeh.models", "Arrow", "ColumnDataSource", "Div", "HoverTool", "Legend", "LegendItem", "Title", "VeeHead")
figure = bokeh_name("bokeh.plotting", "figure")
dodge = bokeh_name("bokeh.transform", "dodge")

SQRT3 = math.sqrt(3)

# Paul Tol's "light" scheme (made for cells that carry text); clear ground is a neutral off-white.
TERRAIN_COLORS = {
    "clear": "#F4F4EC", "full_jungle": "#44BB99", "partial_jungle": "#BBCC33", "hill": "#EEDD88",
    "swamp": "#77AADD", "monsoon_swamp": "#99DDFF", "airfield": "#DDDDDD",
    "woods": "#44BB99", "village": "#FFAABB",
    # Indochina
    "jungle": "#44BB99", "mountain": "#EEDD88", "cultivated": "#DDEEAA", "all_sea": "#77AADD", "all_lake": "#99DDFF",
}
TERRAIN_CODES = {"clear": "", "full_jungle": "J", "partial_jungle": "j", "hill": "H", "swamp": "S",
                 "monsoon_swamp": "M", "airfield": "A", "woods": "W", "village": "V",
                 "jungle": "J", "mountain": "Mt", "cultivated": "c", "all_sea": "~", "all_lake": "~"}
FEATURE_CODES = {"road": "r", "trench": "t", "tunnel": "u", "weapons_pit": "w", "armor_bunker": "b",
                 "trail": ":", "town": "T", "city": "C", "fortification": "F"}
# Hexside features: colour, dash, width and cap (Okabe-Ito colours plus Tol's dark green).
SIDE_STYLES = {
    "river": ("#56B4E9", "solid", 6, "round"),
    "full_jungle": ("#117733", "solid", 5, "round"),
    "hill": ("#AA7733", "dashdot", 5, "butt"),
    "drainage_ditch": ("#CC79A7", [1, 7], 5, "round"),
    "barbed_wire": ("#000000", [5, 3], 3, "butt"),
}
# Okabe-Ito: blue and orange differ in hue for every common colour-vision deficiency, and in lightness too.
SIDE_COLORS = {"French": "#0072B2", "Vietminh": "#E69F00"}
SIDE_TEXT = {"French": "white", "Vietminh": "black"}
OTHER_SIDE_COLORS = ["#009E73", "#CC79A7", "#56B4E9", "#F0E442"]
PATH_COLOR = "#D55E00"      # vermillion movement arrows
FIRE_COLOR = "#0072B2"      # blue dashed fire lines
VP_COLOR = "#F0E442"        # yellow star, black outline
HIGHLIGHT_COLOR = "#CC79A7"


# --------------------------------------------------------------------------- geometry

def center(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Drawing coordinates of a hex centre: bokeh's flat-top ``hex_tile`` conversion (y up, rows down)."""
    return 1.5 * size * h.q, -SQRT3 * size * (h.r + h.q / 2)


@functools.lru_cache(maxsize=64)
def _centers(hexes: tuple[Hex, ...], size: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The x and the y of each hex centre (pages that swap outcomes draw the same crop again and again)."""
    xs, ys = zip(*(center(h, size) for h in hexes))
    return xs, ys


def corners(h: Hex, size: float = 1.0) -> list[tuple[float, float]]:
    """The six vertices of a flat-topped hex, counter-clockwise from the right-hand one."""
    x, y = center(h, size)
    return [(x + size * math.cos(math.radians(60 * i)), y + size * math.sin(math.radians(60 * i)))
            for i in range(6)]


def hexside_segment(a: Hex, b: Hex, size: float = 1.0, offset: float = 0.0) -> tuple[tuple[float, float], ...]:
    """End points of the edge shared by two adjacent hexes.

    The edge is perpendicular to the centre-to-centre vector at its midpoint, with half-length ``size/2``.
    ``offset`` moves it along that vector (towards ``b`` when positive), to draw two features side by side.
    """
    if not a.is_adjacent(b):
        raise ValueError(f"{a} and {b} are not adjacent")
    (xa, ya), (xb, yb) = center(a, size), center(b, size)
    dx, dy = xb - xa, yb - ya
    d = math.hypot(dx, dy)
    ux, uy = dx / d, dy / d
    mx, my = (xa + xb) / 2 + ux * offset, (ya + yb) / 2 + uy * offset
    half = size / 2
    return (mx - uy * half, my + ux * half), (mx + uy * half, my - ux * half)


# --------------------------------------------------------------------------- what to draw

@dataclass(frozen=True)
class UnitMark:
    """A counter on the map. ``hex`` is a label or a :class:`Hex`; eliminated units are not drawn
    (their ``hex`` may be None) but the alt text names them."""

    id: str
    hex: str | Hex | None
    side: str
    strength: int | None = None
    losses: int = 0
    pinned: bool = False
    inverted: bool = False
    eliminated: bool = False
    name: str = ""

    @property
    def status(self) -> str:
        bits = [f"{self.strength} SP"] if self.strength is not None else []
        bits += [f"-{self.losses}"] if self.losses else []
        bits += ["inverted"] if self.inverted else []
        bits += ["pinned"] if self.pinned else []
        return ", ".join(bits)


@dataclass(frozen=True)
class PathMark:
    """A movement path: the hexes in order, starting with the hex the unit left."""

    unit: str
    hexes: tuple[str | Hex, ...]


@dataclass(frozen=True)
class VPMark:
    """A vulnerability point (C 8): the unit, the hex and its number in the unit's move."""

    unit: str
    hex: str | Hex
    number: int
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class FireMark:
    """A shot: a dashed line from the firer's hex to the target hex, labelled ``"<firer>: <result>"``."""

    firer: str
    source: str | Hex
    target_hex: str | Hex
    target: str = ""
    result: str = ""        # short, printed on the line after the firer, e.g. "11-14, roll 2 -> 2P"
    outcome: str = ""       # in words, for the alt text, e.g. "2 losses, pinned"


def _hex(m: MapData, h: str | Hex) -> Hex:
    return h if isinstance(h, Hex) else m.parse(h)


def _name(s: str) -> str:
    return s.replace("_", " ")


def _side_color(side: str, extra: dict[str, str]) -> str:
    if side not in SIDE_COLORS and side not in extra:
        extra[side] = OTHER_SIDE_COLORS[len(extra) % len(OTHER_SIDE_COLORS)]
    return SIDE_COLORS.get(side) or extra[side]


def _stack_offsets(n: int, step: float = 0.34) -> list[float]:
    """Vertical offsets for ``n`` counters in one hex, so none hides another completely."""
    return [((n - 1) / 2 - i) * step for i in range(n)]


def unit_positions(m: MapData, units: Iterable[UnitMark], size: float = 1.0) -> dict[str, tuple[float, float]]:
    """Where each visible counter is drawn: its hex centre, spread vertically when a hex holds several."""
    by_hex: dict[Hex, list[UnitMark]] = defaultdict(list)
    for u in units:
        if not u.eliminated:
            by_hex[_hex(m, u.hex)].append(u)
    out = {}
    for h, us in by_hex.items():
        x, y = center(h, size)
        for u, dy in zip(us, _stack_offsets(len(us), 0.34 * size)):
            out[u.id] = (x, y + 0.06 * size + dy)
    return out


# --------------------------------------------------------------------------- overlay data

# The overlay columns that change from one outcome to another, by renderer name (see overlay_data).
DYNAMIC_TILE_COLUMNS = ("code_x", "code_align", "vps")


def _sorted_hexes(m: MapData, hexes: Iterable[Hex] | None = None) -> list[Hex]:
    """The drawn hexes in label order: all of the map's, or the crop ``hexes`` (kept in its order if a list)."""
    if isinstance(hexes, list):
        return [h for h in hexes if h in m.hexes]
    return sorted((h for h in (m.hexes if hexes is None else hexes) if h in m.hexes), key=m.label)


def action_hexes(m: MapData, units: Sequence[UnitMark] = (), paths: Sequence[PathMark] = (),
                 vps: Sequence[VPMark] = (), fire_lines: Sequence[FireMark] = (), margin: int = 1) -> list[Hex]:
    """The hexes of the smallest column-row rectangle holding every mark, widened by ``margin`` hexes.

    A map cropped to these shows the action at a larger scale than the whole sheet would. The list is in
    label order (the order :func:`draw_map` and :func:`overlay_data` draw hexes in).
    """
    marked = [u.hex for u in units if u.hex is not None and not u.eliminated]
    marked += [h for p in paths for h in p.hexes] + [v.hex for v in vps]
    marked += [h for f in fire_lines for h in (f.source, f.target_hex)]
    if not marked:
        return list(m.hexes)
    offs = [m.layout.to_offset(_hex(m, h)) for h in marked]
    c0, c1 = min(c for c, _ in offs) - margin, max(c for c, _ in offs) + margin
    r0, r1 = min(r for _, r in offs) - margin, max(r for _, r in offs) + margin
    inside = [h for h in m.hexes if c0 <= m.layout.to_offset(h)[0] <= c1 and r0 <= m.layout.to_offset(h)[1] <= r1]
    return sorted(inside, key=m.label)


def overlay_data(m: MapData, units: Sequence[UnitMark] = (), paths: Sequence[PathMark] = (),
                 vps: Sequence[VPMark] = (), fire_lines: Sequence[FireMark] = (), size: float = 1.0,
                 hexes: Iterable[Hex] | None = None, dynamic_only: bool = False) -> dict:
    """The column data of every source :func:`draw_map` draws, by renderer name, as plain Python.

    ``hex-tiles`` (terrain plus the units and VPs each hex holds, for the hover), ``units`` (shared by the
    ``unit-labels`` and ``unit-status`` text), ``pin-badges``, ``vps`` (shared by ``vp-labels``),
    ``fire-lines`` (shared by ``fire-labels``) and ``path-arrows``. Pages that swap between precomputed
    outcomes use this without building a figure per outcome. ``hexes`` crops the map to those hexes
    (see :func:`action_hexes`; a list is taken to be in label order already, as that function returns
    it); by default every hex of ``m`` is drawn. ``dynamic_only`` keeps, of the
    ``hex-tiles`` columns, only :data:`DYNAMIC_TILE_COLUMNS` (the ones that depend on the overlays).
    """
    units = list(units)
    hexes = _sorted_hexes(m, hexes)
    xs, ys = _centers(tuple(hexes), size)
    here: dict[Hex, list[UnitMark]] = defaultdict(list)
    for u in units:
        if u.hex is not None and not u.eliminated:
            here[_hex(m, u.hex)].append(u)
    stack = {h: len(us) for h, us in here.items()}    # visible counters per hex
    vps_in: dict[Hex, list[VPMark]] = defaultdict(list)
    for vp in vps:
        vps_in[_hex(m, vp.hex)].append(vp)
    out: dict[str, dict[str, list]] = {}
    # A hex with a vulnerability point shows its code to the left of the VP star (both on the bottom row).
    shifted = {h for h in vps_in if stack.get(h)}
    vp_text = {h: "; ".join(f"{v.unit} VP{v.number}" + (f" ({', '.join(v.reasons)})" if v.reasons else "")
                            for v in marks) or "none" for h, marks in vps_in.items()}
    out["hex-tiles"] = dict(
        code_x=[x - 0.38 * size if h in shifted else x for h, x in zip(hexes, xs)] if shifted else list(xs),
        code_align=["right" if h in shifted else "center" for h in hexes] if shifted else ["center"] * len(hexes),
        vps=[vp_text.get(h, "none") for h in hexes] if vp_text else ["none"] * len(hexes),
    )
    if not dynamic_only:
        infos = [m.hexes[h] for h in hexes]
        codes = []
        for info in infos:
            code = TERRAIN_CODES.get(info.terrain, info.terrain[:1].upper())
            code += "".join(c for f, c in FEATURE_CODES.items() if f in info.features)
            sp = info.attr("strongpoint")
            codes.append(f"{code} {sp}".strip() if sp else code)
        out["hex-tiles"].update(
            q=[h.q for h in hexes], r=[h.r for h in hexes], x=list(xs), y=list(ys),
            label=[m.label(h) for h in hexes],
            terrain=[_name(i.terrain) for i in infos],
            color=[TERRAIN_COLORS.get(i.terrain, "#FFFFFF") for i in infos],
            code=codes,
            features=[", ".join([_name(f) for f in sorted(i.features)]
                                + [f"{k} {v}" for k, v in i.attrs]) or "none" for i in infos],
            provenance=[i.provenance.kind for i in infos],
        )
    src: dict[str, list] = {k: [] for k in ("x0", "y0", "x1", "y1", "lx", "ly", "angle", "text")}
    n = len(fire_lines)
    for i, f in enumerate(fire_lines):
        (fx, fy), (tx, ty) = center(_hex(m, f.source), size), center(_hex(m, f.target_hex), size)
        angle = math.atan2(ty - fy, tx - fx)
        if abs(angle) > math.pi / 2:      # keep the label upright
            angle -= math.copysign(math.pi, angle)
        src["x0"].append(fx), src["y0"].append(fy), src["x1"].append(tx), src["y1"].append(ty)
        t = 0.62 + 0.12 * i / max(n - 1, 1)        # stagger the labels along their lines
        src["lx"].append(fx + t * (tx - fx)), src["ly"].append(fy + t * (ty - fy))
        src["angle"].append(angle)
        src["text"].append(f"{f.firer}: {f.result}" if f.result else f"{f.firer} -> {f.target}")
    out["fire-lines"] = src
    # Movement arrows: one row per step, shortened so that consecutive arrows form a visible chain
    # and an arrow into a hex with counters stops at their edge.
    steps: dict[str, list] = {k: [] for k in ("x0", "y0", "x1", "y1", "unit")}
    for path in paths:
        hexes_ = [_hex(m, h) for h in path.hexes]
        for a, b in zip(hexes_, hexes_[1:]):
            (ax, ay), (bx, by) = center(a, size), center(b, size)
            d = math.hypot(bx - ax, by - ay)
            ux, uy = (bx - ax) / d, (by - ay) / d
            end = 0.22 * size
            if stack.get(b):
                half_w = 0.62 * size
                half_h = (0.34 if uy < 0 else 0.22) * size + 0.17 * size * (stack[b] - 1)
                end = min(half_w / abs(ux) if ux else math.inf, half_h / abs(uy) if uy else math.inf)
                end += 0.06 * size
            steps["x0"].append(ax + 0.22 * size * ux), steps["y0"].append(ay + 0.22 * size * uy)
            steps["x1"].append(bx - end * ux), steps["y1"].append(by - end * uy)
            steps["unit"].append(path.unit)
    out["path-arrows"] = steps
    extra: dict[str, str] = {}
    pos = unit_positions(m, units, size)
    shown = [u for u in units if u.id in pos]
    out["units"] = dict(
        x=[pos[u.id][0] for u in shown], y=[pos[u.id][1] for u in shown],
        color=[_side_color(u.side, extra) for u in shown],
        text_color=[SIDE_TEXT.get(u.side, "black") for u in shown],
        side=[u.side for u in shown],
        text=[u.id for u in shown],
        status=[_counter_status(u) for u in shown],
        # For the counters' own hover: which unit, where, and in what state.
        hex=[m.label(_hex(m, u.hex)) for u in shown],
        detail=[f"{u.name + ', ' if u.name else ''}{u.side}" + (f"; {u.status}" if u.status else "") for u in shown],
    )
    pinned = [u for u in shown if u.pinned]
    out["pin-badges"] = dict(x=[pos[u.id][0] + 0.66 * size for u in pinned],
                             y=[pos[u.id][1] + 0.38 * size for u in pinned], text=["P"] * len(pinned))
    vsrc: dict[str, list] = {"x": [], "y": [], "text": []}
    for h, here_vps in vps_in.items():
        x, y = center(h, size)
        # At the centre (arrows stop short of it), or on the bottom row under counters.
        vsrc["x"].append(x - 0.22 * size), vsrc["y"].append(y - 0.5 * size if stack.get(h) else y)
        vsrc["text"].append("+".join(f"VP{v.number}" for v in here_vps))
    out["vps"] = vsrc
    return out


# --------------------------------------------------------------------------- drawing

def draw_map(m: MapData, units: Sequence[UnitMark] = (), paths: Sequence[PathMark] = (),
             vps: Sequence[VPMark] = (), fire_lines: Sequence[FireMark] = (), title: str | None = None,
             width: int = 900, highlight: Iterable[str | Hex] = (), name: str = "hexmap",
             size: float = 1.0, hexes: Iterable[Hex] | None = None,
             highlight_label: str = "highlighted"):
    """Draw a map with its overlays; return ``(figure, alt_text)``.

    Renderers are named for tests and browser checks: ``hex-tiles``, ``hex-labels``, ``terrain-codes``,
    ``hexside-<feature>``, ``strongpoints``, ``highlight``, ``units``, ``unit-labels``, ``pin-badges``,
    ``vps``, ``fire-lines``; the movement arrows are one :class:`~bokeh.models.Arrow` named ``path-arrows``
    with one row per step. ``hexes`` crops the map (see :func:`action_hexes`); ``highlight_label`` is the
    legend entry of the ``highlight`` outlines.

    Every text on the map is at least 11 px high.
    """
    title = title or m.name
    units = list(units)
    hexes = _sorted_hexes(m, None if hexes is None else set(hexes))
    crop = set(hexes)
    xs, ys = zip(*(center(h, size) for h in hexes))
    aspect = (max(ys) - min(ys) + SQRT3 * size) / (max(xs) - min(xs) + 2 * size)

    p = figure(name=name, title=title, width=width, height=int(width * aspect), match_aspect=True,
               tools="pan,wheel_zoom,box_zoom,reset,save", toolbar_location="above")
    p.x_range.range_padding = p.y_range.range_padding = 0.01
    p.grid.visible = False
    p.axis.visible = False
    p.outline_line_color = None

    data = overlay_data(m, units, paths, vps, fire_lines, size, hexes=hexes)
    infos = [m.hexes[h] for h in hexes]
    tiles = ColumnDataSource(data["hex-tiles"])
    tile_r = p.hex_tile(q="q", r="r", size=size, orientation="flattop", source=tiles, fill_color="color",
                        line_color="#888888", line_width=0.6, name="hex-tiles")
    p.add_tools(HoverTool(renderers=[tile_r], tooltips=[
        ("hex", "@label"), ("terrain", "@terrain"), ("features", "@features"),
        ("vulnerability points", "@vps"), ("map data", "@provenance")]))
    p.text(x="x", y=dodge("y", 0.66 * size), text="label", source=tiles, text_font_size="11px",
           text_align="center", text_baseline="middle", text_color="#444444", name="hex-labels")
    p.text(x="code_x", y=dodge("y", -0.6 * size), text="code", source=tiles, text_font_size="12px",
           text_font_style="bold", text_align="code_align", text_baseline="middle", text_color="#222222",
           name="terrain-codes")

    legend = []
    seen = {}
    for i, info in enumerate(infos):
        seen.setdefault(info.terrain, i)
    for terr, i in seen.items():
        code = TERRAIN_CODES.get(terr, terr[:1].upper())
        label = f"{code}  {_name(terr)}" if code else f"{_name(terr)} (no code)"
        legend.append(LegendItem(label=label, renderers=[tile_r], index=i))

    # -- strongpoints and highlighted hexes
    sp_hexes = [h for h, i in zip(hexes, infos) if "strongpoint" in i.features or i.attr("strongpoint")]
    if sp_hexes:
        # Drawn inside the hex edge, so that wire on the strongpoint's hexsides stays visible.
        r = p.hex_tile(q=[h.q for h in sp_hexes], r=[h.r for h in sp_hexes], size=size, scale=0.86,
                       orientation="flattop", fill_color=None, line_color="black", line_width=2.5,
                       name="strongpoints")
        legend.append(LegendItem(label="strongpoint (name in hex)", renderers=[r]))
    hl = [_hex(m, h) for h in highlight]
    if hl:
        r = p.hex_tile(q=[h.q for h in hl], r=[h.r for h in hl], size=size, scale=0.92, orientation="flattop",
                       fill_color=None, line_color=HIGHLIGHT_COLOR, line_width=4, line_dash="dashed",
                       name="highlight")
        legend.append(LegendItem(label=highlight_label, renderers=[r]))

    # -- hexside features (two features on one side are drawn side by side)
    segs: dict[str, dict[str, list]] = defaultdict(lambda: {"xs": [], "ys": [], "between": []})
    shown_sides = {k: v for k, v in m.hexsides.items() if any(h in crop for h in k)}
    for key, side in sorted(shown_sides.items(), key=lambda kv: sorted(m.label(h) for h in kv[0])):
        a, b = sorted(key)
        feats = sorted(side.features, key=lambda f: list(SIDE_STYLES).index(f) if f in SIDE_STYLES else 99)
        for k, feat in enumerate(feats):
            (ax, ay), (bx, by) = hexside_segment(a, b, size, offset=(k - (len(feats) - 1) / 2) * 0.16 * size)
            segs[feat]["xs"].append([ax, bx])
            segs[feat]["ys"].append([ay, by])
            segs[feat]["between"].append(f"{m.label(a)}/{m.label(b)}")
    for feat in sorted(segs, key=lambda f: list(SIDE_STYLES).index(f) if f in SIDE_STYLES else 99):
        color, dash, lw, cap = SIDE_STYLES.get(feat, ("#555555", "solid", 4, "round"))
        r = p.multi_line(xs="xs", ys="ys", source=ColumnDataSource(segs[feat]), line_color=color,
                         line_dash=dash, line_width=lw, line_cap=cap, name=f"hexside-{feat}")
        legend.append(LegendItem(label=f"{_name(feat)} hexside", renderers=[r]))

    # -- fire lines (under the counters); every overlay renderer exists even when empty, so that a page
    # can swap in the data of another outcome.
    fsrc = ColumnDataSource(data["fire-lines"])
    r = p.segment(x0="x0", y0="y0", x1="x1", y1="y1", source=fsrc, line_color=FIRE_COLOR, line_width=2,
                  line_dash="dashed", line_alpha=0.9, name="fire-lines")
    p.text(x="lx", y="ly", text="text", angle="angle", source=fsrc, text_font_size="11px",
           text_align="center", text_baseline="bottom", text_color=FIRE_COLOR, text_font_style="bold",
           background_fill_color="white", background_fill_alpha=0.75, name="fire-labels")
    if fire_lines:
        legend.append(LegendItem(label="opportunity fire", renderers=[r]))

    # -- movement arrows: one row per step, shortened so that consecutive arrows form a visible chain
    # and an arrow into a hex with counters stops at their edge.
    p.add_layout(Arrow(end=VeeHead(size=11, line_color=PATH_COLOR, line_width=3), name="path-arrows",
                       x_start="x0", y_start="y0", x_end="x1", y_end="y1",
                       source=ColumnDataSource(data["path-arrows"]),
                       line_color=PATH_COLOR, line_width=3.5, line_alpha=0.9))
    if paths:
        # Arrows cannot be legend entries; a line of the same style stands in for them.
        r = p.line(x=[math.nan], y=[math.nan], line_color=PATH_COLOR, line_width=3.5)
        legend.append(LegendItem(label="movement (arrow per hex)", renderers=[r]))

    # -- counters
    usrc = ColumnDataSource(data["units"])
    counters = p.rect(x="x", y="y", width=1.24 * size, height=0.56 * size, source=usrc, fill_color="color",
                      line_color="black", line_width=1.2, name="units", level="overlay")
    p.add_tools(HoverTool(renderers=[counters], tooltips=[("unit", "@text"), ("hex", "@hex"), ("status", "@detail")]))
    p.text(x="x", y=dodge("y", 0.12 * size), text="text", source=usrc, text_color="text_color",
           text_font_size="11px", text_font_style="bold", text_align="center", text_baseline="middle",
           name="unit-labels", level="overlay")
    p.text(x="x", y=dodge("y", -0.15 * size), text="status", source=usrc,
           text_color="text_color", text_font_size="11px", text_align="center", text_baseline="middle",
           name="unit-status", level="overlay")
    first = {}
    for i, side in enumerate(data["units"]["side"]):
        first.setdefault(side, i)
    legend += [LegendItem(label=f"{side} unit", renderers=[counters], index=i) for side, i in first.items()]
    bsrc = ColumnDataSource(data["pin-badges"])
    r = p.scatter(x="x", y="y", source=bsrc, marker="circle", size=16, fill_color="white",
                  line_color="black", line_width=1.5, name="pin-badges", level="overlay")
    p.text(x="x", y="y", text="text", source=bsrc, text_font_size="11px", text_font_style="bold",
           text_align="center", text_baseline="middle", level="overlay")
    if any(u.pinned for u in units):
        legend.append(LegendItem(label="P  pinned", renderers=[r]))

    # -- vulnerability points
    vsrc = ColumnDataSource(data["vps"])
    r = p.scatter(x="x", y="y", source=vsrc, marker="star", size=13, fill_color=VP_COLOR,
                  line_color="black", line_width=1.2, name="vps")
    p.text(x=dodge("x", 0.16 * size), y="y", text="text", source=vsrc, text_font_size="11px",
           text_font_style="bold", text_align="left", text_baseline="middle", name="vp-labels")
    if vps:
        legend.append(LegendItem(label="vulnerability point (VPn)", renderers=[r]))

    # Room below the map for the legend (about 22 px a row) and the codes line.
    p.height += 90 + 26 * math.ceil(len(legend) / 4)
    p.add_layout(Legend(items=legend, ncols=4, location="center", label_text_font_size="12px",
                        glyph_width=30, spacing=2, padding=6, margin=4, border_line_color=None), "below")
    present = sorted({f for i in infos for f in i.features if f in FEATURE_CODES})
    if present:
        p.add_layout(Title(text="Codes in hexes: " + ", ".join(f"{FEATURE_CODES[f]} {_name(f)}" for f in present)
                           + "; hexes are labelled column-row as printed.", text_font_size="12px",
                           text_font_style="normal"), "below")
    alt = describe(m, units, paths, vps, fire_lines, title)
    p.tags = [{"alt": alt}]
    return p, alt


def _counter_status(u: UnitMark) -> str:
    bits = [str(u.strength)] if u.strength is not None else []
    bits += [f"-{u.losses}"] if u.losses else []
    bits += ["inv"] if u.inverted else []
    return " ".join(bits)


def with_alt_text(fig, alt: str):
    """The figure with its alt text printed underneath (a Div) and as its accessible name (role img)."""
    fig.html_attributes = {**fig.html_attributes, "role": "img", "aria-label": alt}
    return column(fig, Div(text=f"<p class='map-alt-text'>{html.escape(alt)}</p>", width=fig.width))


# --------------------------------------------------------------------------- alt text

def _describe_map(m: MapData, title: str | None) -> list[str]:
    labels = sorted(m.label(h) for h in m.hexes)
    counts = defaultdict(int)
    for info in m.hexes.values():
        counts[info.terrain] += 1
    terrain = ", ".join(f"{n} {_name(t)}" for t, n in sorted(counts.items(), key=lambda kv: -kv[1]))
    out = [f"{title or m.name}: a hex map of {len(labels)} hexes from {labels[0]} to {labels[-1]} "
           f"(columns increase to the right, rows downwards). Terrain: {terrain}."]
    sps = defaultdict(list)
    for h, info in m.hexes.items():
        if info.attr("strongpoint"):
            sps[info.attr("strongpoint")].append(m.label(h))
    if sps:
        out.append("Strongpoints: " + "; ".join(f"{k} in {', '.join(sorted(v))}" for k, v in sorted(sps.items()))
                   + ".")
    return out


def describe(m: MapData, units: Sequence[UnitMark] = (), paths: Sequence[PathMark] = (),
             vps: Sequence[VPMark] = (), fire_lines: Sequence[FireMark] = (), title: str | None = None,
             map_part: bool = True) -> str:
    """The position in words: map extent, terrain, strongpoints, units, paths, vulnerability points, shots.

    ``map_part=False`` leaves out the map itself (extent, terrain, strongpoints) and starts with the units.
    """
    lab = lambda h: m.label(_hex(m, h))  # noqa: E731
    out = _describe_map(m, title) if map_part else []
    sides: dict[str, list[str]] = defaultdict(list)
    for u in units:
        if u.eliminated:
            sides[u.side].append(f"{u.id} eliminated")
        else:
            sides[u.side].append(f"{u.id} in {lab(u.hex)}" + (f" ({u.status})" if u.status else ""))
    for side, txt in sides.items():
        out.append(f"{side} units: " + "; ".join(txt) + ".")
    by_unit = defaultdict(list)
    for vp in vps:
        by_unit[vp.unit].append(vp)
    for path in paths:
        hexes = [lab(h) for h in path.hexes]
        s = f"{path.unit} moved {len(hexes) - 1} hexes: {' - '.join(hexes)}"
        mine = by_unit.get(path.unit, [])
        if mine:
            s += f"; vulnerability point{'s' * (len(mine) > 1)} "
            s += ", ".join(f"VP{v.number} in {lab(v.hex)}" for v in mine)
        out.append(s + ".")
    for f in fire_lines:
        out.append(f"{f.firer} in {lab(f.source)} fired at {f.target or 'the hex'} in {lab(f.target_hex)}"
                   + (f": {f.outcome or f.result}" if f.outcome or f.result else "") + ".")
    return " ".join(out)


# --------------------------------------------------------------------------- Citadel

def citadel_marks(state, run_summary: dict | None = None, shots: Sequence[dict] | None = None,
                  starts: dict[str, str] | None = None):
    """Turn a :class:`CitadelState`, a movement summary and a list of shots into marks for :func:`draw_map`.

    A path starts at ``starts[unit]``, else at the summary's ``"start"`` entry when it has one, else at the
    first hex entered (then the first step has no arrow).
    """
    lab = state.map.label
    units = [UnitMark(u.id, u.hex, u.side.value, u.strength, u.losses, u.pinned, u.inverted, u.eliminated,
                      u.counter.name)
             for u in state.units.values() if u.on_board or u.eliminated]
    paths, vps = [], []
    for uid, rec in (run_summary or {}).items():
        start = (starts or {}).get(uid) or rec.get("start")
        hexes = [start] if start and start != rec["path"][0] else []
        paths.append(PathMark(uid, tuple(hexes + list(rec["path"]))))
        vps += [VPMark(uid, v["hex"], v["number"], tuple(v.get("reasons", ()))) for v in rec.get("vps", ())]
    fires = []
    for s in shots or ():
        firer = state.units[s["firer"]]
        code = s["code"]
        roll = f", roll {s['roll']}" if s.get("roll") is not None else ""
        outcome = f"column {s['column']}{roll}, " + (
            "no effect" if code in ("-", "", None) else f"result {code}" + (", pinned" if s.get("pinned") else ""))
        fires.append(FireMark(s["firer"], lab(firer.hex), s["hex"], s["target"],
                              f"{s['column']}{roll} -> {code}", outcome))
    return units, paths, vps, fires


def citadel_map(state, run_summary: dict | None = None, shots: Sequence[dict] | None = None,
                starts: dict[str, str] | None = None, **kw):
    """A Citadel position with the Movement Example overlays; returns ``(figure, alt_text)``.

    ``state`` gives the map and where the units are now; ``run_summary`` is ``MovementPhase.summary()``;
    ``shots`` is ``ExampleRun.shots``; ``starts`` maps a unit to the hex its move began in.
    """
    units, paths, vps, fires = citadel_marks(state, run_summary, shots, starts)
    kw.setdefault("name", "citadel-map")
    return draw_map(state.map, units, paths, vps, fires, **kw)


def movement_example_map(run, **kw):
    """:func:`citadel_map` for an ``ExampleRun`` (from ``replay_movement_example``): the end position,
    each battalion's path from the hex it started in, its vulnerability points and every shot."""
    phase = run.phase
    starts = {uid: phase.state.label(rec.start) for uid, rec in phase.records.items()}
    kw.setdefault("title", "C 8 Movement Example: the Anne-Marie assault")
    return citadel_map(phase.state, phase.summary(), run.shots, starts=starts, **kw)
