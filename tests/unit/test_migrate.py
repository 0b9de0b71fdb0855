"""What `sitegen init --from` makes of another tool's files, piece by piece (the whole command: tests/e2e/test_init_from.py)."""

from __future__ import annotations

from pathlib import PurePosixPath

import pytest
import yaml
from conftest import write_site

from sitegen.migrate import Imported, _write_redirects, leaves_template_tags_out, markdown_text, plain_text
from sitegen.migrate.resume import alfolio_cv, json_resume_cv

# al-folio's _data/cv.yml, in the shape of its own sample
ALFOLIO_CV = """
- title: General Information
  type: map
  contents:
    - name: Full Name
      value: Albert Einstein
- title: Education
  type: time_table
  contents:
    - title: PhD
      institution: University of Zurich, Zurich, Switzerland
      year: 1905
      description:
        - Description 1.
        - title: Description 2.
          contents:
            - Sub-description 1.
- title: Experience
  type: time_table
  contents:
    - title: Professor of Theoretical Physics
      institution: Institute for Advanced Study, Princeton
      year: 1933 - 1955
    - title: Editor
      institution: Annalen der Physik
      year: 2019 - present
- title: Honors and Awards
  type: time_table
  contents:
    - year: 1921
      items:
        - Nobel Prize in Physics
        - Matteucci Medal
"""


def test_al_folios_time_tables_become_cv_sections_and_the_rest_is_named():
    cv, notes = alfolio_cv(yaml.safe_load(ALFOLIO_CV))
    sections = {section["title"]: section.get("entries") for section in cv["sections"]}
    assert sections["Education"] == [
        {
            "title": "PhD",
            "org": "University of Zurich, Zurich, Switzerland",
            "date": "1905",
            "details": "- Description 1.\n- Description 2.\n- Sub-description 1.",
        }
    ]
    assert [(e["title"], e.get("start"), e.get("end")) for e in sections["Experience"]] == [
        ("Professor of Theoretical Physics", "1933", "1955"),
        ("Editor", "2019", "present"),
    ]
    assert sections["Honors and Awards"] == [{"title": "Nobel Prize in Physics", "date": "1921"}, {"title": "Matteucci Medal", "date": "1921"}]
    assert cv["sections"][-1] == {"title": "Publications", "publications": "selected"}
    assert notes == ["_data/cv.yml: the section 'General Information' (map) is not brought over into content/cv.yaml"]


def test_json_resume_entries_keep_what_a_cv_entry_can_say():
    resume = {
        "work": [{"name": "Navy", "position": "Admiral", "startDate": "1943-01", "endDate": "Present", "url": "javascript:alert(1)"}, {"name": "No position"}],
        "education": [{"institution": "Yale", "studyType": "PhD", "endDate": "1934"}],
        "awards": [{"title": "", "date": "2001"}],
    }
    cv, notes = json_resume_cv(resume, "resume.json")
    positions, education = cv["sections"][0]["entries"], cv["sections"][1]["entries"]
    assert positions == [{"title": "Admiral", "org": "Navy", "start": "1943-01", "end": "present"}, {"title": "No position"}]  # no unsafe URL
    assert education == [{"title": "PhD", "org": "Yale", "date": "1934"}]  # an end alone is when it happened
    assert [s["title"] for s in cv["sections"]] == ["Positions", "Education", "Publications"] and notes == []


def test_template_tags_and_markup_are_left_out_of_text_brought_over():
    assert plain_text("<a href='#'>Institute</a>, Princeton.\x07 {{ site.x }}") == "Institute, Princeton."
    assert markdown_text("Hello **you**.\r\n\r\n\r\n{% include news.liquid %}\n{{< icon name=x >}}Download\n") == "Hello **you**.\n\nDownload"


