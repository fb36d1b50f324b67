"""`onepass learn`: a question set's labels -> an adapter directory (onepass/learn/adapter.py).

Splits the labelled items into train / validation / test (stratified, seeded; `--test FILE` supplies the test
items instead), computes every item's reads once (cached under `OUT/cache`, so Ctrl-C or a crash resumes
where it stopped), fits every method per question, chooses on validation, fits a temperature on validation,
and writes the manifest, the chosen methods' arrays, report.md and reliability.png.
"""

from __future__ import annotations

import json
import platform
import resource
import sys
import time
from pathlib import Path

import numpy as np

from onepass import engine_setup
from onepass.learn.adapter import SCHEMA, save_fitted
from onepass.learn.labels import LabelsError, LabelSet, read_labels, read_questions
from onepass.learn.examples_method import NAME as EXAMPLES
from onepass.learn.examples_method import add_examples
from onepass.learn.learner import RESPLITS, QuestionResult, ece_noise_floor, learn_question
from onepass.learn.lora_method import NAME as LORA
from onepass.learn.lora_method import add_lora
from onepass.learn.methods import METHODS, View, log_softmax
from onepass.learn.splits import stratified

__all__ = ["register", "learn", "views"]

OPT_IN = (EXAMPLES, LORA)  # methods that read the model again (not from the cached features): asked for by name


def _err(message: str) -> int:
    print(f"onepass learn: {message}", file=sys.stderr)
    return 2


def views(store, labels: LabelSet, methods: list[str]) -> dict[str, tuple[View, np.ndarray]]:
    """Per question: a View over every item (features each method needs) and the indices labelled for it."""
    need_h = any("h" in METHODS[m][0] for m in methods)
    need_e = any("e" in METHODS[m][0] for m in methods)
    e = store.embed() if need_e else None
    out = {}
    lm = store.lm_all(labels.questions)
    for qid, question in labels.questions.items():
        lp, h = lm[qid]
        gold = np.array([item.gold.get(qid, -1) for item in labels.items])
        out[qid] = (View(lp, h if need_h else None, e, gold, lp.shape[1]), np.flatnonzero(gold >= 0))
    return out


def _peak_rss_mb() -> float:
    # ru_maxrss is KiB on Linux, bytes on macOS
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1 << 20 if platform.system() == "Darwin" else 1 << 10), 1)


def _entry(result: QuestionResult, raw: dict, file: str, floor: float | None) -> dict:
    return {"question": raw, "file": file, "chosen": result.chosen, "why": result.why,
            "temperature": result.temperature[result.chosen], "counts": result.counts,
            "validation": result.validation, "test": result.test, "skipped": result.skipped,
            "fit_seconds": result.seconds, "test_ece_noise_floor": floor,
            "details": {name: fitted.info for name, fitted in result.fitted.items()}}


def _report(manifest: dict) -> str:
    lines = [f"# Adapter {manifest['name']}", "",
             f"Base model {manifest['base_model']['id']} ({manifest['dtype']}), learned by onepass {manifest['onepass_version']} "
             f"from {manifest['labels']['items']} labelled items in {manifest['training_seconds']:.0f} s "
             f"(peak memory {manifest['peak_memory_mb']:.0f} MB).", ""]
    for qid, q in manifest["questions"].items():
        c = q["counts"]
        lines += [f"## {qid} ({q['question']['type']})", "",
                  f"Chosen: **{q['chosen']}** (temperature {q['temperature']:.3g}): {q['why']}. "
                  f"Split: {c['train']} train, {c['validation']} validation, {c['test']} test; "
                  f"{c['classes_in_train']} answers seen in training.", "",
                  "| method | validation accuracy | validation NLL | test accuracy ± SE | test ECE ± SE | test Brier |",
                  "|---|---:|---:|---:|---:|---:|"]
        for name, v in q["validation"].items():
            t = q["test"].get(name, {})
            mark = " (chosen)" if name == q["chosen"] else ""
            lines.append(f"| {name}{mark} | {v['accuracy']:.3f} | {v['nll']:.3f} | "
                         + (f"{t['accuracy']:.3f} ± {t['accuracy_se']:.3f} | {t['ece']:.3f} ± {t['ece_se']:.3f} | {t['brier']:.3f} |"
                            if t.get("n") else "– | – | – |"))
        for name, why in q["skipped"].items():
            lines.append(f"| {name} | not fitted: {why} | | | | |")
        if q.get("test_ece_noise_floor") is not None:
            lines += ["", f"ECE noise floor of the chosen method on {c['test']} test items: {q['test_ece_noise_floor']:.3f}."]
        lines.append("")
    return "\n".join(lines)


