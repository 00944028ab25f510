"""The Assault action (F 8.0), round by round.

An assault runs as a chain of small steps (eligibility, the defenders' opportunity fire, the attackers' TQ
checks, revealing civilians and dummies, then up to three simultaneous fire rounds). Each step rolls its own
dice, so the same code replays a printed example with scripted dice, plays with random dice, and gives the
exact distribution of outcomes with :func:`wargames.core.dist.enumerate_chain`, which merges identical
positions between steps.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from fractions import Fraction

from ..core import Hex, Resolution, ScriptedDice, implements
from ..core.dist import Distribution, Parts, enumerate_chain
from ..core.errors import RuleViolation
from ..core.log import QuietResolution
from .checks import tq_check
from .fire import FireOutcome, apply_effect, fire, roll_effect
from .movement import place_unit
from .opfire import opportunity_fire, retreat_opfire_hook
from .sites import enter_fort
from .traps import arrive
from .state import FteState
from .units import CasualtyMarker, Unit

RESULTS = ("cleared", "repulsed", "unresolved")


def _unsettled(values: tuple) -> bool:
    return any(kind != "settled" for kind, _ in values)


class _CountingDice:
    """Passes rolls on to other dice, counting them."""

    def __init__(self, dice):
        self.dice, self.rolls = dice, 0

    def roll(self, sides: int = 6, why: str = "", classes=None) -> int:
        self.rolls += 1
        return self.dice.roll(sides, why, classes)


#: dice for applying hits whose rolls were settled already: any roll is an error
_NO_DICE = ScriptedDice([], source="settled hits")


@dataclass(frozen=True)
class AssaultPlan:
    """The assaulting player's and the defender's choices.

    ``combine``: the attackers fire as one attack led by ``primary`` (default: the first listed still in the
    assault); otherwise each fires alone. ``attacker_targets`` maps an attacker (or, when combining, the
    primary) to the defender it shoots; ``defender_targets`` maps a defender to the attacker it shoots;
    ``defender_opfire`` maps defenders that fire before the TQ checks to their target (F 8.0, 21.0).
    Unnamed choices default to the first eligible unit in listed order. With ``retreat_opfire`` every enemy
    unit that may fire at a retreating broken unit tries to (F 7.4, 21.0); by default nobody does.
    """

    attackers: tuple[str, ...]
    target: str
    combine: bool = True
    primary: str | None = None
    attacker_targets: tuple[tuple[str, str], ...] = ()
    defender_targets: tuple[tuple[str, str], ...] = ()
    defender_opfire: tuple[tuple[str, str], ...] = ()
    advance: bool = True
    advance_into: str | None = None   # "bunker" or "foxholes" in the target hex
    retreat_opfire: bool = False      # every eligible enemy tries opportunity fire at retreating broken units


@dataclass
class Attack:
    """One attack of a fire round, for the round-by-round display."""

    side: str           # "attacker" or "defender"
    firers: tuple[str, ...]
    target: str
    outcome: FireOutcome


@dataclass
class AssaultRun:
    """A running assault: the position, the plan, and where in the procedure it is."""

    state: FteState
    plan: AssaultPlan
    res: Resolution = field(default_factory=Resolution)
    phase: str = "start"
    round: int = 0
    in_assault: list[str] = field(default_factory=list)   # attackers that passed their TQ check
    pending: list[tuple[str, str, Hex, str]] = field(default_factory=list)  # (target, effect, away_from, by)
    rounds: list[list[Attack]] = field(default_factory=list)
    result: str | None = None

    # ------------------------------------------------------------------ helpers
    @property
    def hex(self) -> Hex:
        h = self.__dict__.get("_hex")
        if h is None:
            h = self.__dict__["_hex"] = self.state.hex(self.plan.target)
        return h

    @property
    def attacker_player(self) -> str:
        p = self.__dict__.get("_attacker_player")
        if p is None:
            p = self.__dict__["_attacker_player"] = self.state.unit(self.plan.attackers[0]).player
        return p

    def defenders(self) -> list[Unit]:
        return [u for u in self.state.units_at(self.hex) if u.player != self.attacker_player]

    def fighting_attackers(self) -> list[Unit]:
        """Attackers still in the assault: passed the TQ check, on the map, neither broken nor suppressed."""
        out = []
        for uid in self.in_assault:
            u = self.state.units[uid]
            if u.on_map and not u.broken and not u.suppressed and u.hex.is_adjacent(self.hex):
                out.append(u)
        return out

    def fighting_defenders(self) -> list[Unit]:
        """Defenders that fire this round: not broken; suppressed ones only under the revision (F 8.0)."""
        fight_on = self.state.readings.suppressed_defenders_fight_on
        return [u for u in self.defenders() if u.is_combat and not u.broken and (fight_on or not u.suppressed)
                and u.role != "sapper"]

    def copy(self, log: bool = True, only=None) -> "AssaultRun":
        """A copy to run on; with ``log=False`` (exact enumeration) the copy keeps no log. With ``only`` (unit
        ids), the state is :meth:`FteState.copy_for` those units (applying infantry hits to them), and with an
        empty ``only`` it is shared, for a step that changes nothing in it."""
        new = object.__new__(AssaultRun)
        new.__dict__.update(self.__dict__)
        new.state = self.state.copy() if only is None else self.state.copy_for(only) if only else self.state
        new.res = copy.deepcopy(self.res) if log else QuietResolution()
        new.in_assault = list(self.in_assault)
        new.pending = list(self.pending)
        new.rounds = [list(r) for r in self.rounds]
        return new

    def _fork(self, only, record: list, fresh: bool = False) -> "AssaultRun":
        """For exact enumeration: a copy that goes on to apply a fire round's settled hits to units ``only``
        (:meth:`FteState.copy_for`), with ``record`` as the round's attacks; the state is shared if no unit is
        named, unless ``fresh``."""
        new = object.__new__(AssaultRun)
        d = new.__dict__
        d.update(self.__dict__)
        d["state"] = self.state.copy_for(only) if only or fresh else self.state
        d["res"] = QuietResolution()
        d["in_assault"] = list(self.in_assault)
        d["pending"] = []
        d["rounds"] = self.rounds + [record]      # the rounds' lists are copied before any is added to
        return new

    def key(self) -> tuple:
        """The position and the run's progress, casualty markers by kind and side (not the log)."""
        s = self.state
        units = tuple((u.id, u.hex, u.reduced, u.concealed, u.suppressed, u.broken, u.op_fired)
                      for u in sorted(s.units.values(), key=lambda u: u.id))
        cas = tuple(sorted((c.kind, c.side) for c in s.casualties.values()))
        return (self.phase, self.round, tuple(self.in_assault), tuple(self.pending), units, cas,
                tuple(sorted(s.vp.items())), self.result)

    def position_key(self) -> tuple:
        """Exactly what the rest of the assault reads, for merging positions in exact enumeration: the run's
        progress, the units' places and markers, forts, and the casualty markers that a later step can touch,
        those carried and those lying in the assaulted hex, where an advance settles them (F 7.5.3). Markers
        lying elsewhere, the VP and the log are not read again; :meth:`tally` counts the markers.

        Once the fire rounds have begun, a unit that neither fights on (an attacker still in the assault) nor
        stands in the assaulted hex is out of the assault for good: suppressed and broken units stay so, and
        only broken units move, away from the hex. The rest of the assault reads only where such a unit is
        (others' retreats, stacking, the line of fire), so that is all its key holds, and of the attackers
        that passed their TQ check only those still fighting (removing a sapper at the end counts no marker);
        not with fire at retreating units, which reads every unit that may fire. A finished run is keyed on its
        result, and a run about to finish on its result and, when it advances into the hex, on what the advance
        reads."""
        s, h = self.state, self.hex
        before = self.__dict__.get("_before", ())
        phase = self.phase
        if phase == "done":
            return ("done", self.result)          # nothing reads a finished run again but its result
        if phase == "finish" and self.result is not None and not self._advancing():
            return ("finish", self.result)        # the finish moves no unit and places or removes no marker
        cas = tuple(sorted((c.kind, c.side, c.carried_by or "", c.id if c.id in before else "")
                           for c in s.casualties.values() if c.carried_by is not None or c.hex == h))
        sites = tuple((x.hex, x.kind, x.revealed, tuple(x.occupants)) for x in s.sites.values())
        if phase == "finish" and self.result is not None:
            # the advance moves the attackers still fighting in, with what they carry, and settles the markers
            # left in the hex (by the units' roles): it reads more of them only to set off a booby trap there
            # or to enter a fort
            trap = s.booby_traps.get(h)
            going = tuple((u.id, *_record(u)) if trap is not None or self.plan.advance_into else u.id
                          for u in self.fighting_attackers())
            return ("finish", self.result, going, cas, sites, trap, tuple(s.retreats_due), tuple(s.landings_due))
        if self.round and not self.plan.retreat_opfire:
            fighting = tuple([u.id for u in self.fighting_attackers()])
            active = set(fighting)
            for p in self.pending:
                active.add(p[0])
            units = tuple([_record(u) if u.id in active or u.hex == h else
                           (_at(u.hex), u.loaded_in, u.destroyed, u.altitude, u.downed, tuple(u.carrying))
                           for u in s.units.values()])
        else:
            fighting = tuple(self.in_assault)
            units = tuple(_record(u) for u in s.units.values())
        pending = tuple((t, e, _at(a), b) for t, e, a, b in self.pending)
        return (phase, self.round, fighting, pending, units, cas, sites,
                tuple(s.retreats_due), tuple(s.landings_due), self.result)

    def tally(self, before=None) -> tuple[int, int, int, int]:
        """The casualty markers the assault placed that are still in play: attackers' KIA and WIA, then
        defenders' KIA and WIA (what :class:`AssaultOutcome` counts). ``before``: the ids of the markers
        there before the assault (default: those recorded when the enumeration started)."""
        if before is None:
            before = self.__dict__.get("_before", ())
        att = self.attacker_player
        n = [0, 0, 0, 0]
        for cid, c in self.state.casualties.items():
            if cid not in before and c.kind in ("KIA", "WIA"):
                n[(0 if c.player == att else 2) + (c.kind == "WIA")] += 1
        return tuple(n)

    def round_parts(self) -> Parts | None:
        """For exact enumeration: a fire round's two sides fire at once, each from the position at the round's
        start, and the results are applied together afterwards (F 8.0), so the attackers' fire and the
        defenders' fire are independent :class:`~wargames.core.dist.Parts`. Not where forts are in play (a
        hit may reveal or wreck a bunker as it is scored).

        Each part also settles, where it can, the dice of applying its hits (:meth:`_settle`): its value is
        then the hits with those dice's results folded in, which the join applies with no die. Either way a
        part reads only the units in the fight, where the others stand and the markers carried, so two
        positions alike in those (:meth:`_parts_keys`) share their parts' values. With fire at retreating units
        (``retreat_opfire``) a retreat can change the other side, so both sides' hits are applied together after
        the join, with their dice (:meth:`_joint_parts`)."""
        s = self.state
        if self.phase != "attackers" or s.sites or any(u.fort for u in s.units.values()):
            return None
        if self.plan.retreat_opfire:
            return self._joint_parts()
        memo = self.__dict__.get("_parts_memo")
        if memo is None:
            memo = {}
        records = memo.setdefault("records", {})   # the attacks of each part's values, for the rounds shown
        key_a, key_d = self._parts_keys()
        shown_a, shown_d = records.setdefault(key_a, {}), records.setdefault(key_d, {})
        start = self
        in_hex = frozenset(u.id for u in self.defenders())

        prepared: dict = {}         # the fire attacks' checks and DRMs: every part fires from this position

        def attackers(run, dice):
            run.__dict__["_prepared"] = prepared
            run._attackers(dice)
            value = run._settle(tuple(run.pending), dice, distinct=False)
            shown_a.setdefault(value, run.rounds[-1])
            return value

        def defenders(run, dice):
            run.__dict__["_prepared"] = prepared
            run.rounds.append([])
            run._defenders(dice)
            value = run._settle(tuple(run.pending), dice, distinct=True)
            shown_d.setdefault(value, run.rounds[-1])
            return value

        bases: dict = {}            # the position after the attackers' settled hits, for each value of theirs
        results: dict = {}

        def their_result(theirs):
            """What the defenders' settled hits do, where that reads only their targets, which the attackers' hits
            leave alone: a KIA, WIA or S on infantry that is no leader (no chit), carries no marker and is not a
            sapper (and so no retreat and no die). Then the targets as the hits leave them, the markers placed
            (kind, side, hex, in order) and the points scored; else None."""
            if id(theirs) not in results:     # a value's tuple is the same object in every combination
                targets = [s.units[p[0]] for p in theirs]
                done = None
                if all(p[1] in ("KIA", "WIA", "S") for p in theirs) and not any(
                        u.is_leader or u.carrying or u.role == "sapper" or u.fort for u in targets):
                    d = start.copy(log=False, only={u.id for u in targets})
                    ids = set(d.state.casualties)
                    d._hit(theirs, _NO_DICE)
                    markers = [(c.kind, c.side, c.hex) for cid, c in d.state.casualties.items() if cid not in ids]
                    if (d.state.next_id - s.next_id != len(markers)
                            or len(ids) + len(markers) != len(d.state.casualties)):
                        raise AssertionError("the defenders' hits did more than place markers")
                    done = ({u.id: d.state.units[u.id] for u in targets}, markers,
                            {k: v for k, v in d.state.vp.items() if v != s.vp[k]})
                results[id(theirs)] = (theirs, done)        # the tuple kept, so that its id stays its own
            return results[id(theirs)][1]
        uncovering = in_hex if self.round == 1 else frozenset()     # their Concealed markers come off now

        def build(run, values):
            (ours_kind, ours), (theirs_kind, theirs) = values
            record = shown_a[values[0]] + shown_d[values[1]]
            if ours_kind == theirs_kind == "settled":
                known = bases.get(id(ours))
                if known is None:
                    touched = in_hex.union(p[0] for p in ours)
                    base = start.copy(log=False, only=touched)
                    base._hit(ours, _NO_DICE)
                    changed = {uid for uid in touched if vars(base.state.units[uid]) != vars(s.units[uid])}
                    known = bases[id(ours)] = (base, changed, ours)
                base, changed, _ = known
                for p in theirs:      # checks settled on the round's start: their targets must be as then
                    if p[0] in changed:
                        raise AssertionError(f"the attackers' hits changed {p[0]}, a target of the defenders' fire")
                done = their_result(theirs) if theirs else None
                if done is None:
                    new = base._fork(uncovering.union(p[0] for p in theirs), record)
                    new._hit(theirs, _NO_DICE)
                else:               # what these hits do to the round's start, done to the attackers' position
                    units, markers, points = done
                    new = base._fork(uncovering, record, fresh=True)
                    st = new.state
                    for who in points:
                        if st.vp[who] != s.vp[who]:
                            raise AssertionError(f"the attackers' hits changed {who}'s points, scored by the defenders")
                    st.units.update(units)
                    for kind, side, at in markers:
                        mid = st.new_id(kind)
                        st.casualties[mid] = CasualtyMarker(mid, kind, side, hex=at)
                    st.vp.update(points)
                new._end_round()
                return new
            new = start.copy(log=False)
            new.rounds.append(record)
            new.pending = list(ours) + list(theirs)
            new.phase = "apply"
            if theirs_kind == "settled":
                new.__dict__["_settled"] = tuple((p[0], vars(s.units[p[0]])) for p in theirs)
            return new

        return Parts((attackers, defenders), then=AssaultRun._apply_settled, build=build, keys=(key_a, key_d),
                     memo=memo.setdefault("parts", {}), then_when=_unsettled,
                     copy=lambda run: run.copy(log=False, only=()))     # firing changes nothing in the position

    def _parts_keys(self) -> tuple[tuple, tuple]:
        """What each part of a fire round reads (:meth:`round_parts`). Every attack is between adjacent hexes
        (the attackers still fighting are next to the hex), so its checks and DRMs read only the firers, the
        target, the units in the target's hex (how many) and the markers carried; the hits then applied read
        their targets and, for the retreat of a broken unit, where every unit stands, which changes a part's
        value only when a later hit of that part finds its target gone: possible only where the attackers fire
        separately (the defenders' part settles only hits on different units)."""
        s, h = self.state, self.hex
        fighting = self.fighting_attackers()
        ours = tuple((u.id, *_record(u)) for u in fighting)
        here = tuple((u.id, *_record(u)) for u in s.units_at(h))
        carried = tuple(sorted((c.kind, c.side, c.carried_by) for c in s.casualties.values()
                               if c.carried_by is not None))
        later = self.round > 1
        where = self.position_key()[4] if not self.plan.combine else ()
        theirs = tuple(tuple((v.id, v.hex, v.kind, v.destroyed) for v in s.units_at(u.hex)) for u in fighting)
        return (("attackers", later, ours, here, carried, where), ("defenders", later, ours, here, theirs, carried))

    def _settle(self, hits: tuple, dice, *, distinct: bool) -> tuple[str, tuple]:
        """Apply one side's hits with the dice and, when the only dice rolled were the TQ checks of "S?" results
        on infantry (each target on the map when hit and, with ``distinct``, hit once), return ("settled", the
        hits with a passed check's hit and any hit that did nothing dropped and a failed check's "S?" made an
        "S"): applied with no die, they do exactly what these did. Otherwise ("pending", the hits).

        Hits on different infantry units, none a sapper, with no "S?" need not be applied to know that: each
        finds its target on the map, rolls nothing (a retreat here draws no fire) and does something."""
        s = self.state
        targets = [s.units[h[0]] for h in hits]
        ids = {u.id for u in targets}
        if any(u.kind != "infantry" for u in targets) or (distinct and len(ids) < len(targets)):
            return ("pending", hits)
        if len(ids) == len(targets) and all(h[1] != "S?" for h in hits) and all(u.role != "sapper" for u in targets):
            return ("settled", hits)    # each hit lands on its own target, rolls nothing and does something
        self.state = s.copy_for(ids)    # the parts' runs share the round's position until a hit is applied
        counted = _CountingDice(dice)
        done = self._hit(hits, counted)
        checks = sum(1 for h, u in zip(hits, targets) if h[1] == "S?" and u.role != "sapper")
        if counted.rolls != checks or None in done:
            return ("pending", hits)
        return ("settled", tuple((tid, "S" if effect == "S?" else effect, away, by)
                                 for (tid, effect, away, by), did in zip(hits, done) if did != "none"))

    def _apply_settled(self, dice) -> None:
        """:meth:`_apply` for a round whose parts settled some of their hits (no fire at retreating units): the
        attackers' hits, then the defenders', then the end of the round. Settled checks were rolled for the
        position at the round's start: the attackers' hits must have left their targets as they were."""
        if self.phase != "apply":
            return
        s = self.state
        ours = [p for p in self.pending if s.units[p[0]].player != self.attacker_player]
        theirs = [p for p in self.pending if s.units[p[0]].player == self.attacker_player]
        self._hit(ours, dice)
        for uid, was in self.__dict__.pop("_settled", ()):
            if vars(s.units[uid]) != was:
                raise AssertionError(f"the attackers' hits changed {uid}, a target of the defenders' settled fire")
        self._hit(theirs, dice)
        self.pending = []
        self._end_round()

    def _joint_parts(self) -> Parts:
        """Both sides' fire as parts, their hits applied together after the join, with their dice."""
        attacks: dict = {}

        def attackers(run, dice):
            run._attackers(dice)
            value = tuple(run.pending)
            attacks.setdefault(("attacker", value), run.rounds[-1])
            return value

        def defenders(run, dice):
            run.rounds.append([])
            run._defenders(dice)
            value = tuple(run.pending)
            attacks.setdefault(("defender", value), run.rounds[-1])
            return value

        def join(run, values):
            ours, theirs = values
            run.rounds.append(attacks[("attacker", ours)] + attacks[("defender", theirs)])
            run.pending = list(ours) + list(theirs)
            run.phase = "apply"

        return Parts((attackers, defenders), join, then=AssaultRun.step)

    @property
    def done(self) -> bool:
        return self.phase == "done"

    # ------------------------------------------------------------------ the steps
    def step(self, dice) -> None:
        getattr(self, f"_{self.phase}")(dice)

    @implements("F 8.0")
    def _start(self, dice) -> None:
        """Check eligibility; the assaulting units lose concealment (F 8.0)."""
        check_assault(self.state, self.plan)
        s, res = self.state, self.res
        res.add("F 8.0", f"{', '.join(self.plan.attackers)} assault {self.plan.target}, held by "
                         f"{', '.join(u.id for u in self.defenders())}")
        for uid in self.plan.attackers:
            u = s.units[uid]
            if u.concealed:
                u.concealed = False
                res.add("F 8.0", f"{uid} loses its Concealed marker to assault")
        self.phase = "opfire"

    def _opfire(self, dice) -> None:
        """Defenders not yet Op Fired may fire at one assaulting unit each, as regular opportunity fire."""
        for did, aid in self.plan.defender_opfire:
            d = self.state.unit(did)
            if d.hex != self.hex or d.player == self.attacker_player:
                raise RuleViolation("F 8.0", f"{did} is not a defender in {self.plan.target}")
            if aid not in self.plan.attackers:
                raise RuleViolation("F 8.0", f"{aid} is not one of the assaulting units")
            target = self.state.unit(aid)
            if not target.on_map or target.broken:
                # an earlier defender's shot broke it (it has run back, F 7.4) or removed it: it is out of the
                # assault, and this defender keeps its fire (in play each defender answers in turn and picks
                # another target; a plan names its targets in advance)
                self.res.add("F 8.0", f"{did} holds its fire: {aid} is already out of the assault")
                continue
            # the TQ check first: a concealed defender keeps its marker if it fails, and fires with the -1 of a
            # concealed firer if it passes, losing the marker as it fires (F 8.0, F 21.0)
            opportunity_fire(self.state, [did], aid, dice, self.res)
        if not self.plan.defender_opfire:
            self.res.add("F 8.0", "the defenders do not take opportunity fire")
        self.phase = "tq"

    @implements("F 8.0", "F 27.0")
    def _tq(self, dice) -> None:
        """Each attacker passes a TQ check to go in; sappers, leaders and units stacked with an assaulting
        leader pass without rolling."""
        s = self.state
        going = [s.units[a] for a in self.plan.attackers]        # a leader the defenders' fire broke has gone
        leaders = {u.hex for u in going if u.is_leader and u.on_map and not u.suppressed}
        for aid in self.plan.attackers:
            u = s.units[aid]
            if not u.on_map or u.broken or u.suppressed:
                self.res.add("F 8.0", f"{aid} is out of the assault after the opportunity fire")
                continue
            auto = ("a sapper" if u.role == "sapper" else "a leader" if u.is_leader else
                    "stacked with an assaulting leader" if u.hex in leaders else "")
            if tq_check(s, u, dice, self.res, "F 8.0", "the assault", auto=auto):
                self.in_assault.append(aid)
            else:
                self.res.add("F 8.0", f"{aid} stays back")
        self.phase = "reveal"

    def _reveal(self, dice) -> None:
        """Civilians and dummies found in the assaulted hex are exposed and taken off the map (F 8.0)."""
        for u in self.defenders():
            if u.role in ("civilians", "dummy"):
                u.hex = None
                self.res.add("F 8.0", f"{u.id} is revealed as {'civilians' if u.role == 'civilians' else 'a dummy'} "
                                      "and removed")
        self.round = 1
        # The first round is always fought, even against defenders that are all Broken already: the test for
        # a cleared hex comes "after any Round" (F 8.0). Only an empty hex or no attacker left skips it.
        self.phase = "attackers" if self.defenders() and self.fighting_attackers() else "finish"

    @implements("F 8.0")
    def _attackers(self, dice) -> None:
        """The attackers' fire of this round (applied with the defenders' fire at the end of the round).
        In round 1 the assaulting units get no terrain modifier as targets; from round 2 both sides do."""
        s, plan = self.state, self.plan
        self.rounds.append([])
        self.res.add("F 8.0", f"fire round {self.round}")
        fighters = self.fighting_attackers()
        targets = [d for d in self.defenders()]
        chosen = dict(plan.attacker_targets)
        if plan.combine:
            order = [s.units[plan.primary]] if plan.primary else []
            order += [u for u in fighters if u not in order]
            order = [u for u in order if u in fighters and u.is_combat]
            groups = [order] if order else []
        else:
            groups = [[u] for u in fighters if u.is_combat]
        for group in groups:
            tid = chosen.get(group[0].id)
            if tid is None or s.units[tid].hex != self.hex:
                tid = targets[0].id if targets else None
            if tid is None:
                break
            out = fire(s, [u.id for u in group], tid, dice, self.res, assault=True, apply=False,
                       prepared=self.__dict__.get("_prepared"))
            self.rounds[-1].append(Attack("attacker", tuple(u.id for u in group), tid, out))
            if out.hit:
                self.pending.append((tid, out.effect, group[0].hex, group[0].player))
        self.phase = "defenders"

    @implements("F 8.0")
    def _defenders(self, dice) -> None:
        """Each defender that can fire shoots one assaulting unit (broken defenders cannot fire)."""
        s = self.state
        fighters = self.fighting_attackers()
        chosen = dict(self.plan.defender_targets)
        for d in self.fighting_defenders():
            if not fighters:
                break
            tid = chosen.get(d.id)
            if tid not in [u.id for u in fighters]:
                tid = fighters[0].id
            out = fire(s, [d.id], tid, dice, self.res, assault=True, apply=False, terrain=self.round > 1,
                       prepared=self.__dict__.get("_prepared"))
            self.rounds[-1].append(Attack("defender", (d.id,), tid, out))
            if out.hit:
                self.pending.append((tid, out.effect, d.hex, d.player))
        self.phase = "apply"

    @implements("F 8.0")
    def _apply(self, dice) -> None:
        """Apply the round's results together, the defenders' first (so if both sides break, the defenders
        retreat first); then defenders lose concealment after round 1, and the assault ends when one side is
        all broken or gone, or after round 3."""
        s = self.state
        defenders_hit = [p for p in self.pending if s.units[p[0]].player != self.attacker_player]
        attackers_hit = [p for p in self.pending if s.units[p[0]].player == self.attacker_player]
        hook = retreat_opfire_hook(s, lambda st, uid, h, cands: cands) if self.plan.retreat_opfire else None
        self._hit(defenders_hit + attackers_hit, dice, hook)
        self.pending = []
        self._end_round()

    def _hit(self, hits, dice, hook=None) -> list[str | None]:
        """Apply hits (target, effect, away from, by) in order; what each did (None: its target had gone)."""
        s = self.state
        done = []
        for tid, effect, away, by in hits:
            if s.units[tid].on_map:
                done.append(apply_effect(s, tid, effect, dice, self.res, rule="F 8.0", away_from=away, by=by,
                                         retreat_fire=hook))
            else:
                done.append(None)
        return done

    def _end_round(self) -> None:
        """After the round's results: defenders lose concealment after round 1; the assault ends when one side
        is all broken or gone, or after round 3."""
        defenders = self.defenders()
        if self.round == 1:
            for d in defenders:
                if d.concealed:
                    d.concealed = False
                    self.res.add("F 8.0", f"{d.id} loses its Concealed marker after the first round")
        if not [d for d in defenders if not d.broken]:
            self.result = "cleared"
        elif not self.fighting_attackers():
            self.result = "repulsed"
        elif self.round == 3:
            self.result = "unresolved"
        if self.result:
            self.phase = "finish"
        else:
            self.round += 1
            self.phase = "attackers"

    def _advancing(self) -> bool:
        """Whether the finish advances into the hex: it is cleared and empty and the plan advances."""
        return self.result == "cleared" and self.plan.advance and not self.defenders()

    @implements("F 8.0", "F 27.0")
    def _finish(self, dice) -> None:
        """Advance into a cleared hex (no opportunity fire), mark the attackers Activation Complete, remove
        sappers after their attack."""
        s = self.state
        if self.result is None:
            self.result = "cleared" if not [d for d in self.defenders() if not d.broken] else "repulsed"
        self.res.add("F 8.0", {"cleared": "every defender is broken or gone: the hex is cleared",
                               "repulsed": "no assaulting unit is left in the fight: the assault is repulsed",
                               "unresolved": "three rounds are over: the assault ends unresolved"}[self.result],
                     result=self.result)
        if self._advancing():
            going = self.fighting_attackers()
            for u in going:
                place_unit(s, u, self.hex)
                self.res.add("F 8.0", f"{u.id} advances into {self.plan.target} without drawing opportunity fire")
            arrive(s, self.hex, [u.id for u in going], dice, self.res)       # F 7.5.3, F 26.0
            for u in going:
                if self.plan.advance_into and u.on_map and u.hex == self.hex:
                    enter_fort(s, u.id, self.plan.advance_into, self.res, advancing=True)
        for aid in self.plan.attackers:
            u = s.units[aid]
            if u.role == "sapper" and u.on_map and aid in self.in_assault:
                u.hex = None
                self.res.add("F 27.0", f"sapper {aid} is removed after its attack (no VP)")
            elif u.on_map:
                u.activated = True
        self.res.result = self.result
        self.phase = "done"


