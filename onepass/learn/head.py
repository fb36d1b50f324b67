"""A learned head: the fifth readout family's weights, fitted by `onepass tune` (onepass/learn/head_fit.py) on a
frozen model's hidden states and served with `--head PATH` / `"x_readout": "head"` (readouts/head.py).

Every read the head sees ends at a Yes/No answer position: a yes/no question's own read, or one isolated
read per choice option or score level ("is this the right answer?"). For read k the head scores

    s_k = a * z_k + delta . (h_k - mean) / std + b

where z_k is the model's own Yes-vs-No log-odds at that position (exactly (W_yes - W_no) . h_k, the
zero-shot reading), h_k the final hidden state there, and (a, delta, b) are fitted per question type.
A yes/no answer is sigmoid(s); a choice or score is the softmax of s over its options. delta = 0 is the
isolated readout with a temperature (1 / a) and a bias, so a head regularised hard enough can only
recalibrate the model, and a weaker penalty lets it learn which directions of the hidden state predict
the gold answer. The file is safetensors: per type `TYPE.delta`, `TYPE.mean`, `TYPE.std` (hidden size)
and `TYPE.ab` ([a, b]); the metadata names the model, its hidden size, dtype, the penalty chosen per
type, the data it was fitted on and its cross-validation numbers.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from onepass.errors import ConfigError

__all__ = ["TYPES", "Head", "HeadType"]

TYPES = ("noul", "choice", "score")
FORMAT = 1


@dataclass
class HeadType:
    a: float
    b: float
    delta: np.ndarray
    mean: np.ndarray
    std: np.ndarray

    def scores(self, z: np.ndarray, hidden: np.ndarray) -> np.ndarray:
        """s_k for reads with log-odds z (k,) and hidden states (k, d)."""
        x = (np.asarray(hidden, dtype=np.float64) - self.mean) / self.std
        return self.a * np.asarray(z, dtype=np.float64) + x @ self.delta + self.b


@dataclass
class Head:
    model: str
    hidden_size: int
    types: dict[str, HeadType]
    meta: dict = field(default_factory=dict)  # dtype, penalties, data, counts, cross-validation
    path: str | None = None

    @property
    def id(self) -> str:
        """A short digest of the weights as stored (float32), reported with every answer the head gives (x_head)."""
        digest = hashlib.sha256()
        for name in sorted(self.types):
            t = self.types[name]
            for values in (np.array([t.a, t.b]), t.delta, t.mean, t.std):
                digest.update(np.asarray(values, dtype=np.float32).tobytes())
            digest.update(name.encode())
        return digest.hexdigest()[:12]

    def save(self, path: Path) -> None:
        from safetensors.numpy import save_file

        tensors = {}
        for name, t in self.types.items():
            tensors[f"{name}.delta"] = t.delta.astype(np.float32)
            tensors[f"{name}.mean"] = t.mean.astype(np.float32)
            tensors[f"{name}.std"] = t.std.astype(np.float32)
            tensors[f"{name}.ab"] = np.array([t.a, t.b], dtype=np.float32)
        metadata = {"format": str(FORMAT), "model": self.model, "hidden_size": str(self.hidden_size),
                    "meta": json.dumps(self.meta, sort_keys=True)}
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        save_file(tensors, str(path), metadata=metadata)

    @classmethod
    def load(cls, path: str | Path) -> "Head":
        from safetensors import safe_open

        path = Path(path)
        if not path.is_file():
            raise ConfigError(f"head (--head): {path} is not a file; fit one with `onepass tune --data FILE --out {path}`")
        try:
            with safe_open(str(path), framework="numpy") as f:
                metadata = f.metadata() or {}
                tensors = {name: f.get_tensor(name) for name in f.keys()}
        except Exception as error:  # noqa: BLE001 - any unreadable file gets the same message
            raise ConfigError(f"head (--head): {path} is not a head file written by `onepass tune` ({error})") from None
        if metadata.get("format") != str(FORMAT) or "model" not in metadata:
            raise ConfigError(f"head (--head): {path} has no onepass head metadata (format {FORMAT}); refit it with `onepass tune`")
        types = {}
        for name in TYPES:
            if f"{name}.delta" in tensors:
                a, b = (float(v) for v in tensors[f"{name}.ab"])
                types[name] = HeadType(a, b, *(tensors[f"{name}.{k}"].astype(np.float64) for k in ("delta", "mean", "std")))
        return cls(metadata["model"], int(metadata["hidden_size"]), types, json.loads(metadata.get("meta", "{}")), str(path))

    def check(self, model_id: str, hidden_size: int) -> None:
        """A head reads one model's hidden states only: refuse another model's before serving anything."""
        if self.model != model_id or self.hidden_size != hidden_size:
            raise ConfigError(f"head (--head) {self.path} was fitted on model {self.model} (hidden size {self.hidden_size}); "
                              f"this engine serves {model_id} (hidden size {hidden_size}): fit a head for it with "
                              f"`onepass tune --model {model_id} --data FILE --out HEAD`")