def test_hugo_academics_older_layout_is_read_too(tmp_path):
    """Before 2020 the author pages were in content/author/, and a publication could be one file."""
    from sitegen.migrate import read_old_site

    (tmp_path / "content/author/jane").mkdir(parents=True)
    (tmp_path / "content/author/jane/_index.md").write_text("---\ntitle: Jane Marcet\nrole: Writer\n---\nConversations on chemistry.\n")
    (tmp_path / "content/publication").mkdir()
    (tmp_path / "content/publication/_index.md").write_text("---\ntitle: Publications\n---\n")
    (tmp_path / "content/publication/chemistry.md").write_text("---\ntitle: Conversations on Chemistry\nauthors: [jane]\ndate: 1806-01-01\n---\n")
    imported = read_old_site(tmp_path)
    assert (imported.tool, imported.name, imported.position, imported.bio) == ("Hugo Blox", "Jane Marcet", "Writer", "Conversations on chemistry.")
    assert sorted(str(path) for path in imported.files) == ["content/records/publication/chemistry.md", "content/redirects.yaml"]  # not _index.md
    assert yaml.safe_load(imported.files[PurePosixPath("content/redirects.yaml")]) == {
        "publication/": "#publications",
        "publication/chemistry/": "records/chemistry/",
        "author/jane/": "./",  # her author page: the profile
    }


def test_only_old_addresses_that_are_no_page_of_the_new_site_lead_on():
    imported = Imported("al-folio")
    imported.files[PurePosixPath("content/pages/teaching.md")] = b""
    imported.files[PurePosixPath("content/posts/2015-03-15-hello.md")] = b""
    imported.redirects = {
        "/blog/2015/hello/": "posts/hello/",  # kept
        "/Teaching/": "posts/hello/",  # the new Teaching page, in another case
        "/posts/hello/": "posts/hello/",  # where the post is now
        "/cv/": "#publications",  # a page of the new site
        "/records/x/": "records/y/",  # among the new site's record pages
        "/a/../b/": "posts/hello/",  # no address of a page
        "/ünï/": "posts/hello/",
        "/old.html": "posts/",  # kept, as a file
    }
    _write_redirects(imported)
    written = yaml.safe_load(imported.files[PurePosixPath("content/redirects.yaml")])
    assert written == {"blog/2015/hello/": "posts/hello/", "old.html": "posts/"}


def test_liquid_and_hugo_ways_of_writing_a_link_or_a_picture_become_markdown():
    """Template tags are left out of a text, but not the link or the picture they wrote."""
    assert (
        markdown_text("[CV]({{ site.baseurl }}/assets/pdf/cv.pdf), [CV]({{ site.url }}{{ site.baseurl }}/cv.pdf)") == "[CV](/assets/pdf/cv.pdf), [CV](/cv.pdf)"
    )
    assert markdown_text("[the other]({{ '/blog/2015/math/' | relative_url }})") == "[the other](/blog/2015/math/)"
    assert markdown_text('{{< staticref "uploads/cv.pdf" "newtab" >}}my CV{{< /staticref >}}') == "[my CV](/uploads/cv.pdf)"
    assert markdown_text('{{< figure src="diagram.png" caption="A [diagram]" >}}') == "![A diagram](diagram.png)"


def test_al_folios_rows_of_pictures_become_pictures_and_raw_text_stays_as_written():
    gallery = (
        '<div class="row mt-3">\n    <div class="col-sm mt-3 mt-md-0">\n'
        '        {% include figure.liquid loading="eager" path="assets/img/9.jpg" class="img-fluid" %}\n    </div>\n</div>\n'
        '<div class="caption">\n    A simple caption.\n</div>\n'
    )
    assert markdown_text(gallery) == "![](/assets/img/9.jpg)\n\nA simple caption."  # no <div> as text, no caption as code
    code = "```liquid\n{% raw %}{% for post in site.posts %}{{ post.title }}{% endfor %}{% endraw %}\n```\nAnd `{% raw %}{{ page.title }}{% endraw %}`."
    assert markdown_text(code) == "```liquid\n{% for post in site.posts %}{{ post.title }}{% endfor %}\n```\nAnd `{{ page.title }}`."


@pytest.mark.parametrize(
    "body, left_out",
    [
        ("```liquid\n{% raw %}{{ page.title }}{% endraw %}\n```\n", False),  # raw: kept as it is
        ("{% highlight python %}\nx = 1\n{% endhighlight %}\n", False),  # a code block
        ("See [the other]({{ '/blog/2015/math/' | relative_url }}) and [x]({{< relref \"second\" >}}).\n", False),  # links
        ('{% include figure.liquid path="assets/img/9.jpg" %}\n', False),  # a picture
        ('{% include video.liquid path="assets/video/v.mp4" %}\n', True),
        ('{{< tweet user="SanDiegoZoo" id="1453110110599868418" >}}\n', True),
        ("{{< youtube abc >}}\n", False),  # a link to the video: nothing left out
    ],
)
def test_a_note_says_template_tags_were_left_out_only_when_some_were(body, left_out):
    assert leaves_template_tags_out(body) is left_out


