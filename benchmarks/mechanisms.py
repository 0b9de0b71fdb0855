"""What each speed mechanism of the build saves: the build it targets, with and without it, in one run.

    python benchmarks/mechanisms.py                          # N = 1,000 and 10,000, 3 rounds
    python benchmarks/mechanisms.py --n 1000 --rounds 5 --only page-keys --only sandbox
    python benchmarks/mechanisms.py --commit HEAD --workdir /tmp/mech   # time a commit's copy; keep corpora
    python benchmarks/mechanisms.py --people --n 10000 --only write-workers   # on people.py's corpus

A mechanism is switched off in the process that builds, by patching sitegen
before it runs (see `switch_off`): a threshold set to infinity, a cache handed
an empty dict, a function replaced by the plain way of doing the same work. The
output is the same either way; only the time differs.

Every configuration (all mechanisms on, or one of them off) builds its own copy
of the corpus, so that one's cache never serves another. Each mechanism is timed
on the builds it targets:

- cold (no cache, no output): worker conversion, worker rendering, the sandbox, workers writing the new folder;
- no-change (the same `sitegen build` again): the up-to-date shortcut, digest reuse;
- edit (one record's title changed, then `sitegen build`, a new process as a user runs it):
  record files not re-read, converted text cached, page keys, unchanged bytes not rewritten, digest reuse;
- serve (the same edit, rebuilt by a long-lived `sitegen.serve.Preview` with the server's file-system events, from the poll
  that notices it to the rebuilt site): the same, and validated records kept in memory.

In each round every configuration of a build runs once, in an order that rotates
from round to round, so drift of the shared machine hits all alike; the load
average is noted with every run. "saves" is the median without the mechanism
minus the median with it, and its share of the build without it; "paired" is the
per-round ratio without/with, median (min-max). CPU seconds (user + system) come
beside wall time: for a command-line build they include its forked workers, for a
dev-server rebuild they are the server process's own. The table's verdict applies
the rule of issue 24 to wall time at the largest size (below 5 % of every build a
mechanism targets: remove); on a busy machine read it with the CPU figures and
the paired ranges (benchmarks/RESULTS.md does).
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from people import people_corpus
from run import (
    Code,
    Run,
    code_under_test,
    command_line,
    corpus,
    edit_one_record,
    load_average,
    machine,
    server_edit,
    set_aside,
    settle_file_system,
    started_server,
    timed,
    workdir_of,
)


@dataclass(frozen=True)
class Mechanism:
    name: str  # as --only and --off name it
    number: str  # as issue 24's list numbers it
    what: str
    builds: tuple[str, ...]  # the builds it targets: cold, noop, edit, serve


MECHANISMS = [
    Mechanism("up-to-date", "1", "up-to-date shortcut (inputs' fingerprints and output as the last build left them: stop)", ("noop",)),
    Mechanism("record-files", "2", "record files not re-read when their digest is unchanged (load.known_files, content.json)", ("edit", "serve")),
    Mechanism("validated-records", "3", "validated records kept per file in memory (dev server: Memory.records)", ("serve",)),
    Mechanism("converted", "4", "converted LaTeX/Markdown per record cached (enrich `converted`, content.json)", ("edit", "serve")),
    Mechanism("page-keys", "5", "page keys: a page whose inputs are unchanged is not rendered (render `previous_keys`)", ("edit", "serve")),
    Mechanism("convert-workers", "6", "records converted by forked workers (enrich.ENTRIES_WORTH_A_WORKER)", ("cold",)),
    Mechanism("render-workers", "7", "pages rendered by forked workers (render.PAGES_WORTH_A_WORKER)", ("cold",)),
    Mechanism("same-bytes", "8a", "unchanged bytes not rewritten (write._same_bytes)", ("edit", "serve")),
    Mechanism("digest-reuse", "8b", "input digests reused when stat is unchanged and not racy (inputs.Fingerprints)", ("noop", "edit", "serve")),
    Mechanism("sandbox", "9", "Jinja's ImmutableSandboxedEnvironment (off: a plain jinja2.Environment)", ("cold",)),
    Mechanism("fragments", "10", "per-record pieces of output (list items, BibTeX, RIS, records.json) kept between builds (Memory.fragments)", ("serve",)),
    Mechanism("write-workers", "11", "a new output folder's pages rendered and written by forked workers (write.FILES_WORTH_WORKERS)", ("cold",)),
    Mechanism(
        "collector-paused",
        "12",
        "the site model kept out of the cycle collector (one-off build: paused while loading, then gc.freeze; dev server: paused while rebuilding)",
        ("cold", "serve"),
    ),
    Mechanism("kept-entries", "13", "the dev server's entries kept from build to build (Memory.entries, enrich.KeptEntries)", ("serve",)),
    Mechanism(
        "kept-environment",
        "14",
        "the dev server's Jinja environment and compiled templates kept while the site-wide key holds (Fragments.environment)",
        ("serve",),
    ),
    Mechanism(
        "dict-lookup", "15", "a template's `value.key` on a plain dict answered without raising AttributeError first (theme.SiteSandbox.getattr)", ("cold",)
    ),
    Mechanism(
        "event-paths",
        "20",
        "the dev server looks again only at the paths the file system reported, not at every input (inputs.listing_with_changes)",
        ("serve",),
    ),
    Mechanism(
        "downloads-later",
        "21",
        "the dev server writes BibTeX, RIS, JSON and feeds a poll after the reload, or when one is asked for (build.Downloads)",
        ("serve",),
    ),
    Mechanism(
        "stamps-in-place",
        "22",
        "a build in place takes the mtimes of only the output folders above what it wrote or removed (write.folder_stamps `previous`)",
        ("edit", "serve"),
    ),
    Mechanism(
        "output-look-in-wait",
        "23",
        "the dev server looks at output/ while a change holds still for a poll, in a thread, and the build does not look again (serve.RebuildingWatcher.output_look)",
        ("serve",),
    ),
    Mechanism(
        "kept-directory",
        "24",
        "the dev server keeps the people directory's attribution while what it reads of the records holds (Fragments.value; people corpus)",
        ("serve",),
    ),
    Mechanism(
        "made-together",
        "25",
        "the pages made from every record (lists, exports) made by one of the processes that write a new folder, exports first (render.making_order)",
        ("cold",),
    ),
]
BY_NAME = {m.name: m for m in MECHANISMS}
BUILDS = ("cold", "noop", "edit", "serve")
REMOVE_BELOW = 0.05


# --- switching a mechanism off (runs in the building process) ---------------------------------


GONE = 3  # exit status of a building process asked to switch off a mechanism its code no longer has


def _needs(module, attribute: str, parameter: str | None = None) -> None:
    """Stop (status GONE) when the code timed no longer has what switching a mechanism off patches."""
    import inspect

    found = getattr(module, attribute, None)
    if found is None or (parameter and parameter not in inspect.signature(found).parameters):
        print(f"not in this code: {module.__name__}.{attribute}{f'({parameter}=...)' if parameter else ''}", file=sys.stderr)
        raise SystemExit(GONE)


def switch_off(name: str) -> None:
    """Patch sitegen so that mechanism `name` does nothing; the site built stays the same."""
    from sitegen import build, enrich, inputs, render, write

    try:  # the stages are patched where prepare_site finds them
        from sitegen import prepare as stages
    except ImportError:  # code timed from before sitegen/prepare.py: build.py imported them
        stages = build
    converter = stages if hasattr(stages, "enrich_site") else enrich
    from sitegen.cache import BuildCache

    needs = {
        "record-files": (stages, "load_site", "known_files"),
        "validated-records": (stages, "validate_site", "known"),
        "converted": (converter, "enrich_site", "converted"),
        "page-keys": (render, "render_site", "previous_keys"),
        "kept-entries": (converter, "enrich_site", "kept"),
        "convert-workers": (enrich, "ENTRIES_WORTH_A_WORKER", None),
        "render-workers": (render, "PAGES_WORTH_A_WORKER", None),
        "same-bytes": (write, "_same_bytes", None),
        "digest-reuse": (build, "Fingerprints", None),
        "write-workers": (write, "FILES_WORTH_WORKERS", None),
        "collector-paused": (build, "collector_paused", None),
        "made-together": (render, "making_order", None),
    }
    if name in needs:
        _needs(*needs[name])
    if name == "up-to-date":  # the last build's key never matches: the build goes on to its stages
        state = BuildCache.state.fget

        def forgetful_state(self):
            found = state(self)
            return dataclasses.replace(found, build_key="") if found.build_key else found

        BuildCache.state = property(forgetful_state)
    elif name == "record-files":
        load_site = stages.load_site
        stages.load_site = lambda listing, digests, known_files=None: load_site(listing, digests, {})
    elif name == "validated-records":
        validate_site = stages.validate_site
        stages.validate_site = lambda raw, known=None, theme_options=None: validate_site(raw, {}, theme_options)
    elif name == "converted":
        enrich_site = converter.enrich_site
        converter.enrich_site = lambda config, profile, records, site_dir, converted=None, kept=None, *rest: enrich_site(
            config, profile, records, site_dir, {}, kept, *rest
        )
    elif name == "kept-entries":  # every build makes its entries anew
        enrich_site = converter.enrich_site
        converter.enrich_site = lambda config, profile, records, site_dir, converted=None, kept=None, *rest: enrich_site(
            config, profile, records, site_dir, converted, None, *rest
        )
    elif name == "kept-environment":  # a new environment (templates compiled again) at every build
        from sitegen import fragments

        _needs(fragments.Fragments, "environment")
        fragments.Fragments.environment = lambda self, make: make()
    elif name == "page-keys":  # every page rendered; writing still skips the bytes that did not change
        render_site = render.render_site  # build_site imports it from sitegen.render when it runs
        render.render_site = lambda site, theme, listing, digests, site_key, previous_keys=None, *rest: render_site(
            site, theme, listing, digests, site_key, None, *rest
        )
    elif name == "convert-workers":
        enrich.ENTRIES_WORTH_A_WORKER = float("inf")
    elif name == "render-workers":
        render.PAGES_WORTH_A_WORKER = float("inf")
    elif name == "collector-paused":
        import contextlib

        from sitegen import serve

        build.collector_paused = serve.collector_paused = lambda freeze_after=False: contextlib.nullcontext()
    elif name == "write-workers":
        write.FILES_WORTH_WORKERS = float("inf")
    elif name == "made-together":  # every file in path order, spread among the processes span by span
        render.making_order = lambda pages: (render.makers(pages), 0)
    elif name == "same-bytes":
        write._same_bytes = lambda target, data: False
    elif name == "digest-reuse":  # every input file read and hashed at every build
        build.Fingerprints = lambda *known, **at: inputs.Fingerprints()
    elif name == "fragments":  # every build makes its pieces anew, as a one-off build does
        from sitegen import fragments

        _needs(fragments, "Fragments")
        start = fragments.Fragments.start

        def forgetful_start(self, site_key):
            self.keep_between_builds = False
            start(self, site_key)

        fragments.Fragments.start = forgetful_start
    elif name == "sandbox":  # theme.make_environment builds the same environment (loader, options, extensions), unsandboxed
        import inspect

        import jinja2.sandbox

        from sitegen import theme

        source = inspect.getsource(theme.make_environment)
        if "SiteSandbox(" in source:
            theme.SiteSandbox = jinja2.Environment
        elif "jinja2.sandbox.ImmutableSandboxedEnvironment(" in source:  # code from before SiteSandbox
            jinja2.sandbox.ImmutableSandboxedEnvironment = jinja2.Environment
        else:
            print("not in this code: theme.make_environment calling SiteSandbox(...)", file=sys.stderr)
            raise SystemExit(GONE)
    elif name == "dict-lookup":  # every `value.key` asks getattr first, as Jinja's own sandbox does
        import jinja2.sandbox

        from sitegen import theme

        _needs(theme, "SiteSandbox")
        theme.SiteSandbox.getattr = jinja2.sandbox.ImmutableSandboxedEnvironment.getattr
    elif name == "downloads-later":  # every dev-server build writes all its files before the reload
        from sitegen import serve

        _needs(serve, "Downloads")
        build_everything_now = serve.build_site
        serve.build_site = lambda *args, **options: build_everything_now(*args, **{**options, "downloads_later": False})
    elif name == "stamps-in-place":  # every build takes the mtime of every output folder
        _needs(write, "folder_stamps", "previous")
        stamp_every_folder = write.folder_stamps
        write.folder_stamps = lambda output_dir, manifest, previous=None, changed=(): stamp_every_folder(output_dir, manifest)
    elif name == "output-look-in-wait":  # the build looks at output/ itself
        from sitegen import serve

        _needs(serve.RebuildingWatcher, "_output_as_looked_at")
        serve.RebuildingWatcher._look_at_the_output = lambda self: None
        serve.RebuildingWatcher._output_as_looked_at = lambda self: None
    elif name == "kept-directory":  # every build works out who is whose again
        from sitegen import fragments

        _needs(fragments.Fragments, "value")
        fragments.Fragments.value = lambda self, name, key_of, make: make()
    elif name == "event-paths":  # every poll that looks lists every input, as without the paths
        from sitegen import serve

        _needs(serve, "listing_with_changes")
        serve.listing_with_changes = lambda listing, reported: None
    else:
        raise SystemExit(f"no mechanism {name!r}; there are: {', '.join(BY_NAME)}")


# --- the building processes ------------------------------------------------------------------------


def child_present(names: list[str]) -> int:
    """Print the mechanisms of `names` that the code timed still has (each checked in a process of its own)."""
    for name in names:
        result = subprocess.run([sys.executable, str(Path(__file__).resolve()), "child-check", name], capture_output=True, text=True, check=False)
        if result.returncode == 0:
            print(name)
        elif result.returncode != GONE:
            raise SystemExit(f"switching {name} off failed:\n{result.stderr}")
    return 0


def child_build(site: str, off: list[str]) -> int:
    """`sitegen build --site SITE`, as the command line runs it, with mechanisms `off` switched off."""
    for name in off:
        switch_off(name)
    from sitegen.cli import main

    return main(["build", "--site", site])


def child_serve(site: str, off: list[str]) -> int:
    """A dev server's Preview and watcher, driven by lines on stdin: `edit N` -> seconds of that rebuild (and its CPU seconds)."""
    with_cpu = "--with-cpu" in off
    off = [name for name in off if name != "--with-cpu"]

    for name in off:
        switch_off(name)
    preview, watcher = started_server(Path(site))
    print("ready", flush=True)
    for line in sys.stdin:
        command, _, counter = line.strip().partition(" ")
        if command != "edit":
            break
        seconds, cpu = server_edit(preview, watcher, int(counter))
        if preview.problems:
            print("failed: " + " | ".join(preview.problems), flush=True)
            return 1
        print(*([seconds, cpu] if with_cpu else [seconds]), flush=True)
    return 0


