"""Stage 4: the enriched site, as the pages to render.

Every page kind of the registry (sitegen.pages) lists its pages with their
inputs; a page is keyed by the site-wide key and its inputs, and is to be
rendered only when no intact earlier output was made from the same key. The
sitemap lists every HTML page the kinds declare. Pages are rendered as the write
stage takes them (`RenderResult.makers`), so a build holds one page at a time;
the write stage keeps a failed build's pages away from output/.
"""

from __future__ import annotations

import dataclasses
import difflib
import posixpath
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import unquote

import jinja2
import jinja2.sandbox

from sitegen.cache import digest
from sitegen.errors import ContentError, Location, Problem, SitegenError
from sitegen.exports.sitemap import sitemap
from sitegen.fragments import Fragments
from sitegen.inputs import Listing
from sitegen.languages import LanguageLinks, LanguageUrls, SiteTranslation, language_site, translation_links
from sitegen.model import FileBytes, Site
from sitegen.pages import PAGE_KINDS, Page, PageKind, RenderContext
from sitegen.pages.pages import intro_links
from sitegen.pages.theme_pages import declared_pages
from sitegen.text_files import read_text
from sitegen.theme import SITE_STATIC, ListingLoader, Theme, UnknownValue, make_environment, static_sources, theme_settings
from sitegen.urls import SiteUrls, is_relative_path, windows_path
from sitegen.views import ViewBuilder


@dataclass
class RenderResult:
    todo: list[Page]  # the output files this build renders, by path
    keys: dict[str, str] = field(default_factory=dict)  # every output file -> what it is made from
    kept: set[str] = field(default_factory=set)  # output files whose key is the previous build's: not rendered
    warnings: list[Problem] = field(default_factory=list)  # links into the site that lead to no file it writes, and the kinds' own

    def makers(self) -> list[tuple[str, Callable[[], FileBytes]]]:
        return makers(self.todo)


def makers(pages: list[Page]) -> list[tuple[str, Callable[[], FileBytes]]]:
    """Each page's path and how to make it: the write stage renders them where it writes them."""
    return [(page.path, page.make) for page in pages]


def making_order(pages: list[Page]) -> tuple[list[tuple[str, Callable[[], FileBytes]]], int]:
    """The pages' makers in the order to make them, and how many of the first the write stage makes together.

    The pages made from the records' pieces (`Page.every_record`) come first, to be made by one process: the
    lists then make each record's list item once. Among them the lists come last: a list's items are kept for
    the next list, the exports keep their pieces only for people pages, so the process that makes both holds
    the items only after the exports (megabytes each, held whole until written) are on disk.
    """
    together = sorted((page for page in pages if page.every_record), key=lambda page: (page.path.endswith(".html"), page.path))
    return makers(together + [page for page in pages if not page.every_record]), len(together)


def render_site(
    site: Site,
    theme: Theme,
    listing: Listing,
    digests: dict[str, str],
    site_key: str,
    previous_keys: dict[str, str] | None = None,
    fragments: Fragments | None = None,
) -> RenderResult:
    """Render every page whose key is not in `previous_keys` (the intact output of the last build).

    `digests` are the content digests of the input files; `site_key` covers
    everything every page depends on (see prepare.site_key). `fragments`: the
    per-record pieces of output an earlier build of this process made.
    """
    previous_keys = previous_keys or {}
    fragments = fragments if fragments is not None else Fragments()
    fragments.start(site_key)
    urls = SiteUrls(site.config.base_url, site.config.feed_id_base)
    links = LanguageLinks(site.config.languages, urls, site.config.language_names) if site.translations else None
    context = render_context(site, theme, listing, digests, fragments, links)
    languages = [_language_context(site, translation, theme, listing, digests, site_key, links) for translation in site.translations]
    pages = _all_pages(context, languages, links)
    keys = {page.path: digest(site_key, page.path, page.inputs) for page in pages}
    todo = sorted((page for page in pages if previous_keys.get(page.path) != keys[page.path]), key=lambda page: page.path)
    warnings = context.warnings + links_to_nothing(site, keys.keys())
    for translation in site.translations:  # the links of each language's own text (its bio, its pages)
        warnings += links_to_nothing(site, keys.keys(), translation_links(translation))
    return RenderResult(todo, keys, {page.path for page in pages} - {page.path for page in todo}, warnings)


