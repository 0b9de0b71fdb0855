"""A site in several languages (site.yaml `languages: [en, fr]`; docs/homepage.md, "Several languages").

The default language is served at the site's root, as a site in one language is; each other language's own pages
under `/<tag>/`. What a language has of its own: the profile's text fields (`content/profile.<tag>.yaml`), the pages
(`about.<tag>.md` beside `about.md`), the menu's titles and the theme's strings. Everything else (records, their
pages, subjects, people, exports, feeds, search data) is made once, at the default language's addresses, and a
translated page's lists link there.

The page kinds that vary by language declare it (`register_page_kind(per_language=True)`), and how their content is
split by language (`language_content`, `own_links`): this module names none of them. The render stage lists
their pages once per language with that language's `RenderContext` (`language_site`, `LanguageUrls`), and gives
every page the addresses of its versions (`LanguageLinks`): `<link rel="alternate" hreflang>`, the sitemap's
alternates and the theme's language switcher. None of this runs for a site in one language.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sitegen.errors import Location, Problem
from sitegen.urls import SiteUrls, is_relative_path
from sitegen.values import value_class

if TYPE_CHECKING:
    from sitegen.inputs import Listing
    from sitegen.model import KindContent, Profile, Site

# what a translated profile (content/profile.<tag>.yaml) may hold: the text a visitor reads in their language
TRANSLATED_PROFILE_FIELDS = ("position", "affiliation", "bio")

# the languages a file's name is taken to be in on a site in several languages, besides those of `validate.LANGUAGE_NAMES`
# and the site's own ('about.de.md' on a site in English and French is said to be in a language the site lacks; 'how.to.md'
# is a page, not one in Tongan)
FILE_NAME_LANGUAGES = frozenset("ar ca cs da de el en es eu fa fi fr gl he hu it ja ko nb nl pl pt rm ru sv tr uk zh".split())


def name_in_itself(tag: str, names: dict[str, str] | None = None) -> str:
    """'Français' for 'fr' and 'fr-CA', or the name site.yaml's `language_names` gives the tag (`names`); the tag
    itself for a language of neither."""
    from sitegen.language_names import NAMES_IN_THEMSELVES

    given = (names or {}).get(tag)
    return given or NAMES_IN_THEMSELVES.get(tag.partition("-")[0].lower(), tag)


@value_class
class SiteTranslation:
    """What one language other than the default has of its own."""

    language: str  # its tag, as site.yaml's `languages` writes it
    profile: Profile  # the profile with profile.<tag>.yaml's fields
    bio_html: str
    # page kind name -> what its pages show in this language (`PageKind.language_content`: its pages and their menu,
    # its CV, its news...); a kind not named shows the default language's
    content: dict[str, KindContent] = field(default_factory=dict)


def file_language(path: str, languages: tuple[str, ...]) -> tuple[str, str] | None:
    """('fr', 'content/pages/about.md') for 'content/pages/about.fr.md': the language a file's name gives before its
    suffix and the file it translates; None for a name that gives none ('about.md', 'v1.2.md'). A tag is taken as
    one when it is one of `languages` or names a language sitegen knows ('about.de.md' on a site in English and
    French: a page in a language the site does not have, which the caller warns about)."""
    name = path.rpartition("/")[2]
    parts = name.split(".")
    if len(parts) < 3 or not parts[-3]:
        return None
    tag = parts[-2]
    if not (tag.lower() in (known.lower() for known in languages) or _names_a_language(tag)):
        return None
    configured = next((known for known in languages if known.lower() == tag.lower()), tag)
    return configured, path[: len(path) - len(name)] + ".".join(parts[:-2] + parts[-1:])


def _names_a_language(tag: str) -> bool:
    from sitegen.validate import language_tag_problem

    return language_tag_problem(tag) is None and tag.partition("-")[0].lower() in _known_languages()


@functools.cache
def _known_languages() -> frozenset[str]:
    """The primary language subtags sitegen knows a name of."""
    from sitegen.validate import LANGUAGE_NAMES

    return frozenset(LANGUAGE_NAMES.values()) | FILE_NAME_LANGUAGES


def not_a_language_of_the_site(tag: str, languages: tuple[str, ...], translates: str = "") -> str:
    """What to say of a file whose name gives a language the site does not have, or the default language, whose
    files are named without one (`translates`: the file it would translate, 'content/cv.yaml')."""
    if languages and tag.lower() == languages[0].lower():
        return f"the file's name says it is in {tag}, the default language, whose files' names say none ({translates.rpartition('/')[2]}); left out"
    same = next((known for known in languages if known.partition("-")[0].lower() == tag.partition("-")[0].lower()), None)
    if same is not None:  # 'about.fr.md' on a site in en and fr-CA
        return f"the file's name says it is in '{tag}', which is not one of site.yaml's languages ({', '.join(languages)}); left out: did you mean {same}? (name it for {same}, or add {tag} to languages)"
    return f"the file's name says it is in '{tag}', which is not one of site.yaml's languages ({', '.join(languages)}); left out (add {tag} to languages, or rename the file)"


def translated_profile(listing: Listing, path: str, profile: Profile, problems: list[Problem]) -> Profile:
    """The profile with the fields `content/profile.<tag>.yaml` gives (position, affiliation, bio); each other field
    is a warning (one the same in every language says so, a mistyped one names the field meant) and left out."""
    from sitegen.load import load_document
    from sitegen.validate import PROFILE_EXTRAS, PROFILE_FIELDS, PROFILE_SYNONYMS, Fields

    document, problem = load_document(listing, path)
    if problem is not None or document is None:
        problems.append(problem or Problem("could not be read", Location(path)))
        return profile
    if document.data is None:
        return profile
    if not isinstance(document.data, dict):
        problems.append(Problem("expected a mapping of the profile's fields in this language (bio: ..., position: ...)", Location(path, 1)))
        return profile
    fields = Fields(document.data, path, problems, known=frozenset(TRANSLATED_PROFILE_FIELDS), synonyms=PROFILE_SYNONYMS)
    for key in (key for key in document.data if key not in TRANSLATED_PROFILE_FIELDS):
        if str(key) in PROFILE_FIELDS | PROFILE_EXTRAS:
            said = "is the same in every language: write it in content/profile.yaml only; left out"
        elif (meant := fields.closest(key)) is not None:
            said = f"unknown field of a translated profile; did you mean '{meant}'? left out"
        else:
            said = f"unknown field of a translated profile, which holds {', '.join(TRANSLATED_PROFILE_FIELDS)}; left out"
        fields.problem(str(key), said, warning=True)
    values: dict[str, Any] = {name: fields.string(name, default="") or "" for name in TRANSLATED_PROFILE_FIELDS if name in document.data}
    lines = {key: line for key, line in getattr(document.data, "key_lines", {}).items() if key in values}
    return dataclasses.replace(profile, **values, location=Location(path, getattr(document.data, "line", None) or None), lines=lines)


def profile_translation_files(listing: Listing) -> dict[str, str]:
    """content/profile.<tag>.yaml of the listing, by tag as written."""
    found = {}
    for path in listing.under("content/profile."):  # a bisect of the sorted listing: nothing per record
        if path.endswith(".yaml") and path.count("/") == 1:
            tag = path.removeprefix("content/profile.").removesuffix(".yaml")
            if tag:
                found[tag] = path
    return found


def unused_profile_translations(listing: Listing, languages: tuple[str, ...]) -> list[Problem]:
    """A warning for each content/profile.<tag>.yaml of a language the site does not have (or of any language, for
    a site in one language): nothing reads it."""
    others = {tag.lower() for tag in languages[1:]}
    problems = []
    for tag, path in sorted(profile_translation_files(listing).items()):
        if tag.lower() in others or not _names_a_language(tag):
            continue
        if languages:
            said = not_a_language_of_the_site(tag, languages, "content/profile.yaml")
        else:
            said = f"a profile in '{tag}' is read only by a site in several languages (languages: [..., {tag}] in site.yaml); left out"
        problems.append(Problem(said, Location(path), warning=True))
    return problems


def translation_links(translation: SiteTranslation) -> list[tuple[Location | None, str, str]]:
    """The links a language's own text holds, as `PageKind.links` lists them: its bio's and its own items' (each
    kind's `own_links`)."""
    from sitegen.markup import hrefs
    from sitegen.pages import PAGE_KINDS

    profile = translation.profile
    found: list[tuple[Location | None, str, str]] = [(profile.where("bio"), "link in the bio", url) for url in hrefs(translation.bio_html)]
    for kind in PAGE_KINDS.values():
        if kind.own_links is not None and (content := translation.content.get(kind.name)) is not None:
            found += kind.own_links(content.value, translation.language)
    return found


