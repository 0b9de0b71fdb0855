"""Whatever a pull request's content holds, a build is safe: a hostile-input suite.

Hypothesis writes site.yaml, profile.yaml and record files (YAML, BibTeX, Markdown, RIS, CSL-JSON and
Quarto's .qmd) from a grammar of hostile values — HTML and script in every text field, URL
schemes, control characters, bidi overrides, huge and deeply nested values,
wrong types, odd file names and symbolic links — over a site that built once.
Each build must either

- succeed, with every page parsing and no script, event handler or `javascript:`
  URL beyond the theme's own, and nothing from outside the site published; or
- fail with problems that each name a file of the site (`path:` or `path:line:`),
  leaving output/ exactly as the last good build left it;

and never end in any other exception. Inputs that once broke a build are kept
in tests/fixtures/hostile/ and replayed first.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import tree, write_site
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from sitegen.build import build_site
from sitegen.errors import SitegenError

EXAMPLES = int(os.environ.get("SITEGEN_HOSTILE_EXAMPLES", "60"))  # .ci/run sets 500
CORPUS = Path(__file__).parent.parent / "fixtures" / "hostile"
SECRET = "OUTSIDE-SECRET-7f3a"

BASE_FILES = {
    "content/site.yaml": "title: Safe site\nbase_url: https://example.org/\n",
    "content/profile.yaml": "name: Ada Lovelace\n",
    "content/records/base.yaml": "id: base\ntitle: A base record\nyear: 2020\nauthors: [Ada Lovelace]\n",
}

PAYLOADS = [
    "<script>alert(1)</script>",
    "</script><script>alert(2)</script>",
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    "javascript:alert(1)",
    " JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "vbscript:msgbox(1)",
    '" onmouseover="alert(1)',
    "' onfocus='alert(1)' autofocus='",
    '<a href="javascript:alert(1)">x</a>',
    "[md](javascript:alert(1))",
    "<javascript:alert(1)>",
    "![i](javascript:alert(1))",
    "&#106;avascript:alert(1)",
    "$\\href{javascript:alert(1)}{x}$",
    "\\href{javascript:alert(1)}{x}",
    "{{ 7*7 }}",
    "{% raw %}",
    "${7*7}",
    "\u202eevil\u202c",
    "\u200b",
    "\x00",
    "\x07",
    "\x1b[31m",
    "\ud7ff",
    "\ufeff",
    "\ue0007\ue001 $x$",  # the Markdown stage's placeholder, typed (private use)
    "\ue0020\ue003",  # a mark like that of a page's list of publications
    "{",
    "}",
    "\\",
    "$",
    "$$",
    "%",
    "<iframe src=//evil>",
    "<meta http-equiv=refresh content=0;url=//evil>",
    "<style>*{}</style>",
    "<!--",
    "]]>",
    "x" * 3000,
    "é" * 500,
    "²",  # a digit to str.isdigit, no number to int
    "1" * 5000,  # more digits than int reads
    "given=<script>x</script>, family=javascript:alert(1)",  # Biber's extended name format
    "1=equal; 2=<img src=x onerror=alert(1)>",  # a biblatex annotation
    "../../etc/passwd",
    "/etc/passwd",
    "CON",
    "nul",
    "a/b",
    ".",
    "..",
]

# whole files that no reader should take apart by recursion or in quadratic time: deep JSON, numbers int() refuses,
# a YAML alias bomb, RIS with no end, a tag line of a million characters
RAW_FILES = [
    (".json", "[" * 5000 + "]" * 5000),
    (".json", '{"a":' * 3000 + "1" + "}" * 3000),
    (".json", '[{"id": "n", "type": "book", "title": "T", "issued": {"date-parts": [["' + "9" * 5000 + '"]]}}]'),
    (".json", '[{"id": "n", "type": "book", "title": "T", "issued": {"date-parts": [["2020", "²"]]}}]'),
    (".json", '[{"id": "n", "type": "book", "title": "T", "issued": {"date-parts": [[1e999]]}, "volume": NaN}]'),
    (".json", '[{"id": "n", "type": "book", "title": "\\ud800", "author": [{"family": {"x": []}}], "issued": {"date-parts": [[2020]]}}]'),
    (
        ".qmd",
        "---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
        "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ntitle: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nauthor: *d\n---\n",
    ),
    (".ris", "TY  - JOUR\nTI  - x\nAU  - " + "a " * 50000 + "\n"),
    (".ris", "TY  - JOUR\n" + "TI  - " + "x" * 1_000_000 + "\nER  - \n"),
    (".ris", "TY  - JOUR\nTY  - BOOK\nER  - \nER  - \n\x00\ufeffTY  - \n"),
    (".bib", "@article{m, title={T}, author={A B}, year={2020}, month={²}, author+an={" + "1" * 5000 + "=equal}}\n"),
    (".nbib", "PMID- 1\nTI  - x\nDP  - 2020\nAU  - " + "a " * 50000 + "\n" + "      continued\n" * 20000),
    (".nbib", "PMID- 1\n" + "TI  - " + "x" * 1_000_000 + "\nDP  - 2020 Foo 99\nPG  - " + "9" * 5000 + "-1\n"),
    (".nbib", "PMID- 1\nPMID- 1\n\x00\ufeffTI  - \nDP  - 99999999\nDEP - 20209999\nEFR - doi: 10.1/x. PMID: 1\nAUID- ORCID: " + "0" * 5000 + "\n"),
]

# reference managers' rich text in a title (sitegen.sources.rich_text), nested deeper than any stack
RICH_TEXT = [
    "<i>E. coli</i> at 10<sup>5</sup>",
    '<span style="font-variant:small-caps">x</span><span class="nocase">y</span><sub>2</sub>',
    '<i onclick="alert(1)">x</i><script>alert(1)</script>',
    "<i>a}\\href{javascript:alert(1)}{x</i>",
    "<sup>" * 300 + "x" + "</sup>" * 300,
]

text_value = st.one_of(
    st.sampled_from(PAYLOADS),
    st.lists(st.sampled_from(PAYLOADS), min_size=2, max_size=4).map("".join),
    st.text(max_size=40),
)
scalar = st.one_of(text_value, st.integers(-(10**20), 10**20), st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none())
any_value = st.recursive(scalar, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(text_value, inner, max_size=3)), max_leaves=12)
url_value = st.one_of(st.sampled_from(PAYLOADS), st.sampled_from(["https://example.org/x", "mailto:a@b.c", "static/x.pdf", "//evil.example/"]))


def maybe(strategy):
    """Mostly a value of the right shape with hostile content; now and then anything at all."""
    return st.one_of(strategy, strategy, strategy, strategy, any_value)


record = st.fixed_dictionaries(
    {"id": maybe(text_value)},
    optional={
        "title": maybe(st.one_of(text_value, st.sampled_from(RICH_TEXT))),
        "authors": maybe(st.lists(text_value, max_size=4)),
        "year": maybe(st.integers(0, 99999)),
        "source": maybe(text_value),
        "abstract": maybe(text_value),
        "categories": maybe(st.lists(text_value, max_size=3)),
        "links": maybe(st.dictionaries(st.sampled_from(["pdf", "code", "abs", "x y", "on"]), url_value, max_size=3)),
        "doi": maybe(text_value),
        "arxiv": maybe(text_value),
        "featured": maybe(st.booleans()),
        "award": maybe(text_value),
        "venue_short": maybe(text_value),
        "image": maybe(url_value),
        "type": maybe(text_value),
        "citations": maybe(st.integers(-5, 10**6)),
        "date": maybe(st.dates().map(str)),
        "aliases": maybe(st.lists(text_value, max_size=2)),  # the old addresses of a renamed record: redirect pages
    },
)
site_settings = st.fixed_dictionaries(
    {"title": maybe(text_value)},
    optional={
        "base_url": maybe(url_value),
        "cname": maybe(text_value),
        "language": maybe(text_value),
        "description": maybe(text_value),
        "records_per_page": maybe(st.integers(-3, 5)),
        "theme": maybe(st.sampled_from(["default", "../..", "nope", "<x>"])),
        # the posts' comments (giscus): values a page hands to a script as data attributes
        "comments": maybe(
            st.fixed_dictionaries(
                {
                    "giscus": maybe(
                        st.fixed_dictionaries(
                            {
                                "repo": maybe(st.one_of(text_value, st.just("jane/site"))),
                                "repo_id": maybe(st.one_of(text_value, st.just("R_kgDOabc"))),
                                "category": maybe(text_value),
                                "category_id": maybe(st.one_of(text_value, st.just("DIC_kwDOabc"))),
                            },
                            optional={"mapping": maybe(text_value), "reactions": maybe(st.booleans())},
                        )
                    )
                }
            )
        ),
    },
)
profile = st.fixed_dictionaries(
    {"name": maybe(text_value)},
    optional={
        "name_variants": maybe(st.lists(text_value, max_size=3)),
        "affiliation": maybe(text_value),
        "position": maybe(text_value),
        "bio": maybe(text_value),
        "email": maybe(text_value),
        "photo": maybe(text_value),
        "links": maybe(st.dictionaries(st.sampled_from(["orcid", "github", "website", "evil"]), url_value, max_size=3)),
    },
)
file_name = st.sampled_from(
    [
        "r.yaml",
        "ünï cødé.yaml",
        "sp ace.yml",
        "x" * 200 + ".yaml",
        "CON.yaml",
        "sub/dir/r.yaml",
        "arxiv/r.yaml",
        "r.bib",
        "r.md",
        "r.ris",
        "r.nbib",
        "r.json",
        "r.qmd",
        "publication/paper/index.md",
        "notes.txt",
    ]
)


def markdown_text(entries: list[dict]) -> str:
    """A Markdown record (one a file): the first entry's fields as front matter, its abstract as the text below."""
    fields = dict(entries[0])
    abstract = fields.pop("abstract", "")
    return "---\n" + yaml.safe_dump(fields, allow_unicode=True) + "---\n" + str(abstract)


