"""`onepass label`: one question set over every item of a JSONL file, resumable, nothing lost.

Input lines: a JSON object with a `state` field (`--state-field`; every other field is passed through to
the output), any other JSON value (the state itself: a string, an array, an object without that field), or
plain text that is not JSON (the line is the state). Output lines: the item's fields, then `answers` (the
System One answers, as the server returns them) and `model`, or `error` ({status, type, message,
attempts}) for an item that failed after its retries, plus bookkeeping: `x_line` (1-based input line),
`x_key` (what a rerun recognises it by) and `x_questions` (a hash of the question set).

A rerun with the same `--out` skips every item already answered there, retries the ones written with an
error (their old rows are dropped), and refuses to mix answers to a different question set.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import json
import os
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from onepass import presets as presets_mod
from onepass.deciders import (
    DecideError,
    add_source_args,
    decide_with_retries,
    make_decider,
)
from onepass.terminal import LOW_MASS, fail


@dataclass
class Item:
    line: int
    key: str
    state: Any
    fields: dict  # everything written back, the state field included


def questions_hash(questions: dict) -> str:
    return hashlib.sha256(json.dumps(questions, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def read_items(path: Path, state_field: str = "state", id_field: str = "id") -> Iterator[Item]:
    """The items of a JSONL file, each with a key that survives reordering and appending: its id field when
    it has one, else a hash of the line plus how many identical lines came before it."""
    seen: Counter = Counter()
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            text = raw.rstrip("\r\n")
            if not text.strip():
                continue
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                value = text  # not JSON: the line itself is the state
            if isinstance(value, dict) and state_field in value:
                fields = dict(value)
                state = value[state_field]
            else:
                fields = {state_field or "state": value}
                state = value
            if isinstance(value, dict) and id_field and id_field in value and isinstance(value[id_field], (str, int)):
                key = f"id:{value[id_field]}"
            else:
                digest = hashlib.sha256(text.strip().encode()).hexdigest()[:16]
                key = f"{digest}#{seen[digest]}"
                seen[digest] += 1
            yield Item(number, key, state, fields)


def read_done(out: Path, torn: list | None = None) -> tuple[dict[str, dict], list[dict]]:
    """(key -> answered row, rows written with an error) already in the output file; lines cut short by a
    crash are skipped (and appended to `torn` when given)."""
    done, failed = {}, []
    if not out.exists():
        return done, failed
    with open(out, encoding="utf-8") as f:
        for raw in f:
            if not raw.strip():
                continue
            try:
                row = json.loads(raw)
            except json.JSONDecodeError:
                if torn is not None:
                    torn.append(raw)
                continue  # a line cut short by a crash: that item is simply done again
            if "error" in row or "answers" not in row:
                failed.append(row)
            elif "x_key" in row:
                done[row["x_key"]] = row
    return done, failed


def _rewrite_without_failures(out: Path, done: dict[str, dict]) -> None:
    """Keep only the answered rows (so a failed item retried now is not listed twice); atomic."""
    partial = out.with_name(out.name + ".partial")
    with open(partial, "w", encoding="utf-8") as f:
        for row in done.values():
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    os.replace(partial, out)


def label(decider, items: list[Item], questions: dict, out: Path, *, concurrency: int = 1, retries: int = 2,
          progress: bool = True, backoff: float = 0.5) -> dict:
    """Answer every item not yet in `out`, appending one row per item as it completes; returns counts."""
    qhash = questions_hash(questions)
    torn: list[str] = []
    done, failed_before = read_done(out, torn)
    other = {row.get("x_questions") for row in done.values()} - {qhash}
    if other:
        raise ValueError(f"{out} holds answers to a different question set ({', '.join(sorted(map(str, other)))}, "
                         f"this one is {qhash}); write to another --out")
    if failed_before or torn:
        _rewrite_without_failures(out, done)
    todo = [item for item in items if item.key not in done]
    skipped = len(items) - len(todo)
    counts = {"items": len(items), "skipped": skipped, "answered": 0, "failed": 0, "retried_failures": len(failed_before)}
    lock = threading.Lock()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(todo), unit=" items", desc="labelling", file=sys.stderr, dynamic_ncols=True,
                   mininterval=0.5, smoothing=0.1,
                   bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_noinv_fmt}{postfix}]")

    def one(item: Item) -> dict:
        row = dict(item.fields)
        try:
            response, attempts = decide_with_retries(decider, item.state, questions, retries=retries, backoff=backoff)
            row["answers"] = response["answers"]
            row["model"] = response.get("model")
        except DecideError as error:
            row["error"] = {**error.as_json(), "attempts": getattr(error, "attempts", 1)}
        except Exception as error:  # noqa: BLE001 - one bad item must not lose the others
            row["error"] = {"status": None, "type": type(error).__name__, "message": str(error), "attempts": 1}
        row.update(x_line=item.line, x_key=item.key, x_questions=qhash)
        return row

    started = time.perf_counter()
    interrupted = False
    with open(out, "a", encoding="utf-8") as sink, cf.ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        pending: set[cf.Future] = set()
        queue = iter(todo)

        def fill():
            while len(pending) < 2 * max(1, concurrency):
                item = next(queue, None)
                if item is None:
                    return
                pending.add(pool.submit(one, item))

        try:
            fill()
            while pending:
                finished, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    pending.discard(future)
                    row = future.result()
                    with lock:
                        sink.write(json.dumps(row, ensure_ascii=False) + "\n")
                        sink.flush()
                        counts["failed" if "error" in row else "answered"] += 1
                    if bar is not None:
                        bar.update(1)
                        if counts["failed"]:
                            bar.set_postfix(failed=counts["failed"], refresh=False)
                fill()
        except KeyboardInterrupt:
            interrupted = True
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            for future in pending:
                if future.done() and not future.cancelled():
                    row = future.result()
                    sink.write(json.dumps(row, ensure_ascii=False) + "\n")
                    counts["failed" if "error" in row else "answered"] += 1
    if bar is not None:
        bar.close()
    counts["seconds"] = time.perf_counter() - started
    counts["interrupted"] = interrupted
    return counts


def summarise(out: Path, questions: dict, low_mass: float = LOW_MASS) -> dict:
    """Per question over every answered row of `out`: the answer distribution, mean confidence, the share
    of answers with label mass below `low_mass`, and (scores) the mean score."""
    done, failed = read_done(out)
    per: dict[str, dict] = {}
    for qid, question in questions.items():
        dist: Counter = Counter()
        confidences, masses, scores = [], [], []
        for row in done.values():
            answer = row["answers"].get(qid)
            if not answer:
                continue
            kind = answer.get("type")
            if kind == "noul":
                p = float(answer["noul"])
                dist["yes" if p >= 0.5 else "no"] += 1
                confidences.append(abs(2 * p - 1))
            elif kind == "choice":
                dist[answer["choice"]] += 1
                confidences.append(float(answer["confidence"]))
            elif kind == "score":
                legend = answer.get("legend") or {}
                top = max(1, len(answer.get("probabilities") or legend) - 1)
                level = min(top, max(0, round(float(answer["score"]))))
                dist[f"{level}: {legend.get(str(level), '')}".rstrip(": ")] += 1
                confidences.append(float(answer["confidence"]))
                scores.append(float(answer["score"]))
            if answer.get("x_label_mass") is not None:
                masses.append(float(answer["x_label_mass"]))
        n = sum(dist.values())
        per[qid] = {
            "type": question.get("type"), "n": n,
            "distribution": {k: {"n": v, "share": v / n} for k, v in dist.most_common()},
            "mean_confidence": sum(confidences) / len(confidences) if confidences else None,
            "low_label_mass_share": (sum(m < low_mass for m in masses) / len(masses)) if masses else None,
            **({"mean_score": sum(scores) / len(scores)} if scores else {}),
        }
    return {"answered": len(done), "failed": len(failed), "low_mass_threshold": low_mass, "questions": per}


def print_summary(summary: dict, counts: dict, out: Path, file=None) -> None:
    file = file or sys.stdout
    seconds = counts.get("seconds") or 0.0
    ran = counts["answered"] + counts["failed"]
    rate = f"{ran / seconds:.3g} items/s, {seconds / ran:.2f} s/item" if seconds > 0 and ran else "-"
    if ran:
        print(f"labelled {ran} item(s) in {seconds:.1f} s ({rate}): {counts['answered']} answered, {counts['failed']} failed; "
              f"{counts['skipped']} were already in {out}", file=file)
    else:
        print(f"nothing to do: all {counts['items']} items are already answered in {out}", file=file)
    print(f"{out}: {summary['answered']} answered, {summary['failed']} written with an error"
          + (" (rerun the same command to retry them)" if summary["failed"] else ""), file=file)
    for qid, q in summary["questions"].items():
        conf = f"{q['mean_confidence']:.2f}" if q["mean_confidence"] is not None else "-"
        low = f"{100 * q['low_label_mass_share']:.0f}%" if q["low_label_mass_share"] is not None else "-"
        extra = f", mean score {q['mean_score']:.2f}" if "mean_score" in q else ""
        print(f"  {qid} ({q['type']}, n={q['n']}): mean confidence {conf}, label mass < {summary['low_mass_threshold']:g}: {low}{extra}", file=file)
        for answer, d in q["distribution"].items():
            print(f"      {100 * d['share']:5.1f}%  {d['n']:6d}  {answer}", file=file)


def run_label(args) -> int:
    if not (args.preset or args.questions):
        return fail("label", "give --questions FILE or --preset NAME (onepass presets lists them)")
    try:
        questions, _ = presets_mod.question_set(args.preset, args.questions)
    except presets_mod.PresetError as error:
        return fail("label", str(error))
    if args.concurrency < 1:
        return fail("label", f"--concurrency must be at least 1, got {args.concurrency}")
    items_path, out = Path(args.items), Path(args.out)
    if not items_path.is_file():
        return fail("label", f"{items_path} does not exist")
    if out.resolve() == items_path.resolve():
        return fail("label", "--out must not be the input file")
    try:
        items = list(read_items(items_path, args.state_field, args.id_field))
    except (OSError, UnicodeDecodeError) as error:
        return fail("label", f"cannot read {items_path}: {error}")
    if not items:
        return fail("label", f"{items_path} has no items")
    keys = Counter(item.key for item in items)
    duplicated = [k for k, n in keys.items() if n > 1]
    if duplicated:
        return fail("label", f"{len(duplicated)} {args.id_field!r} value(s) appear on more than one line (first: "
                              f"{duplicated[0][3:]}); ids must be unique, or pass --id-field '' to key items by content")
    out.parent.mkdir(parents=True, exist_ok=True)
    done, _ = read_done(out)
    if all(item.key in done for item in items):
        counts = {"items": len(items), "skipped": len(items), "answered": 0, "failed": 0, "seconds": 0.0}
    else:
        print(f"{len(items)} items, {len(questions)} questions each, {len([i for i in items if i.key in done])} already in {out}",
              file=sys.stderr, flush=True)
        decider = make_decider(args, command="label")
        try:
            counts = label(decider, items, questions, out, concurrency=args.concurrency, retries=args.retries,
                           progress=not args.no_progress)
        except ValueError as error:
            return fail("label", str(error))
        finally:
            decider.close()
    summary = summarise(out, questions, args.low_mass)
    summary["run"] = counts
    print_summary(summary, counts, out)
    if args.summary:
        Path(args.summary).parent.mkdir(parents=True, exist_ok=True)
        Path(args.summary).write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    if counts.get("interrupted"):
        print("interrupted: rerun the same command to go on where it stopped", file=sys.stderr)
        return 130
    return 1 if summary["failed"] else 0


def register(sub, model_args) -> None:
    p = sub.add_parser("label", help="answer one question set for every item of a JSONL file (resumable)",
                       description="Label a dataset: every line of ITEMS (a state, or an object with a state field "
                                   "whose other fields are passed through) gets the answers to one question set, "
                                   "appended to --out as it completes. A rerun skips items already answered in --out "
                                   "and retries those written with an error. See docs/labelling.md.")
    model_args(p)
    add_source_args(p)
    p.add_argument("items", help="input JSONL: one state, or one object with a state field, per line")
    p.add_argument("--questions", help="question-set JSON file: {id: question} or a preset-shaped object")
    p.add_argument("--preset", help="a built-in question set instead of --questions (onepass presets)")
    p.add_argument("--out", required=True, help="output JSONL (appended to; a rerun resumes)")
    p.add_argument("--concurrency", type=int, default=1,
                   help="requests in flight: an in-process model batches them into shared forward passes, a server "
                        "answers them in parallel (default 1)")
    p.add_argument("--retries", type=int, default=2, help="retries per item on 429 / 5xx / connection errors (default 2)")
    p.add_argument("--state-field", default="state", help="the field of an input object that holds the state (default state)")
    p.add_argument("--id-field", default="id", help="the field that identifies an item across reruns (default id; '' to key by content)")
    p.add_argument("--low-mass", type=float, default=LOW_MASS, help=f"label mass below which an answer counts as low-mass in the summary (default {LOW_MASS})")
    p.add_argument("--summary", help="also write the summary as JSON here")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(fn=run_label)