def _language_context(
    site: Site, translation: SiteTranslation, theme: Theme, listing: Listing, digests: dict[str, str], site_key: str, links: LanguageLinks | None
) -> RenderContext:
    """The render context of a language but the default: its site, strings (an environment of its own) and addresses.
    Its pieces of output (a record's list item in its strings) are its own, made again at each build."""
    fragments = Fragments()
    fragments.start(site_key)
    return render_context(language_site(site, translation), theme, listing, digests, fragments, links)


def links_to_nothing(site: Site, published: Collection[str], links: list[tuple[Any, str, str]] | None = None) -> list[Problem]:
    """A warning for each link of the site's content (the kinds' `links`) that is a path in the site
    (`static/talk.pdf`, taken from the site's root, or `/repo/static/talk.pdf` under the path of `base_url`)
    but names no file the build writes: a broken link on every page that shows it. Also for each path from
    the domain's root that leaves the path of a site at '/repo/' ('/about/'): a page of the site written as
    for a site at the domain's root, which leads elsewhere once deployed. Such a link is not rewritten: the
    same text means the same address wherever the site lives, and no page depends on which others exist. An empty
    link ('[Home]()') is a warning too: it leads to the page it is on. `links`: those to look at (default: every
    kind's, `PageKind.links`)."""
    base_path = SiteUrls(site.config.base_url).base_path
    written = (
        links if links is not None else [link for kind in PAGE_KINDS.values() if kind.links is not None for link in kind.links(site)] + list(intro_links(site))
    )
    leaving = [(where, what, url) for where, what, url in written if _leaves_the_path(url, base_path)]
    inside = [(where, what, url, path) for where, what, url in written if (path := _path_in_site(url, base_path)) is not None]
    broken = [(where, what, url, path) for where, what, url, path in inside if not _published(_target(path), published)]
    empty = [Problem(f"{what}: {_EMPTY_LINK}", where, warning=True) for where, what, url in written if not url.strip()]
    if not broken and not leaving:
        return empty
    from sitegen.pages.redirects import old_addresses

    meant = set(published) - old_addresses(site)  # what a link may have meant: no page that only sends the browser on
    by_name: dict[str, str] = {}  # a file's name -> the first published path of that name
    pages: dict[str, str] = {}  # the name of a page's folder -> the first page's address of that name ('first-post' -> 'posts/first-post/')
    for path in sorted(meant, key=lambda path: (path.count("/"), path)):
        by_name.setdefault(path.rpartition("/")[2], path)
        if path.endswith("/index.html"):
            pages.setdefault(path.rsplit("/", 2)[-2], path.removesuffix("index.html"))
    top = sorted({path.partition("/")[0] + ("/" if "/" in path else "") for path in meant})  # 'talks/', 'feed.xml'
    by_case = {path.lower(): path for path in sorted(meant, reverse=True)}  # a path in lower case -> the first so spelt
    problems = empty + [
        Problem(f"{what}: '{url}' is no file of the site{_hint(path, published, by_name, pages, top, by_case)}", where, warning=True)
        for where, what, url, path in broken
    ]
    for where, what, url in leaving:
        within = url[1:]
        relative = within if within[:1] not in ("", "#", "?") else "./" + within  # '/' is './', the site's home: '' is the page itself
        if _published(_target(within), published):
            said = f"write '{relative}' (relative: from the site's root) or '{base_path}{within}'"
        else:
            hint = _did_you_mean(within, by_name, pages, top).removeprefix("; ")
            said = f"'{within}' is no file of the site either{'; ' + hint if hint.startswith('did') else ''}; for another site, write its full address"
        problems.append(Problem(f"{what}: '{url}' leaves the site's path {base_path}: {said}", where, warning=True))
    return sorted(problems, key=lambda problem: (problem.location.path, problem.location.line or 0) if problem.location else ("", 0))


_EMPTY_LINK = "an empty address leads to the page it is on; for the site's home page, write './'"


def _path_in_site(url: str, base_path: str) -> str | None:
    """A link's path from the site's root when it leads into the site: a relative path as it is, a path from
    the domain's root without the site's own path ('/files/cv.pdf' of a site at '/' is 'files/cv.pdf'); None
    for one that leaves the site (a web address, '/elsewhere/' of a site at '/repo/', '#part')."""
    if is_relative_path(url):
        return url
    if url.startswith(base_path) and not url.startswith("//"):
        return url[len(base_path) :] or "./"
    home = base_path.rstrip("/")
    if home and (url == home or url.startswith((home + "#", home + "?"))):
        return "./"  # '/repo' (the server adds its '/'): the site's home
    return None


