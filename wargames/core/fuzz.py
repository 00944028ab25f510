"""Plays any :class:`~wargames.core.game.Game` at random and reports what broke.

Each step takes a random legal action and, now and then, a random *mutation* of one (a wrong unit, a unit of
the other side, an off-map hex, a malformed label, a flipped switch). It checks:

- a refused action leaves ``state_dict()`` exactly as it was;
- the game's own invariants (stacking, strengths, one hex a unit) after every action;
- the text form of every action taken round-trips through ``parse_action``;
- at random points, save -> JSON -> load, and undo -> redo, give identical ``state_dict()``s.

Two kinds of crash count as failures: an exception other than RuleViolation, and a RuleViolation raised by
an action that ``legal_actions`` offered. A *dead end* is a game that is not over but offers no action.
The rules whose registered code ran in carried-out actions are collected ("reached in play").
"""
from __future__ import annotations

import dataclasses
import json
import random
import traceback
from dataclasses import dataclass, field

from .dice import ScriptedDice
from .errors import RuleViolation
from .game import Action, Game
from .rules import reaching, unrecorded

JUNK = ("", "9999", "zz", "0000", "no such unit", "1st Bn ", "99.99")


@dataclass
class Failure:
    kind: str            # crash, offered-refused, dead-end, invariant, refused-changed, text, save, undo
    action: str
    detail: str
    save: dict | None = None

    def line(self) -> str:
        return f"{self.kind}: {self.action}: {self.detail.splitlines()[-1] if self.detail else ''}"


@dataclass
class FuzzReport:
    game: str
    actions: int = 0
    illegal_tried: int = 0
    illegal_accepted: int = 0
    games_started: int = 0
    games_finished: int = 0
    finish_actions: int = 0       # actions played past the budget to bring a game to its outcome (``finish``)
    round_trips: int = 0
    failures: list[Failure] = field(default_factory=list)
    reached: set[str] = field(default_factory=set)

    def count(self, *kinds: str) -> int:
        return sum(f.kind in kinds for f in self.failures)

    @property
    def crashes(self) -> int:
        return self.count("crash", "offered-refused", "text")

    @property
    def dead_ends(self) -> int:
        return self.count("dead-end")

    @property
    def invariant_breaks(self) -> int:
        return self.count("invariant", "refused-changed", "save", "undo")

    @property
    def ok(self) -> bool:
        return not self.failures

    def row(self) -> dict:
        return {"game": self.game, "actions": self.actions, "games finished": self.games_finished,
                "crashes": self.crashes, "dead ends": self.dead_ends, "invariant breaks": self.invariant_breaks,
                "illegal tried": self.illegal_tried, "round trips": self.round_trips,
                "rules reached": len(self.reached)}


def mutate(action: Action, names: dict[str, list[str]], rng: random.Random) -> Action:
    """A random variation of ``action``: one field changed to another name, junk, or a flipped value."""
    fields = dataclasses.fields(action)
    if not fields:
        return action
    pool = [n for values in names.values() for n in values] + list(JUNK)
    f = rng.choice(fields)
    value = getattr(action, f.name)
    if isinstance(value, bool):
        new = not value
    elif isinstance(value, int):
        new = rng.choice([value + 1, value - 1, 0, -1, 99])
    elif isinstance(value, str) or value is None:
        new = rng.choice(pool)
    elif isinstance(value, tuple):
        items = list(value)
        how = rng.randrange(3)
        if how == 0 or not items:
            items.append(rng.choice(pool))
        elif how == 1:
            items[rng.randrange(len(items))] = rng.choice(pool) if isinstance(items[0], str) else items[0]
        else:
            items = items[:-1]
        new = tuple(items)
    else:
        return action
    try:
        return dataclasses.replace(action, **{f.name: new})
    except (TypeError, ValueError):
        return action


