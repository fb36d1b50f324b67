"""CUDA graphs for the read passes of small requests.

At batch 1 a GPU spends most of a read on Python and kernel launches, not arithmetic (a 260-token read of
a 0.5B model: 14 ms eager, 3.6 ms replaying a captured graph). Cross-request rows (`[padding | prefix |
packed suffixes]`, no KV cache) have a fixed shape once padded to a bucket of (rows, width), so each bucket
is captured once after warm-up and replayed: the inputs are copied into the graph's static tensors, the
decoder runs as captured, and only the kept positions go through the vocabulary projection afterwards.
Batches that fit no bucket, models with extra logit processing, and any device but CUDA run eagerly on the
same padded tensors, so the bucket padding is exercised (and tested) on a CPU too. Not measured on a GPU yet.
"""

from __future__ import annotations

import threading

import torch

__all__ = ["MAX_WIDTH", "ROW_BUCKETS", "WIDTH_STEP", "GraphedDecoder", "bucket"]

ROW_BUCKETS = (1, 2, 4, 8, 16)
WIDTH_STEP = 64  # widths round up to a multiple of this
MAX_WIDTH = 1024  # wider rows run eagerly (capture memory grows with every bucket)
WARMUP = 2  # eager runs of a bucket before it is captured (lazy initialisation happens outside capture)


def bucket(rows: int, width: int) -> tuple[int, int] | None:
    """The (rows, width) a batch is padded to, or None when it fits no bucket."""
    padded_rows = next((r for r in ROW_BUCKETS if r >= rows), None)
    padded_width = -(-width // WIDTH_STEP) * WIDTH_STEP
    if padded_rows is None or padded_width > MAX_WIDTH:
        return None
    return padded_rows, padded_width


class GraphedDecoder:
    """Runs `model`'s decoder on padded (ids, 4D mask, positions) and returns the kept positions' logits."""

    def __init__(self, model, use_graphs: bool):
        self.model = model
        self.decoder = model.get_decoder()
        self.head = model.get_output_embeddings()
        config = model.config
        # Graph only what the captured decoder plus lm_head computes exactly (no soft-capping or scaling).
        plain = not any(getattr(config, k, None) for k in ("final_logit_softcapping", "logit_scale", "logits_scaling"))
        self.use_graphs = bool(use_graphs and plain and torch.cuda.is_available())
        self._graphs: dict[tuple[int, int], tuple] = {}
        self._runs: dict[tuple[int, int], int] = {}
        self._lock = threading.Lock()
        self.replays = 0  # for tests and metrics

    def _eager(self, ids, mask, positions):
        return self.decoder(input_ids=ids, attention_mask=mask, position_ids=positions, use_cache=False).last_hidden_state

    @torch.inference_mode()
    def logits(self, ids: torch.Tensor, mask: torch.Tensor, positions: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
        """(kept positions in row order, vocab) logits for one padded batch."""
        shape = (ids.shape[0], ids.shape[1])
        hidden = None
        if self.use_graphs and ids.is_cuda:
            with self._lock:
                hidden = self._replay(shape, ids, mask, positions)
        if hidden is None:
            hidden = self._eager(ids, mask, positions)
        return self.head(hidden[keep])

    def _replay(self, shape, ids, mask, positions):
        if shape not in self._graphs:
            self._runs[shape] = self._runs.get(shape, 0) + 1
            if self._runs[shape] <= WARMUP:
                return None
            self._graphs[shape] = self._capture(ids, mask, positions)
        graph, static_ids, static_mask, static_positions, static_hidden = self._graphs[shape]
        static_ids.copy_(ids)
        static_mask.copy_(mask)
        static_positions.copy_(positions)
        graph.replay()
        self.replays += 1
        return static_hidden.clone()

    def _capture(self, ids, mask, positions):
        static_ids, static_mask, static_positions = ids.clone(), mask.clone(), positions.clone()
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            self._eager(static_ids, static_mask, static_positions)
        torch.cuda.current_stream().wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            static_hidden = self._eager(static_ids, static_mask, static_positions)
        return graph, static_ids, static_mask, static_positions, static_hidden
