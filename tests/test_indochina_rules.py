"""Indochina unit, property, constraint and bad-input tests for land combat, events, weather and mobilization."""
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from wargames.core import RandomDice, ScriptedDice, enumerate_outcomes
from wargames.core.errors import DataError, RuleViolation
from wargames.indochina import Combat, Readings, Side, crt_chooser, final_odds, raw_odds, resolve_combat
from wargames.indochina import charts
from wargames.indochina.charts import CONSTRAINTS, check_constraints, default_charts, load_crt
from wargames.indochina.combat import MAX_SHIFTS
from wargames.indochina.events import load_events
from wargames.indochina.mobilization import FESA, MobilizationPhase
from wargames.indochina.political import PoliticalPoints
from wargames.indochina.weather import weather

COM, FEF = Side.COMMUNIST, Side.FEF
LABELS = [c.label for c in default_charts()[0].columns]


@pytest.mark.rule("IC Mobile CRT", "IC Assault CRT", "IC TEC")
@pytest.mark.parametrize("constraint", CONSTRAINTS, ids=lambda c: c.id)
def test_constraint_holds(constraint):
    m, a, tec = default_charts()
    assert constraint.check(m, a, tec), f"{constraint.id} ({constraint.source}): {constraint.text}"


@pytest.mark.rule("IC Mobile CRT")
def test_a_chart_breaking_the_text_is_reported(tmp_path):
    src = (charts.DATA / "mobile_crt.yaml").read_text()
    p = tmp_path / "printed.yaml"
    p.write_text(src.replace('"6/1", "7/1"]', '"6/1", "8/1"]', 1).replace('"7/1": {kind: text', '"8/1": {kind: text'))
    assert "crt-7-highest" in check_constraints(mobile=load_crt(p))
    p.write_text(src.replace('  1: ["AE"', '  1: ["XX"'))
    with pytest.raises(DataError) as e:
        load_crt(p)
    assert e.value.file == str(p) and e.value.field == "results[1][1/3]"