def _leaves_the_path(url: str, base_path: str) -> bool:
    """A path from the domain's root ('/about/') that is outside a site living under a path of its own
    ('/repo/'): written for a site at the domain's root, it leads to another site of the domain once deployed."""
    return base_path != "/" and url.startswith("/") and not url.startswith("//") and _path_in_site(url, base_path) is None


def _published(target: str, published: Collection[str]) -> bool:
    """A file the build writes, or a folder whose index.html it writes ('' is the site's root)."""
    return target in published or f"{target.rstrip('/')}/index.html".lstrip("/") in published


def _target(url: str) -> str:
    """The output path a link into the site names, as a browser resolves it: 'static/my%20talk.pdf#page=2' ->
    'static/my talk.pdf', './static/a/../b.pdf' -> 'static/b.pdf' (a trailing '/' kept: 'records/b/')."""
    path = unquote(url.partition("#")[0].partition("?")[0])
    normal = posixpath.normpath(path) if path else ""
    folder = path.endswith("/") or path.rpartition("/")[2] in (".", "..")  # 'a/.' is 'a/'
    return "" if normal == "." else normal + "/" if folder else normal


_SOURCE_SUFFIX = re.compile(r"\.(md|markdown|html?)$", re.IGNORECASE)
_LEADING_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}-(?=.)")


def _hint(path: str, published: Collection[str], by_name: dict[str, str], pages: dict[str, str], top: list[str], by_case: dict[str, str]) -> str:
    """What a link to no file of the site may have meant (`_did_you_mean`): first the file it names in other
    capitals ('static/chart.png' for static/Chart.PNG), which the writer's Windows or macOS opens all the same and
    the web server does not; for a path written with Windows' backslashes ('..\\files\\paper.pdf', which a
    browser reads as slashes), that slashes are written, and the file the path names with them."""
    target = _target(path)
    if spelt := by_case.get(target.lower()) or by_case.get(f"{target.rstrip('/')}/index.html".lstrip("/").lower()):
        return f"; did you mean '{spelt.removesuffix('index.html')}'? (the web server tells capitals from small letters, as Windows and macOS do not)"
    windows = windows_path(path) if "\\" in path else None
    meant = windows[0] if windows else None
    if meant is None:
        return _did_you_mean(path, by_name, pages, top)
    with_slashes = f"; did you mean '{meant}'?" if _published(_target(meant), published) else _did_you_mean(meant, by_name, pages, top)
    return f": use / in paths, this looks like a Windows path{with_slashes if with_slashes.startswith('; did') else ''}"


def _did_you_mean(url: str, by_name: dict[str, str], pages: dict[str, str], top: list[str]) -> str:
    """The published file of the same name (a file of static/ linked without `static/`), else the page a link names
    by its folder or by the file it is made from ('../posts/first-post/', 'about.md', '2025-03-01-first-post.md'),
    else a page or file at the site's root spelt nearly alike ('talk/' for 'talks/'), if there is one."""
    target = _target(url)
    name = target.rstrip("/").rpartition("/")[2]
    page = _LEADING_DATE.sub("", _SOURCE_SUFFIX.sub("", name))
    meant = by_name.get(name) or pages.get(page) or next(iter(difflib.get_close_matches(target, top, n=1, cutoff=0.8)), None)
    if meant:
        return f"; did you mean '{meant}'?"
    linked_as_file = "." in name.strip(".") and not target.startswith("static/")  # 'data/set.csv', not a page ('notes/')
    return " (a file of your static/ folder is linked as static/NAME)" if linked_as_file else ""


FAVICONS = ("favicon.svg", "favicon.png", "favicon.ico")  # the pages' icon, the first there is


def favicon_file(sources: dict[str, str]) -> str | None:
    """The file under static/ that is the pages' icon: the site's own favicon.svg, .png or .ico (what a favicon
    generator gives) before the theme's."""
    own = [name for name in FAVICONS if sources.get(name, "").startswith(SITE_STATIC)]
    return next(iter(own), next((name for name in FAVICONS if name in sources), None))


