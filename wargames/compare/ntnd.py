"""No Trumpets No Drums in the common vocabulary: an NVA division against a firebase-supported defence (NT 19).

NTND fights at division scale with one die a side: each side averages the morale of its ground combat units
(NT 19.2.1), adds fire support (19.2.2), the defender adds terrain (19.2.3), the side with twice or three times
the units adds 1 or 2 (19.2.4), and the higher total after the die wins (19.2.6). Every figure here comes from
:func:`wargames.ntnd.combat.combat_odds`, the exact enumeration of the same :func:`~wargames.ntnd.combat.resolve`
the game plays, with a summary that keeps what :class:`~wargames.compare.Verdict` needs.

Verdict mapping (:func:`verdict_of`; "units" are the engaged units: ground combat units, and a firebase in the hex):

* the attacker wins (19.2.6): the defender loses one ground combat unit (two at twice the loser's total) and every
  other defending unit must retreat one hex; a firebase forced to retreat is eliminated instead (19.3.7). The hex
  is then empty of defenders and the winner may advance into it (19.4): ``taken``. The defender's fate is
  ``eliminated`` when nothing is left of it, else ``retreats``; the attacker ``stands`` with no loss.
* a tie (19.2.6): each side loses one ground combat unit; each may retreat or stay, the defender choosing first.
  Our reading of the choice: the defender stays (it keeps the hex, 19.4 lets the attacker in only if it is
  vacant), and so does the attacker. Not taken; both ``stand`` (``eliminated`` if nothing is left).
* the defender wins: the attacker loses one ground combat unit (two at twice) and the rest retreat one hex
  (``retreats``, or ``eliminated`` when none is left). Not taken; the defender ``stands`` with no loss.

Loss shares are units lost (chosen losses plus units destroyed by retreating) over the units engaged.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

from ..core import ScriptedDice
from ..ntnd.combat import Adjustment, Battle, CombatResult, Engaged, Hex, Support, combat_odds, resolve
from . import Curve, Engagement, Example, HistoryCase, Verdict, Worth

GAME = "ntnd"

#: The attacking NVA division (printed morale 4: the 19.2.1 example's NVA division; 324B in the counter mix).
NVA_DIVISION = Engaged("NVA 324B", "division", "NVA", 4)
#: The defence: an ARVN division (morale 2, the 19.2.1 example) with a US firebase in its hex.
ARVN_DIVISION = Engaged("ARVN 1", "infantry", "SVN", 2)
US_FIREBASE = Engaged("US FB 1", "firebase", "US", 1)


def _artillery(n: int) -> tuple[Support, ...]:
    """``n`` NVA artillery regiments adjacent to the hex under attack (19.2.2: +1 each)."""
    return tuple(Support(f"NVA art {i + 1}", "artillery", 1) for i in range(n))


def battle(attackers: tuple[Engaged, ...] = (NVA_DIVISION,), artillery: int = 1, *, firebase: bool = True,
           terrain: str = "jungle") -> Battle:
    """The common engagement in NTND terms: ``attackers`` with ``artillery`` regiments in support attack an ARVN
    division stacked with a US firebase (which gives +1 fire support from inside the hex, 19.2.2) in
    ``terrain`` (jungle +1, 19.2.3)."""
    defenders = (ARVN_DIVISION,) + ((US_FIREBASE,) if firebase else ())
    support = _artillery(artillery) + ((Support(US_FIREBASE.id, "firebase", 0),) if firebase else ())
    return Battle("communist", tuple(attackers), defenders, support, Hex(terrain))


def verdict_of(b: Battle, r: CombatResult) -> Verdict:
    """Map one NTND :class:`CombatResult` of ``b`` onto a :class:`Verdict` (see the module docstring)."""
    def lost(side_units, out):
        dead = set(out.eliminated) | set(out.destroyed_by_retreat)
        return min(len(side_units), out.losses + len(dead))

    def fate(side_units, n_lost, out, beaten):
        if n_lost >= len(side_units):
            return "eliminated"
        if beaten and out.retreat:
            return "retreats"
        return "stands"

    a_units, d_units = b.attackers, b.defenders
    if r.winner is None:                   # tie: each loses one, both stay (our reading of the choice)
        a_lost, d_lost = r.attacker.losses, r.defender.losses
        a_beaten = d_beaten = False
    elif r.winner == b.attacker:
        a_lost, d_lost = 0, lost(d_units, r.defender)
        a_beaten, d_beaten = False, True
    else:
        a_lost, d_lost = lost(a_units, r.attacker), 0
        a_beaten, d_beaten = True, False
    taken = r.winner == b.attacker and not r.defender.stay
    return Verdict(taken, Fraction(a_lost, len(a_units)), Fraction(d_lost, len(d_units)),
                   fate(a_units, a_lost, r.attacker, a_beaten), fate(d_units, d_lost, r.defender, d_beaten))


@lru_cache(maxsize=None)
def verdicts(b: Battle):
    """The exact distribution of Verdicts of battle ``b`` (the game's own enumeration)."""
    return combat_odds(b, summary=lambda r: verdict_of(b, r))


def p_taken(b: Battle) -> Fraction:
    return verdicts(b).prob(lambda v: v.taken)


def totals(b: Battle) -> dict[str, Fraction]:
    """Each side's total before the die (19.2.1-19.2.4 and the bonuses), as :func:`resolve` records it."""
    with ScriptedDice([1, 1]) as d:
        res = resolve(b, d)
    return dict([s for s in res.find("NT 19.2") if s.text == "Totals before the dice"][-1].result)


def ratio(b: Battle) -> Fraction:
    t = totals(b)
    return t[b.attacker] / t[b.defender]


# ------------------------------------------------------------------------------------------------ 1. example
def example() -> Example:
    """The printed 19.2 example: a US Marine brigade, two ARVN divisions and an ARVN armour regiment attack an
    NVA division and a VC regiment (both lowered by ground support, 11.1.2) stacked with artillery, with a
    second artillery unit adjacent, in a city on a swamp hex; firebase and fleet within two hexes and a patrol
    boat adjacent. Dice: Allies 3, Communists 2 (9.75 against 9.5: the Allies win, not by twice)."""
    gs = Adjustment(-1, "NT 11.1.2", "ground support")
    allied = (Engaged("USMC brigade", "marine", "US", 4), Engaged("ARVN division 1", "infantry", "SVN", 2),
              Engaged("ARVN division 2", "infantry", "SVN", 2), Engaged("ARVN armour", "armor", "SVN", 3))
    communist = (Engaged("NVA division", "division", "NVA", 4, (gs,)),
                 Engaged("VC regiment", "regiment", "VC", 3, (gs,)), Engaged("artillery 1", "artillery", "NVA", 1))
    support = (Support("artillery 1", "artillery", 0), Support("artillery 2", "artillery", 1),
               Support("firebase", "firebase", 2), Support("fleet", "fleet", 2),
               Support("patrol boat", "patrol_boat", 1))
    b = Battle("allied", allied, communist, support, Hex("swamp", {"city"}))
    with ScriptedDice([3, 2]) as d:
        res = resolve(b, d)
    return Example(GAME, "The NT 19.2 example: four Allied units against an NVA division and a VC regiment in a "
                         "city on a swamp hex", res)


# --------------------------------------------------------------------------------------------- 2. engagement
def engagement() -> Engagement:
    """The common engagement: one NVA division with one artillery regiment attacks an ARVN division stacked with
    a US firebase in jungle (totals before the die 5 against 4)."""
    return Engagement(
        GAME, "An NVA division with its artillery attacks an ARVN division holding a US firebase in jungle",
        (
            "NTND fights at division scale: the attack is one NVA division (morale 4, as the NT 19.2.1 example's) "
            "from one adjacent hex; all its ground combat units' morale is averaged (NT 19.2.1).",
            "The NVA artillery is one artillery regiment adjacent to the hex under attack: +1 (NT 19.2.2).",
            "The defence is one ARVN division (morale 2, as in the NT 19.2.1 example) stacked with a US firebase.",
            "The fortification is the firebase: it adds +1 fire support to the defence from inside the hex "
            "(NT 19.2.2, in range at 0 hexes), is not a ground combat unit (NT 19.2.1), and is eliminated if it "
            "must retreat (NT 19.3.7).",
            "The ground is jungle: +1 to the defender (NT 19.2.3 Terrain Effects Chart); no river row applies.",
            "One ground combat unit a side: neither outnumbers the other (NT 19.2.4), so the totals before the "
            "die are 4 + 1 = 5 against 2 + 1 + 1 = 4.",
            "No air: no ground support against the NVA (NT 11.1.2), no VC Base near (NT 28.9.4), no armour "
            "shock (NT 28.8), ARVN not demoralized (NT 25.2), so no desertion rolls (NT 25.4.1).",
            "Taken: the attacker wins (NT 19.2.6), the defenders lose a unit and must retreat, the firebase is "
            "lost in its retreat (NT 19.3.7), and the NVA may advance into the empty hex (NT 19.4).",
            "A tie (NT 19.2.6) costs each side its one ground combat unit; we read that the firebase stays and "
            "holds the hex (the defender chooses first), so a tie is not taken.",
        ),
        verdicts(battle()),
        force="units engaged (ground combat units, and the firebase in the hex)",
    )


# ---------------------------------------------------------------------------------------------------- 3. curve
def nva_divisions(n: int) -> tuple[Engaged, ...]:
    return tuple(replace(NVA_DIVISION, id=f"NVA division {i + 1}") for i in range(n))


#: The attacking forces of the curve, weakest first: (ground combat units, artillery regiments). The engagement's
#: force is the fourth. Each step adds one unit, or swaps a unit for a stronger one.
LADDER = (
    ((Engaged("VC cadre 1", "cadre", "VC", 2),), 0),
    ((Engaged("VC reg 1", "regiment", "VC", 3),), 0),
    (nva_divisions(1), 0),
    (nva_divisions(1), 1),
    (nva_divisions(2), 1),
    (nva_divisions(3), 1),
    (nva_divisions(3), 2),
    (nva_divisions(3), 3),
)


def ladder_battles() -> list[Battle]:
    return [battle(units, art) for units, art in LADDER]


@lru_cache(maxsize=None)
def taking_curve() -> Curve:
    """P(taken) against the ratio of the totals before the die (attacker over defender, NT 19.2.1-19.2.4), the
    attacking force growing from a VC cadre alone to three NVA divisions with three artillery regiments."""
    bs = ladder_battles()
    return Curve(GAME, "attacker's total before the die over the defender's (averaged morale, fire support, "
                       "terrain and outnumbering, NT 19.2.1-19.2.4); the attack grows from a VC cadre to three "
                       "NVA divisions with three artillery regiments",
                 tuple(ratio(b) for b in bs), tuple(p_taken(b) for b in bs), step=False)


# --------------------------------------------------------------------------------------------------- 4. worths
def with_one_more_artillery(b: Battle) -> Battle:
    return replace(b, support=b.support + (Support("NVA art extra", "artillery", 1),))


def with_one_more_unit(b: Battle) -> Battle:
    return replace(b, attackers=b.attackers + (replace(NVA_DIVISION, id="NVA division extra"),))


def with_one_morale_point(b: Battle) -> Battle:
    first, *rest = b.attackers
    raised = replace(first, adjustments=first.adjustments + (Adjustment(+1, "NT 19.2.1", "one morale point more"),))
    return replace(b, attackers=(raised, *rest))


@lru_cache(maxsize=None)
def worths() -> list[Worth]:
    """At each force of the curve, what P(taken) gains from: one DRM (one more artillery regiment adjacent,
    +1 to the total, NT 19.2.2); one morale point (on one attacking unit, so the average rises by 1 over the
    number of units, NT 19.2.1); one more unit (one more NVA division, morale 4: the average and the
    outnumbering of NT 19.2.4 both move).

    Where the steps fall: the totals are compared after whole-number dice, so any fraction of a point turns
    every tie the attacker's way, and for P(taken) one morale point on one of three units (+1/3) is worth as
    much as a whole DRM; a fourth division adds nothing once three already outnumber the defence three to one
    (the NT 19.2.4 bonus stops at +2 and the average stays 4)."""
    bs = ladder_battles()
    xs = taking_curve().xs
    out = []
    for label, change in (("one DRM", with_one_more_artillery), ("one morale point", with_one_morale_point),
                          ("one more unit", with_one_more_unit)):
        out.append(Worth(GAME, label, xs, tuple(p_taken(change(b)) - p_taken(b) for b in bs)))
    return out


# -------------------------------------------------------------------------------------------------- 5. history
#: Hue as the shipped map has it (hex 1610): jungle with a city (+2 and +1, NT 19.2.3); the minor river row
#: counts only when every attacker stands on a river, and the attacking hex 1611 has none.
HUE = Hex("jungle", {"city", "minor_river", "coastal"})
ATTACK_HEX = Hex("mountain", {"road", "coastal"})
SOURCES = ("Don Oberdorfer, Tet! (1971)", "Keith William Nolan, Battle for Hue: Tet 1968 (1983)",
           "Mark Bowden, Hue 1968 (2017)")
# Units of the Tet scenario (wargames/ntnd/data/scenarios/tet.yaml) near Hue, printed morale from counters.yaml.
TET_NVA = Engaged("NVA 324B", "division", "NVA", 4)
TET_VC = Engaged("VC cadre 1", "cadre", "VC", 2)
TET_ARVN = Engaged("ARVN 1", "infantry", "SVN", 2)
TET_MILITIA = Engaged("SVN militia 1", "militia", "SVN", 1)
USMC_1 = Engaged("USMC 1", "marine", "US", 4)
USMC_5 = Engaged("USMC 5", "marine", "US", 4)
CAV_3 = Engaged("US 3/1 Cav", "airmobile", "US", 4)
FLEET = Support("US Fleet", "fleet", 2)


def hue_attack(defenders=(TET_ARVN, TET_MILITIA), support=()) -> Battle:
    """31 January 1968: the Tri-Thien front's NVA division and the local VC attack Hue."""
    return Battle("communist", (TET_NVA, TET_VC), tuple(defenders), tuple(support), HUE, (ATTACK_HEX,))


def hue_counterattack(attackers=(USMC_1, USMC_5, TET_ARVN, CAV_3), support=(FLEET,)) -> Battle:
    """February 1968: the Marines of Task Force X-Ray, the ARVN 1st Division and a 1st Cavalry brigade west of
    the city attack the Communists in Hue, with naval gunfire (the fleet within two hexes)."""
    return Battle("allied", tuple(attackers), (TET_NVA, TET_VC), tuple(support), HUE, (ATTACK_HEX,))


@lru_cache(maxsize=None)
def history() -> list[HistoryCase]:
    """Hue, Tet 1968: the Communist attack that took the city, and the Allied counterattack that retook it."""
    attack, counter = hue_attack(), hue_counterattack()
    stronger = hue_attack(defenders=(TET_ARVN, TET_MILITIA, USMC_5),
                          support=(Support("US FB 1", "firebase", 2),))
    without = hue_counterattack(attackers=(USMC_1, USMC_5, TET_ARVN), support=())
    return [
        HistoryCase(
            GAME, "Hue: the Tet attack, 31 January 1968",
            "On the night of 30-31 January 1968 NVA regiments and Viet Cong units attacked Hue during the Tet "
            "truce and took most of the city, including much of the Citadel; the ARVN 1st Division's headquarters "
            "held out in a corner of it.",
            SOURCES,
            "The Tet Offensive scenario (NT 2, our reconstruction): the NVA 324B division (morale 4) and VC cadre 1 "
            "(morale 2) attack Hue (hex 1610: city +2 and jungle +1, NT 19.2.3) from hex 1611, held by ARVN 1 "
            "(morale 2) and SVN militia 1 (morale 1); averages 3 against 3/2 + 3 = 9/2 (NT 19.2.1), no fire "
            "support on either side, two units a side (no NT 19.2.4 bonus). Surprise and the Tet leave are not "
            "in the rules.",
            "Taken: the Communists win the battle (NT 19.2.6) and the defenders leave Hue.",
            p_taken(attack),
            "A US Marine regiment in the city (the Marines came in only after the attack) and a US firebase "
            "within two hexes (+1, NT 19.2.2)",
            p_taken(stronger),
        ),
        HistoryCase(
            GAME, "Hue: the counterattack, February 1968",
            "US Marine battalions of the 1st and 5th Marines (Task Force X-Ray, from Phu Bai) and the ARVN 1st "
            "Division retook Hue street by street; the Citadel was retaken by 24 February 1968, some three and "
            "a half weeks after the attack.",
            SOURCES,
            "The Tet scenario's Task Force X-Ray (USMC 1 and USMC 5, morale 4, from hex 1611), ARVN 1 (morale 2) "
            "and US 3/1 Cav (morale 4, the 1st Cavalry brigade that fought west of the city) attack the NVA 324B "
            "and VC cadre 1 holding Hue, with the fleet moved within two hexes for naval gunfire (+1, NT 19.2.2): "
            "averages 7/2 + 1 against 3 + 3 = 6 (city and jungle, NT 19.2.3); four units against two (+1, NT "
            "19.2.4), so 11/2 against 6; bad weather kept air support away (no NT 11.1.2 ground support "
            "modelled). One combat phase is one battle: the weeks of fighting are one roll here.",
            "Taken: the Allies win the battle (NT 19.2.6) and the Communists leave Hue.",
            p_taken(counter),
            "No Cavalry brigade west of the city and no naval gunfire: the Marines and ARVN 1 alone (10/3 "
            "against 6)",
            p_taken(without),
        ),
    ]
