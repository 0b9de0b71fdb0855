"""The cold build of two or more commits on the same corpus, alternated round by round: wall time and CPU.

What a change costs when the machine's drift between runs is larger than the change: each round
builds with every commit once (the order turning round by round), so drift touches all alike, and
CPU time (both processes: the building one and its forked worker) moves less than wall time.

    python benchmarks/compare_commits.py --commit d7baec0 --commit 496b9ef --n 10000 --rounds 4 --workdir /tmp/sgbench/work
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from run import code_under_test, corpus, settle_file_system, sitegen_command, timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", action="append", required=True, help="a commit to time (give two or more)")
    parser.add_argument("--n", type=int, default=10000, help="corpus size (default 10000)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--workdir", type=Path, default=None, help="keep the corpus here and reuse it")
    parser.add_argument("--no-settle", action="store_true", help="do not write back and drop the kernel's caches before timing")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="sitegen-compare-"))
    site, _ = corpus(args.n, workdir)
    codes = {commit: code_under_test(commit, workdir / f"code-{commit}") for commit in args.commit}
    print(f"command: python benchmarks/compare_commits.py {' '.join(f'--commit {c}' for c in args.commit)} --n {args.n} --rounds {args.rounds}")
    times: dict[str, list[tuple[float, float]]] = {commit: [] for commit in args.commit}
    print(settle_file_system(args.no_settle))  # once, as run.py does: later builds find the inputs in memory alike
    for round_number in range(args.rounds):
        order = args.commit if round_number % 2 == 0 else list(reversed(args.commit))
        for commit in order:
            output = workdir / f"compare-out-{commit}-{round_number}"  # a new folder each time, removed after the timing
            # in workdir: in the repository, `python -m sitegen` would import the work tree's sitegen, not the commit's copy
            run = timed(sitegen_command(site, "--no-cache", "--output", str(output)), cwd=workdir, env=codes[commit].env)
            times[commit].append((run.seconds, run.cpu))
            print(f"round {round_number + 1} {commit}: wall {run.seconds:.2f} s, CPU {run.cpu:.2f} s", flush=True)
    for output in workdir.glob("compare-out-*"):
        shutil.rmtree(output)
    print("| commit | wall s median (min-max) | CPU s median (min-max) |\n|---|---|---|")
    for commit, pairs in times.items():
        walls, cpus = [w for w, _ in pairs], [c for _, c in pairs]
        print(
            f"| `{commit}` | {statistics.median(walls):.2f} ({min(walls):.2f}-{max(walls):.2f}) | {statistics.median(cpus):.2f} ({min(cpus):.2f}-{max(cpus):.2f}) |"
        )


if __name__ == "__main__":
    sys.exit(main())