def render_context(
    site: Site, theme: Theme, listing: Listing, digests: dict[str, str], fragments: Fragments, languages: LanguageLinks | None = None
) -> RenderContext:
    """What the page kinds list and make their pages with; `languages`: a site in several, whose `site` may be a
    language's (`languages.language_site`): its strings, and its addresses for the pages it has."""
    environment = fragments.environment(lambda: make_environment(theme, listing, site.config.language))
    urls: SiteUrls = SiteUrls(site.config.base_url, site.config.feed_id_base)
    if languages is not None and site.config.language != languages.languages[0]:
        urls = LanguageUrls(site.config.base_url, site.config.feed_id_base, language=site.config.language, links=languages)
    sources = static_sources(theme, listing)

    def render(template: str, values: dict[str, Any]) -> bytes:
        return render_template(environment, template, values).encode()

    def render_item(item: dict[str, Any]) -> str:
        return render_template(environment, "partials/record_item.html", {"record": item})

    views = ViewBuilder(
        site,
        urls,
        list(sources),
        render_item,
        fragments,
        strings=cast(dict[str, Any], environment.globals["strings"]),
        favicon=favicon_file(sources),
        languages=languages,
    )
    everything = digest([(entry.key, entry.cite_key) for entry in site.entries])
    return RenderContext(
        site,
        views,
        urls,
        render,
        everything,
        input_file=listing.read_bytes,
        input_digest=digests.__getitem__,
        static_sources=sources,
        theme_settings=theme_settings(theme, listing),
        theme_pages=declared_pages(theme, listing)[0],  # their problems stopped the build before (prepare.theme_problems)
        strings=cast(dict[str, Any], environment.globals["strings"]),  # theme.make_environment puts them there
    )


SITEMAP = "sitemap.xml"


def _all_pages(context: RenderContext, languages: list[RenderContext] | None = None, links: LanguageLinks | None = None) -> list[Page]:
    """Every kind's pages, and the sitemap of their HTML pages; two kinds may not claim one path. `languages`: a site
    in several, the render contexts of each language but the default, whose `per_language` kinds list their pages
    again, under '<tag>/'."""
    contexts = languages or []
    if links is not None:
        _list_versions(context, contexts, links)
    # The sitemap lists the others, so it is made last; its path is claimed first, as every path sitegen
    # writes goes through the same checks (a theme's page at sitemap.xml is an error like at feed.xml).
    pages: dict[str, tuple[str, Page]] = {SITEMAP: ("sitemap", Page(SITEMAP, (), bytes))}
    problems = []
    for kind in PAGE_KINDS.values():
        for page in _kind_pages(kind, context, contexts, links) if kind.per_language and links is not None else kind.pages(context):
            if page.path in pages:
                problems.append(_two_pages(page.path, *pages[page.path], kind.name, page))
                continue
            pages[page.path] = (kind.name, page)
    places = {path: where for path, (_, page) in pages.items() if (where := page.where or page.source) is not None}
    if problems := problems + address_conflicts({path: kind for path, (kind, _) in pages.items()}, places):
        raise ContentError(problems)
    del pages[SITEMAP]
    listed = sorted(path for path, (_, page) in pages.items() if page.listed)
    urls = context.urls
    if links is None:
        pages[SITEMAP] = ("sitemap", Page(SITEMAP, (listed,), lambda: sitemap([urls.absolute(path) for path in listed])))
    else:  # each page's versions in the other languages, as sitemaps.org's xhtml:link alternates
        keys = [pages[path][1].translation_key for path in listed]
        alternates = [links.sitemap_alternates(key) if key else [] for key in keys]
        pages[SITEMAP] = ("sitemap", Page(SITEMAP, (listed, alternates), lambda: sitemap([urls.absolute(path) for path in listed], alternates)))
    return [page for _, page in pages.values()]


def _list_versions(context: RenderContext, contexts: list[RenderContext], links: LanguageLinks) -> None:
    """Which pages of the `per_language` kinds each language has, before any is listed to render: a language's pages
    link to its own versions of the others (the menu, the pages of its list of records: `LanguageUrls`), some of them
    made as the pages are listed."""
    for each in [context, *contexts]:
        language = each.site.config.language
        prefix = "" if each is context else f"{language}/"
        for kind in PAGE_KINDS.values():
            if kind.per_language:
                for page in kind.pages(each):
                    links.add(page.path, language, prefix + page.path, page.alternates)


