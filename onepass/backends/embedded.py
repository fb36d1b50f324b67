"""In-process transformers backend: runs a request's work on the model as forward passes.

A request's state (prompt prefix) is prefilled once and kept in a byte-bounded LRU (`prefix_cache`).

Invariant (the default, `--batching invariant`): every state is prefilled alone in the same 256-token
chunks whatever the memory budget, and every read is a pass of its own behind a copy of its state's KV
cache; concurrent requests take turns. A read's numbers are then a function of its own tokens (and the
model, dtype and thread count) only. Sharing a pass changes the matmul row count and padding, and on
CPUs the kernels' blocking (so float rounding) with them: up to 0.09 in a bf16 probability.

Shared (`--batching shared`): a request's reads run as left-padded rows or one block-masked packed
sequence behind the state (`passes` decides, within the memory budget), and concurrent requests meet in
a ReadBatcher as rows [padding | prefix | packed suffixes] of one pass. Likelihood options run as a token
trie behind their context. Layouts are built in `layouts`; docs/throughput.md measures every path.

Measurement uses public doors only: an `Observer` hears each prefill and batcher round (onepass.timing),
`clear_prefix_cache` makes the next request pay its prefill, and `raw_passes` hands onepass bench the
exact forward passes a request's reads run.
"""

from __future__ import annotations

import copy
import inspect
import threading
import time
from typing import Callable

import numpy as np
import torch

from onepass.backends import layouts, passes
from onepass.backends.base import Backend, Capabilities, Continuation, Read
from onepass.backends.batcher import Job, ReadBatcher, shared_pass_failed
from onepass.backends.graphs import GraphedDecoder, bucket
from onepass.backends.memory import MemoryBudget, MemoryTrim, Shape, default_budget, return_freed_memory
from onepass.backends.observer import Observed, Observer
from onepass.backends.prefix_cache import PrefixCache
from onepass.backends.trie import OptionTrie
from onepass.deadline import checkpoint, is_out_of_memory

__all__ = ["READ_MODES", "EmbeddedBackend"]

READ_MODES = passes.READ_MODES