def test_talks_and_posts_dated_without_leading_zeros_come_over(tmp_path):
    """Jekyll reads `date: 2019-1-1`: such a talk was left out with the note "no title or date" (it had both)."""
    from sitegen.migrate import read_old_site

    files = {
        "_config.yml": "url: https://ghopper.github.io\nauthor:\n  name: Grace Hopper\n",
        "_publications/p.md": "---\ntitle: P\ndate: 2019-01-01\n---\n",
        "_talks/2019-talk.md": "---\ntitle: A talk\nvenue: NSA\ndate: 2019-1-1\n---\nText.\n",
        "_posts/2021-03-05-hello.md": "---\ntitle: Hello\ndate: 2021-3-5\n---\nText.\n",
    }
    write_site(tmp_path, files)
    imported = read_old_site(tmp_path)
    assert not [note for note in imported.left if note.startswith(("_talks/", "_posts/"))]
    talks = yaml.safe_load(imported.files[PurePosixPath("content/talks/talks.yaml")])
    assert [(talk["title"], talk["date"].isoformat()) for talk in talks] == [("A talk", "2019-01-01")]
    assert PurePosixPath("content/posts/2021-03-05-hello.md") in imported.files


def test_academicpages_author_links_of_other_sites_come_over_or_are_named(tmp_path):
    """academicpages' author block has links sitegen has no kind for (pubmed, kaggle, youtube, ...): they were
    dropped without a word. A web address comes over under its own name; a bare user name is named in a note."""
    from sitegen.migrate import read_old_site

    files = {
        "_config.yml": (
            "url: https://praman.github.io\nauthor:\n  name: Priya Raman\n  location: Pittsburgh\n  pronouns: she/her\n"
            "  pubmed: https://www.ncbi.nlm.nih.gov/myncbi/priya.raman.1/bibliography/public/\n  kaggle: priyaraman\n  youtube:\n"
            "  github: praman-lab\n"
        ),
        "_publications/p.md": "---\ntitle: P\ndate: 2019-01-01\n---\n",
    }
    write_site(tmp_path, files)
    imported = read_old_site(tmp_path)
    assert imported.links == {"github": "praman-lab", "pubmed": "https://www.ncbi.nlm.nih.gov/myncbi/priya.raman.1/bibliography/public/"}
    assert "_config.yml: author.kaggle (priyaraman) not brought over: add its full address to links: in content/profile.yaml" in imported.left
    assert not [note for note in imported.left if "location" in note or "pronouns" in note or "youtube" in note]


def test_a_hugo_blox_talks_address_is_part_of_its_location(tmp_path):
    """Hugo Blox's event template has `location:` (a building) and `address:` (street, city, region, country):
    only 'Monona Terrace' came over, not where it is."""
    from sitegen.migrate import read_old_site

    event = (
        "---\ntitle: Counting cells honestly\nevent: ISMB 2022\nlocation: Monona Terrace\naddress:\n  street: 1 John Nolen Dr\n"
        "  city: Madison\n  region: WI\n  postcode: '53703'\n  country: United States\ndate: '2022-07-12T13:00:00Z'\n---\n"
    )
    (tmp_path / "content/event/ismb").mkdir(parents=True)
    (tmp_path / "content/event/ismb/index.md").write_text(event, encoding="utf-8")
    (tmp_path / "content/publication").mkdir()
    [talk] = yaml.safe_load(read_old_site(tmp_path).files[PurePosixPath("content/talks/talks.yaml")])
    assert talk["location"] == "Monona Terrace, Madison, WI, United States"


def test_a_sections_headings_go_one_level_below_its_title():
    """A course's or project's text goes under its `# title` on one page: its headings go one level lower (a
    setext heading's lines joined), code and rules stay."""
    from sitegen.migrate import headings_below

    text = "Intro.\n\nHeading\none\n======\n\n# Week 1\n\nSub\n---\n\n```sh\n# a comment\n```\n\nText\n\n---\n\n* item\n---\n###### deep\n"
    assert headings_below(text).split("\n") == [
        *("Intro.", "", "## Heading one", "", "## Week 1", "", "### Sub", ""),
        *("```sh", "# a comment", "```", ""),
        *("Text", "", "---", "", "* item", "---", "###### deep", ""),
    ]


