"""A site kept on Windows: files as Notepad, PowerShell, Word, Explorer and the reference managers there write
them, in a repository that Git for Windows checks out with CRLF line ends (core.autocrlf=true) while a co-author's
Mac and the GitHub Actions runner check it out with LF. Each machine must build the same site from it."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_SITE, rendered_files, run_sitegen, write_site

from sitegen.build import check_site
from sitegen.errors import ContentError

# Every kind of text file, each with what a line end changes if it is kept: YAML block scalars (folded and
# literal), a Markdown hard break, a table and a footnote (ids made from the text), a multi-line BibTeX value,
# a RIS file (read line by line), front matter, a template of the site's own.
SITE_IN_EVERY_FORMAT = {
    **MINIMAL_SITE,
    "content/profile.yaml": (
        "name: Anna Müller\n"
        "position: >\n  Professor of\n  Mathematics\n"
        "bio: |\n  Anna works on *analysis*.\n  A line with a hard break  \n  after it.\n\n  A second paragraph.\n"
    ),
    "content/records/folded.yaml": (
        "id: folded-2021\ntitle: >-\n  A folded\n  title\nauthors: [Anna Müller, Bob Smith]\nyear: 2021\n"
        "source: Journal of Folding\nabstract: |\n  First line.\n  Second line   \n  third line.\n\n  New paragraph.\n"
    ),
    "content/records/exported.bib": (
        "@article{Mueller2020,\n  title = {On {CRLF} line\n           endings},\n"
        '  author = {M{\\"u}ller, Anna and Smith, Bob},\n  journal = {Journal of Windows},\n  year = {2020},\n'
        "  abstract = {An abstract over\n    two lines.\n\n    And a paragraph.},\n}\n"
    ),
    "content/records/endnote.ris": "TY  - JOUR\nAU  - Müller, Anna\nTI  - A RIS title\nPY  - 2018\nJO  - RIS Journal\nAB  - An abstract.\nER  - \n",
    "content/pages/about.md": (
        '---\ntitle: "About"\nnav: 1\n---\nA line with a hard break  \nafter it, and a note.[^1]\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[^1]: The note.\n'
    ),
    "content/posts/first.md": "---\ntitle: First post\ndate: 2024-05-01\n---\nPost body line one\nline two.\n",
    "content/news/grant.md": "---\ndate: 2024-06-01\n---\nWe got a *grant*.\nSecond line.\n",
    "templates/partials/search.html": "<form>\n  <input\n    name=q>\n</form>\n",
}


def _written_with(tmp_path, line_end: str) -> dict[str, bytes]:
    site = write_site(tmp_path / repr(line_end), {})
    for name, text in SITE_IN_EVERY_FORMAT.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_bytes(text.replace("\n", line_end).encode())
    return rendered_files(site)


@pytest.mark.parametrize("line_end", ["\r\n", "\r"], ids=["CRLF (Windows)", "CR (classic Mac)"])
def test_line_ends_change_no_byte_of_the_site(tmp_path, line_end: str) -> None:
    """The Windows checkout (CRLF), and a file an old Mac program saved (CR), build what the LF checkout builds."""
    with_lf = _written_with(tmp_path, "\n")
    assert {"records/folded-2021/index.html", "records/Mueller2020/index.html", "about/index.html", "posts/first/index.html"} <= set(with_lf)
    assert _written_with(tmp_path, line_end) == with_lf


def test_a_file_of_mixed_line_ends_reads_as_its_lines(tmp_path) -> None:
    """A file edited on both machines without autocrlf: CRLF lines and LF lines in one file."""
    site = write_site(tmp_path, MINIMAL_SITE)
    (site / "content/pages").mkdir(parents=True)
    (site / "content/pages/mixed.md").write_bytes(b'---\r\ntitle: "Mixed"\nnav: x\r\n---\nText.\r\n')
    with pytest.raises(ContentError) as caught:
        check_site(site)
    assert [str(problem) for problem in caught.value.problems] == ["content/pages/mixed.md:3: field 'nav': expected a whole number, got 'x'"]


# What Windows and Office write beside a user's files by themselves: Explorer's thumbnail cache (pictures of every
# picture of the folder, deleted ones too) and folder settings, and Word's, Excel's and PowerPoint's owner file of
# a document open in them (the user's name in it).
WRITTEN_BY_WINDOWS = ["Thumbs.db", "ehthumbs.db", "desktop.ini", "~$draft.docx", "~$rades.xlsx"]


def test_what_windows_and_office_leave_in_a_folder_is_no_part_of_the_site(tmp_path) -> None:
    site = write_site(tmp_path, {**MINIMAL_SITE, "static/files/paper.pdf": "%PDF-1.4\n", "content/pages/about.md": "---\ntitle: About\n---\nText.\n"})
    for folder in ("static", "static/files", "content", "content/records", "content/pages", "templates"):
        for name in WRITTEN_BY_WINDOWS:
            (site / folder).mkdir(parents=True, exist_ok=True)
            (site / folder / name).write_bytes(b"\x00\x01 written by Windows")
    for name in ("Desktop.ini", "THUMBS.DB"):  # in any case: Windows finds them so
        (site / "static/photos").mkdir(exist_ok=True)
        (site / "static/photos" / name).write_bytes(b"\x00\x01 written by Windows")
    result = run_sitegen("build", "--strict", cwd=site)
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    published = {path.name for path in (site / "output").rglob("*")}
    assert "paper.pdf" in published and not {name.lower() for name in published} & {"thumbs.db", "ehthumbs.db", "desktop.ini", "~$draft.docx", "~$rades.xlsx"}


def test_a_windows_path_in_the_text_of_a_page_is_named_as_written_and_says_what_to_write(tmp_path) -> None:
    """A link or picture copied from Explorer's address bar: backslashes (`\\U`, `\\f` read as LaTeX commands on
    the way) and a path on the writer's own disk, which no visitor can reach."""
    page = (
        "---\ntitle: Papers\n---\nIntro.\n\n"
        "[the paper](..\\files\\paper.pdf), [the photo](images\\photo.jpg)\n\n"
        "[my copy](C:\\Users\\me\\paper.pdf)\n\n"
        "![me](C:\\Users\\me\\Pictures\\me.jpg)\n"
    )
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/pages/papers.md": page, "static/files/paper.pdf": "%PDF-1.4\n", "static/images/photo.jpg": "jpg"})
    result = run_sitegen("check", cwd=site)
    assert result.returncode == 0, result.stderr
    on_your_computer = "is a file on your computer (this looks like a Windows path), which no visitor can reach: put the file in static/ and write static/NAME"
    assert result.stderr.splitlines() == [
        f"content/pages/papers.md:10: warning: picture 'C:\\Users\\me\\Pictures\\me.jpg' left out: 'C:\\Users\\me\\Pictures\\me.jpg' {on_your_computer} (use / in paths)",
        f"content/pages/papers.md:8: warning: link 'C:\\Users\\me\\paper.pdf': 'C:\\Users\\me\\paper.pdf' {on_your_computer} (use / in paths); the link is left out (its text stays)",
        "content/pages/papers.md:6: warning: link in the text: '..\\files\\paper.pdf' is no file of the site: use / in paths, this looks like a Windows path; did you mean 'static/files/paper.pdf'?",
        "content/pages/papers.md:6: warning: link in the text: 'images\\photo.jpg' is no file of the site: use / in paths, this looks like a Windows path; did you mean 'static/images/photo.jpg'?",
        "ok: 3 pages would be built",
    ]


