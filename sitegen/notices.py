"""Corrections, retraction notices and retracted works (enrich stage).

A correction (an erratum, a corrigendum, "Author Correction: ..."), a retraction notice or an
expression of concern is published with a DOI of its own, and ORCID, Crossref, OpenAlex and PubMed
list it among a researcher's works; it is no paper of theirs. Such a notice is not listed, counted or
cited as a publication: the work it concerns links to it ("Correction", "Retraction notice"), and a
retraction marks that work retracted. A notice whose work is not on the site is left out, with a note.

A record is a notice when it says so (`notice: correction`, `retraction` or `concern`; `notice: none`
lists it as a publication), when its source says so (Crossref's `update-to`, OpenAlex's types
`erratum` and `retraction`, which the fetchers write as `notice`), or when its title starts as
publishers title them ("Author Correction: ...", "Erratum to: ...", "Corrigendum to “...”",
"Retraction Note: ...", "Expression of Concern: ...", PNAS's "Correction for Smith et al., ..."). The work it concerns is the one `notice_for`
names (a DOI or a record id; Crossref's `update-to` DOI), else the one whose title is the rest of
the notice's title.

A work is retracted when its record says `retracted: true` (Crossref's `updated-by` a retraction,
OpenAlex's `is_retracted`), when a retraction notice on the site concerns it, or when its title starts
"RETRACTED:" or "Retracted article:", as publishers retitle such works (and is one work with its preprint under the
title it had: sitegen.merge.unretracted_title). A title that starts "WITHDRAWN:" marks the work withdrawn.
"""

from __future__ import annotations

import dataclasses
import re

from sitegen.errors import Problem
from sitegen.merge import normal_doi, title_key, unretracted_title
from sitegen.model import Record, free_key
from sitegen.record_types import arxiv_key, bare_doi, doi_url

# `notice:` values a record may give, and what they mean ("none": a publication, whatever its title says)
NOTICE_VALUES = {
    "correction": "correction",
    "erratum": "correction",
    "corrigendum": "correction",
    "addendum": "correction",
    "retraction": "retraction",
    "withdrawal": "retraction",
    "concern": "concern",
    "expression_of_concern": "concern",
    "none": "",
}
# the link a notice becomes on the work it concerns
NOTICE_LINKS = {"correction": "correction", "retraction": "retraction", "concern": "concern"}
_NOTICE_TITLE = re.compile(
    r"^\s*(?P<kind>(?:(?:author|authors|publisher)(?:['’]s)?\s+)?(?:correction|corrigendum|erratum|errata|addendum)"
    r"|(?:notice\s+of\s+)?retraction(?:\s+(?:note|notice|statement))?"
    r"|(?:editorial\s+)?expression\s+of\s+concern)"
    r"\s*(?:(?:to|for|of|on|regarding)\b\s*)?(?::\s*|[-–—]\s+|(?=[\"“‘«„']))(?P<rest>.+)$",
    re.IGNORECASE | re.DOTALL,
)
# PNAS's form: "Correction for Lindqvist et al., <title>", "Retraction for Brenner and Park, <title>"
_NAMED_NOTICE_TITLE = re.compile(
    r"^\s*(?P<kind>correction|retraction)\s+for\s+[^,]{1,80}?(?:\s+et\s+al\.?|\s+and\s+[^,\s]+(?:\s+[^,\s]+)?),\s*(?P<rest>.+)$",
    re.IGNORECASE | re.DOTALL,
)
_RETRACTED_TITLE = re.compile(r"^\s*retracted(?:\s+article)?\s*[:\-–—]\s*\S", re.IGNORECASE)
_WITHDRAWN_TITLE = re.compile(r"^\s*withdrawn\s*[:\-–—]\s*\S", re.IGNORECASE)  # Elsevier's withdrawn article in press
_QUOTES = "\"“”‘’«»„'"
_BRACKETED_TAIL = re.compile(r"\s*\[[^\[\]]*\]\s*$")  # Elsevier's "Corrigendum to “X” [J. Mol. Biol. 431 (2019) 1-10]"


def notice_kind(record: Record) -> str:
    """'correction', 'retraction', 'concern', or '' for a publication."""
    given = record.extra.get("notice")
    if isinstance(given, str) and given.strip():
        return NOTICE_VALUES.get(given.strip().lower().replace(" ", "_"), "")
    match = _NOTICE_TITLE.match(record.title) or _NAMED_NOTICE_TITLE.match(record.title)
    if not match:
        return ""
    kind = match.group("kind").lower()
    if "retraction" in kind:
        return "retraction"
    return "concern" if "concern" in kind else "correction"


def is_retracted_title(title: str) -> bool:
    return bool(_RETRACTED_TITLE.match(title))


def concerned_title(title: str) -> str:
    """The title of the work a notice's title names: 'Author Correction: X' -> 'X', 'Corrigendum to “X” [J. 1]' -> 'X'."""
    match = _NOTICE_TITLE.match(title) or _NAMED_NOTICE_TITLE.match(title)
    rest = match.group("rest") if match else title
    rest = _BRACKETED_TAIL.sub("", rest).strip().strip(_QUOTES).strip()
    return rest.rstrip(".")


