"""sitemap.xml and robots.txt, with absolute URLs from base_url."""

from __future__ import annotations

import xml.etree.ElementTree as ET

SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"


def sitemap(urls: list[str]) -> bytes:
    ET.register_namespace("", SITEMAP)
    root = ET.Element(f"{{{SITEMAP}}}urlset")
    for url in urls:
        ET.SubElement(ET.SubElement(root, f"{{{SITEMAP}}}url"), f"{{{SITEMAP}}}loc").text = url
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def robots_txt(sitemap_url: str) -> bytes:
    return f"User-agent: *\nAllow: /\n\nSitemap: {sitemap_url}\n".encode()
