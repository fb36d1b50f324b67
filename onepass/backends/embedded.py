"""In-process transformers backend: one prefill of the shared prefix, then the question reads.

A request's reads run one of two ways after its prefix (kept in a small LRU cache):
- batched: suffixes left-padded in rows, padding masked, positions continuing from the prefix, every row
  on its own copy of the prefix cache; one vocabulary projection per row (logits_to_keep=1);
- packed: all suffixes in one sequence behind the prefix, a block mask so each suffix sees the prefix and
  itself only, positions restarting after the prefix; projections only at each suffix's last token. No
  padding and fewer cache copies, but attention over the packed length grows quadratically, so sequences
  are cut at `packed_max_tokens`. read_mode="auto" packs only when padding would waste many tokens
  (suffixes of very different lengths); both choices are measured in docs/throughput.md.
Concurrent requests meet in a ReadBatcher: when several are waiting, each becomes one row
[padding | its prefix | its packed suffixes] of a single forward pass (the prefix is still computed once
per request). Every path gives a read the numbers of the same suffix read alone, up to float rounding.
"""

from __future__ import annotations

import copy
import inspect
import threading
from collections import OrderedDict

import numpy as np
import torch

from onepass.backends.base import Continuation, Read
from onepass.backends.batcher import Job, ReadBatcher, checkpoint, is_out_of_memory, shared_pass_failed
from onepass.backends.graphs import GraphedDecoder, bucket
from onepass.backends.memory import MemoryBudget, Shape, default_budget, return_freed_memory
from onepass.backends.trie import OptionTrie

READ_MODES = ("auto", "batched", "packed")
PREFILL_MIN_STEP = 256  # the shortest chunk a long state is prefilled in when the whole does not fit


def label_logprobs(logits: torch.Tensor, token_ids: list[list[int]]) -> list[np.ndarray]:
    """Log-probabilities of each row's label tokens from (rows, vocab) logits: normalised and gathered
    on the model's device in float32, then one transfer of those few numbers to the host per pass (a
    per-row `.cpu()` would synchronise a GPU once per read)."""
    rows = torch.tensor([r for r, ids in enumerate(token_ids) for _ in ids], device=logits.device)
    cols = torch.tensor([t for ids in token_ids for t in ids], device=logits.device)
    picked = logits[rows, cols].float() - torch.logsumexp(logits.float(), dim=-1)[rows]
    flat = picked.double().cpu().numpy()
    return np.split(flat, np.cumsum([len(ids) for ids in token_ids])[:-1])