def ris_text(entries: list[dict]) -> str:
    """A RIS file (EndNote's, Zotero's export): a tag a line, a field's list one line each."""

    def lines(tag: str, value) -> str:
        values = value if isinstance(value, list) else list(value.values()) if isinstance(value, dict) else [value]
        return "".join(f"{tag}  - {str(one).replace(chr(10), ' ').replace(chr(13), ' ')}\n" for one in values)

    tags = {"id": "ID", "title": "TI", "authors": "AU", "year": "PY", "source": "T2", "abstract": "AB", "doi": "DO", "links": "UR", "image": "L1"}
    tags |= {"categories": "KW", "type": "M3", "award": "N1", "venue_short": "J2", "date": "DA", "aliases": "U1"}
    return "\n".join("TY  - JOUR\n" + "".join(lines(tags[key], value) for key, value in entry.items() if key in tags) + "ER  - \n" for entry in entries)


def medline_text(entries: list[dict]) -> str:
    """A MEDLINE file (PubMed's .nbib export): a tag padded to four columns a line, a long value continued on lines
    indented by six spaces, each citation from its PMID line."""

    def lines(tag: str, value) -> str:
        values = value if isinstance(value, list) else list(value.values()) if isinstance(value, dict) else [value]
        out = ""
        for one in values:
            words = str(one).replace(chr(10), " ").replace(chr(13), " ")
            out += f"{tag:<4}- {words[:60]}\n" + "".join(f"      {words[at : at + 60]}\n" for at in range(60, len(words), 60))
        return out

    tags = {"title": "TI", "authors": "FAU", "year": "DP", "source": "JT", "abstract": "AB", "doi": "LID", "categories": "OT", "type": "PT"}
    tags |= {"venue_short": "TA", "date": "DEP", "language": "LA", "award": "EFR", "aliases": "AUID"}
    return "\n".join(
        f"PMID- {number}\n" + "".join(lines(tags[key], value) for key, value in entry.items() if key in tags) for number, entry in enumerate(entries, start=1)
    )


