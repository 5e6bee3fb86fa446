#!/usr/bin/env python3
"""rapfi-errors.py -- where Lianzhu loses its games against a judge engine.

Two steps, both from the repository root after `cargo build --release`:

  scripts/rapfi-errors.py data RULE NAME [--openings SUITE] GAMES... > rec.txt
      turns `lianzhu-match --games-out` records (games that ended by a five or a full board)
      into a training-data file (`src/train/data.rs`, version 1) in which every move from ply
      6 on (with --openings: every move after the record's opening) is marked as searched
      (score 0), so that `lianzhu-match --label` asks the judge
      about the position before each of them; only games that NAME (the engine's `--name` in
      the records) played are kept.

  lianzhu-match --label rec.txt rec-judged.txt --judge ~/.cache/lianzhu-sparring/bin/rapfi \
      --nodes 20000
  scripts/rapfi-errors.py report NAME rec-judged.txt GAMES...   (the same GAMES, same order)

The report reads the judge's eval of the position before each of NAME's moves (from NAME's
view) and of the position after it (the judge's side, negated): the drop is what the move
cost in the judge's eyes (in our units, i.e. the judge's times the `--scale` of the label
run). It counts NAME's moves, the moves that let a judge mate in (and from which eval), the
large drops that were not yet a mate, the ply at which the judge first sees a forced win,
the mean loss of a move per phase of the game for NAME and for its opponent, and the median
eval (NAME's view) at some plies of the games NAME lost: a slow drift or sudden blunders.
"""

import statistics
import sys

from match_records import games, opening, read_book

MATE = 100_000
DRIFT_CAP = 1500


def records(name, paths):
    """(colour of NAME, moves, result, fields) of every game NAME played that ended on the
    board."""
    for moves, result, fields, _ in games(paths):
        for colour in ("black", "white"):
            if fields.get(colour) == name:
                yield colour, moves, result, fields
                break


def to_data(rule, name, paths):
    """Every move from ply 6 on marked as searched, or, with `--openings SUITE` first, every
    move after the record's opening."""
    book = None
    if paths[:1] == ["--openings"] and len(paths) > 2:
        book, paths = read_book(paths[1]), paths[2:]
    print("# lianzhu-games v1")
    for _, moves, result, fields in records(name, paths):
        first = len(opening(book, fields)) if book else 6
        marked = [m if i < first else m + "=+0" for i, m in enumerate(moves)]
        print(f"{rule} 15 {result} " + " ".join(marked))


def score(token):
    if "=" not in token:
        return None
    v = token.split("=", 1)[1]
    if v == "+M":
        return MATE
    if v == "-M":
        return -MATE
    return int(v)


def report(name, path, paths):
    colours = [c for c, _, _, _ in records(name, paths)]
    with open(path, encoding="utf-8") as f:
        games = [line for line in f if line.strip() and not line.startswith("#")]
    if len(games) != len(colours):
        sys.exit(f"{path} has {len(games)} games, the records {len(colours)}")
    moves = mate_moves = 0
    mates_from = []
    drops = []
    first_mate = []
    lengths = []
    for colour, line in zip(colours, games):
        tokens = line.split()[3:]
        values = [score(t) for t in tokens]
        ours = 0 if colour == "black" else 1
        lengths.append(len(tokens))
        for i in range(len(tokens) - 1):
            if i % 2 != ours or values[i] is None or values[i + 1] is None:
                continue
            before, after = values[i], -values[i + 1]
            moves += 1
            if after == -MATE and before > -MATE:
                mate_moves += 1
                mates_from.append(before)
            elif before > -MATE and after > -MATE:
                drops.append((before - after, before))
        for i, v in enumerate(values):
            if i % 2 != ours and v == MATE:
                first_mate.append(i)
                break
    print(f"engine moves judged: {moves}")
    print(f"moves after which the judge has a forced win: {mate_moves}")
    for lo, hi in [(-MATE, -1000), (-1000, -500), (-500, -200), (-200, 0), (0, 200), (200, MATE)]:
        n = sum(1 for b in mates_from if lo <= b < hi)
        print(f"  from an eval in [{lo}, {hi}): {n}")
    big = [d for d, b in drops if d >= 300 and b > -1000]
    if big:
        print(
            f"other moves losing 300 or more from an eval above -1000: {len(big)}, "
            f"median loss {statistics.median(big)}"
        )
    if first_mate:
        print(
            f"games where the judge sees a forced win: {len(first_mate)} of {len(lengths)}; "
            f"median ply of its first sight {statistics.median(first_mate)}, "
            f"median game length {statistics.median(lengths)}"
        )
    drift(colours, games)


def drift(colours, games):
    """How the judge's eval moves through the games: per phase, the mean loss of a move (eval
    before it minus eval after it, the mover's view, both below `DRIFT_CAP` in size) for the
    engine and for its opponent; and the median eval, the engine's view, at some plies of
    the games it lost."""
    phases = [(6, 18), (18, 30), (30, 42), (42, 10_000)]
    loss = {p: ([], []) for p in phases}
    at_ply = {p: [] for p in (6, 10, 14, 18, 22, 30)}
    for colour, line in zip(colours, games):
        fields = line.split()
        tokens = fields[3:]
        values = [score(t) for t in tokens]
        ours = 0 if colour == "black" else 1
        for i in range(len(tokens) - 1):
            a, b = values[i], values[i + 1]
            if a is None or b is None or abs(a) >= DRIFT_CAP or abs(b) >= DRIFT_CAP:
                continue
            for lo, hi in phases:
                if lo <= i < hi:
                    loss[(lo, hi)][0 if i % 2 == ours else 1].append(a + b)
        lost = fields[2] == ("W" if colour == "black" else "B")
        for p in at_ply:
            if lost and p < len(values) and values[p] is not None:
                v = values[p] if p % 2 == ours else -values[p]
                at_ply[p].append(max(-DRIFT_CAP, min(DRIFT_CAP, v)))
    print(f"mean loss of a move by the judge's eval (evals under {DRIFT_CAP} in size):")
    for (lo, hi), (mine, theirs) in loss.items():
        if mine and theirs:
            print(
                f"  plies {lo}-{min(hi, 225) - 1}: engine {statistics.mean(mine):.1f} "
                f"({len(mine)} moves), opponent {statistics.mean(theirs):.1f} ({len(theirs)})"
            )
    print("median eval, the engine's view, in the games it lost (clipped):")
    for p, v in at_ply.items():
        if v:
            print(f"  ply {p}: {statistics.median(v)} ({len(v)} games)")


def main():
    args = sys.argv[1:]
    if len(args) >= 4 and args[0] == "data":
        to_data(args[1], args[2], args[3:])
    elif len(args) >= 4 and args[0] == "report":
        report(args[1], args[2], args[3:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
