"""Time every case of the hostile-input suite outside pytest: the number of cases and the slowest.

Runs the same loaders, hostile files and field mutations as ``tests/test_hostile_inputs.py`` (which asserts
each is a DataError and, having no wall-clock limit, leaves the time to this script); ``benchmarks/README.md``
quotes the figures.
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.hostile.cases import distinct_mutations, sample_data, write  # noqa: E402
from tests.test_hostile_inputs import LOADERS  # noqa: E402

from wargames.core.errors import DataError  # noqa: E402


def hostile_files(d: Path) -> dict[str, Path]:
    bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8))
    out = {"alias bomb": d / "bomb.yaml", "deep nesting": d / "deep.yaml", "50 MB file": d / "big.yaml"}
    out["alias bomb"].write_text(bomb)
    out["deep nesting"].write_bytes(b"a: " + b"[" * 100_000 + b"]" * 100_000)
    with out["50 MB file"].open("wb") as f:
        f.write((b"- " + b"x" * 98 + b"\n") * 500_000)
    return out


def bench_hostile() -> dict:
    """Every hostile file and every distinct field mutation against every loader, each timed."""
    times: list[tuple[float, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        files = hostile_files(d)
        for lo in LOADERS:
            cases = [(name, path) for name, path in files.items()]
            data = sample_data(lo)
            for i, (where, what, text) in enumerate(distinct_mutations(data)):
                path = d / f"m{i}.yaml"
                path.write_text(text, encoding="utf-8")
                cases.append((f"{where} ({what})", path))
            cases.append(("huge fill", write(d / "fill.yaml", {**data, "fill": {
                "cols": [0, 10 ** 9], "rows": [0, 10 ** 9], "terrain": "clear"}})))
            for name, path in cases:
                start = time.perf_counter()
                try:
                    lo.load(path)
                    outcome = "ACCEPTED"
                except DataError:
                    outcome = ""
                times.append((time.perf_counter() - start, f"{lo.name}: {name}{' ' + outcome if outcome else ''}"))
    times.sort(reverse=True)
    return {"cases": len(times), "loaders": len(LOADERS), "slowest": times[0],
            "accepted": [n for _, n in times if n.endswith("ACCEPTED")], "total": sum(t for t, _ in times)}


if __name__ == "__main__":
    r = bench_hostile()
    print(f"{r['cases']} cases over {r['loaders']} loaders in {r['total']:.1f} s; slowest "
          f"{r['slowest'][0] * 1000:.0f} ms ({r['slowest'][1]})")
    for n in r["accepted"]:
        print("accepted:", n)