def items_in_language(
    content: KindContent,
    language: str,
    languages: tuple[str, ...],
    translation: Callable[[Any], str],
    merged: Callable[[tuple[Any, ...], str, str], tuple[Any, ...]],
) -> KindContent | None:
    """`PageKind.language_content` of a kind of items (news, talks, posts), each in the language its file's name gives
    (`translation`: '' for the default's): the default language's items alone; another language's list (`merged`: its
    own and the default language's others), or None when it has none of its own (the default language's serves)."""
    items = content.value or ()
    if language == languages[0]:
        return dataclasses.replace(content, value=tuple(item for item in items if not translation(item))) if items else None
    shown = merged(items, language, languages[0])
    return dataclasses.replace(content, value=shown, site_wide=True) if shown else None


def with_the_defaults_others(items: Iterable[Any], language: str, default_language: str) -> list[Any]:
    """A language's list of items that each have a `page` (posts, projects): each of the default language's in that
    language where it has a version ('x.fr.md', `page.translation`), else as it is (marked as in the default
    language), then the language's items with none in the default language; [] when it has none of its own."""
    own = {item.page.slug: item for item in items if item.page.translation == language}
    if not own:
        return []
    merged = [
        own.pop(item.page.slug)
        if item.page.slug in own
        else dataclasses.replace(item, page=dataclasses.replace(item.page, language=item.page.language or default_language))
        for item in items
        if not item.page.translation
    ]
    return merged + list(own.values())