def _at(h: Hex | None) -> tuple[int, int] | None:
    """A hex as plain numbers, for keys (hashed many times)."""
    return None if h is None else (h.q, h.r)


def _record(u: Unit) -> tuple:
    """What a later step of the assault may read of a unit in the fight."""
    return (_at(u.hex), u.reduced, u.men, u.fire_rating, u.concealed, u.suppressed, u.broken, u.op_fired, u.immobilized,
            u.downed, u.destroyed, u.fort, u.loaded_in, tuple(u.carrying), u.altitude)


@implements("F 8.0")
def check_assault(state: FteState, plan: AssaultPlan) -> None:
    """Raise RuleViolation unless these units may assault this hex (F 8.0 and its revision)."""
    if not plan.attackers:
        raise RuleViolation("F 8.0", "an assault needs at least one assaulting unit")
    target = state.hex(plan.target)
    first = state.unit(plan.attackers[0])
    for aid in plan.attackers:
        u = state.unit(aid)
        if u.player != first.player:
            raise RuleViolation("F 8.0", f"{aid} is not on the same side as {first.id}")
        if not u.on_map:
            raise RuleViolation("F 8.0", f"{aid} is not on the map (loaded units cannot assault)")
        if u.kind == "helicopter":
            raise RuleViolation("F 5.1", f"{aid} is a helicopter; only infantry and vehicles assault")
        if u.role in ("dummy", "civilians", "medic"):
            raise RuleViolation({"dummy": "F 22.0", "civilians": "F 28.0", "medic": "F 17.1"}[u.role],
                                f"{aid} ({u.role}) cannot assault")
        if u.broken:
            raise RuleViolation("F 7.4", f"{aid} is broken: it may only Recover or Move")
        if u.suppressed and state.readings.assault_needs_unsuppressed:
            raise RuleViolation("F 8.0", f"{aid} is suppressed: only non-suppressed units may assault (revision)")
        if u.immobilized:
            raise RuleViolation("F 7.4", f"vehicle {aid} is immobilized and cannot assault")
        if not u.hex.is_adjacent(target):
            raise RuleViolation("F 8.0", f"{aid} in {state.label(u.hex)} is not adjacent to {state.label(target)}")
    if not state.enemies_at(target, first):
        raise RuleViolation("F 8.0", f"{state.label(target)} holds no enemy unit to assault")


