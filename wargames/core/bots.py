"""Players that answer prompts, for fuzzing, demonstrations and tests.

The engine takes no decision for a player: where a rule gives a choice, the game prompts, and a person or a
bot answers with an action. Bots choose among ``game.legal_actions``; what they chose enters the history
like any other action.
"""
from __future__ import annotations

import random
from typing import Callable, Mapping

from .game import Action, Game


class FirstChoiceBot:
    """Always the first legal action (the game lists its actions in a stable order)."""

    def choose(self, game: Game) -> Action:
        for action in game.legal_actions:
            return action
        raise LookupError("no legal action: the game is over or at a dead end")


class RandomBot:
    """A seeded random legal action; ``prefer`` (optional) keeps only the actions it accepts, if any."""

    def __init__(self, seed: int | None = None, prefer: Callable[[Action], bool] | None = None):
        self.rng = random.Random(seed)
        self.prefer = prefer

    def choose(self, game: Game) -> Action:
        actions = list(game.legal_actions)
        if not actions:
            raise LookupError("no legal action: the game is over or at a dead end")
        if self.prefer is not None:
            actions = [a for a in actions if self.prefer(a)] or actions
        return self.rng.choice(actions)


def play(game: Game, bots: Mapping[str, object] | object, max_actions: int = 1000) -> Game:
    """Let bots answer every prompt until the game ends or ``max_actions`` have been taken.

    ``bots`` is one bot for every side, or a mapping from the prompt's side to a bot.
    """
    for _ in range(max_actions):
        prompt = game.prompt
        if prompt is None:
            break
        bot = bots[prompt.side] if isinstance(bots, Mapping) else bots
        game.apply(bot.choose(game))
    return game
