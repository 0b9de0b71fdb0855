"""The homepage's settings from content/site.yaml (read and checked by sitegen/pages/menu.py)."""

from __future__ import annotations

from sitegen.homepage.appearance import Appearance
from sitegen.values import value_class


@value_class
class MenuEntry:
    title: str
    url: str  # as written: a path in the site ('cv/'), '#part' of the profile, or http(s)
    line: int = 0  # where it is written in site.yaml

    def in_site(self) -> str:
        """The URL with a path from the site's root written relative: '/cv/' is 'cv/' (a menu's paths are the site's);
        '/' is './', the site's home, as './' is."""
        if self.url.startswith("/") and not self.url.startswith("//"):
            return self.url.lstrip("/") or "./"
        return self.url


@value_class
class Analytics:
    kind: str  # 'plausible' or 'goatcounter'
    domain: str = ""  # plausible: the site's domain as Plausible knows it
    endpoint: str = ""  # goatcounter: where counts go
    script: str = ""


@value_class
class Comments:
    """A blog's comments, held as GitHub Discussions of a repository and shown by giscus (giscus.app)."""

    repo: str  # owner/name, a public repository with Discussions and the giscus app
    repo_id: str  # what giscus.app's configuration page gives for the repository and the category
    category: str
    category_id: str
    mapping: str = "pathname"  # which discussion a page's comments are: giscus's data-mapping
    reactions: bool = True  # the readers' reactions to the post above its comments


@value_class
class HomepageSettings:
    nav: tuple[MenuEntry, ...] | None = None  # None: made from what the site has
    group_by: str = "year"
    analytics: Analytics | None = None
    verification: tuple[tuple[str, str], ...] = ()  # search engines' meta tags proving the site is its owner's: (name, code)
    appearance: Appearance = Appearance()  # accent colour, fonts, dark mode
    protect_email: bool = False  # the profile's and people's e-mail addresses encoded in pages, left out of JSON-LD
    comments: Comments | None = None  # the blog posts' comments (off when None)
    # a site in several languages whose `nav` is written for each (nav: {en: [...], fr: [...]}): each language's menu,
    # by tag; a language with none has the menu made from what the site has. () for a menu in every language
    menus: tuple[tuple[str, tuple[MenuEntry, ...]], ...] = ()
    nav_language: str = ""  # the language `nav`'s titles are written in: "" for the default language's