def start(state: FteState, plan: AssaultPlan) -> AssaultRun:
    check_assault(state, plan)
    return AssaultRun(state, plan)


@implements("F 8.0")
def assault(state: FteState, plan: AssaultPlan, dice) -> AssaultRun:
    """Resolve a whole assault with the given dice; the position in ``state`` changes in place."""
    run = start(state, plan)
    while not run.done:
        run.step(dice)
    return run


@dataclass(frozen=True)
class AssaultOutcome:
    """An assault's result and its casualty counts (KIA and WIA markers placed, each side)."""

    result: str
    attacker_kia: int
    attacker_wia: int
    defender_kia: int
    defender_wia: int

    def text(self) -> str:
        return (f"{self.result}; attackers {self.attacker_kia} KIA {self.attacker_wia} WIA, "
                f"defenders {self.defender_kia} KIA {self.defender_wia} WIA")


def outcome_of(run: AssaultRun, before: FteState) -> AssaultOutcome:
    """Count the casualty markers the assault created, by side."""
    return AssaultOutcome(run.result, *run.tally(before.casualties))


def assault_distribution(state: FteState, plan: AssaultPlan) -> tuple[Distribution, dict]:
    """The exact distribution of an assault's :class:`AssaultOutcome` (and, for each outcome, one final run
    with its result: finished runs merge on their result, so its casualty counts may be another outcome's), by
    enumerating every die of every step and merging positions between steps on
    :meth:`AssaultRun.position_key`, with the casualty markers counted beside it (:meth:`AssaultRun.tally`).
    A fire round is enumerated side by side (:meth:`AssaultRun.round_parts`)."""
    run = start(state.copy(), plan)
    run.__dict__["_before"] = frozenset(state.casualties)
    run.__dict__["_parts_memo"] = {}        # this enumeration's fire rounds' parts, shared by the runs' copies
    dist, reps = enumerate_chain(run, AssaultRun.step, AssaultRun.position_key, lambda r: r.done,
                                 lambda r: r.copy(log=False), tally=AssaultRun.tally, parts=AssaultRun.round_parts)
    acc: dict = {}
    finals: dict = {}
    for (k, counts), p in dist.items():
        out = AssaultOutcome(reps[k].result, *counts)
        acc[out] = acc.get(out, Fraction(0)) + p
        finals.setdefault(out, reps[k])
    return Distribution(acc), finals
