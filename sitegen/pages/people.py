"""People pages (SPEC §9): people/index.html and, for each person, people/<slug>/index.html,
publications.bib and feed.xml.

The people are the files of content/people/ (sitegen.people.files) and, with
`site.yaml` `people: authors`, every other author of the records, namesakes
split by co-authors (sitegen.people.attribution). Who is whose is decided from
the records at every build; a page's inputs hold everything it shows of that
decision (its records, its evidence, its namesakes, the records of its name it
points on), so a page is rendered again exactly when one of them changed.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from functools import partial
from itertools import groupby
from typing import Any
from urllib.parse import quote
from xml.sax.saxutils import escape

from markupsafe import Markup

from sitegen.cache import digest
from sitegen.errors import Location
from sitegen.exports.feed import ATOM, FEED_SIZE
from sitegen.exports.feed import _timestamp as feed_timestamp
from sitegen.exports.feed import _xml_text as xml_text
from sitegen.exports.jsonld import person_json_ld, profile_page, script_json
from sitegen.model import Entry, Site
from sitegen.pages import Page, RenderContext, feed_title, register_page_kind
from sitegen.pages.redirects import redirect_page
from sitegen.people.attribution import (
    Directory,
    PersonRecords,
    attribute,
    excluded_by,
    home_slug,
    people_setting,
    record_author_ids,
    section,
    unmatched_members,
    what_attribution_reads,
)
from sitegen.people.files import FOLDER, PERSON_SUFFIXES, MemberLinks, Person, load_people, member_links, owner_person
from sitegen.people.names import initial, initial_id, person_key
from sitegen.urls import SiteUrls, record_path
from sitegen.views import LONG_LIST, counts_works, profile_link_label, profile_link_url, title_label

PEOPLE_PER_PAGE = 1000  # people listed on one page of the index (an aggregator's directory has tens of thousands)


def person_path(slug: str, name: str = "index.html") -> str:
    return f"people/{slug}/{name}"


def index_path(number: int) -> str:
    return "people/index.html" if number == 1 else f"people/page/{number}/index.html"


def people_warnings(site: Site) -> list:
    content = site.content.get("people")
    return unmatched_members(site.entries, content.value) if content is not None else []


def is_lab_site(site: Site) -> bool:
    """Is profile.yaml a lab or group rather than a person? A site with person files is a lab's (docs/people.md):
    its front page describes it as an `Organization`, and its people are the files."""
    people = site.content.get("people")
    return people is not None and bool(people.value)


def site_people(site: Site) -> tuple[tuple[Person, ...], MemberLinks]:
    """The people the records are attributed to first, and their links: the person files, or, on a person's
    site with `people: authors`, its owner (files.owner_person), one person whatever their co-authors."""
    content = site.content.get("people")
    if content is not None and content.value:  # a lab's (is_lab_site)
        return content.value, content.site_wide
    if people_setting(site.config.extra) == "authors":
        owner = owner_person(site.profile)
        return (owner,), member_links([owner])
    return (), MemberLinks({}, {}, {}, {}, ())


def person_file_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    for member in site.kind_value("people", ()):
        yield from (
            (Location(member.path, member.lines.get(f"links.{kind}", member.lines.get("links"))), f"link '{kind}'", profile_link_url(kind, value))
            for kind, value in member.links.items()
        )


@register_page_kind("people", reads=(FOLDER,), load=load_people, check=people_warnings, links=person_file_links, text_suffixes=PERSON_SUFFIXES, intro=True)
def people_pages(context: RenderContext) -> Iterable[Page]:
    site = context.site
    content = site.content.get("people")
    members, links = site_people(site)
    authors_mode = people_setting(site.config.extra) == "authors"
    if not members and not authors_mode:
        return
    directory = context.views.fragments.value(
        "people directory",
        lambda: digest(what_attribution_reads(site.entries), content.key if content is not None else "", authors_mode, members),
        lambda: attribute(site.entries, members, links, authors_mode),
    )
    context.warnings.extend(directory.problems(site.entries))
    pages = _PeoplePages(context, directory)
    yield from pages.index()
    for person in directory.people.values():
        yield from pages.of(person)
    for person in directory.people.values():  # '李 华' and '李华' had a page each: the old address leads to the one
        new = person_path(person.slug).removesuffix("index.html")
        for old in person.former_slugs:
            yield Page(person_path(old), (new,), partial(redirect_page, context, new), in_sitemap=False)


class _PeoplePages:
    def __init__(self, context: RenderContext, directory: Directory):
        self.context = context
        self.directory = directory
        self.entries = context.site.entries

    def records_key(self, positions: Iterable[int]) -> list[tuple[str, str]]:
        entries = self.entries
        return [(entries[p].key, entries[p].cite_key) for p in positions]

    # -- the index --------------------------------------------------------------

    def index(self) -> Iterable[Page]:
        ordered = self.directory.ordered()
        chunks = [ordered[i : i + PEOPLE_PER_PAGE] for i in range(0, len(ordered), PEOPLE_PER_PAGE)] or [[]]
        sectioned = len({section(p) for p in ordered}) > 1  # headings for members, alumni and other authors
        letters = self.letters(ordered, len(chunks))
        works = self.context.views.site_counts_works  # the description's "works" or "publications", as the profile's
        for number, chunk in enumerate(chunks, start=1):
            rows = [
                (
                    p.slug,
                    p.name,
                    len(p.positions),
                    p.member is not None,
                    p.number,
                    p.subjects[:3],
                    p.years,
                    (p.member.position, p.member.affiliation, p.member.role, p.member.alumni) if p.member else None,
                    p.evidence,
                    p.family,
                )
                for p in chunk
            ]
            path = index_path(number)
            intro = content.intros.get("") if (content := self.context.site.content.get("people")) is not None else None  # '_index.md'
            yield Page(
                path,
                (
                    digest("people.html", rows, number, len(chunks), len(ordered), len(self.entries), works, self.directory.authors_mode, sectioned, letters),
                    intro,
                ),
                partial(self.render_index, path, chunk, number, len(chunks), len(ordered), sectioned, letters),
            )

    @staticmethod
    def letters(ordered: list[PersonRecords], count: int) -> list[tuple[str, str, int]]:
        """The initials of the other authors' family names (they are in that order), each with the id of its heading
        and the number of the index's page on which it starts: the A-Z links of every page."""
        first: dict[str, tuple[str, str, int]] = {}
        for place, person in enumerate(ordered):
            if section(person) == "authors":
                letter = initial(person.family)
                first.setdefault(letter, (letter, initial_id(letter), place // PEOPLE_PER_PAGE + 1))
        return list(first.values())

    def render_index(
        self, path: str, chunk: list[PersonRecords], number: int, count: int, total: int, sectioned: bool, letters: list[tuple[str, str, int]]
    ) -> bytes:
        views, urls = self.context.views, self.context.urls
        values = views.common(path)
        pages = [urls.page(index_path(n)) for n in range(1, count + 1)]
        people = [self.summary(p) for p in chunk]
        sections = []
        for name, group in groupby(people, key=lambda p: p["section"]):
            listed = list(group)
            if name != "authors":  # members and alumni are in the order of their weight: no letters
                sections.append({"name": name, "people": listed, "groups": [{"letter": "", "id": "", "people": listed}]})
                continue
            groups = []
            for letter, of_letter in groupby(listed, key=lambda p: p["initial"]):
                groups.append({"letter": letter, "id": initial_id(letter), "people": list(of_letter)})
            sections.append({"name": name, "people": listed, "groups": groups})
        values.update(
            people=people,
            sections=sections,
            letters=[{"letter": letter, "url": ("" if page == number else pages[page - 1]) + f"#{id}"} for letter, id, page in letters],
            sectioned=sectioned,
            people_count=total,
            record_count=len(self.entries),
            counts_works=views.site_counts_works,
            lab=views.profile(),
            authors_mode=self.directory.authors_mode,
            **views.list_intro("people"),
            pagination={
                "number": number,
                "count": count,
                "urls": pages,
                "previous_url": pages[number - 2] if number > 1 else None,
                "next_url": pages[number] if number < count else None,
            },
        )
        if number > 1:  # the directory's own text opens its first page; the others keep its heading
            values.update(intro=[], intro_description="")
        return self.context.render("people.html", values)

    def summary(self, person: PersonRecords) -> dict[str, Any]:
        member = person.member
        return {
            "slug": person.slug,
            "name": person.name,
            "url": self.context.urls.page(person_path(person.slug)),
            "count": len(person.positions),
            "is_member": member is not None,  # a person file's, or the site's owner: the page says why records are theirs
            "is_owner": bool(member and member.owner),
            "number": person.number,
            "position": member.position if member else "",
            "role": member.role if member else "",
            "alumni": bool(member and member.alumni),
            "section": section(person),
            "initial": initial(person.family),
            "affiliation": member.affiliation if member else "",
            "subjects": person.subjects[:3],
            "years": person.years,
            "evidence": [{"name": name, "count": count} for name, count in person.evidence],
        }

    # -- a person's files ---------------------------------------------------------

    def of(self, person: PersonRecords) -> Iterable[Page]:
        people = self.directory.people
        namesakes = [(s, people[s].name, len(people[s].positions), people[s].subjects[:3], people[s].years, people[s].evidence[:3]) for s in person.namesakes]
        pointers = [
            (
                self.entries[p.position].key,
                p.slug,
                p.reason,
                *((people[p.slug].name, len(people[p.slug].positions), people[p.slug].subjects[:3]) if p.slug in people else ()),
            )
            for p in self.directory.pointers.get(person.slug, ())
        ]
        shown = (person.slug, person.name, person.member, person.number, person.evidence, person.coauthors, person.subjects, person.years)
        records = self.records_key(person.positions)
        # each page's inputs are hashed here: a directory lists 100,000 files, and the hash is all the key needs
        yield Page(person_path(person.slug), (digest("person.html", shown, records, namesakes, pointers),), partial(self.render_person, person))
        yield Page(person_path(person.slug, "publications.bib"), (digest(records),), partial(self.bibtex, person))
        newest = person.positions[:FEED_SIZE]
        yield Page(person_path(person.slug, "feed.xml"), (digest(person.slug, person.name, self.records_key(newest)),), partial(self.feed, person))

    def render_person(self, person: PersonRecords) -> bytes:
        views, urls = self.context.views, self.context.urls
        path = person_path(person.slug)
        values = views.common(path)
        entries = [self.entries[p] for p in person.positions]
        people = self.directory.people
        shown = self.profile(person)
        values.update(
            person=shown,
            record_count=len(entries),
            counts_works=counts_works(entries),
            long_list=len(entries) >= LONG_LIST,
            years=[
                {"year": year, "anchor": f"year-{year}", "rendered": [self.item(e) for e in group]}
                for year, group in groupby(entries, key=lambda e: e.record.year)
            ],
            namesakes=[self.summary(people[s]) for s in person.namesakes],
            pointers=[self.pointer(p) for p in self.directory.pointers.get(person.slug, ())],
            people_url=urls.page(index_path(1)),
            authors_mode=self.directory.authors_mode,
            jsonld=Markup(script_json(self.json_ld(person, shown))),
        )
        return self.context.render("person.html", values)

    def item(self, entry: Entry) -> Markup:
        """A record as people's pages list it (partials/person_record.html): made once per record,
        since a record is on the page of each of its authors."""
        context = self.context
        return context.views.fragments.get(
            "person item", entry, lambda e: Markup(context.render("partials/person_record.html", {"record": context.views.record_item(e)}).decode())
        )

    def profile(self, person: PersonRecords) -> dict[str, Any]:
        """The person as their page shows them: a member's file, or what the records say of an author."""
        urls = self.context.urls
        member = person.member
        values = {
            **self.summary(person),
            "coauthors": person.coauthors,
            "bibtex_url": urls.page(person_path(person.slug, "publications.bib")),
            "feed_url": urls.page(person_path(person.slug, "feed.xml")),
            "bio": Markup(""),
            "links": [],
            "photo_url": None,
            "orcid": None,
            "anchors": [],
            "variants": [],
        }
        if member is None:
            return values
        from sitegen.markup import render_markdown

        links = []
        if member.email:
            links.append(self.context.views.email_link(member.email))
        written = dict(member.links)
        if member.orcid and "orcid" not in written:
            written["orcid"] = member.orcid
        for kind, value in written.items():
            label = profile_link_label(kind)
            links.append({"kind": kind, "label": label, "url": urls.link(profile_link_url(kind, value)), "text": label})
        photo = member.photo if member.photo and member.photo in self.context.static_sources else None
        values.update(
            bio=Markup(render_markdown(member.bio).html),
            links=links,
            photo_url=urls.page(f"static/{quote(photo)}") if photo else None,
            orcid=member.orcid,
            variants=[*member.name_variants, *person.forms],  # the owner's: and the other forms their records write
            anchors=list(member.coauthors),
        )
        return values

    def pointer(self, pointer) -> dict[str, Any]:
        entry = self.entries[pointer.position]
        people = self.directory.people
        to = people.get(pointer.slug) if pointer.slug else None
        return {
            "anchor": f"r-{entry.slug}",
            "title": Markup(entry.title.html),
            "title_label": title_label(entry.title),
            "url": self.context.urls.page(record_path(entry.slug)),
            "year": entry.record.year,
            "to": {"name": to.name, "url": self.context.urls.page(person_path(to.slug)), "count": len(to.positions), "subjects": to.subjects[:3]}
            if to
            else None,
            "reason": pointer.reason,
        }

    def json_ld(self, person: PersonRecords, shown: dict[str, Any]) -> dict[str, Any]:
        from sitegen.model import Profile

        urls = self.context.urls
        member = person.member
        profile = Profile(
            name=person.name,
            position=member.position if member else "",
            affiliation=member.affiliation if member else "",
            email=member.email if member else None,
        )
        photo = urls.origin + shown["photo_url"] if shown["photo_url"] and urls.origin else None
        same_as = [
            urls.absolute_link(link["url"]) if not link["url"].startswith("/") else urls.origin + link["url"]
            for link in shown["links"]
            if link["kind"] != "email"
        ]
        url = urls.absolute(person_path(person.slug))
        return profile_page(person_json_ld(profile, url, photo, same_as, not self.context.views.settings.protect_email), url)

    def bibtex(self, person: PersonRecords) -> bytes:
        bibtex, entries = self.context.views.bibtex, self.entries
        return "\n".join(bibtex(entries[position]) for position in person.positions).encode()

    def feed(self, person: PersonRecords) -> bytes:
        """The person's Atom feed, in the form of the site's (sitegen.exports.feed), each record's entry made once.

        Its entries have no summary and no author list (the person is the feed's author): a
        directory has tens of thousands of these feeds, each record in several, and the
        abstract and authors are one link away (the site's own feed carries them).
        """
        urls = self.context.urls
        entries = [self.entries[p] for p in person.positions[:FEED_SIZE]]
        page, feed = urls.absolute(person_path(person.slug)), urls.absolute(person_path(person.slug, "feed.xml"))
        name = _xml(person.name)
        head = (
            f"<?xml version='1.0' encoding='utf-8'?>\n<feed xmlns=\"{ATOM}\" xml:lang=\"{_xml(self.context.site.config.language)}\">\n"
            f"  <id>{_xml(urls.permanent(page))}</id>\n  <title>{_xml(feed_title(self.context, person.name, 'publications'))}</title>\n"
            f"  <updated>{max((feed_timestamp(e) for e in entries), default='1970-01-01T00:00:00Z')}</updated>\n"
            f'  <link rel="self" type="application/atom+xml" href="{_xml(feed)}" />\n'
            f'  <link rel="alternate" type="text/html" href="{_xml(page)}" />\n'
            f"  <author>\n    <name>{name}</name>\n  </author>\n  <generator>sitegen</generator>\n"
        )
        return head.encode() + b"".join(self.feed_entry(entry) for entry in entries) + b"</feed>\n"

    def feed_entry(self, entry: Entry) -> bytes:
        """One record's <entry>, for every person's feed it is in. Its elements are written without a
        namespace: they stand inside the feed's <feed xmlns="...Atom">, whose default namespace they take
        (an ElementTree name in the Atom namespace would be written with a prefix in a process that
        never registered one)."""
        return self.context.views.fragments.get("person feed entry", entry, self._feed_entry)

    def _feed_entry(self, entry: Entry) -> bytes:
        element = ET.Element("entry")
        url = self.context.views.record_absolute_url(entry)
        stamp = feed_timestamp(entry)
        for tag, text in (("id", self.context.views.record_feed_id(entry)), ("title", entry.title.plain), ("updated", stamp), ("published", stamp)):
            ET.SubElement(element, tag).text = xml_text(text)
        ET.SubElement(element, "link", rel="alternate", type="text/html", href=url)
        for subject in entry.subjects:
            ET.SubElement(element, "category", term=xml_text(subject.code), label=xml_text(subject.name))
        ET.indent(element, level=1)
        element.tail = "\n"
        return b"  " + ET.tostring(element, encoding="utf-8", xml_declaration=False)


def _xml(text: str) -> str:
    """Text for an XML element or a double-quoted attribute, as ElementTree writes it."""
    return escape(xml_text(text), {'"': "&quot;", "\n": "&#10;"})


# -- author names as links (used by sitegen.views for every record's authors) ----------------------------


def author_links(site: Site, urls: SiteUrls) -> Callable[[Entry, str], str | None] | None:
    """A function (record, author name) -> the URL of that author's people page, or None; None when the site has no people.

    The URL is the page of the name (`home_slug`) at the record's anchor: it depends on the
    record and the people files only, never on other records (see sitegen.people.attribution).
    """
    _, links = site_people(site)
    authors_mode = people_setting(site.config.extra) == "authors"
    if not authors_mode and not links.names:
        return None
    homes: dict[str, str] = {}

    def url(entry: Entry, name: str) -> str | None:
        key = person_key(name)
        if not key:
            return None
        anchor = f"#r-{entry.slug}"
        if links.ids and "author_ids" in entry.record.extra:
            for identifier in record_author_ids(entry).get(key, ()):
                if identifier in links.ids:
                    return urls.page(person_path(links.ids[identifier])) + anchor
        member = links.names.get(key)
        if member is not None and not authors_mode and excluded_by(entry, member, links):
            return None
        if member is None and not authors_mode:
            return None
        slug = homes.get(key)
        if slug is None:
            slug = homes[key] = home_slug(key, links)
        return urls.page(person_path(slug)) + anchor

    return url
