"""Learning from labels on the project's own task suite (data/learn/, never a public benchmark).

For each task, label budget and seed, on the same splits: zero-shot, every `onepass learn` method, the one
it chooses on validation, and the baselines a user would pick instead (SetFit on MiniLM, logistic
regression on MiniLM embeddings, a k-nearest-neighbour vote on them). A seed fixes the test set (a
stratified `--test-size` items, never fitted on or chosen with) and the draw of the budget's labels from
the rest (70% train, 30% validation). Every model read is cached (onepass/learn/features.py), so a rerun or
a resumed run reads nothing twice.

    .venv/bin/python bench/learn.py --model qwen2.5-coder-1.5b-instruct --json docs/learn/qwen.json --markdown docs/learn/qwen.md
    .venv/bin/python bench/learn.py --model smollm2-135m --tasks marketplace_moderation --budgets 32,128 --seeds 0
    .venv/bin/python bench/learn.py --no-lm ...   # the encoder methods and baselines only, no language model
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from onepass.learn.calibration import fit_temperature  # noqa: E402
from onepass.learn.labels import read_labels, read_questions  # noqa: E402
from onepass.learn.learner import RESPLITS, ece_noise_floor, learn_question, summarise  # noqa: E402
from onepass.learn.methods import METHODS, View  # noqa: E402
from onepass.learn.splits import budget, stratified  # noqa: E402
from onepass.render import state_text  # noqa: E402

TASKS = ["telecom_intents", "workplace_intents", "marketplace_moderation", "incident_severity", "saas_tickets"]
BASELINES = {"setfit-minilm": "SetFit on MiniLM", "logreg-minilm": "logistic regression on MiniLM",
             "knn-minilm": "kNN vote on MiniLM"}
LM_FREE = ["knn-minilm", "logreg-minilm"]


def task_rows(task: str, engine, args, log) -> list[dict]:
    from onepass.learn.features import FeatureStore

    folder = ROOT / "data" / "learn" / task
    raw = read_questions(folder / "questions.json")
    labels = read_labels(folder / "labels.jsonl", raw)
    store = FeatureStore(engine, labels.items, Path(args.cache) / task if engine else None, log=log)
    e = store.embed()
    methods = [m for m in (args.methods.split(",") if args.methods else METHODS) if engine or m in LM_FREE]
    first = next(iter(labels.questions))
    strata = [item.gold[first] for item in labels.items]
    texts = [state_text(item.state) for item in labels.items]
    rows = []
    read_started = time.perf_counter()
    lm = lm_features(engine, labels, needed(strata, args), args, task, log) if engine else {qid: None for qid in labels.questions}
    read_seconds = time.perf_counter() - read_started
    for seed in args.seeds:
        test = stratified(strata, (1 - args.test_size / len(strata), args.test_size / len(strata)), seed)[1]
        for labels_n in args.budgets:
            train, val = budget(strata, labels_n, test, seed)
            for qid, question in labels.questions.items():
                gold = np.array([item.gold[qid] for item in labels.items])
                k = len(getattr(question, "criteria", None) or [0, 0])
                lp = lm[qid][0] if engine else np.zeros((len(gold), k))
                view = View(lp, lm[qid][1] if engine else None, e, gold, k)
                binary = question.type == "noul"
                result = learn_question(qid, view, train, val, test, binary=binary, methods=methods,
                                        resplits=args.resplits, seed=seed, log=log)
                if engine and labels_n in args.examples:
                    examples_on(result, engine, labels, question, needed(strata, args), train, val, test, binary,
                                args, task, log)
                if engine and labels_n in args.lora:
                    lora_on(result, engine, labels, question, train, val, test, binary, args, task, seed, labels_n, log)
                base = {"task": task, "question": qid, "type": question.type, "classes": k, "labels": labels_n,
                        "seed": seed, "train": len(train), "validation": len(val), "test": len(test)}
                for name, metrics in result.test.items():
                    rows.append({**base, "method": name, "chosen": name == result.chosen, "fit_seconds": result.seconds[name],
                                 "validation_nll": result.validation[name]["nll"], **metrics})
                    if name == result.chosen:  # the ECE a calibrated model with these confidences gets on this many items
                        scores = result.test_scores[name] / result.temperature[name]
                        probs = np.exp(scores - scores.max(axis=1, keepdims=True))
                        rows[-1]["ece_noise_floor"] = ece_noise_floor((probs / probs.sum(axis=1, keepdims=True)).max(axis=1))
                for name, why in result.skipped.items():
                    rows.append({**base, "method": name, "skipped": why})
                if args.setfit:
                    from onepass.learn.encoder_tuning import MAX_STEPS, fit_setfit

                    started = time.perf_counter()
                    _model, scores = fit_setfit([texts[i] for i in train], gold[train], k, seed=seed)
                    val_scores = scores([texts[i] for i in val])
                    t = fit_temperature(list(val_scores), list(gold[val]))
                    metrics = summarise(scores([texts[i] for i in test]), gold[test], t, binary)
                    rows.append({**base, "method": "setfit-minilm", "chosen": False, "max_steps": MAX_STEPS,
                                 "fit_seconds": round(time.perf_counter() - started, 2), **metrics})
                if engine and not args.no_served:
                    sub = test[:: max(1, -(-len(test) // args.served_items))]  # an even subsample: many-option reads are slow
                    served = served_zero_shot(engine, raw, qid, question, labels.items, sub, gold, log)
                    if served:
                        rows.append({**base, "method": "zero-shot-served", "chosen": False, **served})
                chosen = result.test[result.chosen]
                log(f"{task}/{qid} labels {labels_n} seed {seed}: chose {result.chosen} {chosen['accuracy']:.3f}; "
                    f"zero-shot {result.test.get('zero-shot', {}).get('accuracy', float('nan')):.3f}")
    for row in rows:
        row["read_seconds_task"] = round(read_seconds, 1)
    return rows


def examples_on(result, engine, labels, question, used: list[int], train, val, test, binary: bool, args, task: str,
                log) -> None:
    """Add the retrieved-examples method to `result`, reading over the `used` items only (indices remapped)."""
    from onepass.learn.examples_method import add_examples
    from onepass.learn.features import FeatureStore

    pos = {i: n for n, i in enumerate(used)}
    items = [labels.items[i] for i in used]
    store = FeatureStore(engine, items, Path(args.cache) / task, log=log)
    remap = lambda idx: np.array([pos[int(i)] for i in idx], dtype=int)  # noqa: E731
    add_examples(result, engine, store, question, items, remap(train), remap(val), remap(test), binary=binary, log=log)


def lora_on(result, engine, labels, question, train, val, test, binary: bool, args, task: str, seed: int, labels_n: int,
            log) -> None:
    """Add the LoRA method to `result` (trained once per task, question, budget and seed; the finished fit is
    cached, so a rerun trains nothing)."""
    from onepass.learn.lora_method import add_lora

    folder = Path(args.cache) / task
    add_lora(result, engine, question, labels.items, train, val, test, binary=binary, out=folder / "lora-adapters",
             dirname=f"{result.qid}-{labels_n}-{seed}", cache_dir=folder, seed=seed, log=log)


_served: dict = {}  # (task question signature, item index) -> served probabilities, across seeds and budgets


def served_zero_shot(engine, raw: dict, qid: str, question, items: list, test: np.ndarray, gold: np.ndarray, log) -> dict | None:
    """What a user gets with no labels at all: the question answered by the served readout policy
    (`auto`), on the test items, for questions the policy reads with another family than the plain slot
    read that the `zero-shot` rows are (many-option choices: shortlist). None when the two are the same."""
    from onepass.readouts.auto import policy_family

    family = policy_family(engine.readouts["auto"].policy, question)
    if family == "slot":
        return None
    keys = list(getattr(question, "criteria", None) or [])
    scores, started = [], time.perf_counter()
    for n, i in enumerate(test, 1):
        key = (qid, json.dumps(raw[qid], sort_keys=True), int(i))
        if key not in _served:
            answer = engine.decide({"model": engine.info.id, "state": items[i].state, "questions": {qid: raw[qid]},
                                    "x_calibrated": False})["answers"][qid]
            probs = [answer["probabilities"][k] for k in keys] if keys else [answer["noul"], 1 - answer["noul"]]
            _served[key] = np.log(np.clip(np.array(probs, dtype=np.float64), 1e-12, None))
        scores.append(_served[key])
        if n % 25 == 0:
            log(f"  served {family} zero-shot for {qid}: {n}/{len(test)}")
    metrics = summarise(np.stack(scores), gold[test], 1.0, question.type == "noul")
    return {**metrics, "family": family, "fit_seconds": 0.0, "read_seconds": round(time.perf_counter() - started, 1)}


def needed(strata: list[int], args) -> list[int]:
    """The items the asked seeds and budgets use (test plus the largest budget's labels, which hold the
    smaller budgets': the draw is a round-robin prefix), so a one-seed run reads only those."""
    used: set[int] = set()
    for seed in args.seeds:
        test = stratified(strata, (1 - args.test_size / len(strata), args.test_size / len(strata)), seed)[1]
        train, val = budget(strata, max(args.budgets), test, seed)
        used |= {int(i) for i in np.concatenate([test, train, val])}
    return sorted(used)


def lm_features(engine, labels, used: list[int], args, task: str, log) -> dict:
    """The model reads of the `used` items, as arrays over every item (unused rows NaN, never indexed). The
    cache is per item, so a later run with more seeds reads only what is new."""
    from onepass.learn.features import FeatureStore

    store = FeatureStore(engine, [labels.items[i] for i in used], Path(args.cache) / task, log=log)
    out = {}
    for qid, (lp, h) in store.lm_all(labels.questions).items():
        full_lp = np.full((len(labels.items), lp.shape[1]), np.nan)
        full_h = np.full((len(labels.items), h.shape[1]), np.nan)
        full_lp[used], full_h[used] = lp, h
        out[qid] = (full_lp, full_h)
    return out


def latency(engine, task: str, rows: list[dict], args, log) -> dict:
    """p50 served latency of zero-shot and of the adapter chosen at the middle budget, seed 0 (same states)."""
    from onepass.learn import adapter as adapter_mod
    from onepass.learn.labels import question_signature
    from onepass.stats import percentile
    from onepass.wire import parse_request

    folder = ROOT / "data" / "learn" / task
    raw = read_questions(folder / "questions.json")
    labels = read_labels(folder / "labels.jsonl", raw)
    mid = args.budgets[len(args.budgets) // 2]
    seed = args.seeds[0]
    first = next(iter(labels.questions))
    strata = [item.gold[first] for item in labels.items]
    test = stratified(strata, (1 - args.test_size / len(strata), args.test_size / len(strata)), seed)[1]
    train, val = budget(strata, mid, test, seed)
    from onepass.learn.features import FeatureStore

    store = FeatureStore(None, labels.items, Path(args.cache) / task, log=log)
    questions = {}
    lm = lm_features(engine, labels, needed(strata, args), args, task, log)
    for qid, q in labels.questions.items():
        lp, h = lm[qid]
        gold = np.array([item.gold[qid] for item in labels.items])
        view = View(lp, h, store.embed(), gold, lp.shape[1])
        result = learn_question(qid, view, train, val, test, binary=q.type == "noul", resplits=args.resplits,
                                seed=seed, log=log)
        fitted = result.fitted[result.chosen]
        parsed = parse_request({"model": "x", "state": "", "questions": {qid: raw[qid]}}).questions[qid]
        questions[question_signature(parsed.model_dump(mode="json"))] = adapter_mod.AdapterQuestion(
            qid, raw[qid], result.chosen, fitted, result.temperature[result.chosen],
            adapter_mod._needs(fitted, "h"), adapter_mod._needs(fitted, "e"))
    name = f"bench-{task}"
    engine.adapters[name] = adapter_mod.Adapter(name, Path("."), {"base_model": {"id": engine.info.id}}, questions)
    times = {"zero-shot": [], "adapter": []}
    for i in test[: args.latency_requests]:
        request = {"state": labels.items[i].state, "questions": raw}
        for model, key in ((engine.info.id, "zero-shot"), (name, "adapter")):
            engine.backend.clear_prefix_cache()  # each pays its own prefill: the second must not find the state cached
            started = time.perf_counter()
            engine.decide({**request, "model": model})
            times[key].append(time.perf_counter() - started)
    del engine.adapters[name]
    return {key: {"p50_s": percentile(v, 50), "n": len(v)} for key, v in times.items()}


def aggregate(rows: list[dict]) -> list[dict]:
    """Per task, budget and method: accuracy (mean over seeds and the task's questions) with its SE, ECE, Brier."""
    out = []
    keys = sorted({(r["task"], r["labels"], r["method"]) for r in rows if "accuracy" in r})
    for task, labels_n, method in keys:
        picked = [r for r in rows if (r["task"], r["labels"], r["method"]) == (task, labels_n, method) and "accuracy" in r]
        n = len(picked)
        out.append({"task": task, "labels": labels_n, "method": method, "runs": n,
                    "accuracy": float(np.mean([r["accuracy"] for r in picked])),
                    "accuracy_se": math.sqrt(sum(r["accuracy_se"] ** 2 for r in picked)) / n,
                    "ece": float(np.mean([r["ece"] for r in picked])), "brier": float(np.mean([r["brier"] for r in picked])),
                    "fit_seconds": float(np.mean([r["fit_seconds"] for r in picked]))})
    for task, labels_n in sorted({(r["task"], r["labels"]) for r in rows}):
        chosen = [r for r in rows if (r["task"], r["labels"]) == (task, labels_n) and r.get("chosen")]
        if chosen:
            n = len(chosen)
            out.append({"task": task, "labels": labels_n, "method": "chosen", "runs": n,
                        "accuracy": float(np.mean([r["accuracy"] for r in chosen])),
                        "accuracy_se": math.sqrt(sum(r["accuracy_se"] ** 2 for r in chosen)) / n,
                        "ece": float(np.mean([r["ece"] for r in chosen])), "brier": float(np.mean([r["brier"] for r in chosen])),
                        "ece_noise_floor": float(np.mean([r["ece_noise_floor"] for r in chosen])),
                        "picked": sorted({r["method"] for r in chosen})})
    return out


def markdown(summary: list[dict], meta: dict) -> str:
    lines = [f"Model {meta['model']} ({meta['dtype']}); seeds {meta['seeds']}; test {meta['test_size']} items per task "
             f"and seed; budgets are labelled items (70% train, 30% validation).", "",
             "| task | labels | method | accuracy ± SE | ECE | Brier |", "|---|---:|---|---:|---:|---:|"]
    for r in summary:
        extra = f" ({', '.join(r['picked'])}; ECE noise floor {r['ece_noise_floor']:.3f})" if r.get("picked") else ""
        lines.append(f"| {r['task']} | {r['labels']} | {r['method']}{extra} | {r['accuracy']:.3f} ± {r['accuracy_se']:.3f} "
                     f"| {r['ece']:.3f} | {r['brier']:.3f} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--dtype", default="auto")
    parser.add_argument("--torch-threads", type=int, default=None)
    parser.add_argument("--tasks", default=",".join(TASKS))
    parser.add_argument("--budgets", type=lambda s: [int(x) for x in s.split(",")], default=[32, 128, 320])
    parser.add_argument("--seeds", type=lambda s: [int(x) for x in s.split(",")], default=[0, 1, 2])
    parser.add_argument("--test-size", type=int, default=150)
    parser.add_argument("--methods", help="comma-separated onepass methods (default all)")
    parser.add_argument("--resplits", type=int, default=RESPLITS,
                        help=f"train/validation splits the choice averages over (default {RESPLITS}; 1: the given split only)")
    parser.add_argument("--examples", type=lambda s: [int(x) for x in s.split(",")], default=[],
                        help="label budgets at which to also fit retrieved examples (reads: six per validation item)")
    parser.add_argument("--lora", type=lambda s: [int(x) for x in s.split(",")], default=[],
                        help="label budgets at which to also train a LoRA adapter per question (reads: train, "
                             "validation and test items again)")
    parser.add_argument("--setfit", action="store_true", help="also fit the SetFit baseline (minutes per fit)")
    parser.add_argument("--no-served", action="store_true", help="skip the served-policy zero-shot rows")
    parser.add_argument("--served-items", type=int, default=60, help="test items per seed the served policy answers")
    parser.add_argument("--no-lm", action="store_true", help="no language model: the MiniLM methods and baselines only")
    parser.add_argument("--latency-requests", type=int, default=10, help="requests timed per task for served p50 (0: skip)")
    parser.add_argument("--cache", default=str(Path.home() / ".cache" / "onepass" / "learn-bench"))
    parser.add_argument("--json", help="write every row and the summary here")
    parser.add_argument("--markdown", help="write the summary table here")
    args = parser.parse_args()
    log = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    engine = None
    if not args.no_lm:
        from onepass import Engine

        engine = Engine(args.model, dtype=args.dtype, torch_threads=args.torch_threads, calibration="none", log=log)
    rows, latencies = [], {}
    started = time.perf_counter()
    for task in args.tasks.split(","):
        rows += task_rows(task, engine, args, log)
        if engine and args.latency_requests:
            latencies[task] = latency(engine, task, rows, args, log)
    summary = aggregate(rows)
    meta = {"model": args.model if engine else "none (MiniLM only)", "dtype": engine.dtype.value if engine else None,
            "seeds": args.seeds, "budgets": args.budgets, "resplits": args.resplits, "test_size": args.test_size,
            "setfit": args.setfit,
            "seconds": round(time.perf_counter() - started, 1),
            "peak_memory_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1), "latency": latencies}
    table = markdown(summary, meta)
    print(table)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"meta": meta, "summary": summary, "rows": rows}, indent=1, default=float) + "\n")
    if args.markdown:
        Path(args.markdown).parent.mkdir(parents=True, exist_ok=True)
        Path(args.markdown).write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
