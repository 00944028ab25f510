"""The comparison part's shared vocabulary (wargames.compare) and its charts' palette (wargames.viz.charts)."""
from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from wargames.compare import FATES, MEASURES, Verdict, measures, percent, summarise
from wargames.core import Distribution


def _d(*pairs):
    return Distribution(dict(pairs))


def test_a_verdict_refuses_a_share_outside_zero_to_one_and_an_unknown_fate():
    with pytest.raises(ValueError, match="attacker_loss"):
        Verdict(False, F(5, 4), F(0))
    with pytest.raises(ValueError, match="defender_loss"):
        Verdict(False, F(0), F(-1, 4))
    with pytest.raises(ValueError, match="defender_fate"):
        Verdict(True, F(0), F(1), defender_fate="captured")


def test_wiped_out_and_no_effect():
    assert Verdict(False, F(1), F(0)).attacker_wiped
    assert Verdict(False, F(1, 2), F(0), attacker_fate="eliminated").attacker_wiped
    assert not Verdict(False, F(1, 2), F(0), attacker_fate="routed").attacker_wiped
    assert Verdict(False, F(0), F(0)).no_effect
    for v in (Verdict(True, F(0), F(0)), Verdict(False, F(1, 9), F(0)), Verdict(False, F(0), F(1, 9)),
              Verdict(False, F(0), F(0), defender_fate="suppressed"), Verdict(False, F(0), F(0), attacker_fate="retreats")):
        assert not v.no_effect, v


def test_measures_add_up_each_row_from_the_right_outcomes():
    dist = _d((Verdict(True, F(1, 4), F(1, 2), defender_fate="routed"), F(1, 3)),
              (Verdict(False, F(0), F(0)), F(1, 6)),
              (Verdict(False, F(1), F(0), attacker_fate="eliminated"), F(1, 6)),
              (Verdict(False, F(1, 2), F(1, 4), attacker_fate="retreats", defender_fate="suppressed"), F(1, 3)))
    m = measures(dist)
    assert list(m) == [label for label, _ in MEASURES]
    assert m["position taken"] == F(1, 3)
    assert m["defender retreats or routs"] == F(1, 3)
    assert m["defender suppressed"] == F(1, 3)
    assert m["attacker falls back or routs"] == F(1, 3)
    assert m["attacker wiped out"] == F(1, 6)
    assert m["no effect"] == F(1, 6)
    assert m["attacker loss (mean share)"] == F(1, 3) * F(1, 4) + F(1, 6) + F(1, 3) * F(1, 2)
    assert m["defender loss (mean share)"] == F(1, 3) * F(1, 2) + F(1, 3) * F(1, 4)
    s = summarise(dist)
    assert sum(s.defender_fates.values()) == 1 and sum(s.attacker_fates.values()) == 1
    assert set(s.defender_fates) == set(FATES)


def test_summarise_refuses_a_distribution_of_something_else():
    with pytest.raises(TypeError, match="Verdicts"):
        summarise(_d(("taken", F(1))))


def test_percent():
    assert percent(F(1, 3)) == "33.3%" and percent(F(1)) == "100.0%" and percent(F(1, 8), 2) == "12.50%"


def _srgb1(hex_colour: str):
    return [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]


@pytest.mark.parametrize("cvd", ["protanomaly", "deuteranomaly", "tritanomaly"])
def test_the_four_game_colours_stay_apart_for_each_colour_vision_deficiency(cvd):
    """Simulated at full severity (colorspacious, Machado et al. 2009), every pair of game colours stays at least
    10 apart in CAM02-UCS, a clearly visible difference; the games also differ in line dash."""
    import colorspacious
    import numpy as np
    from wargames.viz.charts import COLOURS, DASHES
    space = {"name": "sRGB1+CVD", "cvd_type": cvd, "severity": 100}
    seen = {g: np.clip(colorspacious.cspace_convert(_srgb1(c), space, "sRGB1"), 0, 1) for g, c in COLOURS.items()}
    for a, b in itertools.combinations(seen, 2):
        assert colorspacious.deltaE(seen[a], seen[b], input_space="sRGB1") >= 10, (cvd, a, b)
    assert len(set(DASHES.values())) == len(DASHES) == len(COLOURS) == 4


def test_every_game_colour_reads_on_a_white_page():
    """WCAG 2.1's 3:1 contrast for graphical objects, against the white page, for every line and bar."""
    from wargames.viz.charts import COLOURS

    def lum(c):
        ch = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in _srgb1(c)]
        return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]
    for game, c in COLOURS.items():
        assert 1.05 / (lum(c) + 0.05) >= 3, game
