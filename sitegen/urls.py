"""Where every page lives, as output paths and as URLs.

Links are root-relative with the base path (`/repo/records/x/`), so that they
work on GitHub project pages, at a domain root, and from the 404 page that
GitHub serves at any depth. Absolute URLs (feed, sitemap) add the host.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import hashlib
import ipaddress
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar
from urllib.parse import quote, urlsplit, urlunsplit

from sitegen.errors import Problem

if TYPE_CHECKING:
    from sitegen.model import Entry, Site


# picture formats X (Twitter) cards, Facebook's and LinkedIn's Open Graph previews do not show: a link preview
# (og:image, twitter:image) names no such picture. Any other (PNG, JPEG, GIF, WebP, or an address naming no format) may be one.
NO_LINK_PREVIEW_FORMATS = {
    "svg": "SVG",
    "svgz": "SVG",
    "avif": "AVIF",
    "heic": "HEIC",
    "heif": "HEIF",
    "tif": "TIFF",
    "tiff": "TIFF",
    "bmp": "BMP",
    "ico": "ICO",
}

# of those, the formats no browser but Safari shows on a page (HEIC and HEIF: an iPhone's photos)
ONLY_SAFARI_SHOWS = frozenset({"HEIC", "HEIF", "TIFF"})


def no_link_preview_format(address: str) -> str:
    """The name of the picture format at `address` when link previews cannot show it ('SVG' for 'static/lena.svg'),
    else ''."""
    suffix = PurePosixPath(urlsplit(address.strip()).path).suffix.lower().lstrip(".")
    return NO_LINK_PREVIEW_FORMATS.get(suffix, "")


def link_preview_problem(address: str) -> str:
    """What to say about a picture (a profile's `photo`, a record's `image`) that link previews cannot show; '' for one
    they can."""
    kind = no_link_preview_format(address)
    if not kind:
        return ""
    address = address.strip()
    suffix = PurePosixPath(urlsplit(address).path).suffix
    example = f" ({address[: -len(suffix)]}.png)" if address.endswith(suffix) else ""
    article = "an" if kind[0] in "AEHIS" else "a"  # an SVG, an AVIF, an HEIC, an ICO; a TIFF, a BMP
    if kind in ONLY_SAFARI_SHOWS:  # an iPhone's photo as it comes: a broken picture in every other browser
        stem = address[: -len(suffix)] if suffix and address.endswith(suffix) else address
        return (
            f"{address} is {article} {kind} picture, which only Safari shows: visitors with Chrome, Firefox or Edge see "
            f"no picture, and links to the page are shared with none; save it as a JPEG ({stem}.jpg) and name that"
        )
    return (
        f"{address} is {article} {kind} picture, which X, Facebook and LinkedIn do not show in link previews: the page "
        f"shows it, but links to it are shared with no picture; give a PNG or JPEG{example} for link previews"
    )


def picture_elsewhere_problem(address: str) -> str:
    """What to say about a record's `image` on another site ('' for a file of the site): the pages leave it out, as
    they do a Markdown picture from elsewhere, since every visitor's browser would fetch it from there."""
    stripped = address.strip()
    if not stripped.startswith((*WEB_PREFIXES, "//")):
        return ""
    host = urlsplit(stripped if not stripped.startswith("//") else "https:" + stripped).hostname or stripped
    return (
        f"picture '{stripped}' is on another site ({host}): it is left out of the pages, which load nothing from "
        "elsewhere (it stays the picture of the record's link preview); save it in static/ and write image: static/NAME"
    )


