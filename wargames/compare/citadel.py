"""Citadel's version of the common engagement: Vietminh battalions close on a Béatrice strongpoint under the
garrison's opportunity fire (C 8, fired as C 9), then attack it in melee (C 11, with the C 13 and C 14 shifts).

Everything is exact. The approach is enumerated with :func:`wargames.core.enumerate_outcomes` over
:func:`wargames.citadel.fire.resolve_fire` (the procedure opportunity fire runs, C 8); for each position it can
leave, the melee's own distribution is :func:`wargames.citadel.melee.melee_odds` (which plays
:func:`~wargames.citadel.melee.play_melee` on every die); the two are weighted and added.

How a melee's end becomes a :class:`~wargames.compare.Verdict`:

- ``taken`` is :attr:`MeleeOutcome.taken`: Vietminh stand in the hex at the end (after the advance, C 11.D).
- ``attacker_loss``: strength points the battalions lost, to the approach fire and in the melee, over their
  strength at the start of the approach (the pinned battalions included); ``defender_loss``: the garrison's
  melee losses over its strength.
- fates from :attr:`MeleeOutcome.result`: "defender routed" / "attacker routed" / "both routed" -> ``routed``
  (the pre-melee morale check, C 11.C.3); "defender retreats" / "attacker retreats" -> ``retreats`` (the
  Melee Combat Table); a side with no strength left -> ``eliminated``; an attacker with any battalion pinned by
  the approach fire (C 8, C 9), and not routed or retreating, -> ``suppressed`` (so is an attack that never
  comes because every battalion was pinned); otherwise ``stands``.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
from fractions import Fraction
from functools import lru_cache

from ..citadel.fire import resolve_fire
from ..citadel.melee import MeleeOutcome, advance_all, melee_odds, play_melee
from ..citadel.scenarios import shipped_oob
from ..citadel.state import CitadelState
from ..citadel.terrain import valley_map
from ..core import Distribution, Resolution, ScriptedDice, enumerate_outcomes
from . import Curve, Engagement, Example, HistoryCase, Verdict, Worth

GAME = "citadel"
#: B-2, Béatrice's north-eastern strongpoint: a hill hex whose every hexside carries wire and hill (the map).
TARGET = "N3313"
#: Two companies of III/13e DBLE, the Béatrice garrison of Scenario 1 (legion companies 3-4).
GARRISON = ("9/III-13DBLE", "10/III-13DBLE")
#: Each attacking battalion's lane: (unit, the vulnerability point where it pauses or None, the hex it attacks
#: from). The first two cross open ground and pause at their third clear hex, two hexes out, just outside the
#: garrison's zone of control (C 8); the third and fourth step from the full jungle straight into their attack
#: hexes (partial jungle inside the French zone of control: no vulnerability point, C 8). The fifth, the "one more
#: unit" of :func:`worths`, attacks from the hill hex N3213 and is taken to arrive there unfired.
LANES = (("1/141", "N3311", "N3312"), ("2/141", "N3315", "N3314"), ("3/141", None, "N3412"),
         ("4/141", None, "N3413"), ("1/209", None, "N3213"))
#: Two companies of V/7e RTA, Gabrielle's garrison in Scenario 1 (Algerian companies 3-3).
RTA = ("1/V-7RTA", "2/V-7RTA")
DATE = dt.date(1954, 3, 13)
#: The engagement: three full battalions (14 strength points each) of the 141st Regiment.
ENGAGEMENT = (14, 14, 14)
#: The curve's attacking forces, weakest first: battalion strengths (9 is a battalion's inverted side, C 9.3).
CURVE = ((6,), (9,), (14,), (14, 9), (14, 14), (14, 14, 14), (14, 14, 14, 14))


# --------------------------------------------------------------------------- the position

def _battalion(counter, morale: int):
    """A Vietminh battalion counter as the position needs it: ``morale`` added to its printed values."""
    if morale:
        counter = dataclasses.replace(counter, morale=counter.morale + morale,
                                      reduced_morale=counter.reduced_morale + morale)
    return counter


def _set_strength(u, strength: int) -> None:
    """Give a battalion ``strength`` points the way losses would (C 9.3: inverted after five steps)."""
    lost = u.counter.strength - strength
    if not 0 <= lost < u.counter.strength:
        raise ValueError(f"a battalion has 1 to {u.counter.strength} strength points, not {strength}")
    if lost >= u.counter.strength - u.counter.reduced_strength:
        u.inverted, u.losses = True, u.counter.reduced_strength - strength
    else:
        u.losses = lost


@lru_cache(maxsize=None)
def _valley():
    return valley_map()


@lru_cache(maxsize=None)
def _charts():
    st = CitadelState.build(_valley(), [], date=DATE)
    return st.tables(), st.mct()


def position(strengths=ENGAGEMENT, morale: int = 0, shift: int = 0, phase: str = "VM movement",
             garrison=GARRISON) -> CitadelState:
    """A fresh copy of :func:`_position` (built once for each set of arguments)."""
    return _position(tuple(strengths), morale, shift, phase, tuple(garrison)).copy()


@lru_cache(maxsize=None)
def _position(strengths, morale: int, shift: int, phase: str, garrison) -> CitadelState:
    """The Scenario 1 units on the valley map: the two garrison companies in B-2 and one battalion per lane,
    at its vulnerability point if it has one, else at its attack hex. ``morale`` is added to every
    battalion's morale; ``shift`` columns are taken off the strongpoint's melee shift (C 14, Terrain Effects
    Chart), in the attacker's favour."""
    if len(strengths) > len(LANES):
        raise ValueError(f"at most {len(LANES)} battalions have a lane to B-2")
    oob = shipped_oob()
    placements = [(oob.counters[c], TARGET) for c in garrison]
    for (uid, vp, at), _s in zip(LANES, strengths):
        placements.append((_battalion(oob.counters[uid], morale), vp or at))
    (crt, ranges, tec), mct = _charts()
    st = CitadelState.build(_valley(), placements, date=DATE, phase=phase)
    st.charts, st.melee_crt = (crt, ranges, tec), mct
    for (uid, _, _), s in zip(LANES, strengths):
        _set_strength(st.unit(uid), s)
    if shift:
        sp = tec.features["strongpoint"]
        features = {**tec.features, "strongpoint": dataclasses.replace(sp, melee_shift=sp.melee_shift + shift)}
        st.charts = (crt, ranges, dataclasses.replace(tec, features=features))
    return st