def test_a_hugo_blox_kit_person_file_is_the_owner_and_the_others_are_named_by_their_slugs(tmp_path):
    """The Hugo Blox Kit (2025) keeps people in data/authors/SLUG.yaml, the owner's with `is_owner: true`; a
    publication names them by slug (`authors: [ingrid, mlovik]`). The CV link can be the homepage's biography
    button only. A Kit site was not recognised at all."""
    from sitegen.migrate import read_old_site

    (tmp_path / "data/authors").mkdir(parents=True)
    (tmp_path / "data/authors/mlovik.yaml").write_text("slug: mlovik\nname:\n  display: Magnus Løvik\n", encoding="utf-8")
    (tmp_path / "data/authors/ingrid.yaml").write_text(
        "is_owner: true\nname:\n  display: Prof. Ingrid Halvorsen\n  given: Ingrid\n  family: Halvorsen\nrole: Professor\nbio: Listens to fjords.\n",
        encoding="utf-8",
    )
    (tmp_path / "content/publications/sound").mkdir(parents=True)
    (tmp_path / "content/publications/sound/index.md").write_text(
        "---\ntitle: Fjord sound\nauthors: [ingrid, mlovik, Astrid Brekke]\ndate: 2024-01-01\n---\n", encoding="utf-8"
    )
    (tmp_path / "content/_index.md").write_text(
        "---\nsections:\n  - block: resume-biography-3\n    content:\n      username: ingrid\n      button:\n        text: Download CV\n"
        "        url: uploads/cv.pdf\n---\n",
        encoding="utf-8",
    )
    (tmp_path / "static/uploads").mkdir(parents=True)
    (tmp_path / "static/uploads/cv.pdf").write_bytes(b"%PDF cv")
    imported = read_old_site(tmp_path)
    assert (imported.tool, imported.name, imported.position, imported.bio) == ("Hugo Blox", "Ingrid Halvorsen", "Professor", "Listens to fjords.")
    assert imported.links == {"cv": "static/uploads/cv.pdf"}
    record = imported.files[PurePosixPath("content/records/publications/sound/index.md")].decode()
    assert yaml.safe_load(record.split("---")[1])["authors"] == ["Ingrid Halvorsen", "Magnus Løvik", "Astrid Brekke"]
    assert yaml.safe_load(imported.files[PurePosixPath("content/redirects.yaml")])["authors/ingrid/"] == "./"


def test_a_hugo_blox_kit_author_page_in_the_person_files_schema_is_read(tmp_path):
    """An author page (content/authors/me/_index.md) written in the Kit's schema (`name: {given, family}`,
    `affiliations`, `links`, the avatar in assets/media/authors/): no name, affiliation, links or photo came over."""
    from sitegen.migrate import read_old_site

    (tmp_path / "content/authors/me").mkdir(parents=True)
    (tmp_path / "content/authors/me/_index.md").write_text(
        "---\nname:\n  display: Dr. Ingrid Halvorsen\n  given: Ingrid\n  family: Halvorsen\nrole: Professor\naffiliations:\n"
        "  - name: University of Bergen\nlinks:\n  - icon: academicons/orcid\n    url: https://orcid.org/0000-0002-4431-9917\n"
        "  - icon: at-symbol\n    url: mailto:ingrid@uib.no\n---\nListens to fjords.\n",
        encoding="utf-8",
    )
    (tmp_path / "assets/media/authors").mkdir(parents=True)
    (tmp_path / "assets/media/authors/me.png").write_bytes(b"\x89PNG ingrid")
    (tmp_path / "content/publications").mkdir()
    imported = read_old_site(tmp_path)
    assert (imported.name, imported.affiliation, imported.email) == ("Ingrid Halvorsen", "University of Bergen", "ingrid@uib.no")
    assert imported.links == {"orcid": "https://orcid.org/0000-0002-4431-9917"} and imported.bio == "Listens to fjords."
    assert imported.files[PurePosixPath("static", imported.photo)] == b"\x89PNG ingrid"


