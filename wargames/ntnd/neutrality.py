"""No Trumpets No Drums, rule 10: the neutral states (Laos, Cambodia), China and North Vietnam.

Neutrality is kept in ``NtndState.standing`` (Laos, Cambodia: ``"neutral"``, ``"allied"``, or ``"communist"`` once
conquered, 10.6). What happens to it during a turn is kept in a :class:`Violations` record that the game carries
from phase to phase (and into the next turn with :meth:`Violations.next_turn`):

* the detectors find violations: a face-up unit stepping across a border into a neutral state
  (:func:`violations_by_move`, also for advances after combat), attacking across one (:func:`violations_by_attack`),
  a zone of control announced across one (:func:`declare_zoc`), an air mission other than strategic bombing
  (:func:`violations_by_air_mission`), face-up units still in a neutral state when their movement phase ends
  (:func:`violations_at_end_of_movement`); Allied ground combat units in North Vietnam are recorded the same way
  (10.8). Retreats and forced flips are excused (:meth:`Violations.excuse`) until the unit's next movement phase
  begins (:meth:`Violations.begin_movement`);
* :func:`charge_violations` then charges each violated country once a turn: one die of political points against
  the violator and a Hearts and Minds box away from him (10.2.1, through :func:`.hearts_minds.violation_shift`);
  North Vietnam costs a flat 10 (:func:`north_vietnam_invasion`);
* :func:`check_move_or_attack` refuses what the neutral forces may not do (10.3, 10.4, 28.11.2);
* a neutral state joins the Allies by a Communist attack or occupation (:func:`ends_neutrality_by_move`,
  :func:`ends_neutrality_by_attack`, then :func:`communist_entry`) or an Allied coup (:func:`coup`), and is never
  neutral again; it falls with :func:`conquered` / :func:`conquer` (10.6).

Readings (see also each function):

* A violation is charged once per country per turn, however many units commit it (10.2.1 "one die per country
  he has violated that turn"); a Communist violation raises the Allied total (inventory 3, catalog A5.12).
* Units at home never violate their own country (PL, KR, Laotian, Cambodian), nor do Communist supply units
  (8.9.4), Green Berets anywhere (15.1), or the Secret War units in Laos (10.2.3.1, 28.11.1: the SOA, Montagnards,
  the Thai 333). The "Laotian intervention" random event lets every Allied unit into Laos for its turn.
* A guerrilla at home entering a town of its own neutral country does not end the neutrality (inventory 6.2,
  as :mod:`.movement` reads it); a Pathet Lao attack on Royal Lao units does not either (28.11.3), nor does the
  one North Vietnamese unit a turn that may attack in Laos (28.11.3, which also spares it the 10.2 charge). A
  Khmer Rouge attack on Cambodian units does end Cambodia's neutrality (10.5.1, one box). Off-board zones are
  not towns or cities for 10.5.1 (10.6 lists them apart).
* "Ground units" in North Vietnam (10.8) are ground combat units, as in :mod:`.movement`; an Allied ground attack
  into North Vietnam counts like a zone of control reaching into it. The peace party's doubling (23.5) applies to
  the die of a Laos or Cambodia violation committed by US units, not to the 10 points of North Vietnam.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

from ..core import Dice, Resolution, implements
from ..core.dice import roll_die
from ..core.errors import RuleViolation
from .charts import NtndCharts
from .hearts_minds import communist_entry_shift, control, holder, violation_shift
from .state import NEUTRAL_STATES, NtndState
from .units import AIR, SECRET_WAR_TYPES
from .zones import neutral_to

#: 10.3, 8.9: the nationalities at home in each neutral state
HOME = {"Laotian": "Laos", "Cambodian": "Cambodia", "PL": "Laos", "KR": "Cambodia"}
NATIONAL_FORCES = {"Laos": "Laotian", "Cambodia": "Cambodian"}
#: 28.11.2: Laotian types that may attack inverted units while Laos is neutral
LAO_STRIKE_TYPES = ("ranger", "airmobile")
AIR_MISSIONS = ("strategic_bombing", "ground_support", "supply", "transport")   # 11.1
EXCUSES = ("revealed", "retreat")          # 10.2.2, 19.3.3, 10.5.1
ACTIONS = ("move", "attack")
NV_INVASION_POINTS = 10                    # 10.8
COUP_FACTOR = {"controlled": 2, "not controlled": 5}   # 10.5.2
REINFORCEMENT = "reinforcement"            # the phase name a coup requires (10.5.2, 3.2.1)
INTERVENTION_FLAG = "laotian_intervention"  # the random event's next-turn flag (events.NextTurn)


# ------------------------------------------------------------------------------------------- the turn's record

@dataclass(frozen=True)
class Violation:
    """One act that violates a country's neutrality: who, where, which rule and why."""

    side: str
    country: str           # "Laos", "Cambodia", or "NV" (10.8)
    unit: str | None       # None for a zone-of-control announcement
    where: str
    rule: str
    reason: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.side} violation of {self.country} ({self.reason})"