def approach(st: CitadelState, dice, res: Resolution | None = None) -> tuple:
    """The approach (C 8): garrison company i fires once, alone, at the battalion of lane i paused at its
    vulnerability point (one firer per point, each firer once a phase); fire is resolved as in C 9. Battalions
    left unpinned go on to their attack hexes; pinned ones end their move where they are (C 8).

    Returns the battalions' state after it: ((unit, hex, strength, inverted, losses, pinned), ...)."""
    res = res if res is not None else Resolution()
    fired = [(uid, vp) for uid, vp, _ in LANES if vp and uid in st.units]
    garrison = [u.id for u in st.units_at(st.map.hex(TARGET))]
    for firer, (uid, vp) in zip(garrison, fired):
        res.add("C 8", f"{uid} pauses at its vulnerability point {vp}; {firer} fires at it")
        resolve_fire(st, [firer], st.map.hex(vp), dice, targets=[uid], res=res)
    out = []
    for uid, vp, at in LANES:
        if uid not in st.units:
            continue
        u = st.unit(uid)
        if u.on_board and not u.pinned and vp:
            u.hex = st.map.hex(at)
            res.add("C 8", f"{uid} is not pinned and moves on to {at}, next to B-2")
        out.append((uid, st.label(u.hex) if u.on_board else None, u.strength, u.inverted, u.losses, u.pinned))
    return tuple(out)


def _after(strengths, morale, shift, after, garrison=GARRISON) -> CitadelState:
    """The position at the start of the melee phase once the approach has left the battalions as ``after``."""
    st = position(strengths, morale, shift, phase="VM melee", garrison=garrison)
    for uid, where, _s, inverted, losses, pinned in after:
        u = st.unit(uid)
        if where is None:
            u.eliminated = True
        else:
            u.hex = st.map.hex(where)
        u.inverted, u.losses, u.pinned = inverted, losses, pinned
    return st


def attackers(after) -> list[str]:
    """The battalions that reach their attack hex unpinned: the ones that fight the melee (C 11.A)."""
    return [uid for uid, where, _s, _i, _l, pinned in after if where is not None and not pinned
            and where in {at for _, _, at in LANES}]


@lru_cache(maxsize=None)
def approach_dist(strengths, morale: int, shift: int, garrison) -> Distribution:
    """The exact distribution of the battalions' state after the approach (see :func:`approach`)."""
    return enumerate_outcomes(lambda d: approach(position(strengths, morale, shift, garrison=garrison), d))


