"""Mathematics as a reader sees it in Chromium: signs of numbers set as TeX sets them."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.latex import convert_inline

pytestmark = pytest.mark.browser


def gap_after_sign(page, tex: str) -> float:
    """The space between a formula's minus sign and what follows it, in pixels, as Chromium lays it out."""
    page.set_content(f'<p style="font-size: 40px">{convert_inline(tex).html}</p>')
    return page.evaluate(
        """() => {
            const sign = [...document.querySelectorAll('mo')].find(mo => mo.textContent === '\\u2212');
            const next = sign.nextElementSibling;
            return next.getBoundingClientRect().left - sign.getBoundingClientRect().right;
        }"""
    )


def test_a_negative_number_after_a_bracket_or_relation_is_set_close_to_its_sign(page):
    binary = gap_after_sign(page, "$a - 1$")
    assert binary > 3  # a subtraction: spaced, as TeX sets it
    for tex in ("$\\{-1, 0, 1\\}$", "$f(-x)$", "$a = -1$", "$x \\in [-1, 1]$"):
        assert gap_after_sign(page, tex) < binary / 2, tex


STYLE = (Path(__file__).parents[2] / "sitegen" / "themes" / "default" / "static" / "style.css").read_text(encoding="utf-8")


def test_a_chemical_formula_stays_on_one_line_and_keeps_the_lines_even(page):
    """`C$_{2+}$` was MathML: Chromium broke the line between "C" and its "2+", and the subscripts pushed lines apart."""

    def height(html_text: str) -> float:
        page.set_content(f'<style>{STYLE}</style><h1 style="width: 0">{html_text}</h1>')
        return page.evaluate("() => document.querySelector('h1').getBoundingClientRect().height")

    line = height("to")
    assert height(convert_inline("to C$_{2+}$ and H$_2$O").html) == 4 * line  # a word a line, each as high as text
