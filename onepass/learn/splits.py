"""Seeded, stratified splits: train (fit), validation (choose a method, fit a temperature), test (report only).

Stratified by the gold answer of one question (the first labelled one): each class's items are shuffled
with the seed and dealt to the splits in proportion, so a rare class lands in train before it lands
anywhere else. The same seed and items give the same split on any machine.
"""

from __future__ import annotations

import numpy as np

__all__ = ["stratified", "budget"]


def _by_class(strata: list[int], pool: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
    classes = sorted({strata[i] for i in pool})
    return [rng.permutation(np.array([i for i in pool if strata[i] == c])) for c in classes]


def stratified(strata: list[int], fractions: tuple[float, ...], seed: int, pool: np.ndarray | None = None) -> list[np.ndarray]:
    """Split `pool` (default: every index) into len(fractions) parts of about those shares, class by class.
    The remainder of each class goes to the first part (train), so every class with one item is trained on."""
    rng = np.random.default_rng(seed)
    pool = np.arange(len(strata)) if pool is None else np.asarray(pool)
    parts: list[list[int]] = [[] for _ in fractions]
    for members in _by_class(strata, pool, rng):
        counts = [int(np.floor(f * len(members))) for f in fractions[1:]]
        start = len(members) - sum(counts)
        parts[0] += members[:start].tolist()
        for k, n in enumerate(counts, 1):
            parts[k] += members[start:start + n].tolist()
            start += n
    return [np.sort(np.array(p, dtype=int)) for p in parts]


def budget(strata: list[int], labels: int, test: np.ndarray, seed: int, val_share: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
    """(train, validation) drawn from the items outside `test`: `labels` items in all, as a user with that many
    labels would have them (round-robin over classes in a seeded order, so small budgets cover as many
    classes as they can), of which `val_share` go to validation."""
    rng = np.random.default_rng(seed)
    held = set(int(i) for i in test)
    pool = np.array([i for i in range(len(strata)) if i not in held])
    queues = _by_class(strata, pool, rng)
    order = rng.permutation(len(queues))
    picked: list[int] = []
    depth = 0
    while len(picked) < labels and any(depth < len(q) for q in queues):
        for c in order:
            if depth < len(queues[c]) and len(picked) < labels:
                picked.append(int(queues[c][depth]))
        depth += 1
    picked_arr = rng.permutation(np.array(picked, dtype=int))
    n_val = max(1, int(round(val_share * len(picked_arr))))
    return np.sort(picked_arr[n_val:]), np.sort(picked_arr[:n_val])
