"""The FTE assault cases whose exact outcome distributions are recorded in tests/data/fte_assault_distributions.json.

Every assault distribution the book shows (book/fte/rule08.md and the FTE assault widget: both readings, combined
or separate US fire, either NVA target) and a variety of other cases: opportunity fire first, fire at retreating
broken units (in the example's position, which took
nine minutes with the code of main, and with only the two assaulting teams on the map), a leader's stack, a sapper, a vehicle, two defenders, suppressed defenders, dummies and leaders in
the hex. ``tests/test_fte_assault_exact.py`` compares :func:`wargames.fte.assault.assault_distribution` with the
record.

    PYTHONPATH=$PWD .venv/bin/python tools/fte_assault_cases.py            # write the record
    PYTHONPATH=$PWD .venv/bin/python tools/fte_assault_cases.py --check    # compare with the record
    PYTHONPATH=$PWD .venv/bin/python tools/fte_assault_cases.py --reference --check
        # compare the record with a slow reference that merges only positions equal in every field

The record was first written by the code of main before the assault's enumeration was made faster; see
tests/test_fte_assault_exact.py for the cases the slow reference corrected.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from fractions import Fraction
from pathlib import Path

from wargames.core.dist import Distribution, enumerate_chain
from wargames.fte.assault import AssaultPlan, AssaultRun, assault_distribution, outcome_of, start
from wargames.fte.errata import ERRATA, ORIGINAL
from wargames.fte.examples import assault_example
from wargames.fte.state import FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import Unit

RECORD = Path(__file__).resolve().parent.parent / "tests" / "data" / "fte_assault_distributions.json"
READINGS = {"errata": ERRATA, "original": ORIGINAL}
US = ("US FT 20.20", "US FT 19.19")


def _leader_stack(r):
    s = assault_example(r)
    s.unit("US FT 20.20").hex = s.hex("21.20")          # stacked with the leader, next to 20.19
    return s


def _sapper(r):
    s = FteState(demo_map(), readings=r)
    return place(s, [Unit("D", "US", fire_rating=4, weapon="SA", range=4, hex=s.hex("23.23")),
                     Unit("Sap", "NVA", role="sapper", fire_rating=5, weapon="HE", men=1, hex=s.hex("23.22")),
                     Unit("N", "NVA", fire_rating=4, weapon="SA", hex=s.hex("23.24"))])


def _apc(r):
    s = assault_example(r)
    s.unit("US FT 20.20").hex = None
    return place(s, [Unit("APC", "US", kind="vehicle", role="apc", fire_rating=4, weapon="DP", defense=2, range=6,
                          men=2, hex=s.hex("20.20"))])


def _two_defenders(r):
    s = assault_example(r)
    return place(s, [Unit("NVA WT", "NVA", role="weapons_team", fire_rating=3, weapon="DP", tq=3, men=3,
                          hex=s.hex("20.19"))])


def _crowded(r):
    s = assault_example(r)
    return place(s, [Unit("NVA Ldr", "NVA", role="leader", tq=5, men=1, hex=s.hex("20.19")),
                     Unit("NVA Sap", "NVA", role="sapper", fire_rating=5, weapon="HE", men=1, hex=s.hex("20.19")),
                     Unit("Dummy", "NVA", role="dummy", men=1, hex=s.hex("20.19"), concealed=True)])


def _suppressed(r):
    s = assault_example(r)
    s.unit("NVA FT").suppressed = True
    return s


def _two_man(r):
    s = assault_example(r)
    s.unit("US FT 19.19").men = 2
    return s


def _pair(r):
    s = assault_example(r)
    for uid in ("US Ldr", "US FT 22.19"):         # only the two assaulting teams may fire at a retreat
        s.unit(uid).hex = None
    return s


POSITIONS = {"pair": _pair, "example": assault_example, "leader stack": _leader_stack, "sapper": _sapper, "apc": _apc,
             "two defenders": _two_defenders, "crowded": _crowded, "suppressed": _suppressed, "two-man": _two_man}


def plan(attackers=US, target="20.19", **kw) -> AssaultPlan:
    return AssaultPlan(tuple(attackers), target, **kw)


def book_plan(combine: bool, nva_target: str, **kw) -> AssaultPlan:
    """The widget's plan (widgets.fte.plan_of) for the book's choices."""
    return plan(combine=combine, primary="US FT 20.20" if combine else None,
                defender_targets=(("NVA FT", nva_target),), **kw)


PRINTED = book_plan(True, "US FT 19.19")
LEADER = ("US Ldr", "US FT 20.20", "US FT 19.19")
CASES: list[tuple[str, str, str, AssaultPlan]] = [
    # (name, position, reading, plan): first the eight the book's widget enumerates
    *[(f"book {reading} {'combined' if combine else 'separate'} at {target}", "example", reading,
       book_plan(combine, target))
      for reading in ("errata", "original") for combine in (True, False) for target in ("US FT 19.19", "US FT 20.20")],
    ("opfire at 19.19", "example", "errata", book_plan(True, "US FT 19.19", defender_opfire=(("NVA FT", "US FT 19.19"),))),
    ("opfire at 20.20", "example", "errata", book_plan(True, "US FT 19.19", defender_opfire=(("NVA FT", "US FT 20.20"),))),
    ("opfire at 19.19, original", "example", "original",
     book_plan(True, "US FT 20.20", defender_opfire=(("NVA FT", "US FT 19.19"),))),
    ("separate, opfire at 19.19", "example", "errata",
     book_plan(False, "US FT 19.19", defender_opfire=(("NVA FT", "US FT 19.19"),))),
    ("retreat fire", "example", "errata", book_plan(True, "US FT 19.19", retreat_opfire=True)),
    ("pair, one attacker, retreat fire", "pair", "errata", plan(("US FT 19.19",), retreat_opfire=True)),
    ("one attacker", "example", "errata", plan(("US FT 19.19",))),
    ("one attacker, opfire, no advance", "example", "errata",
     plan(("US FT 20.20",), defender_opfire=(("NVA FT", "US FT 20.20"),), advance=False)),
    ("leader and both teams", "example", "errata", plan(LEADER, primary="US FT 20.20")),
    ("leader's stack", "leader stack", "errata",
     plan(LEADER, primary="US FT 20.20", defender_targets=(("NVA FT", "US FT 19.19"),))),
    ("leader's stack, opfire at the leader", "leader stack", "errata",
     plan(LEADER, primary="US FT 20.20", defender_opfire=(("NVA FT", "US Ldr"),),
          defender_targets=(("NVA FT", "US FT 19.19"),))),
    ("sapper", "sapper", "errata", plan(("Sap", "N"), "23.23")),
    ("sapper, separate", "sapper", "errata", plan(("Sap", "N"), "23.23", combine=False)),
    ("apc", "apc", "errata", plan(("APC", "US FT 19.19"), primary="APC", defender_targets=(("NVA FT", "APC"),))),
    ("two defenders", "two defenders", "errata",
     plan(defender_targets=(("NVA FT", "US FT 19.19"), ("NVA WT", "US FT 20.20")))),
    ("two defenders, one attacker, separate", "two defenders", "errata",
     plan(("US FT 19.19",), combine=False, attacker_targets=(("US FT 19.19", "NVA WT"),))),
    ("leader, sapper and dummy in the hex", "crowded", "errata", PRINTED),
    ("suppressed defender", "suppressed", "errata", PRINTED),
    ("suppressed defender, original", "suppressed", "original", PRINTED),
    ("two-man team, opfire at it", "two-man", "errata",
     book_plan(False, "US FT 19.19", defender_opfire=(("NVA FT", "US FT 19.19"),))),
]


def position(name: str, reading: str) -> FteState:
    return POSITIONS[name](READINGS[reading])


def plan_from(d: dict) -> AssaultPlan:
    return AssaultPlan(**{k: tuple(tuple(x) if isinstance(x, list) else x for x in v) if isinstance(v, list) else v
                          for k, v in d.items()})


def encode(dist) -> list:
    """A distribution of AssaultOutcome as sorted rows [result, US KIA, US WIA, defender KIA, defender WIA, "p"]."""
    return sorted([o.result, o.attacker_kia, o.attacker_wia, o.defender_kia, o.defender_wia, str(p)]
                  for o, p in dist.items())


def dump(cases: list) -> str:
    """The record as JSON, one distribution row per line."""
    out = []
    for c in cases:
        head = json.dumps({k: v for k, v in c.items() if k != "distribution"})[:-1]
        rows = ",\n".join("  " + json.dumps(r) for r in c["distribution"])
        out.append(f'{head}, "distribution": [\n{rows}\n ]}}')
    return '{"cases": [\n' + ",\n".join(out) + "\n]}\n"


def decode(rows: list) -> dict:
    return {tuple(r[:5]): Fraction(r[5]) for r in rows}


def full_key(run: AssaultRun) -> tuple:
    """Every field of the position and of the run's progress (a slow reference for the merging of positions)."""
    s = run.state
    freeze = lambda v: tuple(v) if isinstance(v, list) else v
    units = tuple((k, tuple((f, freeze(v)) for f, v in sorted(vars(u).items()))) for k, u in sorted(s.units.items()))
    cas = tuple((k, c.kind, c.side, c.hex, c.carried_by) for k, c in sorted(s.casualties.items()))
    sites = tuple((k, x.hex, x.revealed, tuple(x.occupants)) for k, x in sorted(s.sites.items()))
    return (run.phase, run.round, tuple(run.in_assault), tuple(run.pending), run.result, units, cas, sites,
            tuple(sorted(s.vp.items())), tuple(sorted(s.cup.chits.items())), tuple(s.cup.cup), s.next_id,
            tuple(s.retreats_due), tuple(s.landings_due), tuple(sorted(s.hero.items())))


