"""Author and editor names as the exports need them: split into family, given and suffix, or kept whole.

A record writes each name as one string, first name first ("Lena Müller") or in
BibTeX's order ("Müller, Lena"), with LaTeX allowed. A name that is one unit, an
organisation's or a group's, is written in braces, as BibTeX protects it:
`{Google DeepMind}`. The BibTeX reader keeps those braces and a YAML record writes
them too (`authors: ["{Google DeepMind}"]`, quoted: YAML reads a bare `{` as a
mapping), so the record carries the fact through merging and the build cache as
part of the name itself; every page shows the name without them (LaTeX's braces
are not text), and the exports read them: BibTeX writes the name braced, CSL as a
`literal` (a style prints it whole, never "DeepMind, G."), RIS as it stands.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from sitegen.markup import render_inline
from sitegen.urls import ASCII_SPELLING

_SPACES = re.compile(r"\s+")
_PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "das", "dos", "du", "la", "le", "ter", "ten", "zu", "vom", "zum", "bin", "al", "el"}
SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}
_GROUP_WORDS = re.compile(
    r"\b(collaboration|consortium|team|group|committee|project|initiative|society|association|organi[sz]ation|institute|laboratory|network|alliance|inc|ltd|corporation"
    r"|universit\w*|department|faculty|school|college|cent(?:er|re)|foundation|agency|hospital|company|gmbh|llc)\b",
    re.I,
)
# Letters of the scripts whose names are written family name first, with or without a space between the two: Han
# (Chinese, Japanese kanji, Korean hanja), kana and Hangul
FAMILY_FIRST_LETTER = re.compile(
    "[\u1100-\u11ff\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\U00020000-\U0003134f]"
)
# The letters Arabic and Persian write differently, and Arabic keyboards and many databases type in Persian names
# (ي for ی, ك for ک), a name's ة as its ه, and the kashida that only stretches a word: one letter each, as names are
# compared (hamzas and harakat go with the accents: NFKD sets them apart)
ARABIC_LETTER_FORMS = str.maketrans({"\u064a": "\u06cc", "\u0649": "\u06cc", "\u0643": "\u06a9", "\u0629": "\u0647", "\u0640": None})
_LATIN = re.compile("[A-Za-z\u00c0-\u024f]")


# A mark after an author's name, as papers print them and al-folio's .bib files write them ('Okafor*, Amara N.',
# 'Chen Li*', 'Jonathan Reyes†', 'Li$^{*}$', 'Reyes\\textsuperscript{\\dag}'): equal contribution, corresponding author.
AUTHOR_MARK = r"(?:[*†‡§¶#]|\$\^\{?(?:\*|\\dagger|\\ddagger|\\dag|\\ddag|\\S|\\P|\\#|\#)\}?\$|\\textsuperscript\{\s*(?:\*|\\dag|\\ddag|\\textdagger|\\textdaggerdbl|†|‡|\#|\\#)\s*\}|\\dag(?![A-Za-z])|\\ddag(?![A-Za-z])|\\textdagger(?![A-Za-z])|\\textdaggerdbl(?![A-Za-z]))"
_MARK_TEXT = {"\\dagger": "†", "\\dag": "†", "\\textdagger": "†", "\\ddagger": "‡", "\\ddag": "‡", "\\textdaggerdbl": "‡", "\\S": "§", "\\P": "¶", "\\#": "#"}
_MARK_PART = re.compile(r"\\(?:dagger|ddagger|dag|ddag|textdaggerdbl|textdagger|S|P|#)(?![A-Za-z])|[*†‡§¶#]")


def mark_signs(written: str) -> str:
    """The signs of marks as written after a name ('$^{*}$\\textsuperscript{\\dag}'): '*†'."""
    return "".join(_MARK_TEXT.get(part, part) for part in _MARK_PART.findall(written))


def family_with_particles(particles: Sequence[str], family: str) -> str:
    """A family name with its particles before it, once: CSL-JSON's `non-dropping-particle: van` beside `family: van
    Dijk` (or CFF's `name-particle`), as some exports write both, is 'van Dijk', not 'van van Dijk'."""
    family = " ".join(family.split())
    written = [" ".join(particle.split()) for particle in particles if particle.strip()]
    for index in range(len(written)):  # the family name may start with all of them, or with the last ones
        if (family.casefold() + " ").startswith(" ".join(written[index:]).casefold() + " "):
            return " ".join([*written[:index], family])
    return " ".join([*written, family]).strip()


def is_family_first(name: str) -> bool:
    """A name written in Chinese, Japanese or Korean letters ('山田 太郎', '王伟', '김철수'): its family name comes
    first, on the page and in BibTeX's 'family, given' alike. A name with Latin letters is not ('Taro Yamada')."""
    return not name.isascii() and bool(FAMILY_FIRST_LETTER.search(name)) and not _LATIN.search(name)


def is_braced_whole(name: str) -> bool:
    """`{Google DeepMind}`: the name is one brace group, an organisation BibTeX must not split.
    `{\\"U}nal, Ali` is not: its first group closes before the name ends."""
    name = name.strip()
    if not (name.startswith("{") and name.endswith("}")):
        return False
    depth = 0
    for position, character in enumerate(name):
        if character in "{}" and (position == 0 or name[position - 1] != "\\"):
            depth += 1 if character == "{" else -1
            if depth == 0:
                return position == len(name) - 1
    return False


def is_organisation(written: str) -> bool:
    """A name written in braces (`{Google DeepMind}`), or one naming a group ("ATLAS Collaboration"): no person."""
    return is_braced_whole(written) or bool(_GROUP_WORDS.search(written))


def csl_name(name: str) -> dict[str, str]:
    """A display name ("Lena Müller", "Müller, Lena", "Jan van der Berg", "ATLAS Collaboration") as a CSL name.

    Styles abbreviate given names and put the family name first, so the two must be told apart;
    a group or a one-word name is a `literal` no style may cut up.
    """
    return csl_name_and_order(name)[0]


def csl_name_and_order(name: str) -> tuple[dict[str, str], bool]:
    """`csl_name`'s parts, and whether the name is written family name first with no comma ('山田 太郎', 'YAMADA
    Taro'), which BibTeX's 'First Last' rule would read the other way round."""
    name = _SPACES.sub(" ", name).strip()
    if "," in name:
        parts = comma_name_parts(name)
        if parts is None:  # an organisation's name with a comma, or one sitegen cannot read as a person's
            return {"literal": name}, False
        family, given, suffix = parts
        return {"family": family, "given": given, **({"suffix": suffix} if suffix else {})}, False
    words = name.split()
    if len(words) < 2 or _GROUP_WORDS.search(name):
        return {"literal": name}, False
    if is_family_first(name):  # '山田 太郎': the family name is the first word
        return {"family": words[0], "given": " ".join(words[1:])}, True
    if capitals := _family_in_capitals(words):  # 'YAMADA Taro': the family name is the one in capitals, first
        return {"family": " ".join(words[:capitals]), "given": " ".join(words[capitals:])}, True
    suffix = ""
    if words[-1].lower() in SUFFIXES and len(words) > 2:
        suffix = words.pop()
    # BibTeX's rule, so that CSL and RIS split a name as biber reads it back from publications.bib: the family name
    # starts at the first word after the given name that is in lower case ('Jean de La Fontaine': 'de La Fontaine'),
    # else it is the last word and the lower-case particles before it
    start = next((index for index in range(1, len(words) - 1) if words[index][0].islower()), len(words) - 1)
    while start > 1 and words[start - 1] in _PARTICLES:
        start -= 1
    result = {"family": " ".join(words[start:]), "given": " ".join(words[:start])}
    if suffix:
        result["suffix"] = suffix
    return result, False


def _family_in_capitals(words: Sequence[str]) -> int:
    """How many words of a name are a family name written first in capitals, as Japan's government and many Chinese,
    Korean and French CVs and databases write it ('YAMADA Taro', 'WANG Xiaoming', 'KIM Minsu', 'DUPONT Jean-Pierre'):
    0 for another name. Two capitals are initials ('JA Smith'), and three with no vowel too ('JRR Tolkien')."""
    count = 0
    while count < len(words) - 1 and _in_capitals(words[count]):
        count += 1
    rest = words[count:]
    return count if count and all(word[:1].isupper() and any(letter.islower() for letter in word) for word in rest) else 0


def family_in_capitals(name: str) -> bool:
    """'YAMADA Taro': a name whose family name is written first, in capitals (see _family_in_capitals)."""
    return "," not in name and bool(_family_in_capitals(_SPACES.sub(" ", name).strip().split()))


def _in_capitals(word: str) -> bool:
    letters = word.replace("-", "").replace("'", "")
    return letters.isalpha() and letters.isupper() and (len(letters) >= 4 or (len(letters) == 3 and any(vowel in letters for vowel in "AEIOUY")))


_KEPT_SPACE = "\ue010"  # a space inside a brace group of a written name ('José Luis {García Márquez}'), while it is split


@functools.lru_cache(maxsize=65536)
def written_csl_name(written: str) -> dict[str, str]:
    """A name as a record writes it (LaTeX, braces and BibTeX's order included) as a CSL name, its family name the
    one the writing says: 'García Márquez, José Luis' (the comma) and 'José Luis {García Márquez}' (BibTeX's braces
    keep words one) are family 'García Márquez', which `csl_name` of the name shown, 'José Luis García Márquez',
    could only guess to be 'Márquez'. A name in braces whole is a group's, a literal."""
    if is_braced_whole(written):
        return {"literal": shown_name(written)}
    words = _top_level_words(written)
    if "," in written or not any(is_braced_whole(word) for word in words):
        return csl_name(shown_name(written))
    # each word of the written name a word of the split, a group's spaces kept inside it
    kept = " ".join(shown_name(word).replace(" ", _KEPT_SPACE) for word in words)
    return {part: value.replace(_KEPT_SPACE, " ") for part, value in csl_name(kept).items()}


def _top_level_words(written: str) -> list[str]:
    """A written name's words, a brace group ('{García Márquez}') one word with its spaces."""
    words: list[str] = []
    current: list[str] = []
    depth = 0
    for position, character in enumerate(written):
        escaped = position > 0 and written[position - 1] == "\\"
        if character in "{}" and not escaped:
            depth = depth + 1 if character == "{" else max(depth - 1, 0)
        if character.isspace() and depth == 0:
            if current:
                words.append("".join(current))
            current = []
            continue
        current.append(character)
    if current:
        words.append("".join(current))
    return words


def family_first(name: dict[str, str]) -> str:
    """A CSL name as `Family, Given[, Suffix]` (RIS's form, and the form of Google Scholar's `citation_author`
    example, which Zotero splits at the comma: 'van der Berg, Jan'); a group's name as it is."""
    if "literal" in name:
        return name["literal"]
    return ", ".join(part for part in (name["family"], name.get("given", ""), name.get("suffix", "")) if part)


def written_editors(extra: dict[str, Any], field: str = "editors") -> list[str]:
    """A record's `editors` (a .bib file's `editor`, a YAML record's list of names), or with `field="translators"`
    its translators (a .bib file's `translator`), as written, LaTeX and braces included; an entry that is no name is
    passed over."""
    names = extra.get(field)
    if not isinstance(names, list):
        return []
    return [name for name in names if isinstance(name, str) and name.strip()]


def comma_name_parts(name: str) -> tuple[str, str, str] | None:
    """(family, given, suffix) of a person's name written in BibTeX's or RIS's order ('Müller, Lena', 'King, Jr.,
    Martin Luther', 'Doe, Jane, Jr.'); None for a name without a comma or one that is no person's by its look
    ('Department of Physics, MIT', 'University of California, Berkeley': write such a name in braces to be sure).
    The page, the citations and the exports all read a name with a comma by this one rule."""
    if "," not in name or is_organisation(name):
        return None
    parts = [part.strip() for part in name.split(",")]
    if len(parts) == 2:
        family, given, suffix = parts[0], parts[1], ""
    elif len(parts) == 3 and parts[1].lower() in SUFFIXES:
        family, suffix, given = parts
    elif len(parts) == 3 and parts[2].lower() in SUFFIXES:
        family, given, suffix = parts
    else:
        return None
    if given.lower() in SUFFIXES or not _looks_like_a_family_name(family) or not _looks_like_given_names(given):
        return None
    return family, given, suffix


_FAMILY_CONJUNCTIONS = {"y", "e", "i"}  # a Spanish, Portuguese or Catalan family name's 'and': 'Ortega y Gasset'


def _looks_like_a_family_name(text: str) -> bool:
    """One to three capitalised words ('Müller', 'García Márquez', 'Le Roy Ladurie', 'LIN'), particles and
    conjunctions aside ('de la Cruz', 'Ortega y Gasset'); a word may start with a particle joined by a hyphen or an
    apostrophe ('al-Ṭahṭāwī', "d'Alembert")."""
    words = [word for word in text.split() if word not in _PARTICLES and word not in _FAMILY_CONJUNCTIONS]
    return 1 <= len(words) <= 3 and all(_capitalised(word) or "'" in word or _joined_particle(word) for word in words)


def _joined_particle(word: str) -> bool:
    """'al-Ṭahṭāwī', 'el-Sayed', 'ibn-Sina': a lower-case particle, a hyphen, a capitalised name."""
    particle, _, rest = word.partition("-")
    return particle.casefold() in _PARTICLES | {"ibn", "bint", "abu"} and bool(rest) and _capitalised(rest)


def _looks_like_given_names(text: str) -> bool:
    """One to four capitalised words or initials ('Lena', 'J.-P.', 'Martin Luther')."""
    words = text.split()
    return 1 <= len(words) <= 4 and all(_capitalised(word) for word in words)


def _capitalised(word: str) -> bool:
    """'Müller', 'J.', and a word of a script without capitals ('山田', 'الخوارزمي'); not 'van' or '1st'."""
    return word[0].isalpha() and not word[0].islower()


def first_name_first(plain: str) -> str:
    """A person's name written in BibTeX's order, as readers expect it in a list of authors: 'Müller, Lena' ->
    'Lena Müller', 'King, Jr., Martin Luther' -> 'Martin Luther King Jr.', and a Chinese, Japanese or Korean name
    family name first: '山田, 太郎' -> '山田 太郎'; any other name stays as written."""
    parts = comma_name_parts(plain)
    if parts is None:
        return plain
    family, given, suffix = parts
    if is_family_first(plain):
        return " ".join(part for part in (family, given, suffix) if part)
    return " ".join(part for part in (given, family, suffix) if part)


def shown_name(name: str) -> str:
    """A name as readers see it: LaTeX converted, the braces that keep it whole dropped."""
    return render_inline(name).plain


# --------------------------------------------------------------------------
# One person's name in its written forms ('John A. Smith', 'Smith, J.', 'Smith JA')
# --------------------------------------------------------------------------

NameForm = tuple[tuple[str, ...], tuple[str, ...]]  # (given words, family words), folded: (('j', 'a'), ('smith',))
NAMES_KEPT = 1 << 19  # distinct names whose forms a process remembers
_NOT_A_NAME_LETTER = re.compile(r"[^\w ]|[\d_]")


def known_forms(names: Iterable[str]) -> tuple[NameForm, ...]:
    """The forms of a person's names (profile.yaml's name and name_variants) that other written forms are matched
    against (form_score). A form another says more of is left out: 'J. A. Smith' beside 'John A. Smith' would
    let 'Jonathan Smith' in."""
    forms = list(dict.fromkeys(form for n in names for form in name_forms(n)))
    return tuple(form for form in forms if not any(other != form and _says_more(other, form) for other in forms))


def form_score(name: str, forms: Sequence[NameForm]) -> int:
    """How closely a written name is one of `forms`' person: 0 for another person, else more for a closer form.

    The family name must be the same (case, accents and a hyphen set aside: 'García-López, M.' and 'M. García
    López'), and each given name written must fit the person's in its place, in full or as its initial ('J.
    Smith', 'Smith, J.', 'Smith JA', 'JOHN SMITH' for John A. Smith); a middle name may be left out on either
    side. Given names written in full may be split otherwise, as romanised Chinese and Korean names are written every
    way: 'Xiao-Ming Wang' and 'Xiao Ming Wang' are Xiaoming Wang, 'Kim, Min-Su' is Minsu Kim. 'Jane Smith', 'K.
    Smith' and 'John B. Smith' do not fit. A first name in full scores more than an
    initial, and more fitting words more than fewer: of a record's authors the closest is the owner."""
    best = 0
    for words in _written_words(name):
        for given, family in forms:
            for written_given in _before_family(words, family):
                best = max(best, _given_score(written_given, given), _given_score(_joined(written_given), _joined(given)))
    return best


def _before_family(words: Sequence[str], family: Sequence[str]) -> Iterable[Sequence[str]]:
    """The given names of a written name (its words, given names first) whose last words are `family`: as written, or
    the same letters split otherwise ('Xiao-Ming', 'Xiao Ming' and 'Xiaoming' in a name read family name first)."""
    if len(words) > len(family) and tuple(words[-len(family) :]) == tuple(family):
        yield words[: -len(family)]
        return
    spelt = "".join(family)
    for start in range(len(words) - 1, 0, -1):
        tail = words[start:]
        if any(len(word) == 1 for word in tail) or len("".join(tail)) > len(spelt):
            return
        if "".join(tail) == spelt:
            yield words[:start]
            return


def _joined(given: Sequence[str]) -> Sequence[str]:
    """Given names written out in full as one word: a romanised Chinese or Korean given name is written 'Xiaoming',
    'Xiao-Ming' and 'Xiao Ming', 'Minsu' and 'Min-Su' (folded to ('xiao', 'ming')); initials are left as they are."""
    return ("".join(given),) if len(given) > 1 and all(len(word) > 1 for word in given) else given


def _says_more(form: NameForm, than: NameForm) -> bool:
    """Is `form` the same name as `than` with more written out ('John A. Smith' of 'J. A. Smith' or 'John Smith')?"""
    (given, family), (other_given, other_family) = form, than
    return family == other_family and len(given) >= len(other_given) and all(_fits(o, g) and len(g) >= len(o) for o, g in zip(other_given, given, strict=False))


def _given_score(written: Sequence[str], owners: Sequence[str]) -> int:
    """0 unless the given names written fit the owner's word by word (the first with the first); else 10 for a first
    name written in full (20) or as an initial (10), plus the number of words that fit."""
    if not written or not owners or not all(_fits(a, b) for a, b in zip(written, owners, strict=False)):
        return 0
    full = len(written[0]) > 1 and len(owners[0]) > 1
    return (20 if full else 10) + min(len(written), len(owners))


def _fits(written: str, owners: str) -> bool:
    """A given name fits another: the same, or an initial of it ('j' and 'john')."""
    return written == owners or (len(written) == 1 and owners.startswith(written)) or (len(owners) == 1 and written.startswith(owners))


@functools.lru_cache(maxsize=NAMES_KEPT)
def name_forms(name: str) -> tuple[NameForm, ...]:
    """A person's name in Latin (or another cased) script read as (given words, family words), folded as
    normalise_name folds names ('García-López, M.' -> (('m',), ('garcia', 'lopez'))), initials one word each
    ('J.A.', 'JA' -> 'j', 'a'). A name with no given name, a group's, or one in Chinese, Japanese or Korean
    letters (matched as written only) has none. 'Smith J' (PubMed's order) is read both ways."""
    plain = " ".join(render_inline(name).plain.split())
    if not plain or is_family_first(plain) or is_organisation(name) or is_organisation(plain):
        return ()
    readings: list[tuple[str, str]] = []
    split = csl_name(plain)
    if split.get("family") and split.get("given"):
        readings.append((split["given"], split["family"]))
    words = plain.split()
    if "," not in plain and len(words) >= 2 and _is_initials(words[-1]) and not all(_is_initials(w) for w in words[:-1]):
        readings.append((words[-1], " ".join(words[:-1])))  # 'Smith J', 'García-López MA': family name, initials
    forms = []
    for given, family in readings:
        given_words = tuple(w for part in given.split() for w in (_initials(part, family) if _is_initials(part) else folded_words(part)))
        family_words = folded_words(family)
        if given_words and family_words and all(w[0].upper() != w[0].lower() for w in given_words):
            forms.append((given_words, family_words))
    return tuple(dict.fromkeys(forms))


def _is_initials(word: str) -> bool:
    """'JA', 'J', 'J.A.', 'J.-P.': initials written together (not a longer word in capitals: 'JOHN')."""
    letters = word.replace(".", "").replace("-", "")
    return 0 < len(letters) <= 3 and letters.isalpha() and letters.isupper()


def _initials(word: str, family: str) -> tuple[str, ...]:
    """The initials of 'JA' or 'J.A.' one by one; a short word in capitals in a name all in capitals ('SMITH, JO')
    is a name."""
    if family.isupper() and "." not in word and len(word) > 1:
        return folded_words(word)
    return tuple(letter for folded in folded_words(word.replace(".", " ").replace("-", " ")) for letter in folded)


def folded_words(text: str) -> tuple[str, ...]:
    """A name's words with case, accents, punctuation and digits set aside ('García-López' is 'garcia lopez', 'ß'
    'ss'), letters of every script kept: how names are compared (enrich.normalise_name, the owner's forms)."""
    folded = unicodedata.normalize("NFKD", text.translate(ASCII_SPELLING)).translate(ARABIC_LETTER_FORMS)
    folded = "".join(character for character in folded if not unicodedata.combining(character)).casefold()
    return tuple(_NOT_A_NAME_LETTER.sub(" ", folded).split())


def _written_words(name: str) -> tuple[tuple[str, ...], ...]:
    """An author's name as words, given names first, in each way it can be read (see name_forms)."""
    return tuple(dict.fromkeys((*given, *family) for given, family in name_forms(name)))
