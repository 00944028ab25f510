"""The air phases of the sequence of play (C 7, C 25-C 33) played through ``citadel.Game``.

One :class:`~citadel.play.PhasePlay` mixin per phase: weather, aircraft maintenance, transport availability,
French tactical air (placement, antiaircraft fire, attacks) in both player turns, supply and transport
missions, and strategic bombing. Without an Air Chart (the basic game, ``state.air is None``) and whenever no
French counter may fly, these phases pass without a prompt.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core import Dice, Resolution, implements
from ..core.dice import roll_die
from ..core.errors import DataError
from ..core.actions import Action
from ..core.errors import RuleViolation
from ..core.game import Prompt, handles
from . import air
from .air import Sortie, Stack
from .air_charts import default_air_charts
from .examples import load_scenario
from .fire import allocate_losses, terrain_shift
from .play import PhasePlay
from .units import Side, UnitState

FR, VM = Side.FRENCH.value, Side.VIETMINH.value


def _end(game):
    """The shared EndPhase action of citadel.Game (looked up, so that this module does not import the game)."""
    return next(a for a in type(game).ACTIONS if a.__name__ == "EndPhase")()


@implements("C 26")
def air_strike(state, sortie: Sortie, dice: Dice, res: Resolution):
    """A tactical air strike or flak suppression on the fire CRT with the target's terrain shift (C 26.A-B).
    Returns the losses still to be shared out (fire.PendingLosses) or None."""
    crt, _, _ = state.tables()
    sortie.done = True
    h = sortie.hex
    hit = [u for u in state.units_at(h, Side.VIETMINH) if u.id not in state.fired_at]
    if not sortie.aircraft:
        res.add("C 26.A", f"no aircraft is left over {state.label(h)}: no attack")
        return None
    if not hit:
        res.add("C 9.5", f"every unit in {state.label(h)} has been fired at this phase: no attack")
        return None
    rule = "C 26.B" if sortie.mission == "flak" else "C 26.A"
    total = air.attack_total(state, sortie.aircraft, sortie.altitude, res, rule)
    state.air.attacked[h] = state.fire_phase_start
    if total < 1:
        res.add(rule, "an attack of 0 has no column: no effect")
        return None
    col = crt.column_for(total)
    shift = terrain_shift(state, h, res, hit)
    final, over = crt.shift(col, shift)
    roll = roll_die(dice, 6, f"air strike on {state.label(h)}")
    cell = crt.lookup(final, roll)
    result = cell.value
    res.add(rule, f"{total} -> {crt.columns[col].label}, shifted {shift:+d} -> {crt.columns[final].label}"
            + (f" ({abs(over)} shift(s) past the table's edge)" if over else "") + f"; roll {roll}: {result.code}",
            result=result.code, roll=roll, column=crt.columns[final].label, provenance=cell.provenance.kind)
    if result.pinned:
        for u in hit:
            u.pinned, u.pinned_at = True, state.phase_index
        res.add("C 9", f"pinned: {', '.join(u.id for u in hit)}")
    state.fired_at.update(u.id for u in hit)
    if result.losses:
        return allocate_losses(state, hit, result.losses, Side.FRENCH, dice, res, False)
    return None


# --------------------------------------------------------------------------- an Air Chart for a scenario

def _air_setup_schema():
    from ..core.schema import Int, Map, Opt, Record, Str
    from .air_charts import WEATHERS
    from .units import COUNTERS
    counts = Map(Str(key=True, pattern=r"[A-Za-z0-9]{1,12}"), Int(0, 40), max_len=20)
    return Record({"name": Str(min_len=1, max_len=200), "base": Str(pattern=r"[\w.-]{1,80}\.ya?ml"),
                   "air": Record({"available": counts},
                                 {"unserviceable": Opt(counts, {}), "revetment": Opt(counts, {}),
                                  "weather": Opt(Record({}, {z: Opt(Str(WEATHERS), "clear")
                                                             for z in ("valley", "supply_lines", "delta")}), {})})},
                  {"days": Opt(Int(1, 56), 1), "counters": Opt(COUNTERS, []),
                   "placements": Opt(Map(Str(min_len=1, max_len=40), Str(key=True, max_len=12)), {}),
                   "notes": Opt(Str(), "")})


@implements("C 25", "C Air Chart")
def load_air_scenario(path) -> tuple:
    """A scenario with an Air Chart: its base scenario's position plus air counters, weather and any extra
    counters (Vietminh antiaircraft units). Returns (state, days). A bad file raises DataError naming it."""
    from pathlib import Path
    from ..core.schema import load_file
    v = load_file(path, _air_setup_schema())
    state = load_scenario(Path(path).parent / v["base"])
    known = set(default_air_charts().air_units)
    a = v["air"]
    for key in ("available", "unserviceable", "revetment"):
        for t in a[key]:
            if t not in known:
                raise DataError(str(path), f"air.{key}.{t}", f"is not an air counter type ({', '.join(sorted(known))})")
    state.air = air.new_air_state(a["available"], a["unserviceable"], a["revetment"])
    state.air.weather.update(a["weather"])
    for c in v["counters"]:
        if c.id in state.units:
            raise DataError(str(path), f"counters.{c.id}", "is already a counter of the base scenario")
        where = v["placements"].get(c.id)
        try:
            state.units[c.id] = UnitState(c, state.map.hex(where) if where else None)
        except DataError as e:
            raise DataError(str(path), f"placements.{c.id}", e.reason) from None
    return state, v["days"]




# --------------------------------------------------------------------------- actions

@dataclass(frozen=True)
class Fly(Action):
    """Place air counters on a hex for a tactical air, flak suppression or spotting mission (C 26.A-C)."""
    mission: str
    aircraft: tuple[str, ...]
    hex: str
    altitude: str
    facing: str


@dataclass(frozen=True)
class Drop(Action):
    """Place transports on a drop hex with their cargo: supply points, or strength points of a unit (C 26.E)."""
    aircraft: tuple[str, ...]
    hex: str
    altitude: str
    facing: str
    cargo: str
    amount: int
    unit: str = ""


@dataclass(frozen=True)
class AAFire(Action):
    """Vietminh antiaircraft units fire together at aircraft of one hex, or at them taking off (C 28)."""
    guns: tuple[str, ...]
    aircraft: tuple[str, ...]
    takeoff: bool = False


@dataclass(frozen=True)
class AbortTo(Action):
    """Where an aborted counter goes: 'aborted' (the box) or 'revetment' (inverted, C 28.A, C 31)."""
    aircraft: str
    where: str


@dataclass(frozen=True)
class AirAttack(Action):
    """Resolve the tactical air or flak suppression attack on a hex (C 26.A-B)."""
    hex: str


@dataclass(frozen=True)
class Land(Action):
    """An aircraft based at Dien Bien Phu lands there ('dbp') or returns to the delta ('delta') (C 31)."""
    aircraft: tuple[str, ...]
    where: str


@dataclass(frozen=True)
class Cull(Action):
    """Permanently destroy ``destroy`` counters of a type and return up to three times as many (C 29.B)."""
    type: str
    source: str
    destroy: int
    restore: int


@dataclass(frozen=True)
class BombStack(Action):
    """Commit a stack of aircraft at one altitude to strategic bombing (C 26.D)."""
    aircraft: tuple[str, ...]
    altitude: str


@dataclass(frozen=True)
class BatteryFire(Action):
    """One of the eight supply-line 37mm batteries fires at aircraft of one bombing stack (C 28.F)."""
    stack: int
    aircraft: tuple[str, ...]


AIR_ACTIONS = (Fly, Drop, AAFire, AbortTo, AirAttack, Land, Cull, BombStack, BatteryFire)


def _air(game):
    return game.state.air


def _dice(game):
    if game.play_dice is None:
        raise RuleViolation("C 7", "an air phase that rolls dice cannot open outside an action")
    return game.play_dice


def _require(game, play: type, rule: str = "C 26") -> None:
    if game._play() is not play:
        raise RuleViolation(rule, f"this is not the step for that: it is the {game.phase.name} phase")


# --------------------------------------------------------------------------- initial segment

class WeatherPlay(PhasePlay):
    """C 27: three weather rolls; a new day's air bookkeeping starts."""

    @implements("C 27")
    def play_open(self, res: Resolution) -> bool:
        st = _air(self)
        if st is None:
            return False
        st.bombed.clear(), st.delivered.clear(), st.captured.clear()
        air.roll_weather(self.state, _dice(self), res)
        return False