@dataclass(frozen=True)
class Violations:
    """What neutrality has suffered this turn: the violations, the (side, country) pairs already charged, the
    zones of control announced across borders, the unit that used the free North Vietnamese attack in Laos
    (28.11.3), and the units excused until their next movement phase (10.2.2: ``(unit, "revealed" | "retreat")``,
    kept across the turn's end)."""

    turn: int
    items: tuple[Violation, ...] = ()
    charged: frozenset[tuple[str, str]] = frozenset()
    declared: frozenset[tuple[str, str]] = frozenset()
    free_nva: str | None = None
    excused: frozenset[tuple[str, str]] = field(default_factory=frozenset)

    def __deepcopy__(self, memo) -> "Violations":
        """Frozen, and made of frozen parts: a snapshot shares it."""
        return self

    def add(self, *items: Violation, free_nva: str | None = None) -> "Violations":
        if free_nva is not None and self.free_nva is not None:
            raise RuleViolation("NT 28.11.3", f"{self.free_nva} already made this turn's attack in Laos")
        return replace(self, items=self.items + tuple(items), free_nva=free_nva or self.free_nva)

    def countries(self, side: str) -> tuple[str, ...]:
        """The countries ``side`` has violated this turn, in the order of the first violation."""
        return tuple(dict.fromkeys(v.country for v in self.items if v.side == side))

    def uncharged(self) -> tuple[tuple[str, str], ...]:
        pairs = dict.fromkeys((v.side, v.country) for v in self.items)
        return tuple(p for p in pairs if p not in self.charged)

    def declared_by(self, side: str) -> tuple[str, ...]:
        """The countries ``side`` has announced its zones of control reach into (``declared`` of :mod:`.zones`)."""
        return tuple(sorted(c for s, c in self.declared if s == side))

    def is_excused(self, unit: str, reason: str | None = None) -> bool:
        return any(u == unit and (reason is None or r == reason) for u, r in self.excused)

    @implements("NT 10.2.2", "NT 19.3.3", "NT 10.5.1")
    def excuse(self, unit: str, reason: str) -> "Violations":
        """A unit forced face up by enemy action (``"revealed"``) or retreated across a border (``"retreat"``):
        no violation until its next movement phase has ended."""
        if reason not in EXCUSES:
            raise ValueError(f"reason is one of {EXCUSES}, not {reason!r}")
        return replace(self, excused=self.excused | {(unit, reason)})

    def begin_movement(self, state: NtndState, side: str) -> "Violations":
        """``side``'s movement phase begins: its excused units now must re-invert or leave (10.2.2)."""
        return replace(self, excused=frozenset((u, r) for u, r in self.excused
                                               if u in state.pieces and state.side_of(u) != side))

    def next_turn(self, turn: int) -> "Violations":
        """A new turn: nothing violated or charged yet (10.2.3), the excuses and the announced zones of control
        carried over (:func:`renew_declarations` charges the announcements again)."""
        return Violations(turn, excused=self.excused, declared=self.declared)


# ------------------------------------------------------------------------------------------- who is exempt

