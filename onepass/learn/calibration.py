"""Calibration: temperature profiles per (readout family, question type), fitting one temperature, and the
metrics. Fitting a whole profile from a corpus (`onepass calibrate`) is onepass/learn/fit.py.

A profile divides a question's label logits by one fitted temperature T (Guo et al. 2017), chosen to
minimise the negative log-likelihood of gold answers on a calibration split. Metrics follow the usual
definitions: ECE over top-label confidence in 15 equal-width bins, Brier, NLL.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from onepass import models
from onepass.readouts.base import softmax

__all__ = ["PROFILE_VERSION", "QUESTION_TYPES", "Profile", "profile_paths", "find_profile", "file_sha256", "ece",
           "reliability", "metrics", "nll_at", "fit_temperature", "cross_validate"]

PROFILE_VERSION = 1
PACKAGED = Path(__file__).parent.parent / "profiles"  # onepass/profiles
QUESTION_TYPES = ("noul", "choice", "score")


@dataclass
class Profile:
    model: str
    temperatures: dict[str, dict[str, float]]  # readout family -> question type -> T
    data_sha256: str = ""
    data: str = ""
    version: int = PROFILE_VERSION
    fitted_on: dict = field(default_factory=dict)  # counts per family/type
    report: dict = field(default_factory=dict)  # cross-validation and held-out metrics
    # The dtype the logits were read in: bf16 and float32 logits differ, so each dtype has its own fit.
    dtype: str = ""
    # Question type (or "choice@N": choices with at least N options) -> readout family for `--readout auto`,
    # chosen from this model's measured tables (docs/calibration.md, docs/readouts.md), with their numbers.
    readout_policy: dict = field(default_factory=dict)
    policy_report: dict = field(default_factory=dict)

    def temperature(self, readout: str, question_type: str) -> float:
        return float(self.temperatures.get(readout, {}).get(question_type, 1.0))

    def save(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(asdict(self), indent=2, sort_keys=True) + "\n")
        return path

    @classmethod
    def load(cls, path: Path) -> "Profile":
        data = json.loads(Path(path).read_text())
        if data.get("version") != PROFILE_VERSION:
            raise ValueError(f"{path}: calibration profile version {data.get('version')} is not {PROFILE_VERSION}")
        for family, per_type in data["temperatures"].items():
            for qtype, t in per_type.items():
                if not (isinstance(t, (int, float)) and math.isfinite(t) and t > 0):
                    raise ValueError(f"{path}: temperature for {family}/{qtype} must be a positive number, got {t!r}")
        from onepass.readouts.auto import policy_key_error

        for key, family in data.get("readout_policy", {}).items():
            problem = policy_key_error(key) or (None if isinstance(family, str) else f"readout_policy[{key!r}] must be a family name")
            if problem:
                raise ValueError(f"{path}: {problem}")
        return cls(**data)

    def check_covers(self, model_id: str, wanted: dict[str, tuple[str, str]]) -> None:
        """For x_calibrated: true. `wanted`: question id -> (readout key, question type); a 422 saying what
        the profile has when any of them has no fitted temperature."""
        from onepass.errors import RequestInvalid

        fitted = self.temperatures
        missing = sorted({key for key, _ in wanted.values() if key not in fitted})
        if missing:
            raise RequestInvalid.single(
                ["body", "x_calibrated"],
                f"the calibration profile of model {model_id} has no temperatures for readout {missing[0]!r}; it has "
                f"readouts {sorted(fitted)}: choose one of them with x_readout, or leave x_calibrated out", "value_error")
        errors = [{"loc": ["body", "questions", qid, "type"], "type": "value_error",
                   "msg": f"x_calibrated is true, but the calibration profile of model {model_id} has no temperature "
                          f"for {qtype} questions with readout {key!r} (it has {sorted(fitted[key])}); "
                          "leave x_calibrated out to get this answer uncalibrated"}
                  for qid, (key, qtype) in wanted.items() if qtype not in fitted[key]]
        if errors:
            raise RequestInvalid(errors)

    def summary(self) -> str:
        if not any(self.temperatures.values()):
            return (f"uncalibrated: the profile ({self.dtype or 'dtype not recorded'}) has no fitted temperatures, "
                    "probabilities are the raw label distribution")
        parts = [f"{f}: " + ", ".join(f"{q} T={t:.3g}" for q, t in sorted(ts.items())) for f, ts in sorted(self.temperatures.items())]
        return f"calibrated (profile v{self.version}, {self.dtype or 'dtype not recorded'}, data sha256 {self.data_sha256[:12]}; " + "; ".join(parts) + ")"


def profile_paths(model_id: str, dtype: str) -> list[Path]:
    """Where a model's profile for one dtype is looked for: its cache directory (a user's own fit), then
    the package."""
    return [models.cache_dir(model_id) / f"calibration.{dtype}.json", PACKAGED / f"{model_id}.{dtype}.json"]


def find_profile(model_id: str, dtype: str | None) -> Profile | None:
    """The profile fitted for this model in this dtype, or None (served uncalibrated, and saying so)."""
    for path in profile_paths(model_id, dtype) if dtype else []:
        if path.exists():
            return Profile.load(path)
    return None


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# -- metrics ------------------------------------------------------------------------------------------------


def ece(confidence: np.ndarray, correct: np.ndarray, bins: int = 15) -> float:
    """Expected calibration error: |accuracy - confidence| per equal-width bin, weighted by bin size."""
    confidence, correct = np.asarray(confidence, float), np.asarray(correct, float)
    if len(confidence) == 0:
        return float("nan")
    edges = np.linspace(0.0, 1.0, bins + 1)
    index = np.clip(np.digitize(confidence, edges[1:-1], right=True), 0, bins - 1)
    total = 0.0
    for b in range(bins):
        mask = index == b
        if mask.any():
            total += mask.sum() * abs(correct[mask].mean() - confidence[mask].mean())
    return float(total / len(confidence))


def reliability(confidence: np.ndarray, correct: np.ndarray, bins: int = 15) -> list[dict]:
    confidence, correct = np.asarray(confidence, float), np.asarray(correct, float)
    edges = np.linspace(0.0, 1.0, bins + 1)
    index = np.clip(np.digitize(confidence, edges[1:-1], right=True), 0, bins - 1)
    rows = []
    for b in range(bins):
        mask = index == b
        if mask.any():
            rows.append({"lo": float(edges[b]), "hi": float(edges[b + 1]), "n": int(mask.sum()),
                         "confidence": float(confidence[mask].mean()), "accuracy": float(correct[mask].mean())})
    return rows


def metrics(probs: list[np.ndarray], gold: list[int], binary: list[bool] | None = None) -> dict:
    """Accuracy, ECE (top-label, 15 bins), Brier and NLL for distributions and gold indices.

    Brier: for yes/no items the binary (p_yes - y)^2; otherwise the multi-class sum over options.
    """
    if not probs:
        return {"n": 0}
    binary = binary or [False] * len(probs)
    top = np.array([float(np.max(p)) for p in probs])
    correct = np.array([int(np.argmax(p)) == g for p, g in zip(probs, gold)], dtype=float)
    brier = []
    for p, g, is_binary in zip(probs, gold, binary):
        onehot = np.zeros(len(p))
        onehot[g] = 1.0
        brier.append(float((p[0] - onehot[0]) ** 2) if is_binary else float(np.sum((p - onehot) ** 2)))
    nll = [-math.log(max(float(p[g]), 1e-12)) for p, g in zip(probs, gold)]
    return {"n": len(probs), "accuracy": float(correct.mean()), "ece": ece(top, correct),
            "brier": float(np.mean(brier)), "nll": float(np.mean(nll)), "mean_confidence": float(top.mean())}


# -- fitting ------------------------------------------------------------------------------------------------


def nll_at(scores: list[np.ndarray], gold: list[int], temperature: float) -> float:
    return float(np.mean([-math.log(max(float(softmax(s, temperature)[g]), 1e-300)) for s, g in zip(scores, gold)]))


def fit_temperature(scores: list[np.ndarray], gold: list[int], lo: float = 0.05, hi: float = 20.0, reg: float = 0.0) -> float:
    """The T in [lo, hi] minimising mean NLL: golden-section search on log T (NLL is unimodal in T
    for temperature scaling in practice; the search is deterministic and needs no gradient). With `reg`,
    a Gaussian prior on log T around 0 worth `reg` items: mean NLL + (reg / n) * (log T)^2 / 2."""
    if not scores:
        return 1.0
    penalty = reg / len(scores) / 2

    def loss(log_t: float) -> float:
        return nll_at(scores, gold, math.exp(log_t)) + (penalty * log_t ** 2 if penalty else 0.0)

    a, b = math.log(lo), math.log(hi)
    ratio = (math.sqrt(5) - 1) / 2
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = loss(c), loss(d)
    for _ in range(60):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = loss(c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = loss(d)
    return float(math.exp((a + b) / 2))


def cross_validate(scores: list[np.ndarray], gold: list[int], binary: list[bool], folds: int = 5) -> dict:
    """k-fold check of the fit on the calibration split: metrics on each held-out fold, before and after."""
    n = len(scores)
    if n < folds * 2:
        return {"folds": 0, "note": f"too few items ({n}) for {folds}-fold cross-validation"}
    order = np.arange(n)
    before, after, temps = [], [], []
    for k in range(folds):
        held = order[k::folds]
        train = np.setdiff1d(order, held)
        t = fit_temperature([scores[i] for i in train], [gold[i] for i in train])
        temps.append(t)
        before.append(metrics([softmax(scores[i]) for i in held], [gold[i] for i in held], [binary[i] for i in held]))
        after.append(metrics([softmax(scores[i], t) for i in held], [gold[i] for i in held], [binary[i] for i in held]))
    mean = lambda rows, key: float(np.mean([r[key] for r in rows]))  # noqa: E731
    return {"folds": folds, "temperatures": temps,
            "before": {k: mean(before, k) for k in ("accuracy", "ece", "brier", "nll")},
            "after": {k: mean(after, k) for k in ("accuracy", "ece", "brier", "nll")}}
