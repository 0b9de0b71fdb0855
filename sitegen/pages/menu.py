"""The homepage's settings in content/site.yaml (SPEC §7): `nav`, `group_by`, `analytics`, `verification`,
`protect_email`, `comments`, and the
look (`accent`, `accent_dark`, `font`, `heading_font`, `dark_mode`: sitegen/homepage/appearance.py).

    nav:                       # the menu; without it, made from what the site has
      - {title: Publications, url: "#publications"}
      - {title: CV, url: cv/}         # a path of the site; ./ (or /) is its home
      - {title: Blog, url: https://blog.example.org}
    # nav: {en: [...], fr: [...]}  # a site in several languages: a menu for each (one left out: made from the site)
    group_by: type             # or year (the default): how lists of records are ordered
    analytics:                 # off unless set; one of
      plausible: example.org   #   Plausible, for this domain
      # goatcounter: mysite    #   GoatCounter, this site code
    protect_email: true        # e-mail addresses encoded in the pages and left out of JSON-LD, for harvesters
    comments:                  # the blog posts' comments, off unless set: GitHub Discussions shown by giscus
      giscus: {repo: jane/jane.github.io, repo_id: R_kgDO..., category: Comments, category_id: DIC_kwDO...}
    verification:              # search engines' codes of their "HTML tag" method, a meta tag on every page
      google: abcDEF123        #   Google Search Console (a list for several owners)
      bing: 0123456789ABCDEF   #   Bing Webmaster Tools

This kind reads site.yaml for these settings alone, to report a mistake at its
line; the settings reach every page with the rest of site.yaml (the site-wide key).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Any

from sitegen.errors import Location, Problem, shown_value
from sitegen.homepage.appearance import read_appearance
from sitegen.homepage.fields import Fields
from sitegen.homepage.settings import Analytics, Comments, HomepageSettings, MenuEntry
from sitegen.load import parse_yaml
from sitegen.model import KindContent, Site
from sitegen.pages import ContentFiles, Page, RenderContext, register_page_kind

SITE_FILE = "content/site.yaml"
GROUPINGS = ("year", "type")
_HOST = re.compile(r"(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}")
_GOATCOUNTER_CODE = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
PLAUSIBLE_SCRIPT = "https://plausible.io/js/script.js"
GOATCOUNTER_SCRIPT = "https://gc.zgo.at/count.js"
# the meta tag each search engine reads for its "HTML tag" verification, by the name site.yaml gives the engine
VERIFICATION_TAGS = {
    "google": "google-site-verification",
    "bing": "msvalidate.01",
    "yandex": "yandex-verification",
    "baidu": "baidu-site-verification",
    "naver": "naver-site-verification",
}
_VERIFICATION_CODE = re.compile(r"[A-Za-z0-9_-]{4,200}")  # base64url (Google), hex (Bing, Yandex, Naver), code-... (Baidu)
# giscus's settings as its configuration page (giscus.app) names them: what each is, and the form of those it requires
GISCUS_SETTINGS = {
    "repo": "owner/name of a GitHub repository",
    "repo_id": "a repository id as giscus.app gives it (R_kgDO...)",
    "category": "the name of a Discussions category",
    "category_id": "a category id as giscus.app gives it (DIC_kwDO...)",
    "mapping": "which discussion holds a post's comments",
    "reactions": "true or false",
}
GISCUS_REQUIRED = {
    "repo": re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}"),
    "repo_id": re.compile(r"[A-Za-z0-9_=-]{4,100}"),
    "category": re.compile(r"[^\x00-\x1f]{1,100}"),
    "category_id": re.compile(r"[A-Za-z0-9_=-]{4,100}"),
}
GISCUS_MAPPINGS = ("pathname", "url", "title", "og:title")
_PASTED_CONTENT = re.compile(r"""\bcontent\s*=\s*["']([^"']*)["']""")


def menu_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    yield from links_of(site.kind_value("site-menu"))


def links_of(settings: HomepageSettings | None) -> Iterable[tuple[Location | None, str, str]]:
    """The links of a menu written in site.yaml: the site's, a language's own (`own_links`)."""
    nav = settings.nav if settings is not None else None
    yield from ((Location(SITE_FILE, entry.line or None), f"menu entry '{entry.title}'", entry.in_site()) for entry in nav or ())


def settings_in_language(content: KindContent, language: str, languages: tuple[str, ...]) -> KindContent | None:
    """The settings as `language`'s pages show them (`PageKind.language_content`): with its own menu, when `nav` is
    written for each language (a language it leaves out has the menu made from what the site has); None for a menu
    in every language."""
    settings = content.value
    if settings is None or not settings.menus:
        return None
    nav = dict(settings.menus).get(language)
    return dataclasses.replace(content, value=dataclasses.replace(settings, nav=nav, menus=(), nav_language=language))


@register_page_kind(
    "site-menu",
    reads=(SITE_FILE,),
    load=lambda files: load_settings(files),
    links=menu_links,
    per_language=True,  # its menu, when site.yaml writes one for each language; it lists no page
    language_content=settings_in_language,
    own_links=lambda settings, language: links_of(settings),
)
def menu_pages(context: RenderContext) -> Iterable[Page]:
    return ()


def load_settings(files: ContentFiles) -> tuple[HomepageSettings, None, list[Problem]]:
    problems: list[Problem] = []
    text = files.texts.get(SITE_FILE)
    if text is None:
        return HomepageSettings(), None, problems
    data, problem = parse_yaml(text, SITE_FILE)
    if problem is not None or not isinstance(data, dict):
        return HomepageSettings(), None, problems  # reported by the validation of site.yaml
    fields = Fields(data, SITE_FILE, problems)
    written = fields.data.get("nav")
    by_language = isinstance(written, dict) and not {"title", "url"} & set(written)  # not one entry written without its list
    menus = _menus(fields, files.languages) if by_language else ()
    nav = dict(menus).get(files.languages[0]) if menus else None if by_language else _nav(fields, written)
    settings = HomepageSettings(
        nav,
        _group_by(fields),
        _analytics(fields),
        _verification(fields),
        read_appearance(fields, text),
        fields.flag("protect_email", False),
        _comments(fields),
        menus=menus,
    )
    return settings, None, problems


def _menus(fields: Fields, languages: tuple[str, ...]) -> tuple[tuple[str, tuple[MenuEntry, ...]], ...]:
    """`nav: {en: [...], fr: [...]}`: each language's menu, by its tag as `languages` writes it. A language the site
    does not have is a warning; on a site in one language, a menu by language is a mistake."""
    value = fields.data["nav"]
    if not languages:
        fields.problem(
            "nav",
            "field 'nav': a menu for each language is for a site in several languages (languages: [en, fr]); write one list of entries, each {title: ..., url: ...}",
        )
        return ()
    menus = []
    by_language = Fields(value, SITE_FILE, fields.problems)
    for key, entries in value.items():
        tag = next((known for known in languages if known.lower() == str(key).lower()), None)
        if tag is None:
            same = [known for known in languages if known.partition("-")[0].lower() == str(key).partition("-")[0].lower()]
            hint = f"did you mean {same[0]}?" if same else f"add {key} to languages, or write the menu for one of them"
            by_language.warn(str(key), f"field 'nav': '{key}' is not one of site.yaml's languages ({', '.join(languages)}); its menu is left out: {hint}")
            continue
        nav = _nav(by_language, entries, str(key), f"nav.{key}")
        if nav is not None:
            menus.append((tag, nav))
    return tuple(menus)


def _nav(fields: Fields, value: Any, key: str = "nav", name: str = "nav") -> tuple[MenuEntry, ...] | None:
    """The menu entries of `value`, written at `fields`' `key` (`name` in messages: 'nav', 'nav.fr')."""
    if value is None:
        return None
    if not isinstance(value, list):
        fields.problem(key, f"field '{name}': expected a list of menu entries, each {{title: ..., url: ...}}")
        return None
    entries = []
    for item in value:
        if not isinstance(item, dict):
            line = getattr(item, "line", 0) or fields.line(key)
            fields.problems.append(Problem(f"field '{name}': each entry should be {{title: ..., url: ...}}, got {item!r}", Location(SITE_FILE, line)))
            fields.failed = True
            continue
        entry = Fields(item, SITE_FILE, fields.problems)
        entry.unknown({"title", "url"}, "menu setting")
        title = entry.inline("title", required=True)
        if isinstance(item.get("url"), str) and not item["url"].strip():
            entry.problem("url", "field 'url' is empty; for the site's home page, write url: ./ (or /)")
            continue
        url = entry.text("url", required=True)
        if url and not url.startswith("#"):
            url = entry.checked_url("url", url)
        if title and url:
            entries.append(MenuEntry(title, url, entry.line("url")))
    return tuple(entries)