@pytest.mark.parametrize(
    "html, markdown",
    [
        # academicpages' posts centre a picture so: the <img> became a picture, the <p align> stayed as text
        ('<p align="center"><img src="/images/gbg.jpg" alt="Harbour"></p>', "![Harbour](/images/gbg.jpg)"),
        ("<center><img src='/images/fig.png'></center>", "![](/images/fig.png)"),
        ('First post. <div align="center"><img src="/images/gbg.jpg" width="300"/></div>', "First post. ![](/images/gbg.jpg)"),
        ("<p>This paper is <strong>important</strong>.</p>\n<p>A second one.</p>", "This paper is **important**.\n\nA second one."),
        ('Text <span style="color:red">in red</span>.', "Text in red."),
        # a YouTube embed: a link to the video, as Hugo's {{< youtube >}} is
        (
            '<iframe width="560" src="https://www.youtube.com/embed/abcdEFGhijk" allowfullscreen></iframe>',
            "[Video on YouTube](https://www.youtube.com/watch?v=abcdEFGhijk)",
        ),
    ],
)
def test_html_that_only_lays_out_text_is_left_out_of_text_brought_over(html, markdown):
    assert markdown_text(html) == markdown


def test_links_to_the_old_sites_files_at_its_domain_or_at_github_io_lead_to_their_copies(tmp_path):
    """With a custom domain (CNAME), base_url is the domain's; a paper linked at the domain, at github.io (`url:`)
    or at `http://` stays the site's own file, copied into static/."""
    from sitegen.migrate import read_old_site

    files = {
        "CNAME": "zoe.example.se\n",
        "_config.yml": "url: https://zokonkwo.github.io\nauthor:\n  name: Zoë Okonkwo\n",
        "_publications/a.md": "---\ntitle: A\ndate: 2019-01-01\npaperurl: 'https://zoe.example.se/files/a.pdf'\n---\n",
        "_publications/b.md": "---\ntitle: B\ndate: 2019-01-01\npaperurl: 'http://zokonkwo.github.io/files/b.pdf'\n---\n",
        "files/a.pdf": "%PDF-1.4\n",
        "files/b.pdf": "%PDF-1.4\n",
    }
    write_site(tmp_path, files)
    imported = read_old_site(tmp_path)
    assert (imported.base_url, imported.cname) == ("https://zoe.example.se/", "zoe.example.se")
    for name in ("a", "b"):
        record = imported.files[PurePosixPath(f"content/records/publications/{name}.md")].decode()
        assert f"paperurl: 'static/files/{name}.pdf'" in record


def test_a_talk_dated_by_its_month_comes_over_and_what_is_missing_is_named(tmp_path):
    """`date: 2024-10` (Jekyll keeps it as text) left the talk out with "no title or date", though it had a title;
    a post without a title was told the same. The talk now comes over on the month's first day, with a note, and
    a note names what a file left out lacks."""
    from sitegen.migrate import read_old_site

    files = {
        "_config.yml": "url: https://zokonkwo.github.io\nauthor:\n  name: Zoë Okonkwo\n",
        "_publications/p.md": "---\ntitle: P\ndate: 2019-01-01\n---\n",
        "_talks/2024-invited.md": "---\ntitle: 'Invited talk: Tone, tokens and trust'\nvenue: Masakhane\ndate: 2024-10\n---\n",
        "_talks/untitled.md": "---\nvenue: Somewhere\ndate: 2020-01-10\n---\n",
        "_posts/2021-13-45-bad.md": "---\ntitle: Bad date\n---\nText.\n",
    }
    write_site(tmp_path, files)
    imported = read_old_site(tmp_path)
    talks = yaml.safe_load(imported.files[PurePosixPath("content/talks/talks.yaml")])
    assert [(talk["title"], talk["date"].isoformat()) for talk in talks] == [("Invited talk: Tone, tokens and trust", "2024-10-01")]
    assert "_talks/2024-invited.md: date: 2024-10 has no day: dated 2024-10-01 in content/talks/talks.yaml; write its day there" in imported.left
    assert "_talks/untitled.md: no title: not brought over; add it to content/talks/talks.yaml with its title" in imported.left
    assert (
        "_posts/2021-13-45-bad.md: no date (its front matter has no `date:`, its file name none of the calendar): not brought over; "
        "give it `date: YYYY-MM-DD`" in imported.left
    )
    assert not [note for note in imported.left if "no title or date" in note or note.startswith("_publications/")]