@dataclass(frozen=True)
class SiteUrls:
    base_url: str  # as configured, with or without trailing slash
    id_base: str = ""  # site.yaml's feed_id_base: the feeds' ids are made from it ("": from base_url)

    @functools.cached_property
    def origin(self) -> str:
        """'https://user.github.io', or '' when base_url names no host."""
        parts = urlsplit(self.base_url)
        return f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""

    @functools.cached_property
    def base_path(self) -> str:
        path = urlsplit(self.base_url).path or "/"
        return path if path.endswith("/") else path + "/"

    def page(self, output_path: str) -> str:
        """The root-relative URL of an output file ('records/x/index.html' -> '/repo/records/x/')."""
        if output_path.endswith("index.html"):
            output_path = output_path[: -len("index.html")]
        return self.base_path + output_path

    def absolute(self, output_path: str) -> str:
        return self.origin + self.page(output_path)

    def permanent(self, absolute_url: str) -> str:
        """The id a feed gives a page of the site (an absolute URL under base_url): the same address under
        `id_base`, the address the site's feeds were first read at, so that a site that moves (to a custom domain,
        a project path) keeps its entries' ids and feed readers do not show every entry again as new."""
        here = self.origin + self.base_path
        if not self.id_base or not absolute_url.startswith(here):
            return absolute_url
        return self._id_root + absolute_url.removeprefix(here)

    @functools.cached_property
    def _id_root(self) -> str:
        """`id_base` as the feeds' ids begin with it (its origin and path), made once, not for every entry."""
        first = SiteUrls(self.id_base)
        return first.origin + first.base_path

    def link(self, url: str) -> str:
        """A link written in a record or the profile, as pages print it: a relative one
        ('static/talk.pdf') is taken from the site's root, so that it leads to the same
        file from a record page, a subject page or page 2 of the list as from the profile page.
        './' is the site's root itself: './' -> '/repo/', './#publications' -> '/repo/#publications'."""
        return self.base_path + url.removeprefix("./") if is_relative_path(url) else url

    def absolute_link(self, url: str) -> str:
        """The same, with the host (for records.json and Google Scholar's tags), and as a URL can hold it: a space
        or a letter outside ASCII of the path percent-encoded ('a b.pdf' -> 'a%20b.pdf'; an escape written is kept)."""
        if not is_relative_path(url):
            return url
        return self.origin + self.base_path + quote(url.removeprefix("./"), safe="/%!$&'()*+,;=:@-._~?#")

    def absolute_link_from(self, page_url: str) -> Callable[[str], str]:
        """`absolute_link` for a text that a feed shows away from its page (`page_url`, absolute): a link to a
        part of the page ('#fn-1', a footnote) leads there."""
        return lambda url: page_url + url if url.startswith("#") else self.absolute_link(url)


def normal_base_url(value: str) -> str:
    """base_url as every link, canonical address, feed and sitemap is made with it: repeated slashes of its path
    one, a trailing slash added, spaces and other characters a URL cannot hold as they are percent-encoded
    (`/my repo/` -> `/my%20repo/`, `/über/` -> `/%C3%BCber/`; an escape already written is kept), the host
    in ASCII (IDNA: `münchen.de` -> `xn--mnchen-3ya.de`) and lower case; a query or fragment, which no link
    could carry, dropped. A value that is no URL comes back as it was, for the check to reject."""
    value = value.strip()
    if value.startswith("//"):
        return value  # another site's address without a scheme: refused by the check, as written
    try:
        parts = urlsplit(value)
        host = parts.hostname.encode("idna").decode("ascii").lower() if parts.hostname else ""
        default_port = {"https": 443, "http": 80}.get(parts.scheme.lower())
        port = f":{parts.port}" if parts.port is not None and parts.port != default_port else ""  # https://x:443/ is https://x/
    except (ValueError, UnicodeError):
        return value
    path = re.sub(r"/{2,}", "/", parts.path or "/")
    path = quote(path if path.endswith("/") else path + "/", safe="/%!$&'()*+,;=:@-._~")
    return urlunsplit((parts.scheme.lower(), host + port if parts.netloc else "", path, "", ""))


WEB_PREFIXES = ("https://", "http://")  # nearly every link starts so: such a link is not parsed (urlsplit: 10 us)


def url_scheme(url: str) -> str:
    """'https', 'mailto', ..., or '' for a path, in lower case."""
    return url[: url.index(":")] if url.startswith(WEB_PREFIXES) else urlsplit(url).scheme.lower()


def mistyped_web_address(url: str) -> str | None:
    """The web address a link with a mistyped scheme meant (`htps://x.org` is `https://x.org`, `http:/x.org` is
    `http://x.org`), so that a message says what to write instead of calling a typo an unsafe scheme."""
    found = _MISTYPED_WEB_SCHEME.match(url.strip())
    if found is None or (found["scheme"].lower() in ("http", "https") and found["slashes"] == "//"):
        return None
    scheme = "https" if "s" in found["scheme"].lower() else "http"
    return f"{scheme}://{url.strip()[found.end() :]}"


