"""The build cache is never stale: a property test over random sequences of edits.

Hypothesis drives a site through random edits — record files added, changed,
deleted and renamed (one or a hundred at once), edits that keep a file's size
and mtime, templates, static files, site.yaml, profile.yaml, a theme switch and
a library upgrade (simulated: the library's version and its output change
together) — and after every step compares, byte for byte:

- the output of a cached build (as `sitegen build` runs it, state read from disk),
- the output of the dev server's build (cache and work kept in memory across steps),
- with the output of a clean build (`--no-cache`) into an empty folder, every template compiled afresh.

The dev server writes the files read on their own (BibTeX, RIS, JSON, feeds) just
after the reload (`build.Downloads`); a step may leave them unwritten (as an edit
that comes before the idle poll does), and then what is on disk must be the clean
build's, those files aside, and the next build must make them again: every other
time at once (a build with nothing changed, compared whole), else at the next step.

Lists are split into pages of a few records, and a new output folder of a few
files is shared between two forked workers, so that paging and the workers run
on a small site.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import jinja2
import jinja2.bccache
import pytest
from conftest import tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import sitegen.cache
import sitegen.enrich
import sitegen.markup
import sitegen.theme
import sitegen.write
from sitegen.build import BuildResult, build_site
from sitegen.cache import BuildCache
from sitegen.inputs import RACY_NANOSECONDS
from sitegen.prepare import Memory

pytestmark = pytest.mark.slow  # many builds of the demo site, compared step by step

STEPS = int(os.environ.get("SITEGEN_PROPERTY_STEPS", "40"))  # the longest walk (.ci/run: ten walks of 40)
EXAMPLES = int(os.environ.get("SITEGEN_PROPERTY_EXAMPLES", "3"))  # walks
MIN_STEPS = int(os.environ.get("SITEGEN_PROPERTY_MIN_STEPS", "0"))  # the steps all walks must add up to
STEPS_TAKEN = {"steps": 0, "walks": 0, "downloads later": 0}

WORDS = ["Sparse", "Gossip", "Lattice", "Kestrel", "Ember", "Straggler", "Quantum", "Graph", "Müller", "$O(n^2)$"]
CATEGORIES = ["cs.DC", "cs.LG", "math.OC", "physics", "Free subject"]
AUTHORS = ["Lena Müller", "L. Müller", "Jonas Berg", "Ada Lovelace", "Sheng Lin"]


def record_text(number: int, title_words: list[str], year: int, categories: list[str], featured: bool, hidden: bool, authors: list[str]) -> str:
    lines = [
        f"id: rec{number}",
        f"title: '{' '.join(title_words)} {number}'",
        f"authors: [{', '.join(authors)}]",
        f"year: {year}",
        f"categories: [{', '.join(repr(c) for c in categories)}]",
        "abstract: |",
        f"  We study *{title_words[0]}* with $\\alpha_{{{number}}}$ and \\textbf{{bold}} text.",
    ]
    if featured:
        lines.append("featured: true")
    if hidden:
        lines.append("hidden: true")
    return "\n".join(lines) + "\n"


record_fields = st.tuples(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=4),
    st.integers(2018, 2025),
    st.lists(st.sampled_from(CATEGORIES), min_size=0, max_size=2, unique=True),
    st.booleans(),
    st.booleans().map(lambda hidden: hidden and False),  # hidden records stay rare: see edit_field
    st.lists(st.sampled_from(AUTHORS), min_size=1, max_size=3, unique=True),
)

BIB_ENTRY = "@article{{bib{number},\n  title = {{{title} {number}}},\n  author = {{{authors}}},\n  journal = {{Journal of Tests}},\n  year = {year},\n}}\n"
# a command outside math is the reader's to warn of, one inside math the conversion's (kept with what was made)
BIB_TITLES = ["Sparse {Gossip}", "Kestrel with $\\alpha_1$", "A \\frobnicate{strange} command", "A $\\frobnicate{x}$ formula"]
BIB_AUTHORS = ['M{\\"u}ller, Lena and Berg, Jonas', "Lovelace, Ada", 'Lin, Sheng and M{\\"u}ller, L.']
bib_entry = st.tuples(st.sampled_from(BIB_TITLES), st.sampled_from(BIB_AUTHORS), st.integers(2018, 2025), st.integers(0, 2))


def bib_text(entries: dict[int, tuple[str, str, int, int]]) -> str:
    """A .bib of the entries: number -> title, authors, year, blank lines before it."""
    return "".join(
        "\n" * blank + BIB_ENTRY.format(number=number, title=title, authors=authors, year=year)
        for number, (title, authors, year, blank) in sorted(entries.items())
    )


BIB_FIELDS = ("title", "authors", "year", "blank lines before")


def bib_edited(entries: dict[int, tuple[str, str, int, int]], number: int, drawn: tuple[str, str, int, int], what: str) -> None:
    """One edit of a .bib: entry `number` removed, added (`drawn`), or one of its fields taken from `drawn`."""
    if what == "remove":
        entries.pop(number, None)
    elif number not in entries:
        entries[number] = drawn
    else:
        index = BIB_FIELDS.index(what)
        entries[number] = tuple(drawn[i] if i == index else value for i, value in enumerate(entries[number]))  # type: ignore[assignment]


RIS_ENTRY = "TY  - JOUR\nID  - ris{number}\nTI  - {title} {number}\n{authors}T2  - Journal of Tests\nPY  - {year}\nER  - \n"
RIS_TITLES = ["Sparse Gossip", "Kestrel with $\\alpha_1$", "A $\\frobnicate{x}$ formula", "Müller's <b>bold</b> claim"]
RIS_AUTHORS = [("Müller, Lena", "Berg, Jonas"), ("Lovelace, Ada",), ("Lin, Sheng", "Müller, L.")]
ris_entry = st.tuples(st.sampled_from(RIS_TITLES), st.sampled_from(RIS_AUTHORS), st.integers(2018, 2025), st.integers(0, 2))


def ris_text(entries: dict) -> str:
    """A .ris of the entries (EndNote's and Zotero's export): number -> title, authors, year, blank lines before it."""
    return "".join(
        "\n" * blank + RIS_ENTRY.format(number=number, title=title, authors="".join(f"AU  - {name}\n" for name in authors), year=year)
        for number, (title, authors, year, blank) in sorted(entries.items())
    )


def medline_text(entries: dict) -> str:
    """A .nbib of the entries (PubMed's Send to > Citation manager): number -> title, authors, year, blank lines before it."""
    return "".join(
        "\n" * blank
        + f"PMID- {3000 + number}\nTI  - {title} {number} of a title long enough to go on\n      over a second line.\n"
        + "".join(f"FAU - {name}\n" for name in authors)
        + f"DP  - {year} Mar-Apr\nJT  - Journal of tests\nTA  - J Tests\nPT  - Journal Article\n\n"
        for number, (title, authors, year, blank) in sorted(entries.items())
    )


def csl_json_text(entries: dict) -> str:
    """A CSL-JSON file of the entries (Zotero's export, tab-indented): number -> title, authors, year, blank lines before it."""
    items = [
        "\n" * blank
        + json.dumps(
            {
                "id": f"csl{number}",
                "type": "article-journal",
                "title": f"{title} {number}",
                "author": [dict(zip(("family", "given"), name.split(", "), strict=True)) for name in authors],
                "container-title": "Journal of Tests",
                "issued": {"date-parts": [[year]]},
            },
            ensure_ascii=False,
            indent="\t",
        )
        for number, (title, authors, year, blank) in sorted(entries.items())
    ]
    return "[\n" + ",\n".join(items) + "\n]\n"


SITE_YAML = "title: Property site\nbase_url: {base_url}\ntheme: {theme}\nrecords_per_page: {per_page}\n{people}{languages}"
PROFILE_YAML = "name: {name}\nname_variants: [{variants}]\nbio: |\n  {bio}\n"
PEOPLE = {  # content/people/<name>.yaml: a plain member, one anchored among namesakes, one with its own slug
    "jonas": "name: Jonas Berg\n",
    "sheng": "name: Sheng Lin\ncoauthors: [Ada Lovelace]\n",
    "ada": "name: Ada Lovelace\nslug: lovelace\nexclude_ids: [rec1]\n",
}
OWN_THEME = {
    "themes/plain/theme.yaml": "name: plain\nextends: default\n",
    "themes/plain/templates/partials/record_item.html": '<li class="plain" id="{{ record.anchor }}">{{ record.title }} ({{ record.year }})</li>\n',
    "themes/plain/static/plain.css": "body { color: #222; }\n",
}


class CachedBuildsEqualCleanBuilds(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="sitegen-property-"))
        self.site = self.root / "site"
        self.records: dict[str, int] = {}  # file name -> record number
        self.bib: dict[int, tuple[str, str, int, int]] = {}  # content/records/lab.bib: number -> title, authors, year, blank lines before
        self.ris: dict[int, tuple] = {}  # content/records/library.ris: number -> title, authors, year, blank lines before
        self.csl_json: dict[int, tuple] = {}  # content/records/zotero.json: number -> title, authors, year, blank lines before
        self.medline: dict[int, tuple] = {}  # content/records/pubmed.nbib: number -> title, authors, year, blank lines before
        self.next_number = 0
        self.settings = {"base_url": "https://example.org/", "theme": "default", "per_page": 3, "people": "", "languages": ""}
        self.library_generation = 0
        self.dev_cache: BuildCache | None = None
        self.dev_memory = Memory()
        self.downloads_written = True  # whether the dev server writes its downloads before the comparison
        self.downloads_left = 0

    # -- the site --------------------------------------------------------------------

    def write(self, name: str, text: str) -> None:
        path = self.site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def write_settings(self) -> None:
        self.write("content/site.yaml", SITE_YAML.format(**self.settings))

    def add_record(self, fields, folder: str = "", suffix: str = ".yaml") -> None:
        number = self.next_number
        self.next_number += 1
        name = f"content/records/{folder}r{number}{suffix}"
        self.records[name] = number
        self.write_record(name, fields)

    def write_record(self, name: str, fields) -> None:
        """A YAML record, or a Markdown one as Hugo Blox writes it: YAML front matter, `admin` for the owner."""
        if not name.endswith(".md"):
            self.write(name, record_text(self.records[name], *fields))
            return
        title_words, year, categories, featured, hidden, authors = fields
        self.write(name, "---\n" + record_text(self.records[name], title_words, year, categories, featured, hidden, ["admin", *authors]) + "---\n")

    @initialize(fields=st.lists(record_fields, min_size=2, max_size=6))
    def start(self, fields) -> None:
        self.write_settings()
        self.write("content/profile.yaml", PROFILE_YAML.format(name="Lena Müller", variants="L. Müller", bio="First bio."))
        for item in fields:
            self.add_record(item)
        self.add_record(fields[0], suffix=".md")  # from the start: what a change of the owner's name must reach
        for name, text in OWN_THEME.items():
            self.write(name, text)
        self.write("static/photo.txt", "a static file\n")

    # -- edits -------------------------------------------------------------------------

    @rule(fields=record_fields, folder=st.sampled_from(["", "sub/", "sub/deeper/"]))
    def add_one_record(self, fields, folder) -> None:
        self.add_record(fields, folder)

    @rule(fields=record_fields)
    def add_hugo_blox_record(self, fields) -> None:
        """A Markdown record naming the owner as Hugo Blox does (`admin`): it shows the profile's name, whatever that is now."""
        self.add_record(fields, suffix=".md")

    @precondition(lambda self: len(self.records) < 150)  # a walk of a few hundred steps stays a few minutes long
    @rule(fields=record_fields, count=st.integers(100, 130))
    def add_many_records(self, fields, count) -> None:
        for _ in range(count):
            self.add_record(fields)

    @precondition(lambda self: self.records)
    @rule(data=st.data(), fields=record_fields)
    def change_record(self, data, fields) -> None:
        name = data.draw(st.sampled_from(sorted(self.records)))
        self.write_record(name, fields)

    @precondition(lambda self: self.records)
    @rule(
        data=st.data(),
        field=st.sampled_from(["featured: true", "hidden: true", "year: 2026", "categories: [cs.DC]", "type: software", "type: patent", "language: fr"]),
    )
    def edit_field(self, data, field) -> None:
        name = data.draw(st.sampled_from(sorted(self.records)))
        path = self.site / name
        key = field.split(":")[0]
        kept = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith(f"{key}:") and line != "---"]
        front = ["---"] if name.endswith(".md") else []
        path.write_text("\n".join(front + kept + [field] + front) + "\n", encoding="utf-8")

    @precondition(lambda self: self.records)
    @rule(data=st.data())
    def edit_in_the_same_tick_as_a_build(self, data) -> None:
        """The racy case: a file saved, built, and saved again with other bytes of the same size,
        all within the file system's timestamp resolution, so that size and mtime are the same.

        Both saves carry a timestamp no listing of the builds between them can be safely past (as on a
        file system whose resolution is coarser than the builds are long): the mtime the first save
        got would be, since the builds of a large site take longer than the margin sitegen allows, and
        a second save with the first one's mtime could not happen after them."""
        name = data.draw(st.sampled_from(sorted(self.records)))
        path = self.site / name
        text = path.read_text(encoding="utf-8")
        path.write_text(text, encoding="utf-8")
        stamp = time.time_ns() + 30 * RACY_NANOSECONDS
        os.utime(path, ns=(stamp, stamp))
        self.build_with_caches()  # the builds that recorded this size and mtime
        swapped = text.replace("year: 20", "year: 19", 1) if "year: 20" in text else text.replace("year: 19", "year: 20", 1)
        path.write_text(swapped, encoding="utf-8")
        os.utime(path, ns=(stamp, stamp))

    @rule(number=st.integers(0, 3), entry=bib_entry, what=st.sampled_from([*BIB_FIELDS, "remove"]))
    def edit_bib(self, number, entry, what) -> None:
        """One entry of a .bib of several (a lab's) added, changed, moved down by blank lines or removed: what was
        made of the others is kept, and must still name their lines (a command sitegen cannot convert warns at
        its line)."""
        bib_edited(self.bib, number, entry, what)
        self.write("content/records/lab.bib", bib_text(self.bib))

    @rule(number=st.integers(0, 3), entry=ris_entry, what=st.sampled_from([*BIB_FIELDS, "remove"]))
    def edit_ris(self, number, entry, what) -> None:
        """One entry of a .ris of several (an EndNote library's export) added, changed, moved down or removed, as
        a .bib's: the RIS reader is chosen by the suffix, and its file is an input like any other."""
        bib_edited(self.ris, number, entry, what)
        if self.ris:
            self.write("content/records/library.ris", ris_text(self.ris))
        elif (self.site / "content/records/library.ris").exists():
            (self.site / "content/records/library.ris").unlink()

    @rule(number=st.integers(0, 3), entry=ris_entry, what=st.sampled_from([*BIB_FIELDS, "remove"]))
    def edit_medline(self, number, entry, what) -> None:
        """One citation of a .nbib (PubMed's export) added, changed, moved down or removed, as a .ris's entry: the
        MEDLINE reader is chosen by the suffix, and its file is an input like any other."""
        bib_edited(self.medline, number, entry, what)
        if self.medline:
            self.write("content/records/pubmed.nbib", medline_text(self.medline))
        elif (self.site / "content/records/pubmed.nbib").exists():
            (self.site / "content/records/pubmed.nbib").unlink()

    @rule(number=st.integers(0, 3), entry=ris_entry, what=st.sampled_from([*BIB_FIELDS, "remove"]))
    def edit_csl_json(self, number, entry, what) -> None:
        """One item of a CSL-JSON file (Zotero's export) added, changed, moved down or removed, as a .ris's entry:
        the CSL-JSON reader is chosen by the suffix, and its file is an input like any other."""
        bib_edited(self.csl_json, number, entry, what)
        if self.csl_json:
            self.write("content/records/zotero.json", csl_json_text(self.csl_json))
        elif (self.site / "content/records/zotero.json").exists():
            (self.site / "content/records/zotero.json").unlink()

    @precondition(lambda self: self.records)
    @rule(data=st.data(), count=st.integers(1, 120))
    def delete_records(self, data, count) -> None:
        names = data.draw(st.lists(st.sampled_from(sorted(self.records)), min_size=1, max_size=count, unique=True))
        for name in names:
            (self.site / name).unlink()
            del self.records[name]

    @precondition(lambda self: self.records)
    @rule(data=st.data(), suffix=st.sampled_from([".yaml", ".yml"]))
    def rename_record(self, data, suffix) -> None:
        name = data.draw(st.sampled_from(sorted(self.records)))
        new_name = f"content/records/renamed/{Path(name).stem}{'.md' if name.endswith('.md') else suffix}"
        if new_name in self.records:
            return
        (self.site / new_name).parent.mkdir(parents=True, exist_ok=True)
        (self.site / name).rename(self.site / new_name)
        self.records[new_name] = self.records.pop(name)

    @rule(marker=st.sampled_from(["A", "B", ""]))
    def edit_site_template(self, marker) -> None:
        if not marker:
            shutil.rmtree(self.site / "templates", ignore_errors=True)
            return
        self.write("templates/partials/year_nav.html", f'<nav class="years mine-{marker}"></nav>\n')

    @rule(text=st.sampled_from(["one", "two", ""]))
    def edit_static_file(self, text) -> None:
        if text:
            self.write("static/extra.txt", text + "\n")
        else:
            (self.site / "static" / "extra.txt").unlink(missing_ok=True)

    @rule(per_page=st.sampled_from([2, 3, 250]), base_url=st.sampled_from(["https://example.org/", "https://user.github.io/repo", "/"]))
    def edit_site_yaml(self, per_page, base_url) -> None:
        self.settings.update(per_page=per_page, base_url=base_url)
        self.write_settings()

    @rule(
        name=st.sampled_from(["Lena Müller", "Lena Mueller", "LENA MÜLLER"]),  # the last two: the same owner, shown otherwise
        variants=st.sampled_from(["L. Müller", "Jonas Berg", ""]),
        bio=st.sampled_from(["First bio.", "Second *bio*.", "See [my notes](static/extra.txt)."]),
    )
    def edit_profile(self, name, variants, bio) -> None:
        self.write("content/profile.yaml", PROFILE_YAML.format(name=name, variants=variants, bio=bio))

    @rule(name=st.sampled_from(["jonas", "sheng", "ada", ""]), authors=st.booleans())
    def edit_people(self, name, authors) -> None:
        """People files come and go, and `people: authors` with them (SPEC §9): people's pages and the
        author links on every page follow."""
        if not name:
            shutil.rmtree(self.site / "content" / "people", ignore_errors=True)
        else:
            self.write(f"content/people/{name}.yaml", PEOPLE[name])
        self.settings["people"] = "people: authors\n" if authors else ""
        self.write_settings()

    # -- the homepage's own content (SPEC §7): each kind's files are inputs of its pages and of what every page shows

    @rule(
        name=st.sampled_from(["about", "teaching"]),
        nav=st.sampled_from(["1", "2", ""]),
        body=st.sampled_from(["", "Some *text* with $x^2$.", '{{< publications featured="true" >}}', '{{< publications since="2022" title="Recent" >}}']),
    )
    def edit_page(self, name, nav, body) -> None:
        front = f"title: {name.capitalize()}\n" + (f"nav: {nav}\n" if nav else "")
        self.write(f"content/pages/{name}.md", f"---\n{front}---\nAbout {name}.\n\n{body}\n")

    # -- a site in several languages (docs/homepage.md, "Several languages"): each language's own files are inputs

    @rule(languages=st.sampled_from(["", "languages: [en, fr]\n", "languages: [en, fr, de]\n"]))
    def edit_languages(self, languages) -> None:
        self.settings["languages"] = languages
        self.write_settings()

    @rule(
        language=st.sampled_from(["fr", "de"]),
        bio=st.sampled_from(["Première bio.", "Voir [mes notes](static/extra.txt).", ""]),
        position=st.sampled_from(["Professeure", ""]),
    )
    def edit_translated_profile(self, language, bio, position) -> None:
        if not bio and not position:
            (self.site / "content" / f"profile.{language}.yaml").unlink(missing_ok=True)
            return
        self.write(f"content/profile.{language}.yaml", (f"bio: {bio}\n" if bio else "") + (f"position: {position}\n" if position else ""))

    @rule(
        name=st.sampled_from(["about", "teaching", "only-french"]),
        language=st.sampled_from(["fr", "de"]),
        nav=st.sampled_from(["1", "3", ""]),
        body=st.sampled_from(["", "Du *texte*.", '{{< publications featured="true" >}}']),
    )
    def edit_translated_page(self, name, language, nav, body) -> None:
        if not body:
            (self.site / "content" / "pages" / f"{name}.{language}.md").unlink(missing_ok=True)
            return
        front = f"title: {name.capitalize()} ({language})\n" + (f"nav: {nav}\n" if nav else "")
        self.write(f"content/pages/{name}.{language}.md", f"---\n{front}---\n{body}\n")

    @rule(language=st.sampled_from(["fr", "de"]), title=st.sampled_from(["Postes", "Carrière", ""]))
    def edit_translated_cv(self, language, title) -> None:
        if not title:
            (self.site / "content" / f"cv.{language}.yaml").unlink(missing_ok=True)
            return
        self.write(
            f"content/cv.{language}.yaml", f"sections:\n  - title: {title}\n    profile: true\n    entries:\n      - {{title: Professeure, start: 2024}}\n"
        )

    @rule(day=st.integers(1, 28), language=st.sampled_from(["fr", "de"]), keep=st.booleans())
    def edit_translated_news(self, day, language, keep) -> None:
        """An item in another language: a translation of the default's of that name (edit_news) when it has one."""
        name = f"content/news/n{day % 4}.{language}.md"
        if not keep:
            (self.site / name).unlink(missing_ok=True)
            return
        self.write(name, f"---\ndate: 2025-02-{day:02d}\ntitle: Nouvelle {day}\n---\nDu texte.\n")

    @rule(file=st.sampled_from(["talks", "only-french"]), year=st.sampled_from([2022, 2024]), language=st.sampled_from(["fr", "de"]), keep=st.booleans())
    def edit_translated_talks(self, file, year, language, keep) -> None:
        """A talks file in another language: the translation of the default's of that name (edit_talks) when there is one."""
        name = f"content/talks/{file}.{language}.yaml"
        if not keep:
            (self.site / name).unlink(missing_ok=True)
            return
        self.write(name, f"title: Exposé {year}\nevent: Atelier\ndate: {year}-06-01\n")

    @rule(file=st.sampled_from(["2025-01-02-first", "second", "third/index", "only-french"]), language=st.sampled_from(["fr", "de"]), keep=st.booleans())
    def edit_translated_post(self, file, language, keep) -> None:
        """A post in another language: the translation of the default's of that name (edit_post) when there is one."""
        name = f"content/posts/{file}.{language}.md"
        if not keep:
            (self.site / name).unlink(missing_ok=True)
            return
        self.write(name, f"---\ntitle: Billet {file}\ndate: 2025-04-02\ntags: [français]\n---\nDu texte.\n")

    @rule(name=st.sampled_from(["about", "teaching"]))
    def delete_page(self, name) -> None:
        (self.site / "content" / "pages" / f"{name}.md").unlink(missing_ok=True)

    @rule(variant=st.sampled_from(["positions", "publications", "both", ""]))
    def edit_cv(self, variant) -> None:
        if not variant:
            (self.site / "content" / "cv.yaml").unlink(missing_ok=True)
            return
        sections = []
        if variant in ("positions", "both"):
            sections.append("  - title: Positions\n    profile: true\n    entries:\n      - {title: Professor, org: Nordhaven, start: 2022}\n")
        if variant in ("publications", "both"):
            sections.append("  - title: Publications\n    publications: selected\n")
        self.write("content/cv.yaml", "sections:\n" + "".join(sections))

    @rule(day=st.integers(1, 28), title=st.sampled_from(["", "A grant"]), keep=st.booleans())
    def edit_news(self, day, title, keep) -> None:
        name = f"content/news/n{day % 4}.md"
        if not keep:
            (self.site / name).unlink(missing_ok=True)
            return
        self.write(name, f"---\ndate: 2025-03-{day:02d}\n" + (f"title: {title}\n" if title else "") + "---\nNews of the day.\n")

    @rule(
        name=st.sampled_from(["2025-01-02-first", "second", "third/index"]),
        day=st.integers(1, 28),
        body=st.sampled_from(["Text.", "A [link](teaching/) and ![a picture](static/photo.txt).", '{{< publications featured="true" >}}']),
        tags=st.sampled_from(["", "[ml]", "[ML, gpus]", "[gpus]"]),
        keep=st.booleans(),
    )
    def edit_post(self, name, day, body, tags, keep) -> None:
        """Posts come, go, change date and tags (the list, the feed, each tag's list and the newer/older links of the
        posts beside them follow)."""
        path = self.site / "content" / "posts" / f"{name}.md"
        if not keep:
            path.unlink(missing_ok=True)
            return
        tagged = f"tags: {tags}\n" if tags else ""
        self.write(f"content/posts/{name}.md", f"---\ntitle: Post {name.split('/')[0][-5:]}\ndate: 2025-02-{day:02d}\n{tagged}---\n{body}\n")

    @rule(year=st.integers(2020, 2025), keep=st.booleans())
    def edit_talks(self, year, keep) -> None:
        if not keep:
            (self.site / "content" / "talks" / "talks.yaml").unlink(missing_ok=True)
            return
        self.write("content/talks/talks.yaml", f"- title: A talk\n  date: {year}-05-01\n  links: {{slides: static/photo.txt}}\n")

    @rule(
        name=st.sampled_from(["fluxgrid", "ember/index"]),
        title=st.sampled_from(["FluxGrid", "Ember"]),
        chosen=st.sampled_from(["", "records: [rec0]\n", "records: [rec1, rec2]\n", "subjects: [cs.DC]\n", "records: [rec3]\nsubjects: [physics]\n"]),
        status=st.sampled_from(["active", "past"]),
        keep=st.booleans(),
    )
    def edit_project(self, name, title, chosen, status, keep) -> None:
        """Projects come, go, change title, status and the records they list (by id or subject): the cards, the
        project's page and the pages of the records it names (which link back to it) follow."""
        path = self.site / "content" / "projects" / f"{name}.md"
        if not keep:
            path.unlink(missing_ok=True)
            return
        picture = "image: mesh.txt\n" if name.endswith("/index") else ""
        if picture:
            self.write(f"content/projects/{name.split('/')[0]}/mesh.txt", f"a picture of {title}\n")
        self.write(f"content/projects/{name}.md", f"---\ntitle: {title}\nstatus: {status}\n{picture}{chosen}---\nAbout {title}.\n")

    @rule(
        name=st.sampled_from(["fluxgrid", "ember/index", "only-french"]),
        language=st.sampled_from(["fr", "de"]),
        front=st.sampled_from(["", "title: Une grille\n", "title: Braise\nstatus: past\nrecords: [rec2]\n"]),
    )
    def edit_translated_project(self, name, language, front) -> None:
        """A project's translation comes, goes and changes; what it does not write it takes from the project it
        translates, whose edits (`edit_project`) its page then follows."""
        path = self.site / "content" / "projects" / f"{name}.{language}.md"
        if not front:
            path.unlink(missing_ok=True)
            return
        self.write(f"content/projects/{name}.{language}.md", f"---\n{front}---\nÀ propos.\n")

    @rule(
        folder=st.sampled_from(["projects", "posts", "talks", "news", "people"]),
        language=st.sampled_from(["", ".fr"]),
        front=st.sampled_from(["", "title: Our work\n", "description: What we do.\n"]),
        keep=st.booleans(),
    )
    def edit_list_intro(self, folder, language, front, keep) -> None:
        """A list's own text (`_index.md`, `_index.fr.md`) comes, goes and changes: its heading, description and
        text on that list's page (and only there) follow."""
        path = self.site / "content" / folder / f"_index{language}.md"
        if not keep:
            path.unlink(missing_ok=True)
            return
        self.write(f"content/{folder}/_index{language}.md", f"---\n{front}---\nAbout the {folder}, [with a link](static/photo.txt).\n")

    @rule(url=st.sampled_from(["https://jonas.example.org", "https://berg.example.org", ""]))
    def edit_coauthors(self, url) -> None:
        if not url:
            (self.site / "content" / "coauthors.yaml").unlink(missing_ok=True)
            return
        self.write("content/coauthors.yaml", f"Jonas Berg: {url}\nAda Lovelace: {{url: https://ada.example.org, variants: [A. Lovelace]}}\n")

    @rule(group_by=st.sampled_from(["year", "type"]))
    def edit_group_by(self, group_by) -> None:
        """Lists by type or by year; the next edit of the settings writes site.yaml without it (by year) again."""
        self.write("content/site.yaml", SITE_YAML.format(**self.settings) + f"group_by: {group_by}\n")

    @rule()
    def switch_theme(self) -> None:
        self.settings["theme"] = "plain" if self.settings["theme"] == "default" else "default"
        self.write_settings()

    @rule(data=st.data(), how=st.sampled_from(["stray file", "stray folder", "deleted", "same size", "replaced by a link"]))
    def tamper_with_the_output(self, data, how) -> None:
        """Someone changes a built site by hand: the next cached build must make it a clean build again."""
        built = sorted(path for path in (self.site / "output").rglob("*") if path.is_file() and not path.is_symlink())
        if not built:
            return
        victim = data.draw(st.sampled_from(built))
        if how == "stray file":
            (victim.parent / "stray.html").write_text("not ours", encoding="utf-8")
        elif how == "stray folder":
            (victim.parent / "stray").mkdir(exist_ok=True)
        elif how == "deleted":
            victim.unlink()
        elif how == "same size":
            before = victim.stat()
            victim.write_bytes(bytes(reversed(victim.read_bytes())))
            os.utime(victim, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))  # an edit a second later, however fast this runs
        else:
            victim.unlink()
            victim.symlink_to(self.site / "content" / "site.yaml")

    @rule(written=st.booleans())
    def edit_before_the_downloads_are_written(self, written) -> None:
        self.downloads_written = written

    @rule()
    def upgrade_a_library(self) -> None:
        """A new release of a library that shapes output: its version and what it makes change together.

        A running dev server cannot see an upgrade (its process has the old code loaded): it is started again."""
        self.library_generation += 1
        self.dev_cache, self.dev_memory = None, Memory()

    # -- the property --------------------------------------------------------------------

    @invariant()
    def cached_and_dev_server_builds_equal_a_clean_build(self) -> None:
        if not (self.site / "content" / "site.yaml").exists():
            return
        STEPS_TAKEN["steps"] += 1
        with simulated_library(self.library_generation):
            clean = self.root / f"clean-{self.library_generation}"
            shutil.rmtree(clean, ignore_errors=True)
            warnings = shown(clean_build(self.site, clean).warnings)
            left = self.build_with_caches(warnings)
            expected = tree(clean)
            assert tree(self.site / "output") == expected
            served = tree(self.root / "served")
            assert {path: data for path, data in served.items() if path not in left} == {path: data for path, data in expected.items() if path not in left}
            assert left <= expected.keys()
            if left and self.downloads_left % 2:
                self.build_the_dev_server_again()
                assert tree(self.root / "served") == expected
            shutil.rmtree(clean)

    def build_with_caches(self, warnings: list[str] | None = None) -> set[str]:
        """Build as `sitegen build` does and as the dev server does, each saying the clean build's `warnings`
        (when given); the files the dev server left to write."""
        built = build_site(self.site)  # as `sitegen build` does: the cache read from disk and saved
        if self.dev_cache is None:
            self.dev_cache = BuildCache(self.site, folder=self.root / "dev-server-cache")
        served = build_site(self.site, self.root / "served", cache=self.dev_cache, memory=self.dev_memory, downloads_later=True)
        if warnings is not None:
            assert shown(built.warnings) == warnings
            assert shown(served.warnings) == warnings
            again = build_site(self.site)  # nothing changed since: up to date, and it says the same
            assert again.up_to_date and shown(again.warnings) == warnings
        if served.downloads is None:
            return set()
        STEPS_TAKEN["downloads later"] += 1
        if not self.downloads_written:
            self.downloads_left += 1
            return served.downloads.paths
        served.downloads.write()
        return set()

    def build_the_dev_server_again(self) -> None:
        """The dev server's next build, its last downloads never written, and this one's written."""
        again = build_site(self.site, self.root / "served", cache=self.dev_cache, memory=self.dev_memory, downloads_later=True)
        assert not again.up_to_date, "a build whose downloads were not written counted as up to date"
        if again.downloads is not None:
            again.downloads.write()

    def teardown(self) -> None:
        STEPS_TAKEN["walks"] += 1
        shutil.rmtree(self.root, ignore_errors=True)


