"""NT 19 in play: the two combat phases through ``Game.apply``.

In the Communist combat phase the Communist player fights the attacks he announced at the end of his movement
(3.1.4, 3.1.6); in the Allied combat phase the Allied player first sees every inverted unit next to his ground
units turned face up (19.1.2), then attacks whatever he wishes (3.2.6). One battle at a time
(:class:`Attack`): the position makes the :class:`~wargames.ntnd.combat.Battle` (:mod:`.engagement`), the dice
decide it (:func:`~wargames.ntnd.combat.resolve`), and then each player decides what the result leaves to him,
in the rules' order: the units each side loses (:class:`ChooseLosses`), the retreats, the
defender first after a tie (:class:`Retreat`, :class:`Stay`), the units a retreat over-stacks
(:class:`EliminateOverstack`), and the winner's advance (:class:`Advance`).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..core.actions import Action
from ..core.errors import RuleViolation
from ..core.game import handles
from ..core.log import Resolution
from ..core.rules import implements
from . import air
from . import engagement as eng
from . import neutrality as nt10
from .combat import resolve
from .reaction import REACTED_MARK
from .supply import in_supply
from .supply_effects import supply_used_by_attack, unsupplied_morale, use_up

COMBAT_PHASES = ("communist_combat", "allied_combat")
SUPPORT_TYPES = ("artillery", "firebase", "patrol_boat", "fleet")


@dataclass(frozen=True)
class Attack(Action):
    """NT 19.1-19.2: ``attackers`` attack the enemy units at ``target``. ``ground_support``: the enemy units whose
    morale the surviving ground-support aircraft over ``target`` lower (the Allied player names them, 11.1.2);
    ``violate``: the neutral countries the attacker means to attack across (10.2)."""

    attackers: tuple[str, ...]
    target: str
    ground_support: tuple[str, ...] = ()
    violate: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChooseLosses(Action):
    """NT 19.2.6: the units a side loses in a battle or an ambush, chosen by their owner."""

    units: tuple[str, ...]


@dataclass(frozen=True)
class LowerMorale(Action):
    """NT 8.8.1.2, 11.1.2: before a Communist attack is rolled, the Allied player names the attackers whose
    morale his defensive ground support lowers."""

    units: tuple[str, ...]


@dataclass(frozen=True)
class Retreat(Action):
    """NT 19.3: one unit's retreat (``to`` a hex, a zone, ``"fleet"``, or ``""`` when it has nowhere to go)."""

    unit: str
    to: str


@dataclass(frozen=True)
class Stay(Action):
    """NT 19.2.6: after a tie, a unit that may retreat stays where it is."""

    unit: str


@dataclass(frozen=True)
class EliminateOverstack(Action):
    """NT 19.3.2: the units the owner removes from a hex a retreat over-stacked."""

    units: tuple[str, ...]


@dataclass(frozen=True)
class Advance(Action):
    """NT 19.4: the attacking units that move into the emptied hex (none: no advance)."""

    units: tuple[str, ...] = ()


@dataclass(frozen=True)
class DeclareArmourShock(Action):
    """NT 28.8 (Campaign Game): the Communist player declares this turn the one of the NVA armour shock."""


COMBAT_ACTIONS = (Attack, LowerMorale, Retreat, Stay, EliminateOverstack, Advance, DeclareArmourShock)


@dataclass
class CombatBook:
    """The combat phase in progress: who has fought (19.1.3) and the battle waiting for a decision."""

    fought: frozenset[str] = frozenset()
    resolved: tuple[str, ...] = ()          # announced targets whose battle is over (Communist phase)
    battle: dict | None = None
    start: object | None = None             # NT 18.2.1.4: the position as the combat phase began (never changed)

    def __deepcopy__(self, memo) -> "CombatBook":
        new = dataclasses.replace(self)
        if self.battle is not None:
            new.battle = {k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
                          for k, v in self.battle.items()}
        return new