def _comments(fields: Fields) -> Comments | None:
    """`comments: {giscus: {...}}`: the four values giscus.app's configuration page gives for a repository, checked
    here so that a post never loads a script told to show another repository's discussions or none."""
    value: Any = fields.data.get("comments")
    if value in (None, False, {}):
        return None
    if not isinstance(value, dict) or list(value) != ["giscus"] or not isinstance(value["giscus"], dict):
        fields.problem(
            "comments", "field 'comments': expected giscus and its settings, as giscus: {repo: owner/name, repo_id: ..., category: ..., category_id: ...}"
        )
        return None
    giscus = Fields(value["giscus"], SITE_FILE, fields.problems)
    giscus.unknown(set(GISCUS_SETTINGS), "giscus setting")
    written = {name: giscus.text(name) for name in GISCUS_REQUIRED}
    for name, pattern in GISCUS_REQUIRED.items():
        if not written[name]:
            Fields(value, SITE_FILE, fields.problems).problem("giscus", f"giscus setting '{name}' is required: {GISCUS_SETTINGS[name]}")
            giscus.failed = True
        elif not pattern.fullmatch(written[name]):
            giscus.problem(name, f"giscus setting '{name}': {written[name]!r} is not {GISCUS_SETTINGS[name]}")
    mapping = giscus.text("mapping") or "pathname"
    if mapping not in GISCUS_MAPPINGS:
        giscus.problem("mapping", f"giscus setting 'mapping': expected one of {', '.join(GISCUS_MAPPINGS)}, got {mapping!r}")
    reactions = giscus.flag("reactions", True)
    if giscus.failed:
        return None
    return Comments(written["repo"], written["repo_id"], written["category"], written["category_id"], mapping, reactions)


