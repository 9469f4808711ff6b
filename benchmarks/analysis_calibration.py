"""Calibration of analysis estimates against exact values, on more positions than the test.

    python benchmarks/analysis_calibration.py [--mt 60] [--mr 30]

Runs ``tests/analysis/test_calibration.py``'s comparisons (see its module
doc: exact values over every deal consistent with the view, near the end of
a round) over more positions and prints how the z values
``(estimate - exact) / se`` are spread: a standard normal has 95.4% within 2,
99.7% within 3 and a mean square of 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.analysis.test_calibration import mr_zs, mt_zs


def describe(name: str, zs: list[float]) -> str:
    n = len(zs)
    within2 = sum(abs(z) < 2 for z in zs) / n
    within3 = sum(abs(z) < 3 for z in zs) / n
    square = sum(z * z for z in zs) / n
    mean = sum(zs) / n
    return (
        f"{name}: {n} comparisons, {100 * within2:.1f}% within 2 SE, {100 * within3:.1f}%"
        f" within 3, mean z {mean:+.2f}, mean z² {square:.2f}, max |z| {max(map(abs, zs)):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mt", type=int, default=60, help="Marshmallow Test positions")
    parser.add_argument("--mr", type=int, default=30, help="MyRummy 111 hands")
    args = parser.parse_args()
    print(describe("Marshmallow Test, last 2-3 tricks (win and points)", mt_zs(args.mt, 0.1)))
    print(describe("MyRummy 111, one exchange from sorted (points)", mr_zs(args.mr, 0.3)))


if __name__ == "__main__":
    main()