@pytest.mark.parametrize(
    "config",
    [
        "analytics:\n  provider: google-gtag\n  google:\n    tracking_id: G-7QX2B3LM9K\n    anonymize_ip: false\n",  # academicpages
        "enable_google_analytics: true\ngoogle_analytics: G-7QX2B3LM9K\n",  # al-folio
    ],
)
def test_a_google_analytics_id_left_behind_is_named(tmp_path, config):
    """The old site counted visitors with Google Analytics; sitegen knows Plausible and GoatCounter only, and the id
    was dropped without a word: the owner would find out when the counts stopped."""
    from sitegen.migrate import read_old_site

    if "enable_google_analytics" in config:  # al-folio's
        files = {"_config.yml": "first_name: Zoë\n" + config, "_bibliography/papers.bib": "@article{a, title={A}, year={2020}}\n"}
    else:
        files = {"_config.yml": "author:\n  name: Zoë Okonkwo\n" + config, "_publications/p.md": "---\ntitle: P\ndate: 2019-01-01\n---\n"}
    write_site(tmp_path, files)
    imported = read_old_site(tmp_path)
    assert (
        "_config.yml: Google Analytics (G-7QX2B3LM9K) not brought over: sitegen loads no script of another site unless "
        "content/site.yaml names one, and counts visitors with Plausible or GoatCounter (analytics:, docs/homepage.md)"
    ) in imported.left


def test_analytics_turned_off_is_no_note(tmp_path):
    from sitegen.migrate import read_old_site

    (tmp_path / "_publications").mkdir()
    (tmp_path / "_publications/p.md").write_text("---\ntitle: P\ndate: 2019-01-01\n---\n", encoding="utf-8")
    (tmp_path / "_config.yml").write_text("author:\n  name: Z\nanalytics:\n  provider: false\n  google:\n    tracking_id:\n", encoding="utf-8")
    assert not [note for note in read_old_site(tmp_path).left if "Analytics" in note]


def test_a_page_of_plain_markdown_comes_over_and_a_liquid_one_is_named(tmp_path):
    """academicpages' `_pages/resources.md` (a list of links, no Liquid) was left behind with "a Liquid layout as
    much as text" and its address gave 404. A Markdown page without template tags now comes over as a page of the
    new site, in the menu when the old one had it there; one that lists the site's content with Liquid (its CV, a
    year archive the blog stands for) is named in a note, or passed over when the new site makes it."""
    from sitegen.migrate import read_old_site

    files = {
        "_config.yml": "url: https://zokonkwo.github.io\nauthor:\n  name: Zoë Okonkwo\n",
        "_data/navigation.yml": "main:\n  - title: Publications\n    url: /publications/\n  - title: Resources\n    url: /resources/\n",
        "_publications/p.md": "---\ntitle: P\ndate: 2019-01-01\n---\n",
        "_posts/2021-03-05-hello.md": "---\ntitle: Hello\ndate: 2021-03-05\n---\nText.\n",
        "_pages/resources.md": (
            '---\npermalink: /resources/\ntitle: "Resources for Sámi NLP"\nredirect_from:\n  - /tools/\n---\n\n'
            "* [SIKOR](https://gtweb.uit.no/korp/)\n* Slides of my [tutorial](/files/tutorial.pdf)\n"
        ),
        "_pages/list.md": "---\npermalink: /list/\ntitle: List\n---\n{% for post in site.posts %}{{ post.title }}{% endfor %}\nMy posts.\n",
        "_pages/year-archive.html": "---\npermalink: /year-archive/\ntitle: Blog posts\n---\n{% include base_path %}\n",
        "files/tutorial.pdf": "%PDF-1.4\n",
    }
    write_site(tmp_path, files)
    imported = read_old_site(tmp_path)
    page = imported.files[PurePosixPath("content/pages/resources.md")].decode()
    assert page.startswith("---\ntitle: Resources for Sámi NLP\nnav: 11\n---\n")
    assert "* [SIKOR](https://gtweb.uit.no/korp/)\n* Slides of my [tutorial](static/files/tutorial.pdf)" in page
    assert yaml.safe_load(imported.files[PurePosixPath("content/redirects.yaml")])["tools/"] == "resources/"
    assert [note for note in imported.left if note.startswith("_pages/")] == [
        "_pages/list.md: a page (a Liquid layout as much as text) not brought over; copy its text into content/pages/*.md"
    ]