class MaintenancePlay(PhasePlay):
    """C 29 (with C 33 on May 1): return to duty, culling (the French decide), routine maintenance."""

    ACTIONS = (Cull,)

    @implements("C 29", "C 33")
    def play_open(self, res: Resolution) -> bool:
        st = _air(self)
        if st is None:
            return False
        air.return_to_duty(self.state, res)
        if self.state.date == air.ROTATION:
            air.naval_rotation(self.state, res)
        if st.in_box("shot_down") or st.in_box("destroyed_on_ground"):
            st.stage = "cull"
            return True
        air.routine_maintenance(self.state, _dice(self), res)
        return False

    def play_prompt(self) -> Prompt:
        return Prompt(FR, "C 29", "cull shot-down or ground-destroyed aircraft, or end culling", "cull")

    def play_candidates(self) -> list:
        st, out = _air(self), []
        for source in ("shot_down", "destroyed_on_ground"):
            for t in sorted({st.counters[a] for a in st.in_box(source)}):
                n = len(st.in_box(source, t))
                out += [Cull(t, source, d, r) for d in range(1, n + 1) for r in range(0, min(3 * d, n - d) + 1)]
        return out + [_end(self)]

    def play_end(self, res: Resolution) -> None:
        _air(self).stage = ""
        air.routine_maintenance(self.state, _dice(self), res)
        self.play_done(res)

    @handles(Cull)
    def _cull(self, a: Cull, dice, res: Resolution) -> None:
        _require(self, MaintenancePlay, "C 29")
        air.cull(self.state, a.type, a.source, a.destroy, a.restore, res)


