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
    r"\b(collaboration|consortium|team|group|committee|project|initiative|society|association|organi[sz]ation|institute|laboratory|network|alliance|inc|ltd|corporation)\b",
    re.I,
)


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
        parts = [p.strip() for p in name.split(",")]
        if len(parts) == 3 and parts[1].lower() in SUFFIXES:  # "Last, Jr., First"
            return {"family": parts[0], "given": parts[2], "suffix": parts[1]}
        if len(parts) == 2 and parts[0] and parts[1] and parts[1].lower() not in SUFFIXES:
            return {"family": parts[0], "given": parts[1]}
    words = name.replace(",", " ").split()
    if len(words) < 2 or _GROUP_WORDS.search(name):
        return {"literal": name}
    suffix = ""
    if words[-1].lower() in SUFFIXES and len(words) > 2:
        suffix = words.pop()
    start = len(words) - 1  # the family name is the last word and the lower-case particles before it
    while start > 1 and words[start - 1] in _PARTICLES:
        start -= 1
    result = {"family": " ".join(words[start:]), "given": " ".join(words[:start])}
    if suffix:
        result["suffix"] = suffix
    return result


def written_editors(extra: dict[str, Any]) -> list[str]:
    """A record's `editors` (a .bib file's `editor`, a YAML record's list of names) as written, LaTeX and braces
    included; an entry that is no name is passed over."""
    editors = extra.get("editors")
    if not isinstance(editors, list):
        return []
    return [name for name in editors if isinstance(name, str) and name.strip()]


def first_name_first(plain: str) -> str:
    """A person's name written in BibTeX's order, as readers expect it in a list of authors: 'Müller, Lena' ->
    'Lena Müller', 'King, Jr., Martin Luther' -> 'Martin Luther King Jr.'. Anything else, an organisation's name
    with a comma ('University of California, Berkeley') included, stays as written."""
    if "," not in plain or is_organisation(plain) or "universit" in plain.lower():
        return plain
    parts = [part.strip() for part in plain.split(",")]
    if len(parts) == 2 and all(parts) and parts[1].lower() not in SUFFIXES and len(parts[0].split()) <= 3:
        return f"{parts[1]} {parts[0]}"
    if len(parts) == 3 and all(parts) and parts[1].lower() in SUFFIXES:
        return f"{parts[2]} {parts[0]} {parts[1]}"
    return plain


def shown_name(name: str) -> str:
    """A name as readers see it: LaTeX converted, the braces that keep it whole dropped."""
    return render_inline(name).plain
