"""al-folio (Jekyll): the owner from `_config.yml`, `_data/socials.yml` and `_pages/about.md`; the
publications as its BibTeX files, their PDFs and preview pictures; the news of `_news/`.

al-folio links a bare file name in a `.bib` entry's `pdf`, `supp`, `poster` and `slides` to
`assets/pdf/`, and in `preview` to `assets/img/publication_preview/`: those files go to the new
site's `static/pdf/` and `static/publication_preview/`, and the entries name them so.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from sitegen.migrate import (
    TEACHING,
    Imported,
    OldSite,
    a_mapping,
    a_string,
    collection_page,
    custom_domain,
    giscus_comments,
    iso_date,
    jekyll_address,
    jekyll_analytics,
    jekyll_drafts,
    jekyll_permalink,
    jekyll_verification,
    list_intro_file,
    news_file,
    page_text,
    pages_left,
    plain_text,
    posts_files,
    profile_links,
    projects_files,
    register_tool,
    yaml_document,
)
from sitegen.migrate.resume import alfolio_cv, json_resume_cv

# al-folio's socials (`_data/socials.yml`; `_config.yml` before version 0.13) -> profile.yaml's links
SOCIALS = {
    "orcid_id": ("orcid", "{}"),
    "scholar_userid": ("google_scholar", "{}"),
    "github_username": ("github", "{}"),
    "gitlab_username": ("gitlab", "{}"),
    "linkedin_username": ("linkedin", "{}"),
    "dblp_url": ("dblp", "{}"),
    "bluesky_url": ("bluesky", "{}"),
    "mastodon_username": ("mastodon", "https://{}"),
    "x_username": ("x", "https://x.com/{}"),
    "twitter_username": ("x", "https://x.com/{}"),
    "research_gate_profile": ("researchgate", "https://www.researchgate.net/profile/{}"),
    "semanticscholar_id": ("semantic_scholar", "https://www.semanticscholar.org/author/{}"),
    "inspirehep_id": ("inspire", "https://inspirehep.net/authors/{}"),
    "work_url": ("website", "{}"),
}
PDF_FOLDER, PREVIEW_FOLDER = "assets/pdf", "assets/img/publication_preview"
FILE_FIELD = re.compile(r"(?<![A-Za-z_])(pdf|supp|poster|slides|preview)(\s*=\s*)([{\"])([^{}\"\n]*)([}\"])", re.IGNORECASE)


def recognise(old: OldSite) -> bool:
    return old.has("_config.yml") and (old.has("_bibliography") or "scholar" in old.yaml("_config.yml"))


@register_tool("al-folio", recognise)
def read(old: OldSite) -> Imported:
    config = old.yaml("_config.yml")
    socials = old.yaml("_data/socials.yml") or config
    imported = Imported("al-folio")
    imported.name = " ".join(a_string(config.get(key)) for key in ("first_name", "middle_name", "last_name") if a_string(config.get(key)))
    imported.name_variants = _scholar_names(config.get("scholar"), imported.name)
    email = a_string(socials.get("email"))  # al-folio's sample: 'you[at]example.org *replace [at] with @*'
    imported.email = email.split()[0].replace("[at]", "@").replace("[dot]", ".") if email else ""
    imported.links = profile_links(socials, SOCIALS)
    imported.base_url = f"{address}/" if (address := jekyll_address(config)) else ""
    custom_domain(old, imported)
    jekyll_analytics(config, imported)
    jekyll_drafts(old, imported)
    imported.verification = jekyll_verification(config)  # Search Console and Bing keep checking the tag
    _about(old, imported)
    _publications(old, imported)
    _news(old, imported)
    collection_page(old, imported, old.files("_teachings", (".md", ".markdown")), TEACHING, jekyll_permalink(""))
    projects_files(old, imported, old.files("_projects", (".md", ".markdown")), jekyll_permalink("/projects/:title/"))  # /projects/:path/
    list_intro_file(old, imported, "_pages/projects.md", "projects", "/projects/", with_text=False)  # its title and description line
    posts = old.files("_posts", (".md", ".markdown"))
    giscus_comments(a_mapping(config.get("giscus")), "_config.yml", imported)
    old_address = jekyll_permalink(a_string(config.get("permalink")) or "/blog/:year/:title/")  # al-folio's own setting
    posts_files(old, imported, posts, old_address, ("blog/",), comments_flag="giscus_comments")
    imported.redirects["publications/"] = "#publications"  # its publications page: the profile's list here
    _cv(old, imported)
    _left(old, imported)
    return imported


def _scholar_names(scholar: object, name: str) -> tuple[str, ...]:
    """`scholar: {first_name: [Albert, A.], last_name: [Einstein]}`: the forms of the owner's name al-folio highlights."""
    if not isinstance(scholar, dict):
        return ()
    firsts, lasts = ([a_string(n) for n in scholar.get(key) or [] if a_string(n)] for key in ("first_name", "last_name"))
    forms = [f"{first} {last}" for last in lasts for first in firsts]
    return tuple(dict.fromkeys(form for form in forms if form != name))