def test_html_in_a_publications_excerpt_that_stands_for_its_abstract_becomes_markdown(tmp_path):
    """academicpages' `excerpt: "Chapter 4 in <em>Low-resource NLP</em>"`, the abstract of a file with no text below
    its front matter, showed `<em>` as text on the record's page and in its Scholar meta tags, with no warning."""
    from sitegen.migrate import read_old_site

    files = {
        "_config.yml": "url: https://zokonkwo.github.io\nauthor:\n  name: Zoë Okonkwo\n",
        "_publications/chapter.md": "---\ntitle: Morphology\ndate: 2023\nexcerpt: \"Chapter 4 in <em>Low-resource NLP</em>.<br/>See <a href='/files/c.pdf'>it</a>\"\n---\n",
        "_publications/plain.md": "---\ntitle: Plain\ndate: 2023\nexcerpt: 'Under review.'\n---\n",
        "files/c.pdf": "%PDF-1.4\n",
    }
    write_site(tmp_path, files)
    imported = read_old_site(tmp_path)
    chapter = imported.files[PurePosixPath("content/records/publications/chapter.md")].decode()
    assert chapter.endswith("---\nChapter 4 in *Low-resource NLP*.\nSee [it](static/files/c.pdf)\n")
    plain = imported.files[PurePosixPath("content/records/publications/plain.md")].decode()
    assert plain == files["_publications/plain.md"]  # no HTML: the file as it is


def test_academicpages_kind_of_talk_comes_over_as_its_type(tmp_path):
    """talks.yaml has `type:` (Tutorial, Poster, ...) and the talks page shows it, yet academicpages' `type:
    "Tutorial"` was left out with a note saying that a talk has none. It comes over; "Talk", the usual one, stays
    unsaid, as the old site's lists did not set it apart."""
    from sitegen.migrate import read_old_site

    files = {
        "_config.yml": "url: https://zokonkwo.github.io\nauthor:\n  name: Zoë Okonkwo\n",
        "_publications/p.md": "---\ntitle: P\ndate: 2019-01-01\n---\n",
        "_talks/a.md": '---\ntitle: Hands-on Morfessor\ntype: "Tutorial"\nvenue: LSA\ndate: 2022-07-11\n---\n',
        "_talks/b.md": '---\ntitle: Compound splitting\ntype: "Talk"\nvenue: NoDaLiDa\ndate: 2023-05-22\n---\n',
    }
    write_site(tmp_path, files)
    imported = read_old_site(tmp_path)
    talks = yaml.safe_load(imported.files[PurePosixPath("content/talks/talks.yaml")])
    assert [(talk["title"], talk.get("type")) for talk in talks] == [("Hands-on Morfessor", "Tutorial"), ("Compound splitting", None)]
    assert not [note for note in imported.left if "kinds of talks" in note]


def test_academicpages_semantic_scholar_link_comes_over_as_semantic_scholar(tmp_path):
    """academicpages' `semantic:` (its Semantic Scholar profile) came over under its own name, shown as "Semantic"."""
    from sitegen.migrate import read_old_site

    (tmp_path / "_publications").mkdir()
    (tmp_path / "_publications/p.md").write_text("---\ntitle: P\ndate: 2019-01-01\n---\n", encoding="utf-8")
    (tmp_path / "_config.yml").write_text("author:\n  name: Z\n  semantic: https://www.semanticscholar.org/author/123456789\n", encoding="utf-8")
    assert read_old_site(tmp_path).links == {"semantic_scholar": "https://www.semanticscholar.org/author/123456789"}


def test_a_publication_file_named_with_accents_comes_over_under_a_readable_name(tmp_path):
    """`_publications/2019-über-cafés.md` became the record `2019--ber-caf-s` (records/2019--ber-caf-s/): every letter
    outside ASCII a hyphen. Its copy is named as Jekyll and Hugo make addresses of names, accents dropped."""
    from sitegen.migrate import read_old_site

    files = {
        "_config.yml": "author:\n  name: Z\n",
        "_publications/2019-über-cafés.md": "---\ntitle: 'Café culture'\npermalink: /publication/2019-uber\ndate: 2019-03-01\n---\n",
    }
    write_site(tmp_path, files)
    imported = read_old_site(tmp_path)
    assert PurePosixPath("content/records/publications/2019-uber-cafes.md") in imported.files
    assert yaml.safe_load(imported.files[PurePosixPath("content/redirects.yaml")])["publication/2019-uber/"] == "records/2019-uber-cafes/"


