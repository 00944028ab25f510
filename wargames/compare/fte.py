"""Front Toward Enemy in the common vocabulary: NVA fire teams assault a US fire team in a bunker (F 8.0).

FTE fights man by man: an assault (F 8.0) opens with the defenders' opportunity fire at the assaulting units
(F 21.0, terrain counting for them), then every assaulting unit takes a Troop Quality check to go in, then up
to three simultaneous fire rounds; the hex is cleared when every defender is broken or gone. A bunker adds +2 to
every fire attack against the (up to two) infantry units inside (F 24.0). Every figure here comes from
:func:`wargames.fte.assault.assault_distribution`, the exact enumeration of the same assault procedure the game
plays, whose outcome is an :class:`~wargames.fte.assault.AssaultOutcome`: the result and the KIA and WIA
markers each side got.

Verdict mapping (:func:`verdict_of`). Loss shares count steps: a fire team has two (its full and reduced
sides), a reduced team one, and each KIA or WIA marker is one step lost (F 7.4, F 7.5.1: a full team flips, a
reduced one is removed).

* ``cleared``: every defender is broken or gone and the attackers may advance into the hex (F 8.0): ``taken``. The
  defender is ``eliminated`` when its markers use up all its steps, else it broke and ``retreats`` two hexes
  (F 7.4); the attackers ``stand`` (those still fighting advance).
* ``repulsed``: no assaulting unit is left in the fight (each broken, suppressed, failed its TQ check or gone):
  not taken; the attackers fall back (``retreats``, or ``eliminated`` when their markers use up all their
  steps); the defender ``stands``.
* ``unresolved``: three rounds pass with both sides still in the fight (F 8.0): not taken, both ``stand``.
  With no marker on either side that is the "no effect" of the common table.

The outcome does not say which attackers were suppressed rather than broken, so a repulse is counted as a
fall-back; a defender broken with no room to retreat would be eliminated with one KIA (F 7.4), which the
position here leaves room for.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ..core import ScriptedDice
from ..fte.assault import AssaultOutcome, AssaultPlan, assault, assault_distribution
from ..fte.examples import ASSAULT_DICE, assault_example
from ..fte.sites import add_site
from ..fte.state import FteState, place
from ..fte.terrain import demo_map
from ..fte.units import Site, Unit
from . import Curve, Engagement, Example, HistoryCase, Verdict, Worth

GAME = "fte"

#: The bunker's hex on the demonstration map (clear, open on every side) and the hexes the NVA assault from.
BUNKER_HEX = "21.21"
APPROACH = ("21.22", "22.21", "22.20")
US_TEAM = "US FT"


def nva_team(i: int, at, full: bool = True, tq: int = 4) -> Unit:
    """NVA fire team ``i`` in hex ``at``, as the Assault Example prints one (fire rating 4, TQ 4, four men); a
    reduced team has the reconstructed reduced side (one man and one fire rating fewer, F 7.5.1)."""
    if full:
        return Unit(f"NVA FT {i + 1}", "NVA", fire_rating=4, weapon="SA", tq=tq, men=4, hex=at)
    return Unit(f"NVA FT {i + 1}", "NVA", fire_rating=3, weapon="SA", tq=tq, men=3, reduced=True, hex=at)


def position(teams: tuple[bool, ...] = (True, True), fort: str | None = "bunker", tq: int = 4) -> FteState:
    """One US fire team (the Assault Example's: fire rating 4, TQ 4, range 4, four men) in a revealed ``fort``
    ("bunker", "foxholes" or None) in clear hex 21.21, and one NVA fire team per entry of ``teams`` (True: a
    full team, False: a reduced one), each in a hex next to it."""
    s = FteState(demo_map())
    h = s.hex
    us = Unit(US_TEAM, "US", fire_rating=4, weapon="SA", tq=4, range=4, men=4, hex=h(BUNKER_HEX), fort=fort)
    nva = [nva_team(i, h(APPROACH[i % len(APPROACH)]), full, tq) for i, full in enumerate(teams)]
    place(s, [us, *nva])
    if fort:
        add_site(s, Site(fort, fort, "US", h(BUNKER_HEX), revealed=True, occupants=[US_TEAM]))
    return s


def plan(teams: tuple[bool, ...]) -> AssaultPlan:
    """Every NVA team assaults the bunker hex, firing as one attack (F 7.1 support); the US team takes its
    opportunity fire at the first of them before their TQ checks (F 8.0, F 21.0). The plan stops short of the
    advance into a cleared hex: advancing would remove or capture the US markers left there (F 7.5.3), so the
    outcome would no longer count them, and it changes nothing else of the assault."""
    return AssaultPlan(tuple(f"NVA FT {i + 1}" for i in range(len(teams))), BUNKER_HEX,
                       defender_opfire=((US_TEAM, "NVA FT 1"),), advance=False)


def steps(teams: tuple[bool, ...]) -> int:
    return sum(2 if full else 1 for full in teams)


def verdict_of(out: AssaultOutcome, teams: tuple[bool, ...], us_steps: int = 2) -> Verdict:
    """Map one :class:`AssaultOutcome` onto a :class:`Verdict` (see the module docstring)."""
    a_lost = min(out.attacker_kia + out.attacker_wia, steps(teams))
    d_lost = min(out.defender_kia + out.defender_wia, us_steps)
    a_share, d_share = Fraction(a_lost, steps(teams)), Fraction(d_lost, us_steps)
    if out.result == "cleared":
        return Verdict(True, a_share, d_share, "stands", "eliminated" if d_share == 1 else "retreats")
    if out.result == "repulsed":
        return Verdict(False, a_share, d_share, "eliminated" if a_share == 1 else "retreats", "stands")
    if out.result == "unresolved":
        return Verdict(False, a_share, d_share, "stands", "stands")
    raise ValueError(f"an FTE assault ends cleared, repulsed or unresolved, not {out.result!r}")


@lru_cache(maxsize=None)
def outcomes(teams: tuple[bool, ...] = (True, True), fort: str | None = "bunker", tq: int = 4):
    """The exact distribution of :class:`AssaultOutcome` of the assault (the game's enumeration)."""
    return assault_distribution(position(teams, fort, tq), plan(teams))[0]


@lru_cache(maxsize=None)
def verdicts(teams: tuple[bool, ...] = (True, True), fort: str | None = "bunker", tq: int = 4):
    return outcomes(teams, fort, tq).map(lambda o: verdict_of(o, teams))


def p_taken(teams: tuple[bool, ...] = (True, True), fort: str | None = "bunker", tq: int = 4) -> Fraction:
    return outcomes(teams, fort, tq).prob(lambda o: o.result == "cleared")


# ------------------------------------------------------------------------------------------------ 1. example
def example() -> Example:
    """The printed Assault Example (F 8.0): two US fire teams, combining their fire, assault a concealed NVA
    fire team in jungle; the NVA breaks the team in 19.19 in round 1, and after three rounds the assault ends
    unresolved with the NVA team suppressed."""
    plan_ = AssaultPlan(("US FT 20.20", "US FT 19.19"), "20.19", combine=True, primary="US FT 20.20",
                        defender_targets=(("NVA FT", "US FT 19.19"),))
    with ScriptedDice(ASSAULT_DICE, "Assault Example") as d:
        run = assault(assault_example(), plan_, d)
    return Example(GAME, "The F 8.0 Assault Example: two US fire teams against a concealed NVA team in jungle",
                   run.res)


# --------------------------------------------------------------------------------------------- 2. engagement
ENGAGEMENT = (True, True)


def engagement() -> Engagement:
    """The common engagement: two NVA fire teams assault one US fire team in a bunker."""
    return Engagement(
        GAME, "Two NVA fire teams assault a US fire team in a bunker, through its opportunity fire",
        (
            "FTE's scale is the fire team: the position is one US fire team (fire rating 4, TQ 4, four men, as "
            "in the F 8.0 Assault Example) and the attack two NVA fire teams of the same values (an NVA squad).",
            "The fortification is a bunker, already revealed: +2 to every fire attack on the team inside "
            "(F 24.0), in every round of the assault and against nothing else.",
            "The ground is clear (hex 21.21 of the demonstration map, fire modifier 0, F 7.1), so the bunker is "
            "the only cover; the NVA attack from two clear hexes next to it.",
            "Opportunity fire on the approach: the US team fires at the first NVA team once it is declared to "
            "assault, before the TQ checks, with terrain counting for the target (F 8.0, F 21.0; a TQ check "
            "first, F 21.0).",
            "Each NVA team must pass a TQ check to go in (F 8.0); no leader leads them, so none passes "
            "automatically.",
            "The NVA fire as one attack, the first team firing and the other adding -1 (F 7.1); -1 for firing "
            "into the adjacent hex (F 7.1); no terrain for the assaulting teams in round 1 (F 8.0).",
            "Taken: the assault clears the hex, every defender broken or gone, and the NVA advance (F 8.0); "
            "repulsed or unresolved after three rounds: held.",
            "Losses are steps, one per KIA or WIA marker (F 7.4, F 7.5.1): a fire team has two.",
        ),
        verdicts(ENGAGEMENT),
        force="steps (a fire team has two; each KIA or WIA marker is one, F 7.5.1)",
    )


# ---------------------------------------------------------------------------------------------------- 3. curve
#: The assaulting forces of the curve, weakest first (True: a full four-man team, False: a reduced three-man one).
LADDER = ((False,), (True,), (True, False), (True, True), (True, True, True))


def men(teams: tuple[bool, ...]) -> int:
    return sum(4 if full else 3 for full in teams)


@lru_cache(maxsize=None)
def taking_curve() -> Curve:
    """P(taken) against the NVA men over the US men, from one reduced team (3 against 4) to three full teams
    (12 against 4), each force assaulting the bunker as in the engagement. Five points: every exact assault on
    a bunker is enumerated step by step (about half a second for two teams, several for three)."""
    return Curve(GAME, "NVA men over US men in the assault (fire teams of four, a reduced team three; one US "
                       "team of four in a bunker)",
                 tuple(Fraction(men(t), 4) for t in LADDER), tuple(p_taken(t) for t in LADDER), step=False)


# --------------------------------------------------------------------------------------------------- 4. worths
#: The points of the curve where the worths are worked out (each exact assault with a bunker takes a while, so
#: not the three-team point).
WORTH_LADDER = ((False,), (True,), (True, True))


@lru_cache(maxsize=None)
def worths() -> list[Worth]:
    """At three forces of the curve (one reduced team, one full team, two full teams), what P(taken) gains
    from: one DRM (the US team in foxholes, +1, F 25.0, instead of a bunker, +2, F 24.0: one point less on
    every NVA to-hit roll against it); one morale
    point (TQ 5 instead of 4 for every NVA team: the TQ check to go in and the S? checks, F 1.2, F 8.0); one
    more unit (one more full NVA fire team, first in the line, so it draws the opportunity fire)."""
    xs = tuple(Fraction(men(t), 4) for t in WORTH_LADDER)
    base = [p_taken(t) for t in WORTH_LADDER]
    drm = tuple(p_taken(t, "foxholes") - b for t, b in zip(WORTH_LADDER, base))
    tq = tuple(p_taken(t, tq=5) - b for t, b in zip(WORTH_LADDER, base))
    unit = tuple(p_taken((True,) + t) - b for t, b in zip(WORTH_LADDER, base))
    return [Worth(GAME, "one DRM", xs, drm), Worth(GAME, "one morale point", xs, tq),
            Worth(GAME, "one more unit", xs, unit)]


# -------------------------------------------------------------------------------------------------- 5. history
@lru_cache(maxsize=None)
def history() -> list[HistoryCase]:
    """A representative close assault on a US perimeter of the kind FTE models, after LZ X-Ray (Ia Drang)."""
    teams = (True, True)
    held = 1 - p_taken(teams, "foxholes")
    in_open = 1 - p_taken(teams, None)
    return [
        HistoryCase(
            GAME, "A close assault on a US perimeter: LZ X-Ray, Ia Drang, November 1965 (representative)",
            "At Landing Zone X-Ray in the Ia Drang valley (14-16 November 1965) the 1st Battalion, 7th Cavalry "
            "held a perimeter of foxholes against repeated close assaults by North Vietnamese regulars; the "
            "perimeter held, with heavy losses on both sides.",
            ("Harold G. Moore and Joseph L. Galloway, We Were Soldiers Once... and Young (1992)",),
            "A representative assault, not a recreation of any moment of the battle: two NVA fire teams (a "
            "squad of the assaulting force) rush one US fire team in foxholes (+1, F 25.0) on clear ground, "
            "through its opportunity fire (F 8.0, F 21.0), with the values of the F 8.0 Assault Example.",
            "Held: the assault is repulsed or ends unresolved after three rounds (F 8.0).",
            held,
            "No foxholes: the US team caught in the open",
            in_open,
        ),
    ]
