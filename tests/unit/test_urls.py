"""Where pages live and where the links written in records lead."""

from __future__ import annotations

from urllib.parse import unquote, urljoin, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitegen.render import _target  # here, not in the test: its first import outlasts Hypothesis's deadline
from sitegen.urls import (
    ADDRESS,
    SiteUrls,
    file_slug,
    is_relative_path,
    link_preview_problem,
    no_link_preview_format,
    slugify,
    url_scheme,
    windows_path,
    with_unique_anchors,
)
from sitegen.values import value_class


@pytest.mark.parametrize(
    "written, on_pages, absolute",
    [
        ("static/talk.pdf", "/repo/static/talk.pdf", "https://user.github.io/repo/static/talk.pdf"),  # the site's own file
        # a full address holds no space (Google Scholar's citation_pdf_url, feeds, records.json): percent-encoded
        ("papers/a b.pdf#p2", "/repo/papers/a b.pdf#p2", "https://user.github.io/repo/papers/a%20b.pdf#p2"),
        ("papers/Müller (final) 50%25.pdf", "/repo/papers/Müller (final) 50%25.pdf", "https://user.github.io/repo/papers/M%C3%BCller%20(final)%2050%25.pdf"),
        ("https://arxiv.org/abs/2401.01234", "https://arxiv.org/abs/2401.01234", "https://arxiv.org/abs/2401.01234"),
        ("http://example.org/x.pdf", "http://example.org/x.pdf", "http://example.org/x.pdf"),
        ("HTTPS://Example.org/X.pdf", "HTTPS://Example.org/X.pdf", "HTTPS://Example.org/X.pdf"),
        ("//cdn.example.org/x.pdf", "//cdn.example.org/x.pdf", "//cdn.example.org/x.pdf"),
        ("mailto:lena@example.org", "mailto:lena@example.org", "mailto:lena@example.org"),
        ("/other-project/", "/other-project/", "/other-project/"),  # the domain's root: as written
        ("#bibtex", "#bibtex", "#bibtex"),
        ("", "", ""),
    ],
)
def test_a_relative_link_is_taken_from_the_sites_root(written, on_pages, absolute):
    urls = SiteUrls("https://user.github.io/repo/")
    assert urls.link(written) == on_pages
    assert urls.absolute_link(written) == absolute


def test_without_a_host_the_absolute_link_is_root_relative():
    assert SiteUrls("/").absolute_link("static/talk.pdf") == "/static/talk.pdf"


@pytest.mark.parametrize(
    "url, scheme",
    [
        ("https://e.org/a", "https"),
        ("http://e.org/a", "http"),
        ("HTTPS://E.org", "https"),
        ("mailto:a@e.org", "mailto"),
        ("javascript:alert(1)", "javascript"),
        ("java\tscript:alert(1)", "javascript"),
        ("static/talk.pdf", ""),
        ("/elsewhere/", ""),
    ],
)
def test_a_links_scheme_is_found_with_or_without_parsing(url, scheme):
    assert url_scheme(url) == scheme


@pytest.mark.parametrize(
    "value, slug",
    [
        ("2401.01234", "2401.01234"),
        ("hep-ph/0601001", "hep-ph-0601001"),
        ("muller2019sparse", "muller2019sparse"),
        ("a b/c?d#e", "a-b-c-d-e"),
        ("Müller", "M-ller"),
        ("cs.DC", "cs.DC"),
    ],
)
def test_slugify(value, slug):
    assert slugify(value) == slug


@value_class
class Item:
    title: str
    anchor: str


def test_anchors_met_again_are_numbered_in_order():
    items = [Item("a", "x"), Item("b", "y"), Item("c", "x"), Item("d", "x")]
    assert with_unique_anchors(items) == [Item("a", "x"), Item("b", "y"), Item("c", "x-2"), Item("d", "x-3")]


