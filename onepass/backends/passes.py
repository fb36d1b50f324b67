"""How the embedded backend cuts a request's work into forward passes that fit its memory budget: which
reads share a pass (padded rows or packed sequences), which concurrent requests share one cross-request
pass, how long a state is prefilled in chunks, and the up-front refusal (413) of work whose smallest pass
cannot fit. Decisions only: the backend builds the tensors (`layouts`) and runs the passes.
"""

from __future__ import annotations

from typing import Iterator

from onepass.backends.base import Continuation, Read
from onepass.backends.batcher import Job
from onepass.backends.graphs import bucket
from onepass.backends.memory import MemoryBudget
from onepass.backends.trie import OptionTrie

__all__ = ["PREFILL_MIN_STEP", "READ_MODES", "admit", "chunk_bytes", "free_bytes", "padded_batches",
           "prefill_step", "read_batches", "reads_as_trie", "shared_rows"]

READ_MODES = ("auto", "batched", "packed")
PREFILL_MIN_STEP = 256  # the shortest chunk a long state is prefilled in when the whole does not fit


def prefill_step(memory: MemoryBudget, p: int, invariant: bool = False) -> int:
    """Tokens per prefill pass: the whole state when it fits the budget, else halves down to 256. With
    `invariant` always 256 (or the whole state when shorter), whatever the budget, so a state's KV cache
    (and every answer read on it) does not change with the budget a server was started with."""
    if invariant:
        return max(1, min(p, PREFILL_MIN_STEP))
    step = p
    while step > PREFILL_MIN_STEP and memory.pass_bytes(1, step, p, 1) > memory.budget:
        step = (step + 1) // 2
    return max(step, 1)


TRIE_MAX_LABELS = 4  # a read's labels become trie leaves (fed as tokens): worth it for yes/no reads only
TRIE_MIN_SAVING = 0.25  # of the reads' suffix tokens, for the trie to replace plain read passes


def reads_as_trie(reads: list[Read]) -> tuple[Continuation, list[list[int]]] | None:
    """One request's reads as one continuation, when they share enough leading tokens to be worth it: the
    isolated family's reads of one question repeat its whole instructions block before each option. The
    reads' common start is the context and each read's rest plus one of its labels an option, so the trie
    computes every shared token once and the last token of option (read i, label j) is scored exactly
    where read i's label j would be. Returns (continuation, per read the indices of its options), or None."""
    if len(reads) < 2 or any(not r.suffix or len(r.token_ids) > TRIE_MAX_LABELS for r in reads):
        return None
    first = reads[0].suffix
    shared = min(len(r.suffix) for r in reads)
    for r in reads[1:]:
        while shared and r.suffix[:shared] != first[:shared]:
            shared -= 1
    if shared == 0:
        return None
    options, where = [], []
    for r in reads:
        where.append(list(range(len(options), len(options) + len(r.token_ids))))
        options += [r.suffix[shared:] + [t] for t in r.token_ids]
    nodes = shared + len(OptionTrie(options).token)
    if nodes > (1 - TRIE_MIN_SAVING) * sum(len(r.suffix) for r in reads):
        return None
    return Continuation(first[:shared], options), where


def free_bytes(memory: MemoryBudget, prefix_len: int) -> int:
    """Bytes a pass may use while this request's prefix cache is held (the other cached ones can go)."""
    return memory.budget - memory.cache_bytes(prefix_len)


def chunk_bytes(memory: MemoryBudget, trie: OptionTrie, chunk: list[int], start: int) -> int:
    """One trie chunk's pass behind a context ending at `start`."""
    kept = sum(1 for k in chunk if trie.children[k])
    # The context cache copy is held while its chunks run, plus each chunk's own copy and pass.
    return memory.cache_bytes(start) + memory.pass_bytes(1, len(chunk), start + len(chunk), kept)


