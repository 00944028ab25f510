"""The NT 19.2 combat-grid widget: every state of its static page is the engine's answer, the page's script holds
no rule, and the live version says what the static page says."""
import random
from itertools import product

import pytest
from bokeh.models import Button

from wargames.core import ScriptedDice
from wargames.ntnd.combat import combat_odds, num, resolve, verdict
from widgets import ntnd as nt
from widgets.common import run_pipeline


#: The page is built once (a session fixture) on the one worker that runs these tests (``--dist loadgroup``).
pytestmark = pytest.mark.xdist_group("widgets-ntnd")


@pytest.fixture(scope="session")
def built():
    return nt.combat_grid_static()


def page(pipeline, controls):
    v = run_pipeline(pipeline, controls)
    return v, nt.render(v, nt.SUMMARY), nt.render(v, nt.DETAIL)


@pytest.mark.rule("NT 19.2", "NT 19.2.6")
def test_the_printed_example(built):
    v, summary, detail = page(built[1], nt.PRINTED)
    assert summary == ("<div class='wg-summary'>Allied 9.75 against Communist 9.5: <b>Allied win</b>. Over all 36 "
                       "rolls: Allied win 15/36; Communist win 21/36.</div>")
    for text in ("11/4 = 2.75", "5/2 = 2.5", "6.75 + 3 = 9.75", "7.5 + 2 = 9.5", "swamp +1, city +2"):
        assert text in detail
    assert detail.count("title='Allied win'>A<") == 15 and detail.count("title='Communist win'>C<") == 21
    assert "tr:nth-child(3) td:nth-of-type(2){" in detail             # the chosen roll's cell is marked
    reset = [m for m in built[0].references() if isinstance(m, Button) and m.name == "nt-combat-reset"][0]
    (cb,) = reset.js_event_callbacks["button_click"]
    assert cb.args["printed"] == nt.PRINTED and set(cb.args["controls"]) == set(nt.CHOICES)


@pytest.mark.rule("NT 19.2", "NT 19.2.1", "NT 19.2.2", "NT 19.2.3", "NT 19.2.4", "NT 19.2.6")
def test_every_setting_agrees_with_the_engine(built):
    rng = random.Random(19)
    keys = nt.ALLIED_KEYS + nt.COMMUNIST_KEYS
    for values in product(*(nt.CHOICES[k] for k in keys)):
        c = {**dict(zip(keys, values)), "a_die": rng.choice(nt.CHOICES["a_die"]),
             "c_die": rng.choice(nt.CHOICES["c_die"])}
        v, summary, _ = page(built[1], c)
        b = nt.battle(c)
        with ScriptedDice([int(c["a_die"]), int(c["c_die"])]) as d:
            r = resolve(b, d).result
        assert v["a_final"] == num(r.of("allied").total) and v["c_final"] == num(r.of("communist").total)
        assert v["verdict"] == nt.OUTCOME_WORDS[verdict(r)]
        assert v["odds_line"] == nt.odds_line(combat_odds(b))


def test_page_script_holds_no_rules():
    for word in ("morale", "19.2", "firebase", "2 *", "twice", "Allied"):
        assert word not in nt.MULTI_PIPELINE_JS


@pytest.mark.rule("NT 19.2")
def test_live_widget_says_what_the_static_page_says(built):
    w = nt.CombatGridLive()
    assert w.summary.value == page(built[1], nt.PRINTED)[1]
    w.controls["city"].value = False
    w.controls["fighters"].value = "0"
    change = {**nt.PRINTED, "city": "0", "fighters": "0"}
    assert w.summary.value == page(built[1], change)[1]
    assert "NT 19.2.6" in w.out.value and "exactly" in w.out.value


@pytest.mark.rule("NT 19.2")
def test_odds_chart_is_the_engines_distribution(built):
    """The bar chart's sweep reads, for every outcome, the exact chance the engine gives for the setting."""
    layout, pipeline = built
    fig = [m for m in layout.references() if getattr(m, "name", None) == "nt-combat-odds"][0]
    (src,) = {r.data_source for r in fig.renderers}
    dist = combat_odds(nt.battle(nt.PRINTED))
    assert src.data["p"] == [float(dist[k]) if k in dist else 0.0 for k in nt.OUTCOME_WORDS]
    assert src.data["p"][0] == 15 / 36 and src.data["p"][2] == 21 / 36
    weaker = {**nt.PRINTED, "firebase": "0", "fleet": "0", "boat": "0"}
    swept = [run_pipeline(pipeline, {**weaker, nt.RESULT: str(i)})["p_result"] for i in range(5)]
    want = combat_odds(nt.battle(weaker))
    assert swept == [float(want[k]) if k in want else 0.0 for k in nt.OUTCOME_WORDS] and swept != src.data["p"]
