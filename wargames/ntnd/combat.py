"""Rule 19: combat, as one pure procedure over a described battle (NT 19.2 with everything that feeds it).

The game will describe a battle later (who is engaged, which fire support is in range, the terrain); this module
only resolves it. :func:`resolve` takes a :class:`Battle` and ``dice`` (RandomDice, ScriptedDice or the exact
enumeration of :mod:`wargames.core.dist`, all through the same code) and returns a :class:`~wargames.core.Resolution`
whose ``result`` is a :class:`CombatResult`.

The procedure (19.2): each side averages the current morale of its ground combat units (19.2.1), adds fire
support (19.2.2) and the other bonuses (VC Base 28.9.4, armour shock 28.8, AA against airmobile units 12.3), the
defender adds terrain (19.2.3; none when a sapper attacks, 28.7.2), the side with twice or three times as many
units adds 1 or 2 (19.2.4), then each side rolls one die, attacker first (19.2.6). Before that, demoralized ARVN
units under the severe regime roll for desertion (25.4.1). Every sum is an exact Fraction ("fractions are
retained", 19.2.1). The losses are a count and the eligible units: the owner chooses later.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..core import Dice, Distribution, Resolution, enumerate_outcomes, implements
from ..core.dice import roll_die
from ..core.errors import DataError, RuleViolation
from .charts import NtndCharts, defence_modifier

SIDES = ("communist", "allied")
ALLIED_NATIONS = ("US", "SVN", "ROK", "Thai", "ANZAC", "Laotian", "Cambodian")
COMMUNIST_NATIONS = ("NVA", "VC", "PL", "KR")

#: Ground combat units (2.2, the counters' white dot marks the others).
GROUND_COMBAT = frozenset({"cadre", "division", "regiment", "sapper", "tank", "airmobile", "infantry", "ranger",
                           "marine", "militia", "montagnard", "green_beret", "phoenix", "mechanized", "armor"})
#: Units that may be engaged but are not ground combat units.
SUPPORT = frozenset({"artillery", "sam", "dummy", "vc_base", "supply", "firebase", "patrol_boat"})
#: Fire support (19.2.2): unit type -> (side, range in hexes from the hex under attack).
FIRE_SUPPORT = {"artillery": ("communist", 1), "firebase": ("allied", 2), "fleet": ("allied", 2),
                "patrol_boat": ("allied", 1)}

#: Defence modifiers of the Terrain Effects Chart (19.2.3), all cumulative. A zone fights as clear (9.2).
TERRAINS = ("clear", "jungle", "swamp", "mountain", "zone")   # a zone is fought in as clear terrain (9.2)


def lone_morale(unit: "Engaged") -> int | None:
    """The morale a non-ground-combat unit fights with when its side has no ground combat unit: firebase and
    artillery 1 (13.1.3, 13.2.1), patrol boat 3 if US and 2 otherwise (14.1.1; the rule names ARVN, other
    nations' boats are our reading), a VC Base its printed morale (our reading); SAMs, supply and dummies none."""
    if unit.type in ("firebase", "artillery"):
        return 1
    if unit.type == "patrol_boat":
        return 3 if unit.nationality == "US" else 2
    if unit.type == "vc_base":
        return unit.morale
    return None


@dataclass(frozen=True)
class Adjustment:
    """A change to one unit's current morale, with the rule behind it (e.g. -1, "NT 11.1.2", "ground support")."""

    amount: int
    rule: str
    reason: str


@dataclass(frozen=True)
class Engaged:
    """One unit taking part in the battle: printed morale and the adjustments that make its current morale."""

    id: str
    type: str
    nationality: str
    morale: int
    adjustments: tuple[Adjustment, ...] = ()
    ground_combat: bool | None = None     # None: from the type (GROUND_COMBAT)
    in_zone: bool = False                 # in an off-board zone: never retreats (19.3.9)

    def __post_init__(self) -> None:
        derived = self.type in GROUND_COMBAT
        if self.type not in GROUND_COMBAT | SUPPORT:
            raise DataError("battle", f"unit {self.id}.type", f"{self.type!r} cannot take part in a battle")
        if self.ground_combat is None:
            object.__setattr__(self, "ground_combat", derived)
        elif self.ground_combat != derived:
            raise DataError("battle", f"unit {self.id}.ground_combat",
                            f"a {self.type} {'is' if derived else 'is not'} a ground combat unit (NT 2.2)")

    @property
    def current_morale(self) -> int:
        return self.morale + sum(a.amount for a in self.adjustments)

    @property
    def side(self) -> str:
        return "allied" if self.nationality in ALLIED_NATIONS else "communist"


@dataclass(frozen=True)
class Support:
    """A fire-support unit and its distance in hexes from the hex under attack (0 = in it)."""

    id: str
    type: str
    distance: int
    supplied: bool = True      # 13.4: out of supply in its own turn, it gives no fire support


@dataclass(frozen=True)
class Hex:
    """What the Terrain Effects Chart reads of a hex: its terrain type and features (map vocabulary)."""

    terrain: str = "clear"
    features: frozenset = frozenset()

    def __post_init__(self) -> None:
        if self.terrain not in TERRAINS:
            raise DataError("battle", "terrain", f"{self.terrain!r} is not a terrain a battle is fought in")
        object.__setattr__(self, "features", frozenset(self.features))


@dataclass(frozen=True)
class Desertion:
    """25.4.1 is in force (ARVN demoralized under the severe regime): who controls the area fought in."""

    area_control: str | None = None        # "allied", "communist" or None (neither)


@dataclass(frozen=True)
class Battle:
    """A battle as the rules see it. ``attacker`` is the phasing side."""

    attacker: str
    attackers: tuple[Engaged, ...]
    defenders: tuple[Engaged, ...]
    support: tuple[Support, ...] = ()
    defender_hex: Hex = Hex()
    attacker_hexes: tuple[Hex, ...] = ()       # for the chart's river rows
    vc_base_near: bool = False                 # 28.9.4: a VC Base in or adjacent to the battle (not engaged)
    armour_shock: bool = False                 # 28.8: the turn the Communist declared armour shock
    airmobile_near_aa: tuple[str, ...] = ()    # 12.3: Allied units that flew in next to face-up artillery/SAM
    desertion: Desertion | None = None
    charts: NtndCharts | None = field(default=None, compare=False)   # the Terrain Effects Chart to read

    @property
    def defender(self) -> str:
        return "allied" if self.attacker == "communist" else "communist"


@dataclass(frozen=True)
class SideOutcome:
    """What the result does to one side. The owner picks ``losses`` units among ``eligible``; every other unit
    in ``retreat`` then retreats one hex, except those in ``destroyed_by_retreat``, which are eliminated instead.
    ``may_retreat`` (a tie) lists the units the owner may retreat or keep in place."""

    side: str
    total: Fraction
    losses: int = 0
    eligible: tuple[str, ...] = ()
    eliminated: tuple[str, ...] = ()
    retreat: tuple[str, ...] = ()
    destroyed_by_retreat: tuple[str, ...] = ()
    may_retreat: tuple[str, ...] = ()
    stay: tuple[str, ...] = ()              # would retreat but may not (zones 19.3.9, VC Base 28.9.5)
    deserted: tuple[str, ...] = ()


@dataclass(frozen=True)
class CombatResult:
    """The outcome of one battle. ``winner`` is a side, or None for a tie; ``decisions`` lists, in order, what
    the players must still decide (each a (side, what, rule) triple)."""

    winner: str | None
    double: bool
    attacker: SideOutcome
    defender: SideOutcome
    triple: bool = False
    decisions: tuple[tuple[str, str, str], ...] = ()
    fought: bool = True

    def of(self, side: str) -> SideOutcome:
        return self.attacker if self.attacker.side == side else self.defender


def num(x: Fraction) -> str:
    """An exact number as the rulebook writes it: 2.75 when it ends, 10/3 when it does not."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    text = f"{float(x):.6f}".rstrip("0")
    return text


def _check(b: Battle) -> None:
    if b.attacker not in SIDES:
        raise DataError("battle", "attacker", f"{b.attacker!r} is not a side {SIDES}")
    seen = set()
    for role, units, side in (("attackers", b.attackers, b.attacker), ("defenders", b.defenders, b.defender)):
        for u in units:
            if u.id in seen:
                raise DataError("battle", f"{role}.{u.id}", "a unit is listed twice")
            seen.add(u.id)
            if u.side != side:
                raise DataError("battle", f"{role}.{u.id}.nationality", f"{u.nationality} does not fight for {side}")
            gs = [a for a in u.adjustments if a.rule == "NT 11.1.2"]
            if gs and (len(gs) > 1 or gs[0].amount != -1 or not u.ground_combat or u.side != "communist"):
                raise RuleViolation("NT 11.1.2", f"{u.id}: ground support lowers one Communist ground combat unit "
                                                 "by exactly one, once")
            if any(a.rule == "NT 15.2.2" for a in u.adjustments) and u.type not in ("militia", "montagnard"):
                raise RuleViolation("NT 15.2.2", f"{u.id}: only militia gain from a Green Beret's zone")
            if any(a.rule == "NT 25.2" for a in u.adjustments) and u.nationality != "SVN":
                raise RuleViolation("NT 25.2", f"{u.id}: only ARVN units are demoralized")
    if not b.attackers or not b.defenders:
        raise RuleViolation("NT 19.1", "a battle needs attackers and defenders")
    if any(u.type == "vc_base" for u in b.attackers):
        raise RuleViolation("NT 28.9.5", "a VC Base may not attack")
    for s in b.support:
        if s.type not in FIRE_SUPPORT:
            raise DataError("battle", f"support.{s.id}.type", f"{s.type!r} gives no fire support (NT 19.2.2)")
        side, reach = FIRE_SUPPORT[s.type]
        if not 0 <= s.distance <= reach:
            raise RuleViolation("NT 19.2.2", f"{s.id}: a {s.type} supports only within {reach} hex(es) of the "
                                             f"hex under attack, not {s.distance}")
    fly = {u.id for u in (b.attackers if b.attacker == "allied" else b.defenders)}
    for uid in b.airmobile_near_aa:
        if uid not in fly:
            raise DataError("battle", "airmobile_near_aa", f"{uid} is not an engaged Allied unit (NT 12.3)")


@implements("NT 25.4.1")
def desertion_rolls(b: Battle, dice: Dice, res: Resolution) -> set[str]:
    """25.4.1: before the battle, every engaged ARVN ground combat unit rolls one die; modified, a roll above
    its printed morale means it deserts. -1 attacking, -1 if the Allies have more ground combat units, +1 if the
    Communists have more, -1 in an Allied-controlled area, +1 in a Communist-controlled one."""
    gone: set[str] = set()
    if b.desertion is None:
        return gone
    n = {side: sum(u.ground_combat for u in (b.attackers if side == b.attacker else b.defenders)) for side in SIDES}
    common = []
    if n["allied"] > n["communist"]:
        common.append((-1, "the ARVN side has more units"))
    elif n["communist"] > n["allied"]:
        common.append((+1, "the Communist side has more units"))
    if b.desertion.area_control == "allied":
        common.append((-1, "an Allied-controlled area"))
    elif b.desertion.area_control == "communist":
        common.append((+1, "a Communist-controlled area"))
    units = b.attackers if b.attacker == "allied" else b.defenders
    for u in units:
        if u.nationality != "SVN" or not u.ground_combat:
            continue
        mods = common + ([(-1, "attacking")] if b.attacker == "allied" else [])
        m = sum(a for a, _ in mods)
        roll = roll_die(dice, 6, f"desertion of {u.id} (NT 25.4.1)", classes=lambda v, m=m, p=u.morale: v + m > p)
        deserts = roll + m > u.morale
        words = ", ".join(f"{a:+d} {why}" for a, why in mods) or "no modifier"
        res.add("NT 25.4.1", f"{u.id} rolls for desertion ({words}): "
                             f"{'it deserts and leaves the battle' if deserts else 'it stays'}",
                arithmetic=f"{roll} {m:+d} = {roll + m} {'>' if deserts else '<='} printed morale {u.morale}",
                result=deserts, unit=u.id, roll=roll, modifier=m)
        if deserts:
            gone.add(u.id)
    return gone


@implements("NT 19.2.1", "NT 11.1.2", "NT 13.1.3", "NT 13.2.1", "NT 14.1.1", "NT 15.2.2", "NT 25.2")
def average_morale(side: str, units: tuple[Engaged, ...], res: Resolution) -> tuple[Fraction, list[Engaged]]:
    """19.2.1: the sum of the current morale of a side's ground combat units over their number (a Fraction).
    A side with no ground combat unit fights with the morale its artillery, firebase or patrol boat has alone
    (13.1.3, 13.2.1, 14.1.1). Returns the average and the units it counted."""
    for u in units:
        if u.adjustments:
            parts = " ".join(f"{a.amount:+d} ({a.reason}, {a.rule})" for a in u.adjustments)
            res.add(u.adjustments[0].rule if len(u.adjustments) == 1 else "NT 19.2.1",
                    f"{u.id}'s current morale", arithmetic=f"{u.morale} {parts} = {u.current_morale}",
                    result=u.current_morale, side=side, unit=u.id)
    counted = [u for u in units if u.ground_combat]
    if counted:
        values = [u.current_morale for u in counted]
        rule, what = "NT 19.2.1", f"{len(counted)} ground combat unit{'s' if len(counted) > 1 else ''}"
    else:
        counted = [u for u in units if lone_morale(u) is not None]
        if not counted:
            return Fraction(0), []
        values = [lone_morale(u) for u in counted]
        rule = {"firebase": "NT 13.1.3", "artillery": "NT 13.2.1", "patrol_boat": "NT 14.1.1"}.get(
            counted[0].type, "NT 19.2.1")
        what = "no ground combat unit: " + ", ".join(f"{u.id} fights alone with morale {v}"
                                                     for u, v in zip(counted, values))
    avg = Fraction(sum(values), len(counted))
    res.add(rule, f"{side.capitalize()} morale, averaged over {what}",
            arithmetic=f"({' + '.join(map(str, values))}) / {len(counted)} = {sum(values)}/{len(counted)}"
                       + ("" if avg.denominator == 1 and len(counted) == 1 else f" = {num(avg)}"),
            result=avg, side=side, values=values, count=len(counted))
    return avg, counted


def _distance(n: int) -> str:
    return "stacked" if n == 0 else f"{n} hex{'es' if n > 1 else ''} away"


@implements("NT 19.2.2", "NT 13.1.1", "NT 13.2.1", "NT 13.4", "NT 14.1.1")
def fire_support(side: str, support: tuple[Support, ...], res: Resolution) -> int:
    """19.2.2: +1 per fire-support unit of the side in range of the hex under attack (artillery 1 hex;
    firebase and fleet 2; patrol boat 1); none from a unit out of supply (13.4)."""
    mine = [s for s in support if FIRE_SUPPORT[s.type][0] == side]
    used = [s for s in mine if s.supplied]
    for s in mine:
        if not s.supplied:
            res.add("NT 13.4", f"{s.id} is out of supply and gives no fire support", side=side, unit=s.id)
    if used:
        where = ", ".join(f"{s.id} ({_distance(s.distance)})" if s.type.replace("_", " ") in s.id
                          else f"{s.id} ({s.type.replace('_', ' ')}, {_distance(s.distance)})" for s in used)
        res.add("NT 19.2.2", f"{side.capitalize()} fire support: {where}", arithmetic=f"+{len(used)}",
                result=len(used), side=side, sources=[s.id for s in used])
    return len(used)


@implements("NT 19.2.3", "NT 28.7.2")
def terrain_bonus(b: Battle, res: Resolution) -> int:
    """19.2.3: the defender adds every row of the Terrain Effects Chart that applies, cumulatively: city +2,
    mountain +2, jungle or swamp +1; +1 when every attacker stands in a river hex, +2 when every one stands in a
    major-river hex (our reading of the river rows). A Communist attack that includes a sapper takes the whole
    bonus away (28.7.2)."""
    h = b.defender_hex
    terrain = "clear" if h.terrain == "zone" else h.terrain
    features = () if h.terrain == "zone" else h.features
    sapper = b.attacker == "communist" and any(u.type == "sapper" for u in b.attackers)
    steps = Resolution()
    total = defence_modifier(terrain, features, [a.features for a in b.attacker_hexes], sapper=sapper,
                             charts=b.charts, res=steps)
    if sapper and steps.steps:
        res.add("NT 28.7.2", "A sapper attacks: the defender gets no terrain bonus",
                arithmetic=steps.steps[-1].text, result=0, side=b.defender)
    elif total:
        res.add("NT 19.2.3", "Terrain for the defender: " + ", ".join(s.text.replace(": +", " +") for s in steps.steps),
                arithmetic=f"+{total}", result=total, side=b.defender)
    return total


@implements("NT 19.2.4")
def outnumbering(counts: dict[str, int], res: Resolution) -> dict[str, int]:
    """19.2.4: the side with twice as many units (or more) adds 1, three times or more adds 2."""
    out = {s: 0 for s in counts}
    big, small = sorted(counts, key=lambda s: -counts[s])
    if counts[big] >= 3 * counts[small] and counts[big] > counts[small]:
        out[big] = 2
    elif counts[big] >= 2 * counts[small] and counts[big] > counts[small]:
        out[big] = 1
    if out[big]:
        res.add("NT 19.2.4", f"{big.capitalize()} outnumbers {counts[big]} to {counts[small]}",
                arithmetic=f"+{out[big]}", result=out[big], side=big)
    return out


@implements("NT 28.9.4", "NT 28.8", "NT 12.3")
def special_bonuses(b: Battle, res: Resolution) -> int:
    """The Communist side's other +1s: a VC Base in or next to the battle (28.9.4, not when it defends alone),
    the armour-shock turn for an attack with a tank (28.8), Allied units that flew in next to face-up artillery
    or a SAM (12.3)."""
    total = 0
    base_engaged = any(u.type == "vc_base" for u in b.defenders) if b.defender == "communist" else False
    alone = base_engaged and all(u.type == "vc_base" for u in b.defenders)
    if (b.vc_base_near or base_engaged) and not alone:
        res.add("NT 28.9.4", "A VC Base in or next to the battle", arithmetic="+1", result=1, side="communist")
        total += 1
    if b.armour_shock and b.attacker == "communist" and any(u.type == "tank" for u in b.attackers):
        res.add("NT 28.8", "Armour shock: a tank attacks on the declared turn", arithmetic="+1", result=1,
                side="communist")
        total += 1
    if b.airmobile_near_aa:
        res.add("NT 12.3", f"AA against airmobile units: {', '.join(b.airmobile_near_aa)} flew in next to "
                           "face-up artillery or a SAM", arithmetic="+1", result=1, side="communist")
        total += 1
    return total


def _retreat_fates(units: list[Engaged], enemy: tuple[Engaged, ...], enemy_support: tuple[Support, ...],
                   base_holds: bool) -> tuple[list[str], list[str], list[str]]:
    """Who of ``units`` retreats, who is destroyed by having to retreat, who stays (19.3.7, 19.3.9, 14.1.2,
    15.2.3.1, 28.9.5)."""
    heavy = any(u.type in ("tank", "artillery") for u in enemy) or any(s.type == "artillery" for s in enemy_support)
    retreat, destroyed, stay = [], [], []
    for u in units:
        if u.type == "vc_base":
            continue                              # 28.9.6: other results leave the base in place
        if u.in_zone or (base_holds and u.side == "communist"):
            stay.append(u.id)
            continue
        retreat.append(u.id)
        if u.type in ("firebase", "green_beret") or (u.type == "patrol_boat" and heavy):
            destroyed.append(u.id)
    return retreat, destroyed, stay


@implements("NT 19.2.6", "NT 19.3.7", "NT 19.3.9", "NT 14.1.2", "NT 15.2.3.1", "NT 28.9.5", "NT 28.9.6")
def outcome(b: Battle, totals: dict[str, Fraction], deserted: set[str], res: Resolution) -> CombatResult:
    """19.2.6: the higher total wins; at twice the loser's total or more the loser loses two ground combat
    units (as many as it has), else one, and the rest retreat one hex. A tie costs each side one ground combat
    unit and lets each retreat or stay, the defender deciding first. A VC Base defending holds every Communist
    unit in place (28.9.5) and falls, with the whole hex, only to an Allied attack at three times or more
    (28.9.6). A lone patrol boat in a tie retreats (14.1.2)."""
    att, dfd = b.attacker, b.defender
    A, D = totals[att], totals[dfd]
    base = b.defender == "communist" and any(u.type == "vc_base" for u in b.defenders)
    enemy_of = {att: b.defenders, dfd: b.attackers}
    eng = {att: [u for u in b.attackers if u.id not in deserted], dfd: [u for u in b.defenders if u.id not in deserted]}
    gone = {s: tuple(u.id for u in (b.attackers if s == att else b.defenders) if u.id in deserted) for s in SIDES}

    def gcus(side):
        return [u for u in eng[side] if u.ground_combat]

    def fates(side):
        enemy_support = tuple(s for s in b.support if FIRE_SUPPORT[s.type][0] != side)
        return _retreat_fates(eng[side], enemy_of[side], enemy_support, base and side == "communist")

    def losing(side, n):
        g = gcus(side)
        retreat, destroyed, stay = fates(side)
        return SideOutcome(side, totals[side], min(n, len(g)), tuple(u.id for u in g), (), tuple(retreat),
                           tuple(destroyed), (), tuple(stay), gone[side])

    if A == D:
        res.add("NT 19.2.6", "A tie: both sides give up one ground combat unit, picked by its owner; each may "
                              "then pull back one hex or stay, the defender deciding (and moving) first",
                arithmetic=f"{num(A)} = {num(D)}",
                result="tie")
        outs = {}
        decisions = [(side, "choose 1 ground combat unit to lose", "NT 19.2.6") for side in (dfd, att) if gcus(side)]
        for side in (dfd, att):
            g = gcus(side)
            movable, destroyed, stay = fates(side)
            boats = [u for u in eng[side] if u.type == "patrol_boat"] if not g else []
            forced = tuple(u.id for u in boats if u.id in movable)
            if forced:
                res.add("NT 14.1.2", "In a tie the lone patrol boat retreats (or is lost to armour or artillery)",
                        side=side, units=list(forced))
            optional = tuple(i for i in movable if i not in forced)
            outs[side] = SideOutcome(side, totals[side], min(1, len(g)), tuple(u.id for u in g), (), forced,
                                     tuple(i for i in destroyed if i in forced or i in optional), optional,
                                     tuple(stay), gone[side])
            if optional:
                decisions.append((side, "retreat one hex or stay", "NT 19.2.6"))
        return CombatResult(None, False, outs[att], outs[dfd], decisions=tuple(decisions))

    winner, loser = (att, dfd) if A > D else (dfd, att)
    W, L = totals[winner], totals[loser]
    double = W >= 2 * L
    triple = base and winner == "allied" and winner == att and W >= 3 * L and any(
        u.ground_combat for u in eng[att])
    n = 2 if double else 1
    res.add("NT 19.2.6", f"{winner.capitalize()} wins" + (", with twice the loser's total or more" if double
                                                           else ", but not by twice"),
            arithmetic=f"{num(W)} > {num(L)}; 2 x {num(L)} = {num(2 * L)}: {num(W)} "
                       f"{'>=' if double else '<'} {num(2 * L)}", result=(winner, double))
    lost = losing(loser, n)
    if triple:
        everyone = tuple(u.id for u in eng[loser])
        res.add("NT 28.9.6", "Three times the Communist total against a VC Base: every unit in its hex is "
                             "eliminated", arithmetic=f"{num(W)} >= 3 x {num(L)} = {num(3 * L)}", result=everyone)
        lost = SideOutcome(loser, L, 0, (), everyone, (), (), (), (), gone[loser])
    else:
        g_count = len(lost.eligible)
        if lost.losses < n:
            res.add("NT 19.2.6", f"{loser.capitalize()} has only {g_count} ground combat unit"
                                 f"{'' if g_count == 1 else 's'} to lose", result=lost.losses)
        res.add("NT 19.2.6", f"{loser.capitalize()} loses {lost.losses} ground combat unit"
                             f"{'' if lost.losses == 1 else 's'} of its choice; the others retreat one hex",
                result=lost.losses, side=loser)
        if lost.destroyed_by_retreat:
            res.add("NT 19.3.7", f"Forced to retreat, {', '.join(lost.destroyed_by_retreat)} "
                                 "is eliminated instead (firebase 19.3.7, Green Beret 15.2.3.1, "
                                 "patrol boat against armour or artillery 14.1.2)", side=loser)
        if lost.stay:
            why = "a VC Base holds them (28.9.5)" if base and loser == "communist" else "they are in a zone (19.3.9)"
            res.add("NT 28.9.5" if base and loser == "communist" else "NT 19.3.9",
                    f"{', '.join(lost.stay)} do not retreat: {why}", side=loser)
    won = SideOutcome(winner, W, deserted=gone[winner])
    decisions = (((loser, f"choose {lost.losses} ground combat unit{'s' if lost.losses != 1 else ''} to lose",
                   "NT 19.2.6"),) if lost.losses else ()) + (
        ((loser, "retreat the other units one hex", "NT 19.3"),) if lost.retreat else ())
    a_out, d_out = (won, lost) if winner == att else (lost, won)
    return CombatResult(winner, double, a_out, d_out, triple, decisions)


@implements("NT 19.2", "NT 19.2.6", "NT 13.3", "NT 18.6.1")
def resolve(battle: Battle, dice: Dice) -> Resolution:
    """Resolve one battle (19.2); ``result`` is a :class:`CombatResult`. Rolls: desertion (25.4.1, ARVN units
    in order), then the attacker's die, then the defender's."""
    _check(battle)
    res = Resolution()
    deserted = desertion_rolls(battle, dice, res)
    att, dfd = battle.attacker, battle.defender
    units = {att: [u for u in battle.attackers if u.id not in deserted],
             dfd: [u for u in battle.defenders if u.id not in deserted]}
    avg, counted = {}, {}
    for side in ("allied", "communist"):
        avg[side], counted[side] = average_morale(side, tuple(units[side]), res)
    for side in SIDES:
        if not counted[side]:
            if side == dfd and units[side] and all(u.type in ("sam", "supply") for u in units[side]):
                kinds = {u.type for u in units[side]}
                if "sam" in kinds:
                    res.add("NT 13.3", "SAMs attacked alone have no defence: they are eliminated",
                            result=[u.id for u in units[side] if u.type == "sam"])
                if "supply" in kinds:
                    res.add("NT 18.6.1", "supply units attacked with no ground combat unit to defend them are "
                                         "eliminated", result=[u.id for u in units[side] if u.type == "supply"])
                lost = SideOutcome(side, Fraction(0), eliminated=tuple(u.id for u in units[side]))
                won = SideOutcome(att, Fraction(0))
                res.result = CombatResult(att, False, won, lost, fought=False)
                return res
            why = "every unit deserted" if units[side] == [] else "no unit that can fight"
            res.add("NT 19.2.1", f"The {side} side has {why}: no battle is fought", result=None)
            gone = {s: tuple(sorted(deserted & {u.id for u in (battle.attackers + battle.defenders)
                                                if u.side == s})) for s in SIDES}
            res.result = CombatResult(None, False, SideOutcome(att, Fraction(0), deserted=gone[att]),
                                      SideOutcome(dfd, Fraction(0), deserted=gone[dfd]), fought=False)
            return res
    total = dict(avg)
    for side in ("allied", "communist"):
        total[side] += fire_support(side, battle.support, res)
    total[dfd] += terrain_bonus(battle, res)
    bonus = outnumbering({s: len(counted[s]) for s in SIDES}, res)
    for side in SIDES:
        total[side] += bonus[side]
    total["communist"] += special_bonuses(battle, res)
    res.add("NT 19.2", "Totals before the dice", arithmetic=f"{att} {num(total[att])}, {dfd} {num(total[dfd])}",
            result=dict(total))
    rolls = {}
    for side in (att, dfd):
        rolls[side] = roll_die(dice, 6, f"{side} combat die (NT 19.2.6)")
    final = {s: total[s] + rolls[s] for s in SIDES}
    for side in (att, dfd):
        res.add("NT 19.2.6", f"{side.capitalize()} rolls {rolls[side]}",
                arithmetic=f"{num(total[side])} + {rolls[side]} = {num(final[side])}", result=final[side],
                side=side, roll=rolls[side])
    res.result = outcome(battle, final, deserted, res)
    return res


def verdict(result: CombatResult) -> tuple[str | None, bool]:
    """(winner, or None for a tie; twice or not): what the exact odds add up."""
    return result.winner, result.double


def combat_odds(battle: Battle, summary=verdict) -> Distribution:
    """The exact distribution of ``summary(result)`` over every roll of the battle: the same :func:`resolve`,
    run once per branch of the dice (desertion rolls included)."""
    return enumerate_outcomes(lambda dice: summary(resolve(battle, dice).result))
