"""What mechanism 26 saves: each template compiled once per process (`theme.CompiledTemplates`).

    python benchmarks/compiled_templates.py [--n 1000] [--rounds 5] [--edits 5] [--suite-rounds 3] [--workdir DIR]

Two builds it targets, each timed with the compiled templates kept (on) and with
Jinja compiling every template again for each new environment (off: the code
before it), on and off alternating round by round:

- the dev server's rebuild after a template edit (a theme designer saving the
  site's `templates/base.html`, which extends the theme's and adds a line to its
  footer): a server on the demo site and one on an N-record corpus, each in a
  process of its own, timed as run.server_edit times an edit (the poll that
  notices the change and the poll that builds it, to the reload);
- the quick test suite (`pytest`, the fast set, without the three tests of the
  mechanism itself), whose workers build hundreds of small sites each.

It times the work tree's sitegen (run it from a clean checkout of the commit
named); on a machine shared with other work, read the CPU seconds.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
REPO = BENCHMARKS.parent
sys.path.insert(0, str(BENCHMARKS))

from run import corpus, load_average, server_edit, started_server  # noqa: E402

BASE = """{{% extends "!theme/base.html" %}}
{{% block footer %}}{{{{ super() }}}}<p class="edit">Edited {counter}</p>{{% endblock %}}
"""


def switch_off() -> None:
    """Jinja compiles every template for each new environment, as it did before mechanism 26."""
    import jinja2

    import sitegen.theme

    class NothingKept(jinja2.BytecodeCache):
        def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            pass

        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            pass

    sitegen.theme.COMPILED_TEMPLATES = NothingKept()  # type: ignore[assignment]


def pytest_configure(config) -> None:
    """As a pytest plugin (`-p compiled_templates`, in each xdist worker too): switched off."""
    switch_off()


def edit_base_template(site: Path, counter: int) -> None:
    (site / "templates" / "base.html").write_text(BASE.format(counter=counter), encoding="utf-8")


def child_serve(site: Path, edits: int, off: bool) -> None:
    """Start a dev server on `site`, then time `edits` template edits: a line 'seconds cpu' each."""
    if off:
        switch_off()
    (site / "templates").mkdir(exist_ok=True)
    edit_base_template(site, 0)
    preview, watcher = started_server(site)
    for counter in range(1, edits + 1):
        seconds, cpu = server_edit(preview, watcher, counter, edit_base_template)
        if preview.problems:
            raise SystemExit("the rebuild failed: " + " | ".join(preview.problems))
        page = (site / "output" / "index.html").read_text(encoding="utf-8")
        if f"Edited {counter}<" not in page:
            raise SystemExit("the edit is not on the home page")
        print(seconds, cpu, flush=True)


def serve_round(site: Path, edits: int, off: bool, work: Path) -> list[tuple[float, float]]:
    copy = work / ("off" if off else "on")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(site / "content", copy / "content")
    command = [sys.executable, str(Path(__file__).resolve()), "child-serve", str(copy), str(edits), *(["off"] if off else [])]
    result = subprocess.run(command, capture_output=True, text=True, cwd=work, check=False)
    if result.returncode != 0:
        raise SystemExit(f"the dev server failed:\n{result.stderr}")
    return [(float(wall), float(cpu)) for wall, cpu in (line.split() for line in result.stdout.splitlines())]


def suite_round(off: bool) -> tuple[float, float]:
    """(wall, CPU of pytest and its workers) seconds of the quick suite."""
    # the same tests either way: those of the mechanism itself (which fail without it) left out of both
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "not compiled", *(["-p", "compiled_templates"] if off else [])]
    env = {**__import__("os").environ, "PYTHONPATH": str(BENCHMARKS)}
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = __import__("os").wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"the quick suite failed ({'off' if off else 'on'})")
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


def report(name: str, on: list[tuple[float, float]], off: list[tuple[float, float]]) -> None:
    wall_on, wall_off = statistics.median(r[0] for r in on), statistics.median(r[0] for r in off)
    cpu_on, cpu_off = statistics.median(r[1] for r in on), statistics.median(r[1] for r in off)
    print(
        f"| {name} | {wall_on:.3f} | {wall_off:.3f} | {(wall_off - wall_on) / wall_off:.0%} | {cpu_on:.3f} | {cpu_off:.3f} | {(cpu_off - cpu_on) / cpu_off:.0%} |"
    )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "child-serve":
        child_serve(Path(sys.argv[2]), int(sys.argv[3]), off=sys.argv[4:] == ["off"])
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1000, help="records of the corpus served beside the demo site")
    parser.add_argument("--rounds", type=int, default=5, help="dev-server rounds, each a new server per configuration")
    parser.add_argument("--edits", type=int, default=5, help="template edits per server")
    parser.add_argument("--suite-rounds", type=int, default=3, help="quick-suite runs per configuration (0: none)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/sgbench/compiled"))
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    demo = args.workdir / "demo"
    shutil.rmtree(demo, ignore_errors=True)
    shutil.copytree(REPO / "content", demo / "content")
    sites = {"demo site": demo, f"{args.n:,} records": corpus(args.n, args.workdir)[0]}
    print(f"started {time.strftime('%Y-%m-%d %H:%M')}, load {load_average():.1f}", file=sys.stderr)
    print("| build | wall s on | wall s off | saved | CPU s on | CPU s off | saved |\n|---|---:|---:|---:|---:|---:|---:|")
    for name, site in sites.items() if args.rounds else ():
        times: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        for round_number in range(args.rounds):
            for off in (False, True) if round_number % 2 == 0 else (True, False):
                times[off] += serve_round(site, args.edits, off, args.workdir)
        report(f"dev server, template edit, {name}", times[False], times[True])
    if args.suite_rounds:
        suite: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        for round_number in range(args.suite_rounds):
            for off in (False, True) if round_number % 2 == 0 else (True, False):
                suite[off].append(suite_round(off))
        report("quick test suite (`pytest`)", suite[False], suite[True])
    print(f"ended {time.strftime('%Y-%m-%d %H:%M')}, load {load_average():.1f}", file=sys.stderr)


if __name__ == "__main__":
    main()