@lru_cache(maxsize=None)
def melee_dist(strengths, morale: int, shift: int, garrison, after) -> Distribution | None:
    """The melee's exact distribution once the approach has left ``after``; None when no battalion attacks."""
    who = attackers(after)
    if not who:
        return None
    st = _after(strengths, morale, shift, after, garrison)
    return melee_odds(st, who, st.map.hex(TARGET))


def verdict(strengths, after, melee: MeleeOutcome | None, garrison=GARRISON) -> Verdict:
    """One end of the engagement as a :class:`Verdict` (the mapping of the module docstring)."""
    start = sum(strengths)
    fire_loss = start - sum(s for _, where, s, *_ in after if where is not None)
    held = sum(shipped_oob().counters[c].strength for c in garrison)
    if melee is None:                       # every battalion pinned on the way: no melee (C 8, C 11.A)
        return Verdict(False, Fraction(fire_loss, start), Fraction(0), "suppressed", "stands")
    a_loss = Fraction(fire_loss + melee.attacker_losses, start)
    d_loss = Fraction(melee.defender_losses, held)
    r = melee.result
    fate = {"attacker routed": ("routed", "stands"),
            "both routed": ("routed", "routed"), "defender routed": ("stands", "routed"),
            "defender retreats": ("stands", "retreats"), "attacker retreats": ("retreats", "stands"),
            "pre-melee rout": ("stands", "eliminated")}.get(r, ("stands", "stands"))
    a_fate, d_fate = fate
    if a_fate == "stands" and any(pinned for *_, pinned in after):
        a_fate = "suppressed"               # part of the force pinned on the way (C 9)
    if a_loss == 1:
        a_fate = "eliminated"
    if d_loss == 1:
        d_fate = "eliminated"
    return Verdict(melee.taken, a_loss, d_loss, a_fate, d_fate)


@lru_cache(maxsize=None)
def outcome(strengths=ENGAGEMENT, morale: int = 0, shift: int = 0, garrison=GARRISON) -> Distribution:
    """The exact distribution of :class:`Verdict` for these battalions: approach, then melee, weighted."""
    strengths = tuple(strengths)
    acc: dict = {}
    for after, p in approach_dist(strengths, morale, shift, tuple(garrison)).items():
        melee = melee_dist(strengths, morale, shift, tuple(garrison), after)
        for m, q in (melee.items() if melee is not None else [(None, Fraction(1))]):
            v = verdict(strengths, after, m, garrison)
            acc[v] = acc.get(v, Fraction(0)) + p * q
    return Distribution(acc)


def clear_caches() -> None:
    """Forget every cached position and distribution (for tests that change the set-up)."""
    for f in (_position, approach_dist, melee_dist, outcome, engagement, taking_curve, worths, history):
        f.cache_clear()


def p_taken(strengths=ENGAGEMENT, morale: int = 0, shift: int = 0, garrison=GARRISON) -> Fraction:
    return outcome(tuple(strengths), morale, shift, tuple(garrison)).prob(lambda v: v.taken)


# --------------------------------------------------------------------------- the five public functions

def example() -> Example:
    """The engagement played once with chosen dice: the first shot misses (6), the second pins the 2nd
    Battalion (1); the 1st and 3rd attack; morale dice 2 (defender) and 5 (attacker); the table die 3."""
    st = position()
    res = Resolution()
    after = approach(st, ScriptedDice([6, 1], source="chosen dice"), res)
    st.phase = "VM melee"
    who = attackers(after)
    play_melee(st, who, st.map.hex(TARGET), ScriptedDice([2, 5, 3], source="chosen dice"), res, choose=advance_all)
    return Example(GAME, "Three battalions of the 141st Regiment close on B-2 and attack it in melee", res)


MAPPING = (
    "The position is B-2, Béatrice's north-eastern strongpoint (hex N3313, hill, wire on every hexside), held by "
    "two companies of III/13e DBLE from Scenario 1, 6 strength points at morale 4 (C Sc 1, C 14).",
    "The Vietminh attack with three battalions of the 141st Regiment (312th Division), 14 strength points and "
    "morale 4 each, on the first day of Scenario 1 (C Sc 1).",
    "Two battalions cross open ground and pause at their third clear hex two hexes out, outside the garrison's "
    "zone of control; the third steps from the full jungle straight into its attack hex, a partial jungle hex "
    "in the French zone of control, and meets no vulnerability point (C 8).",
    "Each garrison company fires once, alone, at one paused battalion, small arms at range 2, as only one unit "
    "fires at each vulnerability point and each fires once a phase (C 8, resolved as fire combat, C 9).",
    "A pinned battalion ends its move short of the wire and so takes no part in the melee (C 8, C 11.A).",
    "The battalions that reach their hexes attack B-2 together; the melee shift of the strongpoint applies, the "
    "hill bonus does not, as every hexside of B-2 is a hill hexside (C 11, C 13, C 14).",
    "Decisions inside the melee are the engine's default: the first legal hex or unit, and an advance with "
    "every attacker stacking lets in (C 11.D).",
    "Losses are strength points (C 9.3, C 11): the attacker's over the three battalions' 42, approach fire "
    "included; the defender's over the garrison's 6.",
)


