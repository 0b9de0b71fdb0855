"""A deterministic synthetic corpus of arXiv-like records, as a sitegen site and as a Hugo site.

    python benchmarks/make_corpus.py N OUT_DIR [--seed 42]

writes OUT_DIR/sitegen/ (content/site.yaml, profile.yaml, records/*.yaml) and
OUT_DIR/hugo/ (hugo.toml, content/records/*.md, layouts/) with the same records:
8-15-word titles (some with inline LaTeX), 3-8 authors, 1-3 of 33 arXiv subjects,
120-250-word Markdown abstracts (some with math). With --people, the authors are
about 3N people working in labs of 15, 5 % of their names shared by two or three
people; sitegen builds a page per author (`people: authors`), Hugo an `authors`
taxonomy (a page per name).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import yaml

# libyaml's emitter writes the same text as PyYAML's pure-Python one, ten times faster
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def dump_yaml(data: dict) -> str:
    return yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=1000)


SUBJECTS = [
    "cs.AI",
    "cs.AR",
    "cs.CC",
    "cs.CL",
    "cs.CR",
    "cs.CV",
    "cs.CY",
    "cs.DB",
    "cs.DC",
    "cs.DS",
    "cs.GT",
    "cs.HC",
    "cs.IR",
    "cs.IT",
    "cs.LG",
    "cs.LO",
    "cs.MA",
    "cs.NE",
    "cs.NI",
    "cs.OS",
    "cs.PF",
    "cs.PL",
    "cs.RO",
    "cs.SE",
    "cs.SY",
    "eess.SP",
    "math.OC",
    "math.PR",
    "stat.ML",
    "quant-ph",
    "hep-ph",
    "physics.comp-ph",
    "q-bio.NC",
]
WORDS = (
    "adaptive scalable distributed learning sparse attention gradient compression memory efficient training "
    "inference latency throughput scheduling cluster heterogeneous pipeline parallel model data graph network "
    "robust secure federated privacy optimal bound analysis system framework kernel accelerator cache storage "
    "query stream online offline convex stochastic approximation sampling estimation transformer language vision "
    "reinforcement policy reward agent benchmark evaluation dataset protocol consensus fault tolerant elastic"
).split()
FIRST = "Ada Alan Grace Edsger Barbara Donald Leslie Frances Ken Radia John Shafi Silvio Tim Vint Whitfield Lena Jonas Priya Mira".split()
LAST = "Lovelace Turing Hopper Dijkstra Liskov Knuth Lamport Allen Thompson Perlman Backus Goldwasser Micali Berners-Lee Cerf Diffie Müller Berg Raman Okonkwo".split()
MATH = [r"$O(n^2)$", r"$\alpha$", r"1.45$\times$", r"$\ell_1$", r"$N_{f}=2$", r"$\mathbf{x}$", r"$k \log n$"]


def make_record(rng: random.Random, index: int) -> dict:
    year = 2000 + index % 26
    title_words = rng.choices(WORDS, k=rng.randint(8, 15))
    if rng.random() < 0.2:
        title_words.insert(rng.randrange(len(title_words)), rng.choice(MATH))
    paragraphs = []
    remaining = rng.randint(120, 250)
    while remaining > 0:
        size = min(remaining, rng.randint(40, 120))
        words = rng.choices(WORDS, k=size)
        if rng.random() < 0.3:
            words.insert(rng.randrange(len(words)), rng.choice(MATH))
        if rng.random() < 0.3:
            words.insert(rng.randrange(len(words)), f"*{rng.choice(WORDS)}*")
        paragraphs.append(" ".join(words).capitalize() + ".")
        remaining -= size
    authors = [f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(rng.randint(3, 8))]
    record_id = f"{year % 100:02d}{rng.randint(1, 12):02d}.{index:05d}"
    return {
        "id": record_id,
        "title": " ".join(title_words).capitalize(),
        "authors": authors,
        "year": year,
        "source": "arXiv",
        "abstract": "\n\n".join(paragraphs) + "\n",
        "categories": rng.sample(SUBJECTS, rng.randint(1, 3)),
        "links": {"abs": f"https://arxiv.org/abs/{record_id}", "pdf": f"https://arxiv.org/pdf/{record_id}"},
        "arxiv": record_id,
    }


def write_sitegen(records: list[dict], root: Path) -> None:
    content = root / "content"
    (content / "records").mkdir(parents=True, exist_ok=True)
    (content / "site.yaml").write_text('title: "Benchmark"\nbase_url: "https://bench.example.org/"\n')
    (content / "profile.yaml").write_text('name: "Lena Müller"\naffiliation: "Benchmark University"\n')
    for record in records:
        text = dump_yaml(record)
        (content / "records" / f"{record['id']}.yaml").write_text(text, encoding="utf-8")


HUGO_CONFIG = """baseURL = "https://bench.example.org/"
title = "Benchmark"
disableKinds = ["RSS", "sitemap", "robotsTXT", "404"]
[taxonomies]
  subject = "subjects"
