"""The odds-shifts widget: its precomputed tables are the engine's answers, and the live version calls the engine."""
import pytest

from wargames.indochina import Combat, Side, crt_chooser, final_odds
from widgets.common import PIPELINE_JS, run_pipeline
from widgets.indochina import OddsShiftsLive, odds_shifts_static

BASE = dict(A="14", D="5", attack_enh="0", defence_enh="0", attacker="Communist", terrain="clear", fortified="0",
            monsoon="0", go="0", mode="normal", dc="0", light="0", reading="1/3", table="Mobile")


@pytest.fixture(scope="module")
def pipeline():
    return odds_shifts_static()[1]


@pytest.mark.rule("IC 13.2", "IC 13.21", "IC 13.22", "IC 13.31")
@pytest.mark.parametrize("change,expected", [
    ({}, "2/1"), ({"A": "6", "D": "10"}, "1/2"), ({"A": "8", "D": "2", "terrain": "mountain", "go": "1"}, "3/1"),
    ({"A": "10", "D": "1", "terrain": "mountain"}, "5/1"), ({"A": "9", "D": "3", "fortified": "1"}, "2/1")])
def test_widget_reproduces_the_printed_odds(pipeline, change, expected):
    assert run_pipeline(pipeline, {**BASE, **change})["final"] == expected


@pytest.mark.rule("IC 13.21")
@pytest.mark.parametrize("a", [1, 3, 7, 12, 20, 30])
@pytest.mark.parametrize("situation", [
    {"terrain": "jungle", "monsoon": "1"}, {"attacker": "FEF", "light": "1", "terrain": "swamp"},
    {"mode": "ambush", "fortified": "1", "terrain": "city"}, {"go": "1", "dc": "1", "fortified": "1", "defence_enh": "1"}])
def test_every_lookup_agrees_with_the_engine(pipeline, a, situation):
    values = run_pipeline(pipeline, {**BASE, **situation, "A": str(a)})
    c = Combat(Side(situation.get("attacker", "Communist")), (a,), (5,), defence_enhanced=situation.get("defence_enh") == "1",
               terrain=situation.get("terrain", "clear"), fortified=situation.get("fortified") == "1",
               monsoon=situation.get("monsoon") == "1", general_offensive=situation.get("go") == "1",
               mode=situation.get("mode", "normal"), death_commando=situation.get("dc") == "1",
               attackers_all_light=situation.get("light") == "1")
    raw, final, _ = final_odds(c)
    assert (values["raw"], values["final"]) == (raw, final)
    assert values["chooser"] == crt_chooser(c).value


@pytest.mark.rule("IC 31.21")
def test_illegal_situations_show_the_rule(pipeline):
    values = run_pipeline(pipeline, {**BASE, "attacker": "FEF", "go": "1"})
    assert values["error"].startswith("IC 31.21")


def test_pipeline_script_holds_no_rules():
    for word in ("7/1", "shift", "odds", "13.2", "Mobile", "FEF"):
        assert word not in PIPELINE_JS


@pytest.mark.rule("IC 13.0")
def test_live_widget():
    w = OddsShiftsLive()
    assert "2/1" in w.out.value
    w.terrain.value = "mountain"
    w.flags["general_offensive"].value = True
    w.A.value, w.D.value = 8, 2
    assert "3/1" in w.out.value and "IC 31.21" in w.out.value
    w.attacker.value = "FEF"
    assert "IC 31.21" in w.out.value and "Communist attacks only" in w.out.value
