"""Injectable dice: the same procedure runs with random, scripted or enumerated dice.

Every procedure that rolls takes a ``dice`` argument and calls :func:`roll_die` (``roll_die(dice, sides,
why)``), which checks the face any dice object returns, including a user's own. Three implementations:

- :class:`RandomDice` for play (seeded, and it records what it rolled so a game replays);
- :class:`ScriptedDice` to replay a printed example (it errors if the script runs out,
  if a value does not fit the die, or if rolls are left unused);
- :func:`wargames.core.dist.enumerate_outcomes`, which runs the procedure once per
  branch of every roll and returns an exact distribution of its results.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from .errors import DataError


@runtime_checkable
class Dice(Protocol):
    def roll(self, sides: int = 6, why: str = "", classes=None) -> int:
        """Return a number from 1 to ``sides``; ``why`` says what the roll is for.

        ``classes`` (optional) maps a face to what the procedure does with it; exact enumeration then branches
        once per class instead of once per face. Random and scripted dice ignore it.
        """


class DiceError(DataError):
    """Dice that cannot be used: a face that no die of that size has, or a script that is too short or too long."""


def check_face(value, sides: int, source: str, where: str) -> int:
    """The one place where a die's face is checked: a whole number from 1 to ``sides``."""
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= sides:
        raise DiceError(source, where, f"{value!r} is not a roll of a d{sides}")
    return value


def roll_die(dice: "Dice", sides: int = 6, why: str = "", classes=None) -> int:
    """Roll ``dice`` for a procedure and check the face (:func:`check_face`): every procedure rolls through
    here, so a custom Dice that returns 7 on a d6, or ``True``, raises DiceError naming the roll."""
    return check_face(dice.roll(sides, why, classes), sides, type(dice).__name__, why or f"a d{sides} roll")


@dataclass
class RandomDice:
    """Seeded pseudo-random dice; ``rolls`` keeps (sides, value, why) for replay."""

    seed: int | None = None
    rolls: list[tuple[int, int, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def roll(self, sides: int = 6, why: str = "", classes=None) -> int:
        value = self._rng.randint(1, sides)
        self.rolls.append((sides, value, why))
        return value

    def getstate(self):
        """The generator's state, so a refused or undone action can put the dice back as they were."""
        return self._rng.getstate(), len(self.rolls)

    def setstate(self, state) -> None:
        rng, n = state
        self._rng.setstate(rng)
        del self.rolls[n:]

    def script(self) -> list[int]:
        """The values rolled so far, ready for :class:`ScriptedDice`."""
        return [v for _, v, _ in self.rolls]


class ScriptedDice:
    """Dice that return a fixed script of values, in order.

    Use as a context manager (or call :meth:`finish`) so that an unused
    remainder of the script is an error too.
    """

    def __init__(self, script, source: str = "dice script", field: str = ""):
        self.script = list(script)
        self.source = source
        self.field = field          # e.g. "history[3].dice": errors then name "history[3].dice[0]"
        self.used = 0
        self.log: list[tuple[int, int, str]] = []

    def roll(self, sides: int = 6, why: str = "", classes=None) -> int:
        where = (f"{self.field}[{self.used}]" if self.field else f"roll {self.used + 1}") + (
            f" ({why})" if why else "")
        if self.used >= len(self.script):
            raise DiceError(self.source, where, f"the script of {len(self.script)} rolls has run out")
        value = check_face(self.script[self.used], sides, self.source, where)
        self.used += 1
        self.log.append((sides, value, why))
        return value

    @property
    def remaining(self) -> list[int]:
        return self.script[self.used:]

    def finish(self) -> None:
        if self.remaining:
            raise DiceError(self.source, f"{self.field}[{self.used}]" if self.field else f"roll {self.used + 1}",
                            f"{len(self.remaining)} scripted roll(s) were never used: {self.remaining}")

    def __enter__(self) -> "ScriptedDice":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.finish()


class Preceded:
    """Dice that first give back rolls already made (kept in a position while a player made a choice that the
    rules put after them), then roll on with ``then``. The earlier rolls are not rolled, or recorded, again."""

    def __init__(self, done, then):
        self.done = list(done)
        self.then = then

    def roll(self, sides: int = 6, why: str = "", classes=None) -> int:
        if self.done:
            return check_face(self.done.pop(0), sides, "rolls made earlier", why or f"a d{sides} roll")
        return self.then.roll(sides, why, classes)


class RecordingDice:
    """Wraps dice, checks every face they return (:func:`check_face`) and keeps the values, for an
    action-and-dice history that replays."""

    def __init__(self, dice, missing: Exception | None = None):
        self.dice = dice
        self.missing = missing
        self.values: list[int] = []

    def roll(self, sides: int = 6, why: str = "", classes=None) -> int:
        if self.dice is None:
            raise self.missing or DataError("dice", why or "roll", "this action rolls dice; pass a dice object")
        try:
            value = self.dice.roll(sides, why, classes)
        except DiceError:
            raise
        except DataError as e:
            raise DiceError(e.file, e.field, e.reason) from None
        check_face(value, sides, type(self.dice).__name__, f"roll {len(self.values) + 1}" + (f" ({why})" if why else ""))
        self.values.append(value)
        return value
