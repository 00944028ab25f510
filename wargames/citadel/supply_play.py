"""The general supply penalty of C 21 played through citadel.Game: the owner picks who deserts."""
from __future__ import annotations

from dataclasses import dataclass

from ..core import Resolution
from ..core.actions import Action
from ..core.errors import RuleViolation
from ..core.game import Prompt, handles
from .fire import take_loss
from .play import PhasePlay
from .supply import desertion_candidates, in_force, roll_desertion, spend_general_supply
from .units import Side


def desert(state, uid: str, dice, res: Resolution) -> None:
    """One strength point of ``uid`` deserts (C 21): a step loss, flipping or eliminating as fire would."""
    u = state.unit(uid)
    state.supply.deserted.setdefault(u.side, []).append(uid)
    res.add("C 21", f"one strength point of {uid} deserts", unit=uid)
    take_loss(state, u, dice, res)


def settle_desertion(state, dice, res: Resolution) -> Side | None:
    """Apply every desertion the owner has no choice about; return the side that must choose next, if any.

    When the points to lose are at least the units that can lose one, every such unit loses one and the rest
    has no effect (reading: like losses nobody can take in C 9.2)."""
    sup = state.supply
    for side in (Side.FRENCH, Side.VIETMINH):
        n = sup.desertion.get(side, 0)
        if n <= 0:
            continue
        units = desertion_candidates(state, side)
        if len(units) <= n:
            if len(units) < n:
                res.add("C 21", f"{n} points should desert but only {len(units)} {side.value} unit(s) can lose one: "
                                f"the other {n - len(units)} have no effect", arithmetic=f"min({n}, {len(units)})")
            for uid in units:
                desert(state, uid, dice, res)
            sup.desertion[side] = 0
            continue
        return side
    return None


@dataclass(frozen=True)
class Desert(Action):
    """The owner names the unit(s) that lose a strength point to supply desertion (C 21)."""
    units: tuple[str, ...]


class GeneralSupplyPlay(PhasePlay):
    """Weather phase: each side spends its GSP; a side that goes short rolls for desertion and chooses (C 21)."""

    ACTIONS = (Desert,)

    def play_open(self, res: Resolution) -> bool:
        st = self.state
        if not in_force(st):
            return False
        st.supply.deserted, st.supply.desertion = {}, {}
        for side in (Side.FRENCH, Side.VIETMINH):
            if spend_general_supply(st, side, res):
                st.supply.desertion[side] = roll_desertion(st, side, self.play_dice, res)
        return settle_desertion(st, self.play_dice, res) is not None

    def play_prompt(self) -> Prompt:
        st = self.state
        side = _deserting_side(st)
        n = st.supply.desertion[side]
        per = "company" if side is Side.FRENCH else "battalion"
        return Prompt(side.value, "C 21", f"choose {n} combat infantry unit(s) to lose a strength point to desertion "
                                          f"(at most one per {per})", "desertion")

    def play_candidates(self) -> list:
        return [Desert((uid,)) for uid in desertion_candidates(self.state, _deserting_side(self.state))]

    @handles(Desert)
    def _desert(self, a: Desert, dice, res: Resolution) -> None:
        st = self.state
        if self._play() is not GeneralSupplyPlay:
            raise RuleViolation("C 21", "no desertion for want of supply is waiting to be chosen")
        side = _deserting_side(st)
        n = st.supply.desertion[side]
        if not a.units:
            raise RuleViolation("C 21", "name at least one unit")
        if len(a.units) > n:
            raise RuleViolation("C 21", f"only {n} more strength point(s) desert")
        if len(set(a.units)) != len(a.units):
            raise RuleViolation("C 21", "at most one strength point deserts from a unit")
        allowed = desertion_candidates(st, side)
        for uid in a.units:
            u = st.unit(uid)
            if u.side is not side:
                raise RuleViolation("C 21", f"{uid} is not a {side.value} unit; the owner loses its own units")
            if uid not in allowed:
                raise RuleViolation("C 21", f"{uid} is not a combat infantry unit on the map that may still lose a "
                                            f"point to desertion today")
        for uid in a.units:
            desert(st, uid, dice, res)
        st.supply.desertion[side] = n - len(a.units)
        if settle_desertion(st, dice, res) is None:
            self.play_done(res)

    def play_end(self, res: Resolution) -> None:
        raise RuleViolation("C 21", "the deserting strength points must be chosen first")


def _deserting_side(state) -> Side:
    for side in (Side.FRENCH, Side.VIETMINH):
        if state.supply.desertion.get(side, 0) > 0:
            return side
    raise RuleViolation("C 21", "no desertion for want of supply is waiting to be chosen")