def own_language(site: Site) -> str:
    """The language whose own versions `site` shows (a `language_site`'s tag), "" for the default language's."""
    languages = site.config.languages
    return site.config.language if languages and site.config.language != languages[0] else ""


def language_site(site: Site, translation: SiteTranslation) -> Site:
    """The site as a language's pages show it: its language, its profile, and each kind's content in it (its pages and
    their menu, its CV when it has one, else the default language's, which its profile shows and its menu leads to)."""
    config = dataclasses.replace(site.config, language=translation.language)
    content = {**site.content, **translation.content}
    return dataclasses.replace(site, config=config, profile=translation.profile, bio_html=translation.bio_html, content=content)


@dataclass
class LanguageLinks:
    """Each page's versions in the site's languages, once the render stage has listed every language's pages:
    what a page shows of them (its alternates, the switcher) and the sitemap's alternates."""

    languages: tuple[str, ...]  # default first
    urls: SiteUrls  # the site's (the default language's)
    names: dict[str, str] = field(default_factory=dict)  # site.yaml's `language_names`: what the switcher calls a language
    versions: dict[str, dict[str, str]] = field(default_factory=dict)  # translation key ('about/index.html') -> tag -> output path
    unnamed: set[str] = field(default_factory=set)  # the keys of pages whose versions are not named: the 404 page's

    def add(self, key: str, language: str, path: str, named: bool = True) -> None:
        """`path` is the page `key` in `language`; `named`: its other versions are named on it (alternates, switcher)."""
        self.versions.setdefault(key, {})[language] = path
        if not named:
            self.unnamed.add(key)

    def path_in(self, language: str, key: str) -> str | None:
        """The output path of the page `key` in `language`, if it has one there."""
        return self.versions.get(key, {}).get(language)

    def alternates(self, key: str) -> list[dict[str, str]]:
        """`<link rel="alternate" hreflang>` of a page with versions in two languages or more: each version's, the
        page's own among them, and `x-default` (the default language's), as Google documents them; [] else."""
        versions = self.versions.get(key, {})
        if len(versions) < 2 or key in self.unnamed:
            return []
        address = self.urls.absolute if self.urls.origin else self.urls.page  # absolute, as search engines want, when base_url has a host
        found = [{"hreflang": tag, "url": address(versions[tag])} for tag in self.languages if tag in versions]
        default = versions.get(self.languages[0])
        return found + ([{"hreflang": "x-default", "url": address(default)}] if default is not None else [])

    def sitemap_alternates(self, key: str) -> list[tuple[str, str]]:
        """(hreflang, absolute URL) of a listed page's versions, for its sitemap entry (sitemaps.org's xhtml:link)."""
        return [(each["hreflang"], each["url"]) for each in self.alternates(key)] if self.urls.origin else []

    def switcher(self, language: str, key: str, own_url: str) -> list[dict[str, Any]]:
        """The theme's language switcher on the page `key` in `language` (at `own_url`): each language's name in
        itself, and the page in it when it has one, else that language's home page (always, from the 404 page, shown
        at any address); `current` marks the page's own."""
        links = []
        named = key not in self.unnamed
        for tag in self.languages:
            path = (self.path_in(tag, key) if named else None) or ("index.html" if tag == self.languages[0] else f"{tag}/index.html")
            url = own_url if tag == language and named else self.urls.page(path)
            links.append({"hreflang": tag, "name": name_in_itself(tag, self.names), "url": url, "current": tag == language})
        return links


