"""The content of a researcher's homepage besides the records (SPEC §7).

Pages, a CV, news, talks and co-authors are read by the page kinds in
`sitegen/pages/` (pages.py, cv.py, news.py, talks.py, coauthors.py, menu.py);
what they share lives here: reading YAML front matter, checking fields with the
line to blame, and choosing the records a page or the CV shows.
"""
