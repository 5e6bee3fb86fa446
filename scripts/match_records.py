"""Reading `lianzhu-match --games-out` records: the part the scripts here share."""

import re

RESULTS = {"1-0": "B", "0-1": "W"}


def games(paths):
    """(moves, result `B`/`W`/`D`, the record's `key=value` fields, path) of every game in the
    files that ended on the board (by a five or a full board, not a forfeit)."""
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                t = line.split()
                if len(t) < 3 or t[2] not in ("five", "board-full"):
                    continue
                fields = dict(x.split("=", 1) for x in t[3:] if "=" in x)
                yield re.findall(r"[a-z][0-9]+", t[0]), RESULTS.get(t[1], "D"), fields, path


def read_book(path):
    """An opening suite's lines, all of them (`opening=N` counts comment lines too)."""
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f]


def opening(book, fields):
    """The stones of a record's opening: its `opening=N` is a line number of the suite (a
    number outside the suite is an error, not another line)."""
    n = int(fields["opening"])
    if not 1 <= n <= len(book):
        raise ValueError(f"opening={n} is not a line of the suite ({len(book)} lines)")
    return re.findall(r"[a-z][0-9]+", book[n - 1].split()[0])
