"""The game protocol every game implements, modelled on python-chess's ``Board`` and Rally the Troops.

A :class:`Game` is a position plus the history that produced it:

- ``Game.new(scenario, ruleset, seed)`` sets a scenario up; ``legal_actions`` is a view (iterate it, take
  ``len``, or ask ``action in game.legal_actions``, which checks any action without listing them all);
  ``why_illegal(action)`` says why an action would be refused;
- ``apply(action, dice=None)`` carries one action out and returns its :class:`~wargames.core.log.Resolution`.
  It is transactional: a refused action raises :class:`~wargames.core.errors.RuleViolation` and the position
  is exactly what it was. ``dice=None`` rolls the game's own seeded dice;
- ``prompt`` says who must decide what now, under which rule. Every decision a rule gives a player (a
  retreat hex, a table, opportunity fire, a loss) is a prompt answered by an action of that player, so it
  enters the history;
- ``undo(n)``, ``history``, ``save()`` / ``Game.load(doc)`` (JSON: the actions' text forms and their dice),
  ``state_dict()`` (the position as data), ``outcome()`` and ``view(side)``.

A game package subclasses :class:`Game`, lists its action classes, scenarios and :class:`Ruleset`, names
the attributes that make up its position (``POSITION``), and registers one handler per action class with
:func:`handles`. Actions dispatch through that table.
"""
from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ClassVar, Iterable, Iterator, Mapping

from .actions import Action, parse_action, verb
from .dice import DiceError, RandomDice, RecordingDice, ScriptedDice
from .errors import DataError, RuleViolation
from .hexgrid import Hex
from .log import Resolution
from .rules import noting, watching
from .schema import AnyValue, At, Convert, Int, List, Map, Nullable, Record, Str, load_file, place
from .yamlio import load_once, read_yaml, short

SAVE_FORMAT = 1


def _save_format(n: int) -> int:
    if n != SAVE_FORMAT:
        raise ValueError(f"this engine reads save format {SAVE_FORMAT}, not {n}")
    return n


#: A ruleset as a save holds it: each chart "default" or an owner's file with its digest, and the readings.
RULESET_SAVE = Record({"charts": Map(Str(max_len=60), Str(min_len=1, max_len=4_000), max_len=200),
                       "readings": Map(Str(max_len=60), AnyValue(), max_len=200)}, what="a ruleset {charts, readings}")
#: An owner's ``ruleset.yaml``: the readings to switch.
RULESET_FILE = Record({}, {"readings": Map(Str(max_len=60), AnyValue(), max_len=200)},
                      what="a ruleset file {readings}")


# --------------------------------------------------------------------------- prompts and outcomes

