"""`onepass tune`: fit a learned head (onepass/learn/head.py) on labelled items, from the frozen model's hidden
states computed once (onepass/learn/head_fit.py), and write it as safetensors for `--head PATH`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from onepass import engine_setup
from onepass.config import EngineConfig, add_flags

__all__ = ["register", "tune", "load_labelled"]


class DataError(ValueError):
    pass


def load_labelled(path: Path, split: str = "all") -> list[dict]:
    """Labelled items (the corpus format: {"id", "request" with one question, "gold"[, "domain", "split"]}),
    each checked like a request the server would get; DataError says which line is wrong and how."""
    from onepass.evaluate import gold_index
    from onepass.wire import parse_request

    items = []
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as error:
            raise DataError(f"{where}: not JSON ({error.msg})") from None
        if not isinstance(item, dict) or "request" not in item or "gold" not in item:
            raise DataError(f"{where}: each line needs a 'request' (a System One request with one question) and its 'gold' answer")
        try:
            request = parse_request(item["request"])
        except Exception as error:  # noqa: BLE001 - the validator's own message says what to fix
            raise DataError(f"{where}: the request is not valid: {error}") from None
        if len(request.questions) != 1:
            raise DataError(f"{where}: the request has {len(request.questions)} questions; a labelled item has exactly one")
        (qid, question), = item["request"]["questions"].items()
        try:
            gold_index(question, item["gold"])
        except (ValueError, TypeError, KeyError):
            raise DataError(f"{where}: gold {item['gold']!r} is not an answer of this {question['type']} question "
                            "(yes/no: true or false; choice: an option name; score: a level index)") from None
        if question.get("type") == "score" and not 0 <= int(item["gold"]) < len(question["criteria"]):
            raise DataError(f"{where}: gold level {item['gold']} is outside 0..{len(question['criteria']) - 1}")
        if split in ("all", None) or item.get("split") == split:
            items.append({**item, "id": str(item.get("id", n)), "request": {**item["request"], "questions": {"q": question}}})
    return items


def tune(args) -> int:
    from onepass.learn import head_fit

    try:
        items = load_labelled(Path(args.data), args.split)
    except (OSError, DataError) as error:
        print(f"onepass tune: {error}", file=sys.stderr)
        return 2
    if not items:
        print(f"onepass tune: no labelled items in {args.data} (split {args.split})", file=sys.stderr)
        return 2
    problem = engine_setup.check_flags(args, calibration="none")
    if problem:
        print(f"onepass tune: {problem}", file=sys.stderr)
        return 2
    engine = engine_setup.build_engine(args.engine_config, log=lambda m: print(m, file=sys.stderr))
    if not engine.backend.capabilities.hidden_states:
        print("onepass tune: a head is fitted on hidden states: run the model in-process (--backend embedded)", file=sys.stderr)
        return 2
    examples = head_fit.extract(engine, items, Path(args.features) if args.features else None,
                                log=lambda m: print(m, file=sys.stderr))
    hidden_size = examples[0].h.shape[1]
    meta = {"data": str(args.data), "items": len(items), "dtype": engine.dtype.value if engine.dtype else None,
            "split": args.split}
    head = head_fit.fit_head(examples, engine.info.id, hidden_size, penalty=args.penalty, meta=meta,
                             min_items=args.min_items, log=print)
    if not head.types:
        print(f"onepass tune: no question type has {args.min_items} labelled items; nothing to fit", file=sys.stderr)
        return 2
    head.save(Path(args.out))
    print(f"wrote {args.out} (head {head.id} for {', '.join(sorted(head.types))}); serve it with "
          f"`onepass serve --model {engine.info.id} --head {args.out}` and x_readout: head")
    return 0


def _penalty(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (value > 0):  # also refuses nan
        raise argparse.ArgumentTypeError(f"{text!r}: the penalty is a positive number, or inf to recalibrate only")
    return value


def register(sub, model_args) -> None:
    p = sub.add_parser("tune", help="fit a learned head on labelled items (readout family 'head')",
                       description="Fit a small head on the frozen model's hidden states at Yes/No answer positions "
                                   "(yes/no questions, and each choice option or score level read alone), one per "
                                   "question type, with the penalty chosen by domain-held-out cross-validation. "
                                   "See docs/readouts.md.")
    model_args(p)
    p.add_argument("--data", required=True, help="labelled JSONL in the corpus format (docs/corpus.md)")
    p.add_argument("--out", required=True, help="head file to write (safetensors)")
    p.add_argument("--features", help="cache of the computed hidden states (.npz): reused on rerun, recomputed when "
                                      "the model, dtype or prompts change")
    p.add_argument("--split", default="all", help="use only items of this split (default all)")
    p.add_argument("--penalty", type=_penalty, default=None,
                   help="L2 penalty on the learned directions (inf: recalibrate only); default: chosen by cross-validation")
    p.add_argument("--min-items", type=int, default=20, help="fewest labelled items of a type to fit a head for it (default 20)")
    p.set_defaults(fn=tune)
