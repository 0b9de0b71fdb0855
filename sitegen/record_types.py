"""What kind of work a record is (SPEC §7): `article`, `inproceedings`, `preprint`, ...

A record may say its `type`; most do not (arXiv's feed, hand-written YAML), so it
is worked out from what the record holds: the BibTeX entry type it was read
from, its sources, its venue, its identifiers and links.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Callable, Iterable, Mapping

from sitegen.errors import quoted
from sitegen.model import ARXIV_VERSION, RECORD_TYPES, Record

# BibTeX and BibLaTeX entry types -> record type; the types missing here (misc,
# unpublished, online, ...) say nothing, and the record's content decides.
BIBTEX_ENTRY_TYPES = {
    "article": "article",
    "inproceedings": "inproceedings",
    "conference": "inproceedings",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "thesis": "thesis",
    "book": "book",
    "mvbook": "book",
    "booklet": "book",
    "proceedings": "book",
    "mvproceedings": "book",
    "collection": "book",
    "inbook": "chapter",
    "incollection": "chapter",
    "bookinbook": "chapter",
    "suppbook": "chapter",
    "techreport": "report",
    "report": "report",
    "manual": "report",
    "patent": "patent",
    "software": "software",
    "codefragment": "software",
    "dataset": "dataset",
    "data": "dataset",
}

# Venues that hold preprints, not published versions: "arXiv", "arXiv preprint arXiv:2401.01234",
# DBLP's "CoRR", "bioRxiv", "SSRN Electronic Journal", ...
PREPRINT_VENUE = re.compile(
    r"^\s*(?:arxiv|corr|biorxiv|medrxiv|chemrxiv|psyarxiv|socarxiv|engrxiv|techrxiv|eartharxiv|ssrn|research square|preprints?)\b"
    r"|\barxiv preprint\b|\be-?prints?\b",
    re.IGNORECASE,
)
# The words that name a kind of work in a venue, in English and in German, French, Spanish, Italian, Portuguese and
# Dutch (whole words: "Atti del Convegno" is proceedings, "Attitudes" is not), then in Japanese, Chinese and Korean,
# which write a word with no space before it (Korean joins a society's name and "journal": "정보과학회논문지"): there a
# word is found anywhere in the venue ("情報処理学会論文誌", "计算机学报").
_THESIS_WORDS = (
    "thesis|dissertation|doktorarbeit|masterarbeit|diplomarbeit|bachelorarbeit|magisterarbeit|habilitationsschrift"
    "|thèse|mémoire|tesis|tesina|tesi|tese|dissertação|dissertacao|proefschrift|scriptie|masterscriptie"
)
_THESIS_CJK = "博士論文|修士論文|卒業論文|学位論文|博士论文|硕士论文|学位论文|碩士論文|學位論文|학위논문|박사논문|석사논문"
_REPORT_WORDS = (
    "technical report|tech\\. rep\\.|white paper|working paper"
    "|technischer bericht|forschungsbericht|arbeitsbericht|arbeitspapier|diskussionspapier"
    "|rapport technique|rapport de recherche|document de travail|informe técnico|informe tecnico|reporte técnico"
    "|documento de trabajo|rapporto tecnico|relazione tecnica|relatório técnico|relatorio tecnico"
    "|relatório de pesquisa|technisch rapport|onderzoeksrapport"
)
_REPORT_CJK = "研究報告|技術報告|テクニカルレポート|技術レポート|技术报告|研究报告|기술보고서|연구보고서"
_CHAPTER_WORDS = "kapitel|chapitre|capítulo|capitulo|capitolo|hoofdstuk"
_CHAPTER_CJK = "分担執筆|章节"
_PROCEEDINGS_WORDS = (
    "proceedings|conference|workshop|symposium|colloquium"
    "|tagungsband|tagungsbände|konferenzband|konferenz|tagung|jahrestagung|kolloquium"
    "|actes|conférence|colloque|congrès|journées|actas|congreso|conferencia|jornadas|simposio"
    "|atti|convegno|conferenza|congresso|anais|atas|conferência|simpósio|simposio"
    "|handelingen|congres|conferentie"
)
_PROCEEDINGS_CJK = "予稿集|講演論文集|講演集|会議録|会議|シンポジウム|全国大会|会议|會議|研讨会|研討會|论文集|학술대회|학술발표|심포지엄|워크숍"
_JOURNAL_WORDS = (
    "journal|transactions|letters|review|magazine|annals|bulletin|communications|acta|inventiones"
    "|zeitschrift|zeitschriften|jahrbuch|mitteilungen|spektrum|revue|annales|cahiers|comptes rendus"
    "|revista|boletín|boletin|anales|cuadernos|rivista|giornale|bollettino|annali|quaderni|boletim"
    "|tijdschrift|mededelingen|jaarboek"
)
_JOURNAL_CJK = "論文誌|学会誌|学術誌|雑誌|ジャーナル|紀要|学报|學報|期刊|杂志|雜誌|논문지|학회지|학술지|저널"
# ... and in Persian (as Persian and as Arabic keyboards type it: ی or ي, ک or ك), Arabic and Hebrew, which join an
# article or a preposition to the word ("المجلة", "הכנס"): there too a word is found anywhere in the venue
_Y, _K = "[یي]", "[کك]"
_THESIS_RTL = f"پا{_Y}ان[\u200c ]?نامه|رساله[ٔ]? د{_K}تر{_Y}|أطروحة|اطروحة|رسالة ماجستير|رسالة د{_K}توراه|עבודת דוקטורט|עבודת גמר|עבודת מוסמך"
_REPORT_RTL = f'گزارش فن{_Y}|تقرير تقني|تقرير فني|דו"?ח טכני'
_PROCEEDINGS_RTL = f"{_K}نفرانس|هما{_Y}ش|مجموعه مقالات|مؤتمر|ندوة|وقائع|כנס(?![\u05d0-\u05ea])|דברי הכנס"
_JOURNAL_RTL = f"مجله|مجلة|نشر{_Y}ه|فصل[\u200c ]?نامه|ماهنامه|دورية|حوليات|כתב עת|כתב העת|רבעון"


def _venue_words(words: str, cjk: str = "") -> re.Pattern[str]:
    """Whole words (a letter of any script next to one makes it part of another word), or CJK words anywhere."""
    return re.compile(rf"\b(?:{words})\b" + (f"|{cjk}" if cjk else ""), re.IGNORECASE)


_THESIS = _venue_words(_THESIS_WORDS, f"{_THESIS_CJK}|{_THESIS_RTL}")
_REPORT = _venue_words(_REPORT_WORDS, f"{_REPORT_CJK}|{_REPORT_RTL}")
_CHAPTER = _venue_words(_CHAPTER_WORDS, _CHAPTER_CJK)
_PROCEEDINGS = _venue_words(_PROCEEDINGS_WORDS, f"{_PROCEEDINGS_CJK}|{_PROCEEDINGS_RTL}")
_JOURNAL = _venue_words(_JOURNAL_WORDS, f"{_JOURNAL_CJK}|{_JOURNAL_RTL}")
# journals whose names say "Proceedings": PNAS, Proceedings of the IEEE, of the Royal Society, PVLDB, PACM
_JOURNAL_OF_PROCEEDINGS = re.compile(
    r"\bproc(?:eedings|\.)? (?:of the )?(?:national academy|natl\.? acad)|\bproceedings of the ieee\s*$|\bproc\.? ieee\s*$"
    r"|\bproc(?:eedings|\.)? (?:of the )?(?:royal society|r\.? soc\.)|\bproc(?:eedings|\.)? (?:of the )?vldb endow|\bproceedings of the acm on\b",
    re.IGNORECASE,
)
# ISO 4 abbreviations of venue words, as journals' and proceedings' names are cited ("IEEE Trans. Pattern Anal.",
# "Phys. Rev. Lett.", "Proc. Int. Conf. ..."): a word and its period
# and mathematics' and physics' ("Comm. Math. Phys.", "Commun. ACM", "Invent. Math.", "Math. Z.", "Izv. ...")
_JOURNAL_ABBREVIATION = re.compile(r"\b(?:J|Trans|Rev|Lett|Ann|Bull|Mag|Comm|Commun|Invent|Izv|Dokl)\.|\bMath\. Z\.", re.IGNORECASE)
_PROCEEDINGS_ABBREVIATION = re.compile(r"\b(?:Proc|Conf|Symp)\.", re.IGNORECASE)
# The acronyms of widely known conferences and journals, as venues are written in CS ("CVPR 2023", "NeurIPS'22",
# "Proc. ICML", "IEEE TPAMI"): case and letters around them as written, digits allowed ("CVPR2023").
# Kept to names that are no word and no other venue's: an acronym missing here leaves the record's type
# to `type:` (validate warns of a hand-written record whose venue says nothing).
CONFERENCE_ACRONYMS = (
    "3DV", "AAAI", "AAMAS", "ACL", "AISTATS", "ASPLOS", "BMVC", "CHI", "CIKM", "COLING", "COLT", "CoNLL", "CoRL",
    "CVPR", "EACL", "ECCV", "ECIR", "EMNLP", "EuroSys", "FOCS", "HPCA", "ICALP", "ICASSP", "ICCV", "ICDE", "ICDM",
    "ICLR", "ICML", "ICRA", "IJCAI", "INTERSPEECH", "Interspeech", "IROS", "ISCA", "KDD", "MICCAI", "MICRO", "NAACL",
    "NDSS", "NeurIPS", "NIPS", "NSDI", "OSDI", "PLDI", "POPL", "RecSys", "SIGCOMM", "SIGGRAPH", "SIGIR", "SIGMOD",
    "SODA", "SOSP", "STOC", "UAI", "UIST", "VLDB", "WACV", "WSDM",
)  # fmt: skip
JOURNAL_ACRONYMS = (
    "CACM", "IJCV", "JACM", "JAIR", "JMLR", "PAMI", "PNAS", "PVLDB", "TACL", "TIP", "TKDE", "TMLR", "TNNLS", "TOG",
    "TPAMI", "TVCG",
)  # fmt: skip
_ACRONYM = r"(?<![A-Za-z])(?:{})(?![A-Za-z])"
_CONFERENCE = re.compile(_ACRONYM.format("|".join(CONFERENCE_ACRONYMS)))
_JOURNAL_ACRONYM = re.compile(_ACRONYM.format("|".join(JOURNAL_ACRONYMS)) + r"|^(?:Nature|Science|Cell|eLife|PLOS|PLoS)\b")
# where software lives: a record linking only here, with no venue, is software
CODE_HOSTS = re.compile(r"^https?://(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|sourceforge\.net)/", re.IGNORECASE)
# OpenReview's page of a paper (its reviews and discussion: every ICLR paper's, many NeurIPS and TMLR papers') and its PDF
_OPENREVIEW = re.compile(r"^https?://(?:www\.)?openreview\.net/(forum|pdf)\?", re.IGNORECASE)


def openreview_kind(url: str) -> str:
    """'openreview' for OpenReview's page of a paper, 'pdf' for its PDF (`/pdf?id=`, no '.pdf' to tell it by), else ''."""
    match = _OPENREVIEW.match(url)
    return ("openreview" if match.group(1).lower() == "forum" else "pdf") if match else ""


DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)  # how DOIs are often written
ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)  # DataCite's DOI of every arXiv preprint
# The DOIs of preprint servers, which name a preprint, never its published version: arXiv's; bioRxiv's and medRxiv's
# (10.1101/2022.11.03.515012, before December 2019 six digits, 10.1101/123456; Cold Spring Harbor's journals share the
# prefix with letters: 10.1101/gr.123.1); Research Square, SSRN, Preprints.org, OSF Preprints, PsyArXiv, SocArXiv,
# ChemRxiv, Authorea, TechRxiv and PeerJ Preprints.
PREPRINT_DOI = re.compile(
    r"^(?:10\.48550/arxiv\.|10\.1101/(?:\d{4}\.\d{2}\.\d{2}\.\d+|\d{6})(?:v\d+)?$|10\.21203/rs\.|10\.2139/ssrn\.|10\.20944/preprints"
    r"|10\.3123[45]/osf\.io/|10\.31219/osf\.io/|10\.26434/chemrxiv|10\.22541/au\.|10\.36227/techrxiv|10\.7287/peerj\.preprints)",
    re.IGNORECASE,
)
DOI = re.compile(r"^10\.\d{4,9}/\S+$")  # the directory's '10.', a registrant's number, '/', a suffix without spaces
# arXiv's ids: since 2007 2301.00001 (4 digits before 2015), before it hep-th/9901001 or math.GT/0309136; a version (v2) or not
ARXIV_ID = re.compile(r"^(?:\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Za-z-]{2,})?/\d{7})(?:v\d+)?$")
ARXIV_PREFIX = re.compile(r"^(?:arxiv:\s*|https?://(?:www\.|export\.)?arxiv\.org/abs/)", re.IGNORECASE)  # how ids are often written


