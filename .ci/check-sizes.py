#!/usr/bin/env python3
"""Checks the house's size limits on the product's code (`src/`): no file
over 800 lines and no function over 120 lines (from its `fn` line to its
closing brace, as rustfmt lays it out). A file or a function that grows past
them is one that holds more than one concept: split it where its concepts
part.

Exit code 0 when both hold; 1 with one line per file or function over.
"""

import re
import sys
from pathlib import Path

MAX_FILE_LINES = 800
MAX_FN_LINES = 120

# A function's first line, rustfmt-formatted.
FN = re.compile(r"^(\s*)(?:pub(?:\([^)]*\))? )?(?:const )?(?:async )?(?:unsafe )?fn \w+")


def functions(lines: list):
    """(name line, length) of each function with a body: its signature runs
    to the first line ending in `{` (one ending in `;` first: no body; one
    ending in `}`: a one-line function), and its body to the `}` at the
    signature's indent. A `fn` in a string literal (a test's source text)
    has a quote or an escaped line break on its line, and is no function."""
    for start, line in enumerate(lines):
        match = FN.match(line)
        if not match or '"' in line or "\\n" in line:
            continue
        ends = (i for i in range(start, len(lines)) if lines[i].rstrip().endswith(("{", ";", "}")))
        body = next(ends, None)
        if body is None or not lines[body].rstrip().endswith("{"):
            continue
        close = match.group(1) + "}"
        end = next((i for i in range(body, len(lines)) if lines[i] == close), None)
        if end is not None:
            yield start, end - start + 1


def main() -> int:
    src = Path(__file__).resolve().parent.parent / "src"
    problems = []
    longest = (0, None)
    for path in sorted(src.rglob("*.rs")):
        lines = path.read_text().splitlines()
        if len(lines) > MAX_FILE_LINES:
            problems.append(f"{path}: {len(lines)} lines (at most {MAX_FILE_LINES})")
        for start, length in functions(lines):
            longest = max(longest, (length, f"{path}:{start + 1}"))
            if length > MAX_FN_LINES:
                name = lines[start].strip()
                problems.append(
                    f"{path}:{start + 1}: `{name}` is {length} lines (at most {MAX_FN_LINES})"
                )
    for problem in problems:
        print(problem)
    if not problems:
        print(
            f"sizes: no file over {MAX_FILE_LINES} lines, no function over "
            f"{MAX_FN_LINES} (the longest: {longest[0]} lines, {longest[1]})"
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
