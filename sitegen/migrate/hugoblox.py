"""Hugo Blox (Wowchemy, Hugo Academic): the owner from `content/authors/admin/_index.md` (the Hugo Blox Kit's
templates since 2025: `data/authors/me.yaml`); the publications of `content/publication/` (`content/publications/`
since 2025: sitegen reads their `index.md` as it is, `admin` and `me` included); the talks of `content/event/`
(`content/talk/` before, `content/events/` since 2025); the courses of `content/teaching/`.
"""

from __future__ import annotations

import json
import re
from pathlib import PurePosixPath
from typing import Any

from sitegen.homepage.frontmatter import front_matter_end
from sitegen.migrate import (
    PICTURES,
    TEACHING,
    Imported,
    OldSite,
    a_list,
    a_mapping,
    a_string,
    collection_page,
    custom_domain,
    files_moved,
    iso_date,
    list_intro_file,
    markdown_text,
    old_aliases,
    page_text,
    person_links,
    plain_text,
    posts_files,
    projects_files,
    record_file_text,
    register_tool,
    talks_file,
    yaml_document,
)
from sitegen.migrate.links import file_fields, own_file
from sitegen.migrate.resume import PUBLICATIONS, cv_document, entry
from sitegen.urls import slugify

BASE_URL_TOML = re.compile(r"^\s*baseurl\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE | re.MULTILINE)
AUTHOR_FOLDERS = ("content/authors", "content/author")  # the second: Hugo Academic's, before 2020
DATA_AUTHORS = "data/authors"  # the Hugo Blox Kit's templates since 2025: a person's YAML file (me.yaml), no page
# the folders of each kind of page: singular up to 2024, plural in the Hugo Blox Kit's templates since
PUBLICATION_FOLDERS = ("content/publication", "content/publications")
EVENT_FOLDERS = ("content/event", "content/talk", "content/events")
PROJECT_FOLDERS = ("content/project", "content/projects")
# how the sample paragraphs of Hugo Blox's (and Wowchemy's) publication template start, kept by most sites below their
# front matter: no abstract of theirs
TEMPLATE_TEXT = (
    "Click the Cite button above",
    "Create your slides in Markdown",
    "Add the publication's full text or supplementary notes here",
    "Supplementary notes can be added here",
)
# a mark after an author's name: a corresponding author, equal contribution ('Elin Lindqvist*', 'Li Chen^', 'A. B.†')
AUTHOR_MARK = re.compile(r"\s*[*^†‡§]+$")
# an arXiv id YAML reads as a number (`arxiv: 2501.04560`, `id: 2501.04560` of a `provider: arxiv` link), its last 0 lost
ARXIV_NUMBER = re.compile(r"^(?P<key>[ \t]+(?:-[ \t]+)?(?:arxiv|id)[ \t]*:[ \t]*)(?P<id>\d{4}\.\d{4,5})[ \t]*$", re.MULTILINE | re.IGNORECASE)
SEARCH_ENGINES = ("google", "bing", "yandex", "naver", "baidu")  # site.yaml's `verification:` names
EVENT_LINKS = {"url_slides": "slides", "url_video": "video", "url_pdf": "pdf", "url_code": "code", "event_url": "website"}


def recognise(old: OldSite) -> bool:
    return any(old.has(folder) for folder in (*PUBLICATION_FOLDERS, *AUTHOR_FOLDERS)) or bool(_data_authors(old))


@register_tool("Hugo Blox", recognise)
def read(old: OldSite) -> Imported:
    imported = Imported("Hugo Blox")
    imported.base_url = _base_url(old)
    custom_domain(old, imported, "static/CNAME")  # Hugo copies static/ to the site's root
    imported.verification = _verification(old)  # Search Console and Bing keep checking the tag
    owner, owners_file = _owners_folder(old), _owners_data_file(old)
    if owners_file and not owner:  # the Hugo Blox Kit's person file (data/authors/me.yaml)
        _cv(old, imported, _data_author(old, imported, owners_file), owners_file)
    else:
        _cv(old, imported, _author(old, imported, owner), f"{owner}/_index.md")
    members = _members(old, imported, owner) | _data_members(old, owners_file)
    if owners_file and not owner and (slug := _slug(old, owners_file)) not in ("admin", "me") and imported.name:
        members[slug] = imported.name  # `authors: [ingrid]`: the owner, as sitegen knows `me`
    if "cv" not in imported.links and (cv := _cv_button(old, imported)):  # the homepage's 'Download CV' button
        imported.links["cv"] = cv
    publications = [p for folder in PUBLICATION_FOLDERS for p in old.files(folder, (".md",))]
    in_projects: dict[str, list[str]] = {}  # a project's name -> the records that name it
    for relative in publications:
        path = PurePosixPath(relative)
        bundle = path.name == "index.md"
        single = path.parent.as_posix() in PUBLICATION_FOLDERS and path.name != "_index.md"
        if (bundle or single) and (text := old.read_text(relative)) is not None:
            changes = {}
            if bundle and (picture := _featured_picture(old, imported, path)):
                changes["image"] = json.dumps(picture)
            authors = [a_string(name) for name in a_list(old.front_matter(relative)[0].get("authors"))]
            unmarked = [AUTHOR_MARK.sub("", name) or name for name in authors]  # 'Elin Lindqvist*': a corresponding author
            if unmarked != authors:
                marked = ", ".join(name for name in authors if AUTHOR_MARK.search(name))
                imported.left.append(f"{relative}: the marks after authors' names ({marked}) left out of them; say what they meant in the abstract")
            if unmarked != authors or any(name in members for name in authors):  # an author page's folder name stands for its title
                changes["authors"] = json.dumps([members.get(name, name) for name in unmarked], ensure_ascii=False)
            text = ARXIV_NUMBER.sub(r'\g<key>"\g<id>"', text)  # quoted, as sitegen asks
            text = record_file_text(old, imported, relative, text, _hugo_address(relative), TEMPLATE_TEXT)
            text = file_fields(old, imported, relative, _front_matter_with(text, changes), r"url_\w+|url")  # url_pdf: uploads/paper.pdf; links: [{url: ...}]
            imported.files[PurePosixPath("content/records", path.relative_to("content"))] = text.encode("utf-8")
            record_id = path.parent.name if bundle else path.stem  # as sitegen.sources.markdown_records names it
            for project in a_list(old.front_matter(relative)[0].get("projects")):  # the projects it belongs to, by their names
                in_projects.setdefault(a_string(project).strip(), []).append(record_id)
            for address in [_hugo_address(relative), *old_aliases(old.front_matter(relative)[0])]:  # Hugo's `aliases:` too
                imported.redirects[address] = f"records/{slugify(record_id)}/"
            imported.records += 1
    events = [p for folder in EVENT_FOLDERS for p in old.files(folder, ("index.md",)) if not p.endswith("/_index.md")]
    owners = ("admin", "me", *([PurePosixPath(owner).name] if owner else []), *([_slug(old, owners_file)] if owners_file else []))
    talks_file(old, imported, events, "event", EVENT_LINKS, _hugo_address, owners)
    posts = [p for folder in ("content/post", "content/blog") for p in old.files(folder, (".md",)) if not p.endswith("/_index.md")]
    posts_files(old, imported, posts, _hugo_address, tuple({f"{PurePosixPath(post).parts[1]}/": None for post in posts}))  # its lists: post/, blog/
    projects = [p for folder in PROJECT_FOLDERS for p in old.files(folder, ("index.md",)) if not p.endswith("/_index.md")]  # not the list
    projects_files(old, imported, projects, _hugo_address, in_projects)
    for folder, kind in (*((folder, "posts") for folder in ("content/post", "content/blog")), *((folder, "projects") for folder in PROJECT_FOLDERS)):
        list_intro_file(old, imported, f"{folder}/_index.md", kind, f"/{PurePosixPath(folder).name}/")  # the list's own title and text
    courses = [p for p in old.files("content/teaching", (".md",)) if _course(p)]
    intro = page_text(old, imported, "content/teaching/_index.md", old.front_matter("content/teaching/_index.md")[1], "/teaching/")
    collection_page(old, imported, courses, TEACHING, _hugo_address, intro)  # its courses, as academicpages' come over
    for folder in PUBLICATION_FOLDERS:
        if old.has(folder):
            imported.redirects[f"{PurePosixPath(folder).name}/"] = "#publications"  # its list of publications: the profile's here
    if owner:  # the owner's author page (/author/admin/), which each publication and talk linked: the profile here
        imported.redirects[f"author/{slugify(PurePosixPath(owner).name)}/"] = "./"
    elif owners_file:  # the Hugo Blox Kit's (its taxonomy's address: /authors/me/)
        imported.redirects[f"authors/{slugify(_slug(old, owners_file))}/"] = "./"
    for folder, made, new in (
        ("event", "content/talks/talks.yaml", "talks/"),
        ("talk", "content/talks/talks.yaml", "talks/"),
        ("events", "content/talks/talks.yaml", "talks/"),
        ("project", "content/projects/", "projects/"),
    ):
        if old.has(f"content/{folder}") and any(path.as_posix().startswith(made) for path in imported.files):  # its lists of talks and projects
            imported.redirects[f"{folder}/"] = new
    if old.has("content/experience.md") and PurePosixPath("content/cv.yaml") in imported.files:  # the Hugo Blox Kit's CV page
        imported.redirects["experience/"] = "cv/"
    _pages_left(old, imported)
    files_moved(old, imported, "static/", "static/")  # /uploads/resume.pdf: /static/uploads/resume.pdf now
    return imported


# content/'s folders whose pages come over (or, authors/, are the people): their other files are their lists
READ_FOLDERS = ("publication", "publications", "post", "blog", "event", "events", "talk", "project", "projects", "teaching", "authors", "author", "home")


# the blocks of a landing page that hold text of their own (`cta-card`: a call to action, with a button)
TEXT_BLOCKS = ("markdown", "text", "cta-card")


def _pages_left(old: OldSite, imported: Imported) -> None:
    """A note for each text of the old site that does not come over: a page of content/ outside the folders read
    (content/teaching/_index.md), a homepage section of Hugo Academic with text or items (content/home/*.md: a
    `blank` widget, `accomplishments`, `skills`) and the `markdown` blocks of Hugo Blox's homepage (content/_index.md)."""
    for relative in old.files("content", (".md",)):
        parts = PurePosixPath(relative).parts
        front, body = old.front_matter(relative)
        if parts[-1] == "_index.md" and a_list(front.get("sections")):  # a landing page: the homepage, content/teaching/
            which = "the homepage's" if relative == "content/_index.md" else "a"
            for block in map(a_mapping, a_list(front.get("sections"))):
                content = a_mapping(block.get("content"))
                if (kind := a_string(block.get("block"))) in TEXT_BLOCKS and markdown_text(a_string(content.get("text"))):
                    title = plain_text(a_string(content.get("title"))) or "untitled"
                    imported.left.append(f"{relative}: {which} {kind} block ({title}) not brought over; copy its text into the bio or content/pages/*.md")
        elif parts[1] == "home" and parts[-1] != "experience.md" and (markdown_text(body) or a_list(front.get("item")) or a_list(front.get("feature"))):
            title = plain_text(a_string(front.get("title"))) or PurePosixPath(relative).stem
            imported.left.append(f"{relative}: a section of the homepage ({title}) not brought over; copy its text into the bio or content/pages/*.md")
        elif parts[1] not in READ_FOLDERS and markdown_text(body):
            imported.left.append(f"{relative}: a page not brought over; copy its text into content/pages/*.md")


def _course(relative: str) -> bool:
    """Whether a file of content/teaching/ is a course's page: a bundle's `index.md` or a single file beside the
    list's `_index.md` (not the list, nor another file of a bundle)."""
    path = PurePosixPath(relative)
    return path.name == "index.md" or (path.parent.as_posix() == "content/teaching" and path.name != "_index.md")


def _hugo_address(relative: str, front: dict[str, Any] | None = None) -> str:
    """Where Hugo put a page of content/ ('content/post/welcome/index.md' -> 'post/welcome/'): an `OldAddress`."""
    path = PurePosixPath(relative).relative_to("content")
    return f"{(path.parent if path.name == 'index.md' else path.with_suffix('')).as_posix()}/"


def _featured_picture(old: OldSite, imported: Imported, index: PurePosixPath) -> str | None:
    """A page bundle's `featured.*` picture, copied to static/ under the bundle's path; its path in the new site."""
    found = old.featured(str(index.parent))
    if found is None or (data := old.read_bytes(found)) is None:
        return None
    target = PurePosixPath("static", PurePosixPath(found).relative_to("content"))
    imported.files[target] = data
    return target.as_posix()


def _front_matter_with(text: str, values: dict[str, str]) -> str:
    """The file with each of `values` (key -> YAML text) in its front matter, in place of what the key held."""
    lines = text.split("\n")
    end = front_matter_end(lines) if values and lines[0].strip() == "---" else None
    if end is None:
        return text
    front = "".join(f"{line}\n" for line in lines[1:end])
    for key in values:
        front = re.sub(rf"^{key}:[^\n]*\n(?:(?:[ \t]+[^\n]*|[ \t]*|-[^\n]*)\n)*", "", front, flags=re.MULTILINE)  # the key and its lines
    added = "".join(f"{key}: {value}\n" for key, value in values.items())
    return "---\n" + front + added + "\n".join(lines[end:])


def _members(old: OldSite, imported: Imported, owner: str) -> dict[str, str]:
    """The other people's author pages: folder name -> name. On a group's site (its pages name `user_groups`,
    Hugo Blox's people widget) each becomes a person file of content/people/."""
    members = {}
    for page in (p for folder in AUTHOR_FOLDERS for p in old.files(folder, ("_index.md",))):
        folder = PurePosixPath(page).parent
        if folder.as_posix() in (owner, *AUTHOR_FOLDERS):
            continue
        front = old.front_matter(page)[0]
        if name := plain_text(a_string(front.get("title")) or a_string(front.get("name"))):
            members[folder.name] = name
            if front.get("user_groups"):
                imported.files[PurePosixPath("content/people", f"{slugify(folder.name)}.yaml")] = yaml_document(_person(old, imported, folder))
    return members


def _person(old: OldSite, imported: Imported, folder: PurePosixPath) -> dict[str, Any]:
    """A member's author page as a person file (content/people/), the avatar copied to static/people/."""
    values, avatar, _ = _page_values(old, imported, folder.as_posix())
    person = {key: value for key, value in values.items() if value}
    if avatar is not None:
        person["photo"] = f"people/{slugify(folder.name)}{avatar[0]}"
        imported.files[PurePosixPath("static", person["photo"])] = avatar[1]
    return person


def _verification(old: OldSite) -> dict[str, str]:
    """The search engines' codes of params.yaml: `hugoblox: verification: google: CODE` (the Hugo Blox Kit's),
    `marketing: verification:` before."""
    for name in ("config/_default/params.yaml", "params.yaml"):
        params = old.yaml(name)
        codes = a_mapping(a_mapping(params.get("hugoblox")).get("verification")) or a_mapping(a_mapping(params.get("marketing")).get("verification"))
        if found := {engine: code for engine in SEARCH_ENGINES if (code := a_string(codes.get(engine)))}:
            return found
    return {}


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
    """The owner's author page: `admin`'s (Hugo Blox's name for the owner; `me` since 2025), else the first person's
    ('' when none)."""
    for name in ("admin", "me"):
        for authors in AUTHOR_FOLDERS:
            if old.has(f"{authors}/{name}/_index.md"):
                return f"{authors}/{name}"
    pages = [p for authors in AUTHOR_FOLDERS for p in old.files(authors, ("_index.md",)) if PurePosixPath(p).parent.as_posix() not in AUTHOR_FOLDERS]
    return str(PurePosixPath(pages[0]).parent) if pages else ""


def _cv_button(old: OldSite, imported: Imported) -> str:
    """The file of the old site the homepage's biography block's button links (`block: resume-biography-3`,
    `button: {text: Download CV, url: uploads/resume.pdf}`), copied to static/ ('' when none)."""
    for block in map(a_mapping, a_list(old.front_matter("content/_index.md")[0].get("sections"))):
        if a_string(block.get("block")).startswith("resume-biography"):
            url = a_string(a_mapping(a_mapping(block.get("content")).get("button")).get("url"))
            if url and (copied := own_file(old, imported, url, "content/_index.md")):
                return copied
    return ""


def _data_authors(old: OldSite) -> list[str]:
    """The Hugo Blox Kit's person files (data/authors/*.yaml)."""
    return old.files(DATA_AUTHORS, (".yaml", ".yml"))


def _owners_data_file(old: OldSite) -> str:
    """The owner's person file of data/authors/: the one with `is_owner: true`, else `me.yaml`, else the first
    ('' when none)."""
    files = _data_authors(old)
    owner = next((f for f in files if old.yaml(f).get("is_owner") is True), None)
    return owner or next((f for f in files if PurePosixPath(f).stem == "me"), files[0] if files else "")


def _slug(old: OldSite, relative: str) -> str:
    """The name a person file stands for in a page's `authors:` list: its `slug`, else its file name."""
    return a_string(old.yaml(relative).get("slug")) or PurePosixPath(relative).stem


def _data_name(person: dict[str, Any]) -> str:
    """A person file's name: `given` and `family` (without the display name's 'Dr.' and the like, so that it is
    the name the publications give), else `display`; a plain string before."""
    name = person.get("name")
    if isinstance(name, dict):
        given, family = plain_text(a_string(name.get("given"))), plain_text(a_string(name.get("family")))
        return f"{given} {family}" if given and family else plain_text(a_string(name.get("display")))
    return plain_text(a_string(name))


def _data_members(old: OldSite, owners_file: str) -> dict[str, str]:
    """The other person files of data/authors/: slug -> name (a publication's `authors:` names them by slug)."""
    members = {}
    for relative in _data_authors(old):
        if relative != owners_file and (name := _data_name(old.yaml(relative))):
            members[_slug(old, relative)] = name
    return members


def _data_author(old: OldSite, imported: Imported, relative: str) -> dict[str, Any]:
    """The owner's person file (data/authors/me.yaml) into the profile; its data (the CV reads its lists). Its avatar
    is assets/media/authors/SLUG.* (or `avatar:`, a file of assets/media/ or static/)."""
    person = old.yaml(relative)
    imported.name = _data_name(person)
    imported.position = plain_text(a_string(person.get("role")))
    organizations = [plain_text(a_string(a_mapping(o).get("name"))) for o in a_list(person.get("affiliations") or person.get("organizations"))]
    imported.affiliation = ", ".join(name for name in organizations if name)
    imported.email, imported.links = person_links(old, imported, a_list(person.get("links")) + a_list(person.get("profiles")), relative)
    imported.email = imported.email or a_string(person.get("email"))
    imported.bio = page_text(old, imported, relative, a_string(person.get("bio")), "/")
    slug = _slug(old, relative)
    named = a_string(person.get("avatar"))
    candidates = [f"assets/media/{named}", f"static/{named}"] if named else []
    candidates += [p for p in old.files("assets/media/authors") if PurePosixPath(p).stem == slug and p.lower().endswith(PICTURES)]
    for candidate in candidates:
        if (data := old.read_bytes(candidate)) is not None:
            imported.photo = f"avatar{PurePosixPath(candidate).suffix}"
            imported.files[PurePosixPath("static", imported.photo)] = data
            break
    return person


def _author(old: OldSite, imported: Imported, folder: str) -> dict[str, Any]:
    """The owner's author page into the profile; its front matter (the CV reads its education)."""
    if not folder:
        return {}
    values, avatar, front = _page_values(old, imported, folder)
    imported.name, imported.position, imported.affiliation = values["name"], values["position"], values["affiliation"]
    imported.email, imported.links, imported.bio = values["email"], values["links"], values["bio"]
    if avatar is not None:
        imported.photo = f"avatar{avatar[0]}"
        imported.files[PurePosixPath("static", imported.photo)] = avatar[1]
    return front


def _page_values(old: OldSite, imported: Imported, folder: str) -> tuple[dict[str, Any], tuple[str, bytes] | None, dict[str, Any]]:
    """What an author page says of its person, in profile.yaml's fields; its avatar (suffix, bytes); its front matter."""
    front, body = old.front_matter(f"{folder}/_index.md")
    # `organizations` (`affiliations` in the Hugo Blox Kit's schema, which an author page may follow too)
    organizations = [a_string(a_mapping(organization).get("name")) for organization in a_list(front.get("organizations") or front.get("affiliations"))]
    # `social:` (`link:`) before 2024, `profiles:` (`url:`, `icon: academicons/cv`) since, the Kit's `links:`
    items = a_list(front.get("social")) + a_list(front.get("profiles")) + a_list(front.get("links"))
    email, links = person_links(old, imported, items, f"{folder}/_index.md")
    email = a_string(front.get("email")) or email
    values = {
        # `name`: Hugo Academic's, before 2020 (the Kit's: `name: {given: ..., family: ...}`)
        "name": plain_text(a_string(front.get("title"))) or _data_name(front),
        "position": plain_text(a_string(front.get("role"))),
        "affiliation": ", ".join(name for name in organizations if name),
        "email": email,
        "links": links,
        "bio": page_text(old, imported, f"{folder}/_index.md", body, "/") or plain_text(a_string(front.get("bio"))),
    }
    kit_avatars = [p for p in old.files("assets/media/authors") if PurePosixPath(p).stem == PurePosixPath(folder).name]  # the Kit's
    avatar = next((p for p in old.files(folder) + kit_avatars if PurePosixPath(p).stem in ("avatar", PurePosixPath(folder).name)), None)
    data = old.read_bytes(avatar) if avatar else None
    return values, (PurePosixPath(avatar).suffix, data) if avatar and data is not None else None, front


def _cv(old: OldSite, imported: Imported, author: dict[str, Any], relative: str) -> None:
    """The experience widget (`content/home/experience.md`) and the author page's `education.courses`, or (Hugo Blox
    since 2024) its `work:`, `education:` and `awards:` lists (the person file's `experience:`, `education:` and
    `awards:` since 2025), as CV sections; a note for its skills and languages."""
    experience = a_list(old.front_matter("content/home/experience.md")[0].get("experience"))
    positions = [
        entry(a_string(e.get("title")), org=a_string(e.get("company")), location=a_string(e.get("location")), start=iso_date(e.get("date_start")),
              end=iso_date(e.get("date_end")) or ("present" if e.get("date_start") else ""), details=markdown_text(a_string(e.get("description"))))
        for e in map(a_mapping, experience)
    ]  # fmt: skip
    positions += [  # the author page's `work:` (Hugo Blox since 2024)
        entry(a_string(w.get("position")), org=a_string(w.get("company_name")), start=iso_date(w.get("date_start")),
              end=iso_date(w.get("date_end")) or ("present" if w.get("date_start") else ""), details=markdown_text(a_string(w.get("summary"))),
              url=a_string(w.get("company_url")))
        for w in map(a_mapping, a_list(author.get("work")))
    ]  # fmt: skip
    positions += [  # the person file's `experience:` (the Hugo Blox Kit since 2025)
        entry(a_string(w.get("role")), org=a_string(w.get("org")), start=iso_date(w.get("start")),
              end=iso_date(w.get("end")) or ("present" if w.get("start") else ""), details=markdown_text(a_string(w.get("summary"))),
              url=a_string(w.get("org_url")))
        for w in map(a_mapping, a_list(author.get("experience")))
    ]  # fmt: skip
    courses = a_list(a_mapping(author.get("education")).get("courses"))
    education = [entry(a_string(c.get("course")), org=a_string(c.get("institution")), date=a_string(c.get("year"))) for c in map(a_mapping, courses)]
    education += [  # `education:` as a list (Hugo Blox since 2024)
        entry(
            a_string(e.get("area") or e.get("degree")),
            org=a_string(e.get("institution")),
            start=iso_date(e.get("date_start") or e.get("start")),
            end=iso_date(e.get("date_end") or e.get("end")),
            details=markdown_text(a_string(e.get("summary"))),
        )
        for e in map(a_mapping, a_list(author.get("education")))
    ]  # fmt: skip  (`degree`, `start`, `end`: the Hugo Blox Kit's since 2025)
    awards = [
        entry(a_string(a.get("title")), org=a_string(a.get("awarder")), date=iso_date(a.get("date")) or a_string(a.get("date")),
              details=markdown_text(a_string(a.get("summary"))), url=a_string(a.get("url")))
        for a in map(a_mapping, a_list(author.get("awards")))
    ]  # fmt: skip
    if left := [name for name in ("interests", "skills", "languages") if a_list(author.get(name))]:
        imported.left.append(f"{relative}: {', '.join(left)} not brought over into content/cv.yaml; add them to it or to the bio by hand")
    cv = cv_document([("Positions", positions), ("Education", education), ("Awards", awards)])
    if cv["sections"] != [PUBLICATIONS]:  # not a CV of publications alone: Hugo Blox kept none
        imported.files[PurePosixPath("content/cv.yaml")] = yaml_document(cv)