# Letters of `http`/`https` typed once too often or left out (htps, htttp, hhtps, http), then a colon and up to three
# slashes, or the slashes without the colon (`https//`); a real scheme (ftp, javascript) is not among them.
_MISTYPED_WEB_SCHEME = re.compile(r"(?P<scheme>h{1,2}t{1,3}p{1,2}s?|h?t{1,3}ps?|htt?s|hhtp)(?::(?P<slashes>/{0,3})|(?=//))/{0,2}", re.IGNORECASE)


def is_relative_path(url: str) -> bool:
    """'static/talk.pdf' is; 'https://...', 'mailto:...', '/elsewhere/' and '#part' are not."""
    if url.startswith(WEB_PREFIXES):  # 4 links per record, 40,000 a build
        return False
    parts = urlsplit(url)
    return bool(url) and not parts.scheme and not parts.netloc and not url.startswith(("/", "#", "?"))


_DRIVE = re.compile(r"[A-Za-z]:[\\/]|\\\\")  # 'D:\\code', 'C:/Users', '\\\\server\\share'


def windows_path(url: str) -> tuple[str | None, str] | None:
    """For a link written as a Windows path, (the link meant, what to say); None for any other. A path on the
    writer's computer ('D:\\code\\x') is no link at all (None); a path in the site written with backslashes
    ('static\\paper.pdf') is meant with slashes."""
    if "\\" not in url and not _DRIVE.match(url):
        return None
    if _DRIVE.match(url):
        return None, (
            f"'{url}' is a file on your computer (this looks like a Windows path), which no visitor can reach: "
            "put the file in static/ and write static/NAME (use / in paths)"
        )
    if url_scheme(url) or url.startswith("//"):
        return None
    meant = url.replace("\\", "/")
    return meant, f"use / in paths; this looks like a Windows path: write '{meant}'"