@pytest.mark.rule("IC 13.2")
@given(st.integers(1, 200), st.integers(1, 200))
def test_raw_odds_law(a, d):
    label, _ = raw_odds(a, d)
    x, y = map(int, label.split("/"))
    if a >= d:
        assert y == 1 and x == a // d
    else:
        assert x == 1 and y == -(-d // a)


@pytest.mark.rule("IC 13.21", "IC 13.22")
@settings(max_examples=200, deadline=None)
@given(st.integers(1, 60), st.integers(1, 20), st.sampled_from(["clear", "jungle", "mountain", "city"]),
       st.booleans(), st.booleans(), st.sampled_from(["normal", "overrun", "ambush"]))
def test_final_column_never_falls_as_attack_rises(a, d, terrain, fortified, monsoon, mode):
    def col(x):
        return LABELS.index(final_odds(Combat(COM, (x,), (d,), terrain=terrain, fortified=fortified,
                                              monsoon=monsoon, mode=mode))[1])
    assert col(a) <= col(a + 1)


@pytest.mark.rule("IC 13.21")
def test_shift_cap_five_per_player():
    c = Combat(COM, (30,), (5,), terrain="mountain", fortified=True, monsoon=True, mode="ambush")  # 2+1+1+2 = 6 left
    raw, final, res = final_odds(c)
    assert raw == "6/1" and any("capped at 5" in s.text for s in res.steps)
    assert final == LABELS[LABELS.index("6/1") - MAX_SHIFTS]


@pytest.mark.rule("IC 13.22")
def test_literal_reading_of_the_lower_baseline_is_available():
    assert final_odds(Combat(COM, (14,), (5,)), Readings.LITERAL)[1] == "3/1"
    assert final_odds(Combat(COM, (14,), (5,)), Readings.ONE_THIRD)[1] == "2/1"
    assert final_odds(Combat(COM, (1,), (10,)))[1] == "1/3"          # below the table: starts at 1/3


@pytest.mark.rule("IC 13.23")
def test_enhancement_doubles():
    raw, _, res = final_odds(Combat(COM, (9,), (3,), defence_enhanced=True))
    assert raw == "1/1" and any(s.rule == "IC 13.23" and "6" in s.text for s in res.steps)
    assert final_odds(Combat(COM, (5,), (3,), attack_enhanced=True))[0] == "3/1"


@pytest.mark.rule("IC 20.1", "IC 13.31")
def test_fef_light_attack_chooses_crt_and_ignores_jungle():
    c = Combat(FEF, (4,), (2,), terrain="jungle", attackers_all_light=True)
    assert crt_chooser(c) is FEF
    assert final_odds(c)[1] == "2/1"
    assert final_odds(Combat(FEF, (4,), (2,), terrain="jungle"))[1] == "1/2"   # Heavy attackers: jungle's 2 left


@pytest.mark.rule("IC 25.1", "IC 25.2")
def test_death_commando():
    c = Combat(COM, (9,), (3,), fortified=True, death_commando=True)
    raw, final, res = final_odds(c)
    assert final == "3/1" and any(s.rule == "IC 25.1" for s in res.steps)    # 3/1, fort 1 left, DC 1 right
    with ScriptedDice([3]) as d:
        out = resolve_combat(c, "Assault", FEF, d)
    assert "the Death Commando unit is eliminated, whatever the result" in out.text()
    with pytest.raises(RuleViolation) as e:
        final_odds(Combat(COM, (9,), (3,), terrain="clear", death_commando=True))
    assert e.value.rule == "IC 25.1"
    with pytest.raises(RuleViolation):
        final_odds(Combat(FEF, (9,), (3,), fortified=True, death_commando=True))


@pytest.mark.rule("IC 31.21", "IC 26.3", "IC 27.3", "IC 28.2")
def test_each_shift_source():
    base = final_odds(Combat(COM, (12,), (3,)))[1]
    assert base == "4/1"
    for kwargs, expected in (({"monsoon": True}, "3/1"), ({"mode": "overrun"}, "3/1"), ({"mode": "ambush"}, "2/1"),
                             ({"general_offensive": True}, "5/1"), ({"fortified": True}, "3/1")):
        assert final_odds(Combat(COM, (12,), (3,), **kwargs))[1] == expected, kwargs
    with pytest.raises(RuleViolation) as e:
        final_odds(Combat(FEF, (12,), (3,), general_offensive=True))
    assert e.value.rule == "IC 31.21"
    with pytest.raises(RuleViolation):
        final_odds(Combat(COM, (12,), (3,), mode="charge"))


@pytest.mark.rule("IC 13.0", "IC 13.5")
def test_exact_distribution_sums_to_one_and_matches_sampling():
    c = Combat(COM, (9,), (3,), fortified=True)
    dist = enumerate_outcomes(lambda d: resolve_combat(c, "Assault", FEF, d).result["result"])
    assert sum(dist.values()) == 1 and len(dist) >= 3
    rng = RandomDice(seed=7)
    n = 6000
    counts = {}
    for _ in range(n):
        r = resolve_combat(c, "Assault", FEF, rng).result["result"]
        counts[r] = counts.get(r, 0) + 1
    for outcome, p in dist.items():
        assert abs(counts.get(outcome, 0) / n - float(p)) < 0.03


@pytest.mark.rule("IC 13.3")
def test_bad_table_and_bad_strengths():
    with pytest.raises(RuleViolation) as e:
        resolve_combat(Combat(COM, (3,), (3,)), "Bloody", COM, ScriptedDice([1]))
    assert e.value.rule == "IC 13.3"
    for attack in ((0,), (-2,), (), (0, 0)):
        with pytest.raises(RuleViolation) as e:
            final_odds(Combat(COM, attack, (3,)))
        assert e.value.rule in ("IC 13.1", "IC 13.2")
    with pytest.raises(RuleViolation):
        final_odds(Combat(COM, (3,), (3,), terrain="lava"))


@pytest.mark.rule("IC 26.1")
def test_weather_by_month():
    assert [weather(m) for m in range(1, 13)] == ["Clear"] * 4 + ["Monsoon"] * 5 + ["Clear"] * 3
    with pytest.raises(RuleViolation):
        weather(13)


@pytest.mark.rule("IC 6.0", "IC 6.2", "IC Random Events Table")
def test_events_table_has_every_reading_and_marks_provenance():
    table = load_events()
    assert sorted(table) == [10 * t + o for t in range(1, 7) for o in range(1, 7)]
    assert all(e.provenance.reconstructed for e in table.values())     # even event 12: only its name is in 6.1
    assert table[12].name == "Dau Tranh" and "6.1" in table[12].provenance.source
    assert any(e.name == "Geneva Talks" for e in table.values())


@pytest.mark.rule("IC 5.21", "IC 5.22", "IC 5.23", "IC 5.33", "IC 5.0", "IC 5.1", "IC 5.2")
def test_political_points():
    pp = PoliticalPoints(fef=98, communist=5)
    assert pp.change(FEF, gains=5) == 100                            # 5.21 cap
    assert pp.change(COM, gains=2, losses=3) == 4                    # 5.23 net
    with pytest.raises(RuleViolation) as e:
        pp.spend(COM, 5)                                             # 5.33 over-spending
    assert e.value.rule == "IC 5.33"
    pp.change(COM, losses=4)
    assert pp.game_over is FEF                                       # 5.22
    with pytest.raises(RuleViolation):
        PoliticalPoints(fef=0, communist=10)


@pytest.mark.rule("IC 7.23", "IC 7.71", "IC 7.21", "IC 7.0", "IC 7.2")
def test_mobilization_limits():
    pp = PoliticalPoints(fef=20, communist=20)
    com = MobilizationPhase(COM, pp)
    assert com.mobilize("Communist militia", "0101", terrain="jungle") == 2    # 7.71: +1 in jungle
    with pytest.raises(RuleViolation) as e:
        com.mobilize("Communist militia", "0101")                            # 7.23: one per hex per phase
    assert e.value.rule == "IC 7.23"
    with pytest.raises(RuleViolation):
        com.mobilize("VNA infantry group", "0202")                           # not a Communist unit
    with pytest.raises(DataError):
        com.mobilize("Viet Minh division", "0303")                           # no chart row yet
    fef = MobilizationPhase(FEF, pp)
    fef.mobilize("French mechanized group", FESA)
    fef.mobilize("French mechanized group", FESA)                          # the FESA has no per-hex limit
    assert pp.fef == 14


@pytest.mark.rule("IC 13.2", "IC 13.22")
def test_a_defence_of_zero_strength_starts_at_7_to_1():
    raw, final, res = final_odds(Combat(COM, (3,), (0,)))
    assert raw == "∞/1" and final == "7/1" and any("the baseline is 7/1" in s.text for s in res.steps)