class simulated_library:
    """While active, Markdown output and the library versions in the cache key carry `generation`."""

    def __init__(self, generation: int):
        self.generation = generation

    def __enter__(self) -> None:
        self.versions = sitegen.cache.library_versions
        self.markdown = sitegen.markup.render_markdown
        if self.generation == 0:
            return
        real_versions, real_markdown, generation = self.versions, self.markdown, self.generation
        sitegen.cache.library_versions = lambda: (*real_versions(), ("markdown", f"99.{generation}"))

        def markdown(text: str, *arguments, **options):  # render_markdown's arguments, by place or name
            converted = real_markdown(text, *arguments, **options)
            return type(converted)(converted.html + f"<!-- markdown 99.{generation} -->", converted.plain, converted.unconverted)

        sitegen.markup.render_markdown = markdown
        sitegen.enrich.render_markdown = markdown

    def __exit__(self, *exc_info) -> None:
        sitegen.cache.library_versions = self.versions
        sitegen.markup.render_markdown = self.markdown
        sitegen.enrich.render_markdown = self.markdown


class NothingKept(jinja2.BytecodeCache):
    """A template cache that keeps nothing: every template compiled from its text."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        pass

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        pass


def clean_build(site: Path, output: Path) -> BuildResult:
    """`sitegen build --no-cache` into `output` as a new process makes it: nothing of the builds before, not even
    the templates this process compiled (`theme.COMPILED_TEMPLATES`)."""
    kept = sitegen.theme.COMPILED_TEMPLATES
    sitegen.theme.COMPILED_TEMPLATES = NothingKept()  # type: ignore[assignment]
    try:
        return build_site(site, output, use_cache=False)
    finally:
        sitegen.theme.COMPILED_TEMPLATES = kept


def shown(warnings) -> list[str]:
    """The warnings a build prints about the content (not the build cache's notes about itself)."""
    return [str(problem) for problem in warnings if not (problem.location and problem.location.path.startswith(".sitegen-cache"))]


@settings(max_examples=12)
@given(
    first=st.dictionaries(st.integers(0, 3), bib_entry, min_size=2),
    edits=st.lists(st.tuples(st.integers(0, 3), bib_entry, st.sampled_from([*BIB_FIELDS, "remove"])), min_size=1, max_size=4),
)
def test_a_bib_of_many_entries_edited_builds_as_a_clean_build(first: dict[int, tuple[str, str, int, int]], edits: list) -> None:
    """What was made of a .bib's entries is kept by each entry's own text, not the file's (one edit of a lab's
    .bib of thousands converts one entry again): the walk above reaches its .bib only in some walks, so here
    every walk is one .bib edited field by field (an entry moved down by an edit above it keeps its text and
    must have its warnings at its new lines), each cached and dev-server build compared with a clean one."""
    root = Path(tempfile.mkdtemp(prefix="sitegen-bib-property-"))
    try:
        site = root / "site"
        (site / "content" / "records").mkdir(parents=True)
        (site / "content" / "site.yaml").write_text("title: Bib site\nbase_url: https://example.org/\n", encoding="utf-8")
        (site / "content" / "profile.yaml").write_text("name: Lena Müller\n", encoding="utf-8")
        dev_cache, dev_memory = BuildCache(site, folder=root / "dev-server-cache"), Memory()
        entries = dict(first)
        for step, edit in enumerate([None, *edits]):
            if edit is not None:
                bib_edited(entries, *edit)
            (site / "content" / "records" / "lab.bib").write_text(bib_text(entries), encoding="utf-8")
            clean = root / f"clean-{step}"
            warnings = shown(clean_build(site, clean).warnings)
            assert shown(build_site(site).warnings) == warnings
            served = build_site(site, root / "served", cache=dev_cache, memory=dev_memory)
            assert shown(served.warnings) == warnings
            assert tree(site / "output") == tree(clean) == tree(root / "served")
    finally:
        shutil.rmtree(root, ignore_errors=True)


@settings(max_examples=8, deadline=None)
@given(
    first=st.dictionaries(st.integers(0, 3), ris_entry, min_size=2),
    edits=st.lists(st.tuples(st.integers(0, 3), ris_entry, st.sampled_from([*BIB_FIELDS, "remove"])), min_size=1, max_size=4),
)
@pytest.mark.parametrize(
    ("name", "file_text", "prefix"), [("library.ris", ris_text, "ris"), ("zotero.json", csl_json_text, "csl"), ("pubmed.nbib", medline_text, "")]
)
def test_a_ris_csl_json_or_nbib_of_many_entries_edited_builds_as_a_clean_build(name: str, file_text, prefix: str, first: dict, edits: list) -> None:
    """A .ris (an EndNote or Zotero export), a CSL-JSON file (Zotero's) or a .nbib (PubMed's) edited entry by entry, added and at last
    removed: each cached and dev-server build equals a clean one, byte for byte, as a .bib's does."""
    root = Path(tempfile.mkdtemp(prefix="sitegen-ris-property-"))
    try:
        site = root / "site"
        (site / "content" / "records").mkdir(parents=True)
        (site / "content" / "site.yaml").write_text("title: RIS site\nbase_url: https://example.org/\n", encoding="utf-8")
        (site / "content" / "profile.yaml").write_text("name: Lena Müller\n", encoding="utf-8")
        (site / "content" / "records" / "own.yaml").write_text("id: own\ntitle: Own\nyear: 2020\n", encoding="utf-8")
        dev_cache, dev_memory = BuildCache(site, folder=root / "dev-server-cache"), Memory()
        entries = dict(first)
        library = site / "content" / "records" / name
        for step, edit in enumerate([None, *edits, "removed"]):
            if edit == "removed":
                library.unlink()
            else:
                if edit is not None:
                    bib_edited(entries, *edit)
                library.write_text(file_text(entries), encoding="utf-8")
            clean = root / f"clean-{step}"
            warnings = shown(clean_build(site, clean).warnings)
            assert shown(build_site(site).warnings) == warnings
            served = build_site(site, root / "served", cache=dev_cache, memory=dev_memory)
            assert shown(served.warnings) == warnings
            assert tree(site / "output") == tree(clean) == tree(root / "served")
            shown_ids = {path.name for path in (clean / "records").iterdir()}
            if prefix:
                assert shown_ids == {"own"} | ({f"{prefix}{number}" for number in entries} if edit != "removed" else set())
            else:  # a .nbib gives no ids: they are made as citation keys are, one each
                assert len(shown_ids) == 1 + (len(entries) if edit != "removed" else 0)
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(autouse=True)
def every_build_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forked workers on a small site, on any machine: the path a large site's new folder takes."""
    monkeypatch.setattr(sitegen.write, "FILES_WORTH_WORKERS", 8)
    monkeypatch.setattr(sitegen.write, "SPAN", 3)
    monkeypatch.setattr(sitegen.write, "worker_count", lambda: 2)
    monkeypatch.setattr(sitegen.write, "ProcessPoolExecutor", CountedPool)


class CountedPool(ProcessPoolExecutor):
    started = 0

    def __init__(self, *args, **kwargs) -> None:
        CountedPool.started += 1
        super().__init__(*args, **kwargs)


class TestCachedBuildsEqualCleanBuilds(CachedBuildsEqualCleanBuilds.TestCase):  # type: ignore[name-defined,misc]
    def runTest(self) -> None:
        """The walks, then the count: the builds compared must add up to MIN_STEPS."""
        super().runTest()
        print(f"property test: {STEPS_TAKEN['steps']} steps compared in {STEPS_TAKEN['walks']} walks")
        assert STEPS_TAKEN["steps"] >= MIN_STEPS, STEPS_TAKEN
        assert STEPS_TAKEN["downloads later"] > 0, "no dev-server build left files to write after the reload"
        assert CountedPool.started > 0, "no build shared its new folder among workers"


TestCachedBuildsEqualCleanBuilds.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)
