#!/usr/bin/env python3
"""Puts a benchmark's Markdown table into docs/benchmarks.md, in place of the last one.

    bench/update-figures.py DOC NAME TABLE.md --measured "2026-12-04, commit abc1234, 2 cores, release build"

DOC holds, once, a block between `<!-- figures: NAME -->` and `<!-- /figures: NAME -->`. Its
contents are replaced by a line saying when and on what the figures were measured, then TABLE.md
(as `hark bench --markdown`, `hark bench-wake --markdown` or `bench/noise-summary.py --markdown`
write it). Everything else in DOC is kept. DOC is replaced whole, through a temporary file, so a
failed run never leaves it half written.
"""
import argparse
import os
import re
import sys
import tempfile


def replaced(document, name, table, measured):
    begin, end = f"<!-- figures: {name} -->", f"<!-- /figures: {name} -->"
    pattern = re.compile(re.escape(begin) + r"\n.*?" + re.escape(end), re.DOTALL)
    found = pattern.findall(document)
    if len(found) != 1:
        raise ValueError(f"the document must hold one block {begin} … {end}; it holds {len(found)}")
    block = f"{begin}\nMeasured {measured}.\n\n{table.rstrip()}\n{end}"
    return pattern.sub(lambda _: block, document)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("doc")
    parser.add_argument("name", help="the block's name, e.g. bench-noise")
    parser.add_argument("table", help="the Markdown table the benchmark wrote")
    parser.add_argument("--measured", required=True, help="when and on what, e.g. '2026-12-04, commit abc1234, 2 cores'")
    arguments = parser.parse_args()
    try:
        with open(arguments.doc, encoding="utf-8") as file:
            document = file.read()
        with open(arguments.table, encoding="utf-8") as file:
            table = file.read()
        updated = replaced(document, arguments.name, table, arguments.measured)
    except (OSError, ValueError) as error:
        sys.exit(f"update-figures: {arguments.doc}: {error}")
    folder = os.path.dirname(os.path.abspath(arguments.doc))
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False) as file:
        file.write(updated)
        temporary = file.name
    os.chmod(temporary, os.stat(arguments.doc).st_mode & 0o777)
    os.replace(temporary, arguments.doc)
    print(f"{arguments.doc}: the {arguments.name} figures updated")


if __name__ == "__main__":
    main()