def _about(old: OldSite, imported: Imported) -> None:
    front, body = old.front_matter("_pages/about.md")
    imported.affiliation = plain_text(a_string(front.get("subtitle")))
    profile = a_mapping(front.get("profile"))
    image = a_string(profile.get("image"))
    data = old.read_bytes(f"assets/img/{image}") if image else None
    if data is not None:
        imported.photo = PurePosixPath(image).name
        imported.files[PurePosixPath("static", imported.photo)] = data
    elif image:
        imported.left.append(
            f"_pages/about.md: profile.image names assets/img/{image}, no file of the old site: no photo brought over; "
            "put yours in static/ and name it as `photo:` in content/profile.yaml"
        )
    imported.bio = page_text(old, imported, "_pages/about.md", body, "/")
    if more_info := _more_info(a_string(profile.get("more_info"))):  # shown under the photo: an office, an address
        imported.bio = f"{imported.bio}\n\n{more_info}" if imported.bio else more_info
        imported.left.append(f"_pages/about.md: profile.more_info ({more_info}) is at the end of the bio in content/profile.yaml: move it or edit it there")


def _more_info(html: str) -> str:
    """al-folio's lines under the photo (`<p>Room 101</p><p>Main Street 1</p>`) as one line of text: 'Room 101, Main Street 1'."""
    return ", ".join(line for part in re.split(r"</p\s*>|<br\s*/?>|\n", html, flags=re.IGNORECASE) if (line := plain_text(part)))


def _publications(old: OldSite, imported: Imported) -> None:
    for relative in old.files("_bibliography", (".bib",)):
        text = old.read_text(relative)
        if text is None:
            continue
        imported.files[PurePosixPath("content/records", PurePosixPath(relative).name)] = FILE_FIELD.sub(_in_static, text).encode("utf-8")
        imported.records += 1
    for folder, target in ((PDF_FOLDER, "static/pdf"), (PREVIEW_FOLDER, "static/publication_preview")):
        for relative in old.files(folder):
            data = old.read_bytes(relative)
            if data is not None:
                imported.files[PurePosixPath(target, PurePosixPath(relative).relative_to(folder))] = data


def _in_static(match: re.Match[str]) -> str:
    """A bare file name of a file field, as the path of the file in the new site."""
    field, equals, opening, value, closing = match.groups()
    if not value.strip() or "://" in value:
        return match.group(0)
    folder = "static/publication_preview" if field.lower() == "preview" else "static/pdf"
    return f"{field}{equals}{opening}{folder}/{value.strip().lstrip('/')}{closing}"


def _news(old: OldSite, imported: Imported) -> None:
    for relative in old.files("_news", (".md", ".markdown", ".html")):
        front, body = old.front_matter(relative)
        date = iso_date(front.get("date")) or iso_date(PurePosixPath(relative).name)
        if not date:
            imported.left.append(f"{relative}: no date: not brought over")
            continue
        title = "" if front.get("inline") else plain_text(a_string(front.get("title")))
        text = page_text(old, imported, relative, body, "/news/")
        imported.files[PurePosixPath("content/news", PurePosixPath(relative).stem + ".md")] = news_file(date, title, text)


def _cv(old: OldSite, imported: Imported) -> None:
    """al-folio's CV: JSON Resume (`assets/json/resume.json`, since version 0.14), else `_data/cv.yml`."""
    if isinstance(resume := old.json("assets/json/resume.json"), dict):
        cv, notes = json_resume_cv(resume, "assets/json/resume.json")
    elif isinstance(sections := old.yaml_data("_data/cv.yml"), list):
        cv, notes = alfolio_cv(sections)
    else:
        return
    imported.files[PurePosixPath("content/cv.yaml")] = yaml_document(cv)
    imported.left += notes


def _left(old: OldSite, imported: Imported) -> None:
    pages_left(old, imported)
    if count := len(old.files("_posts", (".html",))):
        imported.left.append(f"_posts/ (blog posts written in HTML): {count} not brought over; copy their text into content/posts/*.md")
