"""Rule 5: political points, one index per player."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core import Resolution, implements
from ..core.errors import RuleViolation
from .combat import Side

CAP = 100


@implements("IC 5.0", "IC 5.1", "IC 5.2", "IC 5.21", "IC 5.22", "IC 5.23", "IC 5.3", "IC 5.33")
@dataclass
class PoliticalPoints:
    """Both players' indexes. Gains stop at 100 (5.21); an index at 0 ends the game (5.22)."""

    fef: int
    communist: int
    log: Resolution = field(default_factory=Resolution)

    def __post_init__(self) -> None:
        for side, v in ((Side.FEF, self.fef), (Side.COMMUNIST, self.communist)):
            if not 0 < v <= CAP:
                raise RuleViolation("IC 5.1", f"a starting {side.value} index must be 1-{CAP}, not {v}")

    def of(self, side: Side) -> int:
        return self.fef if side is Side.FEF else self.communist

    def _set(self, side: Side, value: int) -> None:
        if side is Side.FEF:
            self.fef = value
        else:
            self.communist = value

    def change(self, side: Side, gains: int = 0, losses: int = 0, why: str = "") -> int:
        """Apply simultaneous gains and losses as one net change (5.23), capped at 100 (5.21)."""
        if gains < 0 or losses < 0:
            raise RuleViolation("IC 5.2", "gains and losses are given as positive amounts")
        old = self.of(side)
        net = gains - losses
        new = min(old + net, CAP)
        self._set(side, new)
        text = f"{side.value} index {old} {'+' if net >= 0 else '-'} {abs(net)}"
        if gains and losses:
            text += f" (gains {gains} and losses {losses} net out, IC 5.23)"
        text += f" = {new}" + (f" (capped at {CAP}, IC 5.21)" if old + net > CAP else "") + (f": {why}" if why else "")
        self.log.add("IC 5.2", text, result=new)
        return new

    def spend(self, side: Side, amount: int, why: str = "") -> int:
        """Expend points; a player must have them first (5.33)."""
        if amount <= 0:
            raise RuleViolation("IC 5.3", f"an expenditure must be positive, not {amount}")
        if amount > self.of(side):
            raise RuleViolation("IC 5.33", f"the {side.value} player has {self.of(side)} political points "
                                           f"and cannot spend {amount}")
        return self.change(side, losses=amount, why=why)

    @property
    def game_over(self) -> Side | None:
        """The winner by Decisive Victory when one index has reached 0 (5.22), else None."""
        fef_out, com_out = self.fef <= 0, self.communist <= 0
        if fef_out and not com_out:
            return Side.COMMUNIST
        if com_out and not fef_out:
            return Side.FEF
        return None