def _country(state: NtndState, location: str) -> str:
    g = state.geography
    return g.zone(location).country if location in g.zones else g.country(g.hex(location))


def _intervention(state: NtndState) -> bool:
    nxt = state.next_turn
    return nxt is not None and getattr(nxt, "turn", None) == state.turn and INTERVENTION_FLAG in nxt.flags


@implements("NT 10.2.3.1", "NT 28.11", "NT 28.11.1", "NT 15.1", "NT 8.9.4", "NT 28.6.1", "NT 10.3.2", "NT 10.3.3")
def exempt(state: NtndState, unit: str, country: str) -> str | None:
    """The rule under which ``unit`` may be in ``country`` without violating it, or None: its own country (10.3),
    a Communist supply unit (8.9.4), a Green Beret (15.1), and in Laos the SOA, Montagnards and the Thai 333
    (10.2.3.1) or any Allied unit in a turn of the Laotian intervention event (21)."""
    c = state.counter(unit)
    if HOME.get(c.nationality) == country:
        return "NT 10.3"
    if c.side == "communist" and c.type == "supply":
        return "NT 8.9.4"
    if c.type == "green_beret":
        return "NT 15.1"
    if country == "Laos" and c.side == "allied":
        if c.type in SECRET_WAR_TYPES or "thai_333" in c.tags:
            return "NT 10.2.3.1"
        if _intervention(state):
            return "NT 21.1"
    return None


def _ground(state: NtndState, unit: str) -> bool:
    return state.counter(unit).ground_combat


# ------------------------------------------------------------------------------------------- 10.3 limits

@implements("NT 10.3.1", "NT 10.3.2", "NT 10.3.3", "NT 10.4", "NT 28.11", "NT 28.11.2")
def check_move_or_attack(state: NtndState, unit: str, action: str, *, to_location: str | None = None,
                         defenders: Iterable[str] = (), record: Violations | None = None) -> None:
    """Refuse what a neutral state's own forces may not do (raises RuleViolation; other units pass).

    ``action`` "move" (``to_location``: the hex or zone entered) or "attack" (``to_location``: the attacked hex
    or zone, ``defenders``: the units attacked). While its country is neutral a Cambodian unit neither moves nor
    attacks (10.3.1, 10.4); a Laotian unit stays in Laos and attacks only in Laos and only face-up units, never
    one that was inverted or was revealed by Allied action this turn (10.3.2, 10.4; ``record`` holds the
    revealed), except its rangers and airmobile units (28.11.2); Pathet Lao and Khmer Rouge units stay in their
    country (10.3.3)."""
    if action not in ACTIONS:
        raise ValueError(f"action is one of {ACTIONS}, not {action!r}")
    c = state.counter(unit)
    home = HOME.get(c.nationality)
    if home is None or state.standing.get(home) != "neutral":
        return
    if to_location is None:
        raise RuleViolation("NT 10.3", f"{unit}: name the location moved into or attacked")
    there = _country(state, to_location)
    if c.nationality == "Cambodian":
        raise RuleViolation("NT 10.3.1" if action == "move" else "NT 10.4",
                            f"{unit}: Cambodian units may not {action} while Cambodia is neutral")
    if c.nationality in ("PL", "KR"):
        if action == "move" and there != home:
            raise RuleViolation("NT 10.3.3", f"{unit} may not leave {home} while it is neutral")
        return
    # Royal Lao
    if there != "Laos":
        raise RuleViolation("NT 10.3.2" if action == "move" else "NT 10.4",
                            f"{unit}: neutral Laotian units {'stay in' if action == 'move' else 'attack only in'} "
                            f"Laos, not {to_location}")
    if action == "attack" and c.type not in LAO_STRIKE_TYPES:
        for d in defenders:
            if not state.piece(d).face_up or (record is not None and record.is_excused(d, "revealed")):
                raise RuleViolation("NT 10.3.2", f"{unit} may not attack {d}, an inverted (or revealed) unit, "
                                                 f"while Laos is neutral (only rangers and airmobile units may, 28.11.2)")


