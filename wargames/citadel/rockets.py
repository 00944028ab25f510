"""The rocket attack of C 35 played through citadel.Game: the launch, then the salvo's other hexes one by one.

The rule itself (when rockets may be launched, and their factors) is in :mod:`optional`.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core import Resolution
from ..core.actions import Action
from ..core.errors import RuleViolation
from ..core.game import Prompt, handles
from .fire import resolve_fire
from .fire_types import spotted
from .optional import ROCKET_FACTORS, rockets_available
from .play import PhasePlay
from .units import Side


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


def _rocket_targets(state, centre) -> tuple[list, list[str]]:
    """The hexes of a salvo that hold French units and may be hit, and notes on those that may not."""
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
        st = self.state
        st.rockets["left"].remove(st.label(h))
        out = resolve_fire(st, list(firers), h, dice, extra_factors=ROCKET_FACTORS, res=res)
        for f in firers:
            st.fired_in_fire_phase[f] = st.phase_index
        self.pending = out.result["pending_losses"]
