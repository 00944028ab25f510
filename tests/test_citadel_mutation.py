"""A small run of `make mutate` (tools/mutate.py) on Citadel: chosen mistakes in the melee's odds, morale and
terrain shifts, each of which the melee tests must notice, made on a temporary copy of the package."""
import hashlib
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutate_tool", ROOT / "tools" / "mutate.py")
mutate = sys.modules.get(_spec.name)
if mutate is None:
    mutate = sys.modules[_spec.name] = importlib.util.module_from_spec(_spec)   # dataclasses look it up there
    _spec.loader.exec_module(mutate)

#: (a piece of the source line, a piece of the mutation): one mutant each, in wargames/citadel/melee.py.
CHOSEN = [
    ("if attack >= defence:", "negate"),                        # C 11 odds rounded for the defender
    ("rounded = int(mean + Fraction(1, 2))", "`+` -> `-`"),       # C 11.C.2 halves round up
    ("rounded + TANK_MORALE * tanks", "`+` -> `-`"),             # C 19.B +3 a tank
    ("return (column - two) // 2", "`2` -> `1`"),                 # C 11 +1 per two columns
    ("if uphill:", "negate"),                                    # C 13 hill bonus
]
FAST = (("tests/test_citadel_melee.py",),)


def pick(line, what):
    found = [m for m in mutate.mutants("wargames/citadel/melee.py") if line in m.source and what in m.what]
    assert len(found) == 1, (line, what, [m.name() for m in found])
    return found[0]


@pytest.mark.long
@pytest.mark.rule("C 11", "C 13", "C 19.B")
def test_the_chosen_melee_mistakes_are_each_caught_and_the_real_file_stays_as_it_was():
    chosen = [pick(*c) for c in CHOSEN]
    path = ROOT / "wargames/citadel/melee.py"
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    verdicts = mutate.run(chosen, workers=2, stages=FAST, echo=lambda line: None)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert [(v.mutant.what, v.status) for v in verdicts] == [(m.what, "killed") for m in chosen]


def test_citadel_targets_use_the_citadel_tests():
    assert mutate.game_of("wargames/citadel/melee.py") == "citadel"
    assert all("citadel" in t for stage in mutate.STAGES["citadel"] for t in stage)
    with pytest.raises(ValueError):
        mutate.run([pick("if uphill:", "negate"), *mutate.mutants("wargames/fte/checks.py")[:1]], echo=None)