def _kind_pages(kind: PageKind, context: RenderContext, contexts: list[RenderContext], links: LanguageLinks) -> Iterable[Page]:
    """The pages of a `per_language` kind of a site in several languages: each language's (those of a language but
    the default under '<tag>/'), each marked with its language and its translation key. Which languages a page is in
    joins its inputs (its alternates and its switcher name them: a page added in English changes its French
    version's), and on a language's page which pages that language has (its links lead to them: `LanguageUrls`,
    a French CV added changes the menu of every French page)."""
    for own in [context, *contexts]:
        language = own.site.config.language
        prefix = "" if own is context else f"{language}/"
        has = digest(sorted(key for key, versions in links.versions.items() if language in versions)) if prefix else ""
        for page in kind.pages(own):
            versions = sorted(links.versions.get(page.path, {}).items())
            inputs = (*page.inputs, versions, has) if prefix else (*page.inputs, versions)
            yield dataclasses.replace(page, path=prefix + page.path, inputs=inputs, language=language, translation_key=page.path)


def _two_pages(path: str, first_kind: str, first: Page, kind: str, page: Page) -> Problem:
    """Two kinds list one output path: at the place of the one a file of the site makes or declares (a page's text,
    a theme's `pages:` entry; a redirect's line when it is the other's), naming the other and what to change."""
    shown = path.removesuffix("index.html") or path
    one, other = sorted([(first_kind, first), (kind, page)], key=lambda each: (each[1].where is None and each[1].source is None, each[0] == "redirects"))
    (one_kind, one_page), (other_kind, other_page) = one, other
    where = one_page.where or one_page.source
    if where is None:
        return Problem(f"two pages would be written to output/{path}: by '{first_kind}' and by '{kind}'")
    other_place = other_page.where or other_page.source
    elsewhere = str(other_place).removesuffix(":") if other_place is not None else None  # 'content/redirects.yaml:3'
    if one_page.where is not None:  # a theme's page
        by = f"{elsewhere} ('{other_kind}')" if elsewhere is not None else f"sitegen's '{other_kind}' pages"
        return Problem(f"path '{path}': {by} write{'s' if elsewhere else ''} output/{path} already; choose another path", where)
    if one_kind == "redirects":  # the other is sitegen's own page
        return Problem(f"redirect of '{shown}': the old address is sitegen's '{other_kind}' page (output/{path}): delete this line", where)
    noun = _NOUNS.get(one_kind, "page")
    if other_kind == "redirects" and other_place is not None:
        return Problem(
            f"this {noun} and the redirect at {elsewhere} both want the address '{shown}': delete that line of {other_place.path}"
            f" (the {noun} now stands at the old address), or give the {noun} another address with slug: ...",
            where,
        )
    by = f"{elsewhere} ('{other_kind}')" if elsewhere is not None else f"sitegen's '{other_kind}' pages"
    return Problem(f"this {noun} and {by} both want output/{path}; give the {noun} another address with slug: ...", where)


_NOUNS = {"pages": "page", "posts": "post"}  # for messages: what a kind's file makes


def address_conflicts(kinds: dict[str, str], places: dict[str, Location] | None = None) -> list[Problem]:
    """Output paths (each -> the page kind that lists it) that cannot all be written, or not on every system: one
    outside output/, two names that are one ignoring case (one file on macOS and Windows), a file where another
    page needs a folder ('feed.xml' and 'feed.xml/index.html'). Looked at with sets: a large site has 100,000 paths.
    `places`: where a path is declared or made, for the paths a file of the site names or makes (a theme's `pages:`,
    a page's text, a redirect's line)."""
    places = places or {}
    joined = "\n" + "\n".join(kinds) + "\n"
    outside = [path for path in kinds if _no_place_inside(path)] if any(shape in joined for shape in _NOT_A_PLACE_INSIDE) else []
    messages = {f"'{kinds[path]}' would write output/{path}, which is not a file inside output/": places.get(path) for path in outside}
    inside: dict[str, str] = {}  # every folder the paths need -> the first path in it
    for path in kinds:
        folder = path.rpartition("/")[0]
        while folder and folder not in inside:
            inside[folder] = path
            folder = folder.rpartition("/")[0]
    for folder in sorted(inside.keys() & kinds.keys()):
        messages[f"output/{folder} (by '{kinds[folder]}') is a file, and '{kinds[inside[folder]]}' needs a folder of that name for output/{inside[folder]}"] = (
            places.get(folder) or places.get(inside[folder])
        )
    names = [*inside, *kinds]
    if len({name.lower() for name in names}) != len(names):  # some name is another's in another case: say which, the outermost
        spelled: dict[str, str] = {}  # a name in lower case -> its first spelling
        for name in sorted(names, key=lambda name: name.count("/")):
            first = spelled.setdefault(name.lower(), name)
            if first != name and spelled.get(name.rpartition("/")[0].lower(), name.rpartition("/")[0]) == name.rpartition("/")[0]:
                made_by = [each if each in kinds else inside[each] for each in (first, name)]  # the page in each
                where = next((places[path] for path in made_by if path in places), None)
                by = [f"'{kinds[path]}'" + (f" at {str(places[path]).removesuffix(':')}" if places.get(path, where) != where else "") for path in made_by]
                messages[f"output/{first} (by {by[0]}) and output/{name} (by {by[1]}) are one name on macOS and Windows"] = where
    return [Problem(message, where) for message, where in messages.items()]