# biblatex's entry types that say more of a work than its SPEC §7 type: the kind its lists name it by ("Book review"
# in place of "Journal article"), with the types it may have (a record typed otherwise by hand keeps its type's name)
WORK_KINDS = {
    "review": ("review", ("article", "other")),
    "inreference": ("entry", ("other", "chapter")),
    "collection": ("collection", ("book",)),
    "mvcollection": ("collection", ("book",)),
    "online": ("online", ("other",)),
}


def work_kind(kind: str, extra: Mapping[str, object]) -> str:
    """'review', 'entry' (in an encyclopedia or dictionary), 'collection' (an edited volume) or 'online' for a record read
    from such a biblatex entry (`bibtex_type`) and of a type that fits it; '' for any other record."""
    found = WORK_KINDS.get(str(extra.get("bibtex_type", "")).lower())
    return found[0] if found and kind in found[1] else ""


def numbers_a_series(kind: str, extra: Mapping[str, object]) -> bool:
    """Is a record's `number` its book's number in a series (biblatex's `number` of a @book, an @incollection, or
    proceedings with a `series`: 'Studies in Medieval and Reformation Traditions 218'), not a journal's issue?"""
    return kind in ("book", "chapter") or (kind == "inproceedings" and bool(extra.get("series")))


# a workshop's proceedings or a paper given at one: 'NeurIPS 2024 Workshop on ...', 'CVPR Workshops 2024'
_WORKSHOP_VENUE = re.compile(r"\bworkshops?\b", re.IGNORECASE)