class EmbeddedBackend:
    name = "embedded"
    reentrant = True  # concurrent callers are batched (reads) or serialised (everything else) here

    def __init__(self, model, tokenizer, max_batch_tokens: int = 16384, max_batch: int = 64,
                 prefix_cache_entries: int = 4, max_logit_rows: int = 256, read_mode: str = "auto",
                 packed_max_tokens: int = 256, pack_when_padding: float = 1.25, batch_wait_ms: float = 2.0, cross_max_jobs: int = 16,
                 cross_max_row_tokens: int = 1024, continuation_max_tokens: int = 1024,
                 memory_budget: int | None = None, cuda_graphs: bool | None = None):
        if read_mode not in READ_MODES:
            raise ValueError(f"read_mode must be one of {READ_MODES}, got {read_mode!r}")
        self.model = model
        # Recently prefilled prefixes (token tuple -> KV cache): a debiasing second round, or the next
        # request about the same state, skips the state prefill.
        self._prefixes: OrderedDict[tuple[int, ...], object] = OrderedDict()
        self.prefix_cache_entries = prefix_cache_entries
        self.max_logit_rows = max_logit_rows  # positions whose full-vocabulary logits are held at once
        self.continuation_max_tokens = continuation_max_tokens  # option-trie nodes packed into one pass
        self.device = next(model.parameters()).device
        self.dtype = next(model.parameters()).dtype
        self.max_batch_tokens = max_batch_tokens
        self.max_batch = max_batch
        self.read_mode = read_mode
        self.packed_max_tokens = packed_max_tokens  # longest packed sequence (a longer single read runs alone)
        self.pack_when_padding = pack_when_padding  # auto packs when padded tokens exceed this x real tokens
        # A cross-request row holds prefix + packed suffixes; the block mask is rows x width^2 floats.
        self.cross_max_row_tokens = cross_max_row_tokens
        config = model.config
        return_freed_memory()
        itemsize = torch.finfo(self.dtype).bits // 8
        self.memory = MemoryBudget(Shape.of(config, itemsize), memory_budget or default_budget(str(self.device)))
        self._prefix_bytes = 0  # held by the prefix cache; passes get the rest of the budget
        self.max_context = int(getattr(config, "max_position_embeddings", 0) or 2048)
        self.pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
        # transformers 5.24 renamed the forward argument past_key_values to cache.
        params = inspect.signature(model.forward).parameters
        self._cache_arg = "cache" if "cache" in params else "past_key_values"
        self._model_lock = threading.RLock()  # one forward at a time; the prefix cache is shared state
        # CUDA graphs (auto: on a CUDA device): small batches of cross-request rows are padded to a bucket
        # and replayed; a lone small request takes that path too, since one replay beats eager passes.
        self.graphs = cuda_graphs if cuda_graphs is not None else self.device.type == "cuda"
        self.decoder = GraphedDecoder(model, use_graphs=self.graphs)
        self.batcher = ReadBatcher(self._run_jobs, max_wait_s=batch_wait_ms / 1000, max_jobs=cross_max_jobs,
                                   max_tokens=cross_max_jobs * cross_max_row_tokens)

    def expecting(self):
        """Engine hook: a request is in flight (the batcher waits for companions only then)."""
        return self.batcher.expecting()

    def _forward(self, logits_to_keep=1, **kwargs):
        cache = kwargs.pop("kv", None)
        if cache is not None:
            kwargs[self._cache_arg] = cache
        return self.model(**kwargs, use_cache=True, logits_to_keep=logits_to_keep)

    def _cache_of(self, output):
        return getattr(output, self._cache_arg)

    @torch.inference_mode()
    def prefill(self, prefix: list[int]):
        """(KV cache, next-token log-probabilities) after the prefix; callers copy the cache, never mutate it."""
        with self._model_lock:
            key = tuple(prefix)
            if key in self._prefixes:
                self._prefixes.move_to_end(key)
                return self._prefixes[key]
            step = self._prefill_step(len(prefix))
            self._make_room(self.memory.pass_bytes(1, step, len(prefix), 1))
            kv = None
            for start in range(0, len(prefix), step):  # chunks bound the attention scores of a long state
                checkpoint()
                out = self._forward(input_ids=torch.tensor([prefix[start:start + step]], device=self.device), kv=kv)
                kv = self._cache_of(out)
            entry = (kv, torch.log_softmax(out.logits[0, -1].float(), dim=-1))
            if self.prefix_cache_entries > 0:
                self._prefixes[key] = entry
                self._prefix_bytes += self.memory.cache_bytes(len(prefix))
                while len(self._prefixes) > self.prefix_cache_entries or self._prefix_bytes > self.memory.budget // 2:
                    self._evict()
            return entry

    # -- the memory budget ------------------------------------------------------------------------------
    def _evict(self) -> None:
        old, _ = self._prefixes.popitem(last=False)
        self._prefix_bytes -= self.memory.cache_bytes(len(old))

    def _make_room(self, needed: int) -> None:
        """Drop least recently used cached prefixes until a pass of `needed` bytes fits beside the rest."""
        while self._prefixes and self._prefix_bytes + needed > self.memory.budget:
            self._evict()

    def _prefill_step(self, p: int) -> int:
        """Tokens per prefill pass: the whole state when it fits the budget, else halves down to 256."""
        step = p
        while step > PREFILL_MIN_STEP and self.memory.pass_bytes(1, step, p, 1) > self.memory.budget:
            step = (step + 1) // 2
        return max(step, 1)

    def _free(self, prefix_len: int) -> int:
        """Bytes a pass may use while this request's prefix cache is held (the other cached ones can go)."""
        return self.memory.budget - self.memory.cache_bytes(prefix_len)

    def admit(self, prefix: list[int], reads: list[Read] = (), items: list[Continuation] = ()) -> None:
        """Refuse (413) before anything is allocated when the smallest pass of this work cannot fit in the
        budget: the prefill, a read alone, a likelihood context, or the smallest trie chunk."""
        p, m = len(prefix), self.memory
        prefill = m.pass_bytes(1, self._prefill_step(p), p, 1)
        if prefill > m.budget:
            raise m.refuse(prefill, f"prefilling the {p}-token state")
        for read in reads:
            need = m.pass_bytes(1, len(read.suffix), p + len(read.suffix), 1)
            if need > self._free(p):
                raise m.refuse(need + m.cache_bytes(p), f"a {len(read.suffix)}-token question on a {p}-token state")
        for item in items:
            c = len(item.context)
            if m.pass_bytes(1, c, p + c, 1) > self._free(p):
                raise m.refuse(m.pass_bytes(1, c, p + c, 1) + m.cache_bytes(p), f"a {c}-token likelihood question")
            trie = OptionTrie(item.options)
            for chunk in trie.chunks(self.continuation_max_tokens, self.max_logit_rows):
                need = self._chunk_bytes(trie, chunk, p + c)
                if need > self._free(p):
                    raise m.refuse(need + m.cache_bytes(p), f"scoring {len(item.options)} options of "
                                   f"{sum(map(len, item.options))} tokens on a {p}-token state")

    def _chunk_bytes(self, trie: OptionTrie, chunk: list[int], start: int) -> int:
        kept = sum(1 for k in chunk if trie.children[k])
        # The context cache copy is held while its chunks run, plus each chunk's own copy and pass.
        return self.memory.cache_bytes(start) + self.memory.pass_bytes(1, len(chunk), start + len(chunk), kept)

    # -- continuations (likelihood) ---------------------------------------------------------------------
    @torch.inference_mode()
    def continuations(self, prefix: list[int], items: list[Continuation]) -> list[list[np.ndarray]]:
        """Per-token log-probabilities of each option after prefix + context.

        The context runs once on a copy of the prefix cache. The options then go through as one token trie
        packed into a sequence behind it: a shared leading token sequence (" Account", " Account access")
        is computed once, each trie node attends to the context and its own ancestors only (a block mask),
        and logits are kept only at nodes whose children are option tokens. Chunks of whole subtrees keep
        at most `max_logit_rows` logit rows and `continuation_max_tokens` nodes per pass; one cache copy each.
        """
        with self._model_lock:
            self.admit(prefix, items=items)
            cache, _ = self.prefill(prefix)
            results = []
            for item in items:
                checkpoint()  # between passes: stop a request past its deadline or cancelled
                out = self._forward(input_ids=torch.tensor([item.context], device=self.device), kv=copy.deepcopy(cache))
                first = torch.log_softmax(out.logits[0, -1].float(), dim=-1)
                start = len(prefix) + len(item.context)
                trie = OptionTrie(item.options)
                per_node: dict[int, torch.Tensor] = {}  # node -> log-probabilities of its children's tokens
                for chunk in trie.chunks(self.continuation_max_tokens, self.max_logit_rows):
                    checkpoint()
                    per_node.update(self._score_trie_chunk(self._cache_of(out), start, trie, chunk))
                results.append(trie.option_logprobs(first, per_node))
            return results

    def _score_trie_chunk(self, context_cache, start: int, trie: "OptionTrie", chunk: list[int]) -> dict[int, torch.Tensor]:
        """One packed pass over trie nodes `chunk` (ancestors before descendants) behind the context."""
        inner = [n for n in chunk if trie.children[n]]
        if not inner:
            return {}
        local = {node: i for i, node in enumerate(chunk)}
        n = len(chunk)
        allowed = torch.zeros((n, n), dtype=torch.bool)
        for i, node in enumerate(chunk):
            parent = trie.parent[node]
            if parent >= 0:
                allowed[i] = allowed[local[parent]]
            allowed[i, i] = True
        mask = torch.zeros((1, 1, n, start + n), dtype=self.dtype)
        mask[0, 0, :, start:].masked_fill_(~allowed, torch.finfo(self.dtype).min)
        ids = torch.tensor([[trie.token[node] for node in chunk]], dtype=torch.long)
        positions = torch.tensor([[start + trie.depth[node] for node in chunk]], dtype=torch.long)
        keep = torch.tensor([local[node] for node in inner], dtype=torch.long)
        logits = self._forward(input_ids=ids.to(self.device), attention_mask=mask.to(self.device),
                               position_ids=positions.to(self.device), kv=copy.deepcopy(context_cache),
                               logits_to_keep=keep.to(self.device)).logits[0]
        children = [[trie.token[c] for c in trie.children[node]] for node in inner]
        values = label_logprobs(logits, children)
        return {node: torch.from_numpy(v) for node, v in zip(inner, values)}

    # -- next-token reads -------------------------------------------------------------------------------
    def logprobs(self, prefix: list[int], reads: list[Read]) -> list[np.ndarray]:
        if not reads:
            return []
        self.admit(prefix, reads=reads)  # no lock: it reads only the model's shape and the budget
        tokens = len(prefix) + sum(len(r.suffix) for r in reads)
        return self.batcher.submit(prefix, reads, tokens)

    def _run_jobs(self, jobs: list[Job]) -> None:
        """The batcher's runner: several small jobs share one forward; otherwise each runs alone."""
        with self._model_lock:
            together = [j for j in jobs if j.tokens <= self.cross_max_row_tokens and all(r.suffix for r in j.reads)]
            # With CUDA graphs a lone small job takes the rows path too: one replay beats eager passes.
            lone_graph = self.graphs and len(together) == 1 and bucket(1, together[0].tokens) is not None
            if len(together) > 1 or lone_graph:
                width = max(j.tokens for j in together)
                kept = sum(len(j.reads) for j in together)
                if self.memory.pass_bytes(len(together), width, width, kept, cache_copy=False) > self.memory.budget - self._prefix_bytes:
                    together = []  # too big together for the budget: each runs alone below
            if len(together) > 1 or (lone_graph and together):
                try:
                    results = self._read_rows(together)
                except Exception as error:  # noqa: BLE001
                    if not is_out_of_memory(error):
                        shared_pass_failed(together, error)  # a bug: fail these requests, logged
                    # out of memory: too big together, the jobs run one by one below
                else:
                    for job, result in zip(together, results):
                        job.finish(result)  # wakes its caller now, not after the one-by-one jobs
            for job in jobs:
                if not job.done:
                    try:
                        with job.active():
                            result = self._read_request(job.prefix, job.reads)
                    except Exception as error:  # noqa: BLE001 - belongs to this job's caller only
                        job.finish(error=error)
                    else:
                        job.finish(result)

    @torch.inference_mode()
    def _read_request(self, prefix: list[int], reads: list[Read]) -> list[np.ndarray]:
        checkpoint()
        cache, after_prefix = self.prefill(prefix)
        results: list[np.ndarray | None] = [None] * len(reads)
        for i, read in enumerate(reads):
            if not read.suffix:  # nothing to run: the answer position is the prefix's last token
                results[i] = after_prefix[read.token_ids].double().cpu().numpy()
        pending = [i for i, read in enumerate(reads) if read.suffix]
        for batch, packed in self.read_batches([reads[i] for i in pending], len(prefix)):
            checkpoint()
            batch = [pending[b] for b in batch]
            rows = [reads[i] for i in batch]
            logprobs = self._read_packed(cache, len(prefix), rows) if packed else self._read(cache, len(prefix), rows)
            for i, lp in zip(batch, logprobs):
                results[i] = lp
        return results  # type: ignore[return-value]

    def read_batches(self, reads: list[Read], prefix_len: int, mode: str | None = None):
        """(indices, packed?) per forward pass for one request's reads."""
        mode = mode or self.read_mode
        batches = list(self._batches(reads, prefix_len)) if mode != "packed" else []
        if mode == "auto" and len(reads) > 1:
            # Measured on CPU (bench/packing.py): padded rows win when suffixes are about the same length
            # (packing's attention grows with the packed length); packing wins once padding would waste a
            # fifth of the tokens (1.6-1.9x faster at 1.9x padding).
            total = sum(len(r.suffix) for r in reads)
            padded = sum(len(b) * max(len(reads[i].suffix) for i in b) for b in batches)
            mode = "packed" if padded > self.pack_when_padding * total else "batched"
        if mode == "packed":
            batch, width = [], 0
            for i, read in enumerate(reads):  # packed sequences of at most packed_max_tokens (or one read)
                grown = width + len(read.suffix)
                if batch and (grown > self.packed_max_tokens or
                              self.memory.pass_bytes(1, grown, prefix_len + grown, len(batch) + 1) > self._free(prefix_len)):
                    yield batch, True
                    batch, width = [], 0
                batch.append(i)
                width += len(read.suffix)
            if batch:
                yield batch, True
            return
        for batch in batches:
            yield batch, False

    def _batches(self, reads: list[Read], prefix_len: int):
        """Group reads of similar length; bound rows and (prefix + padded suffix) tokens per batch."""
        order = sorted(range(len(reads)), key=lambda i: len(reads[i].suffix))
        batch: list[int] = []
        for i in order:
            longest = len(reads[i].suffix)  # sorted ascending, so the newest is the longest
            rows = len(batch) + 1
            over_budget = self.memory.pass_bytes(rows, longest, prefix_len + longest, rows) > self._free(prefix_len)
            if batch and (rows > self.max_batch or rows * (prefix_len + longest) > self.max_batch_tokens or over_budget):
                yield batch
                batch = []
            batch.append(i)
        if batch:
            yield batch

    def left_padded(self, rows: list[Read], prefix_len: int):
        """(input ids, attention mask over prefix + suffix, position ids) for one read batch: suffixes
        left-padded, padding masked, positions continuing from the prefix as if each row were alone."""
        width = max(len(r.suffix) for r in rows)
        n = len(rows)
        ids = torch.full((n, width), self.pad_id, dtype=torch.long)
        mask = torch.zeros((n, prefix_len + width), dtype=torch.long)
        mask[:, :prefix_len] = 1
        positions = torch.full((n, width), prefix_len, dtype=torch.long)
        for r, read in enumerate(rows):
            k = len(read.suffix)
            ids[r, width - k :] = torch.tensor(read.suffix)
            mask[r, prefix_len + width - k :] = 1
            positions[r, width - k :] = torch.arange(prefix_len, prefix_len + k)
        return ids, mask, positions

    @torch.inference_mode()
    def _read(self, cache, prefix_len: int, rows: list[Read]) -> list[np.ndarray]:
        ids, mask, positions = self.left_padded(rows, prefix_len)
        n = len(rows)
        kv = copy.deepcopy(cache)
        if n > 1:
            kv.batch_repeat_interleave(n)
        out = self._forward(
            input_ids=ids.to(self.device),
            attention_mask=mask.to(self.device),
            position_ids=positions.to(self.device),
            kv=kv,
        )
        return label_logprobs(out.logits[:, -1, :], [read.token_ids for read in rows])

    # -- packed reads -----------------------------------------------------------------------------------
    def _blocks(self, lengths: list[int], start: int):
        """Positions and a causal-within-block boolean (tokens x tokens) for suffixes laid end to end,
        each suffix's positions starting at `start` (right after its prefix)."""
        block = torch.repeat_interleave(torch.arange(len(lengths)), torch.tensor(lengths))
        offsets = torch.cat([torch.arange(k) for k in lengths])
        allowed = (block[:, None] == block[None, :]) & (offsets[:, None] >= offsets[None, :])
        return start + offsets, allowed

    def packed(self, rows: list[Read], prefix_len: int):
        """(input ids, 4D additive mask, position ids, indices of each suffix's last token) for one packed
        sequence behind a prefix of `prefix_len` tokens."""
        lengths = [len(r.suffix) for r in rows]
        total = sum(lengths)
        positions, allowed = self._blocks(lengths, prefix_len)
        mask = torch.zeros((1, 1, total, prefix_len + total), dtype=self.dtype)
        mask[0, 0, :, prefix_len:].masked_fill_(~allowed, torch.finfo(self.dtype).min)
        ids = torch.tensor([[t for r in rows for t in r.suffix]], dtype=torch.long)
        ends = torch.tensor(np.cumsum(lengths) - 1, dtype=torch.long)
        return ids, mask, positions[None], ends

    @torch.inference_mode()
    def _read_packed(self, cache, prefix_len: int, rows: list[Read]) -> list[np.ndarray]:
        ids, mask, positions, ends = self.packed(rows, prefix_len)
        out = self._forward(input_ids=ids.to(self.device), attention_mask=mask.to(self.device),
                            position_ids=positions.to(self.device), kv=copy.deepcopy(cache),
                            logits_to_keep=ends.to(self.device))
        return label_logprobs(out.logits[0], [read.token_ids for read in rows])

    # -- cross-request rows -----------------------------------------------------------------------------
    def cross_rows(self, jobs: list[Job], shape: tuple[int, int] | None = None):
        """(input ids, 4D additive mask, position ids, boolean keep mask) for one row per job:
        [left padding | prefix | packed suffixes], with no cache. The prefix is causal, each suffix sees
        its own prefix and itself; padding is seen by nobody (a padding query sees itself only).
        `shape` (rows, width) pads to a CUDA-graph bucket: extra rows are all padding."""
        lengths = [len(j.prefix) + sum(len(r.suffix) for r in j.reads) for j in jobs]
        n, width = shape or (len(jobs), max(lengths))
        minimum = torch.finfo(self.dtype).min
        ids = torch.full((n, width), self.pad_id, dtype=torch.long)
        mask = torch.full((n, 1, width, width), minimum, dtype=self.dtype)
        positions = torch.zeros((n, width), dtype=torch.long)
        keep = torch.zeros((n, width), dtype=torch.bool)
        diagonal = torch.arange(width)
        mask[:, 0, diagonal, diagonal] = 0.0
        for r, (job, length) in enumerate(zip(jobs, lengths)):
            p, pad = len(job.prefix), width - length
            suffix_lengths = [len(x.suffix) for x in job.reads]
            ids[r, pad:] = torch.tensor(job.prefix + [t for x in job.reads for t in x.suffix])
            block_positions, allowed = self._blocks(suffix_lengths, p)
            positions[r, pad : pad + p] = torch.arange(p)
            positions[r, pad + p :] = block_positions
            view = mask[r, 0, pad:, pad:]
            view[:p, :p].masked_fill_(torch.ones(p, p, dtype=torch.bool).tril(), 0.0)
            view[p:, :p] = 0.0
            view[p:, p:].masked_fill_(allowed, 0.0)
            keep[r, pad + p - 1 + np.cumsum(suffix_lengths)] = True
        return ids, mask, positions, keep

    @torch.inference_mode()
    def _read_rows(self, jobs: list[Job]) -> list[list[np.ndarray]]:
        shape = bucket(len(jobs), max(len(j.prefix) + sum(len(r.suffix) for r in j.reads) for j in jobs)) if self.graphs else None
        ids, mask, positions, keep = self.cross_rows(jobs, shape)
        device = [t.to(self.device) for t in (ids, mask, positions, keep)]
        if shape is not None:
            logits = self.decoder.logits(*device)
        else:
            out = self.model(input_ids=device[0], attention_mask=device[1], position_ids=device[2], use_cache=False,
                             logits_to_keep=device[3])
            logits = out.logits.reshape(-1, out.logits.shape[-1])  # (every kept position in row order, vocab)
        flat = label_logprobs(logits, [read.token_ids for job in jobs for read in job.reads])
        results, k = [], 0
        for job in jobs:
            results.append(flat[k : k + len(job.reads)])
            k += len(job.reads)
        return results