[markup.goldmark.renderer]
  unsafe = false
"""
HUGO_LAYOUTS = {
    "index.html": """<!DOCTYPE html><html><head><title>{{ .Site.Title }}</title></head><body><h1>{{ .Site.Title }}</h1>
<p>{{ len (where .Site.RegularPages "Section" "records") }} records</p>
{{ range (where .Site.RegularPages "Section" "records").ByDate.Reverse }}<article><h2><a href="{{ .RelPermalink }}">{{ .Title }}</a></h2>
<p>{{ delimit .Params.authors ", " }}</p><details><summary>Abstract</summary>{{ .Content }}</details>
{{ range .Params.subjects }}<a href="{{ "/subjects/" | relURL }}{{ . | urlize }}/">{{ . }}</a> {{ end }}</article>{{ end }}</body></html>
""",
    "_default/single.html": """<!DOCTYPE html><html><head><title>{{ .Title }}</title><meta name="citation_title" content="{{ .Title }}">
{{ range .Params.authors }}<meta name="citation_author" content="{{ . }}">{{ end }}</head><body><h1>{{ .Title }}</h1>
<p>{{ delimit .Params.authors ", " }}</p>{{ .Content }}{{ range .Params.subjects }}<a href="{{ "/subjects/" | relURL }}{{ . | urlize }}/">{{ . }}</a> {{ end }}</body></html>
""",
    "_default/list.html": """<!DOCTYPE html><html><head><title>{{ .Title }}</title></head><body><h1>{{ .Title }}</h1>
{{ range .Pages }}<article><h2><a href="{{ .RelPermalink }}">{{ .Title }}</a></h2><p>{{ delimit .Params.authors ", " }}</p></article>{{ end }}</body></html>
""",
    "_default/terms.html": """<!DOCTYPE html><html><head><title>{{ .Title }}</title></head><body><h1>Subjects</h1>
{{ range .Data.Terms.Alphabetical }}<a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> ({{ .Count }}) {{ end }}</body></html>
""",
}


def write_hugo(records: list[dict], root: Path) -> None:
    (root / "content" / "records").mkdir(parents=True, exist_ok=True)
    (root / "hugo.toml").write_text(HUGO_CONFIG)
    for name, text in HUGO_LAYOUTS.items():
        path = root / "layouts" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for record in records:
        front = {
            "title": record["title"],
            "authors": record["authors"],
            "date": f"{record['year']}-01-01",
            "subjects": record["categories"],
            "slug": record["id"].replace(".", "-"),
        }
        text = "---\n" + dump_yaml(front) + "---\n" + record["abstract"]
        (root / "content" / "records" / f"{record['id']}.md").write_text(text, encoding="utf-8")


def make_corpus(n: int, out: Path, seed: int = 42) -> tuple[Path, Path]:
    rng = random.Random(seed)
    records = [make_record(rng, i) for i in range(n)]
    write_sitegen(records, out / "sitegen")
    write_hugo(records, out / "hugo")
    return out / "sitegen", out / "hugo"


# --- --people: a directory of many authors, some sharing a name (sitegen's `people: authors`) ----------

SYLLABLES = "ka lo ven ta ri mi so da ne lu ha ro bi te sa ni mo ke ra li fu na do ye zu pe gi to ma re".split()
AUTHORS_PER_RECORD = 3.0  # distinct people per record: 10,000 records, ~30,000 authors
SHARED_NAMES = 0.05  # of the names, the share held by two or more people
LAB_SIZE = 15  # people who write together; a record's authors come from one lab, now and then with a guest


def _names(rng: random.Random, count: int) -> list[str]:
    given = sorted({(a + b).capitalize() for a in SYLLABLES for b in SYLLABLES})
    names: set[str] = set()
    while len(names) < count:
        family = "".join(rng.choices(SYLLABLES, k=rng.randint(2, 3))).capitalize()
        names.add(f"{rng.choice(given)} {family}")
    return sorted(names)


def make_people(rng: random.Random, n: int) -> tuple[list[str], list[int]]:
    """People (their names, namesakes among them) and the lab of each: about AUTHORS_PER_RECORD * n people."""
    people = int(n * AUTHORS_PER_RECORD)
    # names held by two (four in five) or three people make SHARED_NAMES of all names
    per_shared = 2.2
    distinct = round(people / (1 - SHARED_NAMES + SHARED_NAMES * per_shared))
    names = _names(rng, distinct)
    rng.shuffle(names)
    shared = round(distinct * SHARED_NAMES)
    held = [name for index, name in enumerate(names) for _ in range((3 if rng.random() < 0.2 else 2) if index < shared else 1)]
    rng.shuffle(held)
    labs = [index // LAB_SIZE for index in range(len(held))]
    return held, labs


def make_people_records(n: int, seed: int = 42) -> tuple[list[dict], dict[str, list[int]]]:
    """Records whose authors are people of labs, and who each author really is (record id -> person numbers)."""
    rng = random.Random(seed)
    names, labs = make_people(rng, n)
    members: dict[int, list[int]] = {}
    for person, lab in enumerate(labs):
        members.setdefault(lab, []).append(person)
    lab_ids = sorted(members)
    turns = {lab: rng.sample(people, len(people)) for lab, people in members.items()}  # everyone writes at least once
    records, truth = [], {}
    for index in range(n):
        record = make_record(rng, index)
        lab = lab_ids[index % len(lab_ids)]
        queue = turns[lab]
        size = min(rng.randint(3, 8), len(members[lab]))
        authors: list[int] = []
        while len(authors) < size:
            if not queue:
                queue.extend(rng.sample(members[lab], len(members[lab])))
            person = queue.pop()
            if person not in authors:
                authors.append(person)
        if rng.random() < 0.1:  # a guest from another lab
            guest = rng.randrange(len(names))
            if guest not in authors and names[guest] not in {names[a] for a in authors}:
                authors.insert(rng.randrange(len(authors) + 1), guest)
        if len({names[a] for a in authors}) < len(authors):  # two namesakes on one paper: keep one
            authors = list({names[a]: a for a in reversed(authors)}.values())[::-1]
        record["authors"] = [names[a] for a in authors]
        truth[record["id"]] = authors
        records.append(record)
    return records, truth


HUGO_AUTHORS = '[taxonomies]\n  subject = "subjects"\n  author = "authors"\n'


def make_people_corpus(n: int, out: Path, seed: int = 42) -> tuple[Path, Path]:
    """The --people corpus: sitegen with `people: authors`, Hugo with an `authors` taxonomy (a page per name),
    and truth.json (record id -> who each author is), to check how sitegen split the namesakes."""
    import json

    records, truth = make_people_records(n, seed)
    write_sitegen(records, out / "sitegen")
    settings = out / "sitegen" / "content" / "site.yaml"
    settings.write_text('title: "Benchmark"\nbase_url: "https://bench.example.org/"\npeople: authors\n')
    write_hugo(records, out / "hugo")  # the front matter's `authors` becomes the taxonomy
    config = out / "hugo" / "hugo.toml"
    config.write_text(config.read_text().replace('[taxonomies]\n  subject = "subjects"\n', HUGO_AUTHORS))
    (out / "truth.json").write_text(json.dumps(truth), encoding="utf-8")
    return out / "sitegen", out / "hugo"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument(
        "--people", action="store_true", help="authors drawn from ~3n people in labs, 5%% of names shared (sitegen `people: authors`, Hugo `authors` taxonomy)"
    )
    args = parser.parse_args()
    (make_people_corpus if args.people else make_corpus)(args.n, args.out, args.seed)


if __name__ == "__main__":
    main()