def _reliability_png(path: Path, curves: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from onepass.learn.calibration import reliability

    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1)
    for label, (confidence, correct) in curves.items():
        bins = reliability(confidence, correct)  # non-empty bins only
        ax.plot([b["confidence"] for b in bins], [b["accuracy"] for b in bins], marker="o", label=label)
    ax.set_xlabel("confidence (test)")
    ax.set_ylabel("accuracy (test)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def learn(args) -> int:
    started = time.perf_counter()
    try:
        raw_questions = read_questions(args.questions)
        labels = read_labels(args.data, raw_questions)
        test_labels = read_labels(args.test, raw_questions) if args.test else None
    except LabelsError as error:
        return _err(str(error))
    methods = args.methods.split(",") if args.methods else list(METHODS)
    unknown = [m for m in methods if m not in METHODS and m not in OPT_IN]
    if unknown:
        return _err(f"unknown method {unknown[0]!r}; the methods are {', '.join([*METHODS, *OPT_IN])}")
    with_examples, with_lora = EXAMPLES in methods, LORA in methods
    methods = [m for m in methods if m not in OPT_IN]
    if "zero-shot" not in methods:
        methods.insert(0, "zero-shot")  # the fallback every question keeps
    problem = engine_setup.check_flags(args, calibration="none")
    if problem:
        return _err(problem)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log = lambda m: print(m, file=sys.stderr)  # noqa: E731
    engine = engine_setup.build_engine(args.engine_config, log=log)
    if not engine.backend.capabilities.hidden_states:
        return _err("learning reads hidden states: run the model in-process (--backend embedded)")
    from onepass.learn.features import FeatureStore

    everything = LabelSet(raw_questions, labels.questions, labels.items + (test_labels.items if test_labels else []))
    store = FeatureStore(engine, everything.items, out / "cache", log=log)
    per_question = views(store, everything, methods)
    n_own = len(labels.items)
    entries, curves = {}, {}
    for qid, (view, labelled) in per_question.items():
        own = labelled[labelled < n_own]
        if test_labels:
            trainval, test = own, labelled[labelled >= n_own]
            train, val = stratified(view.gold.tolist(), (1 - args.val_share, args.val_share), args.seed, trainval)
        else:
            share = (1 - args.val_share - args.test_share, args.val_share, args.test_share)
            train, val, test = stratified(view.gold.tolist(), share, args.seed, own)
        if len(train) == 0 or len(val) == 0:
            log(f"{qid}: {len(own)} labelled items are too few to split (train {len(train)}, validation {len(val)}); "
                "answered zero-shot")
        log(f"{qid}: {len(train)} train, {len(val)} validation, {len(test)} test")
        if len(val) == 0:
            val = train[:0]
        binary = labels.questions[qid].type == "noul"
        result = learn_question(qid, view, train, val if len(val) else train, test, binary=binary, methods=methods,
                                resplits=args.resplits, seed=args.seed, log=log) if len(train) and len(val) else None
        if result is not None and with_examples:
            add_examples(result, engine, store, labels.questions[qid], everything.items, train, val, test,
                         binary=binary, log=log)
        if result is not None and with_lora:
            add_lora(result, engine, labels.questions[qid], everything.items, train, val, test, binary=binary, out=out,
                     dirname=f"lora-{len(entries)}", cache_dir=out / "cache", seed=args.seed, log=log)
        if result is None:
            from onepass.learn.methods import Fitted

            result = QuestionResult(qid, "zero-shot", "too few labels to split: zero-shot", {"zero-shot": Fitted("zero-shot")},
                                    {"zero-shot": 1.0}, {}, {}, {m: "too few labels" for m in methods if m != "zero-shot"},
                                    counts={"train": len(train), "validation": 0, "test": len(test), "classes_in_train": 0})
            result.test_scores["zero-shot"] = Fitted("zero-shot").scores(view.take(test))
        file = f"q-{len(entries)}.npz"
        save_fitted(result.fitted[result.chosen], out / file)
        floor = None
        if len(test):
            te = view.take(test)
            probs = np.exp(log_softmax(result.test_scores[result.chosen] / result.temperature[result.chosen]))
            floor = ece_noise_floor(probs.max(axis=1))
            curves[f"{qid}: {result.chosen}"] = (probs.max(axis=1), (probs.argmax(axis=1) == te.gold).astype(float))
        entries[qid] = _entry(result, raw_questions[qid], file, floor)
        chosen_test = result.test.get(result.chosen, {})
        log(f"{qid}: chose {result.chosen}; " + (f"test accuracy {chosen_test['accuracy']:.3f} ± {chosen_test['accuracy_se']:.3f} "
            f"(zero-shot {result.test['zero-shot']['accuracy']:.3f})" if chosen_test.get("n") else "no test items"))
    from onepass import __version__ as version
    from onepass import score_cache

    manifest = {"schema": SCHEMA, "name": args.name, "onepass_version": version,
                "base_model": {"id": engine.info.id, "weights": score_cache.weights_fingerprint(engine)},
                "dtype": engine.dtype.value if engine.dtype else None, "questions_hash": labels.questions_hash(),
                "labels": {"file": str(args.data), "items": n_own, "test_file": str(args.test) if args.test else None,
                           "seed": args.seed, "validation_share": args.val_share,
                           "test_share": None if args.test else args.test_share},
                "methods_tried": methods + ([EXAMPLES] if with_examples else []) + ([LORA] if with_lora else []), "resplits": args.resplits,
                "training_seconds": round(time.perf_counter() - started, 1),
                "peak_memory_mb": _peak_rss_mb(), "questions": entries}
    (out / "questions.json").write_text(json.dumps(raw_questions, indent=2, ensure_ascii=False) + "\n")
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False, default=float) + "\n")
    (out / "report.md").write_text(_report(manifest))
    if curves:
        _reliability_png(out / "reliability.png", curves)
    print(f"wrote adapter {args.name} to {out} (report: {out / 'report.md'}); serve it with "
          f"`onepass serve --model {engine.info.id} --adapter {out}` and \"model\": \"{args.name}\"")
    return 0