# --- the driver ---------------------------------------------------------------------------------------


@dataclass
class Config:
    off: str | None  # the mechanism switched off; None: all on
    site: Path

    @property
    def label(self) -> str:
        return "all on" if self.off is None else f"{self.off} off"


@dataclass
class Results:
    n: int
    times: dict[tuple[str, str | None], list[Run]] = field(default_factory=dict)  # (build, off) -> runs

    def add(self, build: str, off: str | None, run: Run) -> None:
        self.times.setdefault((build, off), []).append(run)


def build_command(code: Code, site: Path, off: str | None) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "child-build", str(site), *([off] if off else [])]


def copy_site(source: Path, target: Path) -> Path:
    """A copy of the corpus' content for one configuration (its own cache and output)."""
    if not (target / "content").is_dir():
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(source / "content", target / "content")
    return target


def rotated(items: list, by: int) -> list:
    by %= len(items)
    return items[by:] + items[:by]


def measure_size(n: int, mechanisms: list[Mechanism], rounds: int, serve_rounds: int, code: Code, work: Path, log, people: bool = False) -> Results:
    source, _ = people_corpus(n, work) if people else corpus(n, work)
    copies = work / (f"mech-people-n{n}" if people else f"mech-n{n}")
    trash = work / "trash"
    results = Results(n)
    configs = {None: Config(None, copy_site(source, copies / "all-on"))}
    for mechanism in mechanisms:
        configs[mechanism.name] = Config(mechanism.name, copy_site(source, copies / mechanism.name))

    def run_build(config: Config) -> Run:
        return timed(build_command(code, config.site, config.off), cwd=work, env=code.env)

    for build in ("cold", "noop", "edit"):
        offs = [m.name for m in mechanisms if build in m.builds]
        if not offs:
            continue
        members = [configs[None]] + [configs[name] for name in offs]
        for config in members:  # warm the page cache; a cache and output of this configuration's own
            run_build(config)
        for round_number in range(rounds):
            for config in rotated(members, round_number):
                if build == "cold":
                    set_aside(config.site / "output", trash)
                    set_aside(config.site / ".sitegen-cache", trash)
                elif build == "edit":
                    edit_one_record(config.site, 100 + round_number)
                run = run_build(config)
                results.add(build, config.off, run)
                log(f"n={n} {build} round {round_number + 1} {config.label}: {run.seconds:.3f} s, cpu {run.cpu:.3f} s (load {run.load:.1f})")
    offs = [m.name for m in mechanisms if "serve" in m.builds]
    if offs:
        members = [configs[None]] + [configs[name] for name in offs]
        servers = {}
        try:
            for config in members:
                command = [sys.executable, str(Path(__file__).resolve()), "child-serve", str(config.site), "--with-cpu", *([config.off] if config.off else [])]
                servers[config.off] = process = subprocess.Popen(
                    command, cwd=work, env=code.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
                )
                _answer(process)  # "ready": the first build
                _edit(process, 999)  # the first edit loads the content cache into memory: not what a later save costs
            for round_number in range(serve_rounds):
                for config in rotated(members, round_number):
                    load = load_average()
                    seconds, cpu = _edit(servers[config.off], 1000 + round_number)
                    results.add("serve", config.off, Run(seconds, load=load, cpu=cpu))
                    log(f"n={n} serve round {round_number + 1} {config.label}: {seconds:.3f} s, cpu {cpu:.3f} s (load {load:.1f})")
        finally:
            for process in servers.values():
                if process.stdin:
                    process.stdin.close()
                process.wait()
    return results