def is_workshop_paper(kind: str, venues: Iterable[str]) -> bool:
    """Is a conference paper one of a workshop (its venue or short venue says 'Workshop'), which computer scientists
    tell apart from a conference's main track?"""
    return kind == "inproceedings" and any(_WORKSHOP_VENUE.search(venue) for venue in venues if venue)


def is_preprint_venue(source: str) -> bool:
    """Does this venue name a preprint server rather than a place of publication?"""
    return bool(source) and bool(PREPRINT_VENUE.search(source))


def infer_type(record: Record) -> str:
    """The record's `type`: its own when it names one of RECORD_TYPES, else worked out.

    A record whose every source is arXiv is a `preprint` (SPEC §7), whatever it says about a journal.
    """
    if record.type in RECORD_TYPES:
        return record.type
    contributing = set(record.sources) or ({record.origin.source} if record.origin else set())
    if contributing == {"arxiv"}:
        return "preprint"
    entry_type = str(record.extra.get("bibtex_type", "")).lower()
    if entry_type in ("", "misc", "online", "article") and rfc_number(record.doi, record.extra):
        return "report"
    return type_from_evidence(entry_type, record.source, record.arxiv, record.doi, record.links, title=record.title)


# The IETF's RFCs: their DOIs (the RFC Editor's, `10.17487/RFC9420`), and their names as exports write them ('RFC
# 9420', as the datatracker's BibTeX `howpublished` and Google Scholar's `note` say; 'Request for Comments 9420')
RFC_DOI = re.compile(r"^10\.17487/rfc0*(\d{1,5})$", re.IGNORECASE)
RFC_NAME = re.compile(r"^\s*(?:RFC|Request for Comments:?)\s*0*(\d{1,5})\.?\s*$", re.IGNORECASE)
RFC_SERIES = re.compile(r"^\s*(?:Request for Comments|RFC)\s*$", re.IGNORECASE)
RFC_TEXT_FIELDS = ("howpublished", "note", "number")


