"""Retrieved in-context examples (onepass/learn/examples.py) against the zero-shot slot read, per task.

For each task: the first `--labels` labelled items are split train / validation (stratified, seed 0, two
thirds train), the next `--test` items are the test set. Every (k, order, retrieval) candidate is read on
validation, the lowest validation NLL after its temperature is chosen, and only that one (and zero-shot) is
read on test. Latency is one cold read (the prefix prefilled afresh, as for a new state) of the plain read
and of k examples, median over `--timing-items` validation states, interleaved. `--placement` also reads the
chosen candidate with the demonstrations before the state (in the prefix, which breaks the shared prefix) on
validation and test, to see whether that placement is worth its cost.

Every read is cached (FeatureStore and the examples cache, under --cache), so a rerun reads nothing twice.

    .venv/bin/python bench/examples.py --model smollm2-135m --torch-threads 1 --json bench/out/examples.json \
        --markdown bench/out/examples.md
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from onepass.backends.base import Read  # noqa: E402
from onepass.learn.calibration import fit_temperature  # noqa: E402
from onepass.learn.examples import demonstration_text, fit_examples  # noqa: E402
from onepass.learn.features import FeatureStore  # noqa: E402
from onepass.learn.labels import read_labels, read_questions  # noqa: E402
from onepass.learn.learner import summarise  # noqa: E402
from onepass.learn.splits import stratified  # noqa: E402
from onepass.render import state_text  # noqa: E402

TASKS = ["marketplace_moderation", "incident_severity"]


def prefix_with_demos(renderer, state, block: str) -> list[int]:
    """The alternative placement: the demonstrations block before the state, inside the shared prefix."""
    return renderer._template_ids(renderer._head) + renderer.encode(f"{block}<content>\n{state_text(state)}\n</content>\n\n")


def placement(engine, fit, items, idx, embed, hidden) -> np.ndarray:
    renderer, q = engine.renderer, fit._question
    rendered = renderer.question(q)
    out = []
    for i in idx:
        order = fit.order_for(embed[i], hidden[i], fit.bank.excluding(items[i].id, state_text(items[i].state)))
        block = demonstration_text(renderer, q, fit.bank.texts, fit.bank.golds, order, fit.cap)
        out.append(fit._reads.get(prefix_with_demos(renderer, items[i].state, block),
                                  [Read(rendered.suffix, rendered.label_ids)])[0])
    fit._reads.save()
    return np.stack(out)


def task_row(task: str, engine, args, log) -> dict:
    folder = ROOT / "data" / "learn" / task
    raw = read_questions(folder / "questions.json")
    labels = read_labels(folder / "labels.jsonl", raw)
    qid = next(iter(labels.questions))
    question = labels.questions[qid]
    items = labels.items[: args.labels + args.test]
    golds = np.array([item.gold[qid] for item in items])
    train, val = stratified(golds[: args.labels].tolist(), (2 / 3, 1 / 3), 0)
    test = np.arange(args.labels, len(items))
    store = FeatureStore(engine, items, Path(args.cache) / task, log=log)
    started = time.perf_counter()
    fit = fit_examples(engine, store, question, qid, items, train, val, ks=args.ks, log=log, timing_items=args.timing_items)
    binary = question.type == "noul"
    lp0, h = store.lm(qid, question)
    cands = fit.report["candidates"]
    t0 = cands["zero-shot"]["temperature"]
    ex_val, ex_test = fit.scores(val), fit.scores(test)  # the validation reads come from the cache
    majority = int(np.bincount(golds[train]).argmax())
    row = {"task": task, "question": qid, "type": question.type, "train": len(train), "validation": len(val),
           "test": len(test), "chosen": fit.candidate.name, "temperature": fit.temperature, "candidates": cands,
           "test_results": {"zero-shot": summarise(lp0[test], golds[test], t0, binary),
                            "examples": summarise(ex_test, golds[test], fit.temperature, binary)},
           "test_majority_accuracy": float(np.mean(golds[test] == majority)),
           "test_examples_minus_zero_shot": paired(ex_test, fit.temperature, lp0[test], t0, golds[test]),
           "suffix_tokens_plain": len(engine.renderer.question(question).suffix),
           "prefix_tokens_mean": float(np.mean([len(engine.renderer.prefix(it.state)) for it in items])),
           "label_mass": {"zero-shot": cands["zero-shot"]["label_mass"], "examples": cands[fit.candidate.name]["label_mass"]}}
    if args.placement:
        e = store.embed()
        pv, pt = placement(engine, fit, items, val, e, h), placement(engine, fit, items, test, e, h)
        t = fit_temperature(list(pv), list(golds[val]))
        row["before_state"] = {"temperature": t, "validation": summarise(pv, golds[val], t, binary),
                               "test": summarise(pt, golds[test], t, binary),
                               "validation_minus_suffix": paired(pv, t, ex_val, fit.temperature, golds[val]),
                               "test_minus_suffix": paired(pt, t, ex_test, fit.temperature, golds[test])}
    row["seconds"] = round(time.perf_counter() - started, 1)
    return row


def paired(a: np.ndarray, ta: float, b: np.ndarray, tb: float, gold: np.ndarray) -> dict:
    """Per-item differences a - b on the same items (NLL after each one's temperature; accuracy), mean ± SE."""
    def per_item(lp, t):
        z = lp / t
        z = z - z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        return -logp[np.arange(len(gold)), gold], (lp.argmax(axis=1) == gold).astype(float)

    (na, ca), (nb, cb) = per_item(a, ta), per_item(b, tb)
    se = lambda d: float(np.std(d, ddof=1) / np.sqrt(len(d)))  # noqa: E731
    return {"nll": float(np.mean(na - nb)), "nll_se": se(na - nb), "accuracy": float(np.mean(ca - cb)),
            "accuracy_se": se(ca - cb)}


def _f(x, digits=3):
    return "–" if x is None else f"{x:.{digits}f}"


def markdown(rows: list[dict], model: str) -> str:
    lines = ["## Retrieved examples", "",
             f"Measured by `bench/examples.py` on {model} (float32, one torch thread, on a shared 2-core CPU, so "
             "seconds are comparative, not absolute). "
             f"Per task: the first {rows[0]['train'] + rows[0]['validation']} labelled items split {rows[0]['train']} "
             f"train / {rows[0]['validation']} validation (stratified, seed 0), test = the next {rows[0]['test']} items. "
             "Each validation state is read with every "
             "candidate (k examples, nearest-last or nearest-first, retrieved by MiniLM or by the base model's "
             "hidden state), a temperature is fitted per candidate on validation and the lowest validation NLL is "
             "chosen; only the chosen one is read on test. Accuracy ± binomial SE; NLL after the candidate's "
             "validation temperature. Extra tokens: mean suffix tokens the demonstrations add. Read: median cold "
             "read (prefix prefilled afresh) over validation states; by-hidden retrieval also needs the plain read "
             "first (its serve time is plain + read).", ""]
    for r in rows:
        zs, ex = r["test_results"]["zero-shot"], r["test_results"]["examples"]
        c = r["candidates"]
        plain_s = c["zero-shot"]["read_seconds"]
        lines += [f"### {r['task']} ({r['type']}, plain suffix {r['suffix_tokens_plain']} tokens, prefix "
                  f"{r['prefix_tokens_mean']:.0f})", "",
                  f"Chosen on validation: **{r['chosen']}** (temperature {r['temperature']:.3g}).", "",
                  f"| test ({r['test']} items) | accuracy | NLL | ECE | extra tokens | read s |", "|---|---:|---:|---:|---:|---:|",
                  f"| zero-shot | {zs['accuracy']:.3f} ± {zs['accuracy_se']:.3f} | {zs['nll']:.3f} | {zs['ece']:.3f} | 0 | {_f(plain_s, 2)} |",
                  f"| examples ({r['chosen']}) | {ex['accuracy']:.3f} ± {ex['accuracy_se']:.3f} | {ex['nll']:.3f} | "
                  f"{ex['ece']:.3f} | {c[r['chosen']]['extra_tokens']:.0f} | {_f(c[r['chosen']]['serve_seconds'], 2)} |"]
        if "before_state" in r:
            b = r["before_state"]
            lines.append(f"| same, demonstrations before the state | {b['test']['accuracy']:.3f} ± {b['test']['accuracy_se']:.3f} | "
                         f"{b['test']['nll']:.3f} | {b['test']['ece']:.3f} | {c[r['chosen']]['extra_tokens']:.0f} | – |")
        lines.append(f"| majority answer of train | {r['test_majority_accuracy']:.3f} | | | | |")
        d = r["test_examples_minus_zero_shot"]
        lines += ["", f"Examples minus zero-shot on the same test items: accuracy {d['accuracy']:+.3f} ± {d['accuracy_se']:.3f}, "
                  f"NLL {d['nll']:+.3f} ± {d['nll_se']:.3f} (paired SE). Label mass (validation): zero-shot "
                  f"{r['label_mass']['zero-shot']:.2f}, with the examples {r['label_mass']['examples']:.2f}."]
        if "before_state" in r:
            v, t = r["before_state"]["validation_minus_suffix"], r["before_state"]["test_minus_suffix"]
            lines.append(f"Demonstrations before the state minus in the suffix (paired): validation NLL {v['nll']:+.3f} ± "
                         f"{v['nll_se']:.3f}, accuracy {v['accuracy']:+.3f} ± {v['accuracy_se']:.3f}; test NLL "
                         f"{t['nll']:+.3f} ± {t['nll_se']:.3f}, accuracy {t['accuracy']:+.3f} ± {t['accuracy_se']:.3f}.")
        lines += ["", f"| validation ({r['validation']} items) | accuracy | NLL | temperature | label mass | extra tokens | read s |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for name, v in c.items():
            mark = " (chosen)" if name == r["chosen"] else ""
            lines.append(f"| {name}{mark} | {v['accuracy']:.3f} | {v['nll']:.3f} | {v['temperature']:.3g} | "
                         f"{v['label_mass']:.2f} | {v['extra_tokens']:.0f} | {_f(v['serve_seconds'], 2)} |")
        if "before_state" in r:
            b = r["before_state"]["validation"]
            lines.append(f"| {r['chosen']}, before the state | {b['accuracy']:.3f} | {b['nll']:.3f} | "
                         f"{r['before_state']['temperature']:.3g} | | {c[r['chosen']]['extra_tokens']:.0f} | – |")
        lines.append("")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument("--tasks", default=",".join(TASKS))
    parser.add_argument("--labels", type=int, default=96, help="labelled items split train/validation (default 96)")
    parser.add_argument("--test", type=int, default=60, help="the next items, used only for test (default 60)")
    parser.add_argument("--ks", type=lambda s: tuple(int(x) for x in s.split(",")), default=(2, 4, 8))
    parser.add_argument("--timing-items", type=int, default=6)
    parser.add_argument("--no-placement", dest="placement", action="store_false",
                        help="skip reading the chosen candidate with demonstrations before the state")
    parser.add_argument("--cache", default=str(Path.home() / ".cache" / "onepass" / "examples-bench"))
    parser.add_argument("--json")
    parser.add_argument("--markdown")
    args = parser.parse_args()
    from onepass import Engine

    log = lambda m: print(m, file=sys.stderr)  # noqa: E731
    engine = Engine(args.model, dtype=args.dtype, torch_threads=args.torch_threads, calibration="none", log=log)
    rows = [task_row(task, engine, args, log) for task in args.tasks.split(",")]
    text = markdown(rows, args.model)
    print(text)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(rows, indent=1, default=float) + "\n")
    if args.markdown:
        Path(args.markdown).parent.mkdir(parents=True, exist_ok=True)
        Path(args.markdown).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
