"""Links of the old site's texts to its own files and pages, as the new site names them.

A text of the old site (the bio, a post, a news item, a project, a talk) links the site's files
and pages as its tool served them: `/files/cv.pdf`, `{{ site.baseurl }}/assets/pdf/cv.pdf` (the
template tag already undone by `markdown_text`), `https://owner.github.io/files/cv.pdf`, a Hugo
bundle's `diagram.png`, Hugo's `{{< relref "second" >}}`, `../../publication/paper-a/`. Two steps
make them the new site's:

- as each text is read (`page_text`), a link that names a file of the old site copies the file into
  the new site's `static/` and names it there; any other link into the old site becomes a path from
  its root (`/publication/paper-a/`), as its tool served it;
- once every text is read, and so every old page's new address is known (`Imported.redirects`),
  `link_new_addresses` makes each such path the new address of what that page held; a link to a page
  that did not come over keeps its text without the link, and a note names it.

So nothing the texts linked is left broken without a word.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from sitegen.urls import post_slug, slugify

if TYPE_CHECKING:
    from sitegen.migrate import Imported, OldSite

# [text](target "title") and ![alt](target): group 2 is the target
MARKDOWN_LINK = re.compile(r"(?P<image>!?)\[(?P<text>(?:[^\[\]\\\n]|\\.)*)\]\(\s*<?(?P<target>[^)\s>]+)>?(?P<title>\s+(?:\"[^\"\n]*\"|'[^'\n]*'))?\s*\)")
HTML_LINK = re.compile(r"(?P<before>\s(?:src|href)\s*=\s*[\"'])(?P<target>[^\"'\s]+)(?P<after>[\"'])", re.IGNORECASE)
# a fenced code block or a code span: links there are text
# (a code span's runs of backticks are whole, CommonMark's rule: trying every shorter run took minutes over a long one)
CODE = re.compile(
    r"^[ \t]*(?P<fence>`{3,}+|~{3,}+)[^\n]*\n.*?(?:^[ \t]*(?P=fence)[ \t]*$|\Z)|(?<!`)(?P<ticks>`+)(?!`)[^\n]*?(?<!`)(?P=ticks)(?!`)", re.MULTILINE | re.DOTALL
)
# Hugo's link to another page of the site, by its file: {{< relref "second" >}}, {{% ref "/post/second.md" %}}
HUGO_REF = re.compile(r"\{\{[<%]\s*(?:rel)?ref\s+\"?(?P<name>[^\"\s>%]+)\"?\s*[>%]\}\}")
# Hugo Blox's citation of one of its publications: {{< cite page="/publication/preprint" view="citation" >}}
HUGO_CITE = re.compile(r"\{\{<\s*cite\s+page=\"(?P<name>[^\"]+)\"[^>]*>\}\}")
MARKDOWN_LINK_TO_REF = re.compile(r"\[(?P<text>(?:[^\[\]\\\n]|\\.)*)\]\(\s*" + HUGO_REF.pattern + r"\s*\)")
# what a tool makes a page of, or reads as settings: never a file a text links to as it is
SOURCE_SUFFIXES = (".md", ".markdown", ".qmd", ".ipynb", ".rmd", ".html", ".htm", ".liquid", ".yml", ".yaml", ".toml")
FOLDERS_SERVED_AT_THE_ROOT = ("", "static/", "content/")  # Jekyll: the site itself; Hugo: static/, a page bundle's files
FOLDERS_LEFT_OUT_OF_STATIC = ("assets", "static", "content")  # al-folio's assets/pdf/x.pdf -> static/pdf/x.pdf
MARKDOWN_SAFE_PATH = re.compile(r"[A-Za-z0-9._/-]+")


def outside_code(text: str, change: Callable[[str], str]) -> str:
    """`text` with `change` made to its prose, its code blocks and code spans as they were."""
    pieces, start = [], 0
    for code in CODE.finditer(text):
        pieces += [change(text[start : code.start()]), code.group(0)]
        start = code.end()
    return "".join([*pieces, change(text[start:])])


def hugo_refs(old: OldSite, imported: Imported, relative: str, text: str) -> str:
    """Hugo's `[text]({{< relref "second" >}})` as a link to the path Hugo gave that page (`/post/second/`), and
    Hugo Blox's `{{< cite page="/publication/x" >}}` as a link to the publication under its title; when no page of
    the old site has that name, its text without the link (a cite's name), and a note."""

    def as_path(match: re.Match[str]) -> str:
        if found := _hugo_page(old, match["name"]):
            return f"[{match['text']}](/{found[0]})"
        imported.left.append(f"{relative}: the link of '{match['text']}' names \"{match['name']}\", no page of the site: its text kept without it")
        return match["text"]

    def cited(match: re.Match[str]) -> str:
        from sitegen.migrate import a_string, plain_text

        if not (found := _hugo_page(old, match["name"])):
            imported.left.append(f'{relative}: a cite names "{match["name"]}", no page of the site: its name kept without a link')
            return match["name"]
        title = plain_text(a_string(old.front_matter(found[1])[0].get("title"))) or match["name"]
        words = re.sub(r"([][])", r"\\\1", title)
        return f"[{words}](/{found[0]})"

    return HUGO_CITE.sub(cited, MARKDOWN_LINK_TO_REF.sub(as_path, text))


def _hugo_page(old: OldSite, name: str) -> tuple[str, str] | None:
    """The address Hugo gave the page of content/ that a `ref` names ('second', 'post/second.md'), and its file."""
    wanted = PurePosixPath(name.strip("/").removesuffix(".md").removesuffix("/index").removesuffix("/_index"))
    for page in old.files("content", (".md",)):
        path = PurePosixPath(page).relative_to("content")
        named = path.parent if path.stem in ("index", "_index") else path.with_suffix("")
        if named == wanted or (len(wanted.parts) == 1 and named.name == wanted.name):
            return f"{named.as_posix()}/", page
    return None


def linked_text(old: OldSite, imported: Imported, relative: str, address: str, text: str) -> str:
    """`text` (Markdown of the old site's file `relative`, whose page was at `address`) with each link to a file of
    the old site naming its copy in the new site's static/, and each other link into the old site as a path
    from its root."""

    def new_target(target: str) -> str:
        if (path := _site_path(target, imported.base_url, *imported.other_addresses)) is None:
            return target
        if copied := own_file(old, imported, path, relative, address):
            return copied
        if path.startswith("/"):
            return path
        resolved = posixpath.normpath(posixpath.join("/" + address.strip("/"), path.partition("#")[0].partition("?")[0]))
        if resolved.startswith("/.."):
            return target
        return resolved + ("/" if path.partition("#")[0].endswith("/") and resolved != "/" else "") + _rest(path)

    def change(prose: str) -> str:
        prose = MARKDOWN_LINK.sub(lambda m: m.group(0).replace(m["target"], new_target(m["target"]), 1), prose)
        return HTML_LINK.sub(lambda m: m["before"] + new_target(m["target"]) + m["after"], prose)

    return outside_code(text, change)


def own_file(old: OldSite, imported: Imported, link: str, relative: str = "", address: str = "/") -> str:
    """The path in the new site ('static/files/cv.pdf') of the old site's file that `link` names, copied there
    ('' when it names none). `relative`: the old site's file the link is written in; `address`: its page's."""
    path = _site_path(link, imported.base_url, *imported.other_addresses)
    if not path:
        return ""
    bare = path.partition("#")[0].partition("?")[0]
    if bare.startswith("/"):
        candidates = [bare.lstrip("/")]
    else:
        folder = posixpath.dirname(relative)
        candidates = [posixpath.join(folder, bare), posixpath.join(address.strip("/"), bare), re.sub(r"^(?:\.\.?/)+", "", bare)]
    for candidate in (posixpath.normpath(c) for c in candidates if c.strip("./")):
        for served in FOLDERS_SERVED_AT_THE_ROOT:
            old_file = served + candidate
            if _may_be_linked(old_file) and (data := old.read_bytes(old_file)) is not None:
                target = _static_path(old_file)
                imported.files[target] = data
                return target.as_posix() + _rest(path)
    return ""


def _site_path(link: str, old_address: str, *other_addresses: str) -> str | None:
    """A link into the old site as a path: from its root ('/files/x.pdf', also for its own web address
    'https://owner.github.io/files/x.pdf') or relative ('diagram.png'); None for a link elsewhere or to a part
    of the page ('#top', 'mailto:'); `other_addresses`: the site's other web addresses (github.io beside its domain)."""
    link = link.strip()
    for known in (old_address, *other_addresses):
        for address in {known, known.replace("https://", "http://", 1), known.replace("http://", "https://", 1)} - {""}:
            if link.startswith(address):
                return "/" + link[len(address) :]
    if not link or link.startswith(("#", "//")) or urlsplit(link).scheme:
        return None
    for known in (old_address, *other_addresses):
        old_path = urlsplit(known).path.rstrip("/")  # a site that lived at /site/: /site/uploads/x.pdf
        if old_path and link.startswith(old_path + "/"):
            return "/" + link[len(old_path) + 1 :]
    return link


def _rest(link: str) -> str:
    """The query and fragment of a link ('?a=1#page=2'), '' without them."""
    path = link.partition("#")[0].partition("?")[0]
    return link[len(path) :]


def _may_be_linked(old_file: str) -> bool:
    """A file a page may link to as it is: not a page's source or settings, nothing of the tool's own folders."""
    parts = PurePosixPath(old_file).parts
    return (
        bool(parts)
        and not old_file.startswith("..")
        and not any(part.startswith(("_", ".")) for part in parts)
        and "." in parts[-1]
        and not old_file.lower().endswith(SOURCE_SUFFIXES)
    )


def _static_path(old_file: str) -> PurePosixPath:
    """Where the new site keeps a file of the old one: static/, without al-folio's assets/ or Hugo's static/ and
    content/ ('assets/pdf/cv.pdf' -> 'static/pdf/cv.pdf'), in names Markdown links to as they are."""
    parts = list(PurePosixPath(old_file).parts)
    if len(parts) > 1 and parts[0] in FOLDERS_LEFT_OUT_OF_STATIC:
        parts = parts[1:]
    return PurePosixPath("static", *(part if MARKDOWN_SAFE_PATH.fullmatch(part) else slugify(part) for part in parts))


def link_new_addresses(imported: Imported) -> None:
    """Each link of the new site's texts (bio, posts, news, pages, talks) to a page of the old site
    ('/blog/2015/math/') as the new address of what that page held ('posts/math/'); a link to a page that did
    not come over keeps its text, and a note names it."""
    moved = {_address_key(old): new for old, new in imported.redirects.items()}
    here = new_site_addresses(imported)

    def new_link(target: str, where: str) -> str | None:
        if not target.startswith("/") or target.startswith("//"):
            return target
        key = _address_key(target.partition("#")[0].partition("?")[0])
        if key in moved:
            new = moved[key]
        elif f"{key}/" in here or key == "":
            new = f"{key}/".lstrip("/")
        else:
            imported.left.append(f"{where}: a link to {target}, which names no page or file that came over: its text kept without it")
            return None
        return f"./{new}" if new.startswith("#") or not new else new + _rest(target)

    def change(text: str, where: str) -> str:
        def markdown(match: re.Match[str]) -> str:
            if (new := new_link(match["target"], where)) is None:
                return "" if match["image"] else match["text"]
            return match.group(0).replace(match["target"], new, 1)

        return outside_code(text, lambda prose: MARKDOWN_LINK.sub(markdown, prose))

    imported.bio = change(imported.bio, "content/profile.yaml (the bio)")
    for path, data in imported.files.items():
        if path.parts[:2] in {("content", kind) for kind in ("posts", "news", "pages", "talks")} and path.suffix in (".md", ".yaml"):
            imported.files[path] = change(data.decode("utf-8"), path.as_posix()).encode("utf-8")


def _address_key(address: str) -> str:
    """An address of the old site as one to compare: '/About.html', 'about/', '/about/index.html' -> 'about'."""
    key = address.strip("/").lower().removesuffix("index.html").removesuffix(".html").strip("/")
    return key


def new_site_addresses(imported: Imported) -> set[str]:
    """The addresses of the new site's own pages and folders, lower case ('posts/', 'teaching/', 'posts/math/')."""
    here = {"news/", "talks/", "posts/"} | ({"cv/"} if PurePosixPath("content/cv.yaml") in imported.files else set())
    for path in imported.files:
        if path.parts[:2] == ("content", "pages"):
            here.add(f"{path.stem.lower()}/")
        elif path.parts[:2] == ("content", "posts") and not path.name.startswith("_"):
            here.add(f"posts/{post_slug(path.as_posix()).lower()}/")
        elif path.parts[:2] == ("content", "projects") and not path.name.startswith("_"):
            here |= {"projects/", f"projects/{path.stem.lower()}/"}
    return here


def file_fields(old: OldSite, imported: Imported, relative: str, text: str, field_names: str) -> str:
    """A record file's text (YAML or TOML front matter) with each field of `field_names` (a pattern: 'url_\\w+'),
    also one of a list's items (Hugo Blox's `links:`, `- type: pdf` then `url: uploads/paper.pdf`), that names a file of the old site ('/files/paper.pdf', Hugo's 'uploads/paper.pdf') naming its copy in the new
    site's static/; a path that names no file of the old site is left as written, and a note names it."""

    def new_value(match: re.Match[str]) -> str:
        value = match["value"]
        if _site_path(value, imported.base_url, *imported.other_addresses) is None or value.startswith("static/"):
            return match.group(0)
        if copied := own_file(old, imported, value, relative):
            return f"{match['key']}{match['quote']}{copied}{match['quote']}"
        if value.rstrip().endswith("/"):  # a page of the old site ('/post/x/'): its address leads on (content/redirects.yaml)
            return match.group(0)
        imported.left.append(f"{relative}: {match['name']} names {value}, no file of the old site: left as written")
        return match.group(0)

    field = re.compile(
        rf"^(?P<key>[ \t]*(?:-[ \t]+)?(?P<name>{field_names})[ \t]*[:=][ \t]*)(?P<quote>['\"]?)(?P<value>[^'\"\s#][^'\"\n]*?)(?P=quote)[ \t]*$", re.MULTILINE
    )
    return field.sub(new_value, text)
