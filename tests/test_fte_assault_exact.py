"""The exact odds of FTE assaults (F 8.0) against a record, a slow reference and sampling.

``tests/data/fte_assault_distributions.json`` holds the exact distribution of :class:`AssaultOutcome` for every
assault the book enumerates (book/fte/rule08.md and the assault widget: both readings, combined or separate
fire, either NVA target) and 21 other cases (opportunity fire first, fire at retreating units, a leader's stack,
a sapper, a vehicle, two defenders, ...), all listed in ``tools/fte_assault_cases.py``, which wrote the record.

It was written by the code of main before the enumeration was made faster, then corrected for two bugs of
main's merging of positions (``AssaultRun.key``), which merged positions that later steps tell apart and carried
on from one of them:

- casualty markers were keyed by kind and side, not by where they lie. A marker in the assaulted hex is
  settled when the attackers advance (F 7.5.3: removed, or captured), one lying elsewhere stays, so the casualty
  counts within "cleared" were wrong wherever the same markers could end up in different hexes: two attacks on
  the defender in one round with separate fire (a WIA then a B leaves the marker in 20.19, a B then a WIA in
  the retreat hex), opportunity fire first, fire at a retreating unit;
- a vehicle's Immobilized marker was not keyed, so an immobilized APC (a second WIA destroys it) was merged
  with an intact one: in the "apc" case even the chance of each result was wrong.

The ten cases that changed ("book ... separate ...", "separate, opfire at 19.19", "retreat fire", "pair, one
attacker, retreat fire", "sapper, separate", "apc", "two-man team, opfire at it") were recomputed with
``tools/fte_assault_cases.py --reference``, which replays every step on a full copy and merges only positions
equal in every field: by the code of main, except "retreat fire" (main's reference would take most of an hour),
whose reference ran on the new code with the same plain replay; the new enumeration agrees with the reference
on every case. In the book's cases the
chance of each result (the percentages shown) did not change, only the casualty splits (the hover fractions).
"""
import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

from wargames.core import RandomDice
from wargames.fte.assault import assault, assault_distribution, outcome_of, start

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("fte_assault_cases", ROOT / "tools" / "fte_assault_cases.py")
cases = sys.modules[_spec.name] = importlib.util.module_from_spec(_spec)     # dataclasses look it up there
_spec.loader.exec_module(cases)

RECORD = json.loads(cases.RECORD.read_text())["cases"]
BY_NAME = {c["name"]: c for c in RECORD}


def test_the_record_covers_every_case_and_each_sums_to_one():
    assert [c[0] for c in cases.CASES] == [c["name"] for c in RECORD]
    for c in RECORD:
        assert sum(cases.decode(c["distribution"]).values()) == 1, c["name"]
    book = [c for c in RECORD if c["name"].startswith("book ")]
    assert len(book) == 8                     # the eight distributions of the book's widget


#: Cases of more than half a minute, checked only with WARGAMES_SLOW=1 (fire at a retreating unit from every
#: unit in sight multiplies the branches of a fire round's step).
SLOW = {"retreat fire"}


@pytest.mark.rule("F 8.0")
@pytest.mark.parametrize("name, position, reading, plan", cases.CASES, ids=[c[0] for c in cases.CASES])
def test_exact_distribution_equals_the_record(name, position, reading, plan):
    if name in SLOW and not os.environ.get("WARGAMES_SLOW"):
        pytest.skip("slow case: set WARGAMES_SLOW=1")
    rec = BY_NAME[name]
    assert cases.plan_from(rec["plan"]) == plan and (rec["position"], rec["reading"]) == (position, reading)
    dist, finals = assault_distribution(cases.position(position, reading), plan)
    assert cases.decode(cases.encode(dist)) == cases.decode(rec["distribution"])
    assert set(finals) == set(dist) and all(f.result == o.result for o, f in finals.items())


@pytest.mark.rule("F 8.0", "F 7.5.3")
@pytest.mark.parametrize("name", ["sapper, separate", "one attacker, opfire, no advance"])
def test_fast_enumeration_equals_the_full_reference(name):
    _, position, reading, plan = next(c for c in cases.CASES if c[0] == name)
    """The slow reference replays every step on a full copy and merges only positions equal in every field."""
    fast, _ = assault_distribution(cases.position(position, reading), plan)
    assert dict(fast) == dict(cases.compute(name, position, reading, plan, reference=True))


def test_markers_in_the_assaulted_hex_are_told_apart_from_markers_elsewhere():
    """The bug the record's corrected cases come from: position_key keeps where a marker lies when it lies in
    the assaulted hex (an advance settles it there); counters carry the others."""
    s = cases.position("example", "errata")
    run = start(s, cases.PRINTED)
    run.__dict__["_before"] = frozenset()
    here = run.copy()
    here.state.casualties["m"] = _marker("m", run.hex)
    away = run.copy()
    away.state.casualties["m"] = _marker("m", s.hex("20.22"))
    assert here.position_key() != away.position_key()
    assert here.tally() == away.tally() == (0, 0, 0, 1)
    elsewhere = run.copy()
    elsewhere.state.casualties["n"] = _marker("n", s.hex("18.18"))
    assert away.position_key() == elsewhere.position_key() == run.position_key()


def _marker(mid, h):
    from wargames.fte.units import CasualtyMarker
    return CasualtyMarker(mid, "WIA", "NVA", h)


@pytest.mark.rule("F 8.0")
def test_sampling_lands_near_the_exact_casualty_counts():
    """Monte Carlo of the same procedure: every result and the likeliest casualty counts within 4.5 standard
    errors of the exact chances (seeded)."""
    _, position, reading, plan = next(c for c in cases.CASES if c[0] == "book errata separate at US FT 19.19")
    exact = cases.decode(BY_NAME["book errata separate at US FT 19.19"]["distribution"])
    start_state = cases.position(position, reading)
    n = 1500
    counts: dict = {}
    dice = RandomDice(seed=8)
    for _ in range(n):
        st = start_state.copy()
        out = outcome_of(assault(st, plan, dice), start_state)
        k = (out.result, out.attacker_kia, out.attacker_wia, out.defender_kia, out.defender_wia)
        counts[k] = counts.get(k, 0) + 1
    by_result: dict = {}
    for k, p in exact.items():
        by_result[k[0]] = by_result.get(k[0], 0) + p
    events = [(lambda k, r=r: k[0] == r, p) for r, p in by_result.items()]
    events += [(lambda k, o=o: k == o, p) for o, p in sorted(exact.items(), key=lambda x: -x[1])[:4]]
    for event, p in events:
        seen = sum(c for k, c in counts.items() if event(k)) / n
        sd = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(seen - float(p)) < 4.5 * sd + 1e-9
