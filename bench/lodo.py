"""Leave-one-domain-out: does a calibration fitted on some domains help on a domain it never saw?

    .venv/bin/python bench/lodo.py --scores docs/calibration/qwen2.5-coder-1.5b-instruct.bfloat16.slot-scores.jsonl \
        --dtype bfloat16 --priors docs/calibration/qwen2.5-coder-1.5b-instruct.bfloat16.slot-priors.json \
        --profile-out onepass/profiles/qwen2.5-coder-1.5b-instruct.bfloat16.json --json bench/out/lodo-qwen-bf16.json

Reads the per-item label logits that `onepass calibrate --scores FILE` caches (no model runs for those),
joins them to the corpus by each item's cache key (onepass/score_cache.py: the rows of --model, --readout
and --dtype without prior correction, either file format), and for every domain D fits each calibrator
on all other domains and applies it to D. Every item is predicted exactly once, by a calibrator that never
saw its domain; metrics are pooled over those predictions, per question type, with the uncalibrated
numbers beside them, plus the worst single domain's change in ECE.

Calibrators (all fitted per question type on the training domains):
  none          raw label distribution
  T             one temperature per type (what `onepass calibrate` ships)
  T-reg         temperature with a Gaussian prior on log T around 0 (strength --reg, in items)
  T-by-n        one temperature per (type, option/level count), falling back to the type's T
  prior         contextual calibration: the question's content-free prior divided out (onepass/learn/priors.py)
  prior+T       contextual calibration, then a temperature per type fitted on corrected logits
  bias          per (type, option/level count): one bias per label position (a learned label prior; for
                yes/no, a shift of the log-odds), L2-penalised (--reg items); none where a count has fewer
                than 20 training items. It can change answers.
  bias+T        per (type, option/level count): a temperature and one bias per label position (vector
                scaling; for yes/no, Platt scaling of the log-odds), the biases L2-penalised (--reg items);
                the type's T where a count has fewer than 20 training items. It can change answers.
  T-by-length   log T = a + b * z(log instruction length) + c * z(log content length), per type (b, c
                L2-penalised, --reg items): a temperature that can differ between short questions about
                short content and long written rules applied to long records.
The worst domain's ECE change is printed with its bootstrap standard error (the paired change re-measured
on 200 resamples of that domain's items): a domain holds 15-58 items of a type, so the change is noisy.
Per corpus edition (data/decisions/build.py's FIRST_EDITION: content judgements; the rest: written rules
applied to records) the uncalibrated accuracy, the chance rate (mean of 1 / labels) and, for yes/no, the
AUC of the yes-vs-no log-odds are printed too: what any recalibration of these logits has to work with.
Per domain and type the same accuracy and chance are printed, with whether the accuracy is above chance
by more than twice the binomial standard error at chance: where the model reads anything at all.
For score questions the accuracy of answering the rounded expected level (instead of the most likely one)
is printed too.
With --profile-out PROFILE, the shipping rule (docs/calibration.md) is applied per type to the temperature
methods a profile can hold (T, T-reg): a method passes if its pooled held-out ECE is below uncalibrated's and
no held-out domain's ECE is worse than uncalibrated's by more than 0.02; of those passing, the lowest pooled
ECE is fitted on every domain and written into PROFILE's slot temperatures (other types: none, served
uncalibrated); the profile's readout policy, if any, is kept.
With --priors, content-free priors are read from that JSON (question -> log prior) and missing ones are
computed with the model (three short reads per distinct question) and written back.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from onepass import score_cache  # noqa: E402
from onepass.learn.calibration import ece, fit_temperature, metrics  # noqa: E402
from onepass.evaluate import gold_index  # noqa: E402
from onepass.readouts.base import softmax  # noqa: E402

TYPES = ("noul", "choice", "score")


def question_key(question: dict) -> str:
    return json.dumps(question, sort_keys=True)


def fit_t(rows, reg: float = 0.0) -> float:
    """Temperature minimising mean NLL + (reg / n) * (log T)^2 / 2 (calibration.fit_temperature)."""
    return fit_temperature([s for s, _ in rows], [g for _, g in rows], reg=reg)


def fit_bias_t(rows, reg: float, with_t: bool = True) -> tuple[np.ndarray, float]:
    """Biases b (one per label position) and T (1 unless `with_t`) minimising mean NLL of softmax(s / T + b)
    + (reg / n) * |b|^2 / 2."""
    import torch

    x = torch.tensor(np.stack([s for s, _ in rows]), dtype=torch.float64)
    y = torch.tensor([g for _, g in rows])
    bias = torch.zeros(x.shape[1], dtype=torch.float64, requires_grad=True)
    log_t = torch.zeros((), dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([bias, log_t] if with_t else [bias], max_iter=200, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(x / log_t.exp() + bias, y) + reg / len(rows) * 0.5 * (bias ** 2).sum()
        loss.backward()
        return loss

    opt.step(closure)
    return bias.detach().numpy(), float(log_t.detach().exp())


def lengths(item: dict) -> np.ndarray:
    question, state = item["request"]["questions"]["q"], item["request"]["state"]
    state = state if isinstance(state, str) else json.dumps(state)
    return np.log1p([len(question.get("instructions") or ""), len(state)])


def fit_t_by_length(rows, reg: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(w, mean, std): log T_i = w0 + w[1:] . (f_i - mean) / std minimising mean NLL + (reg / n) |w[1:]|^2 / 2.
    `rows`: (scores, gold, features); label counts may differ between rows."""
    import torch

    feats = np.stack([f for _, _, f in rows])
    mean, std = feats.mean(0), feats.std(0) + 1e-9
    z = torch.tensor((feats - mean) / std)
    groups = defaultdict(list)
    for k, (s, _, _) in enumerate(rows):
        groups[len(s)].append(k)
    batches = [(torch.tensor(ix), torch.tensor(np.stack([rows[k][0] for k in ix])), torch.tensor([rows[k][1] for k in ix]))
               for ix in groups.values()]
    w = torch.zeros(1 + feats.shape[1], dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([w], max_iter=300, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        total = sum(torch.nn.functional.cross_entropy(x / (w[0] + z[ix] @ w[1:]).exp()[:, None], y, reduction="sum")
                    for ix, x, y in batches)
        loss = total / len(rows) + reg / len(rows) * 0.5 * (w[1:] ** 2).sum()
        loss.backward()
        return loss

    opt.step(closure)
    return w.detach().numpy(), mean, std


SHIPPABLE = ("T", "T-reg")  # what a profile holds: one temperature per (family, type)
MARGIN = 0.02  # the most a shipped calibrator may raise any held-out domain's ECE
RULE = ("pooled held-out ECE below uncalibrated, and no held-out domain's ECE worse than uncalibrated by "
        f"more than {MARGIN} (leave-one-domain-out)")


def shipping_choice(by_method: dict, margin: float = MARGIN) -> dict[str, str | None]:
    """Per type, the shippable method that passes the rule with the lowest pooled ECE, or None."""
    choice: dict[str, str | None] = {}
    for t in TYPES:
        none = by_method["none"]["by_type"][t]["ece"]
        passing = [m for m in SHIPPABLE if m in by_method and by_method[m]["by_type"][t]["ece"] < none
                   and by_method[m]["worst_domain_ece_change"][t] <= margin]
        choice[t] = min(passing, key=lambda m: by_method[m]["by_type"][t]["ece"]) if passing else None
    return choice


def write_profile(path: Path, result: dict, items: list[dict], args) -> None:
    from onepass.learn.calibration import Profile, file_sha256

    choice = shipping_choice(result["by_method"])
    profile = Profile.load(path) if path.exists() else Profile(model=args.model, temperatures={}, dtype=args.dtype)
    temps = {}
    for t, method in choice.items():
        if method:
            rows = [(i["scores"], i["gold_i"]) for i in items if i["type"] == t]
            temps[t] = round(fit_t(rows, args.reg if method == "T-reg" else 0.0), 4)
    profile.temperatures = {**{f: v for f, v in profile.temperatures.items() if f != args.readout},
                            **({args.readout: temps} if temps else {})}
    by = result["by_method"]
    profile.data, profile.data_sha256 = str(Path(args.data).name), file_sha256(Path(args.data))
    profile.fitted_on = {args.readout: {t: sum(i["type"] == t for i in items) for t in temps}} if temps else {}
    worst = {t: {m: by[m]["worst_domain_ece_change"][t] for m in SHIPPABLE} for t in TYPES}
    profile.report = {"rule": RULE, "method": f"leave-one-domain-out over {len(result['domains'])} domains",
                      "chosen": choice, args.readout: {
                          "held_out_before": by["none"]["by_type"],
                          # what is served: the chosen method's held-out numbers, or uncalibrated's
                          "held_out_after": {t: by[m or "none"]["by_type"][t] for t, m in choice.items()},
                          "worst_domain_ece_change": worst}}
    profile.save(path)
    print(f"shipping rule per type: {choice}; temperatures {temps} written to {path}", file=sys.stderr)


def first_edition_domains() -> set[str]:
    import importlib.util

    spec = importlib.util.spec_from_file_location("corpus_build", ROOT / "data/decisions/build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    return set(build.FIRST_EDITION)


def auc(z: np.ndarray, positive: np.ndarray) -> float:
    """P(a positive item's score > a negative one's), ties counted half."""
    pos, neg = z[positive], z[~positive]
    return float(((pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])).mean())


def accuracy_and_chance(mine: list[dict]) -> dict:
    """Uncalibrated accuracy of `mine` and its chance rate (mean of 1 / labels)."""
    return {"n": len(mine), "accuracy": float(np.mean([np.argmax(i["scores"]) == i["gold_i"] for i in mine])),
            "chance": float(np.mean([1 / i["n"] for i in mine]))}


def by_edition(items: list[dict]) -> dict:
    first = first_edition_domains()
    out = {}
    for edition, keep in (("first", lambda d: d in first), ("second", lambda d: d not in first)):
        for t in TYPES:
            mine = [i for i in items if keep(i["domain"]) and i["type"] == t]
            if not mine:
                continue
            entry = accuracy_and_chance(mine)
            if t == "noul":
                entry["auc"] = auc(np.array([i["scores"][0] - i["scores"][1] for i in mine]),
                                   np.array([i["gold_i"] == 0 for i in mine]))
            out[f"{edition}/{t}"] = entry
    return out


def by_domain(items: list[dict]) -> dict:
    """Per domain and type, uncalibrated: accuracy, chance (mean of 1 / labels), and whether accuracy is
    above chance by more than twice its binomial standard error: where this model reads anything at all."""
    out = {}
    for d in sorted({i["domain"] for i in items}):
        for t in TYPES:
            mine = [i for i in items if i["domain"] == d and i["type"] == t]
            if not mine:
                continue
            entry = accuracy_and_chance(mine)
            chance = entry["chance"]
            entry["se"] = (chance * (1 - chance) / len(mine)) ** 0.5  # under the null of chance, so 0 hits still has one
            entry["above_chance"] = bool(entry["accuracy"] - chance > 2 * entry["se"])
            out[f"{d}/{t}"] = entry
    return out


def load_priors(path: Path | None, items: list[dict], args) -> dict[str, np.ndarray]:
    if path is None:
        return {}
    known = json.loads(path.read_text()) if path.exists() else {}
    missing = sorted({question_key(i["request"]["questions"]["q"]) for i in items} - set(known))
    if missing:
        from onepass import Engine
        from onepass.wire import parse_request

        engine = Engine(args.model, dtype=args.dtype, calibration=None, log=lambda m: print(m, file=sys.stderr))
        readout = engine.readouts[args.readout]
        for n, key in enumerate(missing, 1):
            question = parse_request({"model": "jev-latest", "state": "x", "questions": {"q": json.loads(key)}}).questions["q"]
            known[key] = engine.priors.log_prior(args.readout, question, readout.plan(engine.renderer, question)).tolist()
            print(f"prior {n}/{len(missing)}", file=sys.stderr)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(known) + "\n")  # after each: an interrupted run resumes
    return {k: np.array(v) for k, v in known.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scores", required=True, help="JSONL written by `onepass calibrate --scores`")
    parser.add_argument("--data", default=str(ROOT / "data/decisions/corpus.jsonl"))
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--readout", default="slot")
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--reg", type=float, default=20.0, help="T-reg: prior strength, in items")
    parser.add_argument("--priors", default=None, help="JSON cache of content-free log priors per question")
    parser.add_argument("--exclude-ambiguous", action="store_true")
    parser.add_argument("--json", default=None)
    parser.add_argument("--profile-out", default=None, help="apply the shipping rule and write the temperatures here")
    args = parser.parse_args()

    corpus = [json.loads(line) for line in Path(args.data).read_text().splitlines() if line.strip()]
    rows = score_cache.select(Path(args.scores), corpus, model=args.model, readout=args.readout, dtype=args.dtype)
    items = []
    for item in corpus:
        row = rows.get(item["id"])
        if row is None or (args.exclude_ambiguous and item["ambiguous"]):
            continue
        question = item["request"]["questions"]["q"]
        items.append({**item, "scores": np.array(row["scores"], dtype=float), "type": question["type"],
                      "gold_i": gold_index(question, item["gold"]), "n": len(row["scores"])})
    priors = load_priors(Path(args.priors) if args.priors else None, items, args)
    domains = sorted({i["domain"] for i in items})
    print(f"{len(items)} scored items over {len(domains)} domains", file=sys.stderr)

    def corrected(i):
        return i["scores"] - priors[question_key(i["request"]["questions"]["q"])]

    methods = ["none", "T", "T-reg", "T-by-n", "bias", "bias+T", "T-by-length"] + (["prior", "prior+T"] if priors else [])
    predictions: dict[str, list] = defaultdict(list)  # method -> [(item, probs)]
    for held in domains:
        train = [i for i in items if i["domain"] != held]
        test = [i for i in items if i["domain"] == held]
        by_type = {t: [(i["scores"], i["gold_i"]) for i in train if i["type"] == t] for t in TYPES}
        t_type = {t: fit_t(r) for t, r in by_type.items()}
        t_len = {t: fit_t_by_length([(i["scores"], i["gold_i"], lengths(i)) for i in train if i["type"] == t], args.reg)
                 for t in TYPES}
        t_reg = {t: fit_t(r, args.reg) for t, r in by_type.items()}
        t_n, bias_t, bias_only = {}, {}, {}
        for t in TYPES:
            for n in {i["n"] for i in train if i["type"] == t}:
                rows_n = [(i["scores"], i["gold_i"]) for i in train if i["type"] == t and i["n"] == n]
                t_n[(t, n)] = fit_t(rows_n) if len(rows_n) >= 20 else t_type[t]
                if len(rows_n) >= 20:
                    bias_t[(t, n)] = fit_bias_t(rows_n, args.reg)
                    bias_only[(t, n)] = fit_bias_t(rows_n, args.reg, with_t=False)[0]
        if priors:
            t_prior = {t: fit_t([(corrected(i), i["gold_i"]) for i in train if i["type"] == t]) for t in TYPES}
        for i in test:
            s, t = i["scores"], i["type"]
            predictions["none"].append((i, softmax(s)))
            predictions["T"].append((i, softmax(s, t_type[t])))
            predictions["T-reg"].append((i, softmax(s, t_reg[t])))
            predictions["T-by-n"].append((i, softmax(s, t_n.get((t, i["n"]), t_type[t]))))
            bias, temp = bias_t.get((t, i["n"]), (0.0, t_type[t]))
            predictions["bias+T"].append((i, softmax(s / temp + bias)))
            predictions["bias"].append((i, softmax(s + bias_only.get((t, i["n"]), 0.0))))
            w, mean, std = t_len[t]
            predictions["T-by-length"].append((i, softmax(s, float(np.exp(w[0] + ((lengths(i) - mean) / std) @ w[1:])))))
            if priors:
                predictions["prior"].append((i, softmax(corrected(i))))
                predictions["prior+T"].append((i, softmax(corrected(i), t_prior[t])))

    def block(pairs):
        return metrics([p for _, p in pairs], [i["gold_i"] for i, _ in pairs], [i["type"] == "noul" for i, _ in pairs])

    def domain_ece(pairs, domain):
        mine = [(i, p) for i, p in pairs if i["domain"] == domain]
        return ece(np.array([float(np.max(p)) for _, p in mine]), np.array([float(np.argmax(p) == i["gold_i"]) for i, p in mine]))

    rng = np.random.default_rng(0)

    def change_se(pairs, base, domain, draws=200):
        """Bootstrap SE of domain's ECE change against `base` (same items, resampled together)."""
        mine = {i["id"]: p for i, p in pairs if i["domain"] == domain}
        ref = [(i, p) for i, p in base if i["id"] in mine]
        conf = np.array([[float(np.max(mine[i["id"]])), float(np.max(p))] for i, p in ref])
        right = np.array([[float(np.argmax(mine[i["id"]]) == i["gold_i"]), float(np.argmax(p) == i["gold_i"])] for i, p in ref])
        diffs = []
        for _ in range(draws):
            ix = rng.integers(0, len(ref), len(ref))
            diffs.append(ece(conf[ix, 0], right[ix, 0]) - ece(conf[ix, 1], right[ix, 1]))
        return float(np.std(diffs))

    result = {"items": len(items), "domains": domains, "scores": args.scores, "readout": args.readout, "by_method": {}}
    for method in methods:
        pairs = predictions[method]
        entry = {"overall": block(pairs), "by_type": {}, "worst_domain_ece_change": {}, "accuracy_minus_none": {},
                 "worst_domain": {}, "worst_domain_change_se": {}, "domains_worse_by_0.02": {}, "domains": {}}
        for t in TYPES:
            mine = [(i, p) for i, p in pairs if i["type"] == t]
            base = [(i, p) for i, p in predictions["none"] if i["type"] == t]
            held = [d for d in domains if any(i["domain"] == d for i, _ in mine)]
            changes = [domain_ece(mine, d) - domain_ece(base, d) for d in held]
            right = {i["id"]: float(np.argmax(p) == i["gold_i"]) for i, p in base}
            paired = np.array([float(np.argmax(p) == i["gold_i"]) - right[i["id"]] for i, p in mine])
            worst = held[int(np.argmax(changes))]
            entry["by_type"][t] = block(mine)
            entry["worst_domain_ece_change"][t] = max(changes)
            entry["accuracy_minus_none"][t] = (float(paired.mean()), float(paired.std(ddof=1) / np.sqrt(len(paired))))
            entry["worst_domain"][t], entry["worst_domain_change_se"][t] = worst, change_se(mine, base, worst)
            entry["domains_worse_by_0.02"][t], entry["domains"][t] = sum(c > MARGIN for c in changes), len(held)
        result["by_method"][method] = entry
    print("| method | type | n | accuracy | minus none, paired | ECE | Brier | worst domain: ECE change vs none "
          "(± bootstrap SE) | domains worse by > 0.02 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for method, r in result["by_method"].items():
        for t in TYPES:
            m = r["by_type"][t]
            se = (m["accuracy"] * (1 - m["accuracy"]) / max(m["n"], 1)) ** 0.5
            gain, gain_se = r["accuracy_minus_none"][t]
            worst = "—" if method == "none" else (f"{r['worst_domain_ece_change'][t]:+.3f} ± "
                                                  f"{r['worst_domain_change_se'][t]:.3f} ({r['worst_domain'][t]})")
            print(f"| {method} | {t} | {m['n']} | {m['accuracy']:.3f} ± {se:.3f} | {gain:+.3f} ± {gain_se:.3f} | "
                  f"{m['ece']:.3f} | {m['brier']:.3f} | {worst} | {r['domains_worse_by_0.02'][t]} of {r['domains'][t]} |")
    result["by_edition"] = by_edition(items)
    for key, e in result["by_edition"].items():
        print(f"{key} edition: n {e['n']}, accuracy {e['accuracy']:.3f} (chance {e['chance']:.3f})"
              + (f", yes-vs-no AUC {e['auc']:.3f}" if "auc" in e else ""))
    result["by_domain"] = by_domain(items)
    print("| domain | type | n | accuracy | chance | above chance by > 2 SE |")
    print("|---|---|---|---|---|---|")
    for key, e in result["by_domain"].items():
        domain, t = key.split("/")
        print(f"| {domain} | {t} | {e['n']} | {e['accuracy']:.3f} | {e['chance']:.3f} ± {e['se']:.3f} | "
              f"{'yes' if e['above_chance'] else 'no'} |")
    above = {t: sum(e["above_chance"] for k, e in result["by_domain"].items() if k.endswith("/" + t)) for t in TYPES}
    print("domains above chance, per type: " + ", ".join(
        f"{t} {above[t]} of {sum(k.endswith('/' + t) for k in result['by_domain'])}" for t in TYPES))
    scores = [i for i in items if i["type"] == "score"]
    mean_level = [int(np.rint(softmax(i["scores"]) @ np.arange(i["n"]))) == i["gold_i"] for i in scores]
    result["score_rounded_expected_level_accuracy"] = float(np.mean(mean_level)) if scores else None
    if scores:
        print(f"score, answering the rounded expected level: accuracy {np.mean(mean_level):.3f} on {len(scores)} items "
              f"(most likely level: {np.mean([np.argmax(i['scores']) == i['gold_i'] for i in scores]):.3f})")
    if args.profile_out:
        write_profile(Path(args.profile_out), result, items, args)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
