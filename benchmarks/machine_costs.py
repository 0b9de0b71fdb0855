"""What this machine charges per page of memory and per folder of files at ten times the size, with no sitegen code running.

    python benchmarks/machine_costs.py --workdir /tmp/sgbench/machine          # 0.4 and 4 GiB; 35,000 and 350,000 folders
    python benchmarks/machine_costs.py --gib 0.5 --gib 2 --gib 6 --folders 0 --rounds 3

A people directory of 10,000 records is built by a process of about 0.4 GiB
that writes 35,000 folders of three files into `people/`; one of 100,000
records by a process of about 4 GiB (with a forked worker sharing it) that
writes 350,000 such folders into the same one folder (SPEC §9 fixes the paths).
Whether that build can grow linearly depends on whether the machine charges the
same per page and per folder at both sizes. This script measures both alone:

- memory: a process maps N GiB of anonymous memory and writes a byte to every
  page (each write a fault that maps a zeroed page); then it forks and
  the child writes every page again (each a copy-on-write fault, as a forked
  worker pays for the objects it touches). Kernel time per fault, each size in
  a process of its own.
- folders: N folders, each with three files of a person's sizes (index.html,
  publications.bib, feed.xml), created in one folder; kernel and wall time per
  folder. Each size gets a fresh folder after the file system is settled
  (run.settle_file_system), and the folders are deleted once all is timed.
"""

from __future__ import annotations

import argparse
import json
import mmap
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import command_line, load_average, machine, set_aside, settle_file_system

PERSON_FILES = {"index.html": 6166, "publications.bib": 741, "feed.xml": 1534}  # the median-sized person of the 10,000-record corpus

ONE_SIZE = """
import json, mmap, os, resource, sys
size = int(sys.argv[1])

def faults():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_stime, usage.ru_minflt

def touch(memory, value):
    for offset in range(0, size, mmap.PAGESIZE):
        memory[offset] = value

memory = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
system, count = faults()
touch(memory, 1)
system_after, count_after = faults()
fresh = (system_after - system, count_after - count)
reading, writing = os.pipe()
child = os.fork()
if child == 0:
    system, count = faults()
    touch(memory, 2)
    system_after, count_after = faults()
    os.write(writing, json.dumps([system_after - system, count_after - count]).encode())
    os._exit(0)
os.waitpid(child, 0)
copied = json.loads(os.read(reading, 1000))
print(json.dumps({"fresh": fresh, "copied": copied}))
"""


def fault_costs(gib: float) -> dict[str, float]:
    """Microseconds of kernel time per fault with `gib` GiB mapped, fresh and copy-on-write, in a process of its own."""
    size = int(gib * 2**30) // mmap.PAGESIZE * mmap.PAGESIZE
    done = subprocess.run([sys.executable, "-c", ONE_SIZE, str(size)], capture_output=True, text=True, check=True)
    measured = json.loads(done.stdout)
    return {way: 1e6 * seconds / max(count, 1) for way, (seconds, count) in measured.items()}


def folder_costs(count: int, parent: Path) -> dict[str, float]:
    """Microseconds of kernel and wall time per folder of three files, `count` of them created in `parent`."""
    parent.mkdir(parents=True)
    contents = {name: b"x" * size for name, size in PERSON_FILES.items()}
    started, usage = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
    for number in range(count):
        folder = f"{parent}/person-{number}"
        os.mkdir(folder)
        for name, data in contents.items():
            handle = os.open(f"{folder}/{name}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
            os.write(handle, data)
            os.close(handle)
    wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF)
    return {"kernel": 1e6 * (after.ru_stime - usage.ru_stime) / count, "wall": 1e6 * wall / count}


def cell(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})" if values else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gib", type=float, action="append", help="memory sizes, GiB (default: 0.4 and 4)")
    parser.add_argument("--folders", type=int, action="append", help="folder counts, 0 for none (default: 35000 and 350000)")
    parser.add_argument("--rounds", type=int, default=3, help="memory measurements of each size, sizes alternating (default: 3)")
    parser.add_argument("--workdir", type=Path, help="where the folders are made (default: a temporary folder)")
    parser.add_argument("--no-settle", action="store_true", help="do not write back and drop the kernel's caches before each folder size")
    args = parser.parse_args()
    sizes = args.gib or [0.4, 4.0]
    counts = [count for count in (args.folders or [35_000, 350_000]) if count > 0]
    print(command_line())
    print(machine())
    print(f"load before: {load_average():.2f}")

    faults: dict[float, list[dict[str, float]]] = {gib: [] for gib in sizes}
    for _ in range(args.rounds):
        for gib in sizes:
            faults[gib].append(fault_costs(gib))
    print("\n| GiB mapped by one process | kernel us per fault, fresh page: median (min-max) | kernel us per fault, copy-on-write after fork |")
    print("|---:|---|---|")
    for gib, rounds in faults.items():
        print(f"| {gib:g} | {cell([r['fresh'] for r in rounds])} | {cell([r['copied'] for r in rounds])} |")

    if counts:
        workdir = args.workdir or Path(tempfile.mkdtemp(prefix="sitegen-machine-"))
        trash = workdir / "trash"
        rows = []
        for count in counts:
            print(settle_file_system(args.no_settle), flush=True)
            parent = workdir / f"folders-{count}"
            set_aside(parent, trash)
            rows.append((count, folder_costs(count, parent)))
            set_aside(parent, trash)
        print("\n| folders of three files in one folder | kernel us per folder | wall us per folder |")
        print("|---:|---:|---:|")
        for count, costs in rows:
            print(f"| {count:,} | {costs['kernel']:.1f} | {costs['wall']:.1f} |")
        print(f"\nload after: {load_average():.2f}; deleting the folders made", flush=True)
        shutil.rmtree(trash, ignore_errors=True)
        if args.workdir is None:
            shutil.rmtree(workdir, ignore_errors=True)
    else:
        print(f"\nload after: {load_average():.2f}")


if __name__ == "__main__":
    if not hasattr(os, "fork") or not hasattr(mmap, "MAP_ANONYMOUS"):
        raise SystemExit("machine_costs.py needs fork and anonymous mmap (Linux)")
    main()
