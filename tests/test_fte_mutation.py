"""A small run of `make mutate` (tools/mutate.py): chosen mistakes in FTE fire, opportunity fire and assault,
each of which the tests must notice, made on a temporary copy that leaves the real files untouched."""
import ast
import hashlib
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutate_tool", ROOT / "tools" / "mutate.py")
mutate = sys.modules[_spec.name] = importlib.util.module_from_spec(_spec)     # dataclasses look it up there
_spec.loader.exec_module(mutate)

#: (file, a piece of the source line, a piece of the mutation): one mutant each.
CHOSEN = [
    ("wargames/fte/fire.py", "firing into an adjacent hex", "delete"),                  # F 7.1 adjacent -1
    ("wargames/fte/fire.py", "a concealed unit's opportunity fire", "invert the sign"),  # F 21.0 concealed firer
    ("wargames/fte/fire.py", "if opportunity and way is not None", "drop `opportunity`"),  # TEC note a
    ("wargames/fte/checks.py", "if naturals and roll == 1", "`1` -> `2`"),             # F 1.2 a natural 1
    ("wargames/fte/opfire.py", "u.broken", "drop `u.broken`"),                         # F 21.0 unbroken firers
    ("wargames/fte/assault.py", "terrain=self.round > 1", "`terrain=False`"),          # F 8.0 terrain from round 2
    ("wargames/fte/assault.py", "stacked with an assaulting leader", "negate `u.hex in leaders`"),  # F 8.0 TQ
]


def pick(file, line, what):
    found = [m for m in mutate.mutants(file) if line in m.source and what in m.what]
    assert len(found) == 1, (file, line, what, [m.name() for m in found])
    return found[0]


def digest():
    return {p: hashlib.sha256((ROOT / p).read_bytes()).hexdigest() for p in mutate.TARGETS if "/fte/" in p}


@pytest.mark.long
@pytest.mark.rule("F 7.1", "F 21.0", "F 8.0", "F 1.2")
def test_the_chosen_mistakes_are_each_caught_and_the_real_files_stay_as_they_were():
    chosen = [pick(*c) for c in CHOSEN]
    before = digest()
    verdicts = mutate.run(chosen, workers=2, stages=mutate.STAGES["fte"][:1], echo=lambda line: None)
    assert digest() == before
    assert [(v.mutant.what, v.status) for v in verdicts] == [(m.what, "killed") for m in chosen]


@pytest.mark.rule("F 7.1")
def test_a_mutant_changes_one_node_and_nothing_else():
    m = pick("wargames/fte/fire.py", "firing into an adjacent hex", "delete")
    source = (ROOT / m.file).read_text(encoding="utf-8")
    mutated = mutate.mutated_source(m)
    assert "firing into an adjacent hex" not in mutated
    original_tree, mutated_tree = ast.parse(source), ast.parse(mutated)
    changed = [(a, b) for a, b in zip(ast.walk(original_tree), ast.walk(mutated_tree)) if type(a) is not type(b)]
    assert changed and isinstance(changed[0][1], ast.Pass)
    m = pick("wargames/fte/assault.py", "terrain=self.round > 1", "`>` -> `>=`")
    assert "terrain=self.round >= 1" in mutate.mutated_source(m)


@pytest.mark.rule("F 7.1", "F 8.0")
def test_every_kind_of_mistake_is_made_and_the_equivalent_ones_are_few_and_real():
    every = [m for f in mutate.TARGETS if "/fte/" in f for m in mutate.mutants(f)]
    kinds = {m.what.split(" ")[0].strip("`") for m in every}
    assert {"delete", "negate", "drop", "invert"} <= kinds
    assert any("->" in m.what and "`>=`" in m.what for m in every)
    by_game = {g: [k for k in mutate.EQUIVALENT if mutate.game_of(k[0]) == g] for g in ("fte", "citadel", "ntnd")}
    assert len(by_game["fte"]) <= 8 and len(by_game["citadel"]) <= 6 and len(by_game["ntnd"]) <= 16
    assert len(mutate.EQUIVALENT) == sum(map(len, by_game.values()))
    assert all(why for why in mutate.EQUIVALENT.values())
    keys = {m.key() for f in mutate.TARGETS for m in mutate.mutants(f)}
    assert set(mutate.EQUIVALENT) <= keys, set(mutate.EQUIVALENT) - keys      # no stale entry