def csl_json_text(entries: list[dict]) -> str:
    """A CSL-JSON file (Zotero's, Better BibTeX's, Pandoc's references.json): the fields as CSL variables, of any type."""

    def item(entry: dict) -> dict:
        names = entry.get("authors")
        made = {
            "id": entry.get("id"),
            "type": entry.get("type", "article-journal"),
            "title": entry.get("title"),
            "author": [{"literal": name} if i % 2 else {"family": name, "given": name} for i, name in enumerate(names)] if isinstance(names, list) else names,
            "issued": {"date-parts": [[entry["year"]]]} if "year" in entry else entry.get("date"),
            "container-title": entry.get("source"),
            "abstract": entry.get("abstract"),
            "DOI": entry.get("doi"),
            "URL": next(iter(entry["links"].values()), None) if isinstance(entry.get("links"), dict) and entry["links"] else entry.get("links"),
            "keyword": entry.get("categories"),
            "note": entry.get("award"),
        }
        return {key: value for key, value in made.items() if key in ("id", "type") or value is not None}

    return json.dumps([item(entry) for entry in entries], ensure_ascii=False, default=str)


def quarto_text(entries: list[dict]) -> str:
    """A Quarto publication page (.qmd): its front matter's title, author, date, description and citation."""
    fields = entries[0]
    front = {
        "title": fields.get("title"),
        "author": [{"name": name} for name in fields["authors"]] if isinstance(fields.get("authors"), list) else fields.get("authors"),
        "date": fields.get("date", f"{fields.get('year')}-01-01"),
        "description": fields.get("abstract"),
        "categories": fields.get("categories"),
        "image": fields.get("image"),
        "aliases": fields.get("aliases"),
        "citation": {"type": fields.get("type"), "container-title": fields.get("source"), "doi": fields.get("doi"), "url": fields.get("links")},
    }
    return (
        "---\n"
        + yaml.safe_dump({key: value for key, value in front.items() if value is not None}, allow_unicode=True)
        + "---\n"
        + str(fields.get("abstract", ""))
    )