def test_a_photo_on_the_writers_own_disk_says_to_copy_it_into_static(tmp_path) -> None:
    profile = "name: Anna Müller\nphoto: 'C:\\Users\\anna\\Pictures\\Anna 2024.jpg'\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/profile.yaml": profile})
    result = run_sitegen("check", cwd=site)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        "content/profile.yaml:2: warning: field 'photo': 'C:\\Users\\anna\\Pictures\\Anna 2024.jpg' is a file on your computer "
        "(this looks like a Windows path), which no visitor can reach: copy it into static/ and write its name there, "
        "photo: 'Anna 2024.jpg'; the photo is left out"
    )


def test_a_file_that_a_windows_clone_cannot_hold_is_named(tmp_path) -> None:
    """A co-author's Mac, or Linux, can hold files that a Windows clone cannot: Git for Windows stops at 'invalid path'
    for a device name or a name ending in '.' or ' ', and of two names that differ only in case it keeps one (the
    other record gone from the Windows user's builds, and shown as modified in `git status`)."""
    files = {
        **MINIMAL_SITE,
        "content/records/smith.yaml": "id: smith-2020\ntitle: One\nauthors: [A B]\nyear: 2020\nsource: Journal of X\n",
        "content/records/Smith.yaml": "id: smith-2021\ntitle: Two\nauthors: [A B]\nyear: 2021\nsource: Journal of X\n",
        "static/aux.pdf": "%PDF",
        "static/files/con": "x",
        "static/files/notes.": "x",
        "static/files/draft ": "x",
        "static/files/why?.txt": "x",
        "static/files/fine.pdf": "%PDF",
    }
    site = write_site(tmp_path, files)
    result = run_sitegen("check", cwd=site)
    assert result.returncode == 0, result.stderr
    device = "CON, PRN, AUX, NUL, COM0-9 and LPT0-9 are device names there, with any extension"
    cannot = "Git for Windows cannot check it out (invalid path), so a clone there stops: rename it"
    assert [line for line in result.stderr.splitlines() if "Windows" in line] == [
        "content/records/Smith.yaml: warning: it and content/records/smith.yaml differ only in case: one file on Windows and macOS, "
        "where a clone keeps one of them: rename one, or put what they hold into one",
        f"static/aux.pdf: warning: Windows cannot hold a file of this name ({device}): {cannot}",
        f"static/files/con: warning: Windows cannot hold a file of this name ({device}): {cannot}",
        f"static/files/draft : warning: Windows cannot hold a file of this name (it drops a final space or '.'): {cannot}",
        f"static/files/notes.: warning: Windows cannot hold a file of this name (it drops a final space or '.'): {cannot}",
        f'static/files/why?.txt: warning: Windows cannot hold a file of this name (no name there holds < > : " / \\ | ? * or a control character): {cannot}',
    ]
    assert run_sitegen("check", "--strict", cwd=site).returncode != 0  # the check.yml of pull requests stops them


