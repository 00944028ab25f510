"""Section III, optional Vietminh rules (C 34, C 35), switched on by readings of the :class:`~.charts.Ruleset`.

- ``battalion_mortars`` (C 34): in an indirect fire phase a Vietminh infantry battalion fires its own 82mm
  mortars, 4 strength points, 2 once it has flipped. It may not do so in the indirect fire phase right after a
  movement phase in which it entered a French zone of control (reading: it moved in that phase and now stands
  in a French zone of control). Reading (catalog C-5 item 33): the mortars need no ammunition, and the GSP
  penalty of C 21 silences them like the 82mm batteries.
- ``rockets`` (C 35): from the May 6 turn, once a day, in a Vietminh indirect fire step, forty fire factors fall
  on a hex and on each hex next to it, each hex resolved as indirect fire. Readings (catalog C-5 item 32): no
  range multiplier; each hex must be spotted; a hex whose units were already fired at this phase is not hit
  again (C 9.5); normal Vietminh indirect fire may join the rockets on the centre hex (``firers``).

The game copies the readings onto the state (``state.readings``) so the fire procedure can see them.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ..core import Resolution, implements
from ..core.actions import Action
from ..core.errors import RuleViolation
from ..core.game import Prompt, Reading, handles
from .play import PhasePlay
from .units import Side, UnitClass, UnitState

READINGS = {
    "battalion_mortars": Reading(False, "C 34", "Vietminh infantry battalions fire their organic 82mm mortars",
                                 (False, True)),
    "rockets": Reading(False, "C 35", "Vietminh rocket attacks from May 6", (False, True)),
}

#: C 34: a battalion's mortars, full and flipped.
BATTALION_MORTARS, FLIPPED_BATTALION_MORTARS = 4, 2
#: C 35: the first day of rocket attacks, and their fire factors on each hex.
ROCKETS_FROM, ROCKET_FACTORS = dt.date(1954, 5, 6), 40


def reading(state, name: str) -> bool:
    return bool(getattr(state, "readings", {}).get(name, False))


@implements("C 34")
def organic_mortars(state, u: UnitState) -> int | None:
    """The strength a Vietminh battalion fires with its own mortars now, or None if it does not (C 34): only with
    the reading on, and only in an indirect fire phase."""
    from .sequence import phase_named
    if not reading(state, "battalion_mortars") or u.side is not Side.VIETMINH or not u.counter.is_battalion:
        return None
    if phase_named(state.phase).kind != "indirect fire":
        return None
    return FLIPPED_BATTALION_MORTARS if u.inverted else BATTALION_MORTARS


@implements("C 34")
def mortar_problems(state, u: UnitState, movement_phase_index: int | None) -> list[tuple[str, str]]:
    """Why a battalion may not fire its mortars now: it entered a French zone of control in the movement phase
    just before (C 34), or the Vietminh are out of general supply today (C 21)."""
    from .supply import out_of_general_supply
    from .zoc import in_enemy_zoc
    out = []
    if (movement_phase_index is not None and state.moved_in.get(u.id) == movement_phase_index
            and in_enemy_zoc(state, u.side, u.hex)):
        out.append(("C 34", f"{u.id} entered a French zone of control in the movement phase just before, so its "
                            f"mortars may not fire in this indirect fire phase"))
    if out_of_general_supply(state, u.side):
        out.append(("C 21", f"{u.id}: the Vietminh are out of general supply today; their 82mm mortars are silent"))
    return out


# --------------------------------------------------------------------------- C 35: rockets

@dataclass(frozen=True)
class LaunchRockets(Action):
    """The Vietminh launch the day's rocket attack on a hex and its neighbours (C 35); ``firers`` fire normally
    at the centre hex with the rockets."""
    target: str
    firers: tuple[str, ...] = ()


@dataclass(frozen=True)
class RocketHex(Action):
    """Resolve the rocket salvo's fire on one more of its hexes (C 35)."""
    hex: str


def _rocket_phase(game) -> bool:
    p = game.phase
    return p.kind == "indirect fire" and p.side is Side.VIETMINH


@implements("C 35")
def rockets_available(state) -> str | None:
    """Why no rocket attack may be launched now, or None."""
    if not reading(state, "rockets"):
        return "the optional rocket rule is not in use"
    if state.date < ROCKETS_FROM:
        return f"rocket attacks begin with the May 6 turn (today is {state.date:%B} {state.date.day})"
    if state.rockets.get("day") == state.date.isoformat():
        return "only one rocket attack may be launched a day"
    return None


