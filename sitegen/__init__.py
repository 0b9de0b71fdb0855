"""sitegen: researcher profile sites from YAML or arXiv records."""

__version__ = "0.1.0"
