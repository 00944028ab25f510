"""Charts for the comparison part of the book: one engagement's outcome, sensitivity curves, and what one more
of something is worth. Every chart reads exact figures from :mod:`wargames.compare`; none computes anything.

Each chart carries its figures in words too (its accessible name and a paragraph under it), and the four games
keep one colour each from the Okabe-Ito palette, which stays distinct under the common colour-vision
deficiencies.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from ..compare import MEASURES, Curve, Engagement, Worth, measures, percent
from .hexmap import with_alt_text
from .optional import bokeh_name, bokeh_names

figure = bokeh_name("bokeh.plotting", "figure")
(ColumnDataSource, FixedTicker, LabelSet, Range1d) = bokeh_names(
    "bokeh.models", "ColumnDataSource", "FixedTicker", "LabelSet", "Range1d")

TITLES = {"citadel": "Citadel", "indochina": "Indochina", "fte": "Front Toward Enemy",
          "ntnd": "No Trumpets No Drums"}
#: One Okabe-Ito colour per game (blue, vermillion, bluish green, reddish purple).
COLOURS = {"citadel": "#0072B2", "indochina": "#D55E00", "fte": "#009E73", "ntnd": "#CC79A7"}
#: Line dashes, so that the games differ in shape as well as in colour (and in grey print).
DASHES = {"citadel": "solid", "indochina": "dashed", "fte": "dotdash", "ntnd": "dotted"}


def verdict_words(eng: Engagement) -> str:
    """The engagement's common figures in one sentence (the chart's alt text)."""
    return (f"{TITLES[eng.game]}, {eng.title}: "
            + "; ".join(f"{label} {percent(v)}" for label, v in measures(eng.dist).items()) + ".")


def verdict_chart(eng: Engagement, width: int = 460, height: int = 280):
    """One engagement's exact outcome as horizontal bars, on the common axis 0 to 100%, in the order of
    :data:`wargames.compare.MEASURES` (the same rows for every game)."""
    figs = measures(eng.dist)
    labels = [label for label, _ in MEASURES]
    src = ColumnDataSource({"measure": labels, "value": [float(figs[k]) for k in labels],
                            "text": [percent(figs[k]) for k in labels]})
    p = figure(y_range=list(reversed(labels)), x_range=Range1d(0, 1.12), width=width, height=height,
               title=TITLES[eng.game], toolbar_location=None, tools="")
    p.hbar(y="measure", right="value", height=0.7, source=src, color=COLOURS[eng.game])
    p.add_layout(LabelSet(x="value", y="measure", text="text", source=src, x_offset=4, y_offset=-7,
                          text_font_size="11px"))
    p.xaxis.axis_label = "probability, or mean share of the force lost"
    p.xaxis.ticker = [0, 0.25, 0.5, 0.75, 1]
    p.xaxis.major_label_overrides = {0: "0", 0.25: "25%", 0.5: "50%", 0.75: "75%", 1: "100%"}
    p.ygrid.grid_line_color = None
    return with_alt_text(p, verdict_words(eng))


def _x(v: Fraction) -> float:
    return float(v)


#: Force-ratio ticks of the log axis, as ratios.
RATIO_TICKS = {0.25: "1:4", 0.5: "1:2", 1: "1:1", 2: "2:1", 4: "4:1", 8: "8:1", 16: "16:1"}


def _ratio_axis(p) -> None:
    """A log force-ratio axis labelled as ratios, the legend beside the plot (the labels say what is varied)."""
    p.xaxis.ticker = FixedTicker(ticks=list(RATIO_TICKS))
    p.xaxis.major_label_overrides = {k: v for k, v in RATIO_TICKS.items()}
    p.xaxis.axis_label = "force ratio, attacker to defender (log scale)"
    p.legend.label_text_font_size = "11px"
    p.add_layout(p.legend[0], "right")


def curve_words(curves: Sequence[Curve]) -> str:
    """Every point of every curve in words."""
    return " ".join(
        f"{TITLES[c.game]} ({c.label}): " + ", ".join(f"at {_ratio(x)} {percent(y)}" for x, y in zip(c.xs, c.ys))
        + "." for c in curves)


def _ratio(x: Fraction) -> str:
    x = Fraction(x)
    return f"{x.numerator}:{x.denominator}" if x.denominator != 1 else f"{x.numerator}:1"


def curves_chart(curves: Sequence[Curve], title: str = "Chance of taking the position against the force ratio",
                 width: int = 760, height: int = 340):
    """P(position taken) against the force ratio for each system, on a log ratio axis: odds tables as steps
    (their columns), the modifier systems as lines through their points."""
    p = figure(x_axis_type="log", y_range=Range1d(0, 1.02), width=width, height=height, title=title,
               toolbar_location=None, tools="")
    for c in curves:
        xs, ys = [_x(x) for x in c.xs], [float(y) for y in c.ys]
        kw = dict(color=COLOURS[c.game], line_width=2.5, line_dash=DASHES[c.game], legend_label=TITLES[c.game])
        if c.step:
            p.step(xs, ys, mode="after", **kw)
        else:
            p.line(xs, ys, **kw)
        p.scatter(xs, ys, size=6, color=COLOURS[c.game])
    p.yaxis.axis_label = "P(position taken)"
    _ratio_axis(p)
    return with_alt_text(p, f"{title}. " + curve_words(curves))


def worth_words(worths: Sequence[Worth]) -> str:
    return " ".join(
        f"{TITLES[w.game]}, {w.label}: " + ", ".join(f"at {_ratio(x)} {float(d) * 100:+.1f} points"
                                                     for x, d in zip(w.xs, w.deltas)) + "." for w in worths)


def worth_chart(worths: Sequence[Worth], title: str, width: int = 760, height: int = 300):
    """What one more of each thing adds to P(taken), in percentage points, at each force ratio."""
    p = figure(x_axis_type="log", width=width, height=height, title=title, toolbar_location=None, tools="")
    dashes = ["solid", "dashed", "dotted", "dotdash"]
    for i, w in enumerate(worths):
        xs, ys = [_x(x) for x in w.xs], [float(d) * 100 for d in w.deltas]
        p.line(xs, ys, color=COLOURS[w.game], line_width=2.5, line_dash=dashes[i % len(dashes)],
               legend_label=w.label)
        p.scatter(xs, ys, size=6, color=COLOURS[w.game])
    p.yaxis.axis_label = "change in P(taken), points"
    _ratio_axis(p)
    return with_alt_text(p, f"{title}. " + worth_words(worths))