def may_move_or_attack(state: NtndState, unit: str, action: str, **kw) -> bool:
    """:func:`check_move_or_attack` as a yes/no answer."""
    try:
        check_move_or_attack(state, unit, action, **kw)
    except RuleViolation:
        return False
    return True


# ------------------------------------------------------------------------------------------- detectors

@implements("NT 10.2", "NT 10.2.3.1", "NT 10.7", "NT 10.8", "NT 8.9.4", "NT 8.9.5")
def violations_by_move(state: NtndState, unit: str, to_location: str) -> tuple[Violation, ...]:
    """What one step (or an advance after combat) of ``unit`` into ``to_location`` violates.

    A face-up unit crossing into Laos or Cambodia while neutral violates it unless :func:`exempt` (10.2); an
    Allied ground combat unit entering North Vietnam invades it (10.8); Allied units never enter China (10.7,
    refused). The limits of :func:`check_move_or_attack` are checked first. Retreats are not moves: they are
    excused (:meth:`Violations.excuse`)."""
    c, piece = state.counter(unit), state.piece(unit)
    check_move_or_attack(state, unit, "move", to_location=to_location)
    here, there = _country(state, piece.location), _country(state, to_location)
    if there == "China" and c.side == "allied":
        raise RuleViolation("NT 10.7", f"{unit}: Allied units may not invade China")
    if not piece.face_up or here == there or c.type in AIR[c.side]:
        return ()
    if there == "NV":
        if c.side == "allied" and _ground(state, unit):
            return (Violation("allied", "NV", unit, to_location, "NT 10.8", f"{unit} entered North Vietnam"),)
        return ()
    if there in NEUTRAL_STATES and neutral_to(state, there, c.side) and exempt(state, unit, there) is None:
        return (Violation(c.side, there, unit, to_location, "NT 10.2", f"{unit} crossed the border face up"),)
    return ()


def free_nva_choices(state: NtndState, record: Violations, attackers: Iterable[str], target: str) -> tuple[str, ...]:
    """The North Vietnamese attackers that may be named as this turn's free attack in Laos (28.11.3)."""
    if record.free_nva is not None or _country(state, target) != "Laos" or state.standing.get("Laos") != "neutral":
        return ()
    return tuple(u for u in attackers if state.counter(u).nationality == "NVA")


def _check_free(state, record, attackers, target, free_nva):
    if free_nva is not None and free_nva not in free_nva_choices(state, record, attackers, target):
        raise RuleViolation("NT 28.11.3", f"{free_nva} cannot be the free attack in Laos: one North Vietnamese "
                                          f"attacker a turn, in neutral Laos, not yet used this turn")


@implements("NT 10.2", "NT 10.4", "NT 10.8", "NT 28.11.1", "NT 28.11.3")
def violations_by_attack(state: NtndState, record: Violations, attackers: Iterable[str], target: str, *,
                         free_nva: str | None = None) -> tuple[Violation, ...]:
    """What an attack on ``target`` (a hex or zone) violates: each face-up attacker outside a neutral country
    attacking into it, unless :func:`exempt` (10.2); an Allied ground combat unit attacking into North Vietnam
    (our reading of 10.8). ``free_nva``: the Communist player's choice of the one North Vietnamese unit a turn
    that attacks in Laos without violating it (28.11.3; :func:`free_nva_choices`); record it with
    ``record.add(*violations, free_nva=...)``. The limits of :func:`check_move_or_attack` are checked first."""
    attackers = tuple(attackers)
    _check_free(state, record, attackers, target, free_nva)
    there = _country(state, target)
    out = []
    for u in attackers:
        c, piece = state.counter(u), state.piece(u)
        check_move_or_attack(state, u, "attack", to_location=target, defenders=state.at(target), record=record)
        if not piece.face_up or _country(state, piece.location) == there or u == free_nva:
            continue
        if there == "NV" and c.side == "allied" and _ground(state, u):
            out.append(Violation("allied", "NV", u, target, "NT 10.8", f"{u} attacked into North Vietnam"))
        elif there in NEUTRAL_STATES and neutral_to(state, there, c.side) and exempt(state, u, there) is None:
            out.append(Violation(c.side, there, u, target, "NT 10.2", f"{u} attacked across the border"))
    return tuple(out)