def _answer(process: subprocess.Popen) -> str:
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    if not line or line.startswith("failed"):
        raise SystemExit(f"the dev server's rebuild failed: {line or 'no answer'}")
    return line


def _edit(process: subprocess.Popen, counter: int) -> tuple[float, float]:
    """(wall, CPU) seconds of the rebuild after edit number `counter`."""
    assert process.stdin is not None
    process.stdin.write(f"edit {counter}\n")
    process.stdin.flush()
    seconds, cpu = _answer(process).split()
    return float(seconds), float(cpu)


# --- the report ----------------------------------------------------------------------------------------


def saving(results: Results, build: str, off: str) -> tuple[float, float, float, float, float, float, float] | None:
    """(with, without, saved seconds, share of the build without it, paired ratio median, min, max): wall time."""
    on_runs, off_runs = results.times.get((build, None)), results.times.get((build, off))
    if not on_runs or not off_runs:
        return None
    with_it = statistics.median(r.seconds for r in on_runs)
    without = statistics.median(r.seconds for r in off_runs)
    pairs = [b.seconds / a.seconds for a, b in zip(on_runs, off_runs)]
    return with_it, without, without - with_it, (without - with_it) / without, statistics.median(pairs), min(pairs), max(pairs)


def cpu_saving(results: Results, build: str, off: str) -> tuple[float, float, float, float] | None:
    """(with, without, share of the build without it, paired ratio median): CPU seconds, over the runs that have them."""
    pairs = [(a.cpu, b.cpu) for a, b in zip(results.times.get((build, None), []), results.times.get((build, off), [])) if a.cpu and b.cpu]
    if not pairs:
        return None
    with_it, without = statistics.median(a for a, _ in pairs), statistics.median(b for _, b in pairs)
    return with_it, without, (without - with_it) / without, statistics.median(b / a for a, b in pairs)


