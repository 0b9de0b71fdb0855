"""People's names as keys and as URL slugs.

Two spellings are one name when they differ only in case, accents, punctuation,
spacing or BibTeX's "Last, First" order: 'Sheng Lin', 'sheng  LIN', 'Lin, Sheng';
a Chinese, Japanese or Korean name with or without a space between its characters
('李 华', '李华'), which says nothing in those scripts, is one name too.
Initials are not folded ('S. Lin' is its own name): on a site with many authors
'S. Lin' may be Shan Lin, and a person file lists the variants that are theirs.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata

from sitegen.disambiguate import plain_name
from sitegen.names import csl_name, is_braced_whole, is_family_first, written_csl_name
from sitegen.urls import ASCII_SPELLING, WINDOWS_DEVICE_NAME

_NOT_WORD = re.compile(r"[\W_]+")
# Han, kana and Hangul (its syllables as NFKD leaves them: jamo): a space between two of them is none ('李 华' is '李华')
_CJK = "\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f"
_SPACE_IN_CJK = re.compile(f"(?<=[{_CJK}]) (?=[{_CJK}])")
# an arXiv author id (lin_s_1, or an ORCID iD, which arXiv takes too), bare or in the address of its author page
_ARXIV_AUTHOR_ID = re.compile(r"[A-Za-z0-9_.\-]+")
_ARXIV_AUTHOR_PAGE = re.compile(r"https?://(?:www\.|export\.)?arxiv\.org/a/([A-Za-z0-9_.\-]+?)(?:\.(?:html|atom2?|json))?/?", re.IGNORECASE)
NAME_KEYS_KEPT = 1 << 19  # distinct author names remembered per process (a directory of 100,000 records has ~300,000)


def arxiv_author_id(link: str | None) -> str | None:
    """The arXiv author id of a `links: arxiv:` value: the id itself (`lin_s_1`, as the page's link is made of it) or
    the address of the author's page (`https://arxiv.org/a/lin_s_1`, `.html`); None for another link (a search)."""
    if not link:
        return None
    value = link.strip()
    if "://" not in value:
        return value if _ARXIV_AUTHOR_ID.fullmatch(value) else None
    page = _ARXIV_AUTHOR_PAGE.fullmatch(value)
    return page[1] if page else None


@functools.lru_cache(maxsize=NAME_KEYS_KEPT)
def person_key(name: str) -> str:
    """The form in which spellings of one name compare equal (letters of every script are kept)."""
    key = spaced_person_key(name)
    return key if key.isascii() else _SPACE_IN_CJK.sub("", key)


def spaced_person_key(name: str) -> str:
    """`person_key` as it was before it read '李 华' as '李华': the key a person's page address was made of then
    (sitegen.people.attribution keeps those addresses leading on)."""
    plain = plain_name(name) if ("\\" in name or "{" in name) else name
    last, comma, first = plain.partition(",")
    if comma and first.strip() and "," not in first:
        plain = f"{last} {first}" if is_family_first(plain) else f"{first} {last}"  # '山田, 太郎' is '山田 太郎'
    if plain.isascii():
        return " ".join(_NOT_WORD.sub(" ", plain.lower()).split())
    text = unicodedata.normalize("NFKD", plain)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    return " ".join(_NOT_WORD.sub(" ", text).split())


def name_slug(key: str) -> str:
    """A name key as a folder name: 'sheng lin' -> 'sheng-lin'.

    Letters with no ASCII spelling ('王伟') leave a short hash of the name, so that two
    such names never share a page.
    """
    text = key.translate(ASCII_SPELLING)  # letters NFKD does not take apart, so that slugs stay readable
    if text.isascii():
        slug = text.replace(" ", "-") or "person"
    else:
        kept = "-".join(word for word in (w.encode("ascii", "ignore").decode() for w in text.split()) if word)
        slug = f"{kept or 'person'}-{hashlib.blake2b(key.encode(), digest_size=4).hexdigest()}"
    return f"{slug}-person" if WINDOWS_DEVICE_NAME.match(slug) else slug  # people/con/ could not be checked out on Windows


@functools.lru_cache(maxsize=NAME_KEYS_KEPT)
def family_name(name: str) -> str:
    """The family name a directory sorts a shown name by, folded as `person_key` folds names: BibTeX's split, as
    the exports make it (sitegen.names.csl_name): 'Jan van der Berg' is 'van der berg', 'María José
    García-Fernández de la Fuente' 'de la fuente' (a family name of several words is written 'García-Fernández de la
    Fuente, María José'), a Chinese, Japanese or Korean name's first word; a name written given name first in Latin
    letters ('Zhang Wei') is read as written. A one-word or group name is itself."""
    if is_braced_whole(name):  # '{Google DeepMind}': one unit
        return person_key(name)
    plain = plain_name(name) if ("\\" in name or "{" in name) else name
    split = written_csl_name(name) if ("," in name or "{" in name) else csl_name(plain)
    return person_key(split.get("family") or split.get("literal") or plain)


def initial(family: str) -> str:
    """The letter a directory lists a folded family name under: its first letter in capitals ('A' for 'álvarez',
    which is folded to 'alvarez'; '山' for '山田'); '#' for a name with no letter."""
    return family[:1].upper() if family[:1].isalpha() else "#"


def initial_id(letter: str) -> str:
    """The id of a letter's heading: 'letter-a', and for a letter outside ASCII its code point ('letter-u5c71')."""
    if letter == "#":
        return "letter-other"
    return f"letter-{letter.lower()}" if letter.isascii() else f"letter-u{ord(letter):x}"