def fuzz(game_cls: type[Game], actions: int = 1000, seed: int = 0, scenario: str | None = None,
         illegal_rate: float = 0.25, round_trip_rate: float = 0.02, max_failures: int = 20,
         ruleset=None, finish: int = 0, lazy: bool = False) -> FuzzReport:
    """Play ``actions`` random legal actions (restarting finished games) and report every failure; each game
    is played with ``ruleset`` (default: the game's own). A game whose phases offer hundreds of actions names
    the actions that close a phase (``Game.PASS_ACTIONS``) and how often the random player picks one when it
    may (``Game.PASS_RATE``), so that random games reach their end.

    ``finish``: if no game has reached its outcome when the ``actions`` are spent, play the game in hand on,
    for at most ``finish`` more actions, closing phases at least half the time it may (a long scenario, such
    as the 56 days of the whole Dien Bien Phu battle, needs more actions than a share of the budget). Those
    actions get every check but the save and undo round trips, whose replays would grow with the history.
    ``report.finish_actions`` counts them; ``report.games_finished`` stays 0 if even that did not suffice.

    ``lazy``: draw each action with :meth:`Game.random_legal_action` (the same uniform choice, checking
    candidates only until one is legal) instead of listing every legal action first. It asks which rules play
    reaches, not whether every offered action holds, so it makes no illegal tries and no round trips."""
    if lazy and (illegal_rate or round_trip_rate):
        raise ValueError("lazy random play makes no illegal tries and no round trips: set both rates to 0")
    rng = random.Random(seed)
    report = FuzzReport(game_cls.NAME)
    with reaching() as reached:
        game = _start(game_cls, scenario, rng, report, ruleset)
        while len(report.failures) < max_failures:
            if game.outcome() is not None:
                report.games_finished += 1
                if report.actions >= actions:
                    break
                game = _start(game_cls, scenario, rng, report, ruleset)
                continue
            finishing = report.actions >= actions
            if finishing and (report.games_finished or report.finish_actions >= finish):
                break
            report.finish_actions += finishing
            rate = max(game_cls.PASS_RATE, 0.5) if finishing else game_cls.PASS_RATE
            try:                            # lazy: one uniform legal action, without listing them all
                legal = None if lazy else list(game.legal_actions)
                action = game.random_legal_action(rng, game_cls.PASS_ACTIONS, rate) if lazy else None
            except Exception:
                report.failures.append(Failure("crash", "legal_actions", traceback.format_exc(), game.save()))
                game = _start(game_cls, scenario, rng, report, ruleset)
                continue
            if (action is None) if lazy else not legal:
                report.failures.append(Failure("dead-end", str(game.prompt), "no legal action", game.save()))
                game = _start(game_cls, scenario, rng, report, ruleset)
                continue
            if not lazy:
                if rng.random() < illegal_rate and _try_illegal(game, legal, rng, report):
                    continue                # the variation was legal and taken: list the actions afresh
                passes = [a for a in legal if isinstance(a, game_cls.PASS_ACTIONS)] if rate else []
                action = rng.choice(passes) if passes and rng.random() < rate else rng.choice(legal)
            if not _take(game, action, report):
                game = _start(game_cls, scenario, rng, report, ruleset)
                continue
            if not lazy and not finishing and rng.random() < round_trip_rate:  # a load replays the whole
                _round_trips(game, report)                       # history: past the budget, a game skips them
        report.reached = set(reached)
    return report


def _start(game_cls, scenario, rng, report, ruleset=None) -> Game:
    report.games_started += 1
    return game_cls.new(scenario, ruleset=ruleset, seed=rng.randrange(10**6))


def _take(game: Game, action: Action, report: FuzzReport) -> bool:
    text = str(action)
    try:
        again = game.parse_action(text)
    except Exception:
        report.failures.append(Failure("text", text, traceback.format_exc()))
        return False
    if again != action:
        report.failures.append(Failure("text", text, f"parses back as {again!r}"))
        return False
    # The save of the position before the action is made only when there is a failure to report (a save
    # writes the whole history): a refused or crashing ``apply`` puts the position back as it was, and after
    # a broken invariant the action is undone first.
    try:
        game.apply(action)
    except RuleViolation:
        report.failures.append(Failure("offered-refused", text, traceback.format_exc(), game.save()))
        return False
    except Exception:
        report.failures.append(Failure("crash", text, traceback.format_exc(), game.save()))
        return False
    report.actions += 1
    try:
        broken = game.invariants()
    except Exception:
        report.failures.append(Failure("crash", f"invariants after {text}", traceback.format_exc(),
                                       _save_before(game)))
        return False
    if broken:
        report.failures.append(Failure("invariant", text, "; ".join(broken), _save_before(game)))
        return False
    return True


def _save_before(game: Game) -> dict | None:
    """The save of the position before the last action (None if even undoing it fails)."""
    try:
        game.undo(1)
        return game.save()
    except Exception:
        return None


def _try_illegal(game: Game, legal: list[Action], rng: random.Random, report: FuzzReport) -> bool:
    """Try a variation of a legal action; True if it turned out legal and was carried out."""
    offered = {str(a) for a in legal}
    wrong = mutate(rng.choice(legal), game.names(), rng)
    if str(wrong) in offered:
        return False
    before = game.state_dict()
    report.illegal_tried += 1
    save = game.save()
    try:
        game.apply(wrong)
    except RuleViolation:
        if game.state_dict() != before:
            report.failures.append(Failure("refused-changed", str(wrong), "the refused action changed the position",
                                           save))
        return False
    except Exception:
        report.failures.append(Failure("crash", str(wrong), traceback.format_exc(), save))
        return False
    report.illegal_accepted += 1        # a variation that happens to be legal (say, a longer path): fine
    report.actions += 1
    return True


def _round_trips(game: Game, report: FuzzReport) -> None:
    with unrecorded():             # the replays repeat actions whose rules are already counted
        _check_round_trips(game, report)
    report.round_trips += 1


def _check_round_trips(game: Game, report: FuzzReport) -> None:
    before = game.state_dict()
    try:
        doc = json.loads(json.dumps(game.save()))
        loaded = type(game).load(doc)
        if loaded.state_dict() != before:
            report.failures.append(Failure("save", "save/load", "the loaded game is in another position"))
    except Exception:
        report.failures.append(Failure("save", "save/load", traceback.format_exc()))
    if game.history:
        last = game.history[-1]
        try:
            game.undo()
            game.apply(last.action, ScriptedDice(list(last.dice), source="redo"))
            if game.state_dict() != before:
                report.failures.append(Failure("undo", str(last.action), "undo then redo gives another position"))
        except Exception:
            report.failures.append(Failure("undo", str(last.action), traceback.format_exc()))


def table(reports: list[FuzzReport]) -> str:
    """The reports as a Markdown table."""
    rows = [r.row() for r in reports]
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(r[h]) for h in head) + " |" for r in rows]
    return "\n".join(lines)
