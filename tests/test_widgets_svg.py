"""The live widgets without bokeh (as in the live edition): their maps are SVG, drawn from the same marks as the
bokeh maps, and every change redraws them."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("ipywidgets")

from widgets.citadel import AnneMarieLive  # noqa: E402
from widgets.citadel_melee import MeleeLive  # noqa: E402
from widgets.fte import AssaultLive  # noqa: E402


def test_anne_marie_svg_map_follows_the_dice():
    live = AnneMarieLive(svg=True)
    first = live.map.value
    assert first.startswith("<svg") and 'class="units"' in first and 'class="fire-lines"' in first
    assert first.count('class="pin-badges"') == 1           # the printed outcome pins battalions
    live.dice[0].value = 6 if live.dice[0].value != 6 else 1
    assert live.map.value != first
    live.printed()
    assert live.map.value == first


def test_melee_svg_map_follows_the_choices():
    live = MeleeLive(svg=True)
    first = live.map.value
    assert first.startswith("<svg") and "Anne-Marie: the melee" in first
    for die in live.dice:
        die.value = 6
    assert live.map.value != first
    live.target.value = "1316"
    assert "1316" in live.map.value


def test_assault_svg_map_shows_the_assault_hexes_and_short_labels():
    live = AssaultLive(svg=True)
    svg = live.map.value
    assert svg.startswith("<svg") and "20.19" in svg and "NVA FT" in svg
    assert "slope (between elevations)" in svg                 # FTE's own style, not hexmap's
    before = svg
    live.dice.value = "1 3 9 9 9 10 6 2 8 2 9 3"
    assert live.map.value != before


NO_BOKEH = textwrap.dedent("""
    import sys
    for m in ("bokeh", "jupyter_bokeh"):
        sys.modules[m] = None
    from wargames.viz.optional import HAVE_BOKEH
    assert not HAVE_BOKEH
    from widgets.citadel import AnneMarieLive, anne_marie_static
    from widgets.citadel_melee import MeleeLive
    from widgets.fte import AssaultLive
    from widgets.indochina import OddsShiftsLive
    from widgets.ntnd import CombatGridLive
    from widgets.ntnd_politics import ElectionLive
    for cls in (AnneMarieLive, MeleeLive, AssaultLive):
        w = cls()
        assert w.svg and w.map.value.startswith("<svg"), cls
        w.widget()
    for cls in (OddsShiftsLive, CombatGridLive, ElectionLive):
        cls().widget()
    from wargames.citadel import Game
    from widgets.citadel_scenario import play_setup, setup_map
    from wargames.viz.svg import SvgMap
    g = Game.new("scenario1", seed=1)
    play_setup(g)
    fig, summary = setup_map(g.state, "Scenario 1", "s1")
    assert isinstance(fig, SvgMap) and fig.svg.startswith("<svg") and "Scenario 1" in summary
    from widgets.layout import aria_map
    aria_map(fig, summary)
    assert fig.svg.count("aria-label=") == 1 and summary.split(":")[0] in fig.svg.split("aria-label=")[1][:40]
    try:
        anne_marie_static()
    except ImportError as e:
        assert "needs bokeh" in str(e), e
    else:
        raise AssertionError("the static widget drew without bokeh")
    from wargames import indochina
    from widgets.indochina_play import phase_map, region, unit_marks
    game = indochina.Game.new("scenario1", seed=1)
    marks = unit_marks(game)
    box, words = phase_map(game, [("set-up", marks), ("none left", [])], region(game, (17, 40), (1, 26)), "Tonkin")
    select, view = box.children
    first = view.value
    assert first.startswith("<svg") and 'class="units"' in first and "set-up" in words
    select.value = "none left"
    assert view.value != first and 'class="units"' in view.value and "none left" in view.value
    print("ok")
""")


@pytest.mark.long
def test_live_widgets_work_where_bokeh_cannot_load():
    done = subprocess.run([sys.executable, "-c", NO_BOKEH], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("ok")