class AvailabilityPlay(PhasePlay):
    """C 32 then C 30: the strike roll, then the transports committed elsewhere."""

    @implements("C 30", "C 32")
    def play_open(self, res: Resolution) -> bool:
        st = _air(self)
        if st is None or not [a for a, t in st.counters.items() if t in ("C47", "C119")]:
            return False
        air.strike_roll(self.state, _dice(self), res)
        air.transport_availability(self.state, _dice(self), res)
        return False


# --------------------------------------------------------------------------- shared steps

def _spread(items: list, n: int) -> list:
    """At most ``n`` of ``items``, evenly spread (the offered sample; any other legal choice is accepted too)."""
    return items[::max(1, -(-len(items) // n))]


def _fly_candidates(game, missions=("tactical", "flak", "spotting")) -> list:
    st = game.state
    out = []
    vm_hexes = sorted({u.hex for u in st.on_board(Side.VIETMINH)})
    aa_hexes = sorted({u.hex for u in air.aa_units(st)})
    for mission in missions:
        ids = air.able(st, mission)
        groups = [(a,) for a in ids[:3]] + [tuple(a for a in ids if st.air.counters[a] == t)
                                            for t in sorted({st.air.counters[a] for a in ids})]
        hexes = _spread(aa_hexes if mission == "flak" else vm_hexes, 8)
        alts = ("low",) if mission in ("flak", "spotting") else ("low", "medium", "high")
        for g in dict.fromkeys(groups):
            for h in hexes:
                for alt in alts:
                    for facing in ("N", "S"):
                        out.append(Fly(mission, g, st.label(h), alt, facing))
    return out


def _dry_run(game, handler, action) -> bool:
    """Check an air placement by making it on a copy of the Air Chart (placements change nothing else)."""
    import copy
    st = game.state
    saved = st.air
    st.air = copy.deepcopy(saved)
    try:
        handler(game, action, None, Resolution())
    finally:
        st.air = saved
    return True


def _aa_candidates(game) -> list:
    st = game.state
    out = []
    guns = air.aa_units(st)
    for s in st.air.sorties:
        if not s.aircraft:
            continue
        for takeoff in (False, True):
            targets = [a for a in s.aircraft if a in s.took_off] if takeoff else list(s.aircraft)
            if not targets:
                continue
            for g in guns:
                out.append(AAFire((g.id,), tuple(targets), takeoff))
            if len(guns) > 1:
                out.append(AAFire(tuple(g.id for g in guns), tuple(targets), takeoff))
    return out


def _aa_possible(game) -> bool:
    """Whether any Vietminh antiaircraft unit may fire at any aircraft on the map now (C 28.B-E)."""
    st = game.state
    for s in st.air.sorties:
        if not s.aircraft:
            continue
        for g in air.aa_units(st):
            if air.aa_problem(st, g, s, s.aircraft, False) is None:
                return True
            if s.took_off and air.aa_problem(st, g, s, s.took_off, True) is None:
                return True
    return False


def _can_place(game) -> bool:
    """Whether the French have a counter that may fly a mission to the map now, and a target for it."""
    st = game.state

    def fliers(mission):
        return [a for a in air.able(st, mission) if not air.weather_problem(st, [a], "valley")]

    if fliers("spotting"):
        return True
    if fliers("flak") and air.aa_units(st):
        return True
    vm = {u.hex for u in st.on_board(Side.VIETMINH)}
    french = {u.hex for u in st.on_board(Side.FRENCH)}
    for a in fliers("tactical"):
        bomber = air.air_type(st, a).category == "bomber"
        if any(not bomber or not any(n in french for n in h.neighbors()) for h in vm):
            return True
    return False


def _wrap(game, res: Resolution) -> bool:
    """Send home what flew, if not yet done; True when no landing choice is left (the play may end)."""
    st = _air(game)
    if st.sorties or st.stacks:
        _after_mission(game, res)
    return not st.landing


def _after_mission(game, res: Resolution) -> bool:
    """Aircraft that flew go to Unavailable and Flown; those based at Dien Bien Phu choose where to land
    (C 26.F, C 31). True if the French must now choose."""
    st = _air(game)
    for s in st.sorties:
        for a in s.aircraft:
            if st.box[a] == "revetment":
                if a not in st.landing:
                    st.landing.append(a)
            else:
                st.box[a] = "flown"
        s.done = True
    for stack in st.stacks:
        for a in stack.aircraft:
            st.box[a] = "flown"
    st.stacks.clear()
    flown = sorted({a for s in st.sorties for a in s.aircraft if st.box[a] == "flown"}, key=air._order)
    if flown:
        res.add("C 26.F", f"{', '.join(flown)} flew: to Unavailable and Flown")
    air.end_phase_air(game.state)
    return bool(st.landing)


def _landing_prompt() -> Prompt:
    return Prompt(FR, "C 31", "land each aircraft based at Dien Bien Phu there or send it to the delta", "land")


def _abort_prompt() -> Prompt:
    return Prompt(FR, "C 28.A", "place each aborted aircraft in Aborted and Unserviceable or, inverted, in the "
                                "revetment", "abort")


class _AirSteps:
    """Handlers shared by the plays: abort destinations and landings."""

    @handles(AbortTo)
    def _abort_to(self, a: AbortTo, dice, res: Resolution) -> None:
        if _air(self) is None:
            raise RuleViolation("C 28.A", "there are no aircraft in this game")
        air.abort_to(self.state, a.aircraft, a.where, res)

    @handles(Land)
    def _land(self, a: Land, dice, res: Resolution) -> None:
        st = _air(self)
        if st is None or not a.aircraft or not set(a.aircraft) <= set(st.landing):
            raise RuleViolation("C 31", "name aircraft based at Dien Bien Phu that have flown and not yet landed")
        if a.where not in ("dbp", "delta"):
            raise RuleViolation("C 31", "land at 'dbp' (Dien Bien Phu) or return to the 'delta'")
        for x in a.aircraft:
            st.landing.remove(x)
            st.box[x] = "revetment" if a.where == "dbp" else "flown"
        res.add("C 31", f"{', '.join(a.aircraft)} " + ("land at Dien Bien Phu" if a.where == "dbp" else
                                                       "return to the delta: Unavailable and Flown"))
        if not st.landing and self.pending is None:
            self.play_done(res)


def _land_candidates(game) -> list:
    return [Land((a,), w) for a in _air(game).landing for w in ("dbp", "delta")]


def _abort_candidates(game) -> list:
    return [AbortTo(a, w) for a in _air(game).abort_choice for w in ("aborted", "revetment")]


# --------------------------------------------------------------------------- French tactical air (C 26.A-C)

class PlacementPlay(PhasePlay):
    """The French place tactical air, flak suppression and spotting missions."""

    ACTIONS = (Fly,)

    @implements("C 26", "C 27")
    def play_open(self, res: Resolution) -> bool:
        st = self.state
        if st.air is None:
            return False
        if st.air.weather["valley"] == "storm":
            res.add("C 27", "storm over Dien Bien Phu: no air missions to the map")
            return False
        return _can_place(self)

    def play_prompt(self) -> Prompt:
        return Prompt(FR, "C 26", "place aircraft for tactical air, flak suppression or spotting, or end placement",
                      "air placement")

    def play_candidates(self) -> list:
        return _fly_candidates(self) + [_end(self)]

    def play_check(self, action) -> bool:
        return isinstance(action, Fly) and _dry_run(self, PlacementPlay._fly, action)

    def play_end(self, res: Resolution) -> None:
        res.add("C 26", "the French end aircraft placement")
        self.play_done(res)

    @handles(Fly)
    def _fly(self, a: Fly, dice, res: Resolution) -> None:
        _require(self, PlacementPlay) if a.mission != "flak" or self._play() is not TransportPlay else None
        if self._play() is TransportPlay:
            if _air(self).stage != "place":
                raise RuleViolation("C 26", "transports and flak suppression are placed first")
        if a.mission not in ("tactical", "flak", "spotting"):
            raise RuleViolation("C 26", f"{a.mission!r}: fly 'tactical', 'flak' or 'spotting' (transports Drop)")
        air.place_sortie(self.state, a.mission, a.aircraft, a.hex, a.altitude, a.facing, res)


class AAPlay(_AirSteps, PhasePlay):
    """The Vietminh fire antiaircraft guns at the aircraft on the map (C 28)."""

    ACTIONS = (AAFire, AbortTo)

    @implements("C 28")
    def play_open(self, res: Resolution) -> bool:
        st = self.state
        if st.air is None or not any(s.aircraft for s in st.air.sorties):
            return False
        if not _aa_possible(self):
            res.add("C 28", "no Vietminh antiaircraft unit can fire at the aircraft on the map")
            return False
        return True

    def play_prompt(self) -> Prompt:
        if _air(self).abort_choice:
            return _abort_prompt()
        return Prompt(VM, "C 28", "fire antiaircraft guns at aircraft, or end antiaircraft fire", "antiaircraft fire")

    def play_candidates(self) -> list:
        if _air(self).abort_choice:
            return _abort_candidates(self)
        return _aa_candidates(self) + [_end(self)]

    def play_end(self, res: Resolution) -> None:
        if _air(self).abort_choice:
            raise RuleViolation("C 28.A", "the French first place the aborted aircraft")
        res.add("C 28", "the Vietminh end antiaircraft fire")
        self.play_done(res)

    @handles(AAFire)
    def _aa(self, a: AAFire, dice, res: Resolution) -> None:
        if self._play() not in (AAPlay, TransportPlay) or (self._play() is TransportPlay and _air(self).stage != "aa"):
            raise RuleViolation("C 28", f"antiaircraft units fire after aircraft are placed, not in the "
                                        f"{self.phase.name} phase")
        if _air(self).abort_choice:
            raise RuleViolation("C 28.A", "the French first place the aborted aircraft")
        air.aa_fire(self.state, a.guns, a.aircraft, a.takeoff, dice, res)


class AttackPlay(_AirSteps, PhasePlay):
    """Spotters spot; the French resolve each strike; aircraft go home (C 26.A-C, C 26.F, C 31)."""

    ACTIONS = (AirAttack, Land)

    def _strikes(self) -> list:
        return [s for s in _air(self).sorties if s.mission in ("tactical", "flak") and not s.done and s.aircraft]

    @implements("C 26")
    def play_open(self, res: Resolution) -> bool:
        st = self.state
        if st.air is None or not st.air.sorties:
            return False
        for s in st.air.sorties:
            if s.mission == "spotting" and not s.done:
                air.spot(st, s, res)
        if self._strikes():
            return True
        return _after_mission(self, res)

    def play_prompt(self) -> Prompt:
        if self._strikes():
            return Prompt(FR, "C 26.A", "resolve the air attack on each hex", "air attack")
        if _air(self).landing:
            return _landing_prompt()
        return Prompt(FR, "C 26.A", "end the aircraft attacks", "air attack")

    def play_candidates(self) -> list:
        if self._strikes():
            return [AirAttack(self.state.label(s.hex)) for s in self._strikes()]
        if _air(self).landing:
            return _land_candidates(self)
        return [_end(self)]

    def play_end(self, res: Resolution) -> None:
        if self._strikes() or _air(self).landing:
            raise RuleViolation("C 26.A", "resolve every attack and land every aircraft first")
        if _wrap(self, res):
            self.play_done(res)

    @handles(AirAttack)
    def _attack(self, a: AirAttack, dice, res: Resolution) -> None:
        if self._play() not in (AttackPlay, TransportPlay):
            raise RuleViolation("C 26.A", f"air attacks are resolved after antiaircraft fire, not in the "
                                          f"{self.phase.name} phase")
        if self.pending is not None:
            raise RuleViolation("C 9.2", "the losses of the last fire must be allocated first")
        h = self.state.map.hex(a.hex)
        todo = [s for s in _air(self).sorties if s.hex == h and s.mission in ("tactical", "flak") and not s.done
                and s.aircraft]
        if not todo or (self._play() is TransportPlay and _air(self).stage != "resolve"):
            raise RuleViolation("C 26.A", f"no air attack waits over {a.hex}")
        self.pending = air_strike(self.state, todo[0], dice, res)
        if not self._strikes() and self.pending is None:
            self._finish_strikes(res)

    def _finish_strikes(self, res: Resolution) -> None:
        if _wrap(self, res):
            self.play_done(res)


# --------------------------------------------------------------------------- supply and transport (C 26.E)

class TransportPlay(PhasePlay):
    """Transport missions with flak suppression: placement, antiaircraft fire, drops, then strikes."""

    ACTIONS = (Drop,)

    @implements("C 26")
    def play_open(self, res: Resolution) -> bool:
        st = self.state
        if st.air is None:
            return False
        if st.air.weather["valley"] == "storm":
            res.add("C 27", "storm over Dien Bien Phu: no transport missions")
            return False
        if not air.able(st, "transport") and not air.able(st, "flak"):
            return False
        st.air.stage = "place"
        return True

    def play_prompt(self) -> Prompt:
        st = _air(self)
        if st.abort_choice:
            return _abort_prompt()
        if st.stage == "place":
            return Prompt(FR, "C 26.E", "place transports with their cargo (and any flak suppression), or end "
                                        "placement", "transport")
        if st.stage == "aa":
            return Prompt(VM, "C 28", "fire antiaircraft guns at aircraft, or end antiaircraft fire",
                          "antiaircraft fire")
        if st.landing:
            return _landing_prompt()
        if any(s.mission == "flak" and not s.done and s.aircraft for s in st.sorties):
            return Prompt(FR, "C 26.B", "resolve each flak suppression attack", "air attack")
        return Prompt(FR, "C 26.E", "end the supply and transport phase", "transport")

    def play_candidates(self) -> list:
        st, g = _air(self), self.state
        if st.abort_choice:
            return _abort_candidates(self)
        if st.stage == "place":
            out = []
            ids = air.able(g, "transport")
            held = sorted({u.hex for u in g.on_board(Side.FRENCH)})
            for a in ids[:4]:
                for h in _spread(held, 8):
                    out.append(Drop((a,), g.label(h), "low", "N", "gsp", 1))
            if ids:
                out += _men_candidates(g, ids[0])
            return out + _fly_candidates(self, ("flak",)) + [_end(self)]
        if st.stage == "aa":
            return _aa_candidates(self) + [_end(self)]
        if st.landing:
            return _land_candidates(self)
        flak = [AirAttack(g.label(s.hex)) for s in st.sorties if s.mission == "flak" and not s.done and s.aircraft]
        return flak or [_end(self)]

    def play_end(self, res: Resolution) -> None:
        st = _air(self)
        if st.abort_choice:
            raise RuleViolation("C 28.A", "the French first place the aborted aircraft")
        if st.stage == "place":
            res.add("C 26.E", "the French end placement")
            st.stage = "aa"
            if _aa_possible(self):
                return
        if st.stage == "aa":
            self._resolve(res)
        elif any(s.mission == "flak" and not s.done and s.aircraft for s in st.sorties) or st.landing:
            raise RuleViolation("C 26", "resolve every flak attack and land every aircraft first")
        if not self._strikes() and _wrap(self, res):
            st.stage = ""
            self.play_done(res)

    def _resolve(self, res: Resolution) -> None:
        st = _air(self)
        st.stage = "resolve"
        for s in st.sorties:
            if s.mission == "transport" and not s.done:
                air.drop(self.state, s, _dice(self), res)
        air.land_personnel(self.state, res)

    def play_check(self, action) -> bool:
        if isinstance(action, Drop):
            return _dry_run(self, TransportPlay._drop, action)
        if isinstance(action, Fly):
            return _dry_run(self, PlacementPlay._fly, action)
        return False

    @handles(Drop)
    def _drop(self, a: Drop, dice, res: Resolution) -> None:
        if self._play() is not TransportPlay or _air(self).stage != "place":
            raise RuleViolation("C 26.E", "transport missions are flown in the supply and transport mission phase")
        air.place_sortie(self.state, "transport", a.aircraft, a.hex, a.altitude, a.facing, res, a.cargo, a.amount,
                         a.unit)


# --------------------------------------------------------------------------- strategic bombing (C 26.D, C 28.F)

def _men_candidates(g, aircraft: str) -> list:
    """A sample of personnel drops: one point of each due French reinforcement onto a French-held hex, and one
    replacement point for each French unit that may absorb one (C 15.B, C 16, C 26.E)."""
    from .replacements import due_reinforcements, replacement_room
    out = []
    held = [u.hex for u in g.on_board(Side.FRENCH)]
    for uid in due_reinforcements(g, Side.FRENCH)[:3]:
        if not g.unit(uid).on_board and held:
            out.append(Drop((aircraft,), g.label(held[0]), "low", "N", "personnel", 1, uid))
    for u in g.on_board(Side.FRENCH):
        if replacement_room(g, u):
            out.append(Drop((aircraft,), g.label(u.hex), "low", "N", "replacements", 1, u.id))
    return out


class BombingPlay(PhasePlay):
    """The French form bombing stacks; the Vietminh batteries fire; the stacks bomb."""

    ACTIONS = (BombStack, BatteryFire)

    @implements("C 26")
    def play_open(self, res: Resolution) -> bool:
        st = self.state
        if st.air is None or not air.able(st, "strategic"):
            return False
        if st.air.weather["supply_lines"] == "storm":
            res.add("C 27", "storm over the Vietminh supply lines: no strategic bombing")
            return False
        st.air.stage = "stack"
        return True

    def play_prompt(self) -> Prompt:
        if _air(self).abort_choice:
            return _abort_prompt()
        if _air(self).stage == "stack":
            return Prompt(FR, "C 26.D", "commit bombing stacks, or end", "strategic bombing")
        return Prompt(VM, "C 28.F", "fire the supply-line batteries at bombing stacks, or end", "antiaircraft fire")

    def play_candidates(self) -> list:
        st, g = _air(self), self.state
        if st.abort_choice:
            return _abort_candidates(self)
        if st.stage == "stack":
            ids = air.able(g, "strategic")
            out = [BombStack((a,), alt) for a in ids for alt in ("low", "medium", "high")]
            out += [BombStack(tuple(a for a in ids if st.counters[a] == t), "medium")
                    for t in sorted({st.counters[a] for a in ids})]
            return out + [_end(self)]
        return [BatteryFire(i, tuple(s.aircraft)) for i, s in enumerate(st.stacks)
                if not s.fired_on and s.aircraft] + [_end(self)]

    def play_end(self, res: Resolution) -> None:
        st = _air(self)
        if st.abort_choice:
            raise RuleViolation("C 28.A", "the French first place the aborted aircraft")
        if st.stage == "stack" and any(s.aircraft for s in st.stacks):
            st.stage = "aa"
            res.add("C 28.F", "the French end committing stacks; the supply-line batteries may fire")
            return
        for i, s in enumerate(st.stacks):
            if s.aircraft:
                res.add("C 26.D", f"stack {i} bombs")
            air.bomb(self.state, s, _dice(self), res)
        _after_mission(self, res)
        self.play_done(res)

    @handles(BombStack)
    def _stack(self, a: BombStack, dice, res: Resolution) -> None:
        if self._play() is not BombingPlay or _air(self).stage != "stack":
            raise RuleViolation("C 26.D", "bombing stacks are formed in the strategic bombing phase")
        g = self.state
        if not a.aircraft or len(set(a.aircraft)) != len(a.aircraft):
            raise RuleViolation("C 26.D", "name each counter of the stack once")
        for x in a.aircraft:
            why = air.may_fly(g, x, "strategic")
            if why:
                raise RuleViolation("C 26.D", why)
        if a.altitude not in air.ALTITUDE_FACTOR:
            raise RuleViolation("C 26.D", "altitude is low, medium or high")
        why = air.weather_problem(g, a.aircraft, "supply_lines")
        if why:
            raise RuleViolation("C 27", why)
        going = air.turn_back(g, a.aircraft, "supply_lines", res)
        _air(self).stacks.append(Stack(list(going), a.altitude))
        res.add("C 26.D", f"stack {len(_air(self).stacks) - 1}: {', '.join(going) or 'nothing'} at {a.altitude}")

    @handles(BatteryFire)
    def _battery(self, a: BatteryFire, dice, res: Resolution) -> None:
        if self._play() is not BombingPlay or _air(self).stage != "aa":
            raise RuleViolation("C 28.F", "the supply-line batteries fire once the stacks are committed")
        if _air(self).abort_choice:
            raise RuleViolation("C 28.A", "the French first place the aborted aircraft")
        air.battery_fire(self.state, a.stack, a.aircraft, dice, res)


#: The phases these plays run in (citadel.game.PLAYS).
AIR_PLAYS = {"weather": (WeatherPlay,), "aircraft maintenance": (MaintenancePlay,),
             "transport availability": (AvailabilityPlay,),
             **{f"{t} turn: French air placement": (PlacementPlay,) for t in ("VM", "French")},
             **{f"{t} turn: antiaircraft fire": (AAPlay,) for t in ("VM", "French")},
             **{f"{t} turn: aircraft attacks": (AttackPlay,) for t in ("VM", "French")},
             "supply and transport": (TransportPlay,), "strategic bombing": (BombingPlay,)}
