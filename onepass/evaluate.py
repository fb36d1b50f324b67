"""Run a labelled decision corpus through a model or any System One server and report how its answers
score (accuracy, ECE, Brier, NLL, reliability); fitting a profile from those scores is onepass/learn/fit.py.

Corpus lines: {"id", "domain", "split", "request": <System One request, one question "q">, "gold"}, gold
being true/false (noul), an option name (choice) or a level index (score). See docs/corpus.md.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from onepass import score_cache
from onepass.learn.calibration import metrics, reliability
from onepass.readouts.base import softmax
from onepass.stats import percentile

__all__ = ["Scored", "load_corpus", "gold_index", "answer_probs", "score_with_engine", "score_with_server", "report",
           "plot"]


@dataclass
class Scored:
    item: dict
    qtype: str
    probs: np.ndarray  # as answered (server) or before calibration (in-process)
    gold: int
    label_mass: float | None
    scores: np.ndarray | None = None  # label logits, in-process only (what calibration fits)


def load_corpus(path: Path, split: str | None = None, fraction: float = 1.0, domains: list[str] | None = None) -> list[dict]:
    """Corpus items, optionally one split and some domains, optionally a deterministic fraction (kept by a
    hash of the id, so the same items are chosen on every run and the sample is spread over every domain
    and type)."""
    items = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    items = [i for i in items if split in (None, "all") or i.get("split") == split]
    items = [i for i in items if not domains or i.get("domain") in domains]
    if fraction < 1.0:
        items = [i for i in items if int(hashlib.sha256(i["id"].encode()).hexdigest(), 16) % 10000 < fraction * 10000]
    return items


def gold_index(question: dict, gold) -> int:
    if question["type"] == "noul":
        return 0 if gold is True else 1  # distributions are [yes, no]
    if question["type"] == "choice":
        return list(question["criteria"]).index(gold)
    return int(gold)


def answer_probs(answer: dict, question: dict) -> np.ndarray:
    if answer["type"] == "noul":
        return np.array([answer["noul"], 1.0 - answer["noul"]])
    if answer["type"] == "choice":
        return np.array([answer["probabilities"][name] for name in question["criteria"]])
    return np.array([answer["probabilities"][str(i)] for i in range(len(question["criteria"]))])


def _progress(items, desc: str):
    from tqdm import tqdm

    return tqdm(items, desc=desc, unit="item", file=sys.stderr, mininterval=2.0)


def score_with_engine(engine, items: list[dict], readout: str | None, cache: Path | None = None,
                      log: Callable[[str], None] | None = None) -> list[Scored]:
    """In-process: label logits before calibration, so one pass serves fitting and before/after reports.

    With `cache`, each item's logits are appended to a JSONL file as they are computed and reused on the
    next run under the same setting (onepass/score_cache.py: model files, dtype, backend, readout and its
    options, prior correction, prompt version), so an interrupted pass resumes and nothing stale is reused.
    """
    readout = readout or engine.default_readout
    out = []
    with score_cache.ScoresCache(cache, score_cache.setting(engine, readout), log) as cached:
        for item in _progress(items, f"{engine.info.id}/{readout}"):
            question = item["request"]["questions"]["q"]
            hit = cached.get(item["request"])
            if hit is not None:
                scores, mass = hit
            else:
                request = engine.validate({**item["request"], "x_readout": readout})
                outcome = engine.outcomes(request).by_question["q"]
                scores, mass = np.asarray(outcome.scores, dtype=np.float64), outcome.label_mass
                cached.put(item["id"], item["request"], scores, mass)
            out.append(Scored(item, question["type"], softmax(scores), gold_index(question, item["gold"]), mass, scores))
    return out


def score_with_server(url: str, items: list[dict], readout: str | None, api_key: str | None, timeout: float) -> list[Scored]:
    """Any System One server: only the returned probabilities are used."""
    import httpx

    headers = {"authorization": f"Bearer {api_key or 'none'}"}
    out = []
    with httpx.Client(base_url=url.rstrip("/"), timeout=timeout, headers=headers) as client:
        for item in _progress(items, url):
            payload = {**item["request"], **({"x_readout": readout} if readout else {})}
            response = client.post("/v1/systemone", json=payload)
            if response.status_code != 200:
                raise RuntimeError(f"{item['id']}: HTTP {response.status_code}: {response.text[:300]}")
            answer = response.json()["answers"]["q"]
            question = item["request"]["questions"]["q"]
            out.append(Scored(item, question["type"], answer_probs(answer, question), gold_index(question, item["gold"]),
                              answer.get("x_label_mass")))
    return out


def report(scored: list[Scored], temperatures: dict[str, float] | None = None) -> dict:
    """Metrics overall, by question type and by domain; temperatures (per type) applied to logits if given."""

    def probs_of(s: Scored) -> np.ndarray:
        if temperatures and s.scores is not None:
            return softmax(s.scores, temperatures.get(s.qtype, 1.0))
        return s.probs

    def block(rows: list[Scored]) -> dict:
        result = metrics([probs_of(s) for s in rows], [s.gold for s in rows], [s.qtype == "noul" for s in rows])
        masses = [s.label_mass for s in rows if s.label_mass is not None]
        if masses:
            result["label_mass"] = {"mean": float(np.mean(masses)), "p10": percentile(masses, 10),
                                    "min": float(np.min(masses))}
        return result

    by_type = {t: block([s for s in scored if s.qtype == t]) for t in sorted({s.qtype for s in scored})}
    by_domain = {d: block([s for s in scored if s.item.get("domain") == d]) for d in sorted({s.item.get("domain") for s in scored})}
    top = [float(np.max(probs_of(s))) for s in scored]
    correct = [float(int(np.argmax(probs_of(s))) == s.gold) for s in scored]
    return {"overall": block(scored), "by_type": by_type, "by_domain": by_domain,
            "reliability": reliability(np.array(top), np.array(correct))}


def plot(reports: dict[str, dict], path: Path, title: str) -> Path:
    """Reliability diagram: accuracy against confidence per bin, one line per named report."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 5.5), dpi=120)
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="perfect calibration")
    for name, rep in reports.items():
        rows = rep["reliability"]
        ece = rep["overall"]["ece"]
        ax.plot([r["confidence"] for r in rows], [r["accuracy"] for r in rows], marker="o",
                label=f"{name} (ECE {ece:.3f}, n={rep['overall']['n']})")
    ax.set_xlabel("confidence (top-label probability)")
    ax.set_ylabel("accuracy")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
