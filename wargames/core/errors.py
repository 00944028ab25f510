"""The two kinds of error the engine raises."""
from __future__ import annotations


class RuleViolation(Exception):
    """An action the rules forbid. ``rule`` is the rule id, e.g. ``"C 8"``."""

    def __init__(self, rule: str, reason: str):
        self.rule = rule
        self.reason = reason
        super().__init__(f"{rule}: {reason}")


class DataError(Exception):
    """Bad data: names the file (or source), the field or cell, and the reason."""

    def __init__(self, file: str, field: str, reason: str):
        self.file = str(file)
        self.field = field
        self.reason = reason
        super().__init__(f"{self.file}: {field}: {reason}")
