"""Browser tests (a package, so that this folder's conftest.py does not shadow tests/conftest.py for `from conftest import ...`)."""
