"""academicpages (Jekyll): the owner from `_config.yml`'s `author:` and `_pages/about.md`; the
publications of `_publications/` (sitegen reads their Markdown as it is); the talks of `_talks/`;
the files of `files/`.

A publication's `paperurl: 'https://owner.github.io/files/paper.pdf'` names the old site's own
address: the file goes to the new site's `static/files/` and the record names it there, so that
the link keeps working when the old site is gone.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from sitegen.migrate import (
    TEACHING,
    Imported,
    OldAddress,
    OldSite,
    a_mapping,
    a_string,
    collection_page,
    custom_domain,
    files_moved,
    jekyll_address,
    jekyll_analytics,
    jekyll_collection_permalink,
    jekyll_drafts,
    jekyll_permalink,
    jekyll_verification,
    old_aliases,
    page_text,
    pages_left,
    posts_files,
    profile_links,
    projects_files,
    record_file_text,
    register_tool,
    talks_file,
    yaml_document,
)
from sitegen.migrate.links import file_fields
from sitegen.migrate.resume import PUBLICATIONS, json_resume_cv
from sitegen.urls import file_slug, slugify

# academicpages' author fields -> profile.yaml's links (a bare name becomes the service's address)
AUTHOR_LINKS = {
    "orcid": ("orcid", "{}"),
    "googlescholar": ("google_scholar", "{}"),
    "github": ("github", "{}"),
    "linkedin": ("linkedin", "{}"),
    "bluesky": ("bluesky", "{}"),
    "mastodon": ("mastodon", "{}"),
    "arxiv": ("arxiv", "{}"),
    "researchgate": ("researchgate", "https://www.researchgate.net/profile/{}"),
    "twitter": ("x", "https://x.com/{}"),
    "semantic": ("semantic_scholar", "{}"),
    "uri": ("website", "{}"),
}
AUTHOR_FACTS = frozenset({"avatar", "name", "pronouns", "bio", "location", "employer", "email"})  # the author's, not links
FILE_FIELDS = r"paperurl|slidesurl|bibtexurl|pdf"  # a publication's fields that may name a file of the site ('/files/paper.pdf')
TALK_LINKS = {"slidesurl": "slides", "talk_url": "website", "talkurl": "website", "videourl": "video"}


def recognise(old: OldSite) -> bool:
    return old.has("_config.yml") and old.has("_publications")


@register_tool("academicpages", recognise)
def read(old: OldSite) -> Imported:
    config = old.yaml("_config.yml")
    author = a_mapping(config.get("author"))
    imported = Imported("academicpages")
    imported.name = a_string(author.get("name")) or a_string(config.get("name"))
    imported.position = a_string(author.get("bio"))
    imported.affiliation = a_string(author.get("employer"))
    imported.email = a_string(author.get("email"))
    imported.links = profile_links(author, AUTHOR_LINKS)
    for key, value in author.items():  # its links to other sites (pubmed, kaggle, ...): under their own name
        if str(key) in AUTHOR_LINKS or str(key) in AUTHOR_FACTS or not (value := a_string(value)):
            continue
        if value.startswith(("https://", "http://")) and re.fullmatch(r"[a-z][a-z0-9_]*", str(key)):
            imported.links.setdefault(str(key), value)
        else:
            imported.left.append(f"_config.yml: author.{key} ({value}) not brought over: add its full address to links: in content/profile.yaml")
    old_address = jekyll_address(config)
    imported.base_url = f"{old_address}/" if old_address else ""
    custom_domain(old, imported)
    jekyll_analytics(config, imported)
    jekyll_drafts(old, imported)
    imported.verification = jekyll_verification(config)  # Search Console and Bing keep checking the tag
    avatar = a_string(author.get("avatar"))
    if avatar and (data := old.read_bytes(f"images/{avatar}")) is not None:
        imported.photo = PurePosixPath(avatar).name
        imported.files[PurePosixPath("static", imported.photo)] = data
    elif avatar:
        imported.left.append(
            f"_config.yml: author.avatar names images/{avatar}, no file of the old site: no photo brought over; "
            "put yours in static/ and name it as `photo:` in content/profile.yaml"
        )
    imported.bio = page_text(old, imported, "_pages/about.md", old.front_matter("_pages/about.md")[1], "/")
    _publications(old, imported, old_address, jekyll_collection_permalink(config, "publications"))
    # its pages name their address (`permalink: /talks/2012-03-01-talk-1`), else their collection's does
    talks_file(old, imported, old.files("_talks", (".md", ".markdown")), "venue", TALK_LINKS, jekyll_collection_permalink(config, "talks"))
    if isinstance(resume := old.json("_data/cv.json"), dict):  # the JSON Resume of its cv-json page
        cv, notes = json_resume_cv(resume, "_data/cv.json")
        # its CV page lists every publication (academicpages marks none as selected)
        cv["sections"] = [{**section, "publications": "all"} if section == PUBLICATIONS else section for section in cv["sections"]]
        imported.files[PurePosixPath("content/cv.yaml")] = yaml_document(cv)
        imported.left += notes
    collection_page(old, imported, old.files("_teaching", (".md", ".markdown")), TEACHING, jekyll_collection_permalink(config, "teaching"))
    if portfolio := old.files("_portfolio", (".md", ".markdown")):  # its projects, datasets and software: projects here
        projects_files(old, imported, portfolio, jekyll_collection_permalink(config, "portfolio"))
        imported.redirects["portfolio/"] = "projects/"  # its list of them
    posts = old.files("_posts", (".md", ".markdown"))
    posts_files(old, imported, posts, jekyll_permalink(a_string(config.get("permalink"))), ("year-archive/",))  # its blog, once a post came
    imported.redirects["publications/"] = "#publications"  # its list of publications: the profile's here
    for address in old_aliases(old.front_matter("_pages/about.md")[0]):  # /about/, /about.html: the bio is the profile's now
        imported.redirects[address] = "./"
    if PurePosixPath("content/cv.yaml") in imported.files:  # its CV page's other addresses (/resume) lead to the CV
        imported.redirects |= dict.fromkeys(old_aliases(old.front_matter("_pages/cv.md")[0]), "cv/")
    pages_left(old, imported)  # its Markdown CV (_pages/cv.md) among them
    files_moved(old, imported, "files/", "")  # /files/cv.pdf: /static/files/cv.pdf now
    return imported


def _in_static(text: str, old_address: str) -> str:
    """The old site's own files (`https://owner.github.io/files/x.pdf`) named where the new site keeps them."""
    return text.replace(f"{old_address}/files/", "static/files/") if old_address else text