def test_a_reference_export_saved_as_utf16_says_how_to_save_it_as_utf8_not_how_to_reopen_latin1(tmp_path) -> None:
    """PowerShell 5's `>` (`Get-Content a.bib, b.bib > all.bib`) and Notepad's "Unicode" write UTF-16: the advice for
    a .bib or .ris file of an older encoding (reopen it as Windows-1252) would make it unreadable."""
    site = write_site(tmp_path, MINIMAL_SITE)
    (site / "content/records").mkdir(parents=True)
    (site / "content/records/all.bib").write_bytes("@article{a,\r\n  title = {T},\r\n}\r\n".encode("utf-16"))
    (site / "content/records/endnote.ris").write_bytes("TY  - JOUR\r\nTI  - T\r\nER  - \r\n".encode("utf-16"))
    with pytest.raises(ContentError) as caught:
        check_site(site)
    how = " (in Notepad: File, Save As, Encoding UTF-8; in PowerShell, whose > writes UTF-16: | Out-File -Encoding utf8 FILE)"
    assert sorted(str(problem) for problem in caught.value.problems) == [
        f"content/records/all.bib:1: not UTF-8 text (it looks like UTF-16): save the file as UTF-8{how}",
        f"content/records/endnote.ris:1: not UTF-8 text (it looks like UTF-16): save the file as UTF-8{how}",
    ]


