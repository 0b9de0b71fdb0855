"""The benchmark scripts still run against the current code (at 50 records, without Hugo), and a
mechanism switched off by benchmarks/mechanisms.py changes the time of a build, never its output."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import REPO, tree

BENCHMARKS = REPO / "benchmarks"
pytestmark = pytest.mark.slow


def run_script(name: str, *args: str, cwd: Path) -> str:
    """A benchmark script's output; the machine's caches are left alone (the suite runs beside it)."""
    result = subprocess.run([sys.executable, str(BENCHMARKS / name), *args, "--no-settle"], cwd=cwd, capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def benchmark_module(name: str) -> ModuleType:
    """A module of benchmarks/ (not a package), imported without leaving the folder on sys.path."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))


def built_corpus(records: int, folder: Path) -> Path:
    """make_corpus.py's site of `records` records, built once."""
    site, _ = benchmark_module("make_corpus").make_corpus(records, folder / "corpus")
    subprocess.run([sys.executable, "-m", "sitegen", "build", "--site", str(site)], cwd=folder, check=True, capture_output=True)
    return site


def test_run_prints_every_figure(tmp_path: Path) -> None:
    out = run_script("run.py", "--n", "50", "--runs", "1", "--no-hugo", "--workdir", str(tmp_path / "work"), cwd=tmp_path)
    for figure in (
        "cold build",
        "no-change rebuild",
        "one-record edit (CLI)",
        "dev-server edit (rebuild in process, to the reload)",
        "... then the downloads it left, written a poll later",
        "dev-server edit (`sitegen serve`",
        "peak memory",
    ):
        assert f"| 50 | {figure}" in out, out


def test_growth_runs(tmp_path: Path) -> None:
    out = run_script("growth.py", "--n", "30", "--n", "50", "--rounds", "1", "--no-hugo", cwd=tmp_path)
    assert "sitegen: median cold build 30:" in out, out


def test_stages_times_each_stage_of_a_cold_build_at_each_size(tmp_path: Path) -> None:
    out = run_script("stages.py", "--people", "--n", "30", "--n", "60", "--workdir", str(tmp_path / "work"), cwd=tmp_path)
    for size in ("30", "60"):
        assert f"## {size} records (people directory)" in out, out
    stages = ("listing and hashing the inputs", "loading input files", "listing the pages of records", "rendering and writing files", "saving the build cache")
    growth = out.split("## growth 30 -> 60 (2x the records)", 1)[1]
    for stage in stages:
        assert re.search(rf"^\| {stage} \| [\d.]+ \| [\d.]+ \| [\d.]+ \| \d+ \|$", out, re.M), (stage, out)
        assert re.search(rf"^\| {stage} \| (-|[\d.]+x) \|", growth, re.M), (stage, out)
    assert (tmp_path / "work" / "people-n60" / "sitegen" / "output" / "people" / "index.html").is_file()


def test_machine_costs_prints_the_cost_per_fault_and_per_folder_at_each_size(tmp_path: Path) -> None:
    sizes = "--gib 0.01 --gib 0.02 --folders 20 --folders 40 --rounds 2".split()
    out = run_script("machine_costs.py", *sizes, "--workdir", str(tmp_path / "work"), cwd=tmp_path)
    for gib in ("0.01", "0.02"):
        assert re.search(rf"^\| {gib} \| [\d.]+ \([\d.]+-[\d.]+\) \| [\d.]+ \([\d.]+-[\d.]+\) \|$", out, re.M), out
    for count in ("20", "40"):
        assert re.search(rf"^\| {count} \| [\d.]+ \| [\d.]+ \|$", out, re.M), out
    assert not (tmp_path / "work" / "trash").exists()  # the folders it made are gone


def test_mechanisms_table(tmp_path: Path) -> None:
    args = ["--n", "50", "--rounds", "1", "--serve-rounds", "1", "--quiet", "--workdir", str(tmp_path / "work")]
    out = run_script("mechanisms.py", *args, "--only", "up-to-date", "--only", "validated-records", "--only", "sandbox", "--only", "dict-lookup", cwd=tmp_path)
    for row in ("| 1 | up-to-date | noop |", "| 3 | validated-records | serve |", "| 9 | sandbox | cold |", "| 15 | dict-lookup | cold |"):
        assert row in out, out


def test_mechanisms_on_the_people_corpus(tmp_path: Path) -> None:
    args = ["--people", "--n", "30", "--rounds", "1", "--quiet", "--workdir", str(tmp_path / "work")]
    out = run_script("mechanisms.py", *args, "--only", "write-workers", "--only", "collector-paused", cwd=tmp_path)
    for row in ("| 11 | write-workers | cold |", "| 12 | collector-paused | cold |"):
        assert row in out, out
    site = tmp_path / "work" / "mech-people-n30" / "all-on"
    assert "people: authors" in (site / "content" / "site.yaml").read_text()
    assert (site / "output" / "people" / "index.html").is_file()