def compute(name: str, pos: str, reading: str, p: AssaultPlan, reference: bool = False):
    if not reference:
        return assault_distribution(position(pos, reading), p)[0]
    # the slow reference: every step replayed on a full copy, merging only positions equal in every field
    state = position(pos, reading)
    dist, reps = enumerate_chain(start(state.copy(), p), AssaultRun.step, full_key, lambda r: r.done,
                                 lambda r: r.copy())
    acc: dict = {}
    for k, q in dist.items():
        out = outcome_of(reps[k], state)
        acc[out] = acc.get(out, Fraction(0)) + q
    return Distribution(acc)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare with the record instead of writing it")
    ap.add_argument("--reference", action="store_true", help="merge only positions equal in every field (slow)")
    ap.add_argument("--only", nargs="*", help="case names (default: all)")
    ap.add_argument("--out", type=Path, default=RECORD)
    args = ap.parse_args(argv)
    record = json.loads(args.out.read_text()) if args.out.exists() else {"cases": []}
    recorded = {c["name"]: c for c in record["cases"]}
    bad = 0
    out = []
    for name, pos, reading, p in CASES:
        if args.only and name not in args.only:
            if name in recorded:
                out.append(recorded[name])
            continue
        t0 = time.perf_counter()
        rows = encode(compute(name, pos, reading, p, args.reference))
        dt = time.perf_counter() - t0
        if args.check:
            same = name in recorded and decode(recorded[name]["distribution"]) == decode(rows)
            bad += not same
            print(f"{'same' if same else 'DIFFERENT':9} {dt:7.2f} s  {name}", flush=True)
            if not same and name in recorded:
                old, new = decode(recorded[name]["distribution"]), decode(rows)
                for k in sorted(set(old) | set(new)):
                    if old.get(k) != new.get(k):
                        print(f"      {k}: record {old.get(k)}  now {new.get(k)}")
        else:
            print(f"{dt:7.2f} s  {len(rows):4} outcomes  {name}", flush=True)
        out.append({"name": name, "position": pos, "reading": reading, "plan": asdict(p), "distribution": rows})
    if not args.check:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(dump(out))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