# in "\n" + the paths joined by "\n" + "\n": '/x', 'a//b', './x', 'a/../b', 'a/', '..'
_NOT_A_PLACE_INSIDE = ("\n/", "//", "/\n", "\n./", "\n../", "/./", "/../", "/.\n", "/..\n", "\n.\n", "\n..\n")


def _no_place_inside(path: str) -> bool:
    return path.startswith("/") or any(part in ("", ".", "..") for part in path.split("/"))


def render_template(environment: jinja2.Environment, template: str, values: dict[str, Any]) -> str:
    """The template rendered; a mistake in a template is a `path:line:` problem, not a crash."""
    try:
        return environment.get_template(template).render(values)
    except jinja2.TemplateSyntaxError as error:
        where = Location(_shown_path(error.filename or error.name or template), error.lineno)
        message = _unknown_filter(environment, error.message or "") or error.message
        problem = _unclosed_block(environment, error, where) or Problem(f"template error: {message}", where)
        raise ContentError(problem) from error
    except jinja2.TemplateNotFound as error:
        raise ContentError(_not_found(environment, template, error)) from error
    except RecursionError as error:  # `{% extends "!theme/base.html" %}` in the theme's own base.html
        message = (
            "template error: a template extends or includes itself; inside a theme, `!theme/` names that theme's"
            ' own templates: build on its parent\'s with `!<parent>/`, e.g. {% extends "!default/base.html" %}'
        )
        raise ContentError(Problem(message, _traceback_location(error))) from error
    except jinja2.sandbox.SecurityError as error:
        hint = _sandbox_hint(str(error))
        message = f"template refused by the sandbox: {str(error).rstrip('.') + hint if hint else error}"
        raise ContentError(Problem(message, _traceback_location(error) or Location(template))) from error
    except UnknownValue as error:
        place = _traceback_location(error)
        raise ContentError(Problem(f"template error in {template}: {_unknown_value(environment, error, values, place)}", place)) from error
    except jinja2.UndefinedError as error:
        raise ContentError(Problem(f"template error in {template}: {error.message}", _traceback_location(error))) from error
    except SitegenError:
        raise
    except Exception as error:  # `{{ 1 / 0 }}`, `{{ year + "x" }}`: a mistake in a template, not a crash of sitegen
        place = _traceback_location(error)
        if isinstance(error, jinja2.TemplateRuntimeError) and (filter_message := _unknown_filter(environment, str(error))):
            raise ContentError(Problem(f"template error: {filter_message}", place)) from error
        message = f"template error in {template}: {type(error).__name__}: {error}"
        raise ContentError(Problem(message, place)) from error