def test_mechanisms_gone_from_the_code_are_named_not_timed(tmp_path: Path) -> None:
    args = ["--n", "30", "--rounds", "1", "--quiet", "--workdir", str(tmp_path / "work")]
    out = run_script("mechanisms.py", *args, "--only", "render-workers", "--only", "up-to-date", cwd=tmp_path)
    from sitegen import render

    if hasattr(render, "PAGES_WORTH_A_WORKER"):
        assert "| 7 | render-workers | cold |" in out, out
    else:
        assert "not in this code (removed), not timed: render-workers" in out, out
        assert "| 7 | render-workers" not in out, out


def test_a_mechanism_switched_off_builds_the_same_site(tmp_path: Path) -> None:
    mechanisms = benchmark_module("mechanisms")
    edit_one_record = benchmark_module("run").edit_one_record
    site = built_corpus(40, tmp_path)
    for counter, mechanism in enumerate(mechanisms.MECHANISMS):
        edit_one_record(site, counter)  # each build has work to do: one record changed since the last
        build = [sys.executable, str(BENCHMARKS / "mechanisms.py"), "child-build", str(site), mechanism.name]
        result = subprocess.run(build, cwd=tmp_path, capture_output=True, text=True, check=False)
        if result.returncode == mechanisms.GONE:  # removed from the code since: nothing to switch off
            continue
        assert result.returncode == 0, (mechanism.name, result.stderr)
        clean = tmp_path / f"clean-{counter}"
        subprocess.run(
            [sys.executable, "-m", "sitegen", "build", "--site", str(site), "--no-cache", "--output", str(clean)], cwd=tmp_path, check=True, capture_output=True
        )
        assert tree(site / "output") == tree(clean), mechanism.name


@pytest.mark.parametrize(
    ("script", "args", "printed", "ways"),
    [
        ("serve_latency.py", ["--seconds", "1"], " requests, median ", [([], "look in a thread: "), (["--look-on-loop"], "look on the loop: ")]),
        ("serve_edits.py", ["--edits", "2"], "save to built, 2 edits: median ", [([], "polled on the event: "), (["--poll-at-ticks"], "at the next tick: ")]),
    ],
)
def test_the_serve_benchmarks_time_both_ways(tmp_path: Path, script: str, args: list[str], printed: str, ways: list[tuple[list[str], str]]) -> None:
    """serve_latency.py (the look while idle in a thread, and on the loop) and serve_edits.py (a change polled for
    on its event, and at the next tick), each on a built site of 30 records."""
    site = built_corpus(30, tmp_path)
    for option, said in ways:
        command = [sys.executable, str(BENCHMARKS / script), str(site), *args, *option]
        result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
        assert result.returncode == 0, result.stdout + result.stderr
        assert said in result.stdout and printed in result.stdout, result.stdout


def test_compare_commits_times_each_commit_round_by_round(tmp_path: Path) -> None:
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
    out = run_script(
        "compare_commits.py", "--commit", "HEAD", "--commit", head, "--n", "30", "--rounds", "2", "--workdir", str(tmp_path / "work"), cwd=tmp_path
    )
    assert out.count(": wall ") == 4, out  # two rounds, each commit once
    for commit in ("HEAD", head):
        assert re.search(rf"^\| `{commit}` \| [0-9.]+ \([0-9.]+-[0-9.]+\) \| [0-9.]+ \([0-9.]+-[0-9.]+\) \|$", out, re.MULTILINE), out
    assert not list((tmp_path / "work").glob("compare-out-*"))  # the outputs are removed after the timing


def test_serve_stages_times_each_stage_of_an_edit_for_each_commit(tmp_path: Path) -> None:
    out = run_script("serve_stages.py", "--commit", "HEAD", "--n", "30", "--rounds", "2", "--edits", "3", "--workdir", str(tmp_path / "work"), cwd=tmp_path)
    assert len(re.findall(r"^round \d+ HEAD: edit wall median", out, re.MULTILINE)) == 2, out  # lines, not words: a commit's subject may say "around"
    for row in ("edit, wall s", "edit, CPU s", "`build_site`, CPU ms", "`enrich_site`, CPU ms", "`render_site`, CPU ms", "`write_output`, CPU ms"):
        assert re.search(rf"^\| {re.escape(row)} \| [0-9.]+ \|$", out, re.MULTILINE), (row, out)
    assert float(re.search(r"^\| `build_site`, CPU ms \| ([0-9.]+) \|$", out, re.MULTILINE)[1]) > 0, out  # the stages were timed