@dataclass(frozen=True)
class Prompt:
    """Who must decide what, now, under which rule: ``"FEF: choose the CRT (IC 13.31)"``."""

    side: str
    rule: str
    question: str
    kind: str = "play"          # "play" (the phasing player's free choice) or the decision's name

    def __str__(self) -> str:
        return f"{self.side}: {self.question} ({self.rule})"


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winner (None for a draw), the level of victory, the rule and why."""

    winner: str | None
    level: str
    rule: str
    reason: str

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class HistoryEntry:
    """One action carried out, with the dice values it rolled (in order)."""

    action: Action
    dice: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"action": str(self.action), "dice": list(self.dice)}


class IllegalName(RuleViolation):
    """An action that names a unit, hex or other thing the game does not have (a kind of RuleViolation)."""


# --------------------------------------------------------------------------- rulesets

@dataclass(frozen=True)
class Reading:
    """A switch between two readings of a rule (or an errata switch, or an optional rule on or off)."""

    default: Any
    rule: str
    text: str
    choices: tuple = ()             # the values allowed (empty: any value of the default's type)

    def check(self, name: str, value: Any) -> None:
        if self.choices and value not in self.choices:
            raise DataError("ruleset", f"readings.{name}", f"{value!r} is not one of {', '.join(map(repr, self.choices))}")
        if not self.choices and self.default is not None and type(value) is not type(self.default):
            raise DataError("ruleset", f"readings.{name}", f"must be of type {type(self.default).__name__}, not {value!r}")


class Ruleset:
    """The charts, readings (errata switches) and optional rules a game is played with.

    A game package subclasses it and declares ``CHARTS`` (chart name -> (file name, loader)), the default
    chart folder ``DEFAULTS`` and ``READINGS`` (name -> :class:`Reading`). :meth:`load` reads an owner's
    folder of printed charts: any of the file names in ``CHARTS`` (the others stay the defaults) and, if
    present, ``ruleset.yaml`` with ``readings:`` to switch.
    """

    GAME: ClassVar[str] = ""
    CHARTS: ClassVar[Mapping[str, tuple[str, Callable[[Path], Any]]]] = {}
    DEFAULTS: ClassVar[Path | None] = None
    READINGS: ClassVar[Mapping[str, Reading]] = {}

    def __init__(self, charts: Mapping[str, Any] | None = None, readings: Mapping[str, Any] | None = None,
                 sources: Mapping[str, str] | None = None):
        readings = dict(readings or {})
        unknown = set(readings) - set(self.READINGS)
        if unknown:
            raise DataError("ruleset", f"readings.{sorted(unknown)[0]}",
                            f"is not a reading of {self.GAME}; the readings are {', '.join(sorted(self.READINGS))}")
        for k, v in readings.items():
            self.READINGS[k].check(k, v)
        self.readings = {k: readings.get(k, r.default) for k, r in self.READINGS.items()}
        self.sources = {name: "default" for name in self.CHARTS}
        self.sources.update(sources or {})
        self._charts = dict(charts or {})

    @classmethod
    def default(cls, **readings) -> "Ruleset":
        return cls(readings=readings)

    def chart(self, name: str) -> Any:
        """A chart by name, loaded on first use (the shipped default unless an owner's file replaced it).

        The shipped charts are read once a process (:func:`~wargames.core.yamlio.load_once`); each ruleset
        gets its own copy, so that no change one caller makes to a chart shows up for another.
        """
        if name not in self._charts:
            file, loader = self.CHARTS[name]
            self._charts[name] = load_once(loader, self.DEFAULTS / file)
        return self._charts[name]

    def __getitem__(self, name: str) -> Any:
        return self.readings[name]

    def with_readings(self, **readings) -> "Ruleset":
        new = copy.copy(self)
        new.readings = dict(self.readings)
        for k, v in readings.items():
            if k not in self.READINGS:
                raise DataError("ruleset", f"readings.{k}", f"is not a reading of {self.GAME}")
            self.READINGS[k].check(k, v)
            new.readings[k] = v
        return new

    @classmethod
    def load(cls, folder: str | Path) -> "Ruleset":
        """An owner's charts and readings from a folder; every bad file or cell raises DataError naming it."""
        folder = Path(folder)
        if not folder.is_dir():
            raise DataError(str(folder), "folder", "no such folder of charts")
        by_file = {file: name for name, (file, _) in cls.CHARTS.items()}
        charts, sources, readings = {}, {}, {}
        for path in sorted(folder.iterdir()):
            if path.name == "ruleset.yaml":
                raw = read_yaml(path)
                readings = load_file(path, RULESET_FILE, raw)["readings"] or {}
                try:
                    cls(readings=readings)
                except DataError as e:
                    raise place(DataError(str(path), e.field, e.reason), raw) from None
                continue
            if path.suffix not in (".yaml", ".yml"):
                continue
            if path.name not in by_file:
                raise DataError(str(path), "file name", f"is not a chart of {cls.GAME}; the charts are "
                                                        f"{', '.join(sorted(by_file))}")
            name = by_file[path.name]
            charts[name] = cls.CHARTS[name][1](path)
            sources[name] = f"{path.resolve()}#sha256={_digest_file(path)}"
        try:
            return cls(charts, readings, sources)
        except DataError as e:
            raise DataError(str(folder / "ruleset.yaml"), e.field, e.reason) from None

    def to_dict(self) -> dict:
        return {"charts": dict(self.sources), "readings": canonical(self.readings, strict=True)}

    @classmethod
    def from_dict(cls, doc: Any, source: str = "save") -> "Ruleset":
        """Rebuild a ruleset from :meth:`to_dict`; an owner's chart must still be where it was, unchanged."""
        doc = RULESET_SAVE.check(doc, At(source, "ruleset", getattr(doc, "mark", None)))
        charts_doc, readings = doc["charts"], doc["readings"]
        charts, sources = {}, {}
        for name, where in charts_doc.items():
            if name not in cls.CHARTS:
                raise DataError(source, f"ruleset.charts.{name}", f"is not a chart of {cls.GAME}")
            if where == "default":
                continue
            if "#sha256=" not in where:
                raise DataError(source, f"ruleset.charts.{name}", "must be 'default' or a file path with its digest")
            path, digest = where.rsplit("#sha256=", 1)
            if not Path(path).is_file():
                raise DataError(source, f"ruleset.charts.{name}", f"the chart file {path} is missing")
            if _digest_file(Path(path)) != digest:
                raise DataError(source, f"ruleset.charts.{name}", f"the chart file {path} has changed since the save")
            charts[name] = cls.CHARTS[name][1](Path(path))
            sources[name] = where
        try:
            return cls(charts, readings, sources)
        except DataError as e:
            raise DataError(source, f"ruleset.{e.field}", e.reason) from None


def _digest_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]




