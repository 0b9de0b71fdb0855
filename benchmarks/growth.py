"""How the cold build grows with the corpus, measured under one state of the machine.

    python benchmarks/growth.py                       # 10,000 and 100,000 records, 3 rounds
    python benchmarks/growth.py --n 1000 --n 10000 --rounds 5 --no-hugo --commit HEAD

`run.py` times each size in turn, so its larger size is measured minutes after
the smaller one; a shared machine's speed drifts from one hour to the next, and a
growth figure taken across that drift says as much about the machine as about
the build. Here each round makes one cold build of every size, with sitegen
and then Hugo, so both sizes are measured within a minute or two of each other;
the medians of the rounds give the growth, sitegen's beside Hugo's.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import (
    benchmark_arguments,
    clear_site_state,
    code_under_test,
    corpus,
    hugo_command,
    load_average,
    set_aside,
    settle_file_system,
    sitegen_command,
    timed,
    workdir_of,
)


def main() -> None:
    args, sizes, hugo = benchmark_arguments("cold-build growth, sizes alternated in each round", [10000, 100000], "--rounds", "cold builds of each size")
    tools = ["sitegen", "hugo"] if hugo else ["sitegen"]
    times: dict[tuple[int, str], list[float]] = {(n, tool): [] for n in sizes for tool in tools}
    loads: list[float] = []
    with workdir_of(args, "sitegen-growth-") as tmp:
        work = Path(tmp)
        trash = work / "trash"
        code = code_under_test(args.commit, work)
        print(f"sitegen: {code.described}; load {load_average():.1f} at start")
        print(settle_file_system(args.no_settle))
        sites = {n: corpus(n, work) for n in sizes}
        for site, _ in sites.values():
            timed(sitegen_command(site), cwd=work, env=code.env)  # warm the page cache and the interpreter's files
        for round_number in range(1, args.rounds + 1):
            for n, (site, hugo_site) in sites.items():
                clear_site_state(site, trash)
                run = timed(sitegen_command(site), cwd=work, env=code.env)
                times[(n, "sitegen")].append(run.seconds)
                loads.append(run.load)
                if hugo:
                    hugo_out = site.parent / "hugo-out"
                    set_aside(hugo_out, trash)
                    times[(n, "hugo")].append(timed(hugo_command(hugo, hugo_site, hugo_out), cwd=work).seconds)
            cells = ", ".join(f"{tool} {n:,}: {times[(n, tool)][-1]:.2f} s" for n in sizes for tool in tools)
            print(f"round {round_number} (load {loads[-1]:.1f}): {cells}", flush=True)
    for tool in tools:
        medians = [statistics.median(times[(n, tool)]) for n in sizes]
        steps = ", ".join(f"{small:,} -> {large:,}: {b / a:.1f}x" for small, large, a, b in zip(sizes, sizes[1:], medians, medians[1:]))
        print(f"{tool}: median cold build " + ", ".join(f"{n:,}: {m:.2f} s" for n, m in zip(sizes, medians)) + f"; growth {steps}")


if __name__ == "__main__":
    main()
