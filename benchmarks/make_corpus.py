"""A deterministic synthetic corpus of arXiv-like records, as a sitegen site and as a Hugo site.

    python benchmarks/make_corpus.py N OUT_DIR [--seed 42]

writes OUT_DIR/sitegen/ (content/site.yaml, profile.yaml, records/*.yaml) and
OUT_DIR/hugo/ (hugo.toml, content/records/*.md, layouts/) with the same records:
8-15-word titles (some with inline LaTeX), 3-8 authors, 1-3 of 33 arXiv subjects,
120-250-word Markdown abstracts (some with math).
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
    "cs.AI", "cs.AR", "cs.CC", "cs.CL", "cs.CR", "cs.CV", "cs.CY", "cs.DB", "cs.DC", "cs.DS", "cs.GT",
    "cs.HC", "cs.IR", "cs.IT", "cs.LG", "cs.LO", "cs.MA", "cs.NE", "cs.NI", "cs.OS", "cs.PF", "cs.PL",
    "cs.RO", "cs.SE", "cs.SY", "eess.SP", "math.OC", "math.PR", "stat.ML", "quant-ph", "hep-ph", "physics.comp-ph", "q-bio.NC",
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    make_corpus(args.n, args.out, args.seed)


if __name__ == "__main__":
    main()
