"""The comparison part in the browser: the engagement chapter draws one outcome chart per game, each named
with its figures in words; the sensitivity chapter draws its curves."""
from __future__ import annotations

import pytest

from wargames.viz.charts import TITLES

from .helpers import HTML_DIR
from .test_reader import PLOT_NAMES_JS

pytestmark = pytest.mark.browser

ENGAGEMENT = "book/compare/engagement.html"
SENSITIVITY = "book/compare/sensitivity.html"


@pytest.mark.skipif(not (HTML_DIR / ENGAGEMENT).exists(), reason="no built book: run `make book`")
def test_engagement_chapter_draws_the_four_distribution_charts(open_page):
    book = open_page(ENGAGEMENT)
    book.wait_for_bokeh(4)
    labels = [p["label"] for p in book.page.evaluate(PLOT_NAMES_JS)]
    for title in TITLES.values():
        mine = [label for label in labels if label.startswith(f"{title}, ")]
        assert len(mine) == 1, (title, labels)
        assert "position taken" in mine[0] and "attacker wiped out" in mine[0] and "%" in mine[0]
    drawn = [p for p in book.bokeh_plots() if p["visible"]]
    assert len(drawn) >= 4 and all(p["canvasArea"] > 0 and p["colours"] >= 2 for p in drawn)
    assert book.page.locator("table").filter(has_text="position taken").count() >= 1
    book.assert_clean()


@pytest.mark.skipif(not (HTML_DIR / SENSITIVITY).exists(), reason="no built book: run `make book`")
def test_sensitivity_chapter_draws_every_games_curve(open_page):
    book = open_page(SENSITIVITY)
    book.wait_for_bokeh(5)
    labels = " ".join(p["label"] for p in book.page.evaluate(PLOT_NAMES_JS))
    assert "against the force ratio" in labels
    for title in TITLES.values():
        assert f"{title} (" in labels and f"{title}, " in labels, title
    book.assert_clean()