_REFUSED_ATTRIBUTE = re.compile(r"access to attribute '(\w+)' of '(\w+)' object is unsafe")
_CHANGING_METHODS = frozenset({"append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "setdefault", "sort", "reverse", "add", "discard"})


def _sandbox_hint(message: str) -> str:
    """What to write instead of what Jinja's sandbox refused: a method that changes a value (`names.append(x)`), or
    a Python internal (`value.__class__`)."""
    refused = _REFUSED_ATTRIBUTE.search(message)
    if refused is None:
        return ""
    if refused[1] in _CHANGING_METHODS:
        return (
            "; the values templates get are never changed: make the value you need with filters,"
            ' `records|selectattr("venue_short")|list`, `records|map(attribute="year")|unique|list`'
        )
    if refused[1].startswith("_"):
        return "; templates read the fields the values hold (docs/themes.md, What templates receive)"
    return ""


# Jinja's words for a block left open: '... The innermost block that needs to be closed is 'if'.'
_INNERMOST = re.compile(r"The innermost block that needs to be closed is '(\w+)'")
_UNKNOWN_TAG = re.compile(r"Encountered unknown tag '(\w+)'")
# The tags that open a block closed by `end<tag>` (`set` only without `=`: `{% set x %}...{% endset %}`)
_BLOCK_TAGS = frozenset({"for", "if", "block", "macro", "call", "filter", "with", "autoescape", "set", "trans"})


def _unclosed_block(environment: jinja2.Environment, error: jinja2.TemplateSyntaxError, where: Location) -> Problem | None:
    """Jinja's error about a block left open, at the line that opens it and with the end tag to write; None for
    another syntax error. Jinja says where it gave up ('The innermost block that needs to be closed is 'if'') but
    not where that `{% if %}` is, which in a long template is far away."""
    innermost = _INNERMOST.search(error.message or "")
    if innermost is None or error.source is None or error.lineno is None:
        return None
    unknown = _UNKNOWN_TAG.search(error.message or "")
    stopper = unknown[1] if unknown else None  # the end tag Jinja stopped at, or None at the end of the file
    opened = _open_blocks(environment, error.source, error.lineno, stopper)
    if not opened or opened[-1][0] != innermost[1]:
        return None
    tag, line = opened[-1]
    if stopper is None:
        message = f"this {{% {tag} %}} is never closed: the file ends first; write {{% end{tag} %}} where the {tag}'s part ends"
        return Problem(f"template error: {message}", Location(where.path, line))
    if any(name == stopper.removeprefix("end") for name, _ in opened):  # it closes a block around the open one
        message = (
            f"this {{% {tag} %}} is never closed: {{% {stopper} %}} at line {error.lineno} ends the block around it first;"
            f" write {{% end{tag} %}} where the {tag}'s part ends, before that {{% {stopper} %}}"
        )
        return Problem(f"template error: {message}", Location(where.path, line))
    message = (
        f"{{% {stopper} %}} closes no open {{% {stopper.removeprefix('end')} %}}: the innermost open block is the {{% {tag} %}}"
        f" of line {line}; write {{% end{tag} %}} to close it"
    )
    return Problem(f"template error: {message}", where)


def _open_blocks(environment: jinja2.Environment, source: str, stop_line: int, stopper: str | None) -> list[tuple[str, int]]:
    """The blocks open (each tag and the line it opens at) where Jinja stopped: before the tag `stopper` on
    `stop_line`, or at the end of the file."""
    opened: list[tuple[str, int]] = []
    try:
        tokens = [(line, kind, value) for line, kind, value in environment.lex(source) if kind != "whitespace"]
    except jinja2.TemplateSyntaxError:
        return []
    for index, (line, kind, _) in enumerate(tokens):
        if kind != "block_begin" or index + 1 >= len(tokens) or tokens[index + 1][1] != "name":
            continue
        name = tokens[index + 1][2]
        if stopper is not None and line >= stop_line and name == stopper:
            break
        if name in _BLOCK_TAGS and (name != "set" or not _assigns(tokens, index + 2)):
            opened.append((name, line))
        elif name.startswith("end") and opened and opened[-1][0] == name[3:]:
            opened.pop()
    return opened


def _assigns(tokens: list[tuple[int, str, str]], index: int) -> bool:
    """Whether the `{% set %}` whose tokens start at `index` has an `=` before its end: `{% set x = 1 %}`."""
    for _, kind, value in tokens[index:]:
        if kind == "block_end":
            return False
        if kind == "operator" and value == "=":
            return True
    return False


# Filters of other template languages a theme's author may know them by (Liquid, as Jekyll's al-folio has them;
# Hugo's; Jinja's own extensions): the filter of this one that does the same.
_FILTER_SYNONYMS = {
    "upcase": "upper",
    "uppercase": "upper",
    "downcase": "lower",
    "lowercase": "lower",
    "strip": "trim",
    "size": "length",
    "len": "length",
    "jsonify": "tojson",
    "json": "tojson",
    "datetimeformat": "date",
    "date_to_string": "date",
    "date_to_long_string": "date",
    "strftime": "date",
    "where": "selectattr",
    "sort_by": "sort",
    "concat": "join",
    "escape_once": "escape",
    "capitalize_first": "capitalize",
}
_NO_FILTER = re.compile(r"No (filter|test) named '([^']+)'")


def _unknown_filter(environment: jinja2.Environment, message: str) -> str | None:
    """Jinja's 'No filter named 'upcase'.' as the filter meant (upper), or with the filters there are."""
    found = _NO_FILTER.search(message)
    if found is None:
        return None
    kind, name = found[1], found[2]
    there = sorted(environment.filters if kind == "filter" else environment.tests)
    meant = _FILTER_SYNONYMS.get(name.lower()) if kind == "filter" else None
    meant = meant or next(iter(difflib.get_close_matches(name, there, n=1, cutoff=0.6)), None)
    hint = f"did you mean '{meant}'?" if meant else f"the {kind}s there are: {', '.join(there)}"
    return f"no {kind} named '{name}'; {hint}"


def _unknown_value(environment: jinja2.Environment, error: UnknownValue, values: dict[str, Any], where: Location | None) -> str:
    """A value a template names and does not receive, with the name meant: among the template's values for a
    name of its own, among the keys of the mapping it was looked up in for a field."""
    name = str(error.name)
    if error.owner is jinja2.utils.missing:
        names = sorted(values)
        meant = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        hint = f"did you mean '{meant[0]}'?" if meant else f"it receives {', '.join(names)} (docs/themes.md says what each holds)"
        return f"'{name}' is no value this template receives; {hint}"
    if not isinstance(error.owner, Mapping):
        return error.message or f"no value '{name}'"
    keys = sorted(str(key) for key in error.owner)
    whose = _looked_up_in(environment, where, name)
    meant = difflib.get_close_matches(name, keys, n=1, cutoff=0.6)
    hint = f"did you mean '{meant[0]}'?" if meant else f"it has {', '.join(keys) or 'nothing'}"
    if whose is not None and whose.rpartition(".")[2] == "extra" and not meant:  # what a site or a record may or may not write
        hint += f'; a value a site may leave out: test it, `{{% if {whose}.{name} is defined %}}`, or give it a default, `{{{{ {whose}.{name}|default("") }}}}`'
    return f"{whose or 'the value'} has no '{name}'; {hint}"


def _looked_up_in(environment: jinja2.Environment, where: Location | None, name: str) -> str | None:
    """The expression a field was looked up in, as the template's line writes it (`site.extra` of
    `site.extra.motoo`), or None when the line does not say."""
    loaders = getattr(environment.loader, "loaders", [])
    if where is None or where.line is None or not loaders or not isinstance(loaders[0], ListingLoader):
        return None
    listing = loaders[0].listing
    if where.path not in listing.files:
        return None
    text, problem = read_text(listing, where.path)
    lines = text.splitlines() if problem is None else []
    if where.line > len(lines):
        return None
    found = re.search(rf"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?:\.{re.escape(name)}\b|\[[\"']{re.escape(name)}[\"']\])", lines[where.line - 1])
    return found[1] if found else None


def _not_found(environment: jinja2.Environment, template: str, error: jinja2.TemplateNotFound) -> Problem:
    """A template that names one no folder has: at the line that names it, with the name of its folder most like it."""
    where = _traceback_location(error)
    needed = "" if where is not None else f" (needed for {template})"
    folder, _, name = str(error.name).rpartition("/")
    names = environment.list_templates() if environment.loader is not None else []
    beside = [other.rpartition("/")[2] for other in names if other.rpartition("/")[0] == folder]
    meant = difflib.get_close_matches(name, beside, n=1, cutoff=0.75)
    if meant:
        hint = f"; did you mean '{folder + '/' if folder else ''}{meant[0]}'?"
    elif beside:  # what there is to name instead
        hint = f"; the templates/{folder + '/' if folder else ''} folders of the site and its themes hold {', '.join(sorted(set(beside)))}"
    else:
        hint = ""
    return Problem(f"template not found: {error.name}{needed}{hint}", where)


def _shown_path(filename: str) -> str:
    return filename


def _traceback_location(error: Exception) -> Location | None:
    """The template file and line where rendering failed, from the traceback."""
    tb = error.__traceback__
    found = None
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith((".html", ".xml", ".txt")):  # a template's frame: named by its input path
            found = Location(filename, tb.tb_lineno)
        tb = tb.tb_next
    return found