@implements("NT 10.2", "NT 10.2 Note", "NT 8.5.1", "NT 10.8")
def declare_zoc(state: NtndState, record: Violations, side: str, country: str) -> Violations:
    """A player announces that his zones of control reach across the border of ``country`` this turn (10.2,
    8.5.1): a violation (for the Allies and North Vietnam, an invasion, 10.8). Refused where nothing is neutral
    toward him. Pass ``record.declared_by(side)`` to :mod:`.zones` as ``declared``."""
    if not neutral_to(state, country, side):
        raise RuleViolation("NT 10.2", f"{country} is not neutral toward the {side} player: no announcement needed")
    if (side, country) in record.declared:
        raise RuleViolation("NT 10.2", f"the {side} player has already announced it this turn")
    rule = "NT 10.8" if country == "NV" else "NT 10.2"
    v = Violation(side, country, None, country, rule, "zones of control announced across the border")
    return replace(record.add(v), declared=record.declared | {(side, country)})


@implements("NT 10.2 Note")
def revoke_zoc(record: Violations, side: str, country: str) -> Violations:
    """A player takes back his announcement: from now on his zones of control stop at that border again. What
    the announcement cost this turn stays paid."""
    if (side, country) not in record.declared:
        raise RuleViolation("NT 10.2", f"the {side} player has announced no zone of control into {country}")
    return replace(record, declared=record.declared - {(side, country)})


@implements("NT 10.2.3", "NT 10.2 Note")
def renew_declarations(state: NtndState, record: Violations) -> Violations:
    """A new turn: an announcement stands until its owner takes it back (our reading), and like any violation
    it is charged again in every turn it lasts (10.2.3). One made into a country that is no longer neutral
    toward its owner lapses (nothing is left to violate)."""
    kept = frozenset((side, c) for side, c in record.declared if neutral_to(state, c, side))
    items = tuple(Violation(side, c, None, c, "NT 10.8" if c == "NV" else "NT 10.2",
                            "zones of control still announced across the border") for side, c in sorted(kept))
    return replace(record, declared=kept, items=record.items + items)


def declare_zoc_choices(state: NtndState, record: Violations, side: str) -> tuple[str, ...]:
    return tuple(c for c in NEUTRAL_STATES + ("NV",) if neutral_to(state, c, side) and (side, c) not in record.declared)


@implements("NT 10.2.3.1", "NT 28.1.1", "NT 28.1.2", "NT 28.1.3", "NT 10.7", "NT 10.8")
def violations_by_air_mission(state: NtndState, unit: str, location: str, mission: str) -> tuple[Violation, ...]:
    """An Allied air mission flown at ``location``: strategic bombing never violates (10.2.3.1, 10.7, 10.8); in
    North Vietnam nothing does (10.8); the SOA flies any mission in Laos (10.2.3.1), but none in Cambodia while
    it is neutral (28.1.2-28.1.3, refused); any other mission in a neutral Laos or Cambodia violates it."""
    if mission not in AIR_MISSIONS:
        raise ValueError(f"mission is one of {AIR_MISSIONS}, not {mission!r}")
    c = state.counter(unit)
    if c.side != "allied" or c.type not in AIR["allied"]:
        raise RuleViolation("NT 11.1", f"{unit} is not an Allied air unit")
    there = _country(state, location)
    if there not in NEUTRAL_STATES or not neutral_to(state, there, "allied"):
        return ()
    if c.type == "soa" and there == "Cambodia":
        raise RuleViolation("NT 28.1.2" if mission == "strategic_bombing" else "NT 28.1.3",
                            "the SOA operates in Cambodia only once it is an Ally")
    if mission == "strategic_bombing" or exempt(state, unit, there) is not None:
        return ()
    return (Violation("allied", there, unit, location, "NT 10.2", f"{unit} flew {mission.replace('_', ' ')}"),)