def _group_by(fields: Fields) -> str:
    value = fields.data.get("group_by", "year")
    if value not in GROUPINGS:
        fields.problem("group_by", f"field 'group_by': expected year or type, got {value!r}")
        return "year"
    return str(value)


def _analytics(fields: Fields) -> Analytics | None:
    value: Any = fields.data.get("analytics")
    if value in (None, False, {}):
        return None
    if not isinstance(value, dict) or len(value) != 1:
        fields.problem("analytics", "field 'analytics': expected one of {plausible: your.domain} or {goatcounter: your-code}")
        return None
    ((kind, setting),) = value.items()
    if kind == "plausible":
        if isinstance(setting, str) and _HOST.fullmatch(setting.strip()):
            return Analytics("plausible", domain=setting.strip(), script=PLAUSIBLE_SCRIPT)
        fields.problem("analytics", f"field 'analytics': plausible takes the site's domain (example.org), got {setting!r}")
        return None
    if kind == "goatcounter":
        if isinstance(setting, str) and _GOATCOUNTER_CODE.fullmatch(setting.strip()):
            code = setting.strip()
            return Analytics("goatcounter", endpoint=f"https://{code}.goatcounter.com/count", script=GOATCOUNTER_SCRIPT)
        fields.problem("analytics", f"field 'analytics': goatcounter takes your site code (the 'mysite' of mysite.goatcounter.com), got {setting!r}")
        return None
    fields.problem("analytics", f"field 'analytics': unknown service '{kind}'; sitegen knows plausible and goatcounter")
    return None


def _verification(fields: Fields) -> tuple[tuple[str, str], ...]:
    """`verification: {google: CODE, bing: CODE, ...}`: each code (or list of codes) as the meta tag the engine reads."""
    value: Any = fields.data.get("verification")
    if value in (None, False, {}):
        return ()
    if not isinstance(value, dict):
        fields.problem("verification", "field 'verification': expected search engines and their codes, as google: abcDEF123 (on lines of their own)")
        return ()
    engines = Fields(value, SITE_FILE, fields.problems)
    tags = []
    for engine, codes in value.items():
        if engine not in VERIFICATION_TAGS:
            engines.problem(str(engine), f"field 'verification': unknown search engine '{engine}'; sitegen knows {', '.join(sorted(VERIFICATION_TAGS))}")
            continue
        for code in codes if isinstance(codes, list) else [codes]:
            written = code.strip() if isinstance(code, str) else code
            if isinstance(written, str) and _VERIFICATION_CODE.fullmatch(written):
                tags.append((VERIFICATION_TAGS[engine], written))
                continue
            # the whole tag (<meta name="google-site-verification" content="CODE" />) or Google's DNS record
            # (google-site-verification=CODE) pasted: name the part to keep
            pasted = _PASTED_CONTENT.search(written) if isinstance(written, str) else None
            if pasted is None and isinstance(written, str) and written.startswith(f"{VERIFICATION_TAGS[engine]}="):
                pasted = re.match(r"[^=]*=(.*)", written)
            if pasted is not None and _VERIFICATION_CODE.fullmatch(pasted[1].strip()):
                engines.problem(str(engine), f"field 'verification.{engine}': write the code alone, the content of the tag: {engine}: \"{pasted[1].strip()}\"")
            elif isinstance(code, int) and not isinstance(code, bool):  # YAML's number: its leading zeros are gone
                engines.problem(str(engine), f"field 'verification.{engine}': write the code in quotes, as the engine gives it: {engine}: \"...\"")
            else:
                engines.problem(
                    str(engine),
                    f"field 'verification.{engine}': expected the code of the engine's HTML tag (letters, digits, - and _), got {shown_value(code)}",
                )
    return tuple(tags)
