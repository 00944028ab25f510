"""The live edition's drawing calls: bokeh-free stand-ins with the static book's signatures, drawing SVG.

The live edition (``tools/lite.py``) runs the chapters in the browser's Python, where bokeh cannot load. Its
builder points a chapter's imports of ``show`` and ``output_notebook`` (``bokeh.io``), ``draw_map`` and
``with_alt_text`` (:mod:`wargames.viz.hexmap`) and ``draw_fte_map`` (:mod:`wargames.viz.fte`) here, so the
chapter's map cells run unchanged and draw the same maps with :mod:`wargames.viz.svg`. Arguments that only
matter to bokeh (a renderer ``name``, the hex ``size``) are accepted and ignored.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from ..core.hexgrid import Hex
from ..core.mapdata import MapData
from .fte import SightMark, draw_fte_map_svg
from .hexmap import FireMark, PathMark, UnitMark, VPMark
from .svg import SvgMap, draw_map_svg


def output_notebook(*_args, **_kwargs) -> None:
    """Nothing to load: SVG needs no JavaScript."""


def show(obj) -> None:
    """Display a map (or anything else) in the notebook."""
    from IPython.display import display
    display(obj)


def draw_map(m: MapData, units: Sequence[UnitMark] = (), paths: Sequence[PathMark] = (),
             vps: Sequence[VPMark] = (), fire_lines: Sequence[FireMark] = (), title: str | None = None,
             width: int = 900, highlight: Iterable[str | Hex] = (), name: str = "hexmap", size: float = 1.0,
             hexes: Iterable[Hex] | None = None, highlight_label: str = "highlighted") -> tuple[SvgMap, str]:
    """:func:`wargames.viz.hexmap.draw_map` drawn as SVG; returns ``(map, alt_text)``."""
    svg, alt = draw_map_svg(m, units, paths, vps, fire_lines, title=title, width=width, highlight=highlight,
                            hexes=hexes, highlight_label=highlight_label)
    return SvgMap(svg, alt), alt


def draw_fte_map(m: MapData, units: Sequence[UnitMark] = (), paths: Sequence[PathMark] = (),
                 sight: Sequence[SightMark] = (), *, region: tuple[int, ...] | None = None,
                 title: str | None = None, width: int = 720, highlight: Iterable[str | Hex] = (),
                 name: str = "fte-map") -> tuple[SvgMap, str]:
    """:func:`wargames.viz.fte.draw_fte_map` drawn as SVG; returns ``(map, alt_text)``."""
    svg, alt = draw_fte_map_svg(m, units, paths, sight, region=region, title=title, width=width,
                                highlight=highlight)
    return SvgMap(svg, alt), alt


def with_alt_text(fig: SvgMap, alt: str) -> SvgMap:
    """The map with its alt text printed under it (the SVG already carries it as its title)."""
    return SvgMap(fig.svg, alt, caption=True)