def _publications(old: OldSite, imported: Imported, old_address: str, page_address: OldAddress) -> None:
    for relative in old.files("files"):
        if (data := old.read_bytes(relative)) is not None:
            imported.files[PurePosixPath("static", relative)] = data
    unnamed = 0
    for relative in old.files("_publications", (".md", ".markdown")):
        text = old.read_text(relative)
        if text is None:
            continue
        front = old.front_matter(relative)[0]
        text = record_file_text(old, imported, relative, text, a_string(front.get("permalink")) or "/", stand_in=a_string(front.get("excerpt")))
        text = file_fields(old, imported, relative, _in_static(text, old_address), FILE_FIELDS)
        name = PurePosixPath(relative)
        # a name with accents ('2019-über-cafés.md') as Jekyll and Hugo make an address of it: the record's id
        readable = PurePosixPath(relative).with_stem(stem) if (stem := file_slug(name.stem)) else name
        target = PurePosixPath("content/records/publications", readable.name)
        if target in imported.files:
            target = PurePosixPath("content/records/publications", name.name)
        imported.files[target] = text.encode("utf-8")
        for address in [page_address(relative, front), *old_aliases(front)]:
            if address:
                imported.redirects[address] = f"records/{slugify(target.stem)}/"
        imported.records += 1
        unnamed += "authors" not in front
    if unnamed:
        imported.left.append(
            f"content/records/publications/: {unnamed} name no authors (academicpages keeps them in `citation`); add `authors: [...]` to show them"
        )
