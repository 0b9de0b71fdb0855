"""A blog: `content/posts/**/*.md` -> `output/posts/<slug>/index.html`, `output/posts/index.html`
and `output/posts/feed.xml`.

    ---
    title: Why our benchmark numbers moved   # required
    date: 2025-05-20                          # required
    slug: benchmark-numbers                   # default: the file name, without a leading date
    description: ...                          # for the list, the feed and link previews (default: the first paragraph)
    tags: [benchmarks, reading group]         # each tag's posts are listed at posts/tags/<tag>/
    image: static/benchmarks.png              # the link preview's picture (default: the profile's photo)
    image_alt: A bar chart of the old and new numbers
    language: en                              # what it is written in, when not the site's language
    comments: false                           # none under this post, when site.yaml's `comments` shows them
    toc: true                                 # a table of contents of its sections above its text
    ---
    Markdown with inline LaTeX, and the publications shortcode of content/pages/.

Jekyll's `2025-05-20-benchmark-numbers.md` and Hugo's `benchmark-numbers/index.md` are both
`posts/benchmark-numbers/`; the other files of a post's folder (Hugo's page bundle: its pictures,
PDFs) are published beside its page, where its text's links to them lead. A post's page depends on its own file, the records it shows and the
titles of the posts beside it (its "newer" and "older" links); the list and the feed on every
post, as does each tag's list. What every page shows of the blog is only that there is one (a menu entry,
the feed's link).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from functools import partial

from markupsafe import escape

from sitegen.errors import Location, Problem
from sitegen.exports.feed import DatedText, dated_feed
from sitegen.homepage.fields import Fields
from sitegen.markup import with_links
from sitegen.model import KindContent, Site
from sitegen.pages import MARKDOWN_SUFFIXES, ContentFiles, Page, RenderContext, feed_title, register_page_kind
from sitegen.pages.pages import (
    Address,
    ContentPage,
    bundle_file_pages,
    bundle_files,
    lists_warnings,
    not_read,
    read_content_page,
    shown_records,
    texts_in_bundles,
    unique_addresses,
)
from sitegen.urls import (
    POSTS_FEED_PATH,
    POSTS_PATH,
    address_problem,
    file_slug,
    link_preview_problem,
    post_file_date,
    post_file_day,
    post_path,
    post_slug,
    sorting_key,
    tag_path,
    tag_slug,
)
from sitegen.values import value_class
from sitegen.views import record_summary

FOLDER = "content/posts/"
FIELDS = {"title", "date", "slug", "description", "tags", "image", "image_alt", "language", "comments", "toc"}
OWN_FILES = {"index.html", "feed.xml", "tags"}  # what the blog itself writes in posts/: no post's address


@value_class
class Tag:
    name: str  # as the newest post that has it writes it
    slug: str  # its address under posts/tags/: the name in lower case, one address for 'ML' and 'ml'


@value_class
class Post:
    date: str  # ISO day
    tags: tuple[Tag, ...]
    tags_at: Location  # the line of its tags, for what is said of them
    page: ContentPage  # its title, text, description and slug (the part of its address under posts/)
    image: str = ""  # its link preview's picture, as written: a path in the site or a URL ('' for the profile's photo)
    image_alt: str = ""  # what the picture shows
    image_line: int = 0  # where `image` is written
    comments: bool = True  # its readers' comments shown under it, when site.yaml's `comments` says where they are


def post_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    yield from links_of(site.kind_value("posts", ()))


def links_of(posts: Iterable[Post]) -> Iterable[tuple[Location | None, str, str]]:
    """The links of the posts' text and their pictures, for `PageKind.links`: the site's posts', a language's own
    (`own_links`)."""
    for post in posts:
        yield from ((Location(post.page.path, line), "link in the text", url) for line, url in post.page.links)
        if post.image:
            yield Location(post.page.path, post.image_line), "image", post.image


def posts_in_language(content: KindContent, language: str, languages: tuple[str, ...]) -> KindContent | None:
    from sitegen.languages import items_in_language

    return items_in_language(content, language, languages, lambda post: post.page.translation, language_posts)


@register_page_kind(
    "posts",
    reads=(FOLDER,),
    load=lambda files: load_posts(files),
    check=lambda site: lists_warnings((post.page for post in site.kind_value("posts", ())), site),
    links=post_links,
    text_suffixes=MARKDOWN_SUFFIXES,
    per_language=True,
    language_content=posts_in_language,
    intro=True,
    own_links=lambda posts, language: links_of(post for post in posts if post.page.translation == language),
)
def post_pages(context: RenderContext) -> Iterable[Page]:
    from sitegen.languages import own_language

    content = context.site.content.get("posts")
    if content is None or not content.value:
        return
    posts = content.value
    language = own_language(context.site)
    if language and not any(post.page.translation == language for post in posts):
        return  # a language with no posts of its own: its menu leads to the default language's blog
    for index, post in enumerate(posts):
        if post.page.translation != language:
            continue  # a language's list shows the default language's posts it has none for, at their own addresses
        newer = posts[index - 1] if index > 0 else None
        older = posts[index + 1] if index + 1 < len(posts) else None
        shown, records = shown_records(post.page.parts, context.site)
        beside = [context.views.post_link(other) if other is not None else None for other in (newer, older)]  # its links to them, as shown
        make = partial(_render_post, context, post, shown, newer, older)
        yield Page(post_path(post.page.slug), (post.page.text_key, records, beside), make, source=Location(post.page.path, 1))
        yield from bundle_file_pages(context, post.page, post_path(post.page.slug).removesuffix("index.html"))
    tags = tags_of(posts)
    yield Page(POSTS_PATH, (content.key,), lambda: context.render("posts.html", context.views.posts_page(posts, tags)))
    for tag, tagged in tags.items():
        yield Page(tag_path(tag.slug), (content.key,), partial(_render_tag, context, tags, tag, tagged))
    # the feed of the list (a language's: its posts and the default language's others, marked as in it); the records its
    # posts' lists show are inputs of it
    shown_in_feed = [shown_records(post.page.parts, context.site)[1] for post in posts]
    yield Page(POSTS_FEED_PATH, (content.key, shown_in_feed), lambda: posts_feed(context, posts))


def _render_post(context: RenderContext, post: Post, shown: tuple[tuple[int, ...], ...], newer: Post | None, older: Post | None) -> bytes:
    return context.render("post.html", context.views.post_page(post, shown, newer, older))


def _render_tag(context: RenderContext, tags: dict[Tag, tuple[Post, ...]], tag: Tag, tagged: tuple[Post, ...]) -> bytes:
    return context.render("posts.html", context.views.posts_page(tagged, tags, tag))


def tags_of(posts: tuple[Post, ...]) -> dict[Tag, tuple[Post, ...]]:
    """Each tag (by name, ignoring case) and its posts, newest first; each tag named as its newest post names it."""
    named: dict[str, Tag] = {}
    tagged: dict[str, list[Post]] = {}
    for post in posts:
        for tag in post.tags:
            named.setdefault(tag.slug, tag)
            tagged.setdefault(tag.slug, []).append(post)
    return {named[slug]: tuple(tagged[slug]) for slug in sorted(named, key=lambda slug: (sorting_key(named[slug].name), named[slug].name))}


def load_posts(files: ContentFiles) -> tuple[tuple[Post, ...], bool, list[Problem]]:
    """Every post, newest first; site-wide: whether there are any. A site in several languages: then the posts of
    each language but the default ('checkpoints.fr.md', `page.translation` fr), which prepare gives that language."""
    from sitegen.pages.pages import translation_files

    problems: list[Problem] = []
    translated = translation_files(files, problems) if files.languages else {}  # a site in several languages: 'x.fr.md'
    default = dataclasses.replace(files, texts={path: text for path, text in files.texts.items() if path not in translated}) if translated else files
    bundles, loose = bundle_files(default, FOLDER)
    problems += not_read(loose, "post", FOLDER)
    resources = texts_in_bundles(default, FOLDER, "post", problems)
    read = partial(_read_post, bundles, resources)
    posts = unique_addresses(default.read_markdown(read, problems), lambda post: post.page, "posts/", "post", problems)
    newest_first = tuple(sorted(posts, key=lambda post: (post.date, post.page.path), reverse=True))
    _warn_of_tags_sharing_an_address(newest_first, problems)
    return newest_first + _translations(files, translated, {post.page.path: post for post in posts}, problems), bool(newest_first), problems


def _translations(files: ContentFiles, translated: dict[str, tuple[str, str]], originals: dict[str, Post], problems: list[Problem]) -> tuple[Post, ...]:
    """The posts of the languages but the default, each at the address of the post it translates (a post of its own,
    with none in the default language, at its file's), marked with its language; newest first."""
    found: list[Post] = []
    for path, (language, original_path) in sorted(translated.items()):
        if language not in files.languages[1:] or not files.published(path):
            continue  # a language the site does not have (said); the default language's is a post as any
        original = originals.get(original_path)
        bundle = original.page.files if original is not None else ()  # a bundle's translation shows its folder's files
        post = _read_post({path: bundle}, set(), path, files.texts[path], problems, original_path)
        if post is None:
            continue
        slug = original.page.slug if original is not None else post.page.slug
        page = dataclasses.replace(post.page, slug=slug, translation=language, language=post.page.language or language, files=())
        found.append(dataclasses.replace(post, page=page))
    kept = []
    for language in files.languages[1:]:
        kept += unique_addresses([post for post in found if post.page.translation == language], lambda post: post.page, f"{language}/posts/", "post", problems)
    return tuple(sorted(kept, key=lambda post: (post.date, post.page.path), reverse=True))


def language_posts(posts: tuple[Post, ...], language: str, default_language: str) -> tuple[Post, ...]:
    """A language's blog, newest first: each post in that language where it has one, else the default language's
    (marked as in it); () when it has none of its own."""
    from sitegen.languages import with_the_defaults_others

    merged = with_the_defaults_others(posts, language, default_language)
    return tuple(sorted(merged, key=lambda post: (post.date, post.page.path), reverse=True))


def _warn_of_tags_sharing_an_address(posts: tuple[Post, ...], problems: list[Problem]) -> None:
    """'R&D' and 'R D' would both be posts/tags/r-d/: one list, named as the newest post names it."""
    for named, tagged in tags_of(posts).items():
        for post in tagged:
            for tag in post.tags:
                if tag.slug == named.slug and tag.name.casefold() != named.name.casefold():
                    warning = f"the tag '{tag.name}' shares its address posts/tags/{tag.slug}/ with '{named.name}' ({tagged[0].page.path}): one list shows both"
                    problems.append(Problem(warning, post.tags_at, warning=True))


def _read_post(
    bundles: dict[str, tuple[tuple[str, str], ...]], resources: set[str], path: str, text: str, problems: list[Problem], named: str = ""
) -> Post | None:
    """A post; `named`: the file whose name gives its address and day, when not its own (a translation's original)."""
    if path in resources:
        return None
    address = Address("post", file_slug(post_slug(named or path)), "posts/", folders=False, reserved=OWN_FILES)
    file_day = post_file_day(named or path)  # Jekyll's date in the file name: the post's date when its front matter has none
    also = lambda fields: (_day(fields, path, file_day), _tags(fields), fields.where("tags"), _image(fields), fields.flag("comments", True))  # noqa: E731
    read = read_content_page(path, text, problems, address, also, FIELDS, bundles.get(path, ()))
    if read is None:
        return None
    (day, tags, tags_at, (image, image_alt, image_line), comments), page = read
    return Post(day, tags, tags_at, page, image, image_alt, image_line, comments)


def _image(fields: Fields) -> tuple[str, str, int]:
    """The post's `image` (a path in the site or a URL), `image_alt` and the line of `image`; a picture link previews
    cannot show (an SVG) is said at its line, as a record's is."""
    image = fields.text("image")
    if image:
        image = fields.checked_url("image", image)
    if image and (problem := link_preview_problem(image)):
        fields.warn("image", problem)
    return image, fields.text("image_alt"), fields.line("image")


def _day(fields: Fields, path: str, file_day: str) -> str:
    """The post's `date`, else the day of its Jekyll-style file name; a file name that starts like a day but is
    none ('2024-02-30-x.md') is said so, rather than only that the date is missing."""
    if file_day or "date" in fields.data:
        return fields.day("date") or file_day
    if written := post_file_date(path):
        fields.problem(None, f"field 'date' is required: the file name's {written} is no day (a date such as 2024-03-05)")
        return ""
    return fields.day("date", required=True)


def _tags(fields: Fields) -> tuple[Tag, ...]:
    tags: dict[str, Tag] = {}
    for name in fields.texts("tags"):
        slug = tag_slug(name)
        if reason := address_problem(slug, folders=False, reserved=()):
            fields.problem("tags", f"the tag '{name}' cannot be an address (posts/tags/{slug}/): it {reason}; name the tag otherwise")
        first = tags.setdefault(slug, Tag(name, slug))
        if first.name.casefold() != name.casefold():
            fields.warn("tags", f"the tag '{name}' shares its address posts/tags/{slug}/ with '{first.name}': one list shows both")
    return tuple(tags.values())


def _feed_html(context: RenderContext, post: Post) -> str:
    """A post's text in the feed: its Markdown as converted and, where its page shows a list of publications
    (`{{< publications >}}`), those records as a list of links to their pages, each with who, where and when: a feed
    reader shows no list the page's template makes."""
    entries, shown = context.site.entries, shown_records(post.page.parts, context.site)[0]
    html = []
    for part, positions in zip(post.page.parts, shown, strict=True):
        if part.publications is None:
            html.append(part.html)
        elif positions:
            items = (
                f'<li><a href="{escape(context.views.record_absolute_url(entries[p]))}">{entries[p].title.html}</a><br>{escape(record_summary(entries[p]))}</li>'
                for p in positions
            )
            html.append(f"<ul>{''.join(items)}</ul>")
    return "".join(html)


def posts_feed(context: RenderContext, posts: tuple[Post, ...]) -> bytes:
    """An Atom feed of the posts, newest first, each with its whole text."""
    urls, site = context.urls, context.site
    texts = [
        DatedText(
            url,
            post.page.title,
            post.date,
            with_links(_feed_html(context, post), urls.absolute_link_from(url)),
            post.page.description,
            tuple(tag.name for tag in post.tags),
            post.page.language,
        )
        for post, url in ((post, urls.absolute(post_path(post.page.slug))) for post in posts)
    ]
    return dated_feed(
        feed_title(context, site.profile.name, "posts"),
        site.config.language,
        site.profile.name,
        urls.absolute(POSTS_PATH),
        urls.absolute(POSTS_FEED_PATH),
        texts,
        urls.permanent,
    )