def bibtex_text(entries: list[dict]) -> str:
    def field(value) -> str:
        return str(value).replace("\n", " ")

    return "\n".join(
        "@article{" + field(entry.get("id", "k")) + ",\n" + "".join(f"  {key} = {{{field(value)}}},\n" for key, value in entry.items() if key != "id") + "}\n"
        for entry in entries
    )


# the site's own Markdown: a page, a blog post, a news item or a project, with hostile settings and text
own_text = st.tuples(
    st.sampled_from(["pages", "posts", "news", "projects"]),
    st.sampled_from(["a.md", "2024-01-01-b.md", "x/index.md", "..md", "CON.md", "ünï.md"]),
    maybe(
        st.fixed_dictionaries(
            {},
            optional={
                "title": maybe(text_value),
                "date": maybe(st.dates().map(str)),
                "slug": maybe(st.one_of(text_value, st.sampled_from(["..", "../x", "Records", "feed.xml", "a/b", "a/../b", "ok", "OK"]))),
                "description": maybe(text_value),
                "nav": maybe(st.integers(-3, 3)),
                "tags": maybe(st.one_of(text_value, st.lists(st.one_of(text_value, st.sampled_from(["..", "a/b", "<b>", "ML", "ml"])), max_size=3))),
                "toc": maybe(st.booleans()),
                "comments": maybe(st.booleans()),
                # a project's
                "image": maybe(url_value),
                "links": maybe(st.dictionaries(st.sampled_from(["code", "website", "x y"]), url_value, max_size=2)),
                "records": maybe(st.lists(st.one_of(text_value, st.just("base")), max_size=3)),
                "subjects": maybe(st.lists(text_value, max_size=2)),
                "status": maybe(st.one_of(text_value, st.sampled_from(["active", "past"]))),
            },
        )
    ),
    st.one_of(
        text_value,
        st.sampled_from(
            [
                "![x](javascript:alert(1))",
                "![t](https://t.example/p.gif)",
                "![s](static/x.png)",
                '{{< publications type="<script>" >}}',
                "```\n<script>alert(1)</script>\n```",
                'A[^1]\n\n[^1]: <b onclick="x">note</b> [j](javascript:alert(1))',
                "| a | <script>alert(1)</script> |\n|:--|--:|\n| [x](javascript:alert(1)) | `b` |",
                '[^a" onmouseover="alert(1)]\n\n[^a" onmouseover="alert(1)]: n',
            ]
        ),
    ),
)
site_files = st.fixed_dictionaries(
    {
        "site": maybe(site_settings),
        "profile": maybe(profile),
        "records": st.lists(st.tuples(file_name, st.lists(record, min_size=1, max_size=3)), max_size=3),
        # a record file that is not what its name says: a payload in a file of any kind, or a whole hostile file
        "raw": st.one_of(
            st.none(), st.tuples(st.sampled_from([".yaml", ".ris", ".nbib", ".json", ".qmd", ".bib"]), st.sampled_from(PAYLOADS)), st.sampled_from(RAW_FILES)
        ),
        "links": st.lists(st.sampled_from(["static-out", "record-out", "record-in", "template-out"]), max_size=2, unique=True),
        "texts": st.lists(own_text, max_size=3),
    }
)


