"""No Trumpets No Drums, rule 20: ambushes in the Allied movement phase, resolved by the combat procedure of 19.

When to call (the Game, during Allied movement, which :mod:`.movement` makes hex by hex):

1. After every step of an Allied ground unit, :func:`ambush_opportunities` lists the inverted Communist units
   that may spring an ambush on it (20.2). If the Communist player declares one, he picks the units that take
   part among them (20.3: any or all).
2. :func:`resolve_ambush` turns them face up for good (20.2, 20.5), builds the battle (:func:`ambush_battle`:
   20.4-20.4.4, 20.6, 20.7) and resolves it with :func:`wargames.ntnd.combat.resolve`. Its result, an
   :class:`AmbushOutcome`, says what the players must then decide (20.5).
3. :func:`settle_ambush` applies those decisions: the losses, the Communist retreat (legal hexes:
   :func:`ambush_retreat_hexes`) or their entry into a hex the Allies lost. The surviving mover may then go on
   with its move (20.5): the Game keeps its :class:`~wargames.ntnd.movement.Move`.

:func:`ambush_odds` gives the exact odds of an ambush (the same battle through :func:`combat.combat_odds`).

How the battle is built on :class:`combat.Battle` (which is not changed for ambushes): the Communist side is the
attacker. Every Allied unit in the ambushed hex defends with it (19.1.1), on clear ground (20.4.1: no terrain for
the Allies). The Communist bonuses that :class:`combat.Battle` has no field for are carried by each Communist
ground combat unit's morale, which the average passes on whole: the ambushed hex's terrain (20.4.1) and the
surprise +1 (20.4.4) on every one, -1 on an NVA unit not supplied (20.6) and -1 from Allied air support
(11.1.2). So an ambush needs a Communist ground combat unit (our reading: artillery alone never ambushes).

Readings:

* Who ambushes (20.2, 20.3): inverted Communist ground combat units and artillery next to the mover (not across
  an all-sea or all-lake hexside), never dummies, supply, SAMs or VC Bases (which never attack, 28.9.5), nor
  guerrillas outside their country (8.9.1). An airmobile mover (:func:`reaction.is_airmobile`) only by NVA divisions
  and tanks (20.7). Only an Allied ground combat unit is ambushed ("ground unit", 20.2).
* Allied support (20.4.2): a firebase, the fleet or a patrol boat in the ambushed hex gives fire support; air
  support only from air units in that hex (``ground_support``), never in the monsoon (11.3).
* An airmobile unit ambushed (20.7): no terrain for anyone; the Communist gets the ordinary fire support of
  19.2.2 (face-up artillery in or next to the hex), and +1 when a supplied face-up SAM is next to the hex
  (logged through combat's 12.3 line, its counterpart for combat).
* 20.5: the Allies never retreat after an ambush, whoever wins (a tie's optional retreat included). If any Allied
  unit of the hex survives, every surviving ambusher retreats one hex; if none does, the survivors may enter the
  hex. ARVN deserters (25.4.1) leave play like losses.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from ..core import Dice, Distribution, Resolution, implements
from ..core.errors import RuleViolation
from .charts import NtndCharts, defence_modifier
from .combat import Adjustment, Battle, CombatResult, Desertion, Engaged, Hex, Support, combat_odds, resolve, verdict
from .engagement import eliminate
from .movement import GUERRILLA_HOMES, is_guerrilla, is_monsoon
from .reaction import AIR_TYPES, is_airmobile, stacking_breach
from .state import NtndState

#: 20.7: the only units that may ambush an airmobile unit (NVA divisions and armoured regiments)
AIRMOBILE_AMBUSHERS = ("division", "tank")
#: the Allied units that fight in the ambushed hex, and those that give fire support from it (20.4.2)
ALLIED_FIRE_SUPPORT = ("firebase", "fleet", "patrol_boat")
FEATURES = ("town", "city")     # the settlement rows of the Terrain Effects Chart (rivers are attackers' rows)


def _note(res: Resolution | None):
    return res.add if res is not None else (lambda *a, **k: None)


def _water_between(state: NtndState, a, b) -> bool:
    g = state.geography
    return g.all_sea_side(a, b) or g.all_lake_side(a, b)


def _may_be_ambushed(state: NtndState, unit: str) -> bool:
    c = state.counter(unit)
    return c.side == "allied" and c.ground_combat and not state.in_zone(unit)


@implements("NT 20.1", "NT 20.2", "NT 20.3", "NT 20.7", "NT 8.9.1", "NT 28.9.5")
def ambush_opportunities(state: NtndState, moving_allied_unit: str) -> tuple[str, ...]:
    """The inverted Communist units that may ambush ``moving_allied_unit`` where it now stands (call it after each
    of its steps, 20.2). Empty when the unit cannot be ambushed (not an Allied ground combat unit on the map)."""
    unit = moving_allied_unit
    if not _may_be_ambushed(state, unit):
        return ()
    g = state.geography
    here = state.hex_of(unit)
    airmobile = is_airmobile(state, unit)
    out = []
    for n in g.map.neighbors(here):
        if _water_between(state, here, n):
            continue
        for u in state.at(g.label(n)):
            c = state.counter(u)
            if c.side != "communist" or state.piece(u).face_up:
                continue
            if not (c.ground_combat or c.type == "artillery"):
                continue
            if is_guerrilla(state, u) and g.country(n) != GUERRILLA_HOMES[c.nationality]:
                continue
            if airmobile and not (c.type in AIRMOBILE_AMBUSHERS and c.nationality == "NVA"):
                continue
            out.append(u)
    return tuple(out)


def _check(state: NtndState, allied_unit: str, ambushers: tuple[str, ...]) -> None:
    if not _may_be_ambushed(state, allied_unit):
        raise RuleViolation("NT 20.2", f"{allied_unit} is not an Allied ground unit on the map: it cannot be "
                                       "ambushed")
    if not ambushers:
        raise RuleViolation("NT 20.2", "an ambush needs at least one ambushing unit")
    if len(set(ambushers)) != len(ambushers):
        raise RuleViolation("NT 20.3", "a unit is named twice among the ambushers")
    allowed = ambush_opportunities(state, allied_unit)
    for u in ambushers:
        if u not in allowed:
            c = state.counter(u)
            why = ("it is not Communist" if c.side != "communist" else
                   "guerrillas may not ambush an airmobile unit, only NVA divisions and tanks may (NT 20.7)"
                   if is_airmobile(state, allied_unit) and u in state.pieces and not state.piece(u).face_up else
                   "it must be an inverted ground combat or artillery unit next to the ambushed unit")
            raise RuleViolation("NT 20.7" if "20.7" in why else "NT 20.3", f"{u} may not ambush {allied_unit}: {why}")
    if not any(state.counter(u).ground_combat for u in ambushers):
        raise RuleViolation("NT 20.3", "artillery alone does not ambush: a ground combat unit must take part "
                                       "(our reading)")


@implements("NT 20.4", "NT 20.4.1", "NT 20.4.2", "NT 20.4.3", "NT 20.4.4", "NT 20.6", "NT 20.7", "NT 19.1.1")
def ambush_battle(state: NtndState, allied_unit: str, ambushers: Iterable[str], *, supplied: Iterable[str] = (),
                  ground_support: Iterable[str] = (), desertion: Desertion | None = None,
                  armour_shock: bool = False, charts: NtndCharts | None = None) -> Battle:
    """The battle an ambush is (20.4), from the position before the ambushers turn face up.

    ``supplied``: the ambushing NVA units and artillery for which the Communist player spends supplies (20.6;
    the others fight at -1 and artillery gives no fire support), and for an airmobile target the SAMs next to it
    that he supplies (20.7). ``ground_support``: the ambushers whose morale an Allied air unit in the ambushed hex
    lowers by one (11.1.2, 20.4.2). ``desertion``: 25.4.1 in force (ARVN defenders roll first).
    ``armour_shock``: the 28.8 turn."""
    ambushers = tuple(ambushers)
    _check(state, allied_unit, ambushers)
    g = state.geography
    where = state.piece(allied_unit).location
    h = g.hex(where)
    airmobile = is_airmobile(state, allied_unit)
    supplied, ground_support = tuple(supplied), tuple(ground_support)

    # 20.6, 20.7: who may be supplied
    sams = [u for n in g.map.neighbors(h) for u in state.at(g.label(n))
            if state.counter(u).type == "sam" and state.piece(u).face_up]
    for u in supplied:
        c = state.counter(u)
        ok = (u in ambushers and (c.nationality == "NVA" or c.type == "artillery")) or (airmobile and u in sams)
        if not ok:
            raise RuleViolation("NT 20.6", f"{u}: supplies are spent only for ambushing NVA units and artillery "
                                           "(and, against an airmobile unit, the SAMs next to it, NT 20.7)")

    # 20.4.2, 11.1.2, 11.3: air support only from the ambushed hex
    if ground_support:
        if is_monsoon(state.turn):
            raise RuleViolation("NT 11.3", "no ground support missions in the monsoon")
        air = [u for u in state.at(where) if state.counter(u).type in AIR_TYPES and state.side_of(u) == "allied"]
        if len(ground_support) > min(2, len(air)):
            raise RuleViolation("NT 20.4.2", f"air support in an ambush comes only from air units in {where} "
                                             f"({len(air)} there, at most two a hex, NT 11.1.2)")
        for u in ground_support:
            if u not in ambushers or not state.counter(u).ground_combat or ground_support.count(u) > 1:
                raise RuleViolation("NT 11.1.2", f"{u}: ground support lowers one ambushing ground combat unit "
                                                 "by one, once")

    # 20.4.1 / 20.7: the ambushed hex's terrain goes to the Communist side (none against an airmobile unit)
    terrain = 0
    if not airmobile:
        terrain = defence_modifier(g.terrain(h), [f for f in FEATURES if g.has(h, f)], charts=charts)

    communists = []
    for u in ambushers:
        c = state.counter(u)
        adj = []
        if c.ground_combat:
            if terrain:
                adj.append(Adjustment(terrain, "NT 20.4.1", f"terrain of the ambushed hex {where}"))
            adj.append(Adjustment(1, "NT 20.4.4", "surprise"))
            if u in ground_support:
                adj.append(Adjustment(-1, "NT 11.1.2", "ground support"))
        if (c.nationality == "NVA" or c.type == "artillery") and u not in supplied:
            adj.append(Adjustment(-1, "NT 20.6", "no supplies spent"))
        communists.append(Engaged(u, c.type, c.nationality, c.morale, tuple(adj)))

    allies = []
    support = []
    for u in state.at(where):
        c = state.counter(u)
        if c.side != "allied" or c.type in AIR_TYPES:
            continue
        if c.type in ALLIED_FIRE_SUPPORT:
            support.append(Support(u, c.type, 0))
        if c.type != "fleet":
            allies.append(Engaged(u, c.type, c.nationality, c.morale))

    # 20.4.3 / 20.7: Communist fire support
    if airmobile:
        for n in [h] + list(g.map.neighbors(h)):
            for u in state.at(g.label(n)):
                if state.counter(u).type == "artillery" and state.piece(u).face_up:
                    support.append(Support(u, "artillery", h.distance(n)))
    for u in ambushers:
        if state.counter(u).type == "artillery":
            support.append(Support(u, "artillery", h.distance(state.hex_of(u)), supplied=u in supplied))
    near_aa = (allied_unit,) if airmobile and any(s in supplied for s in sams) else ()

    return Battle("communist", tuple(communists), tuple(allies), tuple(support), Hex("clear"), (),
                  airmobile_near_aa=near_aa, desertion=desertion, armour_shock=armour_shock, charts=charts)


@dataclass(frozen=True)
class AmbushOutcome:
    """What an ambush leaves the players to decide (20.5). ``allied_losses`` units are chosen by the Allied
    player among ``allied_eligible``, ``communist_losses`` by the Communist among ``communist_eligible``. Then,
    if ``allied_wiped_out``, the surviving ambushers may enter ``hex``; otherwise every surviving ambusher
    retreats one hex (``communist_must_retreat``). The Allies never retreat; the mover, if it survives, may go on
    moving. ``deserted``: ARVN units gone before the battle (25.4.1)."""

    hex: str
    mover: str
    ambushers: tuple[str, ...]
    combat: CombatResult
    allied_losses: int
    allied_eligible: tuple[str, ...]
    communist_losses: int
    communist_eligible: tuple[str, ...]
    allied_wiped_out: bool
    communist_must_retreat: bool
    deserted: tuple[str, ...] = ()
    decisions: tuple[tuple[str, str, str], ...] = field(default=())

    @property
    def winner(self) -> str | None:
        return self.combat.winner


@implements("NT 20.2", "NT 20.3", "NT 20.5")
def resolve_ambush(state: NtndState, allied_unit: str, ambushers: Iterable[str], dice: Dice, *,
                   supplied: Iterable[str] = (), ground_support: Iterable[str] = (),
                   desertion: Desertion | None = None, armour_shock: bool = False,
                   charts: NtndCharts | None = None) -> tuple[NtndState, Resolution]:
    """Spring an ambush: the ambushers turn face up (and stay so, 20.5), the battle of :func:`ambush_battle` is
    resolved with ``dice`` (desertion rolls, then the Communist die, then the Allied die), and the resolution's
    ``result`` is an :class:`AmbushOutcome`. The returned state differs only in the ambushers' faces; an illegal
    ambush raises RuleViolation and changes nothing."""
    ambushers = tuple(ambushers)
    battle = ambush_battle(state, allied_unit, ambushers, supplied=supplied, ground_support=ground_support,
                           desertion=desertion, armour_shock=armour_shock, charts=charts)
    where = state.piece(allied_unit).location
    res = Resolution()
    res.add("NT 20.2", f"Ambush at {where}: {', '.join(ambushers)} turn face up; {allied_unit} stops",
            result=ambushers)
    fought = resolve(battle, dice)
    res.extend(fought)
    result: CombatResult = fought.result
    new = state.copy()
    for u in ambushers:
        new.update(u, face_up=True)
    allied, communist = result.of("allied"), result.of("communist")
    deserted = allied.deserted
    remaining = [u for u in battle.defenders if u.id not in deserted]
    gcus = [u for u in remaining if u.ground_combat]
    wiped = len(remaining) == len(gcus) and allied.losses >= len(gcus)
    decisions = []
    if allied.losses:
        decisions.append(("allied", f"choose {allied.losses} unit(s) to lose", "NT 19.2.6"))
    if communist.losses:
        decisions.append(("communist", f"choose {communist.losses} unit(s) to lose", "NT 19.2.6"))
    some_left = len(ambushers) > communist.losses
    if wiped:
        if some_left:
            decisions.append(("communist", f"enter {where} with surviving ambushers, or not", "NT 20.5"))
        res.add("NT 20.5", f"No Allied unit survives in {where}: the surviving ambushers may enter it")
    else:
        if some_left:
            decisions.append(("communist", "retreat every surviving ambusher one hex", "NT 20.5"))
        res.add("NT 20.5", "Allied units survive: they need not retreat and the mover may go on; every surviving "
                           "ambusher retreats one hex")
    out = AmbushOutcome(where, allied_unit, ambushers, result, allied.losses, allied.eligible, communist.losses,
                        communist.eligible, wiped, not wiped, deserted, tuple(decisions))
    res.result = out
    return new, res


@implements("NT 19.3", "NT 19.3.9")
def ambush_retreat_hexes(state: NtndState, unit: str, avoid: str | None = None) -> tuple[str, ...]:
    """Where an ambusher may retreat (20.5 by 19.3): an adjacent map hex free of Allied units that ground units
    may enter, not across water, or a zone the hex borders (19.3.9); never ``avoid`` (the ambushed hex)."""
    g = state.geography
    here = state.hex_of(unit)
    if here is None:
        return ()
    out = []
    for n in g.map.neighbors(here):
        label = g.label(n)
        if label == avoid or g.is_all_sea(n) or _water_between(state, here, n):
            continue
        if any(state.side_of(u) == "allied" for u in state.at(label)):
            continue
        out.append(label)
    return tuple(out) + tuple(g.zones_bordering(here))


def _pick(units: Iterable[str], n: int, eligible: tuple[str, ...], side: str) -> tuple[str, ...]:
    units = tuple(units)
    if len(units) != n or len(set(units)) != n or any(u not in eligible for u in units):
        raise RuleViolation("NT 19.2.6", f"the {side} player loses exactly {n} of {', '.join(eligible) or 'none'}, "
                                         f"not {', '.join(units) or 'none'}")
    return units


@implements("NT 20.5", "NT 19.3", "NT 19.3.2", "NT 19.3.6", "NT 25.4.1")
def settle_ambush(state: NtndState, outcome: AmbushOutcome, *, allied_losses: Iterable[str] = (),
                  communist_losses: Iterable[str] = (), retreats: Mapping[str, str | None] | None = None,
                  enter: Iterable[str] = (), overstack_losses: Iterable[str] = (),
                  res: Resolution | None = None) -> NtndState:
    """Apply the players' decisions after an ambush (20.5), on the state :func:`resolve_ambush` returned.
    ``allied_losses`` / ``communist_losses``: the units each loses (deserters leave play too). ``retreats``:
    each surviving ambusher's retreat hex (from :func:`ambush_retreat_hexes`; None only when it has none: it is
    eliminated, 19.3.6), when the Allies survive. ``enter``: surviving ambushers that move into the emptied hex,
    within the stacking limits. ``overstack_losses``: the Communist units the owner removes from hexes the
    retreats over-stacked (19.3.2), exactly enough to end every excess."""
    note = _note(res)
    a_lost = _pick(allied_losses, outcome.allied_losses, outcome.allied_eligible, "Allied")
    c_lost = _pick(communist_losses, outcome.communist_losses, outcome.communist_eligible, "Communist")
    survivors = [u for u in outcome.ambushers if u not in c_lost]
    retreats = dict(retreats or {})
    enter, overstack_losses = tuple(enter), tuple(overstack_losses)
    new = state.copy()
    for u in outcome.deserted:
        eliminate(new, u, cause="desertion", res=res)
    for u in a_lost + c_lost:
        if u in new.pieces:                    # a Green Beret's loss may already have taken it (15.2.3.2)
            eliminate(new, u, res=res)
    if outcome.allied_wiped_out:
        if retreats or overstack_losses:
            raise RuleViolation("NT 20.5", "no Allied unit survived: the ambushers are not made to retreat")
        for u in enter:
            if u not in survivors:
                raise RuleViolation("NT 20.5", f"{u} is not a surviving ambusher")
        breach = stacking_breach(new, outcome.hex, "communist", enter)
        if breach:
            raise RuleViolation("NT 8.10.1", breach)
        for u in enter:
            new.update(u, location=outcome.hex)
    else:
        if enter:
            raise RuleViolation("NT 20.5", f"Allied units survive in {outcome.hex}: the ambushers may not enter it")
        if set(retreats) != set(survivors):
            raise RuleViolation("NT 20.5", f"every surviving ambusher retreats one hex: {', '.join(survivors)}")
        for u in survivors:
            to = retreats[u]
            legal = ambush_retreat_hexes(new, u, avoid=outcome.hex)
            if to is None:
                if legal:
                    raise RuleViolation("NT 19.3.6", f"{u} can retreat (to {', '.join(legal)})")
                note("NT 19.3.6", f"{u} cannot retreat and is eliminated")
                eliminate(new, u, res=res)
                continue
            if to not in legal:
                raise RuleViolation("NT 19.3", f"{u} may not retreat to {to}")
            new.update(u, location=to)
        crowded = {to for to in retreats.values() if to is not None and stacking_breach(new, to, "communist")}
        where = {}
        for u in overstack_losses:
            if u not in new.pieces or new.piece(u).location not in crowded or u in where:
                raise RuleViolation("NT 19.3.2", f"{u} is not in a hex the retreat over-stacked")
            where[u] = new.piece(u).location
            eliminate(new, u, res=res)
        for to in sorted(crowded):
            breach = stacking_breach(new, to, "communist")
            if breach:
                raise RuleViolation("NT 19.3.2", f"the retreat over-stacks: {breach}; name the units to eliminate")
        for u, to in where.items():       # no more than the excess: any one of them put back breaks the limit
            if stacking_breach(new, to, "communist", [u]) is None:
                raise RuleViolation("NT 19.3.2", f"{u} need not be eliminated: {to} has room for it")
        if where:
            note("NT 19.3.2", f"Over-stacked by the retreat, eliminated: {', '.join(where)}")
    note("NT 20.5", f"Ambush at {outcome.hex} settled", result=outcome.hex)
    return new


def ambush_odds(state: NtndState, allied_unit: str, ambushers: Iterable[str], summary=verdict,
                **options) -> Distribution:
    """The exact odds of an ambush: :func:`combat.combat_odds` over :func:`ambush_battle`."""
    return combat_odds(ambush_battle(state, allied_unit, tuple(ambushers), **options), summary)


__all__ = ["AIRMOBILE_AMBUSHERS", "AmbushOutcome", "ambush_battle", "ambush_odds", "ambush_opportunities",
           "ambush_retreat_hexes", "resolve_ambush", "settle_ambush"]
