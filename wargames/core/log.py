"""Resolutions: the ordered, readable steps behind every result."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .hexgrid import Hex


@dataclass(frozen=True)
class Step:
    """One step of a procedure: the rule applied, its inputs, the arithmetic and the result."""

    rule: str
    text: str
    inputs: dict[str, Any] = field(default_factory=dict)
    arithmetic: str = ""
    result: Any = None

    def __deepcopy__(self, memo) -> "Step":
        """A logged step is a record, never changed once made: copies of a log (of a game, for enumeration) share
        it."""
        return self

    def line(self) -> str:
        calc = f" [{self.arithmetic}]" if self.arithmetic else ""
        return f"{self.rule}: {self.text}{calc}"

    def to_dict(self) -> dict:
        return {"rule": self.rule, "text": self.text, "inputs": _plain(self.inputs),
                "arithmetic": self.arithmetic, "result": _plain(self.result)}


@dataclass
class Resolution:
    """An ordered list of steps and the final result they lead to."""

    steps: list[Step] = field(default_factory=list)
    result: Any = None

    def add(self, rule: str, text: str, *, arithmetic: str = "", result: Any = None, **inputs: Any) -> Step:
        step = Step(rule, text, inputs, arithmetic, result)
        self.steps.append(step)
        return step

    def extend(self, other: "Resolution") -> None:
        self.steps.extend(other.steps)

    def rules(self) -> list[str]:
        return [s.rule for s in self.steps]

    def find(self, rule: str) -> list[Step]:
        return [s for s in self.steps if s.rule == rule]

    def text(self) -> str:
        return "\n".join(s.line() for s in self.steps)

    def to_dict(self) -> dict:
        return {"steps": [s.to_dict() for s in self.steps], "result": _plain(self.result)}

    def __str__(self) -> str:
        return self.text()


class QuietResolution(Resolution):
    """A Resolution that keeps no steps: for the many replays of exact enumeration, whose logs nobody reads."""

    _STEP = Step("", "")

    def add(self, rule: str, text: str, *, arithmetic: str = "", result: Any = None, **inputs: Any) -> Step:
        return self._STEP

    def extend(self, other: "Resolution") -> None:
        pass


def _plain(value: Any) -> Any:
    """Turn a value into JSON-friendly data (for the static book and replay logs)."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, Hex):
        return str(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return str(value)


def _resolution_deepcopy(self: Resolution, memo: dict) -> Resolution:
    """Steps are immutable records, so a copy of a Resolution shares them (copies stay cheap)."""
    new = Resolution(list(self.steps), self.result)
    memo[id(self)] = new
    return new


Resolution.__deepcopy__ = _resolution_deepcopy
