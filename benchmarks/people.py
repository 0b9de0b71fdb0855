"""A page for every author: sitegen's `people: authors` against Hugo's `authors` taxonomy, same corpus, same run.

    python benchmarks/people.py                         # 10,000 records, 3 cold builds of each tool
    python benchmarks/people.py --n 10000 --n 100000 --runs 1 --workdir /tmp/people-bench
    python benchmarks/people.py --no-hugo --commit HEAD

The corpus is make_corpus.py --people: about 3N authors working in labs, 5 % of
their names held by two or three people. sitegen builds a page per author
(namesakes split by co-authors) with its BibTeX and feed, and every other page
of the site; Hugo builds the same records with an `authors` taxonomy (a page
per name: namesakes merged) beside its `subjects`.

Each round makes one cold build (no output, no cache) of every size with sitegen
and then Hugo, so the tools alternate run by run and the sizes are measured under
one state of the machine (it is shared: the 1-minute load average of each run is
printed). Figures: median (min-max) seconds, the peak RSS of the largest process
and the peak summed PSS of the process tree (sitegen forks workers), the ratio
of medians, and the growth from each size to the next. Then how sitegen split the
namesakes, against the corpus's truth.json: people whose records went to more
than one page (split too far) and pages holding two people's records (merged).
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_corpus import make_people_corpus
from run import (
    Run,
    benchmark_arguments,
    clear_site_state,
    code_under_test,
    command_line,
    hugo_command,
    load_summary,
    machine,
    median,
    peak,
    set_aside,
    settle_file_system,
    sitegen_command,
    summary,
    timed,
    tree_peak,
    workdir_of,
)


def people_corpus(n: int, workdir: Path) -> tuple[Path, Path]:
    """The --people corpus of n records under workdir/people-n<n> (made once, then reused)."""
    root = workdir / f"people-n{n}"
    done = root / ".made"
    if not done.exists():
        make_people_corpus(n, root)
        done.write_text(f"{n} records, make_corpus --people seed 42\n")
    return root / "sitegen", root / "hugo"


def how_namesakes_were_split(site: Path) -> dict[str, int]:
    """sitegen's people against who each author really is (truth.json beside the corpus)."""
    from sitegen.people.attribution import attribute
    from sitegen.people.files import MemberLinks
    from sitegen.people.names import person_key
    from sitegen.prepare import prepare_site, read_inputs

    truth = json.loads((site.parent / "truth.json").read_text(encoding="utf-8"))
    listing, digests = read_inputs(site)
    entries = prepare_site(site, listing, digests).site.entries
    directory = attribute(entries, (), MemberLinks({}, {}, {}, {}, ()), True)
    who: dict[tuple[str, str], int] = {}  # (record id, name key) -> the person (truth)
    names_of: dict[str, set[int]] = defaultdict(set)  # name key -> the people who hold it
    for entry in entries:
        for author, person in zip(entry.record.authors, truth[entry.id]):
            who[(entry.id, person_key(author))] = person
            names_of[person_key(author)].add(person)
    pages_of: dict[int, set[str]] = defaultdict(set)
    merged = 0
    for slug, person in directory.people.items():
        people = {who[(entries[p].id, person.key)] for p in person.positions}
        merged += len(people) > 1
        for one in people:
            pages_of[one].add(slug)
    shared = {key for key, people in names_of.items() if len(people) > 1}
    return {
        "records": len(entries),
        "people (truth)": len(pages_of),
        "pages": len(directory.people),
        "names held by 2+ people": len(shared),
        "people holding them": sum(len(names_of[key]) for key in shared),
        "pages of those names": sum(1 for person in directory.people.values() if person.key in shared),
        "people on 2+ pages (split too far)": sum(1 for pages in pages_of.values() if len(pages) > 1),
        "pages with 2+ people (merged)": merged,
    }


def main() -> None:
    args, sizes, hugo = benchmark_arguments(
        "people: authors vs Hugo's authors taxonomy, same corpus, same run", [10000], "--runs", "cold builds per tool and size"
    )
    tools = ["sitegen", "hugo"] if hugo else ["sitegen"]
    with workdir_of(args, "sitegen-people-") as tmp:
        work = Path(tmp)
        trash = work / "trash"
        code = code_under_test(args.commit, work)
        print(f"sitegen: {code.described}")
        print(f"machine: {machine()}; {args.runs} cold builds of each tool per size, alternated")
        print(settle_file_system(args.no_settle))
        print(command_line(), flush=True)
        corpora = {n: people_corpus(n, work) for n in sizes}
        runs: dict[tuple[int, str], list[Run]] = {(n, tool): [] for n in sizes for tool in tools}
        for round_number in range(1, args.runs + 1):
            for n, (site, hugo_site) in corpora.items():
                clear_site_state(site, trash)
                runs[(n, "sitegen")].append(
                    timed(sitegen_command(site), cwd=work, env=code.env, tree=not args.no_tree)
                )  # not in the repository: -m would import its sitegen
                if hugo:
                    hugo_out = site.parent / "hugo-out"
                    set_aside(hugo_out, trash)
                    runs[(n, "hugo")].append(timed(hugo_command(hugo, hugo_site, hugo_out), tree=not args.no_tree))
                cells = ", ".join(
                    f"{tool} {runs[(n, tool)][-1].seconds:.1f} s ({runs[(n, tool)][-1].peak_mib:.0f} MiB, load {runs[(n, tool)][-1].load:.1f})"
                    for tool in tools
                )
                print(f"round {round_number}, {n:,} records: {cells}", file=sys.stderr, flush=True)
        print()
        print(
            f"{'N':>7} | {'people':>7} | {'sitegen cold s':>22} | {'RSS MiB':>7} | {'tree MiB':>8} | {'Hugo cold s':>22} | {'RSS MiB':>7} | {'tree MiB':>8} | {'sitegen/Hugo':>12} | load (sitegen; Hugo)"
        )
        for n, (site, _) in corpora.items():
            ours, theirs = runs[(n, "sitegen")], runs.get((n, "hugo"), [])
            pages = sum(1 for _ in (site / "output" / "people").iterdir()) - 1 if (site / "output" / "people").exists() else 0
            ratio = f"{median(ours) / median(theirs):.2f}x" if theirs else "-"
            print(
                f"{n:>7} | {pages:>7} | {summary(ours):>22} | {peak(ours):>7.0f} | {tree_peak(ours):>8.0f} | {summary(theirs):>22} | "
                f"{peak(theirs):>7.0f} | {tree_peak(theirs):>8.0f} | {ratio:>12} | {load_summary(ours)}; {load_summary(theirs)}"
            )
        for tool in tools:
            medians = [statistics.median(r.seconds for r in runs[(n, tool)]) for n in sizes]
            steps = ", ".join(
                f"{a:,} -> {b:,}: {tb / ta:.1f}x the time for {b / a:.0f}x the records" for a, b, ta, tb in zip(sizes, sizes[1:], medians, medians[1:])
            )
            if steps:
                print(f"growth, {tool}: {steps}")
        for n, (site, _) in corpora.items():
            print(f"namesakes at {n:,} records: " + "; ".join(f"{k} {v:,}" for k, v in how_namesakes_were_split(site).items()), flush=True)
        if args.workdir is not None:
            import shutil

            shutil.rmtree(trash, ignore_errors=True)


if __name__ == "__main__":
    main()