def attach_notices(records: list[Record]) -> tuple[list[Record], list[Problem]]:
    """The records with every notice left out (`hidden`) and linked from the work it concerns, and each work
    retracted marked so (`extra['retracted']`); a note for each notice, saying where it went."""
    problems: list[Problem] = []
    kinds = [notice_kind(r) if not r.hidden else "" for r in records]
    if not any(kinds) and not any(is_retracted_title(r.title) for r in records):
        return records, problems
    works = {i for i, kind in enumerate(kinds) if not kind and not records[i].hidden}
    by_doi: dict[str, int] = {}
    by_id: dict[str, int] = {}
    by_title: dict[str, int] = {}
    for i in sorted(works):
        record = records[i]
        # its ids: its own, those of the records merged into it (`aliases`), its arXiv id without a version
        pmid = f"pmid:{record.ids['pmid']}" if record.ids.get("pmid") else ""  # as the MEDLINE reader's notices name their work
        for name in (record.id, *record.aliases, arxiv_key(record.arxiv), arxiv_key(record.ids.get("arxiv")), pmid):
            if name:
                by_id.setdefault(name, i)
        # its DOIs: its own, its preprint's or published version's (`doi_preprint`, `doi_published`), older releases'
        for doi in (record.doi, *(value for name, value in record.ids.items() if name.startswith("doi"))):
            if doi:
                by_doi.setdefault(normal_doi(doi), i)
        by_title.setdefault(title_key(unretracted_title(record.title)), i)
    out = list(records)
    for i, kind in enumerate(kinds):
        if not kind:
            continue
        notice = records[i]
        target = _concerned(notice, by_doi, by_id, by_title)
        label = {"correction": "a correction", "retraction": "a retraction notice", "concern": "an expression of concern"}[kind]
        named = _named(notice)
        if target is None and named and not notice.fetched:
            problems.append(
                Problem(
                    f"record '{notice.id}' is {label}, but notice_for: {named!r} names no record on the site (by its DOI, id "
                    "or arXiv id): left out of the lists; write the DOI or the id of the work it concerns",
                    notice.where("notice_for") or notice.where("title"),
                    warning=True,
                )
            )
        elif target is None:
            problems.append(
                Problem(
                    f"record '{notice.id}' is {label} of a work that is not on the site: left out of the lists (add that work, "
                    "or name it with `notice_for: <its DOI or id>`; `notice: none` lists this record as a publication)",
                    notice.where("title"),
                    warning=True,
                    note=True,
                )
            )
        else:
            work = out[target]
            address = doi_url(notice.doi) if notice.doi else next(iter(notice.links.values()), "")
            links = dict(work.links)
            name = NOTICE_LINKS[kind]
            if address and address.lower() not in {link.lower() for link in links.values()}:  # a DOI's case is no other DOI
                links[free_key(links, name)] = address
            extra = {**work.extra, "retracted": True} if kind == "retraction" else work.extra
            # the key of everything derived from the work names the notice too: a notice added or removed makes its entry anew
            key = f"{work.source_key}+{kind}:{notice.source_key}" if work.source_key and notice.source_key else ""
            out[target] = dataclasses.replace(work, links=links, extra=extra, source_key=key)
            problems.append(
                Problem(
                    f"record '{notice.id}' is {label} of '{work.id}': shown as its link, not as a publication of its own",
                    notice.where("title"),
                    warning=True,
                    note=True,
                )
            )
        out[i] = dataclasses.replace(notice, hidden=True)
    return out, problems


def _named(notice: Record) -> str:
    """What the notice's `notice_for` names ('' for nothing)."""
    named = notice.extra.get("notice_for")
    return named.strip() if isinstance(named, str) else ""


def _concerned(notice: Record, by_doi: dict[str, int], by_id: dict[str, int], by_title: dict[str, int]) -> int | None:
    """The work `notice_for` names (an id, an alias, an arXiv id or a DOI), else the one the notice's title names: a
    DOI no record of the site gives (Crossref's `update-to`, when the paper's own entry has no DOI) falls back to it."""
    if value := _named(notice):
        for found in (by_id.get(value), by_id.get(arxiv_key(value)), by_doi.get(normal_doi(bare_doi(value) or value))):
            if found is not None:
                return found
    return by_title.get(title_key(concerned_title(notice.title)))


def retracted(record: Record) -> bool:
    """Is the work retracted: its record says so, or its title does ("RETRACTED: ...")."""
    return record.extra.get("retracted") is True or is_retracted_title(record.title)


def standing(record: Record) -> str:
    """'Retracted' or 'Withdrawn' when the work no longer stands, else '': said where it is cited (BibTeX's and CSL's
    `note`, RIS's `N1`) and in its feed entry's title, as the pages mark it."""
    return "Retracted" if retracted(record) else "Withdrawn" if withdrawn(record) else ""


def with_standing(text: str, record: Record, separator: str = ". ") -> str:
    """A note (or, with ': ', a title) that starts with the work's standing: 'Retracted. Publisher: AHA', 'Retracted',
    'Retracted: <title>'; as it was when the work stands, or when it says so already (a title "RETRACTED: ...")."""
    mark = standing(record)
    if not mark or text.strip().lower().startswith(mark.lower()):
        return text
    return f"{mark}{separator}{text}" if text.strip() else mark


def withdrawn(record: Record) -> bool:
    """Is the work withdrawn: its record says `withdrawn: true` (arXiv's withdrawal version, which the arXiv fetcher
    reads) or its title starts "WITHDRAWN:" (Elsevier's withdrawn article in press), and it is not retracted, the
    stronger mark. A published version's record does not take it
    from its preprint's (sitegen.merge)."""
    return (record.extra.get("withdrawn") is True or bool(_WITHDRAWN_TITLE.match(record.title))) and not retracted(record)