def table(all_results: list[Results], mechanisms: list[Mechanism]) -> str:
    """One row per mechanism and build it targets; the verdict from the largest size.

    The sandbox (9) is no speed mechanism: issue 26 requires it, and its row gives its cost.
    """
    sizes = [r.n for r in all_results]
    head = (
        "| # | mechanism | build | "
        + " | ".join(f"N={n:,}: wall with / without s (saves, share; paired ratio); CPU with / without s (share; paired ratio)" for n in sizes)
        + " | verdict |"
    )
    lines = [head, "|" + "---|" * (4 + len(sizes))]
    for mechanism in mechanisms:
        verdict_share = []
        for build in mechanism.builds:
            cells = []
            for results in all_results:
                found = saving(results, build, mechanism.name)
                if found is None:
                    cells.append("-")
                    continue
                with_it, without, saved, share, paired, low, high = found
                cell = f"{with_it:.3f} / {without:.3f} ({saved:+.3f} s, {share:+.0%}; {paired:.2f} ({low:.2f}-{high:.2f}))"
                cpu = cpu_saving(results, build, mechanism.name)
                if cpu is not None:
                    cell += f"; CPU {cpu[0]:.2f} / {cpu[1]:.2f} ({cpu[2]:+.0%}; paired {cpu[3]:.2f})"
                cells.append(cell)
                if results.n == max(sizes):
                    verdict_share.append((share, build, low, high))
            lines.append(f"| {mechanism.number} | {mechanism.name} | {build} | " + " | ".join(cells) + " | |")
        if verdict_share:
            best, build, low, high = max(verdict_share)
            noisy = " (paired ratios on both sides of 1.0: within noise)" if low <= 1.0 <= high else ""
            if mechanism.name == "sandbox":
                cpu = cpu_saving(all_results[-1], "cold", mechanism.name)
                cpu_cost = f", {1 / cpu[3] - 1:+.0%} CPU (paired)" if cpu else ""
                verdict = f"required by issue 26; costs {-best:+.0%} wall{cpu_cost} of the cold build at {max(sizes):,}"
            elif best >= REMOVE_BELOW:
                verdict = f"keep: saves {best:.0%} of {build} at {max(sizes):,}"
            else:
                verdict = f"remove: < 5 % (best {best:.1%}, {build}) at {max(sizes):,}"
            lines[-1] = lines[-1][: -len("| |")] + f"| {verdict}{noisy} |"
    baseline = []
    for results in all_results:
        for build in BUILDS:
            runs = results.times.get((build, None))
            if runs:
                loads = [r.load for r in runs]
                seconds = [r.seconds for r in runs]
                baseline.append(
                    f"N={results.n:,} {build}, all on: {statistics.median(seconds):.3f} s ({min(seconds):.3f}-{max(seconds):.3f}), "
                    f"load {statistics.median(loads):.1f} (min {min(loads):.1f}, max {max(loads):.1f}) over its {len(runs)} runs"
                )
    return "\n".join(lines) + "\n\n" + "\n".join(f"- {line}" for line in baseline)


