#!/usr/bin/env python3
"""Rapfi's moves in match records, as training data for a move-ordering fit.

Reads `lianzhu-match --games-out` records of games against (or between) the sparring Rapfi
and writes them in the `lianzhu-games v1` format (src/train/data.rs) with every move that an
engine named `r...` (`rapfi`, `r1`, `r2`) chose after the opening marked as searched (score
0, a placeholder) and every other stone plain. `lianzhu-train --data OUT --policy --lr 0`
then fits the move-ordering scores to Rapfi's choices alone (the values stay as they were,
so the placeholder scores are never read).

The opening is the record's `opening=N` line of the suite (a line number of the file, as
`lianzhu-match` writes it); records whose file name contains `self` (Rapfi against itself
from self-play openings that are not kept) skip their first 10 stones instead.

Usage: scripts/rapfi-moves.py --rule freestyle --openings ../shared/data/openings/freestyle15.txt
       data/match-records/freestyle15-rapfi-*.games > rapfi-moves.txt
"""

import argparse
import sys

from match_records import games as records, opening, read_book

SELF_SKIP = 10


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rule", default="freestyle")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--openings", required=True)
    ap.add_argument("records", nargs="+")
    args = ap.parse_args()
    book = read_book(args.openings)
    print("# lianzhu-games v1")
    print("# Rapfi's moves from lianzhu-match records; scores are placeholders")
    games = moves_out = 0
    for moves, result, fields, path in records(args.records):
        rapfi = [fields.get(c, "").startswith("r") for c in ("black", "white")]
        if "self" in path:
            skip = SELF_SKIP
        else:
            stones = opening(book, fields)
            if moves[: len(stones)] != stones:
                sys.exit(f"{path}: a game does not start with its opening {stones}")
            skip = len(stones)
        out = []
        for i, m in enumerate(moves):
            if i >= skip and rapfi[i % 2]:
                out.append(m + "=0")
                moves_out += 1
            else:
                out.append(m)
        print(f"{args.rule} {args.size} {result} " + " ".join(out))
        games += 1
    print(f"{games} games, {moves_out} Rapfi moves", file=sys.stderr)


if __name__ == "__main__":
    main()