@given(st.lists(st.sampled_from(["static", "talk.pdf", "a b", "..", ".", "records", "x%20y"]), min_size=1, max_size=5), st.booleans())
def test_a_link_into_the_site_is_looked_for_where_a_browser_goes(segments, trailing_slash):
    """The broken-link check (render.links_to_nothing) resolves a path as a browser does from the site's root."""
    url = "/".join(segments) + ("/" if trailing_slash else "")
    if not is_relative_path(url):
        return
    resolved = unquote(urlsplit(urljoin("https://example.org/repo/", url)).path)
    if not resolved.startswith("/repo/"):
        return  # it leaves the site: looked for as written, and found nowhere
    assert _target(url) == resolved.removeprefix("/repo/")


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("über mich", "uber-mich"),  # Hugo's and Jekyll's space -> '-'; accents dropped (Hugo's removePathAccents)
        ("Über Mich", "Uber-Mich"),  # case kept, as Jekyll keeps it and sitegen always has
        ("My First Post", "My-First-Post"),
        ("Straße", "Strasse"),
        ("naïve café (draft)", "naive-cafe-draft"),
        ("a - b", "a-b"),
        ("teaching", "teaching"),
        ("a--b_c.d", "a--b_c.d"),  # an address already: kept as it is
        ("研究", ""),
    ],
)
def test_a_file_name_becomes_an_address_as_hugo_and_jekyll_make_one(name, slug):
    assert file_slug(name) == slug


@given(st.text(max_size=30))
def test_a_file_slug_is_an_address_or_nothing(name):
    slug = file_slug(name)
    assert slug == "" or ADDRESS.fullmatch(slug) or set(slug) <= {"."}


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("static\\paper.pdf", ("static/paper.pdf", "use / in paths; this looks like a Windows path: write 'static/paper.pdf'")),
        ("D:\\code\\x", None),
        ("C:/Users/ada/cv.pdf", None),
        ("static/paper.pdf", "not"),
        ("https://example.org/a\\b", "not"),
    ],
)
def test_a_link_written_as_a_windows_path(url, expected):
    found = windows_path(url)
    if expected == "not":
        assert found is None
    elif expected is None:
        assert found is not None and found[0] is None
        assert found[1] == (
            f"'{url}' is a file on your computer (this looks like a Windows path), which no visitor can reach: "
            "put the file in static/ and write static/NAME (use / in paths)"
        )
    else:
        assert found == expected


@pytest.mark.parametrize(
    "address, kind",
    [
        ("lena.svg", "SVG"),
        ("static/previews/Fig.SVG", "SVG"),
        ("https://example.org/a.svg?v=2#x", "SVG"),
        ("static/teaser.avif", "AVIF"),
        ("lena.png", ""),
        ("https://example.org/photo.JPEG", ""),
        ("static/a.webp", ""),
        ("https://images.example.net/render?id=3", ""),  # names no format: may be any
    ],
)
def test_pictures_link_previews_cannot_show(address, kind):
    assert no_link_preview_format(address) == kind
    assert bool(link_preview_problem(address)) == bool(kind)


@pytest.mark.parametrize(
    ("address", "kind", "instead"),
    [("IMG_2041.heic", "HEIC", "IMG_2041.jpg"), ("static/me.HEIF", "HEIF", "static/me.jpg"), ("scan.tiff", "TIFF", "scan.jpg")],
)
def test_a_picture_only_safari_shows_is_said_to_be_shown_to_almost_no_visitor(address, kind, instead):
    """An iPhone's HEIC photo was said to be shown on the page: Chrome, Firefox and Edge show a broken picture."""
    problem = link_preview_problem(address)
    assert "the page shows it" not in problem
    assert problem == (
        f"{address} is {'a' if kind == 'TIFF' else 'an'} {kind} picture, which only Safari shows: visitors with Chrome, Firefox "
        f"or Edge see no picture, and links to the page are shared with none; save it as a JPEG ({instead}) and name that"
    )
