"""Hostile-input suite: saved games of every game, and an owner's ``ruleset.yaml``."""
from __future__ import annotations

import shutil
import tempfile
from functools import cache
from pathlib import Path

from wargames.core.bots import RandomBot, play
from wargames.games import GAMES, game_class

from .cases import Loader

WORK = Path(tempfile.mkdtemp(prefix="hostile-saves-"))


@cache
def save_sample(name: str) -> Path:
    """A save of a game played for 15 random legal actions from its default scenario, and on until some action
    has rolled a die (the tampering tests change one)."""
    cls = game_class(name)
    bot = RandomBot(4)
    game = play(cls.new(seed=3), bot, max_actions=15)
    while not any(h.dice for h in game.history) and len(game.history) < 400 and game.outcome() is None:
        game = play(game, bot, max_actions=1)
    return game.write(WORK / f"{name}-save.json")


def ruleset_sample() -> Path:
    path = WORK / "ruleset-sample" / "ruleset.yaml"
    path.parent.mkdir(exist_ok=True)
    readings = game_class("fte").RULESET.READINGS
    name = sorted(readings)[0]
    path.write_text(f"readings:\n  {name}: {not readings[name].default!r}\n".replace("True", "true")
                    .replace("False", "false"), encoding="utf-8")
    return path


def load_ruleset(path: Path):
    """An owner's folder holding only this ruleset.yaml."""
    folder = Path(tempfile.mkdtemp(prefix="ruleset-", dir=WORK))
    shutil.copy(path, folder / "ruleset.yaml")
    return game_class("fte").RULESET.load(folder).readings


def _save_loader(name: str) -> Loader:
    cls = game_class(name)
    return Loader(f"{name} save", lambda: save_sample(name), lambda path: cls.read(path).state_dict())


LOADERS: list[Loader] = [_save_loader(name) for name in GAMES] + [
    Loader("fte ruleset.yaml readings", ruleset_sample, load_ruleset)]
