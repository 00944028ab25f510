"""`make fuzz`: random legal and illegal play of every game on the shared protocol, with a table of what broke.

Each game plays ``--actions`` random legal actions (10,000 by default), shared out over its scenarios' set-ups
(and again with each rule variant the game lists in ``Game.VARIANTS``), restarting finished games (and playing the last one on to its outcome if none finished), with random illegal variations, save/load and undo/redo round trips, and the
game's invariants checked after every action (see ``wargames.core.fuzz``). Exit status 1 if anything broke;
the first failures are printed with a save that reproduces them (``Game.load``).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wargames.core.fuzz import fuzz  # noqa: E402
from wargames.games import GAMES, game_class, sections  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--actions", type=int, default=10_000, help="actions per game (default 10,000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    ap.add_argument("--finish", type=int, default=20_000,
                    help="if a scenario's share of the actions ends before any of its games does, play on for at "
                         "most this many actions to reach its outcome (default 20,000)")
    ap.add_argument("--failures", type=Path, default=None, help="write failures (with saves) to this JSON file")
    args = ap.parse_args()
    rows, failed, unfinished = [], [], []
    for name in args.games:
        cls = game_class(name)
        plays = [(scenario, None) for scenario in cls.SCENARIOS] + [
            (scenario, variant) for variant in cls.VARIANTS for scenario in cls.SCENARIOS]
        per = max(1, args.actions // len(plays))
        t0 = time.perf_counter()
        totals = {"actions": 0, "games finished": 0, "crashes": 0, "dead ends": 0, "invariant breaks": 0,
                  "illegal tried": 0, "round trips": 0}
        reached: set[str] = set()
        for scenario, variant in plays:
            ruleset = None if variant is None else cls.RULESET(readings=dict(cls.VARIANTS[variant]))
            report = fuzz(cls, per, seed=args.seed, scenario=scenario, ruleset=ruleset, finish=args.finish)
            if not report.games_finished:
                unfinished.append(f"{name} ({scenario if variant is None else f'{scenario}, {variant}'})")
            for k in totals:
                totals[k] += report.row()[k]
            reached |= report.reached
            where = scenario if variant is None else f"{scenario}, {variant}"
            failed += [(name, where, f) for f in report.failures]
            print(f"{name} ({where}): {report.actions} actions"
                  + (f" ({report.finish_actions} of them to finish a game)" if report.finish_actions else "")
                  + f", {report.games_started} games started, {report.games_finished} played to an outcome, "
                  f"{len(report.failures)} failures", flush=True)
        implemented = [s.id for s in sections(name) if s.status == "implemented"]
        rows.append({"game": name, **totals,
                     "rules reached": f"{len(set(implemented) & reached)} of {len(implemented)}",
                     "seconds": round(time.perf_counter() - t0)})
        missed = sorted(set(implemented) - reached)
        print(f"{name}: implemented but not reached: {', '.join(missed) or 'none'}", flush=True)
    head = list(rows[0])
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(str(r[h]) for h in head) + " |")
    for name, scenario, f in failed[:10]:
        print(f"\n{name} ({scenario}) {f.kind}: {f.action}\n{f.detail[-2000:]}")
    if unfinished:
        print(f"\nno game reached its outcome in: {', '.join(unfinished)}")
    if args.failures:
        args.failures.write_text(json.dumps([{"game": n, "scenario": s, "kind": f.kind, "action": f.action,
                                              "detail": f.detail, "save": f.save} for n, s, f in failed],
                                             indent=1, default=str))
    return 1 if failed or unfinished else 0


if __name__ == "__main__":
    sys.exit(main())