@lru_cache(maxsize=None)
def engagement() -> Engagement:
    """Three battalions against B-2: the exact distribution of the approach and the melee, as Verdicts."""
    return Engagement(GAME, "Three Vietminh battalions assault Béatrice's strongpoint B-2 after the approach "
                            "under opportunity fire", MAPPING, outcome(ENGAGEMENT), force="strength points")


def _x(strengths) -> Fraction:
    return Fraction(sum(strengths), sum(shipped_oob().counters[c].strength for c in GARRISON))


@lru_cache(maxsize=None)
def taking_curve() -> Curve:
    """P(B-2 taken) against attacking strength over the garrison's 6 points: one reduced battalion up to four
    full ones. A step function: the melee reads an odds table (C 11)."""
    return Curve(GAME, "attacking battalions' strength points to the garrison's 6",
                 tuple(_x(s) for s in CURVE), tuple(p_taken(s) for s in CURVE), step=True)


@lru_cache(maxsize=None)
def worths() -> list[Worth]:
    """At each point of the curve: one column shift in the attacker's favour (the strongpoint's melee shift one
    smaller, C 14), one more full battalion (attacking from N3213, taken to arrive unfired),
    and one morale point more for every battalion (C 11.C.2-3)."""
    xs = tuple(_x(s) for s in CURVE)
    base = [p_taken(s) for s in CURVE]
    shift = tuple(p_taken(s, shift=1) - b for s, b in zip(CURVE, base))
    unit = tuple(p_taken(s + (14,)) - b for s, b in zip(CURVE, base))
    morale = tuple(p_taken(s, morale=1) - b for s, b in zip(CURVE, base))
    return [Worth(GAME, "one column shift", xs, shift), Worth(GAME, "one more unit", xs, unit),
            Worth(GAME, "one morale point", xs, morale)]


@lru_cache(maxsize=None)
def history() -> list[HistoryCase]:
    """Béatrice and Gabrielle, both in Scenario 1, each set up as the engagement with that position's units."""
    sources = ("Bernard B. Fall, Hell in a Very Small Place: The Siege of Dien Bien Phu (1966)",
               "Martin Windrow, The Last Valley: Dien Bien Phu and the French Defeat in Vietnam (2004)")
    beatrice = p_taken(ENGAGEMENT)
    weak = (14,)
    gabrielle = p_taken(ENGAGEMENT, garrison=RTA)
    return [
        HistoryCase(
            GAME, "Béatrice, 13-14 March 1954",
            "On the evening of 13 March 1954 the 312th Division assaulted Béatrice, held by III/13e DBLE; the "
            "position fell during the night, within hours of the first assault.",
            sources,
            "Scenario 1 (C Sc 1): three full battalions of the 141st Regiment against two III/13e DBLE companies "
            "in B-2, with the garrison's opportunity fire on the approach (C 8, C 9) and the melee (C 11, C 14).",
            "B-2 taken in the first melee", beatrice,
            "a single battalion attacking instead of three", p_taken(weak)),
        HistoryCase(
            GAME, "Gabrielle, 14-15 March 1954",
            "On the evening of 14 March the Viet Minh, with the 308th Division leading, attacked Gabrielle, held "
            "by the Algerian 5/7e RTA; the position held through part of the night and was lost on the morning "
            "of the 15th, after a French counterattack failed to relieve it.",
            sources,
            "Scenario 1 (C Sc 1): three full battalions (14 strength points, morale 4, as every Vietminh "
            "battalion of the scenario) against two 5/7e RTA companies (3 strength points, morale 3), set in "
            "B-2 with the engagement's approach: the ground is Béatrice's, a hill strongpoint as Gabrielle's "
            "were, so that only the defenders differ (C 11, C 14).",
            "the strongpoint taken in the first melee", gabrielle,
            "a single battalion attacking instead of three", p_taken(weak, garrison=RTA),
        ),
    ]
