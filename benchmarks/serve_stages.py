"""Where a dev-server edit's time goes: each stage of the rebuild timed in a running server, one or more commits.

    python benchmarks/serve_stages.py --commit f8a73cf --commit HEAD --n 10000 --rounds 2 --workdir /tmp/sgbench/work

Each commit's server (`run.started_server`, in a process of its own, with the commit's copy of
sitegen first on PYTHONPATH) builds its own copy of the corpus, then takes one-record edits as
`run.server_edit` makes them; every stage function named in STAGES is wrapped in a timer. The first
edit of each round is left out (it reads every record file once). Rounds alternate the commits'
order, so the machine's drift touches all alike. Printed per commit: the edit's wall and CPU time
(the server process's, `time.process_time`), and each stage's CPU milliseconds per edit (medians
over the edits of all rounds); stages nest (`build_site` holds the others).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from run import code_under_test, corpus, load_average, settle_file_system

# (module, function) of the rebuild's stages, outermost first: the names build.py and its stages call them by
STAGES = (
    ("sitegen.build", "build_site"),
    ("sitegen.prepare", "prepare_site"),
    ("sitegen.load", "load_site"),
    ("sitegen.validate", "validate_site"),
    ("sitegen.enrich", "enrich_site"),
    ("sitegen.merge", "merge_works"),
    ("sitegen.enrich", "unique_cite_keys"),
    ("sitegen.notices", "attach_notices"),
    ("sitegen.render", "render_site"),
    ("sitegen.render", "_all_pages"),
    ("sitegen.render", "address_conflicts"),
    ("sitegen.render", "links_to_nothing"),
    ("sitegen.write", "write_output"),
)

SERVER = """
import functools, importlib, json, sys, time
from pathlib import Path
sys.path.insert(0, {benchmarks!r})
from run import server_edit, started_server
preview, watcher = started_server(Path({site!r}))
spent = {{}}

def timer(name, function):
    @functools.wraps(function)
    def timed(*args, **kwargs):
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.process_time() - started
    return timed

for module_name, function_name in {stages!r}:
    original = getattr(importlib.import_module(module_name), function_name)
    wrapped = timer(function_name, original)
    for module in list(sys.modules.values()):  # the module itself and each that imported the name
        if getattr(module, "__name__", "").startswith("sitegen") and getattr(module, function_name, None) is original:
            setattr(module, function_name, wrapped)
for attempt in range({edits}):
    spent.clear()
    wall, cpu = server_edit(preview, watcher, {first} + attempt)
    print(json.dumps({{"wall": wall, "cpu": cpu, "stages": spent}}), flush=True)
    preview.write_downloads()  # what the next idle poll writes, outside the edit's time
"""


def edits_of(commit_site: Path, code_env: dict[str, str], cwd: Path, edits: int, first: int) -> list[dict]:
    script = SERVER.format(benchmarks=str(Path(__file__).resolve().parent), site=str(commit_site), stages=STAGES, edits=edits, first=first)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=code_env, cwd=cwd, check=False)
    if result.returncode != 0:
        raise SystemExit(f"the server's edits failed:\n{result.stderr}")
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")][1:]  # the first reads every file


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", action="append", required=True, help="a commit to time (one or more)")
    parser.add_argument("--n", type=int, default=10000, help="corpus size (default 10000)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--edits", type=int, default=6, help="edits per round, the first left out (default 6)")
    parser.add_argument("--workdir", type=Path, default=None, help="keep the corpus here and reuse it")
    parser.add_argument("--no-settle", action="store_true", help="do not write back and drop the kernel's caches before timing")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="sitegen-serve-stages-"))
    site, _ = corpus(args.n, workdir)
    codes, sites = {}, {}
    for commit in args.commit:
        folder = workdir / f"serve-stages-{commit}"
        codes[commit] = code_under_test(commit, folder)
        sites[commit] = folder / "site"
        if not sites[commit].exists():  # a copy per commit: each server's cache and output are its own
            shutil.copytree(site, sites[commit], ignore=shutil.ignore_patterns("output", ".sitegen-cache"))
    print(
        f"command: python benchmarks/serve_stages.py {' '.join(f'--commit {c}' for c in args.commit)} --n {args.n} --rounds {args.rounds} --edits {args.edits}"
    )
    for commit in args.commit:
        print(f"{commit}: {codes[commit].described}")
    print(settle_file_system(args.no_settle))
    results: dict[str, list[dict]] = {commit: [] for commit in args.commit}
    for round_number in range(args.rounds):
        order = args.commit if round_number % 2 == 0 else list(reversed(args.commit))
        for commit in order:
            load = load_average()
            edits = edits_of(sites[commit], codes[commit].env, workdir / f"serve-stages-{commit}", args.edits, 9000 + 100 * round_number)
            results[commit] += edits
            print(f"round {round_number + 1} {commit}: edit wall median {statistics.median(e['wall'] for e in edits):.3f} s (load {load:.1f})", flush=True)
    print("| | " + " | ".join(f"`{commit}`" for commit in args.commit) + " |\n|---|" + "---:|" * len(args.commit))
    print("| edit, wall s | " + " | ".join(f"{statistics.median(e['wall'] for e in results[c]):.3f}" for c in args.commit) + " |")
    print("| edit, CPU s | " + " | ".join(f"{statistics.median(e['cpu'] for e in results[c]):.3f}" for c in args.commit) + " |")
    for _, name in STAGES:
        cells = [f"{1000 * statistics.median(e['stages'].get(name, 0.0) for e in results[c]):.1f}" for c in args.commit]
        print(f"| `{name}`, CPU ms | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    sys.exit(main())
