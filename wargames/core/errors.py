"""The two kinds of error the engine raises."""
from __future__ import annotations


class RuleViolation(Exception):
    """An action the rules forbid. ``rule`` is the rule id, e.g. ``"C 8"``."""

    def __init__(self, rule: str, reason: str):
        self.rule = rule
        self.reason = reason
        super().__init__(f"{rule}: {reason}")


class DataError(Exception):
    """Bad data: names the file (or source), the field or cell, the reason and, for a file, the line.

    ``field`` is a path such as ``sides.FEF.deployment[2].units[0].count``; ``line`` and ``column`` count from 1.
    """

    def __init__(self, file: str, field: str, reason: str, line: int | None = None, column: int | None = None):
        self.file = str(file)
        self.field = field
        self.reason = reason
        self.line = line
        self.column = column
        super().__init__(self._message())

    def _message(self) -> str:
        where = "" if self.line is None else f" (line {self.line}" + (
            f", column {self.column})" if self.column is not None else ")")
        return f"{self.file}: {self.field}: {self.reason}{where}"

    def at(self, line: int | None, column: int | None = None) -> "DataError":
        """The same error placed at a line of its file (a no-op when it already has one)."""
        if self.line is None and line is not None:
            self.line, self.column = line, column
            self.args = (self._message(),)
        return self

    def explained(self, more: str) -> "DataError":
        """The same error with ``more`` added to its reason."""
        self.reason += more
        self.args = (self._message(),)
        return self

    def __reduce__(self):
        return (type(self), (self.file, self.field, self.reason, self.line, self.column))
