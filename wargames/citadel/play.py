"""How the phases of Rule 7 beyond movement and fire are played through :class:`citadel.Game`.

Each rule module that owns a phase (melee, the return phase, weather, supply, air ...) provides a
:class:`PhasePlay` mixin of ``Game``. ``Game`` lists, for every phase id of the sequence of play, the plays
that run in it, in order (:data:`citadel.game.PLAYS`); several rules may share a phase (the weather phase also
spends general supply, C 21, and rolls for T'ai desertion, C 17).

A play is entered with ``play_open``: it does what needs no decision and answers True if a player must now
decide, False if it has nothing to ask. While it is current, ``play_prompt`` names who decides what, and
``play_candidates`` lists the actions that may be legal; ``play_end`` answers the shared EndPhase action. Its
handlers (``@handles``) carry out those actions
and call ``self.play_done(res)`` when the play is over; Game then opens the next play of the phase, or the
next phase.

Mixin methods are called through the class (``MeleePlay.play_open(game, res)``), so two plays never shadow
each other's hooks. A play keeps what it must remember in the game state (:class:`CitadelState`), which every
snapshot copies.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..core import Resolution
from ..core.actions import Action
from ..core.errors import RuleViolation
from ..core.game import Prompt


@dataclass(frozen=True)
class EndPhase(Action):
    """End your part of the phase: the moving player's movement, one side's fire, or a played phase's step."""


class PhasePlay:
    """One rule's part of a phase of the sequence of play (C 7), as a mixin of ``citadel.Game``."""

    #: The action classes this play's handlers take.
    ACTIONS: ClassVar[tuple[type, ...]] = ()

    def play_open(self, res: Resolution) -> bool:
        """Begin this play: do what needs no decision; True if a player must now decide."""
        return False

    def play_prompt(self) -> Prompt:
        raise NotImplementedError

    def play_candidates(self) -> list:
        return []

    def play_check(self, action) -> bool:
        """A fast legality check of ``action`` (raise RuleViolation); False to let Game try it on a copy."""
        return False

    def play_end(self, res: Resolution) -> None:
        """The player answers the prompt with EndPhase: finish this play (``self.play_done(res)``) or refuse."""
        raise RuleViolation("C 7", "this step cannot be ended now: answer the prompt")