class EmbeddedBackend(Backend, Observed):
    name = "embedded"
    # Re-entrant: concurrent callers' reads meet in the batcher, everything else waits for the model lock.
    capabilities = Capabilities(reentrant=True, batches_requests=True, native_continuations=True, hidden_states=True)

    def __init__(self, model, tokenizer, max_batch_tokens: int = 16384, max_batch: int = 64,
                 prefix_cache_entries: int = 4, max_logit_rows: int = 256, read_mode: str = "auto",
                 packed_max_tokens: int = 256, pack_when_padding: float = 1.25, batch_wait_ms: float = 2.0,
                 cross_max_jobs: int = 16, cross_max_row_tokens: int = 1024, continuation_max_tokens: int = 1024,
                 memory_budget: int | None = None, cuda_graphs: bool | None = None, observer: Observer | None = None,
                 invariant: bool = True):
        if read_mode not in READ_MODES:
            raise ValueError(f"read_mode must be one of {READ_MODES}, got {read_mode!r}")
        self.model = model
        self.max_logit_rows = max_logit_rows  # positions whose full-vocabulary logits are held at once
        self.continuation_max_tokens = continuation_max_tokens  # option-trie nodes packed into one pass
        self.device = next(model.parameters()).device
        self.dtype = next(model.parameters()).dtype
        self.max_batch_tokens = max_batch_tokens
        self.max_batch = max_batch
        self.read_mode = read_mode
        self.packed_max_tokens = packed_max_tokens  # longest packed sequence (a longer single read runs alone)
        self.pack_when_padding = pack_when_padding  # auto packs when padded tokens exceed this x real tokens
        self._batch_wait_s = batch_wait_ms / 1000
        # A cross-request row holds prefix + packed suffixes; the block mask is rows x width^2 floats.
        self.cross_max_row_tokens = cross_max_row_tokens
        config = model.config
        return_freed_memory()
        itemsize = torch.finfo(self.dtype).bits // 8
        self.memory = MemoryBudget(Shape.of(config, itemsize), memory_budget or default_budget(str(self.device)))
        self.prefix_cache = PrefixCache(self.memory, prefix_cache_entries)
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
        # On the CPU, freed memory goes back to the system as requests finish (every 2 s at most).
        self.batcher = ReadBatcher(self.run_jobs, max_wait_s=self._batch_wait_s, max_jobs=cross_max_jobs,
                                   max_tokens=cross_max_jobs * cross_max_row_tokens,
                                   on_leave=MemoryTrim() if self.device.type == "cpu" else None)
        self.invariant = invariant  # see the module docstring
        if observer is not None:
            self.observe(observer)

    @property
    def invariant(self) -> bool:
        return self._invariant

    @invariant.setter
    def invariant(self, on: bool) -> None:  # settable, for benches
        self._invariant = bool(on)
        self.batcher.max_wait_s = 0.0 if on else self._batch_wait_s  # invariant jobs never share a pass

    def expecting(self):
        """Engine hook: a request is in flight (the batcher waits for companions only then)."""
        return self.batcher.expecting()

    def clear_prefix_cache(self) -> None:
        """Forget every prefilled state, so the next request pays its own prefill (benchmarks)."""
        with self._model_lock:
            self.prefix_cache.clear()

    def _forward(self, logits_to_keep=1, **kwargs):
        cache = kwargs.pop("kv", None)
        if cache is not None:
            kwargs[self._cache_arg] = cache
        return self.model(**kwargs, use_cache=True, logits_to_keep=logits_to_keep)

    def _cache_of(self, output):
        return getattr(output, self._cache_arg)

    # -- the state prefill ------------------------------------------------------------------------------
    @torch.inference_mode()
    def prefill(self, prefix: list[int]):
        """(KV cache, next-token log-probabilities) after the prefix; callers copy the cache, never mutate it."""
        with self._model_lock:  # the cache lookup and the prefill agree
            began = time.perf_counter()
            entry = self.prefix_cache.get(prefix)
            hit = entry is not None
            try:
                if entry is None:
                    self.prefix_cache.make_room(self._prefill_bytes(len(prefix)))
                    kv, out = self._prefill_kv(self._prefill_chunks(prefix))
                    entry = (kv, torch.log_softmax(out.logits[0, -1].float(), dim=-1))
                    self.prefix_cache.put(prefix, entry)
                return entry
            finally:  # a prefill stopped by its deadline still cost its time
                self.observer.prefill(hit, time.perf_counter() - began)

    def _prefill_chunks(self, prefix: list[int]) -> list[torch.Tensor]:
        # Chunks bound the attention scores of a long state; usually the whole state is one chunk.
        step = passes.prefill_step(self.memory, len(prefix), self.invariant)
        return [torch.tensor([prefix[s : s + step]], device=self.device) for s in range(0, len(prefix), step)]

    def _prefill_bytes(self, p: int) -> int:
        return self.memory.pass_bytes(1, passes.prefill_step(self.memory, p, self.invariant), p, 1)

    def _prefill_kv(self, chunks: list[torch.Tensor]):
        kv = out = None
        for chunk in chunks:
            checkpoint()
            out = self._forward(input_ids=chunk, kv=kv)
            kv = self._cache_of(out)
        return kv, out

    def admit(self, prefix: list[int], reads: list[Read] = (), items: list[Continuation] = ()) -> None:
        """Refuse (413) before anything is allocated when the smallest pass of this work cannot fit."""
        passes.admit(self.memory, prefix, reads, items, continuation_max_tokens=self.continuation_max_tokens,
                     max_logit_rows=self.max_logit_rows, invariant=self.invariant)

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

    def _score_trie_chunk(self, context_cache, start: int, trie: OptionTrie, chunk: list[int]) -> dict[int, torch.Tensor]:
        """One packed pass over trie nodes `chunk` behind the context: node -> its children's log-probabilities."""
        ids, mask, positions, keep, inner = layouts.trie_chunk(trie, chunk, start, self.dtype)
        if not inner:
            return {}  # only leaves: nothing to score
        ids, mask, positions, keep = (t.to(self.device) for t in (ids, mask, positions, keep))
        logits = self._forward(input_ids=ids, attention_mask=mask, position_ids=positions,
                               kv=copy.deepcopy(context_cache), logits_to_keep=keep).logits[0]
        values = layouts.label_logprobs(logits, [[trie.token[c] for c in trie.children[node]] for node in inner])
        return {node: torch.from_numpy(v) for node, v in zip(inner, values)}

    # -- next-token reads -------------------------------------------------------------------------------
    def logprobs(self, prefix: list[int], reads: list[Read]) -> list[np.ndarray]:
        if not reads:
            return []
        as_trie = passes.reads_as_trie(reads)
        if as_trie is not None:  # reads repeating a long common start: each shared token computed once
            item, where = as_trie
            values = self.continuations(prefix, [item])[0]
            return [np.array([values[k][-1] for k in ks]) for ks in where]
        self.admit(prefix, reads=reads)  # no lock: it reads only the model's shape and the budget
        return self.batcher.submit(prefix, reads, self._job_tokens(prefix, reads))

    @staticmethod
    def _job_tokens(prefix: list[int], reads: list[Read]) -> int:
        return len(prefix) + sum(len(r.suffix) for r in reads)

    def _shared_rows(self, jobs: list[Job]) -> list[Job]:
        if self.invariant:
            return []  # each request alone: a row's numbers would depend on the rows beside it
        return passes.shared_rows(jobs, self.memory, self.prefix_cache.bytes, max_row_tokens=self.cross_max_row_tokens,
                                  graphs=self.graphs)

    def run_jobs(self, jobs: list[Job]) -> None:
        """The batcher's runner, one round: several small jobs share one forward; otherwise each runs alone.
        Every job is finished (result or error) as soon as its answer exists."""
        self.observer.round(len(jobs))
        with self._model_lock:
            together = self._shared_rows(jobs)
            if together:
                try:
                    results = self.read_rows(together)
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
                            result = self.read_request(job.prefix, job.reads)
                    except Exception as error:  # noqa: BLE001 - belongs to this job's caller only
                        job.finish(error=error)
                    else:
                        job.finish(result)

    @torch.inference_mode()
    def read_request(self, prefix: list[int], reads: list[Read]) -> list[np.ndarray]:
        """One request's reads alone (no batcher): its prefill (or cached prefix), then its read passes."""
        with self._model_lock:
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

    @torch.inference_mode()
    def features(self, prefix: list[int], reads: list[Read]) -> list[tuple[np.ndarray, np.ndarray]]:
        """Label log-probabilities and the final hidden state at each read's answer position, in padded
        rows behind the cached prefix. The decoder and the output projection run separately so the hidden
        state is the exact vector the label logits were projected from."""
        if not reads:
            return []
        self.admit(prefix, reads=reads)
        decoder, projection = self.model.get_decoder(), self.model.get_output_embeddings()
        results: list = [None] * len(reads)
        with self._model_lock:
            checkpoint()
            cache, _ = self.prefill(prefix)
            for batch, _packed in self.read_batches(reads, len(prefix), "batched"):  # one read per pass when invariant
                checkpoint()
                rows = [reads[i] for i in batch]
                inputs = self._padded_inputs(len(prefix), rows)
                out = decoder(**inputs, **{self._cache_arg: self._row_caches(cache, len(rows))}, use_cache=True)
                hidden = out.last_hidden_state[:, -1, :]
                logprobs = layouts.label_logprobs(projection(hidden), [read.token_ids for read in rows])
                vectors = hidden.double().cpu().numpy()
                for i, lp, vector in zip(batch, logprobs, vectors):
                    results[i] = (lp, vector)
        return results

    def read_batches(self, reads: list[Read], prefix_len: int, mode: str | None = None):
        """(indices, packed?) per forward pass for one request's reads, in `mode` (default: read_mode)."""
        return passes.read_batches(reads, prefix_len, mode or self.read_mode, self.memory, max_batch=self.max_batch,
                                   max_batch_tokens=self.max_batch_tokens, packed_max_tokens=self.packed_max_tokens,
                                   pack_when_padding=self.pack_when_padding, invariant=self.invariant)

    def _padded_inputs(self, prefix_len: int, rows: list[Read]) -> dict:
        ids, mask, positions = layouts.left_padded(rows, prefix_len, self.pad_id)
        return {"input_ids": ids.to(self.device), "attention_mask": mask.to(self.device),
                "position_ids": positions.to(self.device)}

    def _packed_inputs(self, prefix_len: int, rows: list[Read]) -> dict:
        ids, mask, positions, ends = layouts.packed(rows, prefix_len, self.dtype)
        return {"input_ids": ids.to(self.device), "attention_mask": mask.to(self.device),
                "position_ids": positions.to(self.device), "logits_to_keep": ends.to(self.device)}

    @staticmethod
    def _row_caches(cache, n: int):
        kv = copy.deepcopy(cache)  # passes write into their cache: the prefix's own stays clean
        if n > 1:
            kv.batch_repeat_interleave(n)
        return kv

    @torch.inference_mode()
    def _read(self, cache, prefix_len: int, rows: list[Read]) -> list[np.ndarray]:
        """One padded-rows pass, each row on its own copy of the prefix cache."""
        out = self._forward(kv=self._row_caches(cache, len(rows)), **self._padded_inputs(prefix_len, rows))
        return layouts.label_logprobs(out.logits[:, -1, :], [read.token_ids for read in rows])

    @torch.inference_mode()
    def _read_packed(self, cache, prefix_len: int, rows: list[Read]) -> list[np.ndarray]:
        """One packed pass on one copy of the prefix cache."""
        out = self._forward(kv=copy.deepcopy(cache), **self._packed_inputs(prefix_len, rows))
        return layouts.label_logprobs(out.logits[0], [read.token_ids for read in rows])

    # -- cross-request rows -----------------------------------------------------------------------------
    def _rows_inputs(self, jobs: list[Job]) -> tuple[list[torch.Tensor], bool]:
        """(ids, mask, positions, keep) on the device, and whether they are padded to a CUDA-graph bucket
        (then the graphed decoder runs them)."""
        width = max(self._job_tokens(j.prefix, j.reads) for j in jobs)
        shape = bucket(len(jobs), width) if self.graphs else None
        ids, mask, positions, keep = layouts.cross_rows(jobs, self.pad_id, self.dtype, shape)
        return [t.to(self.device) for t in (ids, mask, positions, keep)], shape is not None

    def _rows_logits(self, tensors: list[torch.Tensor], graphed: bool) -> torch.Tensor:
        """(every kept position in row order, vocab) logits of one cross-request rows pass."""
        if graphed:
            return self.decoder.logits(*tensors)
        ids, mask, positions, keep = tensors
        out = self.model(input_ids=ids, attention_mask=mask, position_ids=positions, use_cache=False, logits_to_keep=keep)
        return out.logits.reshape(-1, out.logits.shape[-1])

    @torch.inference_mode()
    def read_rows(self, jobs: list[Job]) -> list[list[np.ndarray]]:
        """Several requests' reads in one forward pass (one row each, prefixes computed in it), per job
        the log-probabilities of its reads."""
        with self._model_lock:
            logits = self._rows_logits(*self._rows_inputs(jobs))
        flat = layouts.label_logprobs(logits, [read.token_ids for job in jobs for read in job.reads])
        results, k = [], 0
        for job in jobs:
            results.append(flat[k : k + len(job.reads)])
            k += len(job.reads)
        return results

    # -- for onepass bench ------------------------------------------------------------------------------
    def raw_passes(self, prefix: list[int], reads: list[Read]) -> Callable[[], None]:
        """A function that runs, on the model alone, exactly the forward passes this backend runs for one
        request of these reads arriving alone: the state prefill (in the same chunks) then each read pass
        (padded rows or packed, on fresh cache copies) or, where a lone small request takes it (CUDA
        graphs), the one cross-request rows pass. The tensors are built and moved to the device now; the
        function skips the prefix cache, label gathering and the batcher, so its time is the model's own."""
        job = Job(prefix, reads, self._job_tokens(prefix, reads))
        with self._model_lock:
            if self._shared_rows([job]):
                tensors = self._rows_inputs([job])

                @torch.inference_mode()
                def run_rows() -> None:
                    with self._model_lock:
                        self._rows_logits(*tensors)

                return run_rows
            chunks = self._prefill_chunks(prefix)
            pending = [read for read in reads if read.suffix]
            planned = []  # (inputs, rows of cache copies) per read pass
            for batch, packed in self.read_batches(pending, len(prefix)):
                rows = [pending[i] for i in batch]
                if packed:
                    planned.append((self._packed_inputs(len(prefix), rows), 1))
                else:
                    planned.append((self._padded_inputs(len(prefix), rows), len(rows)))

        @torch.inference_mode()
        def run() -> None:
            with self._model_lock:
                cache, _ = self._prefill_kv(chunks)
                for inputs, n in planned:
                    self._forward(kv=self._row_caches(cache, n), **inputs)

        return run
