"""How the cold build grows with the corpus, measured under one state of the machine.

    python benchmarks/growth.py                       # 10,000 and 100,000 records, 3 rounds
    python benchmarks/growth.py --n 1000 --n 10000 --rounds 5 --no-hugo

`run.py` times each size in turn, so its larger size is measured minutes after
the smaller one; this machine's speed drifts by a third from one hour to the next,
and a growth figure taken across that drift says as much about the machine as
about the build. Here each round makes one cold build of every size, with sitegen
and then Hugo, so both sizes are measured within a minute or two of each other;
the medians of the rounds give the growth, sitegen's beside Hugo's.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import benchmark_arguments, clear_site_state, compile_sitegen, hugo_command, make_corpus, set_aside, sitegen_command, timed  # noqa: E402


def main() -> None:
    args, sizes, hugo = benchmark_arguments("cold-build growth, sizes alternated in each round", [10000, 100000], "--rounds", "cold builds of each size")
    tools = ["sitegen", "hugo"] if hugo else ["sitegen"]
    compile_sitegen()
    times: dict[tuple[int, str], list[float]] = {(n, tool): [] for n in sizes for tool in tools}
    with tempfile.TemporaryDirectory(prefix="sitegen-growth-") as tmp:
        work = Path(tmp)
        trash = work / "trash"
        sites = {n: make_corpus(n, work / f"n{n}") for n in sizes}
        for site, _ in sites.values():
            timed(sitegen_command(site))  # warm the page cache and the interpreter's files
        for round_number in range(1, args.rounds + 1):
            for n, (site, hugo_site) in sites.items():
                clear_site_state(site, trash)
                times[(n, "sitegen")].append(timed(sitegen_command(site)).seconds)
                if hugo:
                    hugo_out = work / f"n{n}" / "hugo-out"
                    set_aside(hugo_out, trash)
                    times[(n, "hugo")].append(timed(hugo_command(hugo, hugo_site, hugo_out)).seconds)
            cells = ", ".join(f"{tool} {n:,}: {times[(n, tool)][-1]:.2f} s" for n in sizes for tool in tools)
            print(f"round {round_number}: {cells}", flush=True)
    for tool in tools:
        medians = [statistics.median(times[(n, tool)]) for n in sizes]
        steps = ", ".join(f"{small:,} -> {large:,}: {b / a:.1f}x" for small, large, a, b in zip(sizes, sizes[1:], medians, medians[1:]))
        print(f"{tool}: median cold build " + ", ".join(f"{n:,}: {m:.2f} s" for n, m in zip(sizes, medians)) + f"; growth {steps}")


if __name__ == "__main__":
    main()