def write_hostile(site: Path, spec: dict, outside: Path) -> None:
    (site / "content" / "site.yaml").write_text(yaml.safe_dump(spec["site"], allow_unicode=True), encoding="utf-8", errors="surrogatepass")
    (site / "content" / "profile.yaml").write_text(yaml.safe_dump(spec["profile"], allow_unicode=True), encoding="utf-8", errors="surrogatepass")
    for name, records in spec["records"]:
        path = site / "content" / "records" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if name.endswith(".bib"):
            text = bibtex_text(records)
        elif name.endswith(".md"):
            text = markdown_text(records)
        elif name.endswith(".ris"):
            text = ris_text(records)
        elif name.endswith(".nbib"):
            text = medline_text(records)
        elif name.endswith(".json"):
            text = csl_json_text(records)
        elif name.endswith(".qmd"):
            text = quarto_text(records)
        else:
            text = yaml.safe_dump(records if len(records) > 1 else records[0], allow_unicode=True)
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        outcome(f"a {path.suffix} record file")
    for folder, name, front, body in spec.get("texts", []):  # the corpus's older examples have none
        path = site / "content" / folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("---\n" + yaml.safe_dump(front, allow_unicode=True) + "---\n" + str(body) + "\n", encoding="utf-8", errors="surrogatepass")
    if spec["raw"] is not None:  # (suffix, text); the corpus's older examples are the text of a raw.yaml
        suffix, raw = spec["raw"] if isinstance(spec["raw"], (list, tuple)) else (".yaml", spec["raw"])
        (site / "content" / "records" / ("raw" + suffix)).write_text(raw, encoding="utf-8", errors="surrogatepass")
        outcome(f"a whole {suffix} record file of hostile text")
    for link in spec["links"]:
        if link == "static-out":
            (site / "static").mkdir(exist_ok=True)
            (site / "static" / "leak.txt").symlink_to(outside)
        elif link == "record-out":
            (site / "content" / "records" / "leak.yaml").symlink_to(outside)
        elif link == "record-in":
            (site / "content" / "records" / "again.yaml").symlink_to(site / "content" / "records" / "base.yaml")
        elif link == "template-out":
            (site / "templates").mkdir(exist_ok=True)
            (site / "templates" / "404.html").symlink_to(outside)


URL_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href", "poster", "data", "srcset")
UNSAFE_SCHEME = re.compile(r"^(?:javascript|data|vbscript):", re.I)


def assert_safe_page(name: str, data: bytes, theme_scripts: set[str]) -> None:
    soup = BeautifulSoup(data.decode("utf-8"), "lxml")
    for element in soup.find_all(True):
        for attribute, value in element.attrs.items():
            assert not attribute.lower().startswith("on"), f"{name}: event handler {attribute} on <{element.name}>"
            if attribute.lower() in URL_ATTRIBUTES:
                shown = "".join(ch for ch in str(value) if ch > " ").lower()
                assert not UNSAFE_SCHEME.match(shown), f"{name}: {attribute}={value!r} on <{element.name}>"
        assert element.name not in ("iframe", "object", "embed", "base", "frame"), f"{name}: <{element.name}>"
        if element.name == "meta" and (element.get("http-equiv") or "").lower() == "refresh":  # a redirect page's, to a page of the site
            target = (element.get("content") or "").partition("url=")[2]
            assert target.startswith("/") and not target.startswith("//") and "\\" not in target, f"{name}: meta refresh to {target!r}"
    for script in soup.find_all("script"):
        if script.get("type") == "application/ld+json":
            assert "</script" not in script.string.lower()
            continue
        assert script_signature(script) in theme_scripts, f"{name}: a script the theme does not have: {str(script)[:120]!r}"