def test_a_line_powershell_appended_to_requirements_txt_is_named_before_pip_stops_the_deployment(tmp_path) -> None:
    """`sitegen init` asks for a line in requirements.txt; PowerShell 5's `echo LINE >> requirements.txt` appends
    it in UTF-16, which pip on the Actions runner reads as a requirement spelt with NUL bytes."""
    site = write_site(tmp_path, MINIMAL_SITE)
    ours = "# sitegen\nsitegen-profiles~=0.1.0\n"
    appended = "sitegen-profiles @ git+https://github.com/o/r@0123abc\r\n".encode("utf-16-le")
    (site / "requirements.txt").write_bytes(ours.encode() + appended)
    result = run_sitegen("check", cwd=site)
    assert result.returncode == 0, result.stderr
    how = " (in Notepad: File, Save As, Encoding UTF-8; in PowerShell, whose > writes UTF-16: | Out-File -Encoding utf8 FILE)"
    assert result.stderr.splitlines()[0] == (
        "requirements.txt:3: warning: this line is UTF-16 (what PowerShell 5's >> appends), which pip cannot read: "
        f"the workflows would stop at 'Invalid requirement'; save the file as UTF-8{how}"
    )
    assert run_sitegen("build", "--strict", cwd=site).returncode != 0 and not (site / "output").exists()
    (site / "requirements.txt").write_bytes((ours + "sitegen~=0.1.0\n").encode("utf-16"))  # all UTF-16, with its mark: pip reads it
    result = run_sitegen("check", cwd=site)
    assert "requirements.txt:3: warning: 'sitegen~=0.1.0' installs the distribution named sitegen" in result.stderr, result.stderr


def test_a_link_to_a_file_in_other_capitals_names_the_file_as_it_is_spelt(tmp_path) -> None:
    """Windows' Explorer shows IMG_0001.JPG, the writer types img_0001.jpg: the picture shows on their machine, and
    GitHub Pages answers 404."""
    files = {
        **MINIMAL_SITE,
        "content/pages/about.md": "---\ntitle: About\n---\n![chart](static/chart.png)\n\n[paper](static/files/Paper.pdf), [teaching](Teaching/)\n",
        "content/pages/teaching.md": "---\ntitle: Teaching\n---\nText.\n",
        "static/Chart.PNG": "png",
        "static/files/paper.pdf": "%PDF",
    }
    result = run_sitegen("check", cwd=write_site(tmp_path, files))
    assert result.returncode == 0, result.stderr
    why = "(the web server tells capitals from small letters, as Windows and macOS do not)"
    assert result.stderr.splitlines()[:-1] == [
        f"content/pages/about.md:4: warning: link in the text: 'static/chart.png' is no file of the site; did you mean 'static/Chart.PNG'? {why}",
        f"content/pages/about.md:6: warning: link in the text: 'static/files/Paper.pdf' is no file of the site; did you mean 'static/files/paper.pdf'? {why}",
        f"content/pages/about.md:6: warning: link in the text: 'Teaching/' is no file of the site; did you mean 'teaching/'? {why}",
    ]


def test_output_to_a_pipe_in_a_windows_code_page_is_no_traceback(tmp_path) -> None:
    """Git Bash's terminal (mintty), a pipe or `> log.txt` on Windows give Python the code page (cp1252) for stdout,
    with no room for 'Ł' or a title's Greek: the command's report went on in a traceback, after the files were written."""
    result = run_sitegen("init", "site", "--name", "Łukasz Nowak", cwd=tmp_path, env={"PYTHONIOENCODING": "cp1252"})
    assert result.returncode == 0, result.stderr
    assert "created a sitegen site for \\u0141ukasz Nowak" in result.stdout and "Traceback" not in result.stderr