LOG_LINE = re.compile(r"^n=(\d+) (\w+) round (\d+) (all on|[\w-]+ off): ([\d.]+) s(?:, cpu ([\d.]+) s)? \(load ([\d.]+)\)$")


def results_from_logs(paths: list[Path]) -> list[Results]:
    """The runs of earlier invocations, from the lines they printed on stderr (one log after another)."""
    by_size: dict[int, Results] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            match = LOG_LINE.match(line.strip())
            if match:
                n, build, _, label, seconds, cpu, load = match.groups()
                off = None if label == "all on" else label[: -len(" off")]
                by_size.setdefault(int(n), Results(int(n))).add(build, off, Run(float(seconds), load=float(load), cpu=float(cpu or 0)))
    return [by_size[n] for n in sorted(by_size)]


def main() -> None:
    import argparse

    if len(sys.argv) > 1 and sys.argv[1] == "table":  # python benchmarks/mechanisms.py table LOG [LOG ...]
        all_results = results_from_logs([Path(p) for p in sys.argv[2:]])
        found = {off for results in all_results for (_, off) in results.times}
        print(table(all_results, [m for m in MECHANISMS if m.name in found]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "child-build":
        raise SystemExit(child_build(sys.argv[2], sys.argv[3:]))
    if len(sys.argv) > 1 and sys.argv[1] == "child-serve":
        raise SystemExit(child_serve(sys.argv[2], sys.argv[3:]))
    if len(sys.argv) > 1 and sys.argv[1] == "child-check":
        switch_off(sys.argv[2])
        raise SystemExit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "child-present":
        raise SystemExit(child_present(sys.argv[2:]))
    parser = argparse.ArgumentParser(description="each speed mechanism on and off, on the builds it targets")
    parser.add_argument("--n", type=int, action="append", help="corpus sizes (default: 1000, 10000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of CLI builds (default: 3)")
    parser.add_argument("--serve-rounds", type=int, default=5, help="rounds of dev-server edits (default: 5)")
    parser.add_argument("--only", action="append", choices=list(BY_NAME), help="these mechanisms only")
    parser.add_argument("--commit", metavar="REV", help="time sitegen as committed at REV (a copy)")
    parser.add_argument("--workdir", type=Path, metavar="DIR", help="keep corpora and copies here (default: a temporary folder)")
    parser.add_argument("--quiet", action="store_true", help="no line per run")
    parser.add_argument("--people", action="store_true", help="the people-directory corpus of people.py (a page for every author) instead of the main one")
    parser.add_argument("--no-settle", action="store_true", help="do not write back and drop the kernel's caches before timing")
    args = parser.parse_args()
    mechanisms = [m for m in MECHANISMS if not args.only or m.name in args.only]
    sizes = sorted(args.n or [1000, 10000])
    log = (lambda line: None) if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    with workdir_of(args, "sitegen-mechanisms-") as tmp:
        work = Path(tmp)
        code = code_under_test(args.commit, work)
        print(f"sitegen: {code.described}")
        print(f"machine: {machine()}; load {load_average():.1f} at start; pid {os.getpid()}")
        print(settle_file_system(args.no_settle))
        print(command_line(), flush=True)
        check = [sys.executable, str(Path(__file__).resolve()), "child-present", *(m.name for m in mechanisms)]
        present = set(subprocess.run(check, cwd=work, env=code.env, capture_output=True, text=True, check=True).stdout.split())
        if gone := [m.name for m in mechanisms if m.name not in present]:
            print(f"not in this code (removed), not timed: {', '.join(gone)}", flush=True)
        mechanisms = [m for m in mechanisms if m.name in present]
        all_results = []
        for n in sizes:
            all_results.append(measure_size(n, mechanisms, args.rounds, args.serve_rounds, code, work, log, args.people))
            print(f"\n## after N={n:,}\n\n" + table(all_results, mechanisms), flush=True)
        if args.workdir is not None:
            shutil.rmtree(work / "trash", ignore_errors=True)


if __name__ == "__main__":
    main()
