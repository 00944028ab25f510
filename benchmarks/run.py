"""Benchmarks, run by `make bench`. Ratios are measured side by side in one run (the machine is shared).

1. The exact pin probability of one opportunity-fire shot (enumeration over the die) against a
   10,000-sample Monte Carlo of the same procedure: time of each, their ratio, and the two estimates.
2. The Anne-Marie widget's callback latency: median and p95 over repeated changes of one die.
3. Indochina combat and the FTE printed assault: exact enumeration against 10,000 Monte Carlo samples of the
   same procedure, and each live widget's callback latency.
4. No Trumpets No Drums combat (NT 19.2): exact odds against 10,000 Monte Carlo samples, and the live combat and
   election widgets' callbacks.
5. Book build time (only with --book, since it takes minutes): wall time of `make book`.

With ``--json FILE`` every figure is also written to FILE, for comparing runs.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wargames.citadel.examples import MovementExample  # noqa: E402
from wargames.core import RandomDice, enumerate_outcomes  # noqa: E402


def first_shot(dice, start: MovementExample) -> bool:
    """The pending shot of the example (105-A at the 1st Battalion in 1112): does it pin?"""
    ex = start.copy()
    firer, target = ex.pending
    ex.shoot(dice)
    return ex.state.unit(target).pinned


def bench_exact_vs_monte_carlo(samples: int = 10_000) -> dict:
    start = MovementExample()
    t0 = time.perf_counter()
    exact = enumerate_outcomes(first_shot, start)[True]
    t_exact = time.perf_counter() - t0
    dice = RandomDice(seed=1954)
    t0 = time.perf_counter()
    hits = sum(first_shot(dice, start) for _ in range(samples))
    t_mc = time.perf_counter() - t0
    return {"exact": exact, "exact_s": t_exact, "mc": Fraction(hits, samples), "mc_s": t_mc,
            "ratio": t_mc / t_exact, "samples": samples}


def bench_widget(repeats: int = 30, cold: bool = False) -> dict:
    """Anne-Marie live callbacks. ``cold``: every remembered answer (the shot odds, the example's opening moves)
    is forgotten before each change, and the changes walk over every die, as a first visit would."""
    import widgets.citadel as wc
    w = wc.AnneMarieLive()
    times = []
    for i in range(repeats):
        if cold:
            wc.forget()
        t0 = time.perf_counter()
        if cold:
            w.dice[i % len(w.dice)].value = 1 + (i * 7) % 6
        else:
            w.dice[0].value = 1 + i % 6        # each change re-resolves the phase and re-draws
        times.append(time.perf_counter() - t0)
    times.sort()
    return {"median_ms": 1000 * statistics.median(times), "p95_ms": 1000 * times[int(0.95 * (len(times) - 1))],
            "repeats": repeats}


def indochina_combat(dice):
    from wargames.indochina import Combat, Side, resolve_combat
    c = Combat(Side.COMMUNIST, (9,), (3,), fortified=True)
    return resolve_combat(c, "Assault", Side.FEF, dice).result["result"]


def bench_indochina(samples: int = 10_000) -> dict:
    indochina_combat(RandomDice(seed=0))          # load the charts once, outside the timings
    t0 = time.perf_counter()
    exact = enumerate_outcomes(indochina_combat)
    t_exact = time.perf_counter() - t0
    dice = RandomDice(seed=1953)
    t0 = time.perf_counter()
    counts: dict = {}
    for _ in range(samples):
        r = indochina_combat(dice)
        counts[r] = counts.get(r, 0) + 1
    t_mc = time.perf_counter() - t0
    worst = max(abs(counts.get(k, 0) / samples - float(p)) for k, p in exact.items())
    from widgets.indochina import OddsShiftsLive
    w = OddsShiftsLive()
    times = []
    for i in range(30):
        before = w.out.value
        t1 = time.perf_counter()
        w.A.value = 5 + i % 20 if w.A.value != 5 + i % 20 else 4
        times.append(time.perf_counter() - t1)
        assert w.out.value != before or i == 0, "the callback did not run"
    times.sort()
    return {"exact_s": t_exact, "mc_s": t_mc, "ratio": t_mc / t_exact, "worst": worst,
            "median_ms": 1000 * statistics.median(times), "p95_ms": 1000 * times[int(0.95 * (len(times) - 1))]}


def bench_fte(samples: int = 10_000) -> dict:
    """FTE: the printed assault's exact outcome distribution against Monte Carlo of the same procedure, and the
    live assault widget's callback."""
    from wargames.fte.assault import assault, assault_distribution, outcome_of
    from wargames.fte.examples import assault_example
    from widgets.fte import PRINTED_PLAN, AssaultLive
    start = assault_example()
    t0 = time.perf_counter()
    exact, _ = assault_distribution(start, PRINTED_PLAN)
    t_exact = time.perf_counter() - t0
    dice = RandomDice(seed=1968)
    counts: dict = {}
    t0 = time.perf_counter()
    for _ in range(samples):
        st = start.copy()
        run = assault(st, PRINTED_PLAN, dice)
        r = run.result
        counts[r] = counts.get(r, 0) + 1
    t_mc = time.perf_counter() - t0
    by_result = exact.map(lambda o: o.result)
    worst = max(abs(counts.get(k, 0) / samples - float(p)) for k, p in by_result.items())
    w = AssaultLive()
    times = []
    for i in range(20):
        script = "1 3 5 2 5 10 6 2 8 2 9 3".split()
        script[2] = str(1 + i % 10)
        t1 = time.perf_counter()
        w.dice.value = " ".join(script)       # each change replays the assault and redraws the counters
        times.append(time.perf_counter() - t1)
    times.sort()
    return {"exact_s": t_exact, "mc_s": t_mc, "ratio": t_mc / t_exact, "worst": worst, "outcomes": len(exact),
            "by_result": by_result,
            "median_ms": 1000 * statistics.median(times), "p95_ms": 1000 * times[int(0.95 * (len(times) - 1))]}


def bench_ntnd(samples: int = 10_000) -> dict:
    """No Trumpets No Drums: the printed 19.2 combat's exact odds against Monte Carlo of the same procedure, and
    the live combat-grid and election widgets' callbacks."""
    from wargames.ntnd.combat import combat_odds, resolve, verdict
    from widgets.ntnd import PRINTED, CombatGridLive, battle
    from widgets.ntnd_politics import ElectionLive
    b = battle(PRINTED)
    t0 = time.perf_counter()
    exact = combat_odds(b)
    t_exact = time.perf_counter() - t0
    dice = RandomDice(seed=1968)
    counts: dict = {}
    t0 = time.perf_counter()
    for _ in range(samples):
        r = verdict(resolve(b, dice).result)
        counts[r] = counts.get(r, 0) + 1
    t_mc = time.perf_counter() - t0
    worst = max(abs(counts.get(k, 0) / samples - float(p)) for k, p in exact.items())
    out = {"exact_s": t_exact, "mc_s": t_mc, "ratio": t_mc / t_exact, "worst": worst}
    for name, make, change in (("combat", CombatGridLive, lambda w, i: setattr(w.controls["fighters"], "value",
                                                                               "012"[i % 3])),
                               ("election", ElectionLive, lambda w, i: setattr(w.points, "value", 40 + 7 * i))):
        w = make()
        times = []
        for i in range(30):
            t1 = time.perf_counter()
            change(w, i)
            times.append(time.perf_counter() - t1)
        times.sort()
        out[name] = {"median_ms": 1000 * statistics.median(times), "p95_ms": 1000 * times[int(0.95 * (len(times) - 1))],
                     "first_ms": 1000 * times[-1]}
    return out


def bench_book() -> dict:
    t0 = time.perf_counter()
    subprocess.run(["make", "book"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return {"book_s": time.perf_counter() - t0}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--book", action="store_true", help="also time a full book build")
    ap.add_argument("--samples", type=int, default=10_000)
    ap.add_argument("--json", type=Path, help="also write every figure to this JSON file")
    args = ap.parse_args()
    print(f"# benchmarks, {dt.date.today()}")
    e = bench_exact_vs_monte_carlo(args.samples)
    print("| measure | value |\n|---|---|")
    print(f"| exact P(pin), 105-A at 1st Bn in 1112 | {e['exact']} ({float(e['exact']):.4f}) |")
    print(f"| Monte Carlo, {e['samples']} samples | {float(e['mc']):.4f} |")
    print(f"| exact enumeration time | {e['exact_s'] * 1000:.1f} ms |")
    print(f"| Monte Carlo time | {e['mc_s'] * 1000:.1f} ms |")
    print(f"| Monte Carlo / exact time (same run) | {e['ratio']:.0f}x |")
    w = bench_widget()
    print(f"| Anne-Marie widget callback, median | {w['median_ms']:.1f} ms |")
    print(f"| Anne-Marie widget callback, p95 | {w['p95_ms']:.1f} ms |")
    wc = bench_widget(cold=True)
    print(f"| Anne-Marie widget callback, cold (nothing remembered), median / p95 | {wc['median_ms']:.1f} / "
          f"{wc['p95_ms']:.1f} ms |")
    i = bench_indochina(args.samples)
    print(f"| Indochina combat (9 vs 3 fortified, Assault): exact enumeration | {i['exact_s'] * 1000:.1f} ms |")
    print(f"| the same combat, {args.samples} Monte Carlo samples | {i['mc_s'] * 1000:.1f} ms |")
    print(f"| Monte Carlo / exact time (same run) | {i['ratio']:.0f}x |")
    print(f"| largest Monte Carlo error on a result's probability | {i['worst']:.4f} |")
    print(f"| Indochina odds widget (live) callback, median | {i['median_ms']:.1f} ms |")
    print(f"| Indochina odds widget (live) callback, p95 | {i['p95_ms']:.1f} ms |")
    f = bench_fte(args.samples)
    shares = ", ".join(f"{k} {float(p):.3f}" for k, p in sorted(f["by_result"].items()))
    print(f"| FTE printed assault: exact distribution ({f['outcomes']} outcomes; {shares}) | {f['exact_s']:.1f} s |")
    print(f"| the same assault, {args.samples} Monte Carlo samples | {f['mc_s']:.1f} s |")
    print(f"| Monte Carlo / exact time (same run) | {f['ratio']:.1f}x |")
    print(f"| largest Monte Carlo error on a result's probability | {f['worst']:.4f} |")
    print(f"| FTE assault widget (live) callback, median | {f['median_ms']:.1f} ms |")
    print(f"| FTE assault widget (live) callback, p95 | {f['p95_ms']:.1f} ms |")
    n = bench_ntnd(args.samples)
    print(f"| NTND printed combat (NT 19.2): exact odds over the 36 rolls | {n['exact_s'] * 1000:.1f} ms |")
    print(f"| the same combat, {args.samples} Monte Carlo samples | {n['mc_s'] * 1000:.1f} ms |")
    print(f"| Monte Carlo / exact time (same run) | {n['ratio']:.0f}x |")
    print(f"| largest Monte Carlo error on a result's probability | {n['worst']:.4f} |")
    for name in ("combat", "election"):
        print(f"| NTND {name} widget (live) callback, median / p95 / slowest | {n[name]['median_ms']:.1f} / "
              f"{n[name]['p95_ms']:.1f} / {n[name]['first_ms']:.1f} ms |")
    from hostile import bench_hostile
    h = bench_hostile()
    print(f"| hostile-input cases (every loader and save; each must be a DataError) | {h['cases']} over "
          f"{h['loaders']} loaders, {h['total']:.1f} s in all |")
    print(f"| slowest hostile-input case | {h['slowest'][0] * 1000:.0f} ms ({h['slowest'][1]}) |")
    if h["accepted"]:
        print(f"| hostile inputs accepted (should be none) | {len(h['accepted'])} |")
    b = None
    if args.book:
        b = bench_book()
        print(f"| book build (make book) | {b['book_s']:.0f} s |")
    if args.json:
        figures = {"date": str(dt.date.today()), "citadel_shot": e, "citadel_widget": w, "citadel_widget_cold": wc, "indochina": i, "fte": f,
                   "ntnd": n, "hostile": h, "book": b}
        args.json.write_text(json.dumps(figures, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
