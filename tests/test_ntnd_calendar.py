"""The No Trumpets No Drums Turn Record (wargames.ntnd.calendar)."""
import re
from pathlib import Path

import pytest

from wargames.core.errors import DataError, RuleViolation
from wargames.core.rules import implementations
from wargames.ntnd.calendar import KEY_TURNS, LAST_TURN, PERIODS, Turn, election_turns, turns

RULEBOOK = Path(__file__).resolve().parents[2] / "shared" / "rulebooks" / "no-trumpets-no-drums.txt"


@pytest.mark.rule("NT 3")
def test_the_record_runs_from_mar_apr_1965_to_jul_aug_1975():
    assert Turn(1).label == "Mar/Apr 1965" and str(Turn(1)) == "Mar/Apr 1965"
    assert Turn(63).label == "Jul/Aug 1975" and Turn(63).last and not Turn(62).last
    assert LAST_TURN == 63 and len(turns()) == 63
    assert [t.label for t in turns()[:7]] == ["Mar/Apr 1965", "May/Jun 1965", "Jul/Aug 1965", "Sep/Oct 1965",
                                              "Nov/Dec 1965", "Jan/Feb 1966", "Mar/Apr 1966"]
    assert Turn(6).year == 1966 and Turn(5).year == 1965


@pytest.mark.rule("NT 3")
def test_each_turn_is_two_months_later_than_the_one_before():
    for t in turns()[:-1]:
        n = t.next()
        assert n.number == t.number + 1
        assert PERIODS.index(n.months) == (PERIODS.index(t.months) + 1) % 6
        assert n.year == t.year + (t.months == "Nov/Dec")
    with pytest.raises(RuleViolation) as err:
        Turn(63).next()
    assert err.value.rule == "NT 3"
    assert Turn(12).after(2) == Turn(14) and Turn(1).after(0) == Turn(1)
    with pytest.raises(RuleViolation):
        Turn(62).after(2)


@pytest.mark.rule("NT 23.1")
def test_the_elections_fall_on_turns_23_and_47():
    """Line 79 numbers the election turns; NT 23.1 dates them Nov/Dec 1968 and 1972: both agree."""
    assert [t.number for t in election_turns()] == [23, 47]
    assert [t.label for t in election_turns()] == ["Nov/Dec 1968", "Nov/Dec 1972"]
    assert not Turn.of("Nov/Dec", 1970).election and not Turn.of("Sep/Oct", 1968).election
    assert not Turn.of("Nov/Dec", 1969).election and not Turn.of("Nov/Dec", 1974).election


def test_turn_1_is_the_only_start_that_puts_the_elections_on_turns_23_and_47():
    """Line 79 numbers the election turns and NT 23.1 dates them: only a Mar/Apr 1965 start fits both."""
    def number(start: tuple[int, int], period: int, year: int) -> int:
        return (year - start[1]) * 6 + period - start[0] + 1
    nov_dec = PERIODS.index("Nov/Dec")
    fits = [(p, y) for y in range(1960, 1970) for p in range(6)
            if number((p, y), nov_dec, 1968) == 23 and number((p, y), nov_dec, 1972) == 47]
    assert fits == [(PERIODS.index("Mar/Apr"), 1965)]


@pytest.mark.rule("NT 8.2 Note")
def test_monsoon_turns_are_may_jun_and_jul_aug():
    monsoon = [t for t in turns() if t.monsoon]
    assert {t.months for t in monsoon} == {"May/Jun", "Jul/Aug"}
    assert [t.number for t in monsoon[:4]] == [2, 3, 8, 9]
    assert all(t.number % 6 in (2, 3) for t in monsoon)
    assert len(monsoon) == 2 * 11              # two a year, 1965 to 1975
    assert not Turn(1).monsoon and not Turn(4).monsoon and Turn(63).monsoon


def test_jan_feb_turns_and_game_years():
    jan_feb = [t.number for t in turns() if t.jan_feb]
    assert jan_feb == list(range(6, 61, 6)) and len(jan_feb) == 10     # 1966 to 1975
    assert [t.year for t in turns() if t.jan_feb] == list(range(1966, 1976))
    # A game-year is the calendar year: 1965 has five turns, 1975 four, the others six.
    years = [t.game_year for t in turns()]
    assert years.count(1965) == 5 and years.count(1975) == 4
    assert all(years.count(y) == 6 for y in range(1966, 1975))
    assert Turn(5).game_year == 1965 and Turn(6).game_year == 1966


@pytest.mark.parametrize("text, number", [
    ("Mar/Apr 1965", 1), ("Jul/Aug 1975", 63), ("Nov/Dec 1968", 23), ("Nov/Dec 1972", 47),
    ("May/June 1968", 20),                # the rulebook's spellings (NT 4.3.3, 8.4, 11.6, 28.4.1, 28.6.1)
    ("January/February 1971", 36), ("November-December 1967", 17), ("July-August 1968", 21),
    ("May-June 1970", 32), ("jan/feb 1967", 12), ("  Sep / Oct 1965 ", 4), ("Jan./Feb. 1966", 6)])
