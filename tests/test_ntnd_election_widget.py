"""The NT 23 election widget: the static page's lookups against the engine, and the live version."""
import random
from fractions import Fraction

import pytest

from wargames.ntnd.politics import PEACE_PARTY, election_odds
from widgets.common import fraction_text, run_pipeline
from widgets.ntnd_politics import POLICIES, YEARS, ElectionLive, election_static


#: The page is built once (a session fixture) on the one worker that runs these tests (``--dist loadgroup``).
pytestmark = pytest.mark.xdist_group("ntnd-election-widget")


@pytest.fixture(scope="session")
def pipeline():
    return election_static()[1]


@pytest.mark.rule("NT 23.2")
def test_lookups_match_the_engine(pipeline):
    rng = random.Random(7)
    settings = [(y, p, pts) for y in YEARS for p in POLICIES for pts in (0, 99, 100, 149, 150, 300)]
    settings += [(rng.choice(YEARS), rng.choice(list(POLICIES)), rng.randint(0, 300)) for _ in range(200)]
    for year, policy, points in settings:
        v = run_pipeline(pipeline, {"year": str(year), "policy": policy, "points": str(points)})
        p = election_odds(POLICIES[policy][1], year, points).get(PEACE_PARTY, Fraction(0))
        assert v["frac_peace"] == fraction_text(p)
        assert v["p_peace"] == pytest.approx(float(p), abs=1e-5)
        assert v["dice"] == str(POLICIES[policy][1].election_dice(year))


def test_printed_settings(pipeline):
    v = run_pipeline(pipeline, {"year": "1968", "policy": "full", "points": "100"})
    assert (v["dice"], v["frac_peace"]) == ("2", "1/12")
    v = run_pipeline(pipeline, {"year": "1968", "policy": "full-reversed", "points": "100"})
    assert v["dice"] == "5"


def test_live_widget_follows_its_controls():
    live = ElectionLive()
    assert "50.0%" in live.summary.value
    live.points.value = 150
    assert "4.6%" in live.summary.value and "5/108" in live.out.value
    live.year.value = "1972"
    assert "33.6%" in live.summary.value
