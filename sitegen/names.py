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

import re
from typing import Any

from sitegen.markup import render_inline

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
_LATIN = re.compile("[A-Za-z\u00c0-\u024f]")


def is_family_first(name: str) -> bool:
    """A name written in Chinese, Japanese or Korean letters ('山田 太郎', '王伟', '김철수'): its family name comes
    first, on the page and in BibTeX's 'family, given' alike. A name with Latin letters is not ('Taro Yamada')."""
    return bool(FAMILY_FIRST_LETTER.search(name)) and not _LATIN.search(name)


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
    name = _SPACES.sub(" ", name).strip()
    if "," in name:
        parts = comma_name_parts(name)
        if parts is None:  # an organisation's name with a comma, or one sitegen cannot read as a person's
            return {"literal": name}
        family, given, suffix = parts
        return {"family": family, "given": given, **({"suffix": suffix} if suffix else {})}
    words = name.split()
    if len(words) < 2 or _GROUP_WORDS.search(name):
        return {"literal": name}
    if is_family_first(name):  # '山田 太郎': the family name is the first word
        return {"family": words[0], "given": " ".join(words[1:])}
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
    return result


def family_first(name: dict[str, str]) -> str:
    """A CSL name as `Family, Given[, Suffix]` (RIS's form, and the form of Google Scholar's `citation_author`
    example, which Zotero splits at the comma: 'van der Berg, Jan'); a group's name as it is."""
    if "literal" in name:
        return name["literal"]
    return ", ".join(part for part in (name["family"], name.get("given", ""), name.get("suffix", "")) if part)


def written_editors(extra: dict[str, Any]) -> list[str]:
    """A record's `editors` (a .bib file's `editor`, a YAML record's list of names) as written, LaTeX and braces
    included; an entry that is no name is passed over."""
    editors = extra.get("editors")
    if not isinstance(editors, list):
        return []
    return [name for name in editors if isinstance(name, str) and name.strip()]


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


def _looks_like_a_family_name(text: str) -> bool:
    """One or two capitalised words ('Müller', 'García Márquez', 'LIN'), particles aside ('de la Cruz')."""
    words = [word for word in text.split() if word not in _PARTICLES]
    return 1 <= len(words) <= 2 and all(_capitalised(word) or "'" in word for word in words)


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