# --------------------------------------------------------------------------- the legal-actions view

class LegalActions:
    """The actions available now: iterate it, take ``len()``, or test ``action in legal``.

    Membership is exact: ``action in legal`` (like ``why_illegal`` and ``apply``) judges any action by the rules,
    a whole movement path included. Iteration lists every decision of the prompt, but where one decision has
    too many forms to list (paths, hexes, groupings, amounts; each game's docstring names its cases), it lists
    a sample of them, and every legal form outside the sample is still ``in`` it and accepted by ``apply``."""

    def __init__(self, game: "Game"):
        self._game = game

    def _list(self) -> list[Action]:
        return self._game._cached_legal()

    def __iter__(self) -> Iterator[Action]:
        return iter(self._list())

    def __len__(self) -> int:
        return len(self._list())

    def __bool__(self) -> bool:
        return bool(self._list())

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self._game.why_illegal(action) is None

    def __repr__(self) -> str:
        return f"<LegalActions: {len(self)} actions>"


# --------------------------------------------------------------------------- the game

def handles(*action_classes: type) -> Callable:
    """Register a Game method as the handler of these action classes: ``handler(self, action, dice, res)``."""
    def deco(fn):
        fn.__handles__ = action_classes
        return fn
    return deco


class Game:
    """The protocol every game implements. Subclasses provide the position, handlers and scenarios."""

    NAME: ClassVar[str] = ""
    PLAY_RULE: ClassVar[str] = ""                      # the sequence-of-play rule, cited for general refusals
    ACTIONS: ClassVar[tuple[type, ...]] = ()
    SCENARIOS: ClassVar[Mapping[str, str]] = {}        # scenario name -> one-line description
    DEFAULT_SCENARIO: ClassVar[str] = ""
    RULESET: ClassVar[type[Ruleset]] = Ruleset
    POSITION: ClassVar[tuple[str, ...]] = ()           # attributes that make up the position (snapshotted)
    UNDO_SNAPSHOTS: ClassVar[int] = 256                # older positions are rebuilt by replay
    #: Why implemented rules are not reached in play: rule id (or a prefix such as "IC 7") -> reason.
    NOT_IN_PLAY: ClassVar[Mapping[str, str]] = {}
    #: Rule variants that random play also tries: name -> Ruleset readings (rules switched off by default).
    VARIANTS: ClassVar[Mapping[str, Mapping[str, object]]] = {}
    #: The scenarios whose random play measures which rules are reached (``wargames.games.rules_reached``);
    #: empty: all of them. ``make fuzz`` always plays every scenario.
    REACH_SCENARIOS: ClassVar[tuple[str, ...]] = ()
    #: Actions that close a phase, and how often random play (wargames.core.fuzz) picks one when it may.
    PASS_ACTIONS: ClassVar[tuple[type, ...]] = ()
    PASS_RATE: ClassVar[float] = 0.0

    @classmethod
    def why_not_in_play(cls, rule_id: str) -> str:
        """The stated reason an implemented rule is not reached in play ("" if none is stated)."""
        for key, reason in cls.NOT_IN_PLAY.items():
            if rule_id == key or rule_id.startswith(key + ".") or rule_id.startswith(key + " "):
                return reason
        return ""
    _HANDLERS: ClassVar[dict[type, Callable]] = {}

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        table: dict[type, Callable] = {}
        for klass in reversed(cls.__mro__):
            for attr in vars(klass).values():
                for action_cls in getattr(attr, "__handles__", ()):
                    table[action_cls] = attr
        cls._HANDLERS = table
        for a in cls.ACTIONS:
            if not (dataclasses.is_dataclass(a) and issubclass(a, Action)):
                raise TypeError(f"{a.__name__} must be a frozen dataclass deriving from Action")
        verbs = [verb(a) for a in cls.ACTIONS]
        if len(set(verbs)) != len(verbs):
            raise TypeError(f"{cls.__name__}: two action classes share a text verb")

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, scenario: str | None = None, ruleset: Ruleset | None = None, seed: int | None = None) -> "Game":
        """A new game at the start of ``scenario`` (default: the demonstration scenario)."""
        scenario = cls.DEFAULT_SCENARIO if scenario is None else scenario
        if scenario not in cls.SCENARIOS:
            raise DataError(cls.NAME, "scenario", f"{scenario!r} is not a scenario; the scenarios are "
                                                  f"{', '.join(cls.SCENARIOS)}")
        ruleset = cls.RULESET.default() if ruleset is None else ruleset
        if not isinstance(ruleset, cls.RULESET):
            raise DataError(cls.NAME, "ruleset", f"must be a {cls.RULESET.__module__}.{cls.RULESET.__name__}")
        game = cls.__new__(cls)
        game.scenario, game.ruleset, game.seed = scenario, ruleset, seed
        game.dice = RandomDice(seed)
        game.history: list[HistoryEntry] = []
        game.resolutions: list[Resolution] = []
        game._snapshots: list[Any] = []
        game._legal_cache = None
        with watching():
            game.setup(scenario)
        return game

    def setup(self, scenario: str) -> None:
        """Set the scenario's position up (subclasses)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ what subclasses provide
    def candidates(self) -> Iterable[Action]:
        """Actions that may be legal now; :attr:`legal_actions` keeps those :meth:`why_illegal` accepts."""
        raise NotImplementedError

    def current_prompt(self) -> Prompt | None:
        raise NotImplementedError

    def result(self) -> Outcome | None:
        raise NotImplementedError

    def position(self) -> dict:
        """The position as JSON-able data (subclasses)."""
        raise NotImplementedError

    def visible(self, side: str) -> dict:
        """What ``side`` may see; by default everything (games with hidden information override it)."""
        return self.position()

    def shared(self) -> Iterable[Any]:
        """Objects in the position that never change (maps, scenario cards): snapshots share them."""
        return ()

    def names(self) -> dict[str, list[str]]:
        """Names actions may use (units, hexes), for the fuzzer's mutations."""
        return {}

    def invariants(self) -> list[str]:
        """What is wrong with the position (stacking, strengths, one hex a unit): empty when all holds."""
        return []

    def check_action(self, action: Action) -> None:
        """A fast legality check that raises RuleViolation; the default runs the action on a copy."""
        snap = self._snapshot()
        try:
            self._dispatch(action, RecordingDice(RandomDice(0)), Resolution())
        finally:
            self._restore(snap)

    # ------------------------------------------------------------------ the protocol
    @property
    def legal_actions(self) -> LegalActions:
        return LegalActions(self)

    def unique_candidates(self) -> list[Action]:
        """:meth:`candidates`, each once (equal frozen dataclasses are one action; an unhashable one is compared
        by its text), in their order."""
        seen: dict = {}
        for a in self.candidates():
            k = a
            try:
                hash(a)
            except TypeError:                   # a field holding a list: compare by the text form
                k = str(a)
            seen.setdefault(k, a)
        return list(seen.values())

    def _cached_legal(self) -> list[Action]:
        key = len(self.history)
        if self._legal_cache is None or self._legal_cache[0] != key:
            if self.outcome() is not None:
                actions = []
            else:
                actions = [a for a in self.unique_candidates() if self.why_illegal(a) is None]
            self._legal_cache = (key, actions)
        return list(self._legal_cache[1])

    def random_legal_action(self, rng, prefer: tuple[type, ...] = (), rate: float = 0.0) -> Action | None:
        """One legal action drawn uniformly at random, or None if there is none (or the game is over).

        The candidates are checked in a random order and the first legal one is taken: every legal action is
        equally likely to come first, so the draw is the same as a uniform choice from :attr:`legal_actions`,
        without checking every candidate. With probability ``rate`` the draw is made among the candidates of
        the types ``prefer`` first (say, the actions that close a phase), if one of them is legal."""
        if self.outcome() is not None:
            return None
        pool = self.unique_candidates()
        rng.shuffle(pool)
        if prefer and rng.random() < rate:
            pool.sort(key=lambda a: not isinstance(a, prefer))      # stable: still shuffled within each part
        return next((a for a in pool if self.why_illegal(a) is None), None)

    def why_illegal(self, action: Action) -> RuleViolation | None:
        """None if ``apply`` would accept the action, else the RuleViolation it would raise."""
        try:
            self._precheck(action)
            self.check_action(action)
        except RuleViolation as e:
            return e
        except DiceError:
            return None
        except DataError as e:
            return IllegalName(self.PLAY_RULE, e.reason)
        return None

    def _precheck(self, action: Action) -> None:
        if not isinstance(action, self.ACTIONS):
            raise RuleViolation(self.PLAY_RULE, f"{action!r} is not an action of {self.NAME}")
        out = self.outcome()
        if out is not None:
            raise RuleViolation(out.rule, f"the game is over: {out.reason}")

    @property
    def prompt(self) -> Prompt | None:
        """Who must decide what now (None once the game is over)."""
        return None if self.outcome() is not None else self.current_prompt()

    def apply(self, action: Action, dice=None) -> Resolution:
        """Carry out one action with ``dice`` (default: the game's own seeded dice) and record it.

        A refused action raises RuleViolation (an unknown unit or hex: :class:`IllegalName`) and changes
        nothing. A ScriptedDice must be used up by this one action: left-over rolls are a DiceError.

        The position is put back from a snapshot, so after a refusal (or an undo) the attributes in
        ``POSITION`` are new objects: look units up again rather than keep references across a refusal.
        Legality must not depend on the dice: a handler checks everything before its first roll (the
        legality probe, :meth:`check_action`, runs with one fixed set of dice and cannot see the others).
        """
        snap = self._snapshot()
        rng = self.dice.getstate()
        rec = RecordingDice(self.dice if dice is None else dice)
        res = Resolution()
        try:
            self._precheck(action)
            with noting():                          # the rules it reaches, if a recorder is open
                self._dispatch(action, rec, res)
                self.result()                       # victory rules that the action brings into play
                if isinstance(dice, ScriptedDice):
                    dice.finish()
        except DiceError:
            self._restore(snap)
            self.dice.setstate(rng)
            raise
        except DataError as e:
            self._restore(snap)
            self.dice.setstate(rng)
            raise IllegalName(self.PLAY_RULE, e.reason) from e
        except BaseException:
            self._restore(snap)
            self.dice.setstate(rng)
            raise
        self._snapshots.append(snap)
        k = len(self._snapshots) - self.UNDO_SNAPSHOTS - 1
        while k >= 0 and self._snapshots[k] is not None:     # older positions come back by replay
            self._snapshots[k] = None
            k -= 1
        self.history.append(HistoryEntry(action, tuple(rec.values)))
        self.resolutions.append(res)
        return res

    def _dispatch(self, action: Action, dice, res: Resolution) -> None:
        handler = self._HANDLERS.get(type(action))
        if handler is None:
            raise RuleViolation(self.PLAY_RULE, f"{action!r} is not an action of {self.NAME}")
        handler(self, action, dice, res)

    def undo(self, n: int = 1) -> None:
        """Go back ``n`` actions (die rolls included): the position before them, by snapshot or replay."""
        if not isinstance(n, int) or n < 0:
            raise ValueError("undo(n) takes a whole number of actions")
        if n > len(self.history):
            raise RuleViolation(self.PLAY_RULE, f"only {len(self.history)} action(s) can be undone")
        if n == 0:
            return
        target = len(self.history) - n
        snap = self._snapshots[target]
        if snap is None:
            again = self._replayed(self.history[:target], "undo")
            self._restore(again._snapshot())
            self._snapshots = again._snapshots
            self.resolutions = again.resolutions
        else:
            self._restore(snap)
            del self._snapshots[target:]
            del self.resolutions[target:]
        del self.history[target:]
        self._legal_cache = None

    def state_dict(self) -> dict:
        """The position as JSON-able data: two games in the same position give equal dicts."""
        return {"game": self.NAME, "scenario": self.scenario, "position": self.position()}

    def outcome(self) -> Outcome | None:
        """None while the game goes on; then who won, at what level, under which rule, and why."""
        return self.result()

    def view(self, side: str) -> dict:
        """What ``side`` may see of the position (fog of war, concealment, dummies)."""
        return {"game": self.NAME, "scenario": self.scenario, "side": side, "position": self.visible(side)}

    # ------------------------------------------------------------------ text forms, saves
    @classmethod
    def parse_action(cls, text: str) -> Action:
        """The inverse of ``str(action)``."""
        return parse_action(text, cls.ACTIONS)

    def save(self) -> dict:
        """The game as JSON-able data: format, game, scenario, seed, ruleset and history (actions and dice)."""
        return {"format": SAVE_FORMAT, "game": self.NAME, "scenario": self.scenario, "seed": self.seed,
                "ruleset": self.ruleset.to_dict(), "history": [h.to_dict() for h in self.history],
                "position_digest": self._seal()}

    def _seal(self) -> str:
        """A digest of the seed, the history and the position it gives: a changed die, action or seed is
        noticed even where it would lead to the same position."""
        return _digest({"seed": self.seed, "history": [h.to_dict() for h in self.history],
                        "state": self.state_dict()})

    @classmethod
    def save_schema(cls) -> Record:
        """The layout of a save of this game (checked before anything is replayed)."""
        def game_name(name: str) -> str:
            if name != cls.NAME:
                raise ValueError(f"this is a save of {name!r}, not of {cls.NAME!r}")
            return name
        entry = Record({"action": Str(min_len=1, max_len=2_000), "dice": List(Int(1, 100), max_len=1_000)},
                       what="a history entry {action, dice}")
        return Record(
            {"format": Convert(Int(1, 1_000), _save_format), "game": Convert(Str(max_len=40), game_name),
             "scenario": Str(tuple(cls.SCENARIOS)), "seed": Nullable(Int(0, 2 ** 64 - 1)),
             "ruleset": RULESET_SAVE, "history": List(entry, max_len=100_000),
             "position_digest": Str(pattern=r"[0-9a-f]{16}", what="a 16-digit hexadecimal digest")},
            what="a save (the mapping Game.save() returns)")

    @classmethod
    def load(cls, doc: Any, source: str = "save") -> "Game":
        """Replay a save; a malformed, truncated or altered save raises DataError naming the field or entry."""
        try:
            v = cls.save_schema().check(doc, At(source, "", getattr(doc, "mark", None)))
            ruleset = cls.RULESET.from_dict(v["ruleset"], source)
            entries = []
            for i, h in enumerate(v["history"]):
                try:
                    action = parse_action(h["action"], cls.ACTIONS)
                except DataError as e:
                    raise DataError(source, f"history[{i}].action", f"{short(h['action'])}: {e.reason}") from None
                entries.append(HistoryEntry(action, tuple(h["dice"])))
            game = cls.new(v["scenario"], ruleset, v["seed"])
            game = game._replayed(entries, source, start=game)
            if v["position_digest"] != game._seal():
                raise DataError(source, "position_digest", "does not match the game the history replays to: the "
                                                           "save was edited by hand or made by another engine")
            return game
        except DataError as e:
            raise place(e, doc) from None

    @classmethod
    def read(cls, path: str | Path) -> "Game":
        """Read a save file (JSON or YAML) with the safe reader and replay it (see :meth:`load`)."""
        return cls.load(read_yaml(path), str(path))

    def write(self, path: str | Path) -> Path:
        """Write :meth:`save` to ``path`` as JSON."""
        p = Path(path)
        p.write_text(json.dumps(self.save(), indent=1) + "\n", encoding="utf-8")
        return p

    def _replayed(self, entries: Iterable[HistoryEntry], source: str, start: "Game | None" = None) -> "Game":
        game = start or type(self).new(self.scenario, self.ruleset, self.seed)
        for i, h in enumerate(entries):
            try:
                game.apply(h.action, ScriptedDice(list(h.dice), source=source, field=f"history[{i}].dice"))
            except DiceError as e:
                raise DataError(e.file, e.field, e.reason) from None
            except RuleViolation as e:
                raise DataError(source, f"history[{i}]", f"{h.action} is refused on replay: {e}") from None
        return game

    def replay(self) -> "Game":
        """A new game rebuilt from this one's scenario, ruleset and history."""
        return self._replayed(self.history, "history")

    # ------------------------------------------------------------------ snapshots
    def _snapshot(self) -> dict:
        memo = {id(obj): obj for obj in self.shared()}
        memo[id(self.ruleset)] = self.ruleset
        return copy.deepcopy({name: getattr(self, name) for name in self.POSITION}, memo)

    def _restore(self, snap: dict) -> None:
        """Put a snapshot back (each snapshot is restored at most once, so it is used as it is)."""
        for name, value in snap.items():
            setattr(self, name, value)
        self._legal_cache = None

    def __str__(self) -> str:
        p = self.prompt
        return f"{self.NAME} ({self.scenario}), {len(self.history)} action(s): " + (
            str(p) if p is not None else f"over: {self.outcome().reason}")


def canonical(value: Any, strict: bool = False) -> Any:
    """JSON-able data whose order does not depend on the process: dict keys as strings, tuples as lists, sets
    sorted, dataclasses as their fields, enums as their values. Positions and digests are built from it, so a
    save made in one process loads in another, whatever its string hashing. ``strict`` (a ruleset's readings)
    takes only plain data (numbers, strings, lists, dicts, enums) and raises DataError for anything else."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): canonical(v, strict) for k, v in value.items()}
    if not strict and isinstance(value, Hex):
        return {"q": value.q, "r": value.r}
    if isinstance(value, (list, tuple)):
        return [canonical(v, strict) for v in value]
    if not strict and isinstance(value, (set, frozenset)):
        return sorted((canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True, default=str))
    if not strict and dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if hasattr(value, "value"):        # enums
        return canonical(value.value, strict)
    if strict:
        raise DataError("ruleset", "readings", f"{value!r} is not plain data")
    return str(value)


def _digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(canonical(data), sort_keys=True).encode()).hexdigest()[:16]


__all__ = ["Action", "Game", "HistoryEntry", "canonical", "IllegalName", "LegalActions", "Outcome", "Prompt", "Reading",
           "Ruleset", "handles", "parse_action", "verb"]
