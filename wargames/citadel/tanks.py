"""Rule 19: tanks. Their fire, their limits of movement, towing back to the Armor bunker, and repair there.

Tank losses (C 19.C) are in fire.py, where every loss is taken; tanks in melee (C 19.B) are in melee.py.
"""
from __future__ import annotations

from ..core import Hex, Resolution, implements
from ..core.dice import roll_die
from ..core.errors import RuleViolation
from .terrain import hexes_with
from .units import Side, UnitClass, UnitState

#: Reading: "fire as a single 75mm recoilless rifle" is one gun, one strength point (as one antiaircraft strength
#: point is one gun, C 28.A).
TANK_RECOILLESS_SP = 1


@implements("C 19", "C 19.G")
def tank_crossing_problem(state, u: UnitState, a: Hex, b: Hex) -> str | None:
    """Why a tank may not cross from ``a`` to ``b``: no full jungle hexside, no river unless a road crosses it."""
    side = state.map.side(a, b)
    if "full_jungle" in side:
        return f"{u.id} is a tank and may not cross the full jungle hexside {state.label(a)}-{state.label(b)}"
    if "river" in side and not _road_crossing(state, a, b):
        return f"{u.id} is a tank and may cross the river only where a road crosses it"
    return None


def _road_crossing(state, a: Hex, b: Hex) -> bool:
    """A road crosses the hexside when both hexes carry the road (a bridge or ford on the printed map)."""
    m = state.map
    return "road" in m.info(a).features and "road" in m.info(b).features


@implements("C 19.G")
def tank_melee_problem(state, u: UnitState, target: Hex) -> str | None:
    """Tanks attack in melee across a river only where a road crosses it (C 19.G)."""
    if "river" in state.map.side(u.hex, target) and not _road_crossing(state, u.hex, target):
        return f"{u.id} may not join a melee across the river from {state.label(u.hex)}"
    return None


@implements("C 19.A")
def tank_fire_parts(state, u: UnitState, target: Hex) -> list[tuple[str, int]]:
    """What one tank fires at a hex: its small arms (3, or 1 disabled) and, if not disabled, one 75mm recoilless
    rifle, both at the same hex (C 19.A). Small arms never fire into a strongpoint (C 14.B)."""
    parts: list[tuple[str, int]] = []
    if "strongpoint" not in state.map.info(target).features:
        parts.append(("small_arms", u.strength))
    if not u.disabled:
        parts.append(("recoilless_rifle_75", TANK_RECOILLESS_SP))
    return parts


def armor_bunker(state) -> list[Hex]:
    """The hexes of the strongpoint labelled Armor (C 19.F)."""
    return hexes_with(state.map, "armor_bunker")


@implements("C 19.E")
def repair_roll(state, dice, res: Resolution) -> list[str]:
    """Roll for repair; on a 1 one disabled tank in the Armor bunker may be repaired. Returns the candidates."""
    bunker = set(armor_bunker(state))
    waiting = sorted(u.id for u in state.on_board(Side.FRENCH)
                     if u.counter.cls is UnitClass.TANK and u.disabled and u.hex in bunker)
    if not waiting:
        return []
    roll = roll_die(dice, 6, "tank repair")
    if roll != 1:
        res.add("C 19.E", f"tank repair roll {roll}: no tank is repaired (a 1 is needed)", roll=roll)
        return []
    res.add("C 19.E", f"tank repair roll 1: one disabled tank in the Armor bunker is repaired", roll=roll)
    return waiting


def repair(state, uid: str, res: Resolution) -> None:
    u = state.unit(uid)
    if not (u.counter.cls is UnitClass.TANK and u.disabled and u.hex in set(armor_bunker(state))):
        raise RuleViolation("C 19.E", f"{uid} is not a disabled tank in the Armor bunker")
    u.disabled = False
    res.add("C 19.E", f"{uid} is repaired and operational again")


# --------------------------------------------------------------------------- the tank repair phase through Game

from dataclasses import dataclass                      # noqa: E402  (the play section of this module)

from ..core.actions import Action                      # noqa: E402
from ..core.game import Prompt, handles               # noqa: E402
from .play import PhasePlay                            # noqa: E402


@dataclass(frozen=True)
class RepairTank(Action):
    """After a repair roll of 1, the French player names the disabled tank in the Armor bunker to repair."""
    unit: str


class TankRepairPlay(PhasePlay):
    """The tank repair phase (C 19.E): one roll; on a 1 the French player picks the tank when there is a choice."""

    ACTIONS = (RepairTank,)

    def play_open(self, res: Resolution) -> bool:
        waiting = repair_roll(self.state, self.play_dice, res)
        self.state.repairable = waiting
        if len(waiting) == 1:
            repair(self.state, waiting[0], res)
            self.state.repairable = []
        return bool(self.state.repairable)

    def play_prompt(self) -> Prompt:
        return Prompt("French", "C 19.E", f"choose the tank to repair ({', '.join(self.state.repairable)})",
                      "repair")

    def play_candidates(self) -> list:
        return [RepairTank(u) for u in self.state.repairable]

    @handles(RepairTank)
    def _repair(self, a: RepairTank, dice, res: Resolution) -> None:
        if a.unit not in self.state.repairable:
            raise RuleViolation("C 19.E", f"{a.unit} is not a disabled tank in the Armor bunker waiting for repair")
        repair(self.state, a.unit, res)
        self.state.repairable = []
        self.play_done(res)
