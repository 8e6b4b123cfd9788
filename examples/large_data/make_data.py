"""Write predictions.parquet: 10 million synthetic predictions of two learners.

Seeded and written in chunks of one million rows with pyarrow's ParquetWriter, so
memory stays small while writing. Not committed (about 170 MB); make it with

    python3 make_data.py                 # predictions.parquet beside this file
    python3 make_data.py --rows 1000000  # a smaller file

The columns:

    y        1 = positive (20 % of the rows), 0 = negative
    narrow   a binormal learner whose positive scores, N(1.4, 0.6) against the
             negatives' N(0, 1), are tightly spread: better at high sensitivity
    wide     a binormal learner whose positive scores, N(1.7, 1.8), are widely
             spread: better at high specificity (few false positives)

Their ROC curves cross once, near FPR 0.106 (latent threshold 1.25), so neither
learner is better at every threshold.
Scores are squashed to (0, 1) with the logistic function.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
SEED = 20261122
CHUNK = 1_000_000
SCHEMA = pa.schema([("y", pa.int8()), ("narrow", pa.float64()), ("wide", pa.float64())])


def chunk(rng: np.random.Generator, n: int) -> pa.Table:
    y = rng.random(n) < 0.2
    # latent scores: negatives N(0, 1) for both; positives N(1.4, 0.6) and N(1.7, 1.8)
    narrow = np.where(y, rng.normal(1.4, 0.6, n), rng.normal(0.0, 1.0, n))
    wide = np.where(y, rng.normal(1.7, 1.8, n), rng.normal(0.0, 1.0, n))
    return pa.table({"y": y.astype(np.int8), "narrow": squash(narrow), "wide": squash(wide)},
                    schema=SCHEMA)


def squash(z: np.ndarray) -> np.ndarray:
    """The logistic function, with the C library's exp (math.exp) rather than
    NumPy's: NumPy computes exp with its own AVX-512 kernel where the processor has
    one and with the C library's elsewhere, and the two differ in the last digit of
    some values, so the file (and its sha256 in results.json) would depend on the
    processor. About 0.15 s per million values."""
    e = np.fromiter(map(math.exp, (-z).tolist()), dtype=np.float64, count=z.size)
    return 1.0 / (1.0 + e)


def write(path: Path, rows: int, seed: int = SEED) -> None:
    rng = np.random.default_rng(seed)
    tmp = path.with_name(path.name + ".tmp")
    with pq.ParquetWriter(tmp, SCHEMA, compression="zstd") as writer:
        done = 0
        while done < rows:
            n = min(CHUNK, rows - done)
            writer.write_table(chunk(rng, n))
            done += n
    tmp.replace(path)  # never leave a half-written file under the real name


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--out", type=Path, default=HERE / "predictions.parquet")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    write(args.out, args.rows)
    size = args.out.stat().st_size / 1e6
    print(f"wrote {args.out}: {args.rows:,} rows, {size:.0f} MB, {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
