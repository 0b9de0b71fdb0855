"""Machine-readable outputs: BibTeX, Atom, JSON, JSON-LD, sitemap. Each is pure: Site in, text out."""
