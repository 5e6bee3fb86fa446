#!/usr/bin/env python3
"""The balance of the engine's renju opening decisions (issue 19's self-play run).

For each of the 26 openings, the engine takes every decision of the protocol through
`pbrain-lianzhu opening` (swap or not, white's 4th move and N, the second swap under
Soosõrv-8, black's N fifth-move offers, white's pick and 6th move), which gives one
six-stone position per opening. Then the engine plays itself from those positions with
`lianzhu-match` under renju (each position twice, so both engines take black once). If
the offers are as weak as black can make them and white picks the best, the positions are
near balance: the report gives black's score with its 95% interval, the swap counts, and
each opening's line and results.

Usage: scripts/opening-balance.py [--protocol rif|soosorv8] [--nodes N] [--turn-ms T]
       [--out DIR] [--engine PATH] [--match PATH]
Defaults: soosorv8 (Yixin-Board's flow), 300,000 search nodes a decision (deterministic with
one thread), 100 ms a move, the release binaries of this repository (`cargo build --release`
first), output in target/opening-balance/.
"""

import argparse
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def decide(engine, protocol, stage, line, nodes):
    """One decision of the opening CLI for one input line; its JSON answer."""
    out = subprocess.run(
        [engine, "opening", "--protocol", protocol, "--stage", str(stage), "--nodes", str(nodes)],
        input=line + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    answer = json.loads(out)
    if "error" in answer:
        sys.exit(f"opening-balance: stage {stage} of {protocol} refused '{line}': {answer['error']}")
    return answer


def walk(engine, protocol, stones, nodes):
    """Every stage after the opening's three stones; returns (six stones, record of the choices)."""
    moves = "".join(stones)
    rec = {}
    rec["swap1"] = decide(engine, protocol, 2, moves, nodes)["swap"]
    fourth = decide(engine, protocol, 3, moves, nodes)
    moves += fourth["move"]
    if protocol == "soosorv8":
        n = fourth["offers"]
        rec["n"] = n
        rec["swap2"] = decide(engine, protocol, 4, f"{moves} n={n}", nodes)["swap"]
        offers = decide(engine, protocol, 5, f"{moves} n={n}", nodes)["offers"]
        pick = decide(engine, protocol, 6, f"{moves} n={n} offers={''.join(offers)}", nodes)
    else:
        offers = decide(engine, protocol, 4, moves, nodes)["offers"]
        pick = decide(engine, protocol, 5, f"{moves} offers={''.join(offers)}", nodes)
    rec["offers"] = offers
    rec["fifth"], rec["sixth"] = pick["fifth"], pick["sixth"]
    return moves + pick["fifth"] + pick["sixth"], rec


def interval(score, games):
    """Black's score and a 95% normal interval, as fractions."""
    half = 1.96 * math.sqrt(max(score * (1 - score), 1e-9) / games)
    return max(0.0, score - half), min(1.0, score + half)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--protocol", default="soosorv8", choices=["rif", "soosorv8"])
    ap.add_argument("--nodes", type=int, default=300_000)
    ap.add_argument("--turn-ms", type=int, default=100)
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "opening-balance"))
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "pbrain-lianzhu"))
    ap.add_argument("--match", default=os.path.join(ROOT, "target", "release", "lianzhu-match"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    listing = subprocess.run([args.engine, "opening", "--list"], capture_output=True, text=True, check=True)
    openings = [json.loads(l) for l in listing.stdout.splitlines() if l.strip()]
    if len(openings) != 26:
        sys.exit(f"opening-balance: the engine lists {len(openings)} openings, not 26")

    positions, records = [], []
    for o in openings:
        line, rec = walk(args.engine, args.protocol, o["stones"], args.nodes)
        positions.append(line)
        records.append(rec)
        print(f"{o['code']:>3} {o['name']:<10} {line}  {json.dumps(rec)}", flush=True)

    book = os.path.join(args.out, f"{args.protocol}.txt")
    with open(book, "w") as f:
        f.write(f"# The engine's {args.protocol} openings: the 26 openings, every decision from\n")
        f.write(f"# `pbrain-lianzhu opening --nodes {args.nodes}` (scripts/opening-balance.py).\n")
        f.write("\n".join(positions) + "\n")
    games_out = os.path.join(args.out, f"{args.protocol}.games")
    subprocess.run(
        [args.match, "--engine", args.engine, "--name", "a", "--engine", args.engine, "--name", "b",
         "--rule", "renju", "--size", "15", "--games", str(2 * len(positions)),
         "--turn-ms", str(args.turn_ms), "--concurrency", "2", "--openings", book,
         "--games-out", games_out],
        stdout=subprocess.DEVNULL,
        check=True,
    )

    # Black's results per opening line (the games file gives the moves, then the result).
    by_line = {p: [0, 0, 0] for p in positions}
    for g in open(games_out):
        fields = g.split()
        if len(fields) < 2:
            continue
        moves, result = fields[0], fields[1]
        start = next((p for p in positions if moves.startswith(p)), None)
        if start is None:
            sys.exit(f"opening-balance: a game does not start with one of the positions: {moves}")
        k = {"1-0": 0, "0-1": 1}.get(result, 2)
        by_line[start][k] += 1
    w = sum(v[0] for v in by_line.values())
    l = sum(v[1] for v in by_line.values())
    d = sum(v[2] for v in by_line.values())
    games = w + l + d
    score = (w + d / 2) / games
    lo, hi = interval(score, games)
    print()
    for o, p in zip(openings, positions):
        bw, bl, bd = by_line[p]
        print(f"{o['code']:>3} {o['name']:<10} {p:<14} black {bw}-{bl}-{bd}")
    swaps1 = sum(r["swap1"] for r in records)
    swaps2 = sum(r.get("swap2", False) for r in records)
    print(
        f"\n{args.protocol}: {len(positions)} openings, first swap {swaps1}/26"
        + (f", second swap {swaps2}/26" if args.protocol == "soosorv8" else "")
        + f"; self-play from the six-stone positions, {games} games at {args.turn_ms} ms:"
        f" black {w}-{l}-{d}, score {100 * score:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
    )


if __name__ == "__main__":
    main()
