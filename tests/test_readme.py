"""The README indexes every documentation page, and its links lead to files that exist.

(Its Python examples run as doctests: ``--doctest-glob=README.md`` in pyproject.toml.)
"""

from __future__ import annotations

import re
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
README = (CHECKOUT / "README.md").read_text(encoding="utf-8")
LINKS = set(re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README))


def test_the_readme_links_every_docs_page() -> None:
    pages = {
        path.relative_to(CHECKOUT).as_posix()
        for pattern in ("docs/*.md", "docs/rules/*.md")
        for path in CHECKOUT.glob(pattern)
    }
    assert "docs/kernels.md" in pages and "docs/rules/salta.md" in pages
    assert sorted(pages - LINKS) == []


def test_every_link_of_the_readme_leads_to_a_file() -> None:
    local = {link for link in LINKS if "://" not in link}
    assert local
    assert sorted(link for link in local if not (CHECKOUT / link).exists()) == []


def test_the_readme_gives_the_two_commands() -> None:
    assert "make run" in README and "make test" in README