def rfc_number(doi: str | None, extra: Mapping[str, object]) -> str:
    """The number of the RFC a record is ('9420'), '' when it is none: its DOI (the RFC Editor's), a `number` in the
    series or of the report type Request for Comments (the datatracker's BibTeX, Zotero's report), or a `howpublished`, `note` or `number` that names it
    ('RFC 9420', as the datatracker and Google Scholar write it)."""
    if doi and (match := RFC_DOI.match(bare_doi(doi))):
        return match.group(1)
    number = str(extra.get("number", "")).strip()
    for series in (extra.get("series"), extra.get("report_type")):  # Zotero's report type: 'Request for Comments'
        if isinstance(series, str) and RFC_SERIES.match(series) and number.isdigit():
            return str(int(number))
    for name in RFC_TEXT_FIELDS:
        value = extra.get(name)
        if isinstance(value, str) and (match := RFC_NAME.match(value)):
            return match.group(1)
    return ""


def type_from_evidence(
    entry_type: str,
    source: str,
    arxiv: str | None,
    doi: str | None,
    links: Mapping[str, str],
    words: str = "",
    title: str = "",
) -> str:
    """The type a work's description points at. `words`: free text that may name the kind (a BibTeX note)."""
    decided = BIBTEX_ENTRY_TYPES.get(entry_type)
    if decided and decided != "article":
        return decided
    if (doi and RFC_DOI.match(bare_doi(doi))) or any(RFC_NAME.match(part) for part in words.split("\n")):
        return "report"  # an RFC: the IETF's, published by the RFC Editor (Crossref's and Zotero's type for it)
    if is_preprint_venue(source) or (not source and ((arxiv and not published_doi(doi)) or is_preprint_doi(doi))):
        return "preprint"  # Google Scholar's `@article{journal = {arXiv preprint ...}}` included
    if decided:
        return decided
    return _type_from_venue(source) or _type_from_words_and_links(words, links, source) or _type_from_repository(source, doi, title) or "other"


# Repositories that hold data alone (their names as a venue, their DOIs' prefixes): what they put out is a dataset
DATA_REPOSITORIES = re.compile(
    r"^(?:Dryad(?: Digital Repository)?|PANGAEA|(?:Harvard )?Dataverse|figshare|Mendeley Data|4TU\.ResearchData|ICPSR|"
    r"Data Archiving and Networked Services \(DANS\))$",
    re.IGNORECASE,
)
DATA_DOIS = re.compile(r"^10\.(?:5061/dryad\.|1594/pangaea\.|7910/dvn/|6084/m9\.figshare\.|17632/|4121/)", re.IGNORECASE)
# DataCite's DOIs of repositories of software and data (Zenodo, figshare, Dryad, PANGAEA, Dataverse, Mendeley Data,
# 4TU.ResearchData, ICPSR, DANS): Crossref holds none of them; OpenAlex does
DATACITE_REPOSITORY_DOIS = re.compile(r"^10\.(?:5281|6084|5061|1594|7910|17632|4121|3886|17026)/", re.IGNORECASE)
# the title Zenodo gives a GitHub release it archives ("owner/repository: v2.3.1"): a piece of software
GITHUB_RELEASE_TITLE = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+: v?\d[\w.+-]*")


def _type_from_repository(source: str, doi: str | None, title: str) -> str:
    """A data repository's work is a dataset (figshare's, Dryad's and DataCite's exports are `@misc`); Zenodo's
    archive of a GitHub release, titled so, is software."""
    if DATA_REPOSITORIES.match(source.strip()) or (doi and DATA_DOIS.match(bare_doi(doi))):
        return "dataset"
    if GITHUB_RELEASE_TITLE.match(title.strip()):
        return "software"
    return ""


def _type_from_venue(source: str) -> str:
    """What the venue's name says: its words ("Proceedings of ...", "Journal of ..."), then their abbreviations, then
    the acronym of a well-known venue; '' when it says nothing (the record is then `other`)."""
    if _THESIS.search(source):
        return "thesis"
    if _REPORT.search(source):
        return "report"
    if _CHAPTER.search(source):
        return "chapter"
    if _JOURNAL_OF_PROCEEDINGS.search(source):
        return "article"
    if _PROCEEDINGS.search(source):
        return "inproceedings"
    if _JOURNAL.search(source):
        return "article"
    if _PROCEEDINGS_ABBREVIATION.search(source):
        return "inproceedings"
    if _JOURNAL_ABBREVIATION.search(source) or _JOURNAL_ACRONYM.search(source):
        return "article"
    if _CONFERENCE.search(source):
        return "inproceedings"
    return ""