@implements("NT 10.2.2", "NT 10.2.3", "NT 10.5.1", "NT 19.3.3", "NT 10.8", "NT 8.9.4")
def violations_at_end_of_movement(state: NtndState, side: str, record: Violations) -> tuple[Violation, ...]:
    """End of ``side``'s movement phase: each face-up unit of his in a neutral Laos or Cambodia violates it (10.2.2)
    unless :func:`exempt`; for the Allies each ground combat unit in North Vietnam invades it (10.8). Units
    excused since this movement phase began (a failed infiltration's flip, :meth:`Violations.excuse`) are
    spared, as are air units (their missions are judged apart)."""
    out = []
    for u in state.units(side, face_up=True):
        c = state.counter(u)
        if c.type in AIR[side] or record.is_excused(u):
            continue
        where = state.piece(u).location
        there = _country(state, where)
        if there == "NV" and side == "allied" and _ground(state, u):
            out.append(Violation(side, "NV", u, where, "NT 10.8", f"{u} remained in North Vietnam"))
        elif there in NEUTRAL_STATES and neutral_to(state, there, side) and exempt(state, u, there) is None:
            out.append(Violation(side, there, u, where, "NT 10.2.2", f"{u} stayed face up in {there}"))
    return tuple(out)


# ------------------------------------------------------------------------------------------- charging

def _note(res: Resolution | None):
    return res.add if res is not None else (lambda *a, **k: None)


@implements("NT 10.2.1", "NT 10.2.3", "NT 23.5")
def charge_violations(state: NtndState, record: Violations, dice: Dice, *, charts: NtndCharts | None = None,
                      res: Resolution | None = None) -> tuple[NtndState, Violations]:
    """Charge every country violated this turn and not yet charged: one die per country (10.2.1), doubled for a
    US violation once the peace party has won (23.5), against the violator (the Allied total falls, or rises
    for a Communist violation); the country's Hearts and Minds marker moves one box away from him unless he
    controls it (:func:`.hearts_minds.violation_shift`). North Vietnam: :func:`north_vietnam_invasion`. Call it
    as soon as violations are recorded ("immediately"); a country is charged once a turn (10.2.3)."""
    if record.turn != state.turn:
        raise RuleViolation("NT 10.2.3", f"the record is of turn {record.turn}, the position of turn {state.turn}")
    new, charged = state, set(record.charged)
    note = _note(res)
    for side, country in record.uncharged():
        if country == "NV":
            new, record = north_vietnam_invasion(new, replace(record, charged=frozenset(charged)), res=res)
            charged = set(record.charged)
            continue
        us = any(v.unit is not None and state.counter(v.unit).nationality == "US"
                 for v in record.items if (v.side, v.country) == (side, country))
        factor = state.policy.neutrality_factor(us)
        roll = roll_die(dice, 6, f"NT 10.2.1 {side} violation of {country}")
        points = roll * factor
        delta = -points if side == "allied" else points
        before = new.track.points
        new = new.copy()
        new.track = new.track.add(delta, new.policy, new.turn)
        note("NT 10.2.1", f"the {side} player violated {country}: die {roll}" + (" doubled (23.5)" if factor > 1
                                                                               else "")
             + f", track {before} -> {new.track.points}", arithmetic=f"{before} {delta:+d}", result=delta,
             roll=roll, country=country, side=side)
        new = violation_shift(new, country, side, charts=charts, res=res)
        charged.add((side, country))
    return (new if new is not state else state.copy()), replace(record, charged=frozenset(charged))


@implements("NT 10.8")
def north_vietnam_invasion(state: NtndState, record: Violations, *,
                           res: Resolution | None = None) -> tuple[NtndState, Violations]:
    """10 political points off the Allied total, once in each turn in which Allied ground combat units entered
    or stayed in North Vietnam or their zones of control were announced into it (10.8) - as recorded in
    ``record``. Strategic bombing, the fleet, ground support and zones of influence never count."""
    if ("allied", "NV") in record.charged or not any(v.country == "NV" for v in record.items):
        return state.copy(), record
    new = state.copy()
    new.track = state.track.add(-NV_INVASION_POINTS, state.policy, state.turn)
    _note(res)("NT 10.8", f"Allied ground units in North Vietnam this turn: track {state.track.points} -> "
                          f"{new.track.points}", arithmetic=f"{state.track.points} - {NV_INVASION_POINTS}",
               result=-NV_INVASION_POINTS)
    return new, replace(record, charged=record.charged | {("allied", "NV")})