def theme_scripts_of(output: Path) -> set[str]:
    """The scripts of a benign build: the theme's own."""
    found = set()
    for path in output.rglob("*.html"):
        for script in BeautifulSoup(path.read_text(encoding="utf-8"), "lxml").find_all("script"):
            if script.get("type") != "application/ld+json":
                found.add(script_signature(script))
    return found


def script_signature(script) -> str:
    """What a script is: its text, or for a file of the site's own origin, its path from static/."""
    source = script.get("src")
    if source is None:
        return script.string or ""
    if source.startswith("/") and not source.startswith("//") and "/static/" in source:
        return "static/" + source.split("/static/", 1)[1]
    return source


def outcome(text: str) -> None:
    """Counted in Hypothesis's statistics when a generated example runs (not when the corpus replays)."""
    try:
        event(text)
    except InvalidArgument:
        pass


def check_one(spec: dict) -> None:
    root = Path(tempfile.mkdtemp(prefix="sitegen-hostile-"))
    try:
        outside = root / "outside.yaml"
        outside.write_text(f"id: leaked\ntitle: {SECRET}\nyear: 2020\n", encoding="utf-8")
        site = root / "site"
        for name, text in BASE_FILES.items():
            (site / name).parent.mkdir(parents=True, exist_ok=True)
            (site / name).write_text(text, encoding="utf-8")
        build_site(site)
        theme_scripts = theme_scripts_of(site / "output") | {"static/comments.js"}  # a post's, when site.yaml has comments
        before = tree(site / "output")
        write_hostile(site, spec, outside)
        try:
            build_site(site)
        except SitegenError as error:
            outcome("the build failed with problems")
            for problem in error.problems:
                assert problem.location is not None and problem.location.path, f"a problem that names no file: {problem}"
                assert not problem.location.path.startswith("/") and ".." not in problem.location.path.split("/"), str(problem)
                assert SECRET not in str(problem)
            assert tree(site / "output") == before, "a failed build changed output/"
            return
        outcome("the build succeeded")
        built = tree(site / "output")
        for name, data in built.items():
            assert SECRET.encode() not in data, f"{name} holds a file from outside the site"
            if name.endswith(".html"):
                assert_safe_page(name, data, theme_scripts)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def built_or_refused(root: Path, files: dict[str, str]) -> list[str]:
    """Build a site of BASE_FILES and `files`; the messages a user reads (warnings, or the problems of a failed
    build), each naming a file of the site. Any other exception fails the test."""
    site = write_site(root / "site", {**BASE_FILES, **files})
    try:
        result = build_site(site)
    except SitegenError as error:
        problems = error.problems
    else:
        problems = result.warnings
    for problem in problems:
        assert problem.location is not None and problem.location.path, f"a problem that names no file: {problem}"
    return [str(problem) for problem in problems]


# numbers no `int` reads: '²' is a digit to str.isdigit and no number to int; int refuses 4,300 digits
NOT_NUMBERS = {
    "bib-month-superscript": ("content/records/r.bib", "@article{m, title={T}, author={A B}, year={2020}, month={²}}\n", "r.bib:1: warning"),
    "bib-month-huge": ("content/records/r.bib", "@article{m, title={T}, author={A B}, year={2020}, month={" + "1" * 5000 + "}}\n", "r.bib:1: warning"),
    "bib-author-an-huge": (
        "content/records/r.bib",
        "@article{m, title={T}, author={A B}, year={2020}, author+an={" + "1" * 5000 + "=equal}}\n",
        "r.bib:1: warning",
    ),
    "csl-date-superscript": ("content/records/r.json", '[{"id": "c", "type": "book", "title": "T", "issued": {"date-parts": [["2020", "²"]]}}]', "r.json:1:"),
    "csl-date-huge": ("content/records/r.json", '[{"id": "c", "type": "book", "title": "T", "issued": {"date-parts": [["' + "1" * 5000 + '"]]}}]', "r.json:1:"),
    "yaml-year-superscript": ("content/records/r.yaml", "id: y\ntitle: T\nyear: '²'\n", "r.yaml:3:"),
    "yaml-year-huge": ("content/records/r.yaml", "id: y\ntitle: T\nyear: '" + "1" * 5000 + "'\n", "r.yaml:3:"),
}


