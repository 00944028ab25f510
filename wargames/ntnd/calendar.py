"""The Turn Record of No Trumpets No Drums: 63 two-month turns, Mar/Apr 1965 (turn 1) to Jul/Aug 1975 (turn 63).

A turn stands for two months (NT 3). The rulebook prints no turn-by-turn record, but it fixes the record in two
places: the introduction gives at most 63 turns with the American elections on turns 23 and 47 (line 79), and
NT 23.1 puts those elections on the Nov/Dec turns of 1968 and 1972. Counting back two months a turn from
Nov/Dec 1968 = turn 23 gives turn 1 = Mar/Apr 1965, and then Nov/Dec 1972 is turn 47 and turn 63 is Jul/Aug 1975.

:class:`Turn` is one box of the record. Text such as "Mar/Apr 1965" (or the rulebook's own "May-June 1970",
"January/February 1967") is read with :meth:`Turn.parse`, which raises :class:`DataError` for text that is not a
turn of the record; a turn number or period outside the record raises :class:`RuleViolation` ("NT 3").
:data:`KEY_TURNS` lists the turns that rules name by date, each with its rule and rulebook line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import DataError, RuleViolation
from ..core.rules import implements

PERIODS = ("Jan/Feb", "Mar/Apr", "May/Jun", "Jul/Aug", "Sep/Oct", "Nov/Dec")
FIRST_YEAR = 1965
FIRST_PERIOD = "Mar/Apr"
LAST_TURN = 63
MONSOON_PERIODS = ("May/Jun", "Jul/Aug")          # NT 8.2 Note (line 325)
ELECTION_PERIOD = "Nov/Dec"                        # NT 23.1 (line 783)
ELECTION_YEARS = (1968, 1972)                      # NT 23.1; NT 23.2 rolls 3 dice in 1968 and 4 in 1972

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_OFFSET = PERIODS.index(FIRST_PERIOD)              # periods before turn 1 in its year
_RECORD = "the Turn Record runs from turn 1 (Mar/Apr 1965) to turn 63 (Jul/Aug 1975)"
_TEXT = re.compile(r"^\s*([A-Za-z]+)\.?\s*[/-]\s*([A-Za-z]+)\.?\s+(\d{4})\s*$")


def _month(word: str) -> int | None:
    """1-12 for a month name or its three-letter abbreviation (any case); None otherwise."""
    w = word.lower()
    for i, name in enumerate(_MONTHS, start=1):
        if w == name or w == name[:3]:
            return i
    return None


@dataclass(frozen=True, order=True)
class Turn:
    """One turn of the record, by number (1-63)."""

    number: int

    def __post_init__(self) -> None:
        if not isinstance(self.number, int) or isinstance(self.number, bool):
            raise DataError("<turn record>", "number", f"{self.number!r} is not a whole turn number")
        if not 1 <= self.number <= LAST_TURN:
            raise RuleViolation("NT 3", f"there is no turn {self.number}: {_RECORD}")

    # -- reading and writing -------------------------------------------------------------------------------------
    @classmethod
    def of(cls, months: str, year: int) -> "Turn":
        """The turn of a two-month period ("Mar/Apr") in a year."""
        if months not in PERIODS:
            raise DataError("<turn record>", "months", f"{months!r} is not one of {', '.join(PERIODS)}")
        if not isinstance(year, int) or isinstance(year, bool):
            raise DataError("<turn record>", "year", f"{year!r} is not a year")
        index = (year - FIRST_YEAR) * len(PERIODS) + PERIODS.index(months) - _OFFSET
        if not 0 <= index < LAST_TURN:
            raise RuleViolation("NT 3", f"{months} {year} is not on the record: {_RECORD}")
        return cls(index + 1)

    @classmethod
    def parse(cls, text: str, source: str = "<turn>", field: str = "turn") -> "Turn":
        """Read "Mar/Apr 1965", "May-June 1970" or "January/February 1967" (as data from ``source``/``field``)."""
        m = _TEXT.match(text) if isinstance(text, str) else None
        if m is None:
            raise DataError(source, field, f"{text!r} is not a turn such as 'Mar/Apr 1965'")
        first, second = _month(m.group(1)), _month(m.group(2))
        if first is None or second is None:
            raise DataError(source, field, f"{text!r} names a month that does not exist")
        if first % 2 != 1 or second != first + 1:
            raise DataError(source, field, f"{text!r} is not one of the two-month periods {', '.join(PERIODS)}")
        try:
            return cls.of(PERIODS[(first - 1) // 2], int(m.group(3)))
        except RuleViolation as err:
            raise DataError(source, field, err.reason) from None

    @property
    def year(self) -> int:
        return FIRST_YEAR + (self.number - 1 + _OFFSET) // len(PERIODS)

    @property
    def months(self) -> str:
        """The two months of the turn, "Jan/Feb" to "Nov/Dec"."""
        return PERIODS[(self.number - 1 + _OFFSET) % len(PERIODS)]

    @property
    def label(self) -> str:
        return f"{self.months} {self.year}"

    def __str__(self) -> str:
        return self.label

    # -- what the rules ask of a turn ----------------------------------------------------------------------------
    @property
    def game_year(self) -> int:
        """The game-year of the turn (NT 4.5.3 counts drafts per game-year): read as its calendar year, Jan/Feb to
        Nov/Dec, so 1965 has only the five turns from Mar/Apr."""
        return self.year

    @property
    @implements("NT 8.2 Note")
    def monsoon(self) -> bool:
        """May/Jun and Jul/Aug turns are monsoon turns, every year."""
        return self.months in MONSOON_PERIODS

    @property
    def jan_feb(self) -> bool:
        """The first turn of a year: the turn of the yearly aid roll (NT 27.1) and of most dated rule changes."""
        return self.months == "Jan/Feb"

    @property
    @implements("NT 23.1")
    def election(self) -> bool:
        """The American elections are rolled on the Nov/Dec turns of 1968 and 1972 (turns 23 and 47)."""
        return self.months == ELECTION_PERIOD and self.year in ELECTION_YEARS

    @property
    def last(self) -> bool:
        return self.number == LAST_TURN

    @implements("NT 3")
    def next(self) -> "Turn":
        """The turn the record marker moves to after the Allied player turn (two months later)."""
        if self.last:
            raise RuleViolation("NT 3", f"{self.label} is the last turn: {_RECORD}")
        return Turn(self.number + 1)

    def after(self, turns: int) -> "Turn":
        """The turn ``turns`` turns later ("two turns after the uprising", NT 26.7)."""
        return Turn(self.number + turns)


def turns() -> tuple[Turn, ...]:
    """Every turn of the record, in order."""
    return tuple(Turn(n) for n in range(1, LAST_TURN + 1))


def election_turns() -> tuple[Turn, ...]:
    return tuple(t for t in turns() if t.election)


@dataclass(frozen=True)
class KeyTurn:
    """A turn a rule names by its date: the rule id, the rulebook line, and what happens from (or before) it."""

    turn: Turn
    rule: str
    line: int
    meaning: str


def _key(text: str, rule: str, line: int, meaning: str) -> KeyTurn:
    return KeyTurn(Turn.parse(text, "wargames/ntnd/calendar.py", rule), rule, line, meaning)


KEY_TURNS: dict[str, KeyTurn] = {
    "full_vietnamization_deadline": _key("Jan/Feb 1966", "NT 24.2", 809,
                                         "Full Vietnamization must be declared before this turn"),
    "ranger_reassignment_one": _key("Jan/Feb 1966", "NT 28.5", 954,
                                    "from this turn one ARVN ranger a turn may change corps (none in 1965)"),
    "uprising_earliest": _key("Jan/Feb 1967", "NT 26.1", 886,
                              "the first turn a National Uprising may be declared"),
    "para_commando": _key("Jan/Feb 1967", "NT 28.11.5", 1010,
                          "the first turn the Laotian Para-Commando may be bought"),
    "carriers_anywhere": _key("Jan/Feb 1968", "NT 11.6", 499,
                              "carrier wings may strike anywhere (before: NV, Laos, China, USMC corps only)"),
    "joint_air": _key("Jan/Feb 1968", "NT 11.7", 501, "US and ARVN air units may share a hex"),
    "niagara": _key("Jan/Feb 1968", "NT 11.8", 503, "massed strategic bombing of a hex with two Communist units"),
    "qc_removed": _key("May/Jun 1968", "NT 4.3.3", 208,
                       "the Thai QC regiment leaves play in this turn's Allied reinforcement phase"),
    "phoenix_scenarios": _key("Jul/Aug 1968", "NT 28.4.1", 948,
                              "scenarios starting on or after this turn may raise Phoenix units at once"),
    "full_vietnamization_floor": _key("Nov/Dec 1968", "NT 24.2.10", 829,
                                      "under Full Vietnamization the game runs at least to the end of this turn"),
    "election_1968": _key("Nov/Dec 1968", "NT 23.1", 783, "the first American election (three dice, NT 23.2)"),
    "ranger_reassignment_two": _key("Jan/Feb 1969", "NT 28.5", 954,
                                    "from this turn up to two ARVN rangers a turn may change corps"),
    "thai_333": _key("May/Jun 1970", "NT 28.6.1", 960, "the Thai 333 ranger arrives in Laos"),
    "improved_trail": _key("Jan/Feb 1971", "NT 8.4", 347,
                           "Communist supply units moving only in Laos and North Vietnam have 15 MP"),
    "linebacker": _key("Jan/Feb 1972", "NT 11.9.1", 509,
                       "Operation Linebacker: SAC kill zone targets on 4-6, SAMs hit SAC only on 6 (NT 11.9.2)"),
    "election_1972": _key("Nov/Dec 1972", "NT 23.1", 783,
                          "the second American election (four dice); no reversal of Vietnamization after it (NT 24.4.4)"),
    "last_turn": _key("Jul/Aug 1975", "NT 2", 79, "the last turn of the campaign (63 turns, introduction)"),
}
