#!/usr/bin/env python3
"""The sparring Rapfi's classical tables as Lianzhu eval files, for `--eval` experiments.

Rapfi's classical model (`model220723.bin` in the sparring kit's engines/rapfi; its weights
are CC0) holds, per table (freestyle, standard, renju black, renju white), a value per pcode
(multiset of four of Rapfi's 14 line patterns), a threat value per 11-bit threat mask and two
move scores per pcode (own move, blocking move), after an f64 logistic scale. This script
decodes it (`lz4 -d`) and writes one version-3 Lianzhu table file per rule
(`src/eval/tables.rs`): every Lianzhu pcode takes the value of the Rapfi pcode its shapes map
to (live twos by their ways to a live three: one or two ways -> F2, three or more -> F2A; a
live three with two live-four points -> F3S; a single-line double four -> F4), the same
value for both roles; the threat flags are reordered to Lianzhu's mask; values are scaled from
Rapfi's logistic scale to `--scale` (Lianzhu's tables are fitted at 500). The move-ordering
scores are Lianzhu's shipped ones (src/eval/learned) unless `--policy`, which takes Rapfi's.

The mapping is approximate (Rapfi tells live twos with three and four ways apart and looks 4
cells along a freestyle line, Lianzhu 5), and Rapfi's evaluation averages the cell sum with
the one a ply earlier, which Lianzhu's does not; so this measures Rapfi's tables in our
search, not Rapfi's evaluation.

Usage: scripts/rapfi-tables.py --model ~/.cache/lianzhu-sparring/engines/rapfi/model220723.bin
       --out DIR [--policy] [--scale 500]
Then: pbrain-lianzhu --eval DIR/rapfi-freestyle.lzev (and so on per rule).
"""

import argparse
import os
import struct
import subprocess
from itertools import combinations_with_replacement

PATTERNS = 14  # Rapfi: DEAD OL B1 F1 B2 F2 F2A F2B B3 F3 F3S B4 F4 F5
SHAPES = 15  # Lianzhu: src/eval/shape.rs
PCODES, RAPFI_PCODES, MASKS = 3060, 2380, 2048
VALUE_UNIT = 4
# Lianzhu shape code -> Rapfi pattern.
SHAPE_TO_PATTERN = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 12: 5, 13: 6, 6: 8, 7: 9, 14: 10,
                    8: 11, 9: 12, 10: 12, 11: 13}
# Lianzhu mask bit -> Rapfi mask bit (Lianzhu: bit 0 opponent five, then per flag k the
# side to move at 1 + 2k and the opponent at 2 + 2k; Rapfi: self flags 1, 3-6, opponent 2, 7-10).
MASK_BITS = {0: 0, 1: 1, 2: 2, 3: 3, 4: 7, 5: 4, 6: 8, 7: 5, 8: 9, 9: 6, 10: 10}
RULES = [("freestyle", 0, (0, 0)), ("standard", 1, (1, 1)), ("renju", 4, (2, 3))]


def read_model(path):
    raw = subprocess.run(["lz4", "-d", "-c", path], check=True, capture_output=True).stdout
    scale = struct.unpack_from("<d", raw)[0]
    off = 8

    def take(n):
        nonlocal off
        out = struct.unpack_from(f"<{n}h", raw, off)
        off += 2 * n
        return out

    values = [take(RAPFI_PCODES) for _ in range(4)]
    threat = [take(MASKS) for _ in range(4)]
    scores = []
    for _ in range(4):
        pairs = take(2 * RAPFI_PCODES)
        scores.append((pairs[0::2], pairs[1::2]))
    if off != len(raw):
        raise SystemExit(f"{path}: {len(raw)} bytes decoded, the layout needs {off}")
    return scale, values, threat, scores


def lianzhu_pcodes():
    """The sorted shapes of every Lianzhu pcode (dense, in order of the first key)."""
    seen, out = set(), []
    for key in range(SHAPES ** 4):
        shapes = tuple(sorted(key // SHAPES ** i % SHAPES for i in range(4)))
        if shapes not in seen:
            seen.add(shapes)
            out.append(shapes)
    assert len(out) == PCODES
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--policy", action="store_true", help="take Rapfi's move scores too")
    ap.add_argument("--scale", type=float, default=500.0)
    args = ap.parse_args()
    scale, values, threat, scores = read_model(args.model)
    rapfi = {t: i for i, t in enumerate(combinations_with_replacement(range(PATTERNS), 4))}
    to_rapfi = [rapfi[tuple(sorted(SHAPE_TO_PATTERN[s] for s in shapes))]
                for shapes in lianzhu_pcodes()]
    mask_of = [sum(1 << MASK_BITS[b] for b in range(11) if m >> b & 1) for m in range(MASKS)]
    k = args.scale / scale
    clamp = lambda x: max(-32768, min(32767, round(x)))
    repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    os.makedirs(args.out, exist_ok=True)
    for name, gomocup, tables in RULES:
        shipped = open(os.path.join(repo, "src/eval/learned", f"{name}.lzev"), "rb").read()
        out = bytearray(b"LZEVAL\x00\x03" + bytes([gomocup, 0, 0, 0]))
        for colour in range(2):
            row = [clamp(k * VALUE_UNIT * values[tables[colour]][r]) for r in to_rapfi]
            out += struct.pack(f"<{PCODES}h", *row) * 2
        for stm in range(2):
            out += struct.pack(f"<{MASKS}h", *[clamp(k * threat[tables[stm]][m]) for m in mask_of])
        if args.policy:
            for colour in range(2):
                for part in range(2):
                    row = [scores[tables[colour]][part][r] for r in to_rapfi]
                    out += struct.pack(f"<{PCODES}h", *row)
        else:
            out += shipped[len(out):]
        assert len(out) == len(shipped)
        suffix = "-policy" if args.policy else ""
        path = os.path.join(args.out, f"rapfi-{name}{suffix}.lzev")
        open(path, "wb").write(bytes(out))
        print(path)
    print(f"Rapfi's logistic scale {scale}, values scaled by {k}")


if __name__ == "__main__":
    main()
