"""The shared core: hexes, dice, exact distributions, charts, rules registry, resolutions, errors, and the game
protocol (game, actions, sequence of play, bots, fuzzing)."""
from .charts import Cell, Column, ColumnTable, Provenance, load_column_table, read_yaml
from .dice import Dice, RandomDice, ScriptedDice
from .dist import Distribution, enumerate_outcomes
from .errors import DataError, RuleViolation
from .game import Action, Game, Outcome, Prompt, Reading, Ruleset, handles
from .hexgrid import Hex, LineTrace, OffsetLayout, distance, hexside, ring, spiral, trace_line
from .log import Resolution, Step
from .rules import Section, implements
from .sequence import Phase, Sequence, Side

__all__ = [
    "Cell", "Column", "ColumnTable", "Provenance", "load_column_table", "read_yaml",
    "Dice", "RandomDice", "ScriptedDice", "Distribution", "enumerate_outcomes",
    "DataError", "RuleViolation", "Hex", "LineTrace", "OffsetLayout", "distance", "hexside",
    "ring", "spiral", "trace_line", "Resolution", "Step", "Section", "implements",
    "Action", "Game", "Outcome", "Prompt", "Reading", "Ruleset", "handles", "Phase", "Sequence", "Side",
]