# ------------------------------------------------------------------------------------------- 10.5 the end of neutrality

def _neutral_country(state: NtndState, country: str, rule: str) -> None:
    if country not in NEUTRAL_STATES:
        raise RuleViolation(rule, f"{country} is not one of the neutral states ({', '.join(NEUTRAL_STATES)})")
    if state.standing.get(country) != "neutral":
        raise RuleViolation("NT 10.6", f"{country} is no longer neutral ({state.standing.get(country)}) and never "
                                       f"will be again")


@implements("NT 10.5.1")
def ends_neutrality_by_move(state: NtndState, unit: str, to_location: str) -> tuple[str, bool] | None:
    """(country, by NVA) when a face-up Communist unit stepping into ``to_location`` ends a neutrality: a town or
    city hex of a neutral state, entered by anything but a guerrilla at home (our reading, inventory 6.2)."""
    c, piece = state.counter(unit), state.piece(unit)
    if c.side != "communist" or not piece.face_up or to_location in state.geography.zones:
        return None
    there = _country(state, to_location)
    if there not in NEUTRAL_STATES or state.standing.get(there) != "neutral" or HOME.get(c.nationality) == there:
        return None
    if not state.geography.is_settlement(state.geography.hex(to_location)):
        return None
    return there, c.nationality == "NVA"


@implements("NT 10.5.1", "NT 28.11.3")
def ends_neutrality_by_attack(state: NtndState, record: Violations, attackers: Iterable[str],
                              defenders: Iterable[str], *, free_nva: str | None = None) -> tuple[str, bool] | None:
    """(country, by NVA) when a Communist attack on a neutral state's own units ends its neutrality (10.5.1).
    Not by Pathet Lao attacking in Laos, nor by the free North Vietnamese attacker (28.11.3)."""
    defenders, attackers = tuple(defenders), tuple(attackers)
    hit = {HOME[state.counter(d).nationality] for d in defenders
           if state.counter(d).nationality in NATIONAL_FORCES.values()}
    hit = [c for c in NEUTRAL_STATES if c in hit and state.standing.get(c) == "neutral"]
    if not hit:
        return None
    country = hit[0]
    if free_nva is not None and free_nva not in [u for u in attackers if state.counter(u).nationality == "NVA"]:
        raise RuleViolation("NT 28.11.3", f"{free_nva} is not a North Vietnamese attacker")
    if free_nva is not None and (country != "Laos" or (record.free_nva not in (None, free_nva))):
        raise RuleViolation("NT 28.11.3", "the free attack is one North Vietnamese unit a turn, in Laos")
    by = [u for u in attackers if state.side_of(u) == "communist" and u != free_nva
          and not (country == "Laos" and state.counter(u).nationality == "PL")]
    if not by:
        return None
    return country, any(state.counter(u).nationality == "NVA" for u in by)


@implements("NT 10.5.1", "NT 10.6", "NT 8.9.5")
def communist_entry(state: NtndState, country: str, by_nva: bool, *, charts: NtndCharts | None = None,
                    res: Resolution | None = None) -> NtndState:
    """A Communist occupation or attack ends ``country``'s neutrality (10.5.1): it joins the Allies for good and
    its marker moves one box toward Allied Control (two if North Vietnamese units did it)."""
    _neutral_country(state, country, "NT 10.5.1")
    new = communist_entry_shift(state, country, nva=by_nva, charts=charts, res=res)
    new.standing[country] = "allied"
    _note(res)("NT 10.5.1", f"{country} joins the Allies", result="allied")
    return new


