"""In-process transformers backend: one prefill of the shared prefix, then batched suffix reads.

Suffixes are left-padded so every row's answer position is the last column: the model computes one
vocabulary projection per row (logits_to_keep=1). Padding is masked and position ids skip it, so a
row's numbers are those of the same suffix read alone.
"""

from __future__ import annotations

import copy
import inspect
from collections import OrderedDict

import numpy as np
import torch

from onepass.backends.base import Continuation, Read


class EmbeddedBackend:
    name = "embedded"

    def __init__(self, model, tokenizer, max_batch_tokens: int = 16384, max_batch: int = 64,
                 prefix_cache_entries: int = 4, max_logit_rows: int = 256):
        self.model = model
        # Recently prefilled prefixes (token tuple -> KV cache): a debiasing second round, or the next
        # request about the same state, skips the state prefill.
        self._prefixes: OrderedDict[tuple[int, ...], object] = OrderedDict()
        self.prefix_cache_entries = prefix_cache_entries
        self.max_logit_rows = max_logit_rows  # positions whose full-vocabulary logits are held at once
        self.device = next(model.parameters()).device
        self.max_batch_tokens = max_batch_tokens
        self.max_batch = max_batch
        config = model.config
        self.max_context = int(getattr(config, "max_position_embeddings", 0) or 2048)
        self.pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
        # transformers 5.24 renamed the forward argument past_key_values to cache.
        params = inspect.signature(model.forward).parameters
        self._cache_arg = "cache" if "cache" in params else "past_key_values"

    def _forward(self, **kwargs):
        cache = kwargs.pop("kv", None)
        if cache is not None:
            kwargs[self._cache_arg] = cache
        return self.model(**kwargs, use_cache=True, logits_to_keep=1)

    def _cache_of(self, output):
        return getattr(output, self._cache_arg)

    @torch.inference_mode()
    def prefill(self, prefix: list[int]):
        """(KV cache, next-token log-probabilities) after the prefix; callers copy the cache, never mutate it."""
        key = tuple(prefix)
        if key in self._prefixes:
            self._prefixes.move_to_end(key)
            return self._prefixes[key]
        out = self._forward(input_ids=torch.tensor([prefix], device=self.device))
        entry = (self._cache_of(out), torch.log_softmax(out.logits[0, -1].float(), dim=-1))
        if self.prefix_cache_entries > 0:
            self._prefixes[key] = entry
            while len(self._prefixes) > self.prefix_cache_entries:
                self._prefixes.popitem(last=False)
        return entry

    @torch.inference_mode()
    def continuations(self, prefix: list[int], items: list[Continuation]) -> list[list[np.ndarray]]:
        """Per-token log-probabilities of each option after prefix + context: the context is run once
        on top of the shared prefix, then all options go through in right-padded batches (a row's padding
        comes after its tokens, so causal attention never sees it)."""
        cache, after_prefix = self.prefill(prefix)
        results = []
        for item in items:
            out = self._forward(input_ids=torch.tensor([item.context], device=self.device), kv=copy.deepcopy(cache))
            first = torch.log_softmax(out.logits[0, -1].float(), dim=-1)
            context_cache = self._cache_of(out)
            per_option: list[np.ndarray | None] = [None] * len(item.options)
            order = sorted(range(len(item.options)), key=lambda k: len(item.options[k]))
            batch: list[int] = []
            for k in order + [None]:  # None flushes the last batch
                if k is not None and (not batch or (len(batch) + 1) * len(item.options[k]) <= self.max_logit_rows):
                    batch.append(k)
                    continue
                self._score_options(context_cache, first, [item.options[b] for b in batch], batch, per_option)
                batch = [k] if k is not None else []
            results.append(per_option)
        return results

    def _score_options(self, context_cache, first, options, slots, out) -> None:
        width = max(len(o) for o in options)
        rows = []
        if width > 1:
            ids = torch.full((len(options), width - 1), self.pad_id, dtype=torch.long)
            for r, option in enumerate(options):
                ids[r, : len(option) - 1] = torch.tensor(option[:-1], dtype=torch.long)
            kv = copy.deepcopy(context_cache)
            if len(options) > 1:
                kv.batch_repeat_interleave(len(options))
            kwargs = {self._cache_arg: kv}
            logits = self.model(input_ids=ids.to(self.device), use_cache=True, logits_to_keep=0, **kwargs).logits
            rows = torch.log_softmax(logits.float(), dim=-1)
        for r, (option, slot) in enumerate(zip(options, slots)):
            values = [first[option[0]]] + [rows[r, j - 1, option[j]] for j in range(1, len(option))]
            out[slot] = torch.stack(values).double().cpu().numpy()

    @torch.inference_mode()
    def logprobs(self, prefix: list[int], reads: list[Read]) -> list[np.ndarray]:
        if not reads:
            return []
        cache, after_prefix = self.prefill(prefix)
        results: list[np.ndarray | None] = [None] * len(reads)
        for i, read in enumerate(reads):
            if not read.suffix:  # nothing to run: the answer position is the prefix's last token
                results[i] = after_prefix[read.token_ids].double().cpu().numpy()
        pending = [i for i, read in enumerate(reads) if read.suffix]
        for batch in self._batches([reads[i] for i in pending], len(prefix)):
            batch = [pending[b] for b in batch]
            rows = [reads[i] for i in batch]
            logprobs = self._read(cache, len(prefix), rows)
            for i, row, lp in zip(batch, rows, logprobs):
                results[i] = lp
        return results  # type: ignore[return-value]

    def _batches(self, reads: list[Read], prefix_len: int):
        """Group reads of similar length; bound rows and (prefix + padded suffix) tokens per batch."""
        order = sorted(range(len(reads)), key=lambda i: len(reads[i].suffix))
        batch: list[int] = []
        for i in order:
            longest = len(reads[i].suffix)  # sorted ascending, so the newest is the longest
            if batch and (len(batch) + 1 > self.max_batch or (len(batch) + 1) * (prefix_len + longest) > self.max_batch_tokens):
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
        logprobs = torch.log_softmax(out.logits[:, -1, :].float(), dim=-1)
        return [logprobs[r, read.token_ids].double().cpu().numpy() for r, read in enumerate(rows)]
