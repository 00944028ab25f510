"""The activation phase (F 5.0) and who one activation may set in motion (F 5.1).

A turn's activations are driven by a cup of chits. The scenario's first player takes the first activation
without drawing; after that each activation starts with a chit drawn at random (a die with as many faces as
there are chits left). The chit names the player who acts, or the Random Event (resolved elsewhere). An
activation sets in motion a leader and friendly infantry near him, or units sharing a hex, or a single unit,
or a group of helicopters side by side; or the player passes. Each unit acts in only one activation a turn.
Afterwards every Op Fired marker comes off and the units activated get Activation Complete.

:class:`ActivationPhase` drives a turn; :func:`check_activation`, :func:`activatable` and
:func:`check_action` are the legality checks the phase and the widgets use.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ..core import Resolution, implements
from ..core.hexgrid import connected_groups
from ..core.errors import RuleViolation
from ..core.dice import roll_die
from .state import PLAYERS, FteState
from .units import Unit

#: The ways of activating (F 5.1). "helicopters": adjacent helicopters together; "vehicles": a vehicle with a
#: loaded leader and other vehicles within 4 hexes.
HOWS = ("leader", "hex", "unit", "helicopters", "vehicles", "pass")
LEADER_RANGE = 2
VEHICLE_LEADER_RANGE = 4

INFANTRY_ACTIONS = ("move", "fire", "assault", "search", "recover", "destroy_cache", "request_medevac",
                    "request_fire_mission")
VEHICLE_ACTIONS = ("move", "fire", "load", "unload", "assault", "recover")
HELICOPTER_ACTIONS = ("move", "fire", "load", "unload", "recover")
ACTIONS = {"infantry": INFANTRY_ACTIONS, "vehicle": VEHICLE_ACTIONS, "helicopter": HELICOPTER_ACTIONS}
#: Actions allowed to helicopters activated together (F 5.1).
HELICOPTER_GROUP_ACTIONS = ("move", "load", "unload")
#: Actions allowed to a broken unit (F 5.1 for a broken leader activating himself, F 7.4 for any broken unit).
BROKEN_ACTIONS = ("move", "recover")


@dataclass(frozen=True)
class Activation:
    """One activation: who acts, how they were activated, and any limit on their actions.

    ``leader`` is the activating leader (or, for ``how="vehicles"``, the vehicle carrying the leader);
    ``allowed`` lists the only actions the units may take (None: no limit beyond their class);
    ``chit`` is the chit drawn for it (None for the turn's first activation, which needs none).
    """

    player: str
    how: str
    units: tuple[str, ...] = ()
    leader: str | None = None
    allowed: tuple[str, ...] | None = None
    chit: str | None = None

    def describe(self, state: FteState | None = None) -> str:
        def where(uid: str) -> str:
            if state is None or uid not in state.units or state.units[uid].hex is None:
                return uid
            return f"{uid} ({state.label(state.units[uid].hex)})"
        if self.how == "pass":
            return f"{self.player} passes"
        who = ", ".join(where(u) for u in self.units)
        limit = f"; actions limited to {', '.join(self.allowed)}" if self.allowed else ""
        text = {"leader": f"leader {self.leader} activates {who}",
                "hex": f"one hex: {who}",
                "unit": f"{who} alone",
                "helicopters": f"helicopters side by side: {who}",
                "vehicles": f"vehicle {self.leader}, carrying a leader, activates {who}"}[self.how]
        return f"{self.player}: {text}{limit}"


# --------------------------------------------------------------------------- the chit cup

@implements("F 5.0")
def draw_chit(state: FteState, dice, res: Resolution) -> str:
    """Draw one chit from the cup at random: a die with one face per chit picks it (F 5.0).

    Returns "US", "NVA/VC" or "event" (the Random Event chit, resolved by F 19.0). A cup of one chit needs
    no roll.
    """
    cup = state.cup.cup
    if not cup:
        raise RuleViolation("F 5.0", "the cup is empty: the activation phase is over")
    n = len(cup)
    roll = roll_die(dice, n, f"draw one of the {n} chits in the cup") if n > 1 else 1
    chit = cup.pop(roll - 1)
    name = "the Random Event chit" if chit == "event" else f"a {chit} chit"
    res.add("F 5.0", f"{name} is drawn ({len(cup)} left in the cup)",
            arithmetic=f"d{n} = {roll} -> chit {roll} of {sorted_cup_text(cup + [chit])}" if n > 1 else "",
            result=chit, roll=roll)
    return chit


def sorted_cup_text(cup: list[str]) -> str:
    counts = {c: cup.count(c) for c in dict.fromkeys(cup)}
    return "[" + ", ".join(f"{n} {c}" for c, n in counts.items()) + "]"


# --------------------------------------------------------------------------- who may be activated

def _unit(state: FteState, uid: str) -> Unit:
    if uid not in state.units:
        raise RuleViolation("F 5.1", f"there is no unit {uid!r}")
    return state.units[uid]


def _eligible(state: FteState, player: str, u: Unit) -> None:
    """Checks every activated unit must pass, whatever the kind of activation."""
    if u.player != player:
        raise RuleViolation("F 5.1", f"{u.id} belongs to {u.player}, not to {player}")
    if u.loaded_in is not None:
        raise RuleViolation("F 14.0", f"{u.id} is loaded in {u.loaded_in}; a loaded unit cannot be activated")
    if u.destroyed or u.hex is None:
        raise RuleViolation("F 5.1", f"{u.id} is not on the map")
    if u.activated:
        raise RuleViolation("F 5.0", f"{u.id} already has Activation Complete: a unit is activated once a turn")


def _nationality_ok(leader: Unit, u: Unit) -> bool:
    """A VC or NVA leader commands only his own nationality and Civilians (F 5.1)."""
    if leader.side == "US":
        return True
    return u.side == leader.side or u.role == "civilians"


def _carried_leader(state: FteState, vehicle: Unit) -> Unit | None:
    for u in state.units.values():
        if u.loaded_in == vehicle.id and u.is_leader and not u.destroyed:
            return u
    return None


@implements("F 5.1", "F 19.5")
def check_activation(state: FteState, player: str, how: str, unit_ids: Iterable[str] = (), *,
                     leader: str | None = None, chit: str | None = None) -> Activation:
    """Check one activation and return it (raises :class:`RuleViolation` naming the rule it breaks).

    - ``leader``: the leader (``leader=``) plus any friendly infantry within 2 hexes (``unit_ids``), no LoS
      needed; a VC or NVA leader only his own nationality and Civilians; a broken leader only himself, and
      only to Recover or Move; a suppressed leader only units in his own hex (F 5.1). None under Higher HQ
      (F 19.5).
    - ``hex``: any number of infantry units sharing one hex.
    - ``unit``: a single unit of any kind.
    - ``helicopters``: two or more helicopters, each adjacent to another of the group, for Move, Load and
      Unload only.
    - ``vehicles``: a vehicle with a leader loaded (``leader=``) and other vehicles within 4 hexes.
    - ``pass``: nobody.
    """
    if player not in PLAYERS:
        raise RuleViolation("F 5.0", f"{player!r} is not a player; expected one of {PLAYERS}")
    if how not in HOWS:
        raise RuleViolation("F 5.1", f"{how!r} is not a way to activate; expected one of {HOWS}")
    ids = list(dict.fromkeys(unit_ids))
    if how == "pass":
        if ids or leader:
            raise RuleViolation("F 5.1", "a player who passes activates nobody")
        return Activation(player, "pass", chit=chit)

    if how in ("leader", "vehicles"):
        if leader is None:
            raise RuleViolation("F 5.1", f"a {how} activation needs its leader")
        if player in state.higher_hq:
            raise RuleViolation("F 19.5", f"Higher HQ: {player} may make no leader activations for the rest of the turn")
    if how == "leader":
        return _leader_activation(state, player, leader, ids, chit)
    if how == "vehicles":
        return _vehicle_activation(state, player, leader, ids, chit)
    if leader is not None:
        raise RuleViolation("F 5.1", f"a {how} activation has no leader")
    if not ids:
        raise RuleViolation("F 5.1", "name at least one unit to activate (or pass)")
    units = [_unit(state, uid) for uid in ids]
    for u in units:
        _eligible(state, player, u)

    if how == "unit":
        if len(units) != 1:
            raise RuleViolation("F 5.1", f"a single-unit activation names one unit, not {len(units)}")
        u = units[0]
        allowed = BROKEN_ACTIONS if u.broken else None
        return Activation(player, "unit", (u.id,), allowed=allowed, chit=chit)

    if how == "hex":
        others = [u for u in units if u.kind != "infantry"]
        if others:
            kind = others[0].kind
            raise RuleViolation("F 5.1", f"{others[0].id} is a {kind}: {kind}s are activated on their own"
                                         + (" (or side by side with other helicopters)" if kind == "helicopter" else ""))
        hexes = {u.hex for u in units}
        if len(hexes) > 1:
            raise RuleViolation("F 5.1", "a hex activation takes units from one hex only: "
                                         + ", ".join(f"{u.id} in {state.label(u.hex)}" for u in units))
        return Activation(player, "hex", tuple(ids), chit=chit)

    # helicopters side by side
    if any(u.kind != "helicopter" for u in units):
        bad = next(u for u in units if u.kind != "helicopter")
        raise RuleViolation("F 5.1", f"{bad.id} is not a helicopter; only helicopters activate as a helicopter group")
    if len(units) < 2:
        raise RuleViolation("F 5.1", "a helicopter group needs two or more helicopters (one alone is a unit activation)")
    _connected(state, units)
    return Activation(player, "helicopters", tuple(ids), allowed=HELICOPTER_GROUP_ACTIONS, chit=chit)


def _connected(state: FteState, units: list[Unit]) -> None:
    """Helicopters activated together must form one group in which each is adjacent to another (F 5.1)."""
    groups = connected_groups(units, lambda u: u.hex)
    apart = [u.id for g in groups[1:] for u in g]
    if apart:
        raise RuleViolation("F 5.1", f"{', '.join(apart)} is not adjacent to the other helicopters of the group")


def _leader_activation(state: FteState, player: str, leader_id: str, ids: list[str], chit) -> Activation:
    ldr = _unit(state, leader_id)
    _eligible(state, player, ldr)
    if not ldr.is_leader or ldr.kind != "infantry":
        raise RuleViolation("F 5.1", f"{ldr.id} is not a leader")
    others = [_unit(state, uid) for uid in ids if uid != ldr.id]
    if ldr.broken:
        if others:
            raise RuleViolation("F 5.1", f"{ldr.id} is broken: a broken leader activates only himself "
                                         f"(not {', '.join(u.id for u in others)})")
        return Activation(player, "leader", (ldr.id,), leader=ldr.id, allowed=BROKEN_ACTIONS, chit=chit)
    for u in others:
        _eligible(state, player, u)
        if u.kind != "infantry":
            raise RuleViolation("F 5.1", f"{u.id} is a {u.kind}: a leader activates infantry units only")
        if not _nationality_ok(ldr, u):
            raise RuleViolation("F 5.1", f"{ldr.id} is a {ldr.side} leader: he activates only {ldr.side} units and "
                                         f"Civilians, not the {u.side} unit {u.id}")
        d = ldr.hex.distance(u.hex)
        if ldr.suppressed and d > 0:
            raise RuleViolation("F 5.1", f"{ldr.id} is suppressed: he activates only units in his own hex "
                                         f"({u.id} is {d} hex{'es' * (d > 1)} away)")
        if d > LEADER_RANGE:
            raise RuleViolation("F 5.1", f"{u.id} is {d} hexes from {ldr.id}; a leader reaches {LEADER_RANGE}")
    return Activation(player, "leader", (ldr.id, *[u.id for u in others]), leader=ldr.id, chit=chit)


def _vehicle_activation(state: FteState, player: str, vehicle_id: str, ids: list[str], chit) -> Activation:
    veh = _unit(state, vehicle_id)
    _eligible(state, player, veh)
    if veh.kind != "vehicle":
        raise RuleViolation("F 5.1", f"{veh.id} is not a vehicle")
    ldr = _carried_leader(state, veh)
    if ldr is None:
        raise RuleViolation("F 5.1", f"{veh.id} carries no leader, so it activates only itself")
    others = [_unit(state, uid) for uid in ids if uid != veh.id]
    if ldr.broken and others:
        raise RuleViolation("F 5.1", f"the leader {ldr.id} aboard {veh.id} is broken and activates nobody else")
    for u in others:
        _eligible(state, player, u)
        if u.kind != "vehicle":
            raise RuleViolation("F 5.1", f"{u.id} is a {u.kind}: a vehicle carrying a leader activates vehicles only")
        d = veh.hex.distance(u.hex)
        if ldr.suppressed and d > 0:
            raise RuleViolation("F 5.1", f"the leader {ldr.id} aboard {veh.id} is suppressed: only vehicles in "
                                         f"its own hex")
        if d > VEHICLE_LEADER_RANGE:
            raise RuleViolation("F 5.1", f"{u.id} is {d} hexes from {veh.id}; a vehicle with a leader reaches "
                                         f"{VEHICLE_LEADER_RANGE}")
    return Activation(player, "vehicles", (veh.id, *[u.id for u in others]), leader=veh.id, chit=chit)


def _ready(state: FteState, player: str) -> list[Unit]:
    return [u for u in state.on_map(player) if not u.activated]


@implements("F 5.1")
def activatable(state: FteState, player: str) -> list[Activation]:
    """Every kind of activation open to ``player`` now, each with the largest group it may take.

    One entry per leader (with every unit he may activate), per hex of infantry, per single unit, per group
    of adjacent helicopters and per vehicle carrying a leader, plus passing. Any smaller group of the same
    units is legal too (check it with :func:`check_activation`).
    """
    ready = _ready(state, player)
    out: list[Activation] = []
    leaders_ok = player not in state.higher_hq
    for ldr in ready:
        if leaders_ok and ldr.is_leader and ldr.kind == "infantry":
            if ldr.broken:
                out.append(check_activation(state, player, "leader", [], leader=ldr.id))
                continue
            near = [u.id for u in ready if u.id != ldr.id and u.kind == "infantry" and _nationality_ok(ldr, u)
                    and ldr.hex.distance(u.hex) <= (0 if ldr.suppressed else LEADER_RANGE)]
            out.append(check_activation(state, player, "leader", near, leader=ldr.id))
    by_hex: dict = {}
    for u in ready:
        if u.kind == "infantry":
            by_hex.setdefault(u.hex, []).append(u.id)
    for h in sorted(by_hex, key=state.label):
        if len(by_hex[h]) > 1:
            out.append(check_activation(state, player, "hex", by_hex[h]))
    for u in sorted(ready, key=lambda u: u.id):
        out.append(check_activation(state, player, "unit", [u.id]))
    helis = [u for u in ready if u.kind == "helicopter"]
    for group in connected_groups(helis, lambda u: u.hex):   # helicopters never share a hex (F 6.2)
        if len(group) > 1:
            out.append(check_activation(state, player, "helicopters", sorted(u.id for u in group)))
    if leaders_ok:
        for v in ready:
            if v.kind == "vehicle" and _carried_leader(state, v) is not None:
                ldr = _carried_leader(state, v)
                reach = 0 if ldr.suppressed else VEHICLE_LEADER_RANGE
                near = [] if ldr.broken else [u.id for u in ready if u.kind == "vehicle" and u.id != v.id
                                              and v.hex.distance(u.hex) <= reach]
                out.append(check_activation(state, player, "vehicles", near, leader=v.id))
    out.append(Activation(player, "pass"))
    return out


# --------------------------------------------------------------------------- actions

@implements("F 5.0", "F 5.1")
def check_action(state: FteState, unit: Unit | str, action: str, done_so_far: Iterable[str] = (),
                 activation: Activation | None = None) -> None:
    """Check that an activated unit may take ``action`` after the actions it has already taken.

    Infantry take one action; vehicles two different ones; helicopters two, at least one a Move (a hover
    counts, and two Moves are fine) (F 5.0). Each class has its own list of actions; Destroy Cache is for
    US units only, Request Medevac for US leaders only, Request Fire Mission for US and NVA leaders and
    forward observers (F 5.1; with the errata's reading of the Fire Request Table VC leaders may not).
    """
    u = state.unit(unit) if isinstance(unit, str) else unit
    done = list(done_so_far)
    allowed = ACTIONS[u.kind]
    if action not in allowed:
        every = sorted({a for acts in ACTIONS.values() for a in acts})
        if action not in every:
            raise RuleViolation("F 5.1", f"{action!r} is not an action; expected one of {', '.join(every)}")
        raise RuleViolation("F 5.1", f"{u.id} is a {u.kind}; its actions are {', '.join(allowed)}, not {action}")
    if u.kind == "infantry" and done:
        raise RuleViolation("F 5.0", f"{u.id} has already taken its one action ({done[0]}) this activation")
    if u.kind == "vehicle":
        if len(done) >= 2:
            raise RuleViolation("F 5.0", f"{u.id} has already taken its two actions ({', '.join(done)})")
        if action in done:
            raise RuleViolation("F 5.0", f"{u.id} has already taken a {action} action; a vehicle's two actions "
                                         "must differ")
    if u.kind == "helicopter" and u.downed and action != "unload":
        raise RuleViolation("F 7.4", f"{u.id} is downed: it may only be activated to Unload")
    if u.kind == "helicopter" and u.broken and action != "move":
        raise RuleViolation("F 7.4", f"{u.id} is broken: it may only Move, to fly off the map")
    if u.kind == "helicopter":
        if len(done) >= 2:
            raise RuleViolation("F 5.0", f"{u.id} has already taken its two actions ({', '.join(done)})")
        if len(done) == 1 and done[0] != "move" and action != "move":
            raise RuleViolation("F 5.0", f"{u.id} took {done[0]}; one of a helicopter's two actions must be a "
                                         "Move (hovering in place counts)")
    if activation is not None and activation.allowed and action not in activation.allowed:
        why = ("a broken leader activating himself may only Recover or Move" if activation.how == "leader"
               else "helicopters activated together may only Move, Load or Unload"
               if activation.how == "helicopters" else f"this activation allows only {', '.join(activation.allowed)}")
        raise RuleViolation("F 5.1", f"{u.id} may not {action.replace('_', ' ')}: {why}")
    if u.broken and action not in BROKEN_ACTIONS:
        raise RuleViolation("F 7.4", f"{u.id} is broken and may only Recover or Move")
    if action == "destroy_cache" and u.side != "US":
        raise RuleViolation("F 5.1", f"{u.id} is {u.side}: only American units destroy caches")
    if action == "request_medevac" and not (u.side == "US" and u.is_leader):
        raise RuleViolation("F 5.1", f"{u.id}: only American leaders request a medevac")
    if action == "request_fire_mission":
        if not (u.is_leader or u.role == "fo"):
            raise RuleViolation("F 5.1", f"{u.id}: only leaders and forward observers request fire missions")
        if u.side == "VC" and state.readings.nva_only_fire_requests:
            raise RuleViolation("F 13.0", f"{u.id} is VC: only US and NVA leaders and observers request fire "
                                          "missions (errata to the Fire Request Table header)")
    if u.role == "dummy" and action != "move":
        raise RuleViolation("F 22.0", f"{u.id} is a dummy and may only move")
    if u.role == "civilians" and action != "move":
        raise RuleViolation("F 28.0", f"{u.id} is a Civilians marker and may only move")
    if u.role == "sapper" and action == "fire":
        raise RuleViolation("F 27.0", f"{u.id} is a sapper: it attacks only by assault, never by a Fire action")


def legal_actions(state: FteState, unit: Unit | str, done_so_far: Iterable[str] = (),
                  activation: Activation | None = None) -> list[str]:
    """The actions :func:`check_action` allows next for this unit."""
    u = state.unit(unit) if isinstance(unit, str) else unit
    out = []
    for a in ACTIONS[u.kind]:
        try:
            check_action(state, u, a, done_so_far, activation)
        except RuleViolation:
            continue
        out.append(a)
    return out


# --------------------------------------------------------------------------- ending an activation

@implements("F 5.0")
def end_activation(state: FteState, act: Activation, res: Resolution) -> None:
    """After an activation: every Op Fired marker comes off, and the units activated (still on the map) get
    Activation Complete (F 5.0)."""
    fired = [u.id for u in state.units.values() if u.op_fired]
    for uid in fired:
        state.units[uid].op_fired = False
    if fired:
        res.add("F 5.0", f"Op Fired markers removed from {', '.join(fired)}", units=fired)
    marked = []
    for uid in act.units:
        u = state.units.get(uid)
        if u is not None and not u.activated:
            u.activated = True
            marked.append(uid)
    if marked:
        res.add("F 5.0", f"Activation Complete on {', '.join(marked)}", units=marked)


# --------------------------------------------------------------------------- the phase

@dataclass
class ActivationPhase:
    """One turn's activation phase (F 5.0).

    Call :meth:`next` to learn who acts ("US", "NVA/VC", "event", or None when the cup is empty), then
    :meth:`activate` (or :meth:`pass_`) for a player, act, and :meth:`end` the activation. After an
    "event" the caller resolves the Random Event (F 19.0) and calls :meth:`next` again.
    """

    state: FteState
    first_pending: bool = True
    current: str | None = None          # the player entitled to the pending activation
    chit: str | None = None             # the chit in hand (None on the first activation)
    active: Activation | None = None
    history: list[Activation] = field(default_factory=list)
    draws: int = 0
    returned: int = 0

    @implements("F 5.0")
    def next(self, dice, res: Resolution) -> str | None:
        """Who has the next activation: the scenario's first player without a chit at the start of the turn,
        then whoever's chit comes out of the cup; None once the cup is empty (the phase ends)."""
        if self.active is not None:
            raise RuleViolation("F 5.0", "end the current activation before drawing the next chit")
        if self.first_pending:
            self.first_pending = False
            self.current, self.chit = self.state.first_player, None
            res.add("F 5.0", f"{self.current} takes the turn's first activation without drawing a chit",
                    result=self.current)
            return self.current
        if not self.state.cup.cup:
            self.current = self.chit = None
            res.add("F 5.0", "the cup is empty: the activation phase ends", result=None)
            return None
        chit = draw_chit(self.state, dice, res)
        self.draws += 1
        self.chit = chit
        self.current = None if chit == "event" else chit
        return chit

    def activate(self, player: str, how: str, unit_ids: Iterable[str] = (), res: Resolution | None = None, *,
                 leader: str | None = None) -> Activation:
        """Start an activation for the player whose turn it is (checked by :func:`check_activation`)."""
        if self.current is None:
            raise RuleViolation("F 5.0", "no activation is pending: draw a chit first")
        if player != self.current:
            raise RuleViolation("F 5.0", f"the chit drawn is {self.current}'s, so {player} may not activate")
        act = check_activation(self.state, player, how, unit_ids, leader=leader, chit=self.chit)
        self.active = act
        if res is not None:
            res.add("F 5.1", act.describe(self.state), result=act.units)
        return act

    def pass_(self, player: str, res: Resolution) -> Activation:
        """The player entitled to act passes; the next chit is drawn (F 5.1)."""
        act = self.activate(player, "pass", (), res)
        self.end(res)
        return act

    @implements("F 5.0", "F 5.1")
    def end(self, res: Resolution) -> Activation:
        """Finish the current activation: Op Fired markers off, Activation Complete on, and a chit used to
        activate helicopters goes back into the cup (unless it was the first activation, which had none)."""
        act = self.active
        if act is None:
            raise RuleViolation("F 5.0", "no activation is in progress")
        end_activation(self.state, act, res)
        helis = [u for u in act.units if u in self.state.units and self.state.units[u].kind == "helicopter"]
        if helis and act.chit is not None:
            # Only a helicopter not activated before this turn gives its chit back, so the chits can come
            # back at most once per helicopter and the phase always ends (catalog F-5 item 25).
            if self.returned >= sum(u.kind == "helicopter" for u in self.state.units.values()):
                raise RuntimeError("activation phase: more chits returned than there are helicopters")
            self.state.cup.cup.append(act.chit)
            self.state.cup.cup.sort(key=lambda c: ("US", "NVA/VC", "event").index(c))
            self.returned += 1
            res.add("F 5.1", f"the {act.chit} chit goes back into the cup: helicopters were activated "
                             f"({', '.join(helis)})", result=len(self.state.cup.cup))
        self.history.append(act)
        self.active = None
        self.current = self.chit = None
        return act

    @property
    def over(self) -> bool:
        return not self.first_pending and self.active is None and not self.state.cup.cup


@implements("F 5.0")
def start_phase(state: FteState, res: Resolution) -> ActivationPhase:
    """Fill the cup with every chit of both players and the Random Event chit (if the scenario includes it),
    and open the phase."""
    state.cup.refill()
    res.add("F 5.0", f"the cup holds {sorted_cup_text(state.cup.cup)}", result=list(state.cup.cup))
    return ActivationPhase(state)


__all__ = ["Activation", "ActivationPhase", "ACTIONS", "HOWS", "activatable", "check_action", "check_activation",
           "draw_chit", "end_activation", "legal_actions", "start_phase"]