def test_an_academicpages_portfolio_item_is_a_project_with_its_excerpt_and_picture(tmp_path):
    """academicpages shows a portfolio item's `excerpt` on its list, with the item's picture in it
    (`excerpt: "A segmenter<br/><img src='/images/morfseg.png'>"`): the project's description and picture."""
    from sitegen.migrate import read_old_site

    files = {
        "_config.yml": "author:\n  name: Z\n",
        "_publications/p.md": "---\ntitle: P\ndate: 2019-01-01\n---\n",
        "_portfolio/morfseg.md": "---\ntitle: morfseg\nexcerpt: \"A segmenter<br/><img src='/images/morfseg.png'>\"\n---\nOn GitHub.\n",
        "images/morfseg.png": "png",
    }
    write_site(tmp_path, files)
    imported = read_old_site(tmp_path)
    project = imported.files[PurePosixPath("content/projects/morfseg.md")].decode()
    assert project == "---\ntitle: morfseg\ndescription: A segmenter\nimage: static/projects/morfseg.png\n---\nOn GitHub.\n"
    assert imported.files[PurePosixPath("static/projects/morfseg.png")] == b"png"


def test_jekyll_drafts_left_behind_are_named(tmp_path):
    """Jekyll's `_drafts/` (posts not yet published) were left behind without a word."""
    from sitegen.migrate import read_old_site

    files = {
        "_config.yml": "author:\n  name: Z\n",
        "_publications/p.md": "---\ntitle: P\ndate: 2019-01-01\n---\n",
        "_drafts/unfinished.md": "---\ntitle: Unfinished\n---\nwip\n",
        "_drafts/other.markdown": "---\ntitle: Other\n---\nwip\n",
    }
    write_site(tmp_path, files)
    assert (
        "_drafts/: 2 drafts not brought over; to keep one, copy it into content/posts/_NAME.md with a `date:` (a draft, which `sitegen serve --drafts` shows)"
    ) in read_old_site(tmp_path).left


def test_a_quarto_listing_is_taken_for_what_its_items_folder_names(tmp_path):
    """One page with two listings (papers and posts): each listing's items are what their folder says; `about: jolla`
    (the template's name alone) is an about page; a citation that is no mapping, an author that is a number and a
    date Quarto fills in itself (`last-modified`) come over or are named, never a crash."""
    from sitegen.migrate import read_old_site

    write_site(
        tmp_path,
        {
            "_quarto.yml": "project:\n  type: website\nwebsite:\n  navbar: oops\n",
            "index.qmd": "---\ntitle: Ada Lindqvist\nabout: jolla\n---\nHi.\n",
            "papers.qmd": "---\ntitle: Work\nlisting:\n  - contents: pubs\n  - contents: posts\n---\n",
            "pubs/p1.qmd": "---\ntitle: P1\ndate: last-modified\ncitation: true\n---\n",
            "pubs/p2.qmd": "---\ntitle: P2\nauthor: [{name: A B}, 7]\ndate: 2020\ncitation: {type: webpage, foo: bar}\n---\n",
            "posts/a.qmd": "---\ntitle: A post\ndate: 2024-01-02\n---\nText.\n",
        },
    )
    imported = read_old_site(tmp_path)
    assert (imported.tool, imported.name, imported.bio) == ("Quarto", "Ada Lindqvist", "Hi.")
    assert not [note for note in imported.left if "about:" in note]  # `about: jolla` is one
    assert sorted(str(path) for path in imported.files if "records" in str(path) or "posts" in str(path)) == [
        "content/posts/2024-01-02-a.md",
        "content/records/publications/p2.md",
    ]
    record = yaml.safe_load(imported.files[PurePosixPath("content/records/publications/p2.md")].decode().split("---")[1])
    assert record == {"title": "P2", "authors": ["A B", "7"], "year": 2020}
    notes = "\n".join(imported.left)
    assert "pubs/p1.qmd: no date: not brought over" in notes and "citation type webpage has no type of sitegen's" in notes
    assert "pubs/p2.qmd: citation fields foo not brought over" in notes