def coup_choices(state: NtndState) -> tuple[str, ...]:
    """The states where the Allied player may launch a coup now (at the start of his reinforcement phase)."""
    if state.phase != REINFORCEMENT:
        return ()
    return tuple(c for c in NEUTRAL_STATES if state.standing.get(c) == "neutral")


@implements("NT 10.5.2", "NT 10.6")
def coup(state: NtndState, country: str, dice: Dice, *, charts: NtndCharts | None = None,
         res: Resolution | None = None) -> NtndState:
    """The Allied player's coup (10.5.2), at the start of his reinforcement phase: two dice, times 2 political
    points if he controls the country on the Hearts and Minds track, times 5 if not; the state joins the Allies."""
    if state.phase != REINFORCEMENT:
        raise RuleViolation("NT 10.5.2", f"a coup is launched at the start of the Allied reinforcement phase, "
                                         f"not in {state.phase!r}")
    _neutral_country(state, country, "NT 10.5.2")
    held = control(state, country, charts) == "allied"
    factor = COUP_FACTOR["controlled" if held else "not controlled"]
    a = roll_die(dice, 6, f"NT 10.5.2 coup in {country}: die 1")
    b = roll_die(dice, 6, f"NT 10.5.2 coup in {country}: die 2")
    cost = (a + b) * factor
    new = state.copy()
    new.track = state.track.add(-cost, state.policy, state.turn)
    new.standing[country] = "allied"
    _note(res)("NT 10.5.2", f"coup in {country} ({'controlled' if held else 'not controlled'}): dice {a}+{b}, "
                            f"{cost} points; track {state.track.points} -> {new.track.points}; it joins the Allies",
               arithmetic=f"({a} + {b}) x {factor} = {cost}", result=-cost, country=country)
    return new


# ------------------------------------------------------------------------------------------- 10.6 conquest

@implements("NT 10.6")
def conquered(state: NtndState, country: str) -> bool:
    """A former neutral is conquered when face-up Communist units hold each of its towns, cities and off-board
    zones and none of its own ground combat units is in play (10.6). A neutral state cannot be conquered."""
    if country not in NEUTRAL_STATES or state.standing.get(country) != "allied":
        return False
    g = state.geography
    places = list(g.settlements(country).values())
    labels = [g.label(h) for h in places] + [z for z, zone in g.zones.items() if zone.country == country]
    if not all(holder(state, label) == "communist" for label in labels):
        return False
    nation = NATIONAL_FORCES[country]
    return not any(state.counter(u).nationality == nation and _ground(state, u) for u in state.pieces)


@implements("NT 10.6", "NT 28.6.2")
def conquer(state: NtndState, country: str, *, res: Resolution | None = None) -> NtndState:
    """The conquest (10.6): the state's standing becomes "communist" and every counter of its nationality (and,
    for Laos, the Thai 333, 28.6.2) leaves the game for good, wherever it is (``NtndState.withdrawn``)."""
    if not conquered(state, country):
        raise RuleViolation("NT 10.6", f"{country} is not conquered: face-up Communist units must hold every town, "
                                       f"city and zone of a former neutral, with none of its ground units left")
    new = state.copy()
    new.standing[country] = "communist"
    gone = [c.id for c in state.mix if c.nationality == NATIONAL_FORCES[country]
            or (country == "Laos" and "thai_333" in c.tags)]
    for unit in gone:
        new.withdraw(unit)
    _note(res)("NT 10.6", f"{country} is conquered; {len(gone)} counters leave the game", result=tuple(gone))
    return new


__all__ = ["ACTIONS", "AIR_MISSIONS", "EXCUSES", "NEUTRAL_STATES", "Violation", "Violations", "charge_violations",
           "check_move_or_attack", "communist_entry", "conquer", "conquered", "coup", "coup_choices", "declare_zoc",
           "declare_zoc_choices", "ends_neutrality_by_attack", "ends_neutrality_by_move", "exempt",
           "free_nva_choices", "may_move_or_attack", "north_vietnam_invasion", "violations_at_end_of_movement",
           "violations_by_air_mission", "violations_by_attack", "violations_by_move"]
