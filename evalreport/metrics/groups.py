"""One confusion matrix per group (fold, run, data set), by counting, O(n)."""

from __future__ import annotations

import numpy as np

__all__ = ["group_codes", "binary_group_matrices"]


def group_codes(groups: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Group names (as text, in sorted order) and each row's group index."""
    values, codes = np.unique(groups, return_inverse=True)
    names = [str(v.item() if hasattr(v, "item") else v) for v in values]
    return names, codes.ravel()


def binary_group_matrices(is_pos: np.ndarray, predicted_pos: np.ndarray, codes: np.ndarray,
                          n_groups: int, weights=None) -> np.ndarray:
    """(TP, FP, TN, FN) of each group: an array of shape (n_groups, 4).

    >>> binary_group_matrices(np.array([1, 1, 0, 0], bool), np.array([1, 0, 1, 0], bool),
    ...                       np.array([0, 0, 1, 1]), 2).tolist()
    [[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]]
    """
    w = np.ones(codes.size) if weights is None else weights
    cell = 2 * (~is_pos).astype(np.int64) + (~predicted_pos).astype(np.int64)  # TP 0, FN 1, FP 2, TN 3
    counts = np.bincount(codes * 4 + cell, weights=w, minlength=4 * n_groups).reshape(n_groups, 4)
    return counts[:, [0, 2, 3, 1]]  # TP, FP, TN, FN