def test_parse(text, number):
    assert Turn.parse(text) == Turn(number)
    assert Turn.parse(Turn(number).label) == Turn(number)


@pytest.mark.parametrize("text, why", [
    ("", "is not a turn"), ("1965", "is not a turn"), ("Mar 1965", "is not a turn"), ("Mar/Apr", "is not a turn"),
    ("Foo/Bar 1966", "does not exist"), ("Feb/Mar 1966", "two-month periods"), ("Mar/May 1966", "two-month"),
    ("Apr/Mar 1966", "two-month"), ("Jan/Feb 1965", "Turn Record runs"), ("Sep/Oct 1975", "Turn Record runs"),
    ("Mar/Apr 1865", "Turn Record runs"), (None, "is not a turn"), (1965, "is not a turn")])
def test_parse_refuses_what_is_not_a_turn_of_the_record(text, why):
    with pytest.raises(DataError) as err:
        Turn.parse(text, "scenario.yaml", "start")
    assert err.value.file == "scenario.yaml" and err.value.field == "start" and why in err.value.reason


def test_bad_turn_numbers_and_periods():
    for n in (0, 64, -1):
        with pytest.raises(RuleViolation) as err:
            Turn(n)
        assert err.value.rule == "NT 3"
    for bad in ("1", 1.0, True):
        with pytest.raises(DataError):
            Turn(bad)
    with pytest.raises(DataError):
        Turn.of("Feb/Mar", 1966)
    with pytest.raises(DataError):
        Turn.of("Jan/Feb", "1966")
    with pytest.raises(RuleViolation):
        Turn.of("Jan/Feb", 1965)
    assert Turn.of("Jan/Feb", 1966) == Turn(6)
    assert Turn(3) < Turn(4) and sorted([Turn(9), Turn(2)]) == [Turn(2), Turn(9)]


EXPECTED_KEY_TURNS = {
    "full_vietnamization_deadline": (6, "NT 24.2", 809, "January/February 1966"),
    "ranger_reassignment_one": (6, "NT 28.5", 954, "January/February 1966"),
    "uprising_earliest": (12, "NT 26.1", 886, "January/February 1967"),
    "para_commando": (12, "NT 28.11.5", 1010, "January/February 1967"),
    "carriers_anywhere": (18, "NT 11.6", 499, "January-February 1968"),
    "joint_air": (18, "NT 11.7", 501, "January-February 1968"),
    "niagara": (18, "NT 11.8", 503, "January-February 1968"),
    "qc_removed": (20, "NT 4.3.3", 208, "May/June 1968"),
    "phoenix_scenarios": (21, "NT 28.4.1", 948, "July-August 1968"),
    "full_vietnamization_floor": (23, "NT 24.2.10", 829, "November/December 1968"),
    "election_1968": (23, "NT 23.1", 783, "November/December turns of 1968"),
    "ranger_reassignment_two": (24, "NT 28.5", 954, "January/February 1969"),
    "thai_333": (32, "NT 28.6.1", 960, "May-June 1970"),
    "improved_trail": (36, "NT 8.4", 347, "January/February 1971"),
    "linebacker": (42, "NT 11.9.1", 509, "January-February 1972"),
    "election_1972": (47, "NT 23.1", 783, "1972"),
    "last_turn": (63, "NT 2", 79, "63 bimonthly turns"),
}


@pytest.mark.parametrize("name", list(EXPECTED_KEY_TURNS))
def test_key_turns_match_the_rulebook_lines_they_cite(name):
    number, rule, line, phrase = EXPECTED_KEY_TURNS[name]
    key = KEY_TURNS[name]
    assert (key.turn.number, key.rule, key.line) == (number, rule, line)
    if not RULEBOOK.exists():
        pytest.skip("the shared rulebooks are not beside this checkout")
    text = RULEBOOK.read_text(encoding="utf-8").splitlines()[line - 1]
    assert phrase in text
    # the line stands under the rule cited: the nearest numbered heading at or above it
    lines = RULEBOOK.read_text(encoding="utf-8").splitlines()[:line]
    heading = next(m for m in (re.match(r"^(\d+(?:\.\d+)*)\.? ", x) for x in reversed(lines)) if m)
    assert f"NT {heading.group(1)}" == rule


def test_every_key_turn_is_listed():
    assert set(KEY_TURNS) == set(EXPECTED_KEY_TURNS)


def test_the_turn_record_registers_what_it_executes():
    assert implementations("NT 8.2 Note") == ["wargames.ntnd.calendar.Turn.monsoon"]
    assert "wargames.ntnd.calendar.Turn.election" in implementations("NT 23.1")
    assert "wargames.ntnd.calendar.Turn.next" in implementations("NT 3")
    assert "wargames.ntnd.game.Game._end_phase" in implementations("NT 3")
