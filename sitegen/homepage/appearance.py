"""The look a site chooses in content/site.yaml without a theme of its own (read and checked by sitegen/pages/menu.py).

    accent: "#b5179e"        # links, buttons and marks; in quotes: a # after a space starts a YAML comment
    accent_dark: "#f0a6e0"   # in dark mode (default: the accent made light enough to read on the dark page)
    font: serif              # the text's typeface: serif, sans-serif, or font names ["Source Serif 4", Georgia, serif]
    heading_font: ...        # the headings' (default: font)
    dark_mode: auto          # the visitor's system setting and the header's toggle (default); false: light only;
                             # true: dark unless the visitor chooses light

The colours become the theme's CSS custom properties (--accent, --accent-hover, --accent-soft, --accent-text)
in both colour schemes, worked out here so that every shade keeps its contrast; `style_sheet` is the CSS that ends
the theme's style.css in output/ (or, for a theme without one, the stylesheet STYLE_PATH that the pages link): no
inline <style>, which a Content-Security-Policy of `default-src 'self'` refuses, and no request more. Every rule is
`!important`, so that it holds over the theme's stylesheets linked after style.css.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sitegen.values import value_class

if TYPE_CHECKING:
    from sitegen.homepage.fields import Fields

MAIN_STYLESHEET = "style.css"  # the theme's stylesheet (of static/) that the CSS of these settings ends
STYLE_PATH = "static/site-settings.css"  # the CSS of these settings, for a theme without MAIN_STYLESHEET
APPEARANCE_SETTINGS = frozenset({"accent", "accent_dark", "font", "heading_font", "dark_mode"})
_HEX = re.compile(r"#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_FONT_NAME = re.compile(r"[^\W_][\w .-]*")  # letters of any script, digits, spaces, dots and hyphens: safe in CSS quotes
GENERIC_FONTS = frozenset({"serif", "sans-serif", "monospace", "system-ui", "ui-serif", "ui-sans-serif", "ui-monospace", "cursive"})
FONT_STACKS = {  # a generic family alone gives a stack of the fonts that systems have
    "serif": '"Iowan Old Style", "Palatino Linotype", Palatino, "Book Antiqua", Georgia, "DejaVu Serif", serif',
    "sans-serif": 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif',
    "monospace": 'ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace',
}
LIGHT_PAGE = (255, 255, 255)  # the default theme's --bg, light and dark
DARK_PAGE = (0x11, 0x13, 0x17)
DARK_TEXT = (0x0B, 0x10, 0x20)  # the default theme's --accent-text in dark mode
READABLE = 4.5  # WCAG AA for text: links are text
Colour = tuple[int, int, int]


@value_class
class Appearance:
    accent: str = ""  # '#b5179e', or empty: the theme's
    accent_dark: str = ""
    font: str = ""  # a CSS font-family list, or empty: the theme's
    heading_font: str = ""
    dark_mode: str = "auto"  # 'auto', 'light' (light only) or 'dark' (dark unless the visitor chooses light)

    def style_sheet(self) -> str:
        """The CSS that sets the theme's custom properties as chosen ('' when nothing is): `!important`, so that it
        holds over any theme's own (classic sets them on <body>), in both schemes and on paper (light)."""
        light: list[str] = []
        dark: list[str] = []
        if self.accent:
            light += _accent_properties(parse_colour(self.accent), LIGHT_PAGE)
        if self.accent or self.accent_dark:
            dark += _accent_properties(
                parse_colour(self.accent_dark) if self.accent_dark else readable_on(parse_colour(self.accent), DARK_PAGE, 7.0), DARK_PAGE
            )
        if self.font:
            light.append(f"--sans: {self.font}")
        rules = []
        if light:
            rules.append(":root, body { " + "; ".join(f"{p} !important" for p in light) + "; }")
        if dark:
            declarations = "; ".join(f"{p} !important" for p in dark) + ";"
            rules.append(
                '@media screen and (prefers-color-scheme: dark) { :root:not([data-colour-scheme="light"]), '
                f':root:not([data-colour-scheme="light"]) body {{ {declarations} }} }}'
            )
            rules.append(f'@media screen {{ :root[data-colour-scheme="dark"], :root[data-colour-scheme="dark"] body {{ {declarations} }} }}')
        if self.heading_font:
            rules.append(f"h1, h2, h3, h4, .site-name {{ font-family: {self.heading_font} !important; }}")
        return "\n".join(rules)


def parse_colour(text: str) -> Colour:
    digits = text.strip().lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def hex_colour(colour: Colour) -> str:
    return "#" + "".join(f"{round(c):02x}" for c in colour)


