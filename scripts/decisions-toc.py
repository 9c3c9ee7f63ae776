#!/usr/bin/env python3
"""Writes the contents list at the top of docs/decisions.md: one link per `## ` section, in order, between
the `<!-- contents -->` markers (added after the introduction the first time). Run after adding a section;
`tests/api/readme.rs` checks that the list is current."""

import pathlib
import re

PATH = pathlib.Path(__file__).resolve().parent.parent / "docs" / "decisions.md"
START, END = "<!-- contents -->", "<!-- /contents -->"


def anchor(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.lower())
    return text.replace(" ", "-")


def contents(text):
    body = text.split(END, 1)[-1]
    headings = re.findall(r"^## (.+)$", body, re.M)
    seen = {}
    lines = []
    for heading in headings:
        slug = anchor(heading)
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        lines.append(f"- [{heading.replace('`', '')}](#{slug}{'-' + str(n) if n else ''})")
    return f"{START}\n## Contents\n" + "\n".join(lines) + f"\n{END}"


def main():
    text = PATH.read_text()
    if START in text:
        head, rest = text.split(START, 1)
        tail = rest.split(END, 1)[1]
        text = head + contents(text) + tail
    else:
        intro, rest = text.split("\n## ", 1)
        text = intro.rstrip("\n") + "\n\n" + contents(text) + "\n\n## " + rest
    PATH.write_text(text)


if __name__ == "__main__":
    main()
