"""An adapter: a directory a user can read and move, holding what `onepass learn` fitted for one question set
on one base model.

    NAME/
      manifest.json        schema, name, base model and weights fingerprint, dtype, the question set and its
                           hash, per question: the method chosen and why, its temperature, label and split
                           counts, validation and test numbers of every method (with standard errors),
                           training time, peak memory, onepass version
      questions.json       the question set as learned
      q-<qid>.npz          the chosen method's arrays (numpy, float64/int64; no pickles)
      report.md            the same numbers as tables, for people
      reliability.png      the chosen methods' test reliability diagram

`Adapter.load(dir)` reads it back; `AdapterQuestion.scores(lp, h, e)` is the arithmetic a request gets.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from onepass.errors import ConfigError
from onepass.learn.labels import question_signature
from onepass.learn.methods import Fitted, View

__all__ = ["SCHEMA", "Adapter", "AdapterQuestion", "save_fitted", "load_fitted"]

SCHEMA = 1


def save_fitted(fitted: Fitted, path: Path) -> None:
    """A fitted form as one .npz: its arrays, a combination's component under "part0.", and its info as JSON."""
    arrays = {f"p.{k}": v for k, v in fitted.params.items()}
    for n, part in enumerate(fitted.parts):
        arrays.update({f"part{n}.{k}": v for k, v in part.params.items()})
    meta = {"kind": fitted.kind, "info": fitted.info, "parts": [{"kind": p.kind, "info": p.info} for p in fitted.parts]}
    np.savez(path, meta=np.array(json.dumps(meta)), **arrays)


def load_fitted(path: Path) -> Fitted:
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        arrays = {k: data[k] for k in data.files if k != "meta"}
    parts = [Fitted(p["kind"], {k.split(".", 1)[1]: v for k, v in arrays.items() if k.startswith(f"part{n}.")}, p["info"])
             for n, p in enumerate(meta["parts"])]
    return Fitted(meta["kind"], {k[2:]: v for k, v in arrays.items() if k.startswith("p.")}, meta["info"], parts)


@dataclass
class AdapterQuestion:
    qid: str
    raw: dict
    method: str
    fitted: Fitted
    temperature: float
    needs_hidden: bool
    needs_embedding: bool
    # A LoRA method's reads, (prefix, reads) -> label log-probs: attached when served (serving.attach_lora).
    runner: object = None

    def scores(self, lp: np.ndarray, h: np.ndarray | None, e: np.ndarray | None) -> np.ndarray:
        """The answer's logits for one read: the fitted arithmetic, divided by the fitted temperature."""
        view = View(np.asarray(lp, np.float64)[None, :], None if h is None else np.asarray(h, np.float64)[None, :],
                    None if e is None else np.asarray(e, np.float64)[None, :], None, len(lp))
        return self.fitted.scores(view)[0] / self.temperature


def _needs(fitted: Fitted, feature: str) -> bool:
    return fitted.info.get("feature") == feature or any(_needs(p, feature) for p in fitted.parts)


@dataclass
class Adapter:
    name: str
    path: Path
    manifest: dict
    questions: dict[str, AdapterQuestion]  # by signature (type, instructions, criteria), not by id

    @property
    def base(self) -> str:
        return self.manifest["base_model"]["id"]

    def match(self, raw_question: dict) -> AdapterQuestion | None:
        return self.questions.get(question_signature(raw_question))

    def summary(self) -> dict:
        """What /v1/models says of it: base, method and held-out numbers per question."""
        out = {}
        for qid, q in self.manifest["questions"].items():
            test = q["test"].get(q["chosen"], {})
            out[qid] = {"method": q["chosen"], "test_accuracy": test.get("accuracy"), "test_accuracy_se": test.get("accuracy_se"),
                        "test_ece": test.get("ece"), "test_items": test.get("n"),
                        "zero_shot_test_accuracy": q["test"].get("zero-shot", {}).get("accuracy")}
        return out

    @classmethod
    def load(cls, path: str | Path) -> "Adapter":
        path = Path(path)
        manifest_path = path / "manifest.json"
        if not manifest_path.is_file():
            raise ConfigError(f"adapter (--adapter) {path}: no manifest.json; make one with `onepass learn --out {path}`")
        try:
            manifest = json.loads(manifest_path.read_text())
        except (OSError, json.JSONDecodeError) as error:
            raise ConfigError(f"adapter (--adapter) {path}: manifest.json is not readable JSON ({error})") from None
        if manifest.get("schema") != SCHEMA:
            raise ConfigError(f"adapter (--adapter) {path}: schema {manifest.get('schema')!r}, this onepass reads schema "
                              f"{SCHEMA}; refit it with `onepass learn`")
        questions = {}
        for qid, entry in manifest["questions"].items():
            fitted = load_fitted(path / entry["file"])
            questions[question_signature(entry["question"])] = AdapterQuestion(
                qid, entry["question"], entry["chosen"], fitted, float(entry["temperature"]),
                _needs(fitted, "h"), _needs(fitted, "e"))
        return cls(manifest["name"], path, manifest, questions)
