"""The tensors of each kind of forward pass the embedded backend runs, built on the host (the backend moves
them to the model's device), and the one way label log-probabilities are read out of a pass's logits.

Every layout gives each read the positions and attention it would have alone behind its prefix, so every
path returns the numbers of the same read run alone, up to float rounding:
- padded rows: suffixes left-padded in rows behind a copy of the prefix cache, padding masked;
- packed: suffixes end to end in one sequence behind the prefix cache, a block mask per suffix;
- cross-request rows: one row per request, `[padding | prefix | packed suffixes]`, no cache;
- trie chunk: option-trie nodes packed behind a likelihood context, each node seeing its ancestors.
"""

from __future__ import annotations

import numpy as np
import torch

from onepass.backends.base import Read
from onepass.backends.batcher import Job
from onepass.backends.trie import OptionTrie

__all__ = ["blocks", "cross_rows", "label_logprobs", "left_padded", "packed", "trie_chunk"]


def label_logprobs(logits: torch.Tensor, token_ids: list[list[int]]) -> list[np.ndarray]:
    """Log-probabilities of each row's label tokens from (rows, vocab) logits: normalised and gathered
    on the model's device in float32, then one transfer of those few numbers to the host per pass (a
    per-row `.cpu()` would synchronise a GPU once per read)."""
    rows = torch.tensor([r for r, ids in enumerate(token_ids) for _ in ids], device=logits.device)
    cols = torch.tensor([t for ids in token_ids for t in ids], device=logits.device)
    picked = logits[rows, cols].float() - torch.logsumexp(logits.float(), dim=-1)[rows]
    flat = picked.double().cpu().numpy()
    return np.split(flat, np.cumsum([len(ids) for ids in token_ids])[:-1])


def left_padded(rows: list[Read], prefix_len: int, pad_id: int):
    """(input ids, attention mask over prefix + suffix, position ids) for one read batch: suffixes
    left-padded, padding masked, positions continuing from the prefix as if each row were alone."""
    width = max(len(r.suffix) for r in rows)
    n = len(rows)
    ids = torch.full((n, width), pad_id, dtype=torch.long)
    mask = torch.zeros((n, prefix_len + width), dtype=torch.long)
    mask[:, :prefix_len] = 1
    positions = torch.full((n, width), prefix_len, dtype=torch.long)
    for r, read in enumerate(rows):
        k = len(read.suffix)
        ids[r, width - k :] = torch.tensor(read.suffix)
        mask[r, prefix_len + width - k :] = 1
        positions[r, width - k :] = torch.arange(prefix_len, prefix_len + k)
    return ids, mask, positions


def blocks(lengths: list[int], start: int):
    """Positions and a causal-within-block boolean (tokens x tokens) for suffixes laid end to end,
    each suffix's positions starting at `start` (right after its prefix)."""
    block = torch.repeat_interleave(torch.arange(len(lengths)), torch.tensor(lengths))
    offsets = torch.cat([torch.arange(k) for k in lengths])
    allowed = (block[:, None] == block[None, :]) & (offsets[:, None] >= offsets[None, :])
    return start + offsets, allowed


def packed(rows: list[Read], prefix_len: int, dtype: torch.dtype):
    """(input ids, 4D additive mask, position ids, indices of each suffix's last token) for one packed
    sequence behind a prefix of `prefix_len` tokens."""
    lengths = [len(r.suffix) for r in rows]
    total = sum(lengths)
    positions, allowed = blocks(lengths, prefix_len)
    mask = torch.zeros((1, 1, total, prefix_len + total), dtype=dtype)
    mask[0, 0, :, prefix_len:].masked_fill_(~allowed, torch.finfo(dtype).min)
    ids = torch.tensor([[t for r in rows for t in r.suffix]], dtype=torch.long)
    ends = torch.tensor(np.cumsum(lengths) - 1, dtype=torch.long)
    return ids, mask, positions[None], ends


def cross_rows(jobs: list[Job], pad_id: int, dtype: torch.dtype, shape: tuple[int, int] | None = None):
    """(input ids, 4D additive mask, position ids, boolean keep mask) for one row per job:
    [left padding | prefix | packed suffixes], with no cache. The prefix is causal, each suffix sees
    its own prefix and itself; padding is seen by nobody (a padding query sees itself only, so softmax
    never meets an all-masked row). `shape` (rows, width) pads to a CUDA-graph bucket: extra rows are all
    padding."""
    lengths = [len(j.prefix) + sum(len(r.suffix) for r in j.reads) for j in jobs]
    n, width = shape or (len(jobs), max(lengths))
    minimum = torch.finfo(dtype).min
    ids = torch.full((n, width), pad_id, dtype=torch.long)
    mask = torch.full((n, 1, width, width), minimum, dtype=dtype)
    positions = torch.zeros((n, width), dtype=torch.long)
    keep = torch.zeros((n, width), dtype=torch.bool)
    diagonal = torch.arange(width)
    mask[:, 0, diagonal, diagonal] = 0.0
    for r, (job, length) in enumerate(zip(jobs, lengths)):
        p, pad = len(job.prefix), width - length
        suffix_lengths = [len(x.suffix) for x in job.reads]
        ids[r, pad:] = torch.tensor(job.prefix + [t for x in job.reads for t in x.suffix])
        block_positions, allowed = blocks(suffix_lengths, p)
        positions[r, pad : pad + p] = torch.arange(p)
        positions[r, pad + p :] = block_positions
        view = mask[r, 0, pad:, pad:]
        view[:p, :p].masked_fill_(torch.ones(p, p, dtype=torch.bool).tril(), 0.0)
        view[p:, :p] = 0.0
        view[p:, p:].masked_fill_(allowed, 0.0)
        keep[r, pad + p - 1 + np.cumsum(suffix_lengths)] = True
    return ids, mask, positions, keep


def trie_chunk(trie: OptionTrie, chunk: list[int], start: int, dtype: torch.dtype):
    """(input ids, 4D additive mask, position ids, kept positions, inner nodes) for trie nodes `chunk`
    (ancestors before descendants) packed behind a context that ends at position `start`. Each node sees
    the context, its ancestors and itself; logits are kept only at inner nodes (their children are the
    option tokens to score)."""
    inner = [n for n in chunk if trie.children[n]]
    local = {node: i for i, node in enumerate(chunk)}
    n = len(chunk)
    allowed = torch.zeros((n, n), dtype=torch.bool)
    for i, node in enumerate(chunk):
        parent = trie.parent[node]
        if parent >= 0:
            allowed[i] = allowed[local[parent]]  # ancestors come first, so the parent's row is complete
        allowed[i, i] = True
    mask = torch.zeros((1, 1, n, start + n), dtype=dtype)
    mask[0, 0, :, start:].masked_fill_(~allowed, torch.finfo(dtype).min)
    ids = torch.tensor([[trie.token[node] for node in chunk]], dtype=torch.long)
    positions = torch.tensor([[start + trie.depth[node] for node in chunk]], dtype=torch.long)
    keep = torch.tensor([local[node] for node in inner], dtype=torch.long)
    return ids, mask, positions, keep, inner