def _share(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 0.9:
        raise argparse.ArgumentTypeError(f"{text!r}: a share is a number between 0 and 0.9")
    return value


def _count(text: str) -> int:
    import argparse

    if not text.isdigit() or not 1 <= int(text) <= 50:
        raise argparse.ArgumentTypeError(f"{text!r}: the number of splits is a whole number from 1 to 50")
    return int(text)


def _name(text: str) -> str:
    import argparse
    import re

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", text):
        raise argparse.ArgumentTypeError(f"{text!r}: an adapter name is 1-64 letters, digits, '.', '_' or '-' "
                                         "(it is the model name requests use)")
    return text


def register(sub, model_args) -> None:
    p = sub.add_parser("learn", help="learn a question set from labelled states: an adapter served by name",
                       description="Fit every learning method per question on the labels' train split, choose on "
                                   "validation, report on test, and write an adapter directory that `onepass serve "
                                   "--adapter DIR` serves under --name. See docs/learn.md.")
    model_args(p)
    p.add_argument("--questions", required=True, help="question-set JSON ({id: question})")
    p.add_argument("--data", required=True, help="labels JSONL: {\"state\", \"gold\": {id: answer}} lines, or the corpus format")
    p.add_argument("--name", required=True, type=_name, help="the adapter's name: the \"model\" requests ask for")
    p.add_argument("--out", required=True, help="adapter directory to write (features are cached in OUT/cache)")
    p.add_argument("--test", help="a separate labels file used only for the test numbers")
    p.add_argument("--seed", type=int, default=0, help="split seed (default 0)")
    p.add_argument("--val-share", type=_share, default=0.25, help="share of labels for validation (default 0.25)")
    p.add_argument("--test-share", type=_share, default=0.2, help="share of labels held out for test without --test (default 0.2)")
    p.add_argument("--methods", help=f"comma-separated subset of: {', '.join([*METHODS, *OPT_IN])} (default: all but "
                                     f"{EXAMPLES}, which reads every validation item six more times, and {LORA}, which "
                                     "trains an adapter per question; docs/learn.md)")
    p.add_argument("--resplits", type=_count, default=RESPLITS,
                   help=f"train/validation splits of the labels the choice among methods averages over (default {RESPLITS})")
    p.set_defaults(fn=learn)