def _type_from_words_and_links(words: str, links: Mapping[str, str], source: str) -> str:
    lowered = words.lower()
    if "software" in lowered:
        return "software"
    if "dataset" in lowered or "data set" in lowered:
        return "dataset"
    if "patent" in lowered:
        return "patent"
    # nothing published, only a repository: a piece of software (a `@misc` for a GitHub project)
    if not source and links and all(CODE_HOSTS.match(url) or kind == "code" for kind, url in links.items()):
        return "software"
    return ""


def bare_doi(doi: str) -> str:
    """'https://doi.org/10.5555/X' and 'doi:10.5555/X' are '10.5555/X' (its case kept)."""
    return DOI_PREFIX.sub("", doi.strip())


def checked_doi(value: str | None) -> str | None:
    """The DOI `value` names, bare ('https://doi.org/10.1/X' -> '10.1/X'); None when it is not a DOI.

    One check for `sitegen fetch` (an identifier asked for) and the build (a record's `doi`), so
    that what one refuses the other does not turn into a link to nowhere."""
    if not value:
        return None
    doi = bare_doi(str(value))
    return doi if DOI.match(doi) else None


def not_a_doi(value: str) -> str:
    return f"{value!r} is not a DOI (like 10.14778/3742728.3742752)"


# what an address's path may hold as it is (RFC 3986's pchar and '/'; '%' too: a DOI copied from an address keeps
# its escapes); every other character ('<', '"', ' ', '#', '?', '{') is percent-encoded
_URL_PATH_SAFE = "/:@!$&'()*+,;=%"


def doi_url(doi: str) -> str:
    """The address of a DOI: 'https://doi.org/' and the DOI with every character an address cannot hold as it is
    percent-encoded ('10.1002/(SICI)...<469::AID-JBM7>...' -> '...%3C469::AID-JBM7%3E...'), as the DOI Handbook says.
    The one place a DOI becomes an address: a record's link, the citation formats' URL, every source's links."""
    return "https://doi.org/" + urllib.parse.quote(bare_doi(doi), safe=_URL_PATH_SAFE)


def checked_arxiv(value: str | None) -> str | None:
    """The arXiv id `value` names ('arXiv:2301.00001' and 'https://arxiv.org/abs/2301.00001' are '2301.00001', a
    version kept); None when it is not one of arXiv's ids."""
    if not value:
        return None
    arxiv = ARXIV_PREFIX.sub("", str(value).strip())
    return arxiv if ARXIV_ID.match(arxiv) else None


def arxiv_key(value: str | None) -> str:
    """The arXiv id `value` names without its version, lower-case, as records are matched by it ('arXiv:2301.01234v2'
    and 'https://arxiv.org/abs/2301.01234' are '2301.01234'); '' when it is no arXiv id."""
    arxiv = checked_arxiv(value)
    return ARXIV_VERSION.sub("", arxiv).lower() if arxiv else ""


def not_an_arxiv_id(value: str) -> str:
    return f"{quoted(value, 60)} is not an arXiv id (like 2301.00001, 2301.00001v2 or hep-th/9901001)"


def published_doi(doi: str | None) -> str:
    """The DOI of a published version, lower-case (DOIs ignore case); '' for none and for a preprint server's DOI
    (arXiv's DataCite DOIs, bioRxiv's and medRxiv's, ...: `PREPRINT_DOI`)."""
    if not doi:
        return ""
    normal = bare_doi(doi).lower()
    return "" if PREPRINT_DOI.match(normal) else normal


def is_preprint_doi(doi: str | None) -> bool:
    """Does this DOI name a preprint on a preprint server (arXiv, bioRxiv, medRxiv, SSRN, ...)?"""
    return bool(doi) and bool(PREPRINT_DOI.match(bare_doi(doi or "").lower()))


# a thesis's venue that names the degree first ('PhD thesis, ETH Zurich', "Master's thesis: X", 'Doctoral dissertation - X')
_THESIS_KIND = re.compile(r"^\s*(ph\.?\s?d\.?|doctoral|doctorate|master'?s?|m\.?sc\.?|bachelor'?s?)\s+(thesis|dissertation)\b\s*[,:;-]?\s*", re.I)
_THESIS_DEGREES = {"p": "phd", "d": "phd", "m": "masters", "b": "bachelors"}  # by the venue's first letter
_ENTRY_DEGREES = {"phdthesis": "phd", "mastersthesis": "masters"}