@pytest.mark.parametrize("name", NOT_NUMBERS)
def test_a_number_int_cannot_read_is_a_message_at_its_line_not_a_traceback(tmp_path: Path, name: str) -> None:
    path, text, message = NOT_NUMBERS[name]
    shown = built_or_refused(tmp_path, {path: text})
    assert any(message in line for line in shown), shown
    assert all(len(line) < 400 for line in shown), "a message quotes what a pull request wrote cut short, not 5,000 digits"


# a field of 100,000 spaces or marks where each reader's patterns look for names, annotations and marks: read
# in the time of any field, not in the minutes a pattern that tries every place of it over again would take
HUGE = 100_000
HUGE_FIELDS = {
    "biber-extended-name": ("content/records/r.bib", "@article{h, title={T}, author={given=x" + " " * HUGE + "y, family=Z}, year={2020}}\n"),
    "author-annotation": ("content/records/r.bib", "@article{h, title={T}, author={A B and C D}, author+an={1=x" + " " * HUGE + "y}, year={2020}}\n"),
    "name-list-spaces": ("content/records/r.bib", "@article{h, title={T}, author={A" + " " * HUGE + "B and C D}, year={2020}}\n"),
    "al-folio-annotation": ("content/records/r.bib", "@article{h, title={T}, author={A B}, annotation={* x" + " " * HUGE + "y}, year={2020}}\n"),
    "name-of-marks": ("content/records/r.yaml", "id: h\ntitle: T\nyear: 2020\nauthors: ['Ann " + "*" * HUGE + "x', 'B" + " " * HUGE + "*x']\n"),
    "yaml-error-line-of-spaces": ("content/records/r.yaml", "id: h\ntitle: a: b" + " " * HUGE + "c\nyear: 2020\n"),  # the hint's pattern
    "page-line-of-backticks": ("content/pages/a.md", "---\ntitle: A\n---\n{{ <b> " + "`" * HUGE + "\n"),  # code spans, set aside before a look for tags
    "medline-abstract-of-labels": ("content/records/r.nbib", "PMID- 1\nTI  - T\nDP  - 2020\nAB  - " + "AB. " * (HUGE // 4) + "CD: x\n"),
    "medline-pages-of-digits": ("content/records/r.nbib", "PMID- 1\nTI  - T\nDP  - 2020\nPG  - " + "1" * HUGE + "-" + "2" * HUGE + "\n"),
    "csl-name-of-marks": (
        "content/records/r.json",
        '[{"id": "h", "type": "book", "title": "T", "author": [{"literal": "Ann' + "*" * HUGE + 'x"}], "issued": {"date-parts": [[2020]]}}]',
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", HUGE_FIELDS)
def test_a_huge_field_builds_in_seconds(tmp_path: Path, name: str) -> None:
    path, text = HUGE_FIELDS[name]
    started = time.perf_counter()
    built_or_refused(tmp_path, {path: text})
    assert time.perf_counter() - started < 10, "a pull request's one large field holds up every build (and the dev server)"


def corpus() -> list[dict]:
    return [yaml.safe_load(path.read_text(encoding="utf-8")) for path in sorted(CORPUS.glob("*.yaml"))]


@pytest.mark.parametrize("spec", corpus(), ids=[p.stem for p in sorted(CORPUS.glob("*.yaml"))])
def test_past_failures_stay_fixed(spec: dict) -> None:
    check_one(spec)


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(site_files)
def test_any_content_builds_safely_or_fails_with_a_place(spec: dict) -> None:
    check_one(spec)
