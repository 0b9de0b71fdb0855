"""Markdown as people write it for GitHub, Hugo and Jekyll (CommonMark), read by Python-Markdown: lists, and
headings that need a space after their `#`.

Python-Markdown keeps Markdown.pl's list rules: a list needs a blank line before it and
a nested list four spaces of indentation. Everyone else now follows CommonMark, where

    My interests:
    - distributed training
      - on spot instances

is a paragraph and a list with a nested item. Before the block parser sees a text, this
preprocessor rewrites such lines into the form Python-Markdown reads the same way: a blank
line before a list that interrupts a paragraph, and each item and continuation line of a
list indented by four spaces per level, where CommonMark's rule (a line indented at least
as far as an item's text belongs to that item) puts it. It runs after fenced code blocks
have been stashed, so code is never touched; lines indented by four or more outside a
list (code blocks) are left as they are. Lists already written the Python-Markdown way
come out unchanged.
"""

from __future__ import annotations

import re

from markdown import Markdown
from markdown.preprocessors import Preprocessor

_ITEM = re.compile(r"( *)([*+-]|\d{1,9}[.)])([ \t]+)(?=\S)")  # a list item's marker and the space after it
_ANY_ITEM = re.compile(r"^(?: {0,3}> ?)* *(?:[*+-]|\d{1,9}[.)])[ \t]+\S", re.MULTILINE)  # also in a block quote
_THEMATIC_BREAK = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")  # '* * *' is a rule, not an item
_OTHER_BLOCK = re.compile(r" {0,3}(?:#|>|\||\x02|<)")  # a heading, quote, table row, stashed block or HTML: no paragraph
TAB_LENGTH = 4


class CommonMarkLists(Preprocessor):
    """Lists that interrupt a paragraph, and lists nested by their items' text, as CommonMark reads them."""

    def run(self, lines: list[str]) -> list[str]:
        if not _ANY_ITEM.search("\n".join(lines)):
            return lines
        return rewritten_lists(lines)


_QUOTED = re.compile(r" {0,3}> ?")


def rewritten_lists(lines: list[str]) -> list[str]:
    """`lines` with the lists in them in Python-Markdown's form (see the module's docstring); a block quote's
    lines are rewritten as a text of their own, as the block parser reads them."""
    out: list[str] = []
    start = 0
    for index in range(len(lines) + 1):
        quoted = index < len(lines) and _QUOTED.match(lines[index]) is not None
        if quoted and (index == 0 or _QUOTED.match(lines[index - 1]) is None):
            out += _rewritten_outside_quotes(lines[start:index])
            start = index
        elif not quoted and index > 0 and _QUOTED.match(lines[index - 1]) is not None:
            inside = [line[found.end() :] for line in lines[start:index] if (found := _QUOTED.match(line))]
            out += ["> " + line for line in rewritten_lists(inside)]
            start = index
    out += _rewritten_outside_quotes(lines[start:])
    return out


def _rewritten_outside_quotes(lines: list[str]) -> list[str]:
    out: list[str] = []
    open_items: list[int] = []  # the column where the text of each open item starts, outermost first
    after_blank = False
    after_paragraph = False  # the last line was a paragraph's, outside a list
    for line in lines:
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if not stripped.strip():
            out.append(line)
            after_blank, after_paragraph = True, False
            continue
        item = _item_at(line, indent, open_items)
        if item is not None:
            if after_paragraph and _may_interrupt(item.group(2)):
                out.append("")
            while open_items and indent < open_items[-1]:
                open_items.pop()
            out.append(" " * (TAB_LENGTH * len(open_items)) + stripped)
            open_items.append(indent + len(item.group(2)) + len(item.group(3)))
        elif open_items and after_blank and indent < open_items[0]:
            open_items.clear()  # a line less indented than every item's text, after a blank line: the list has ended
            out.append(line)
            after_paragraph = indent < TAB_LENGTH and not _OTHER_BLOCK.match(line)
            after_blank = False
            continue
        elif open_items:
            while after_blank and indent < open_items[-1]:
                open_items.pop()  # after a blank line, a line belongs to the innermost item whose text it reaches
            text = open_items[-1]
            out.append(" " * (TAB_LENGTH * len(open_items) + indent - text) + stripped if indent >= text else line)  # else: lazy continuation
        else:
            out.append(line)
            after_paragraph = not _OTHER_BLOCK.match(line) and not (indent >= TAB_LENGTH and not after_paragraph)
            after_blank = False
            continue
        after_blank, after_paragraph = False, False
    return out


def _item_at(line: str, indent: int, open_items: list[int]) -> re.Match | None:
    """The marker of a list item starting `line`: indented up to three spaces, or, in a list, at least as far as
    its outermost item's text (a nested item); not a rule."""
    if indent > 3 and not (open_items and indent >= open_items[0]):
        return None
    if _THEMATIC_BREAK.match(line):
        return None
    return _ITEM.match(line)


def _may_interrupt(marker: str) -> bool:
    """CommonMark lets a bullet list, or a numbered one that starts at 1, interrupt a paragraph ('in\\n2019. we' stays text)."""
    return not marker[0].isdigit() or marker[:-1] == "1"


# a line starting with '#' and a character no heading has after its hashes: '#1 priority', '#research'; or 7 of them
_NO_HEADING = re.compile(r"^( {0,3})(#{1,6}(?=[^#\s])|#{7,})", re.MULTILINE)  # and seven hashes or more: no heading either


class HashesWithoutSpace(Preprocessor):
    """CommonMark's heading has a space after its hashes; Python-Markdown's needs none, so '#1 priority' and a
    hashtag at a line's start became headings. Such a line's first '#' is escaped: it stays text."""

    def run(self, lines: list[str]) -> list[str]:
        return [_NO_HEADING.sub(r"\1\\\2", line) if line.lstrip(" ")[:1] == "#" else line for line in lines]


def register(md: Markdown) -> None:
    """Run after the fenced code blocks are stashed (priority 25) and before the block parser."""
    md.preprocessors.register(CommonMarkLists(md), "commonmark_lists", 20)
    md.preprocessors.register(HashesWithoutSpace(md), "commonmark_headings", 21)  # first: an escaped "#1" line is a paragraph to the lists