def is_loopback_host(host: str) -> bool:
    """'localhost', 127.0.0.0/8 or ::1: this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


MOST_CITED_PATH = "cited/index.html"  # the shown records with citation counts, most cited first
POSTS_PATH = "posts/index.html"  # the blog's list (sitegen.pages.posts)
POSTS_FEED_PATH = "posts/feed.xml"
NEWS_FEED_PATH = "news/feed.xml"  # the news' feed (sitegen.pages.news)


_UNSAFE_SLUG_CHARACTERS = re.compile(r"[^A-Za-z0-9._-]")


def slugify(value: str) -> str:
    """SPEC §3: every character outside A-Za-z0-9._- becomes '-'. The name of a record's or a
    subject's folder (records/<slug>/, subjects/<slug>/), and of a fetched record's file."""
    return _UNSAFE_SLUG_CHARACTERS.sub("-", value)


# Letters that Unicode's decomposition (NFKD) leaves as they are, spelt in ASCII as people spell them without the
# letter: for addresses made of names (pages' file names, people's slugs, a new site's GitHub name)
ASCII_SPELLING = str.maketrans({"ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D"})
ASCII_SPELLING.update(str.maketrans({"ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ı": "i", "ĸ": "k", "ŋ": "ng", "Ŋ": "Ng", "ħ": "h", "Ħ": "H"}))
_REPEATED_HYPHENS = re.compile(r"-{2,}")


def file_slug(name: str) -> str:
    """The default address of a page, post or news item made from its file's name ('über mich' of
    'über mich.md'), as Hugo and Jekyll users expect: a space (and any other character an address cannot hold)
    is '-', accents are dropped (Hugo's removePathAccents), a few letters spelt in ASCII ('ß' -> 'ss'), case
    kept (Jekyll keeps it; Hugo lowers it, but an address sitegen made before stays). A name that is an
    address already is kept as it is; '' when nothing of the name is left ('研究')."""
    if ADDRESS.fullmatch(name):
        return name
    decomposed = unicodedata.normalize("NFKD", name.translate(ASCII_SPELLING))
    ascii_name = "".join(character for character in decomposed if not unicodedata.combining(character))
    return _REPEATED_HYPHENS.sub("-", _UNSAFE_SLUG_CHARACTERS.sub("-", ascii_name)).strip("-")


class _Anchored(Protocol):
    """A value class with an `anchor`: its id on a page."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def anchor(self) -> str: ...


Anchored = TypeVar("Anchored", bound=_Anchored)


def with_unique_anchors(items: Iterable[Anchored]) -> list[Anchored]:
    """`items` in their order, the second and later of one anchor given -2, -3, ...: on one page
    each is a link target of its own."""
    seen: dict[str, int] = {}
    unique = []
    for item in items:
        count = seen[item.anchor] = seen.get(item.anchor, 0) + 1
        unique.append(item if count == 1 else dataclasses.replace(item, anchor=f"{item.anchor}-{count}"))
    return unique


def record_path(slug: str) -> str:
    return f"records/{slug}/index.html"


def subject_path(slug: str) -> str:
    return f"subjects/{slug}/index.html"


_ADDRESS_PART = r"[A-Za-z0-9._-]*[A-Za-z0-9_-][A-Za-z0-9._-]*"  # not '.' or '..': a folder of its own
ADDRESS = re.compile(rf"{_ADDRESS_PART}(?:/{_ADDRESS_PART})*")
# first parts of the addresses sitegen's own pages and files take, in lower case (macOS and Windows ignore case)
RESERVED = {"records", "subjects", "static", "page", "cv", "news", "talks", "posts", "search", "people", "cited", "404.html", "index.html"}
RESERVED |= {"feed.xml", "publications.bib", "publications.ris", "records.json", "sitemap.xml", "robots.txt", "cname", ".nojekyll"}


def address_problem(slug: str, folders: bool = True, reserved: Collection[str] = RESERVED) -> str | None:
    """What is wrong with a page's address (`folders`: it may have several parts), if anything: a character
    no address should hold, a first part among the `reserved` names (in lower case), taken by sitegen's own files,
    or a part that Windows cannot hold as a folder (`windows_folder_problem`)."""
    if not ADDRESS.fullmatch(slug) or (not folders and "/" in slug):
        return "may hold only A-Z a-z 0-9 . _ -" + (" and /, and no part of only dots" if folders else ", and not only dots")
    if slug.split("/")[0].lower() in reserved:
        return "is taken by sitegen's own pages"
    return next((reason for part in slug.split("/") if (reason := windows_folder_problem(part))), None)


# Names Windows keeps for devices: no file or folder may have one, whatever its extension (`con.txt`).
WINDOWS_DEVICE_NAME = re.compile(r"(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\.|$)", re.IGNORECASE)


def windows_folder_problem(name: str, folder: str | None = None) -> str | None:
    """Why Windows cannot hold a folder of this name, if it cannot: a device name (CON, nul, aux.txt) or a final
    '.', which it drops. Every folder of output/ must be one that Linux, macOS and Windows can all hold, so that a
    site built on one checks out on the others. `folder`: its path, for the message ('records/CON')."""
    if WINDOWS_DEVICE_NAME.match(name):
        where = f"{folder}/: " if folder else ""
        return f"cannot name a folder on Windows ({where}CON, PRN, AUX, NUL, COM0-9 and LPT0-9 are device names there, with any extension)"
    if name.endswith("."):
        return "cannot name a folder on Windows, which drops a final '.'" + (f" ({folder}/)" if folder else "")
    return None


def post_path(slug: str) -> str:
    """A blog post's page (sitegen.pages.posts)."""
    return f"posts/{slug}/index.html"


def tag_path(slug: str) -> str:
    """The list of a blog tag's posts (sitegen.pages.posts)."""
    return f"posts/tags/{slug}/index.html"


def tag_slug(name: str) -> str:
    """A blog tag's address under posts/tags/: 'Reading group' -> 'reading-group', 'Öffentlichkeit' ->
    'offentlichkeit' (accents dropped, 'ß' as 'ss', as in a file's address). A tag of letters with no ASCII
    spelling keeps what it has of A-Z 0-9 and a short digest of its name ('数学' -> 'tag-8f3c2a1b'), so that two
    such tags never share a list (every one of them was '--')."""
    words = "-".join(name.lower().split())
    if words.isascii():
        return slugify(words)
    decomposed = unicodedata.normalize("NFKD", words.translate(ASCII_SPELLING))
    spelt = "".join(character for character in decomposed if not unicodedata.combining(character))
    if spelt.isascii():
        return slugify(spelt)
    kept = _REPEATED_HYPHENS.sub("-", _UNSAFE_SLUG_CHARACTERS.sub("-", spelt.encode("ascii", "ignore").decode())).strip("-.")
    return f"{kept or 'tag'}-{hashlib.blake2b(words.casefold().encode(), digest_size=4).hexdigest()}"


def sorting_key(text: str) -> str:
    """How a list of names sorts for readers of any language: case and accents set aside ('Öffentlichkeit' among
    the O's, not after 'Zahlen'), 'ß' as 'ss'; other letters by their code points."""
    decomposed = unicodedata.normalize("NFKD", text.translate(ASCII_SPELLING))
    return "".join(character for character in decomposed if not unicodedata.combining(character)).casefold()


_LEADING_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}-(?=.)")


