"""Old addresses that keep working: `content/redirects.yaml` maps an address the site had (under another
tool) to where that content is now, and each old address gets a small page that sends the browser on.

    blog/2015/formatting-and-links/: posts/formatting-and-links/
    publications/: "#publications"          # a part of the profile
    publication/gossip-sort/: records/gossip-sort/

Both sides are addresses in the site (a leading slash is allowed and ignored): a redirect cannot lead
elsewhere, so a pull request cannot turn the site into a relay. Such a page is not the theme's: it says
where it leads (a link, for a browser that does not follow), is kept out of the sitemap and of search
engines' indexes (`noindex`; its canonical address is the new one). A target that is no file of the
site is a warning, as a broken link is. `sitegen init --from` writes the file for what it brought over.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Iterable

from sitegen.errors import Location, Problem
from sitegen.load import parse_yaml
from sitegen.model import Site
from sitegen.pages import ContentFiles, Page, RenderContext, colon, register_page_kind, theme_string
from sitegen.urls import SiteUrls, address_problem, is_relative_path, record_path, slugify, windows_folder_problem
from sitegen.values import value_class

REDIRECTS_FILE = "content/redirects.yaml"
_ANCHOR = re.compile(r"#[A-Za-z0-9._:-]*")


@value_class
class Redirect:
    old: str  # the output file that stands at the old address: 'blog/2015/x/index.html'
    new: str  # where it leads, as written without a leading slash: 'posts/x/', '#publications'
    line: int


def old_addresses(site: Site) -> set[str]:
    """The output files of the redirect pages: pages that only send the browser on, so never the page a broken
    link meant (render.links_to_nothing suggests none of them: a redirect's own address, say)."""
    return {redirect.old for redirect in site.kind_value("redirects", ())}


def redirect_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    for redirect in site.kind_value("redirects", ()):
        if not redirect.new.startswith("#"):
            yield Location(REDIRECTS_FILE, redirect.line), f"redirect of '{redirect.old.removesuffix('index.html')}'", redirect.new


def redirect_cycles(site: Site) -> list[Problem]:
    """redirects.yaml's old addresses that lead, from one to the next, back to themselves: a browser would go round
    and round (each line of the cycle named once, at its first line)."""
    declared = site.kind_value("redirects", ())
    leads = {redirect.old: redirect.new for redirect in declared}
    problems, named = [], set()
    for redirect in declared:
        chain = _chain(redirect.new, leads)
        if chain[-1] is not None or redirect.old in named:
            continue
        cycle = chain[:-1]
        named.update(cycle)
        shown = " -> ".join(old.removesuffix("index.html") for old in [redirect.old, *cycle])
        problems.append(
            Problem(
                f"redirect of '{redirect.old.removesuffix('index.html')}': {shown} leads round in a circle, which a browser"
                " follows for ever: lead one of these addresses to a page",
                Location(REDIRECTS_FILE, redirect.line),
                warning=True,
            )
        )
    return problems


@register_page_kind("redirects", reads=(REDIRECTS_FILE,), load=lambda files: load_redirects(files), check=redirect_cycles, links=redirect_links)
def redirect_pages(context: RenderContext) -> Iterable[Page]:
    """Each old address's page, leading straight to where the content is now: an old address that redirects.yaml
    sends to another old one (a record's page before it was renamed or merged, say) leads past it, in one step."""
    declared = context.site.kind_value("redirects", ())
    moves = dict(record_moves(context.site, {redirect.old for redirect in declared}))
    leads = {**{redirect.old: redirect.new for redirect in declared}, **moves}
    for redirect in declared:
        new = final_address(redirect.new, leads)
        make = functools.partial(redirect_page, context, new)
        yield Page(redirect.old, (new,), make, in_sitemap=False, source=Location(REDIRECTS_FILE, redirect.line))
    for old, new in moves.items():
        yield Page(old, (new,), functools.partial(redirect_page, context, new), in_sitemap=False)


def final_address(new: str, leads: dict[str, str]) -> str:
    """Where an address leads in the end, past the old addresses (`leads`: each old page's output file -> where it
    leads) it may name; an anchor written with it is kept ('records/old/#fig' -> 'records/new/#fig'). In a cycle,
    the address as written (see `redirect_cycles`)."""
    chain = _chain(new, leads)
    return new if chain[-1] is None else chain[-1]


def _chain(new: str, leads: dict[str, str]) -> list:
    """The old pages an address passes through, then where it ends (None when it comes back round)."""
    passed: list = []
    while (page := _old_page(new, leads)) is not None:
        if page in passed:
            return [*passed, None]
        passed.append(page)
        path_and_anchor = leads[page]
        anchor = new.partition("#")[2]
        new = f"{path_and_anchor.partition('#')[0]}#{anchor}" if anchor and path_and_anchor.partition("#")[0] else path_and_anchor
    return [*passed, new]


def _old_page(address: str, leads: dict[str, str]) -> str | None:
    """The old page (its output file) an address in the site names, if it names one: 'records/x/', 'records/x',
    'old.html'."""
    path = address.partition("#")[0].partition("?")[0].strip("/")
    if not path:
        return None
    for page in (path, f"{path}/index.html"):
        if page in leads:
            return page
    return None


def record_moves(site: Site, declared: set[str]) -> Iterable[tuple[str, str]]:
    """(old page, new address) for each record renamed (its `aliases`) or merged with another version of the work
    (a preprint's page, records/2401.01234/, once its journal version is the work's): the links people made to it
    keep working without a line of redirects.yaml. An old address that is a record's page, or that redirects.yaml
    sends elsewhere, is left to it; one that is no folder Windows can hold is not written."""
    moved = [(entry, old_ids) for entry in site.entries if (old_ids := entry.record.old_ids)]
    if not moved:
        return
    taken = {record_path(entry.slug).casefold() for entry in site.entries} | {old.casefold() for old in declared}
    for entry, old_ids in moved:
        for old_id in old_ids:
            slug = slugify(old_id)
            old = record_path(slug)
            if old.casefold() not in taken and not windows_folder_problem(slug):
                taken.add(old.casefold())
                yield old, record_path(entry.slug).removesuffix("index.html")


def load_redirects(files: ContentFiles) -> tuple[tuple[Redirect, ...], None, list[Problem]]:
    problems: list[Problem] = []
    text = files.texts.get(REDIRECTS_FILE)
    if text is None:
        return (), None, problems
    data, problem = parse_yaml(text, REDIRECTS_FILE)
    if problem is not None or data is None:
        return (), None, [problem] if problem else []
    if not isinstance(data, dict):
        return (), None, [Problem("expected old addresses and where each leads now (blog/2015/x/: posts/x/)", Location(REDIRECTS_FILE, 1))]
    redirects = []
    for old, new in data.items():
        line = data.line_of(old) if hasattr(data, "line_of") else 1
        redirect = _redirect(old, new, Location(REDIRECTS_FILE, line), problems)
        if redirect is not None:
            redirects.append(redirect)
    return tuple(sorted(redirects, key=lambda redirect: redirect.old)), None, problems


def _redirect(old: object, new: object, where: Location, problems: list[Problem]) -> Redirect | None:
    if not isinstance(old, str) or not isinstance(new, str):
        problems.append(Problem(f"redirect {old!r}: both the old address and the new one should be text", where))
        return None
    address = old.strip().strip("/")
    page = address if address.endswith(".html") else f"{address}/index.html" if address else ""
    reason = "is the profile's own address" if not address else address_problem(address, reserved=()) or _not_a_page(address)
    if reason:
        first, _, rest = address.partition("/")
        if rest and not address_problem(rest, reserved=()) and address_problem(first, reserved=()):  # '/~jdoe/x.html'
            reason += f"; old addresses are read from the site's root: if /{first}/ is the site's own path, write '{rest}'"
        problems.append(Problem(f"redirect of '{old}': the old address {reason}", where))
        return None
    target = new.strip().removeprefix("/")
    path, _, anchor = target.partition("#")
    if (path and not is_relative_path(path)) or (anchor and not _ANCHOR.fullmatch("#" + anchor)) or not target:
        problems.append(Problem(f"redirect of '{old}': '{new}' should be an address in this site (posts/x/, records/x/, #publications)", where))
        return None
    return Redirect(page, target, where.line or 1)


_FILE_OF_ANOTHER_KIND = re.compile(r"\.(?:xml|bib|ris|json|pdf|txt|csv|atom|rss|ics)$", re.IGNORECASE)


def _not_a_page(address: str) -> str:
    """Why an old address cannot be a redirect page: a feed, a BibTeX file or a PDF is read by programs that do
    not follow an HTML page's refresh (a folder 'feed.xml/' would be written instead)."""
    if _FILE_OF_ANOTHER_KIND.search(address):
        return "is a file a feed reader or a program fetches, which does not follow a page's refresh: only pages can be redirected"
    return ""


def redirect_page(context: RenderContext, new: str) -> bytes:
    """The page at an old address: an instant refresh to the new one, and a link to it."""
    urls: SiteUrls = context.urls
    path, hash_mark, anchor = new.partition("#")
    url = (urls.link(path) if path else urls.page("index.html")) + hash_mark + anchor
    absolute = urls.absolute_link(path) if path else urls.absolute("index.html")  # without the part of the page: the page is the same
    shown = html.escape(url)
    canonical = f'<link rel="canonical" href="{html.escape(absolute)}">\n' if urls.origin else ""
    moved, title = theme_string(context, "redirect.moved", "This page has moved"), theme_string(context, "redirect.title", "moved")
    after_label = colon(context)
    return (
        f'<!DOCTYPE html>\n<html lang="{html.escape(context.site.config.language)}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(context.site.config.title + after_label + title)}</title>\n"
        f'<meta name="robots" content="noindex">\n{canonical}<meta http-equiv="refresh" content="0; url={shown}">\n</head>\n'
        f'<body>\n<p>{html.escape(moved + after_label)}<a href="{shown}">{shown}</a></p>\n</body>\n</html>\n'
    ).encode()
