"""One cold build of each size, timed stage by stage: where a build's time goes, and which stage grows faster than the corpus.

    python benchmarks/stages.py --people --n 10000 --n 100000 --workdir /tmp/sgbench/people --commit HEAD
    python benchmarks/stages.py --n 10000                    # the main corpus

The build runs in a process of its own, as `sitegen build` would, with
`build_site`'s progress callback marking the end of each stage: listing and
hashing the inputs; loading, validating and enriching the records; listing the
pages and their keys; rendering and writing the files (forked workers
included); saving the cache. For each stage it prints wall time, this process's
user and system time, and its peak memory so far; forked workers' CPU is
printed once, at the end (the kernel reports it when they are reaped). With
two sizes it prints each stage's growth, the ratio of the two.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from people import people_corpus
from run import clear_site_state, code_under_test, command_line, corpus, load_average, machine, settle_file_system, workdir_of

STAGED_BUILD = """
import json, resource, sys, time
from sitegen.build import build_site

marks = []
def mark(then):
    usage = resource.getrusage(resource.RUSAGE_SELF)
    marks.append((then, time.perf_counter(), usage.ru_utime, usage.ru_stime, usage.ru_maxrss / 1024))
mark("listing and hashing the inputs")
build_site(sys.argv[1], progress=mark)
mark("")
workers = resource.getrusage(resource.RUSAGE_CHILDREN)
stages = [
    {"stage": start[0], "wall": end[1] - start[1], "user": end[2] - start[2], "system": end[3] - start[3], "peak_mib": end[4]}
    for start, end in zip(marks, marks[1:])
]
print(json.dumps({"stages": stages, "workers_user": workers.ru_utime, "workers_system": workers.ru_stime}))
"""


def staged_build(site: Path, env: dict[str, str], trash: Path) -> dict:
    """A cold build of `site` (its output and cache set aside first), timed stage by stage in a process of its own
    (run beside the trash, not in the repository, where `python -c` would import the work tree's sitegen)."""
    clear_site_state(site, trash)
    done = subprocess.run([sys.executable, "-c", STAGED_BUILD, str(site)], cwd=trash.parent, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the build of {site} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def stage_name(progress_line: str) -> str:
    """'loading 10044 input files' -> 'loading input files': the same stage at every size."""
    return " ".join(word for word in progress_line.split() if not word.isdigit())


def growth(small: float, large: float) -> str:
    """The larger build's figure over the smaller's, or '-' where the smaller is below what `getrusage` resolves."""
    return f"{large / small:.1f}x" if small >= 0.01 else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description="one cold build of each size, timed stage by stage")
    parser.add_argument("--n", type=int, action="append", help="corpus sizes, one build each (default: 10000)")
    parser.add_argument("--people", action="store_true", help="the people-directory corpus of people.py (a page for every author) instead of the main one")
    parser.add_argument("--commit", metavar="REV", help="time sitegen as committed at REV (a copy), not the importable one")
    parser.add_argument("--workdir", type=Path, metavar="DIR", help="keep corpora here and reuse them (default: a temporary folder)")
    parser.add_argument("--no-settle", action="store_true", help="do not write back and drop the kernel's caches before timing")
    args = parser.parse_args()
    sizes = sorted(args.n or [10000])
    with workdir_of(args, "sitegen-stages-") as folder:
        work = Path(folder)
        code = code_under_test(args.commit, work)
        print(f"sitegen: {code.described}")
        print(f"machine: {machine()}; load {load_average():.1f} at start")
        sites = {n: people_corpus(n, work)[0] if args.people else corpus(n, work)[0] for n in sizes}
        print(settle_file_system(args.no_settle))
        print(command_line())
        results = {n: staged_build(site, code.env, work / "trash") for n, site in sites.items()}
        print_stages(results, sizes, args.people)
        shutil.rmtree(work / "trash", ignore_errors=True)  # after the timing: deleting a large output slows the file creation that follows


def print_stages(results: dict[int, dict], sizes: list[int], people: bool) -> None:
    for n, result in results.items():
        print(f"\n## {n:,} records{' (people directory)' if people else ''}\n")
        print("| stage | wall s | user s | system s | peak MiB |\n|---|---:|---:|---:|---:|")
        for stage in result["stages"]:
            print(f"| {stage_name(stage['stage'])} | {stage['wall']:.2f} | {stage['user']:.2f} | {stage['system']:.2f} | {stage['peak_mib']:.0f} |")
        total = sum(stage["wall"] for stage in result["stages"])
        print(f"| all | {total:.2f} | | | |\n\nforked workers: user {result['workers_user']:.2f} s, system {result['workers_system']:.2f} s")
    if len(sizes) == 2:
        small, large = (results[n]["stages"] for n in sizes)
        print(f"\n## growth {sizes[0]:,} -> {sizes[1]:,} ({sizes[1] / sizes[0]:.0f}x the records)\n")
        print("| stage | wall | user | system |\n|---|---:|---:|---:|")
        for a, b in zip(small, large):
            print(f"| {stage_name(a['stage'])} | {growth(a['wall'], b['wall'])} | {growth(a['user'], b['user'])} | {growth(a['system'], b['system'])} |")
        print(f"| all | {sum(s['wall'] for s in large) / sum(s['wall'] for s in small):.1f}x | | |")


if __name__ == "__main__":
    main()