def _post_stem(file_path: str) -> str:
    """What names a post: its file's name without the suffix, or its folder's for Hugo's 'name/index.md'."""
    path = PurePosixPath(file_path)
    return path.parent.name if path.stem == "index" and path.parent.name not in ("", "posts") else path.stem


def post_file_date(file_path: str) -> str:
    """The date Jekyll puts before a post's name ('2025-05-20-name.md' -> '2025-05-20'), a day or not ('2024-02-30');
    '' without one."""
    stem = _post_stem(file_path).lstrip("_")
    return stem[:10] if _LEADING_DATE.match(stem) else ""


def post_file_day(file_path: str) -> str:
    """The day Jekyll reads from a post's file name ('2025-05-20'), or '' without one or when it is no day."""
    try:
        return datetime.date.fromisoformat(written).isoformat() if (written := post_file_date(file_path)) else ""
    except ValueError:
        return ""


def post_slug(file_path: str) -> str:
    """A blog post's default address under posts/: its file's name without the date Jekyll puts before it
    ('2025-05-20-name.md'), or its folder's for Hugo's 'name/index.md'."""
    stem = _post_stem(file_path)
    return _LEADING_DATE.sub("", stem.lstrip("_"))  # a draft ('_name.md') is previewed where it will be


def page_collisions(site: Site) -> list[Problem]:
    """Records (or subjects) whose slugs are equal would share one page: 'a/b' and 'a-b'."""
    if len({e.slug for e in site.entries}) == len(site.entries) and len({s.slug for s in site.subjects}) == len(site.subjects):
        return []  # the usual case, settled without sorting
    problems: list[Problem] = []
    records: dict[str, Entry] = {}
    in_file_order = sorted(site.entries, key=lambda e: (e.record.location.path, e.record.location.line or 0))
    for entry in in_file_order:
        first = records.setdefault(entry.slug, entry)
        if first is not entry:
            where = str(first.record.location).rstrip(":")
            replaced = not entry.id.isascii() or not first.id.isascii()  # '田中2020' and '山田2020': records/--2020/
            advice = (
                "an address holds only A-Z a-z 0-9 . _ -, and each other character becomes '-': give one an id of these"
                " (an author's family name in Latin letters and the year: tanaka2020)"
                if replaced
                else "change one id"
            )
            problems.append(
                Problem(
                    f"id '{entry.id}' gives the same page records/{entry.slug}/ as id '{first.id}' at {where}; {advice}",
                    entry.record.where("id"),
                )
            )
    subjects: dict[str, str] = {}  # a subject page's slug -> the first category spelling that gave it
    for entry in in_file_order:
        for subject in entry.subjects:
            code = subjects.setdefault(subject.slug, subject.code)
            if code != subject.code:
                problems.append(
                    Problem(
                        f"category '{subject.code}' gives the same page subjects/{subject.slug}/ as category '{code}'; use one spelling",
                        entry.record.where("categories"),
                    )
                )
                subjects[subject.slug] = subject.code  # once per spelling, not once per record
    return problems