def admit(memory: MemoryBudget, prefix: list[int], reads: list[Read] = (), items: list[Continuation] = (), *,
          continuation_max_tokens: int, max_logit_rows: int, invariant: bool = False) -> None:
    """Refuse (413) before anything is allocated when the smallest pass of this work cannot fit in the
    budget: the prefill, a read alone, a likelihood context, or the smallest trie chunk."""
    p, m = len(prefix), memory
    prefill = m.pass_bytes(1, prefill_step(m, p, invariant), p, 1)
    if prefill > m.budget:
        raise m.refuse(prefill, f"prefilling the {p}-token state")
    free = free_bytes(m, p)
    for read in reads:
        need = m.pass_bytes(1, len(read.suffix), p + len(read.suffix), 1)
        if need > free:
            raise m.refuse(need + m.cache_bytes(p), f"a {len(read.suffix)}-token question on a {p}-token state")
    for item in items:
        c = len(item.context)
        if m.pass_bytes(1, c, p + c, 1) > free:
            raise m.refuse(m.pass_bytes(1, c, p + c, 1) + m.cache_bytes(p), f"a {c}-token likelihood question")
        trie = OptionTrie(item.options)
        for chunk in trie.chunks(continuation_max_tokens, max_logit_rows):
            need = chunk_bytes(m, trie, chunk, p + c)
            if need > free:
                raise m.refuse(need + m.cache_bytes(p), f"scoring {len(item.options)} options of "
                               f"{sum(map(len, item.options))} tokens on a {p}-token state")


def padded_batches(reads: list[Read], prefix_len: int, memory: MemoryBudget, *, max_batch: int,
                   max_batch_tokens: int) -> Iterator[list[int]]:
    """Indices of reads per padded-rows pass: reads of similar length together (less padding), bounded in
    rows, (prefix + padded suffix) tokens and bytes per pass."""
    order = sorted(range(len(reads)), key=lambda i: len(reads[i].suffix))
    free = free_bytes(memory, prefix_len)
    batch: list[int] = []
    for i in order:
        longest = len(reads[i].suffix)  # sorted ascending, so the newest is the longest
        rows = len(batch) + 1
        over_budget = memory.pass_bytes(rows, longest, prefix_len + longest, rows) > free
        if batch and (rows > max_batch or rows * (prefix_len + longest) > max_batch_tokens or over_budget):
            yield batch
            batch = []
        batch.append(i)
    if batch:
        yield batch


def read_batches(reads: list[Read], prefix_len: int, mode: str, memory: MemoryBudget, *, max_batch: int,
                 max_batch_tokens: int, packed_max_tokens: int, pack_when_padding: float,
                 invariant: bool = False) -> Iterator[tuple[list[int], bool]]:
    """(indices, packed?) per forward pass for one request's reads (all with a suffix), in `mode` (one of
    READ_MODES). With `invariant` every read is a pass of its own (no padding, no neighbours), whatever
    the mode: its numbers then depend on its own tokens only (docs/throughput.md, batch invariance)."""
    if invariant:
        for i in range(len(reads)):
            yield [i], False
        return
    batches = list(padded_batches(reads, prefix_len, memory, max_batch=max_batch, max_batch_tokens=max_batch_tokens)
                   ) if mode != "packed" else []
    if mode == "auto" and len(reads) > 1:
        # Measured on CPU (bench/packing.py): padded rows win when suffixes are about the same length
        # (packing's attention grows with the packed length); packing wins once padding would waste a
        # fifth of the tokens (1.6-1.9x faster at 1.9x padding).
        total = sum(len(r.suffix) for r in reads)
        padded = sum(len(b) * max(len(reads[i].suffix) for i in b) for b in batches)
        mode = "packed" if padded > pack_when_padding * total else "batched"
    if mode != "packed":
        for batch in batches:
            yield batch, False
        return
    free = free_bytes(memory, prefix_len)
    batch, width = [], 0
    for i, read in enumerate(reads):  # packed sequences of at most packed_max_tokens (or one read)
        grown = width + len(read.suffix)
        if batch and (grown > packed_max_tokens or
                      memory.pass_bytes(1, grown, prefix_len + grown, len(batch) + 1) > free):
            yield batch, True
            batch, width = [], 0
        batch.append(i)
        width += len(read.suffix)
    if batch:
        yield batch, True


def shared_rows(jobs: list[Job], memory: MemoryBudget, held: int, *, max_row_tokens: int, graphs: bool) -> list[Job]:
    """The jobs (requests' reads) that run together in one cross-request rows pass; empty when each should
    run alone. `held` is what the prefix cache holds (rows carry their prefixes, so they need no copy)."""
    together = [j for j in jobs if j.tokens <= max_row_tokens and all(r.suffix for r in j.reads)]
    # With CUDA graphs a lone small job takes the rows path too: one replay beats eager passes.
    lone_graph = graphs and len(together) == 1 and bucket(1, together[0].tokens) is not None
    if not (len(together) > 1 or lone_graph):
        return []
    width = max(j.tokens for j in together)
    kept = sum(len(j.reads) for j in together)
    if memory.pass_bytes(len(together), width, width, kept, cache_copy=False) > memory.budget - held:
        return []  # too big together for the budget: each runs alone
    return together