def _rocket_targets(state, centre) -> tuple[list, list[str]]:
    """The hexes of a salvo that hold French units and may be hit, and notes on those that may not."""
    from .fire_types import spotted
    hexes, notes = [], []
    for h in [centre, *sorted(n for n in centre.neighbors() if n in state.map)]:
        hit = state.units_at(h, Side.FRENCH)
        if not hit:
            continue
        ok, why = spotted(state, h, Side.VIETMINH)
        if not ok:
            notes.append(f"{state.label(h)}: {why}")
        elif any(u.id in state.fired_at for u in hit):
            notes.append(f"{state.label(h)}: its units have already been fired at this phase (C 9.5)")
        else:
            hexes.append(h)
    return hexes, notes


class RocketSalvoPlay(PhasePlay):
    """The hexes of a rocket salvo still to be resolved, one RocketHex each, in the Vietminh player's order."""

    ACTIONS = (LaunchRockets, RocketHex)

    def play_prompt(self) -> Prompt:
        return Prompt(Side.VIETMINH.value, "C 35", "resolve the rocket fire on the salvo's other hexes: "
                      + ", ".join(self.state.rockets["left"]), "rockets")

    def play_candidates(self) -> list:
        return [RocketHex(lab) for lab in self.state.rockets["left"]]

    def play_end(self, res: Resolution) -> None:
        raise RuleViolation("C 35", "the rockets fall on every hex of the salvo: resolve them first")

    def rocket_candidates(self) -> list:
        st = self.state
        if self.pending is not None or not _rocket_phase(self) or rockets_available(st) is not None:
            return []
        targets = {u.hex for u in st.on_board(Side.FRENCH)}
        centres = sorted({n for h in targets for n in (h, *h.neighbors()) if n in st.map})
        return [LaunchRockets(st.label(h)) for h in centres if _rocket_targets(st, h)[0]]

    @handles(LaunchRockets)
    def _launch(self, a: LaunchRockets, dice, res: Resolution) -> None:
        from .fire import resolve_fire
        st = self.state
        if self.pending is not None:
            raise RuleViolation("C 9.2", "the losses of the last fire must be allocated first")
        if not _rocket_phase(self):
            raise RuleViolation("C 35", "rockets are launched in a Vietminh indirect fire step")
        why = rockets_available(st)
        if why:
            raise RuleViolation("C 35", why)
        centre = st.map.hex(a.target)
        hexes, notes = _rocket_targets(st, centre)
        if a.firers:
            if centre not in hexes:
                raise RuleViolation("C 35", f"no rockets fall on French units in {a.target}: fire there normally")
            problems = self._fire_phase().problems(list(a.firers), centre)
            if problems:
                raise RuleViolation(*problems[0])
        if not hexes:
            raise RuleViolation("C 35", f"no hex of a salvo on {a.target} holds spotted French units that may be "
                                        f"fired at" + (": " + "; ".join(notes) if notes else ""))
        st.rockets = {"day": st.date.isoformat(), "left": [st.label(h) for h in hexes]}
        res.add("C 35", f"rocket attack on {a.target} and its neighbours: {ROCKET_FACTORS} factors on "
                + ", ".join(st.label(h) for h in hexes) + ("; not hit: " + "; ".join(notes) if notes else ""))
        if centre in hexes:
            self._rocket_fire(centre, a.firers, dice, res)
        self.play_index = 0 if st.rockets["left"] else None

    @handles(RocketHex)
    def _rocket_hex(self, a: RocketHex, dice, res: Resolution) -> None:
        st = self.state
        if self.pending is not None:
            raise RuleViolation("C 9.2", "the losses of the last fire must be allocated first")
        if self._play() is not RocketSalvoPlay:
            raise RuleViolation("C 35", "no rocket salvo is being resolved")
        if a.hex not in st.rockets["left"]:
            raise RuleViolation("C 35", f"{a.hex} is not a hex of the salvo still to be resolved")
        self._rocket_fire(st.map.hex(a.hex), (), dice, res)
        if not st.rockets["left"]:
            self.play_index = None

    def _rocket_fire(self, h, firers, dice, res: Resolution) -> None:
        from .fire import resolve_fire
        st = self.state
        st.rockets["left"].remove(st.label(h))
        out = resolve_fire(st, list(firers), h, dice, extra_factors=ROCKET_FACTORS, res=res)
        for f in firers:
            st.fired_in_fire_phase[f] = st.phase_index
        self.pending = out.result["pending_losses"]