class CombatPlay:
    """The Game's battles (mixed into :class:`wargames.ntnd.game.Game`)."""

    def combat_decision(self) -> tuple[str, str, str] | None:
        b = self.cbook.battle
        if b is None:
            stacks = self.overstacked() if self.phase.id in COMBAT_PHASES else ()
            if stacks:
                where, side = stacks[0]
                return side, "NT 8.10.2", f"eliminate the units over the stacking limit at {where}"
            return None
        owed = b["owed"]
        if owed == "ground_support":
            want = "; ".join(f"{n} in {h}" for h, (n, _) in sorted(b["gs_quota"].items()))
            return "allied", "NT 11.1.2", f"name the attackers the ground support over them slows ({want})"
        if owed == "losses":
            side = b["loss_side"]
            return side, "NT 19.2.6", f"choose {b['result'].of(side).losses} unit(s) to lose at {b['location']}"
        if owed == "retreat":
            side, unit, may = b["queue"][0]
            return side, "NT 19.3", f"{'retreat or keep' if may else 'retreat'} {unit}"
        if owed == "overstack":
            return b["over_side"], "NT 19.3.2", f"eliminate the units over the stacking limit at {b['over_at']}"
        return b["battle"].attacker, "NT 19.4", f"advance into {b['location']}, or not"

    # ------------------------------------------------------------------ the phases
    def _begin_combat(self, res: Resolution) -> None:
        self.cbook = CombatBook()
        if self.phase.id == "allied_combat":
            self.state = eng.reveal(self.state, res=res)
        self.cbook.start = self.state.copy()

    def _end_combat_check(self) -> None:
        if self.phase.id == "communist_combat":
            left = [t for _, t in self.book.announced if t not in self.cbook.resolved and self._still_on(t)]
            if left:
                raise RuleViolation("NT 3.1.6", f"every announced attack is fought: {', '.join(left)} "
                                                "still waits")

    def _still_on(self, target: str) -> bool:
        """An announced attack still to fight: its attackers and some defender are still in play, face up."""
        att = next(a for a, t in self.book.announced if t == target)
        try:
            eng.check_attack(self.state, self._able(att), target, "communist", fought=self.cbook.fought)
        except RuleViolation:
            return False
        return True

    def _able(self, attackers) -> tuple[str, ...]:
        return tuple(u for u in attackers if u in self.state.pieces and self.state.piece(u).face_up)

    @handles(Attack)
    @implements("NT 3.1.6", "NT 3.2.6", "NT 19.1", "NT 19.1.3", "NT 13.4")
    def _attack(self, a: Attack, dice, res: Resolution) -> None:
        """One battle: the Communist player fights an attack he announced (3.1.6), the Allied player any he
        wishes (3.2.6); units out of supply give no fire support in their own turn (13.4)."""
        self._require(*COMBAT_PHASES, rule="NT 19.1")
        side = self.phase.side
        st = self.state
        if side == "communist":
            announced = dict((t, att) for att, t in self.book.announced)
            if a.target not in announced:
                raise RuleViolation("NT 3.1.6", f"no attack on {a.target} was announced")
            if a.target in self.cbook.resolved:
                raise RuleViolation("NT 19.1.3", f"the attack on {a.target} is fought")
            if not set(a.attackers) <= set(announced[a.target]):
                raise RuleViolation("NT 3.1.6", f"the attack on {a.target} was announced with "
                                                f"{', '.join(announced[a.target])}")
            if a.ground_support:
                raise RuleViolation("NT 11.1.2", "ground support is the Allied player's")
        eng.check_attack(st, a.attackers, a.target, side, fought=self.cbook.fought, violate=a.violate)
        gs_left = self._support_over(a.target) if side == "allied" else 0
        if side == "allied" and a.ground_support:
            air.ground_support_adjustments(st, a.target, gs_left, a.ground_support)       # checks the names
        elif side == "allied" and gs_left:
            air.ground_support_adjustments(st, a.target, gs_left)      # raises when the player must name them
        battle = {"attack": a, "owed": None, "location": a.target, "gs": tuple(a.ground_support)}
        if side == "allied" and not a.ground_support and gs_left:
            battle["gs"] = tuple(air.ground_support_adjustments(st, a.target, gs_left))
        self.cbook.battle = battle
        if side == "communist":
            quota = self._defensive_support(a.attackers)
            if any(n < len(eligible) for n, eligible in quota.values()):
                battle.update(owed="ground_support", gs_quota=quota)
                return
            battle["gs"] = tuple(u for _, eligible in quota.values() for u in eligible)
        self._fight(dice, res)

    def _support_over(self, location: str) -> int:
        return sum(n for h, n in self.airbook.ground_support if h == location)

    # ------------------------------------------------------------------ NT 28.8 armour shock
    def shock_by_declaration(self) -> bool:
        """28.8: the Campaign Game's armour shock is declared once a game; in the other scenarios that start in
        1965-1968 it comes by itself, the first turn a tank attacks; in later ones never (nor with the rule off)."""
        return self.scenario_data.key == "campaign"

    @implements("NT 28 Preamble", "NT 28.8")
    def _shock_possible(self) -> bool:
        """28 preamble (our reading, see the ambiguities appendix): of the optional rules of 28 only the armour
        shock (28.8) and the bought brigades (28.3.2) are switches of the ruleset; the special units are always
        in play. 28.8 also needs a scenario starting from 1965 to 1968."""
        return bool(self.ruleset.readings["armour_shock"]) and self.scenario_data.armor_shock

    @implements("NT 28.8")
    def armour_shock(self, attackers, res: Resolution) -> bool:
        """Whether this Communist attack (or ambush) gets the +1 of the armour shock: it has a tank, on the
        shock turn. Outside the Campaign Game the first such attack makes its turn the shock turn."""
        st = self.state
        if self.phase.side != "communist" and self.phase.id != "allied_movement" or \
                not any(st.counter(u).type == "tank" for u in attackers) or not self._shock_possible():
            return False
        if st.armour_shock_turn is None and not self.shock_by_declaration():
            st.armour_shock_turn = st.turn
            res.add("NT 28.8", f"the first Communist attack with a tank: turn {st.turn} is the armour shock turn")
        return st.armour_shock_turn == st.turn

    @handles(DeclareArmourShock)
    def _declare_armour_shock(self, a: DeclareArmourShock, dice, res: Resolution) -> None:
        self._require("communist_combat", rule="NT 28.8")
        if not self._shock_possible():
            raise RuleViolation("NT 28.8", "the armour shock is off, or this scenario starts after 1968")
        if not self.shock_by_declaration():
            raise RuleViolation("NT 28.8", "outside the Campaign Game the armour shock comes with the first tank "
                                           "attack; it is not declared")
        if self.state.armour_shock_turn is not None:
            raise RuleViolation("NT 28.8", f"the armour shock was declared on turn {self.state.armour_shock_turn}")
        if self.cbook.resolved or self.cbook.battle is not None:
            raise RuleViolation("NT 28.8", "the armour shock is declared before the phase's first battle")
        self.state.armour_shock_turn = self.state.turn
        res.add("NT 28.8", f"the Communist player declares turn {self.state.turn} the armour shock turn")

    def _defensive_support(self, attackers) -> dict[str, tuple[int, tuple[str, ...]]]:
        """8.8.1.2, 11.1.2: ground support the Allies flew in the reaction phase over the attackers' hexes. For
        each such hex: how many of the ground combat attackers there lose 1 morale (one per surviving air unit
        over that hex, each unit once), and which attackers may."""
        st, out = self.state, {}
        for h in sorted({st.piece(u).location for u in attackers if u in st.pieces}):
            n = self._support_over(h)
            eligible = tuple(u for u in attackers if st.piece(u).location == h and st.counter(u).ground_combat)
            if n and eligible:
                out[h] = (min(n, len(eligible)), eligible)
        return out

    @handles(LowerMorale)
    def _lower_morale(self, a: LowerMorale, dice, res: Resolution) -> None:
        b = self.cbook.battle
        if b is None or b["owed"] != "ground_support":
            raise RuleViolation("NT 11.1.2", "no battle waits for the Allied ground support")
        if len(set(a.units)) != len(a.units):
            raise RuleViolation("NT 11.1.2", "a unit's morale is lowered by ground support only once")
        for h, (n, eligible) in b["gs_quota"].items():
            if len([u for u in a.units if u in eligible]) != n:
                raise RuleViolation("NT 11.1.2", f"the support over {h} lowers {n} of {', '.join(eligible)}")
        if not set(a.units) <= {u for _, eligible in b["gs_quota"].values() for u in eligible}:
            raise RuleViolation("NT 11.1.2", "ground support lowers only attackers in the hexes it flew over")
        b["gs"] = tuple(a.units)
        b["owed"] = None
        self._fight(dice, res)

    @implements("NT 24.4.6", "NT 12.3", "NT 10.2")
    def _fight(self, dice, res: Resolution) -> None:
        b, st = self.cbook.battle, self.state
        a = b["attack"]
        side = self.phase.side
        by_air = self.airbook.supplied_from if side == "allied" else ()          # NT 11.1.3
        against = self._declared_against(side)                                   # NT 10.2 note
        out_of_supply = tuple(u for u in st.units(side) if st.counter(u).type in SUPPORT_TYPES
                              and not in_supply(st, u, air_sources=by_air, enemy_declared=against,
                                                charts=self._charts()))
        entries = {u: p.location for u, p in st.pieces.items() if REACTED_MARK in p.marks}
        engaged = list(a.attackers) + [u for u in st.at(a.target)]
        start = self.cbook.start if self.cbook.start is not None else st
        unsupplied = unsupplied_morale(start, [u for u in a.attackers if u in start.pieces], side,
                                       air_sources=by_air, enemy_declared=against, charts=self._charts())
        b["uses"] = supply_used_by_attack(st, a.attackers, enemy_declared=against, charts=self._charts()) \
            if side == "communist" else ()
        battle = eng.battle_from_state(st, a.attackers, a.target, side=side, fought=self.cbook.fought,
                                       violate=a.violate, ground_support=b["gs"], unsupplied=unsupplied,
                                       airmobile_near_aa=air.airmobile_near_aa(st, entries, engaged),
                                       out_of_supply=out_of_supply, armour_shock=self.armour_shock(a.attackers, res),
                                       points_at_turn_start=self.book.points_at_turn_start, charts=self._charts())
        broken = nt10.violations_by_attack(st, self.violations, a.attackers, a.target)
        ends = nt10.ends_neutrality_by_attack(st, self.violations, a.attackers, st.at(a.target))
        self.state = eng.charge_attack(st, battle, res)
        self._neutrality(broken, ends, dice, res)
        fought = resolve(battle, dice)
        res.extend(fought)
        result = fought.result
        self.cbook.fought = eng.record_battle(self.cbook.fought, battle)
        if side == "communist":
            self.cbook.resolved = self.cbook.resolved + (a.target,)
        b.update(battle=battle, result=result, losses={}, retreated=[])
        for s in ("communist", "allied"):
            choices = eng.loss_choices(result, s)
            if len(choices) == 1:
                b["losses"][s] = choices[0]
        self._after_losses(res)

    def _after_losses(self, res: Resolution) -> None:
        b = self.cbook.battle
        result = b["result"]
        for s in (result.defender.side, result.attacker.side):
            if s not in b["losses"]:
                b.update(owed="losses", loss_side=s)
                return
        before = set(self.state.pieces)
        self.state = eng.apply_losses(self.state, result, b["losses"], res=res)
        from .air import lost_with
        for heli in lost_with(self.state, before - set(self.state.pieces)):
            if heli in self.state.pieces:
                self.state = eng.eliminate(self.state.copy(), heli, res=res)
        b["queue"] = [(s, u, False) for s, must, may in eng.retreat_sequence(self.state, result, b["location"])
                      for u in must] + [(s, u, True) for s, must, may in
                                        eng.retreat_sequence(self.state, result, b["location"]) for u in may]
        b["queue"] = self._order_queue(b["queue"], result)
        self._next_retreat(res)

    @staticmethod
    def _order_queue(queue, result):
        """The defender's retreats before the attacker's (19.2.6), each side's obligations before its options."""
        rank = {result.defender.side: 0, result.attacker.side: 1}
        return sorted(queue, key=lambda q: (rank[q[0]], q[2]))

    def _next_retreat(self, res: Resolution) -> None:
        b = self.cbook.battle
        while b["queue"]:
            side, unit, may = b["queue"][0]
            if unit not in self.state.pieces:
                b["queue"].pop(0)
                continue
            options = eng.retreat_options(self.state, unit)
            if not may and len(options) <= 1:          # no choice: the one hex, or elimination (19.3.6)
                self._do_retreat(unit, options[0] if options else None, res)
                if b["owed"] == "overstack":
                    return
                continue
            b["owed"] = "retreat"
            return
        self._offer_advance(res)

    @implements("NT 19.3", "NT 19.3.2", "NT 19.3.3", "NT 19.3.8")
    def _do_retreat(self, unit: str, to: str | None, res: Resolution) -> None:
        """One retreat; a retreat across a border is excused until the unit's next movement phase (19.3.3), and a
        retreat over the stacking limit waits for the owner's eliminations (19.3.2)."""
        b = self.cbook.battle
        st = self.state
        side = st.side_of(unit)
        here = st.piece(unit).location
        under = [t for _, t in self.book.announced if t not in self.cbook.resolved] \
            if self.phase.id == "communist_combat" else []
        self.state = eng.retreat(st, unit, to, under_attack=under, result=b["result"], res=res)
        b["queue"].pop(0)
        b["retreated"].append(unit)
        if unit in self.state.pieces and to not in (None, "fleet") and self._country(here) != self._country(to):
            self.violations = self.violations.excuse(unit, "retreat")
        if to not in (None, "fleet") and unit in self.state.pieces and \
                eng.overstack_choices(self.state, to, side) != [()]:
            b.update(owed="overstack", over_side=side, over_at=to)

    def _country(self, location: str) -> str:
        g = self.state.geography
        return g.zone(location).country if location in g.zones else g.country(g.hex(location))

    @handles(Retreat)
    def _retreat(self, a: Retreat, dice, res: Resolution) -> None:
        b = self.cbook.battle
        if b is None or b["owed"] != "retreat":
            raise RuleViolation("NT 19.3", "no unit waits to retreat")
        side, unit, may = b["queue"][0]
        if a.unit != unit:
            raise RuleViolation("NT 19.3", f"{unit} retreats first")
        self._do_retreat(unit, a.to or None, res)
        if b["owed"] == "retreat":
            b["owed"] = None
            self._next_retreat(res)

    @handles(Stay)
    def _stay(self, a: Stay, dice, res: Resolution) -> None:
        b = self.cbook.battle
        if b is None or b["owed"] != "retreat" or not b["queue"][0][2] or b["queue"][0][1] != a.unit:
            raise RuleViolation("NT 19.2.6", f"{a.unit} has no choice to stay")
        b["queue"].pop(0)
        res.add("NT 19.2.6", f"{a.unit} stays after the tie", result=a.unit)
        b["owed"] = None
        self._next_retreat(res)

    @handles(EliminateOverstack)
    def _eliminate_overstack(self, a: EliminateOverstack, dice, res: Resolution) -> None:
        b = self.cbook.battle
        if b is None:
            stacks = self.overstacked()
            if not stacks:
                raise RuleViolation("NT 8.10.2", "no hex is over the stacking limit")
            where, side = stacks[0]
            self.state = eng.eliminate_overstack(self.state, where, side, a.units, res=res)
            return
        if b["owed"] != "overstack":
            raise RuleViolation("NT 19.3.2", "no hex is over the stacking limit")
        self.state = eng.eliminate_overstack(self.state, b["over_at"], b["over_side"], a.units, res=res)
        b["owed"] = None
        self._next_retreat(res)

    @implements("NT 8.10.2")
    def overstacked(self) -> tuple[tuple[str, str], ...]:
        """8.10.2: the (hex, side) stacks over the limit, which may stand during the reinforcement and movement
        phases but not at the start or the end of a combat phase: their owner eliminates the excess before the
        phase's first battle and before it ends."""
        st = self.state

        def compute():
            out = []
            for loc in sorted({p.location for p in st.pieces.values()}):
                for side in ("communist", "allied"):
                    if eng.overstack_choices(st, loc, side) != [()]:
                        out.append((loc, side))
            return tuple(out)
        return st.derived(("overstacked",), compute)

    def _offer_advance(self, res: Resolution) -> None:
        b = self.cbook.battle
        options = eng.advance_options(self.state, b["result"], b["battle"], b["location"], retreated=b["retreated"])
        if options:
            b.update(owed="advance", advance=options)
            return
        self._battle_over(res)

    @handles(Advance)
    def _advance(self, a: Advance, dice, res: Resolution) -> None:
        b = self.cbook.battle
        if b is None or b["owed"] != "advance":
            raise RuleViolation("NT 19.4", "no battle offers an advance")
        if a.units:
            st = self.state
            broken = [v for u in a.units for v in nt10.violations_by_move(st, u, b["location"])]
            self.state = eng.advance(st, b["result"], b["battle"], b["location"], a.units,
                                     retreated=b["retreated"], res=res)
            self._neutrality(tuple(broken), None, dice, res)
        self._battle_over(res)

    @implements("NT 18.6.2")
    def _battle_over(self, res: Resolution) -> None:
        """The battle is over: the supply units that supplied its NVA attackers are used up (18.6.2, 18.7.3)."""
        uses = [u for u in self.cbook.battle.get("uses", ()) if u in self.state.pieces]
        if uses:
            self.state = use_up(self.state, uses, res=res)
        self.cbook.battle = None

    # ------------------------------------------------------------------ what may be done
    def _combat_candidates(self):
        import itertools
        b, st = self.cbook.battle, self.state
        stacks = self.overstacked() if b is None else ()
        if stacks:
            where, side = stacks[0]
            for pick in eng.overstack_choices(st, where, side)[:6]:
                yield EliminateOverstack(pick)
            return
        if b is not None:
            owed = b["owed"]
            if owed == "ground_support":
                per_hex = [itertools.combinations(eligible, n) for n, eligible in b["gs_quota"].values()]
                for picks in itertools.islice(itertools.product(*per_hex), 4):
                    yield LowerMorale(tuple(u for pick in picks for u in pick))
            elif owed == "losses":
                for pick in eng.loss_choices(b["result"], b["loss_side"])[:6]:
                    yield ChooseLosses(pick)
            elif owed == "retreat":
                side, unit, may = b["queue"][0]
                for to in eng.retreat_options(st, unit)[:8]:
                    yield Retreat(unit, to)
                if not eng.retreat_options(st, unit):
                    yield Retreat(unit, "")
                if may:
                    yield Stay(unit)
            elif owed == "overstack":
                for pick in eng.overstack_choices(st, b["over_at"], b["over_side"])[:6]:
                    yield EliminateOverstack(pick)
            else:
                yield Advance(())
                yield Advance(b["advance"])
                yield Advance(b["advance"][:1])
            return
        side = self.phase.side
        if side == "communist":
            if self._shock_possible() and self.shock_by_declaration() and self.state.armour_shock_turn is None \
                    and not self.cbook.resolved:
                yield DeclareArmourShock()
            for att, t in self.book.announced:
                if t not in self.cbook.resolved:
                    yield Attack(self._able(att), t)
            return
        for c in self._sample(eng.combat_candidates(st, side, fought=self.cbook.fought), 6):
            gs = self._support_over(c.defender_location)
            names = tuple(air.ground_support_targets(st, c.defender_location))[:gs] if gs else ()
            yield Attack(c.attackers, c.defender_location, names)
            yield Attack(c.attackers[:1], c.defender_location, names)

    def _choose_battle_losses(self, units, res: Resolution) -> None:
        b = self.cbook.battle
        side = b["loss_side"]
        if sorted(units) not in [sorted(c) for c in eng.loss_choices(b["result"], side)]:
            out = b["result"].of(side)
            raise RuleViolation("NT 19.2.6", f"the {side} player loses {out.losses} of {', '.join(out.eligible)}")
        b["losses"][side] = tuple(units)
        res.add("NT 19.2.6", f"the {side} player gives up {', '.join(units)}", result=tuple(units))
        b["owed"] = None
        self._after_losses(res)
