"""Rules 22-27 as one state: Vietnamization, the American elections, the peace party, the National Uprising and
Communist aid, and everything they change.

Several rules reach into many others: the number of basic cadres (4.1.1), the aid die (27.1), the political cost
of American and SEATO replacements (4.2.3), the American replacement points (4.2.2), the win threshold (22.4),
the election dice (23.2), the withdrawals (23.3, 24.3), the political-point bounds of Full Vietnamization
(24.2.10) and which South Vietnamese morale rules apply (25.3, 25.4). They are all read from :class:`Policy`,
so no other module keeps its own copy of "is Full Vietnamization in effect".

``Policy`` is immutable: each declaration returns a new one, so a game position can share it freely. Turns are
numbered from 1 (Mar/Apr 1965), two months a turn.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from ..core import implements
from ..core.dice import roll_die
from ..core.dist import Distribution, enumerate_chain
from ..core.errors import RuleViolation
from .calendar import Turn, election_turns

NONE, PARTIAL, FULL = "none", "partial", "full"
SEATO_NATIONS = ("ROK", "Thai", "ANZAC", "SEATO")   # 4.2.5; "SEATO" is the SEATO firebase (5.6.2)
VIETNAMIZATION = (NONE, PARTIAL, FULL)
AID_COUNTRIES = ("China", "USSR")

FULL_DEADLINE = Turn.of("Jan/Feb", 1966).number   # Full Vietnamization only before it (24.2)
UPRISING_FROM = Turn.of("Jan/Feb", 1967).number   # no uprising before it (26.1)
ELECTIONS = {t.year: t.number for t in election_turns()}   # the Nov/Dec turns of 1968 and 1972 (23.1)
ELECTION_DICE = {1968: 3, 1972: 4}  # 23.2
UPRISING_TURNS = 4         # 26.2, 26.6
POOR_RECRUITMENT_TURNS = 6  # 26.5: one year after the uprising
WIN, WIN_AFTER_REVERSAL = 250, 300  # 22.4, 24.4.3
DEMORALIZED_BELOW = 50     # 25.1
ELECTION_PARTIAL_BELOW = 100  # 23.8
SEATO_WITHDRAWAL_BELOW = 100  # 23.6
MAX_WITHDRAWALS = 10       # 23.3.3, 24.3.1
MIN_PARTIAL_WITHDRAWALS = 2  # 24.3.1
FULL_US_GROUND_LIMIT = 6   # 24.2.1
NVA_DIVISION_LIMIT = 10    # 4.1.7


@dataclass(frozen=True)
class Policy:
    """The political state of the war that other rules read.

    - ``vietnamization``: ``"none"``, ``"partial"`` or ``"full"`` (24.1); a reversal sets it back to ``"none"``
      and records ``reversed_from`` (24.4).
    - ``forced``: Partial Vietnamization imposed by a won election under 100 points (23.8): it may never be
      reversed, and every US and SEATO unit must be gone before the next election.
    - ``peace_party``: the peace party won an election (23.3).
    - ``elections``: each election held so far, as ``(year, peace_party_won)``.
    - ``extra_election_dice``: the dice a reversal adds to the next election (24.4.1-2).
    - ``uprising``: the turn the National Uprising was declared (26.1), if it was.
    - ``aid``: the countries whose aid has been granted; once granted it comes every turn (27.1).
    - ``haiphong_mined``: the fleet has mined Haiphong (14.2.2).
    """

    vietnamization: str = NONE
    reversed_from: str | None = None
    forced: bool = False
    peace_party: bool = False
    elections: tuple[tuple[int, bool], ...] = ()
    extra_election_dice: int = 0
    uprising: int | None = None
    aid: frozenset[str] = frozenset()
    haiphong_mined: bool = False

    def __post_init__(self) -> None:
        if self.vietnamization not in VIETNAMIZATION:
            raise RuleViolation("NT 24.1", f"Vietnamization is one of {VIETNAMIZATION}, not {self.vietnamization!r}")
        if not self.aid <= set(AID_COUNTRIES):
            raise RuleViolation("NT 27.1", f"aid comes only from {AID_COUNTRIES}")

    # --- declarations -------------------------------------------------------------------------------------
    @implements("NT 24.1", "NT 24.2")
    def declare_full(self, turn: int) -> "Policy":
        """Full Vietnamization, declared before the Jan/Feb 1966 turn (24.2), once in a campaign (24.1)."""
        self._may_declare("NT 24.2")
        if turn >= FULL_DEADLINE:
            raise RuleViolation("NT 24.2", f"Full Vietnamization must be declared before turn {FULL_DEADLINE} "
                                           f"(Jan/Feb 1966); this is turn {turn}")
        return replace(self, vietnamization=FULL)

    @implements("NT 24.3")
    def declare_partial(self, turn: int) -> "Policy":
        """Partial Vietnamization, at any time unless the peace party has won an election (24.3)."""
        self._may_declare("NT 24.3")
        if self.peace_party:
            raise RuleViolation("NT 24.3", "Partial Vietnamization may not be declared once the peace party has won")
        return replace(self, vietnamization=PARTIAL)

    def _may_declare(self, rule: str) -> None:
        if self.vietnamization != NONE or self.reversed_from is not None:
            raise RuleViolation(rule, "the Allied player declares Vietnamization once in a game, full or partial")

    @implements("NT 24.4", "NT 24.4.1", "NT 24.4.2", "NT 24.4.3", "NT 24.4.4")
    def reverse(self) -> "Policy":
        """Recommit US forces (24.4): extra election dice, 300 points to win, aid from both countries at once
        and three basic cadres again. Refused after a lost election or the 1972 election (24.4.4), and for a
        Partial Vietnamization an election imposed (23.8)."""
        if self.vietnamization == NONE:
            raise RuleViolation("NT 24.4", "there is no Vietnamization in effect to reverse")
        if self.forced:
            raise RuleViolation("NT 23.8", "a Partial Vietnamization imposed by the election may never be reversed")
        if any(lost for _, lost in self.elections):
            raise RuleViolation("NT 24.4.4", "Vietnamization may not be reversed once an election has been lost")
        if any(year == 1972 for year, _ in self.elections):
            raise RuleViolation("NT 24.4.4", "Vietnamization may not be reversed after the 1972 election")
        extra = 2 if self.vietnamization == FULL else 1
        return replace(self, vietnamization=NONE, reversed_from=self.vietnamization, extra_election_dice=extra,
                       aid=frozenset(AID_COUNTRIES))

    @implements("NT 26.1")
    def declare_uprising(self, turn: int) -> "Policy":
        """The National Uprising: once a campaign, not before the Jan/Feb 1967 turn (26.1)."""
        if self.uprising is not None:
            raise RuleViolation("NT 26.1", f"the uprising was already declared on turn {self.uprising}")
        if turn < UPRISING_FROM:
            raise RuleViolation("NT 26.1", f"no uprising before turn {UPRISING_FROM} (Jan/Feb 1967); "
                                           f"this is turn {turn}")
        return replace(self, uprising=turn)

    @implements("NT 27.1")
    def grant_aid(self, country: str) -> "Policy":
        """Aid granted by a roll stays for the rest of the game (27.1)."""
        if country not in AID_COUNTRIES:
            raise RuleViolation("NT 27.1", f"aid comes only from {AID_COUNTRIES}, not {country!r}")
        return replace(self, aid=self.aid | {country})

    def mine_haiphong(self) -> "Policy":
        """The fleet has laid the mines (14.2.2); the effects are read from :attr:`haiphong_mined`."""
        if self.haiphong_mined:
            raise RuleViolation("NT 14.2.2", "Haiphong is already mined")
        return replace(self, haiphong_mined=True)

    # --- elections ----------------------------------------------------------------------------------------
    @implements("NT 23.2", "NT 24.2.7", "NT 24.4.1", "NT 24.4.2")
    def election_dice(self, year: int) -> int:
        """Dice the Allied player rolls (then x10): 3 in 1968, 4 in 1972 (23.2); one fewer under Full
        Vietnamization (24.2.7); one or two more at the first election after a reversal (24.4.1-2)."""
        if year not in ELECTION_DICE:
            raise RuleViolation("NT 23.1", f"the elections are those of {sorted(ELECTION_DICE)}, not {year}")
        return ELECTION_DICE[year] - (self.vietnamization == FULL) + self.extra_election_dice

    @implements("NT 23.1", "NT 23.2", "NT 23.8")
    def hold_election(self, year: int, dice_total: int, points: int, us_or_seato_left: int = 0) -> "Policy":
        """Decide an election at the end of the Allied political phase of its turn.

        The peace party wins when the points are fewer than ten times the dice (23.2), or at once when an
        imposed Partial Vietnamization has left US or SEATO units in play (23.8). A win under 100 points imposes
        Partial Vietnamization, never to be reversed (23.8). A peace-party win cancels the benefits of Partial
        Vietnamization (24.3), which :meth:`partial_in_effect` reflects.
        """
        if any(y == year for y, _ in self.elections):
            raise RuleViolation("NT 23.1", f"the {year} election has already been held")
        dice = self.election_dice(year)
        if not dice <= dice_total <= 6 * dice:
            raise RuleViolation("NT 23.2", f"{dice} dice cannot total {dice_total}")
        lost = points < 10 * dice_total or (self.forced and us_or_seato_left > 0)
        policy = replace(self, elections=self.elections + ((year, lost),), extra_election_dice=0,
                         peace_party=self.peace_party or lost)
        if not lost and points < ELECTION_PARTIAL_BELOW:
            policy = replace(policy, vietnamization=PARTIAL if self.vietnamization == NONE else
                             self.vietnamization, forced=True)
        return policy

    # --- what the other rules read --------------------------------------------------------------------------
    @property
    def full_in_effect(self) -> bool:
        return self.vietnamization == FULL

    @property
    @implements("NT 24.3")
    def partial_in_effect(self) -> bool:
        """Partial Vietnamization with its benefits: a peace-party win cancels them (24.3)."""
        return self.vietnamization == PARTIAL and not self.peace_party

    @property
    def vietnamized(self) -> bool:
        return self.vietnamization != NONE

    @property
    @implements("NT 22.4", "NT 24.4.3")
    def win_threshold(self) -> int:
        """The Allies win when the track exceeds 250 points (22.4), 300 after a reversal (24.4.3)."""
        return WIN_AFTER_REVERSAL if self.reversed_from else WIN

    @implements("NT 4.1.1", "NT 24.2.9", "NT 24.3.4", "NT 24.4.3", "NT 26.2")
    def basic_cadres(self, turn: int, us_units_in_play: int) -> int:
        """Basic cadres this turn: 3 (4.1.1); 2 under Full Vietnamization (24.2.9) or under Partial once no US
        unit is left (24.3.4); none during the four uprising turns (26.2). A reversal restores 3 (24.4.3)."""
        if self.uprising_turn(turn):
            return 0
        if self.full_in_effect or (self.vietnamization == PARTIAL and us_units_in_play == 0):
            return 2
        return 3

    @implements("NT 26.5")
    def viet_cong_basic_cadres(self, turn: int) -> int:
        """How many basic cadres may be Viet Cong: one in the six turns after the uprising, then two for the rest
        of the game (26.5); otherwise all three."""
        if self.uprising is None or turn < self.uprising + UPRISING_TURNS:
            return 3
        return 1 if turn < self.uprising + UPRISING_TURNS + POOR_RECRUITMENT_TURNS else 2

    @implements("NT 26.2", "NT 26.6")
    def uprising_turn(self, turn: int) -> int | None:
        """Which of the four uprising turns this is (1-4), or None (26.2, 26.6)."""
        if self.uprising is not None and self.uprising <= turn < self.uprising + UPRISING_TURNS:
            return turn - self.uprising + 1
        return None

    @implements("NT 4.1.7")
    def nva_division_limit(self, turn: int) -> int | None:
        """At most ten NVA divisions on the map until the turn the uprising is declared (4.1.7)."""
        return None if self.uprising is not None and turn >= self.uprising else NVA_DIVISION_LIMIT

    @implements("NT 26.3")
    def uprising_recruits(self, turn: int) -> tuple[dict[str, int], ...]:
        """The choices of units the uprising gives in each South Vietnamese corps this turn: three cadres and a
        regiment in its first two turns, a regiment or two cadres in the last two (26.3); none otherwise."""
        n = self.uprising_turn(turn)
        if n is None:
            return ()
        return ({"cadre": 3, "regiment": 1},) if n <= 2 else ({"regiment": 1}, {"cadre": 2})

    @implements("NT 26.7")
    def rally_turn(self) -> int | None:
        """The South Vietnamese rally comes two turns after the uprising is declared (26.7)."""
        return None if self.uprising is None else self.uprising + 2

    @implements("NT 27.1.1", "NT 27.1.2", "NT 14.2.2")
    def aid_modifiers(self, allied_ground_in_nv: bool = False) -> tuple[str, ...]:
        """The Communist Aid chart's modifiers that apply now (their values are chart data): Full or Partial
        Vietnamization or a peace-party withdrawal (27.1.1), Allied ground units in North Vietnam (27.1.2), a
        mined Haiphong (14.2.2)."""
        names = []
        if self.full_in_effect:
            names.append("full_vietnamization")
        elif self.vietnamization == PARTIAL:
            names.append("partial_vietnamization")
        if self.peace_party:
            names.append("election_withdrawal")
        if allied_ground_in_nv:
            names.append("allied_ground_units_in_north_vietnam")
        if self.haiphong_mined:
            names.append("haiphong_mined")
        return tuple(names)

    @implements("NT 4.2.3", "NT 23.4", "NT 24.2.4", "NT 24.4.1", "NT 24.4.2")
    def replacement_pp(self, nationality: str) -> int:
        """Political points paid to replace an eliminated unit besides its replacement point.

        US: 2 (4.2.3), none under Full Vietnamization (24.2.4), 3 after a reversal (24.4.1-2), and never once
        the peace party has won (23.4). SEATO: 2 (4.2.3), 1 under Full Vietnamization (24.2.4, read literally).
        Other nationalities pay none.
        """
        if nationality == "US":
            if self.peace_party:
                raise RuleViolation("NT 23.4", "no US unit may be replaced once the peace party has won")
            return 3 if self.reversed_from else 0 if self.full_in_effect else 2
        if nationality in SEATO_NATIONS:
            return 1 if self.full_in_effect else 2
        return 0

    @implements("NT 4.2.2", "NT 23.4", "NT 24.2.5")
    def us_replacement_points(self) -> int:
        """US replacement points a turn: 2 (4.2.2), 3 under Full Vietnamization (24.2.5), at most 1 once the
        peace party has won (23.4)."""
        points = 3 if self.full_in_effect else 2
        return min(points, 1) if self.peace_party else points

    @implements("NT 24.2.6")
    def build_cost_factor(self, unit_type: str, nationality: str) -> Fraction:
        """Under Full Vietnamization ARVN and Cambodian militia and Montagnards cost half a point (24.2.6)."""
        cheap = unit_type == "montagnard" or (unit_type == "militia" and nationality in ("SVN", "Cambodian"))
        return Fraction(1, 2) if self.full_in_effect and cheap else Fraction(1)

    @implements("NT 24.2.1")
    def us_ground_limit(self) -> int | None:
        """Under Full Vietnamization at most six US ground combat units are on the map (24.2.1)."""
        return FULL_US_GROUND_LIMIT if self.full_in_effect else None

    @implements("NT 24.4.6")
    def attack_pp(self, with_us_or_seato_ground: bool) -> int:
        """Each attack by a force with US or SEATO ground units costs 1 point under Vietnamization (24.4.6)."""
        return int(self.vietnamized and with_us_or_seato_ground)

    @implements("NT 24.2.8")
    def air_operations_pp(self, countries: int) -> int:
        """Under Full Vietnamization, Allied air operations over North Vietnam, China or a neutral state cost
        1 point per country per turn (24.2.8)."""
        return countries if self.full_in_effect else 0

    @implements("NT 23.5")
    def bombing_pp(self, targets: int) -> int:
        """Once the peace party has won, each neutral country, China, North Vietnamese zone or hex bombed
        strategically by US aircraft costs 1 point (23.5)."""
        return targets if self.peace_party else 0

    @implements("NT 23.5")
    def neutrality_factor(self, us_units: bool) -> int:
        """US neutrality violations cost double once the peace party has won (23.5)."""
        return 2 if self.peace_party and us_units else 1

    @implements("NT 24.2.10")
    def points_bounds(self, turn: int) -> tuple[int, int] | None:
        """Under Full Vietnamization the track stays within 1..249 until the Nov/Dec 1968 turn is over, and the
        game cannot end before then (24.2.10)."""
        return (1, WIN - 1) if self.full_in_effect and turn <= ELECTIONS[1968] else None

    @implements("NT 23.3", "NT 23.3.3", "NT 23.6", "NT 24.3.1")
    def withdrawals(self, die: int | None = None, points: int | None = None) -> "Withdrawals":
        """What the Allied reinforcement phase must withdraw: the peace party's die of US units (23.3), one
        SEATO unit a turn below 100 points (23.6); under Partial Vietnamization 2 to 10 US or SEATO units
        (24.3.1). Never more than 10 a turn (23.3.3). The peace party's ``die`` is 0 on a turn no American unit is
        left in play, when no die is rolled."""
        if self.peace_party:
            if die is None or not 0 <= die <= 6:
                raise RuleViolation("NT 23.3", "the peace party's withdrawals need one die, 1-6 (0 once no "
                                               "American unit is left to withdraw)")
            seato = int(points is not None and points < SEATO_WITHDRAWAL_BELOW)
            return Withdrawals(required=die, maximum=MAX_WITHDRAWALS, seato=seato, credit_beyond=True)
        if self.partial_in_effect:
            return Withdrawals(required=MIN_PARTIAL_WITHDRAWALS, maximum=MAX_WITHDRAWALS, seato=0,
                               credit_beyond=False)
        return Withdrawals(required=0, maximum=0, seato=0, credit_beyond=False)

    @implements("NT 25.1")
    def demoralized(self, points: int) -> bool:
        """ARVN is demoralized for a player turn that starts with fewer than 50 points (25.1)."""
        return points < DEMORALIZED_BELOW

    @implements("NT 25.3", "NT 25.4", "NT 25.4.2")
    def morale_rules(self, points: int, us_ground_in_svn: bool) -> frozenset[str]:
        """Which demoralization rules apply: 25.3 (desertion when cities fall) while US ground units are in
        Vietnam or Full Vietnamization is called; 25.4 (a desertion roll before each combat) when none are left,
        the peace party has won, or only Partial Vietnamization is in effect. 25.4.2 keeps the others, so
        both can apply at once."""
        if not self.demoralized(points):
            return frozenset()
        rules = set()
        if us_ground_in_svn or self.full_in_effect:
            rules.add("NT 25.3")
        if not us_ground_in_svn or self.peace_party or self.vietnamization == PARTIAL:
            rules.add("NT 25.4")
        return frozenset(rules)


@dataclass(frozen=True)
class Withdrawals:
    """A turn's withdrawal orders: ``required`` US (or, under Partial Vietnamization, US or SEATO) units,
    at most ``maximum``; ``seato`` SEATO units besides; whether units beyond ``required`` earn a point."""

    required: int
    maximum: int
    seato: int
    credit_beyond: bool

    @implements("NT 23.3.1", "NT 23.3.2", "NT 24.3.2")
    def points(self, withdrawn: int) -> int:
        """Political points for withdrawing ``withdrawn`` units: under the peace party -2 per unit short of the
        die (23.3.1) and +1 per unit beyond it (23.3.2); under Partial Vietnamization +1 per unit (24.3.2)."""
        if withdrawn > self.maximum:
            raise RuleViolation("NT 23.3.3", f"at most {self.maximum} units may be withdrawn in a turn")
        if withdrawn < 0:
            raise RuleViolation("NT 23.3", "a negative number of units cannot be withdrawn")
        if self.credit_beyond:
            short = max(self.required - withdrawn, 0)
            return withdrawn - self.required - short
        if withdrawn < self.required:
            raise RuleViolation("NT 24.3.1", f"Partial Vietnamization withdraws at least {self.required} units "
                                             f"a turn")
        return withdrawn


PEACE_PARTY, ALLIED_WIN, IMPOSED = "peace party wins", "Allied win", "Allied win, Partial Vietnamization imposed"


def add_election_die(roll: list[int], dice) -> None:
    """One die of the election roll (23.2): ``roll`` is [total so far, dice still to roll]."""
    roll[0] += roll_die(dice, 6, "NT 23.2 election die")
    roll[1] -= 1


def election_total(dice, count: int) -> int:
    """The election roll: ``count`` dice added (23.2); ten times the total is the bar to clear."""
    roll = [0, count]
    while roll[1]:
        add_election_die(roll, dice)
    return roll[0]


@lru_cache(maxsize=None)
def election_totals(count: int) -> Distribution:
    """The exact distribution of :func:`election_total`, one die at a time with equal totals merged."""
    dist, _ = enumerate_chain([0, count], add_election_die, key=tuple, done=lambda roll: roll[1] == 0, copy=list)
    return dist.map(lambda key: key[0])


@implements("NT 23.2", "NT 23.8")
def election_result(policy: Policy, year: int, total: int, points: int, us_or_seato_left: int = 0) -> str:
    """What an election with this dice total gives: :data:`PEACE_PARTY`, :data:`ALLIED_WIN` or
    :data:`IMPOSED` (a win under 100 points, 23.8)."""
    after = policy.hold_election(year, total, points, us_or_seato_left)
    if after.elections[-1][1]:
        return PEACE_PARTY
    return IMPOSED if after.forced and not policy.forced else ALLIED_WIN


def election_odds(policy: Policy, year: int, points: int, us_or_seato_left: int = 0) -> Distribution:
    """The exact odds of each election result: the dice totals are enumerated once (the same roll the game
    makes) and each is judged by :meth:`Policy.hold_election`."""
    totals = election_totals(policy.election_dice(year))
    return totals.map(lambda t: election_result(policy, year, t, points, us_or_seato_left))


@implements("NT 24.3.3")
def arvn_points_for_withdrawals(us_withdrawn: int) -> int:
    """One ARVN replacement point, for one turn, for every four US units withdrawn (24.3.3)."""
    return us_withdrawn // 4


@dataclass(frozen=True)
class PoliticalTrack:
    """The single political-points track (22.4). Points are whole numbers."""

    points: int

    @implements("NT 22.3", "NT 24.2.10")
    def add(self, delta: int, policy: Policy, turn: int) -> "PoliticalTrack":
        """Move the track by ``delta``. Before the end of the Nov/Dec 1968 turn under Full Vietnamization the
        part that would pass 249 or fall below 1 is ignored (24.2.10); otherwise the track is unbounded and the
        victory check decides."""
        value = self.points + delta
        bounds = policy.points_bounds(turn)
        if bounds is not None:
            value = min(max(value, bounds[0]), bounds[1])
        return PoliticalTrack(value)

    @implements("NT 22.4")
    def winner(self, policy: Policy) -> str | None:
        """Checked at the end of a political phase: the Allies win above the threshold, the Communists below
        zero (22.4)."""
        if self.points > policy.win_threshold:
            return "allied"
        if self.points < 0:
            return "communist"
        return None
