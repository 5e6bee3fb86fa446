#!/usr/bin/env python3
"""How good are an engine's moves by the sparring Rapfi's judgement, on positions of real games.

Samples positions where Lianzhu was to move from `lianzhu-match --games-out` records of
Lianzhu-Rapfi games (after the opening, at least 10 plies before the end, seeded), lets each
engine choose a move there (`ENGINE analyze --time-ms T` or `--nodes K`, two processes at
once), then has the judge evaluate every position after the chosen move (`lianzhu-match
--label` at `--judge-nodes`, our units: the judge's eval times 2). An engine's figure is the
mean value of its moves for the side that played them, each clipped to +-2000 (a mate counts
as 2000); positions where the judge gave no eval for some engine are left out of all. The
other engines are compared with the first one move by move: the mean paired difference with
its 95% interval (1.96 standard errors), and how often they chose the same move.

The figure complements matches: it tells in minutes, from the same positions, whether a
change makes the moves the judge likes better or worse, and where matches need hundreds of
games. It is the judge's opinion, not a result: a change that plays more like Rapfi scores
better here even where it would not win more games.

Usage: scripts/move-loss.py --rule freestyle --openings ../shared/data/openings/freestyle15.txt
         --records data/match-records/freestyle15-rapfi-*.games --positions 600 --time-ms 300
         --judge ~/.cache/lianzhu-sparring/bin/rapfi --match target/release/lianzhu-match
         --engine main=target/release/pbrain-lianzhu --engine new="target/release/pbrain-lianzhu --eval new.lzev"
"""

import argparse
import math
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile

from match_records import games, opening, read_book

CLIP = 2000
SENTINEL = 12345
COLS = "abcdefghijklmnopqrstuvwxyz"


def sample(args):
    book = read_book(args.openings)
    found = []
    for moves, _, fields, _ in games(args.records):
        sides = [fields.get(c, "") for c in ("black", "white")]
        if "lianzhu" not in sides or "opening" not in fields:
            continue
        ours = sides.index("lianzhu")
        for i in range(len(opening(book, fields)), len(moves) - 10):
            if i % 2 == ours:
                found.append(moves[:i])
    rng = random.Random(args.seed)
    rng.shuffle(found)
    return found[: args.positions]


def choose(cmd, positions, args):
    """The engine's move for each position (None where it gave none); a command ending in
    `@T` searches T ms a move instead of `--time-ms`."""
    time_ms = args.time_ms
    if re.search(r"@\d+$", cmd):
        cmd, t = cmd.rsplit("@", 1)
        time_ms = int(t)
    budget = ["--time-ms", str(time_ms)] if args.nodes == 0 else ["--nodes", str(args.nodes)]
    base = shlex.split(cmd) + ["analyze", "--rule", args.rule, "--size", str(args.size)] + budget
    halves = [positions[0::2], positions[1::2]]
    procs = []
    for h in halves:
        p = subprocess.Popen(base, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
        procs.append(p)
        p.stdin.write("".join("".join(m) + "\n" for m in h))
        p.stdin.close()
    outs = [p.stdout.read().splitlines() for p in procs]
    for p in procs:
        p.wait()
    result = [None] * len(positions)
    for k, lines in enumerate(outs):
        for j, line in enumerate(lines):
            m = re.match(r"best ([a-z]\d+)", line)
            result[2 * j + k] = m.group(1) if m else None
    return result


def point(name):
    return (COLS.index(name[0]), int(name[1:]) - 1)


def judge(positions, chosen, args, tmp):
    """The judge's value of each position after its chosen move, for the side that moved."""
    lines = ["# lianzhu-games v1"]
    index = []
    for k, (pos, m) in enumerate(zip(positions, chosen)):
        if m is None:
            continue
        # Any empty point: the judge is asked about the position before this placeholder.
        taken = {point(x) for x in pos + [m]}
        dummy = next(
            (x, y) for x in range(args.size) for y in range(args.size) if (x, y) not in taken
        )
        d = f"{COLS[dummy[0]]}{dummy[1] + 1}"
        lines.append(f"{args.rule} {args.size} D " + " ".join(pos + [m, f"{d}={SENTINEL}"]))
        index.append(k)
    src, dst = os.path.join(tmp, "in.txt"), os.path.join(tmp, "out.txt")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    subprocess.run([args.match, "--label", src, dst, "--judge", args.judge, "--nodes",
                    str(args.judge_nodes)], check=True, stderr=subprocess.DEVNULL)
    values = [None] * len(positions)
    games = [l for l in open(dst) if not l.startswith("#")]
    for k, line in zip(index, games):
        s = line.split()[-1].split("=")[1]
        if s == str(SENTINEL):
            continue
        v = CLIP if s == "+M" else -CLIP if s == "-M" else max(-CLIP, min(CLIP, int(s)))
        values[k] = -v
    return values


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rule", default="freestyle")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--openings", required=True)
    ap.add_argument("--records", nargs="+", required=True)
    ap.add_argument("--positions", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-ms", type=int, default=300)
    ap.add_argument("--nodes", type=int, default=0)
    ap.add_argument("--judge", required=True)
    ap.add_argument("--judge-nodes", type=int, default=20000)
    ap.add_argument("--match", default="target/release/lianzhu-match")
    ap.add_argument("--engine", action="append", required=True, help="NAME=COMMAND[@MS]")
    args = ap.parse_args()
    engines = [e.split("=", 1) for e in args.engine]
    positions = sample(args)
    print(f"{len(positions)} positions", file=sys.stderr)
    values, moves = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, cmd in engines:
            moves[name] = choose(cmd, positions, args)
            values[name] = judge(positions, moves[name], args, tmp)
            print(f"{name}: judged", file=sys.stderr)
    keep = [k for k in range(len(positions)) if all(values[n][k] is not None for n, _ in engines)]
    first = engines[0][0]
    print(f"positions {len(keep)} of {len(positions)}; judge {args.judge_nodes} nodes; "
          f"{'%d ms' % args.time_ms if args.nodes == 0 else '%d nodes' % args.nodes} a move")
    for name, _ in engines:
        v = [values[name][k] for k in keep]
        line = f"{name:12} mean value {sum(v) / len(v):8.1f}"
        if name != first:
            d = [values[name][k] - values[first][k] for k in keep]
            mean = sum(d) / len(d)
            sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1))
            half = 1.96 * sd / math.sqrt(len(d))
            same = sum(moves[name][k] == moves[first][k] for k in keep) / len(keep)
            line += (f"   vs {first}: {mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}], "
                     f"same move {same:.2f}")
        print(line)


if __name__ == "__main__":
    main()