def thesis_venue(source: str, entry_type: str = "") -> tuple[str, str]:
    """A thesis's degree and institution, read once for every page and format: ('phd', 'University of Nordhaven')
    for the venue 'PhD thesis, University of Nordhaven'. The degree ('phd', 'masters' or 'bachelors') is the
    one the venue names first, else its BibTeX entry type's (`@phdthesis`, `@mastersthesis`), else '' (biblatex's
    `@thesis`, a YAML record naming only its university: no one may guess); the institution is the venue without it."""
    match = _THESIS_KIND.match(source)
    if match:
        return _THESIS_DEGREES[match[1][0].lower()], source[match.end() :].strip()
    return _ENTRY_DEGREES.get(entry_type.lower(), ""), source


# PubMed's identifiers: a PMID is digits; a PMCID is 'PMC' and digits (OpenAlex and some exports give the digits alone)
_PMID = re.compile(r"^\s*(?:pmid:?\s*|https?://(?:www\.)?(?:pubmed\.ncbi\.nlm\.nih\.gov|ncbi\.nlm\.nih\.gov/pubmed)/)?(\d{1,9})/?\s*$", re.IGNORECASE)
_PMCID = re.compile(
    r"^\s*(?:pmcid:?\s*|https?://(?:www\.ncbi\.nlm\.nih\.gov/pmc/articles/|pmc\.ncbi\.nlm\.nih\.gov/articles/))?(?:pmc)?(\d{1,9})/?\s*$",
    re.IGNORECASE,
)


def checked_pmid(value: str) -> str | None:
    """PubMed's id as digits ('38486001', from 'PMID: 38486001' or its PubMed address); None when it is none."""
    match = _PMID.match(value)
    return match.group(1) if match else None


def checked_pmcid(value: str) -> str | None:
    """PubMed Central's id as 'PMC' and digits (from 'PMC7410828', '7410828' or its address); None when it is none."""
    match = _PMCID.match(value)
    return f"PMC{match.group(1)}" if match else None


def pubmed_url(pmid: str) -> str:
    return f"https://pubmed.ncbi.nlm.nih.gov/{pmid}/"


def pmc_url(pmcid: str) -> str:
    return f"https://pmc.ncbi.nlm.nih.gov/articles/{pmcid}/"


# Clinical trials' registration numbers: ClinicalTrials.gov's, ISRCTN's, the EU's EudraCT (before 2023) and CTIS numbers
_TRIALS = (
    (re.compile(r"^NCT\d{8}$", re.IGNORECASE), "https://clinicaltrials.gov/study/{}"),
    (re.compile(r"^ISRCTN\d{8}$", re.IGNORECASE), "https://www.isrctn.com/{}"),
    (re.compile(r"^(?:EudraCT\s*)?(\d{4}-\d{6}-\d{2})$", re.IGNORECASE), "https://www.clinicaltrialsregister.eu/ctr-search/search?query={}"),
    (re.compile(r"^(?:CTIS\s*)?(\d{4}-\d{6}-\d{2}-\d{2})$", re.IGNORECASE), "https://euclinicaltrials.eu/search-for-clinical-trials/?lang=en&EUCT={}"),
)


def trial_url(trial: str) -> str | None:
    """The address of a clinical trial's registration ('NCT04567890': ClinicalTrials.gov's page), the address itself
    when one is given, None for what is neither."""
    trial = trial.strip()
    if trial.startswith(("https://", "http://")):
        return trial
    for pattern, address in _TRIALS:
        if match := pattern.match(trial):
            number = match.group(1) if match.groups() else trial.upper()
            return address.format(number)
    return None


