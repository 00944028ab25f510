"""The shared action checks: every field holds a value of its annotated type before a rule reads it."""
from dataclasses import dataclass

from wargames.core.actions import Action, field_problem


@dataclass(frozen=True)
class Sample(Action):
    unit: str
    count: int = 1
    flag: bool = False
    where: str | None = None
    path: tuple[str, ...] = ()
    pairs: tuple[tuple[str, int], ...] = ()


def test_values_of_the_annotated_types_pass():
    assert field_problem(Sample("a", 2, True, None, ("x", "y"), (("p", 3),))) is None
    assert field_problem(Sample("a", where="1010")) is None


def test_each_wrong_shape_is_named():
    assert field_problem(Sample(5)) == "unit=5 is not of type str"
    assert field_problem(Sample("a", count=True)) == "count=true is not of type int"      # a bool is not an int
    assert field_problem(Sample("a", flag=1)) == "flag=1 is not of type bool"
    assert field_problem(Sample("a", where=3)) == "where=3 is not of type str | None"
    assert field_problem(Sample("a", path=["x"])).startswith("path=")             # a list is not a tuple
    assert field_problem(Sample("a", path=("x", 2))) == 'path=["x", 2] is not of type tuple[str, ...]'
    assert field_problem(Sample("a", pairs=(("p", 3, 4),))) is not None            # a triple is not a pair
    assert field_problem(Sample("a", pairs=(("p", "3"),))) is not None