@dataclass(frozen=True)
class LanguageUrls(SiteUrls):
    """The addresses as one language's pages link them: a page that this language has is its version (`/fr/about/`),
    anything else the default language's (`/records/x/`, `/static/`, a page not translated)."""

    language: str = ""
    links: LanguageLinks | None = field(default=None, compare=False)

    def page(self, output_path: str) -> str:
        if self.links is not None and (own := self.links.path_in(self.language, output_path)) is not None:
            return super().page(own)
        return super().page(output_path)

    def link(self, url: str) -> str:
        """A link written in the site's content or settings (site.yaml's `nav`, a page's text): one to a page this
        language has leads to its version ('about/' -> '/fr/about/', './#publications' -> '/fr/#publications')."""
        if self.links is None or not is_relative_path(url):
            return super().link(url)
        path, mark, rest = url.removeprefix("./").partition("#") if "#" in url else (url.removeprefix("./"), "", "")
        key = path + "index.html" if not path or path.endswith("/") else path
        own = self.links.path_in(self.language, key)
        return super().page(own) + mark + rest if own is not None and "?" not in path else super().link(url)

    def absolute_link(self, url: str) -> str:
        """`link`'s address with the host, for a text shown away from its page (a French post's in the French feed)."""
        own = self.link(url)
        return self.origin + own if own != super().link(url) else super().absolute_link(url)


def translations_of(site: Site, listing: Listing, raw_profile: Any, languages: tuple[str, ...]) -> tuple[tuple[SiteTranslation, ...], list[Problem]]:
    """Each language's own part of the site but the default's, and the warnings of reading it. `site`: as loaded, each
    kind's content holding every language's items."""
    from sitegen.enrich import profile_text

    problems: list[Problem] = []
    files = {tag.lower(): path for tag, path in profile_translation_files(listing).items()}
    translations = []
    for tag in languages[1:]:
        profile = raw_profile
        if (path := files.get(tag.lower())) is not None:
            profile = translated_profile(listing, path, raw_profile, problems)
        found: list[Problem] = []
        shown, bio_html = profile_text(profile, found)
        problems += [problem for problem in found if path is not None and problem.location is not None and problem.location.path == path]
        translations.append(SiteTranslation(tag, shown, bio_html, kinds_in_language(site, tag, languages)))
    return tuple(translations), problems


def kinds_in_language(site: Site, language: str, languages: tuple[str, ...]) -> dict[str, KindContent]:
    """What each per-language kind's pages show in `language` (`PageKind.language_content`), of those that show
    something of their own there; for the default language, each kind's content with the other languages' items taken
    out."""
    from sitegen.pages import PAGE_KINDS

    found = {}
    for kind in PAGE_KINDS.values():
        if kind.language_content is not None and (content := site.content.get(kind.name)) is not None:
            if (part := kind.language_content(content, language, languages)) is not None:
                found[kind.name] = part
    return found