def _luminance(colour: Colour) -> float:
    def channel(c: float) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = colour
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: Colour, b: Colour) -> float:
    """WCAG's contrast ratio, 1 to 21."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def mix(a: Colour, b: Colour, share: float) -> Colour:
    """`a` with `share` of `b` (0: a, 1: b)."""
    return tuple(round(x + (y - x) * share) for x, y in zip(a, b))  # type: ignore[return-value]


def readable_on(colour: Colour, page: Colour, ratio: float = READABLE) -> Colour:
    """`colour`, or the nearest shade of it towards black or white (away from the page) that reads on `page`."""
    towards = (255, 255, 255) if _luminance(page) < 0.2 else (0, 0, 0)
    step = 0
    shade = colour
    while contrast(shade, page) < ratio and step < 20:
        step += 1
        shade = mix(colour, towards, step / 20)
    return shade


def _accent_properties(accent: Colour, page: Colour) -> list[str]:
    dark_page = page == DARK_PAGE
    hover = mix(accent, (255, 255, 255) if dark_page else (0, 0, 0), 0.35 if dark_page else 0.3)
    soft = mix(accent, page, 0.85 if dark_page else 0.92)
    on_accent = max(((255, 255, 255), DARK_TEXT), key=lambda text: contrast(text, accent))
    return [
        f"--accent: {hex_colour(accent)}",
        f"--accent-hover: {hex_colour(hover)}",
        f"--accent-soft: {hex_colour(soft)}",
        f"--accent-text: {hex_colour(on_accent)}",
    ]


def read_appearance(fields: Fields, text: str) -> Appearance:
    """The settings above from site.yaml (`text`, its lines for a colour YAML read as a comment)."""
    accent = _colour(fields, text, "accent", LIGHT_PAGE, "the white page", "darker")
    accent_dark = _colour(fields, text, "accent_dark", DARK_PAGE, "the dark page", "lighter")
    return Appearance(accent, accent_dark, _font(fields, "font"), _font(fields, "heading_font"), _dark_mode(fields))


def _colour(fields: Fields, text: str, key: str, page: Colour, page_name: str, way: str) -> str:
    if key not in fields.data:
        return ""
    value: Any = fields.data[key]
    if value is None:
        line = text.splitlines()[fields.line(key) - 1] if 0 < fields.line(key) <= len(text.splitlines()) else ""
        written = re.search(r"#[0-9a-fA-F]{3,6}\b", line)
        if written:  # `accent: #b5179e`: YAML reads a comment, and the setting as empty
            fields.problem(
                key, f"field '{key}': a # after a space starts a YAML comment, so this colour is not read; write it in quotes: {key}: \"{written[0]}\""
            )
        else:
            fields.problem(key, f"field '{key}' is empty; write a colour as {key}: \"#b5179e\", or remove the line for the theme's")
        return ""
    found = _HEX.fullmatch(value.strip()) if isinstance(value, str) else None
    if found is None:
        fields.problem(key, f"field '{key}': expected a colour as #rrggbb in quotes ({key}: \"#b5179e\"), got {value!r}")
        return ""
    colour = parse_colour(found[1])
    ratio = contrast(colour, page)
    if ratio < READABLE:
        better = hex_colour(readable_on(colour, page))
        fields.warn(
            key,
            f"field '{key}': #{found[1]} is hard to read on {page_name} (contrast {ratio:.1f}:1; links need {READABLE}:1): "
            f'a {way} shade such as {key}: "{better}" reads well',
        )
    return hex_colour(colour)


def _font(fields: Fields, key: str) -> str:
    if key not in fields.data:
        return ""
    value: Any = fields.data[key]
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else None
    if not names or not all(isinstance(name, str) and _FONT_NAME.fullmatch(name.strip()) for name in names):
        fields.problem(
            key, f"field '{key}': expected serif, sans-serif, monospace, or font names as {key}: [\"Source Serif 4\", Georgia, serif], got {value!r}"
        )
        return ""
    names = [name.strip() for name in names]
    if len(names) == 1 and names[0].lower() in FONT_STACKS:
        return FONT_STACKS[names[0].lower()]
    listed = [name.lower() if name.lower() in GENERIC_FONTS else f'"{name}"' for name in names]
    if not any(name.lower() in GENERIC_FONTS for name in names):
        listed.append("sans-serif")  # a font the visitor lacks falls back to the system's
    return ", ".join(listed)


def _dark_mode(fields: Fields) -> str:
    value: Any = fields.data.get("dark_mode", "auto")
    if value == "auto":
        return "auto"
    if value is False:
        return "light"
    if value is True:
        return "dark"
    fields.problem(
        "dark_mode",
        f"field 'dark_mode': expected auto (the visitor's setting), false (light only) or true (dark unless the visitor chooses light), got {value!r}",
    )
    return "auto"