# A work's page in its field's databases, by the id a record gives in `ids`: NASA ADS's bibcode (astronomy and
# physics), INSPIRE's literature record (high-energy physics), MathSciNet's MR number and zbMATH's Zbl number (or its
# document id) for mathematics. Each is read from the forms the databases' exports and pages write, and their addresses.
_BIBCODE = re.compile(r"^\d{4}[A-Za-z0-9&.]{14}[A-Za-z.]$")  # 19 characters: 2019ApJ...875L...1E, 2020A&A...641A..12O
_ADS_ADDRESS = re.compile(r"^https?://(?:ui\.)?adsabs\.harvard\.edu/(?:#?abs/)([^/?#\s]+)", re.IGNORECASE)
_MR_NUMBER = re.compile(r"^\s*(?:MR\s*)?0*(\d{1,9})(?:\s*\([^)]*\))?\s*$", re.IGNORECASE)  # old exports: '1234567 (96k:11002)'
_MR_ADDRESS = re.compile(r"^https?://(?:www\.)?(?:mathscinet\.)?ams\.org/(?:mathscinet-getitem|mathscinet/.*)[?&]mr=(?:MR)?0*(\d{1,9})\b", re.IGNORECASE)
_ZBL_NUMBER = re.compile(r"^\s*(?:Zbl\s*)?(\d{4}\.\d{5}|\d{1,8})\s*$", re.IGNORECASE)  # Zbl 1434.05098, or zbMATH's 07123456
_ZBMATH_ADDRESS = re.compile(r"^https?://(?:www\.)?zbmath\.org/\?(?:q|format=complete&q)=an:?(?:%3A)?\s*(\d{4}\.\d{5}|\d{1,8})\b", re.IGNORECASE)
_INSPIRE = re.compile(r"^\s*(?:https?://(?:www\.)?inspirehep\.net/(?:literature|record)/)?(\d{1,9})/?\s*$", re.IGNORECASE)


def checked_bibcode(value: str) -> str | None:
    """NASA ADS's bibcode ('2019ApJ...875L...1E', from itself or its ADS address, as ADS's `adsurl` writes it)."""
    value = value.strip()
    if match := _ADS_ADDRESS.match(value):
        value = urllib.parse.unquote(match.group(1))
    value = value.replace("\\&", "&")
    return value if _BIBCODE.match(value) else None


def checked_mr(value: str) -> str | None:
    """MathSciNet's MR number as digits ('3456789', from 'MR3456789', '3456789 (96k:11002)' or its address)."""
    match = _MR_ADDRESS.match(value.strip()) or _MR_NUMBER.match(value)
    return match.group(1) if match else None


def checked_zbmath(value: str) -> str | None:
    """zbMATH's Zbl number ('1434.05098'), or its document id as zbMATH writes it in addresses ('07123456', eight
    digits, which its BibTeX writes without the leading zeros: `zbMATH = {7123456}`); from either or its address."""
    match = _ZBMATH_ADDRESS.match(value.strip()) or _ZBL_NUMBER.match(value)
    if match is None:
        return None
    number = match.group(1)
    return number if "." in number else number.zfill(8)


def checked_inspire(value: str) -> str | None:
    """INSPIRE's literature record number ('1426542', from itself or its address), as al-folio's `inspirehep_id`."""
    match = _INSPIRE.match(value)
    return match.group(1) if match else None


# id name (in `ids`) -> the link's kind, the id's check, its address, what it is called, an example
DATABASE_IDS: dict[str, tuple[str, Callable[[str], str | None], str, str, str]] = {
    "ads": ("ads", checked_bibcode, "https://ui.adsabs.harvard.edu/abs/{}", "an ADS bibcode", "2019ApJ...875L...1E"),
    "inspire": ("inspire", checked_inspire, "https://inspirehep.net/literature/{}", "an INSPIRE record number", "1426542"),
    "mr": ("mathscinet", checked_mr, "https://mathscinet.ams.org/mathscinet-getitem?mr={}", "a MathSciNet number", "MR3456789"),
    "zbmath": ("zbmath", checked_zbmath, "https://zbmath.org/?q=an:{}", "a zbMATH number", "Zbl 1434.05098"),
}


def database_url(name: str, value: str) -> str:
    """The address of a work's page in a database of DATABASE_IDS, by its id there (checked)."""
    return DATABASE_IDS[name][2].format(urllib.parse.quote(value, safe="."))


def database_link(url: str) -> tuple[str, str] | None:
    """The database of DATABASE_IDS and the id there of an address that is a work's page in one; None for any other."""
    for name, pattern in (("ads", _ADS_ADDRESS), ("mr", _MR_ADDRESS), ("zbmath", _ZBMATH_ADDRESS), ("inspire", _INSPIRE)):
        if pattern.match(url.strip()) and url.strip().lower().startswith("http") and (found := DATABASE_IDS[name][1](url)):
            return name, found
    return None
