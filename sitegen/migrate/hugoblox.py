"""Hugo Blox (Wowchemy, Hugo Academic): the owner from `content/authors/admin/_index.md`; the
publications of `content/publication/` (sitegen reads their `index.md` as it is, `admin` included);
the talks of `content/event/` (`content/talk/` before).
"""

from __future__ import annotations

import datetime
import re
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from sitegen.migrate import FRONT_MATTER, Imported, OldSite, a_list, a_mapping, a_string, iso_date, markdown_text, plain_text, register_tool, yaml_document
from sitegen.migrate.resume import PUBLICATIONS, entry

LINK_HOSTS = {  # a social link's host -> profile.yaml's kind
    "orcid.org": "orcid",
    "scholar.google.com": "google_scholar",
    "github.com": "github",
    "gitlab.com": "gitlab",
    "www.linkedin.com": "linkedin",
    "linkedin.com": "linkedin",
    "bsky.app": "bluesky",
    "dblp.org": "dblp",
    "arxiv.org": "arxiv",
    "twitter.com": "x",
    "x.com": "x",
}
BASE_URL_TOML = re.compile(r"^\s*baseurl\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE | re.MULTILINE)
AUTHOR_FOLDERS = ("content/authors", "content/author")  # the second: Hugo Academic's, before 2020
PICTURES = (".jpg", ".jpeg", ".png", ".webp", ".gif", ".svg")
IMAGE_SETTINGS = re.compile(r"^image:[^\n]*\n(?:(?:[ \t]+[^\n]*|[ \t]*)\n)*", re.MULTILINE)  # the key and its indented lines
EVENT_LINKS = {"url_slides": "slides", "url_video": "video", "url_pdf": "pdf", "url_code": "code", "event_url": "website"}


def recognise(old: OldSite) -> bool:
    return old.has("content/publication") or any(old.has(folder) for folder in AUTHOR_FOLDERS)


@register_tool("Hugo Blox", recognise)
def read(old: OldSite) -> Imported:
    imported = Imported("Hugo Blox")
    imported.base_url = _base_url(old)
    _cv(old, imported, _author(old, imported))
    for relative in old.files("content/publication", (".md",)):
        path = PurePosixPath(relative)
        bundle, single = path.name == "index.md", path.parent.name == "publication" and path.name != "_index.md"
        if (bundle or single) and (text := old.read_text(relative)) is not None:
            picture = _featured_picture(old, imported, path) if bundle else None
            imported.files[PurePosixPath("content/records", path.relative_to("content"))] = _with_image(text, picture).encode("utf-8")
            imported.records += 1
    _talks(old, imported)
    if count := len(old.files("content/post", (".md",))):
        imported.left.append(f"content/post/ (blog posts): {count} not brought over; copy their text into content/pages/*.md")
    return imported


def _featured_picture(old: OldSite, imported: Imported, index: PurePosixPath) -> str | None:
    """A page bundle's `featured.*` picture, copied to static/ under the bundle's path; its path in the new site."""
    found = next((p for p in old.files(str(index.parent)) if PurePosixPath(p).stem == "featured" and p.lower().endswith(PICTURES)), None)
    if found is None or (data := old.read_bytes(found)) is None:
        return None
    target = PurePosixPath("static", PurePosixPath(found).relative_to("content"))
    imported.files[target] = data
    return target.as_posix()


def _with_image(text: str, picture: str | None) -> str:
    """The publication file with `image: <picture>` in its front matter, in place of Hugo Blox's `image:` settings."""
    match = FRONT_MATTER.match(text) if picture else None
    if match is None:
        return text
    front = IMAGE_SETTINGS.sub("", match.group(1) + "\n")
    return f"---\n{front}image: {picture}\n---\n{text[match.end() :]}"


def _base_url(old: OldSite) -> str:
    """Hugo's `baseURL`, from the YAML or TOML settings Hugo Blox keeps (config/_default/hugo.yaml, config.toml, ...)."""
    for name in ("config/_default/hugo.yaml", "config/_default/config.yaml", "hugo.yaml", "config.yaml"):
        if url := a_string(old.yaml(name).get("baseURL")):
            break
    else:
        url = next(
            (
                match.group(1)
                for name in ("config/_default/config.toml", "hugo.toml", "config.toml")
                if (match := BASE_URL_TOML.search(old.read_text(name) or ""))
            ),
            "",
        )
    return url.rstrip("/") + "/" if url.startswith(("https://", "http://")) else ""


def _owners_folder(old: OldSite) -> str:
    """The owner's author page: `admin`'s (Hugo Blox's name for the owner), else the first person's ('' when none)."""
    for authors in AUTHOR_FOLDERS:
        if old.has(f"{authors}/admin/_index.md"):
            return f"{authors}/admin"
    pages = [p for authors in AUTHOR_FOLDERS for p in old.files(authors, ("_index.md",)) if PurePosixPath(p).parent.as_posix() not in AUTHOR_FOLDERS]
    return str(PurePosixPath(pages[0]).parent) if pages else ""


def _author(old: OldSite, imported: Imported) -> dict[str, Any]:
    folder = _owners_folder(old)
    if not folder:
        return {}
    front, body = old.front_matter(f"{folder}/_index.md")
    imported.name = plain_text(a_string(front.get("title")))
    imported.position = plain_text(a_string(front.get("role")))
    organizations = [a_string(a_mapping(organization).get("name")) for organization in a_list(front.get("organizations"))]
    imported.affiliation = ", ".join(name for name in organizations if name)
    imported.email = a_string(front.get("email"))
    for social in a_list(front.get("social")):
        link = a_string(a_mapping(social).get("link"))
        if link.startswith("mailto:") and not imported.email:
            imported.email = link.removeprefix("mailto:")
        elif link.startswith(("https://", "http://")):
            imported.links.setdefault(LINK_HOSTS.get(urlsplit(link).hostname or "", "website"), link)
    avatar = next((p for p in old.files(folder) if PurePosixPath(p).stem == "avatar"), None)
    if avatar and (data := old.read_bytes(avatar)) is not None:
        imported.photo = f"avatar{PurePosixPath(avatar).suffix}"
        imported.files[PurePosixPath("static", imported.photo)] = data
    imported.bio = markdown_text(body) or plain_text(a_string(front.get("bio")))
    return front


def _cv(old: OldSite, imported: Imported, author: dict[str, Any]) -> None:
    """The experience widget (`content/home/experience.md`) and the author page's `education.courses`, as CV sections."""
    experience = a_list(old.front_matter("content/home/experience.md")[0].get("experience"))
    positions = [
        entry(a_string(e.get("title")), org=a_string(e.get("company")), location=a_string(e.get("location")), start=iso_date(e.get("date_start")),
              end=iso_date(e.get("date_end")) or ("present" if e.get("date_start") else ""), details=markdown_text(a_string(e.get("description"))))
        for e in map(a_mapping, experience)
    ]  # fmt: skip
    courses = a_list(a_mapping(author.get("education")).get("courses"))
    education = [entry(a_string(c.get("course")), org=a_string(c.get("institution")), date=a_string(c.get("year"))) for c in map(a_mapping, courses)]
    sections = [{"title": title, "entries": [e for e in entries if e]} for title, entries in (("Positions", positions), ("Education", education))]
    if sections := [section for section in sections if section["entries"]]:
        imported.files[PurePosixPath("content/cv.yaml")] = yaml_document({"sections": [*sections, PUBLICATIONS]})


def _talks(old: OldSite, imported: Imported) -> None:
    talks = []
    for relative in old.files("content/event", ("index.md",)) + old.files("content/talk", ("index.md",)):
        front, body = old.front_matter(relative)
        date, title = iso_date(front.get("date")), plain_text(a_string(front.get("title")))
        if not (date and title):
            imported.left.append(f"{relative}: no title or date: not brought over")
            continue
        talk: dict[str, Any] = {"title": title, "date": datetime.date.fromisoformat(date)}
        for key in ("event", "location"):
            if value := plain_text(a_string(front.get(key))):
                talk[key] = value
        links = {kind: a_string(front[key]) for key, kind in EVENT_LINKS.items() if a_string(front.get(key)).startswith(("https://", "http://"))}
        if links:
            talk["links"] = links
        if abstract := a_string(front.get("abstract")) or markdown_text(body) or a_string(front.get("summary")):
            talk["abstract"] = abstract
        talks.append(talk)
    if talks:
        imported.files[PurePosixPath("content/talks/talks.yaml")] = yaml_document(talks)
