"""The labels `onepass learn` reads: a question set and a JSONL file of labelled states.

Two line formats, mixed freely:
- the labels format (what the playground's labels page and `onepass label` plus a gold write):
  {"id": "t-1", "state": ..., "gold": {"team": "billing", "urgent": true}}: any subset of the question set's
  ids; "answers" and other fields are ignored;
- the corpus format (data/decisions/corpus.jsonl): {"id", "request": {"state", "questions": {"q": {...}}},
  "gold": value}: one question per line, matched to the question set by content (type, instructions,
  criteria), so its id in the line does not matter; several lines with one state make one item.

Gold values: true / false for yes/no, an option key for a choice, a 0-based level index for a score. Every
problem is a `LabelsError` naming the file, the line and what to change.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from onepass.errors import OnepassError
from onepass.wire import NoulQuestion, Question, parse_request

__all__ = ["LabelsError", "Labelled", "LabelSet", "read_questions", "read_labels", "answer_keys", "question_signature"]


class LabelsError(OnepassError, ValueError):
    """A labels or question-set file that cannot be learned from; the message says where and what to fix."""


@dataclass
class Labelled:
    id: str
    state: Any
    gold: dict[str, int] = field(default_factory=dict)  # question id -> index of the gold answer
    line: int = 0


def answer_keys(question: Question) -> list[str]:
    """The answer distribution's order: [yes, no], option keys, or level indices as strings."""
    if isinstance(question, NoulQuestion):
        return ["true", "false"]
    if question.type == "choice":
        return list(question.criteria)
    return [str(i) for i in range(len(question.criteria))]


def question_signature(raw: dict) -> str:
    """What identifies a learned question when a request asks it: type, instructions and criteria (not its id)."""
    keep = {"type": raw.get("type"), "instructions": raw.get("instructions"), "criteria": raw.get("criteria")}
    return hashlib.sha256(json.dumps(keep, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


@dataclass
class LabelSet:
    raw_questions: dict[str, dict]
    questions: dict[str, Question]
    items: list[Labelled]

    def labelled(self, qid: str) -> list[int]:
        """Indices of the items that have a gold answer for question `qid`."""
        return [i for i, item in enumerate(self.items) if qid in item.gold]

    def questions_hash(self) -> str:
        return hashlib.sha256(json.dumps(self.raw_questions, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def read_questions(path: str | Path) -> dict[str, dict]:
    """A question set file: {id: question} (or a preset-shaped {"questions": {...}}), each valid on the wire."""
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise LabelsError(f"{path}: cannot read the question set ({error}); give a JSON object {{id: question}}") from None
    if isinstance(raw, dict) and isinstance(raw.get("questions"), dict):
        raw = raw["questions"]
    if not isinstance(raw, dict) or not raw:
        raise LabelsError(f"{path}: a question set is a non-empty JSON object {{id: question}}")
    try:
        parse_request({"model": "jev-latest", "state": "", "questions": raw})
    except Exception as error:  # noqa: BLE001 - the validator's message says what is wrong
        raise LabelsError(f"{path}: not a valid question set: {error}") from None
    return raw


def _gold_index(question: Question, value: Any) -> int:
    """The index of a gold value in the question's answer order, or ValueError saying what is allowed."""
    if isinstance(question, NoulQuestion):
        if not isinstance(value, bool):
            raise ValueError(f"a yes/no gold is true or false, not {json.dumps(value)[:40]}")
        return 0 if value else 1
    if question.type == "choice":
        keys = list(question.criteria)
        if not isinstance(value, str) or value not in keys:
            shown = ", ".join(keys[:8]) + (", ..." if len(keys) > 8 else "")
            raise ValueError(f"{json.dumps(value)[:40]} is not one of the options ({shown})")
        return keys.index(value)
    levels = len(question.criteria)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < levels:
        raise ValueError(f"a score gold is a level index 0..{levels - 1}, not {json.dumps(value)[:40]}")
    return value


def read_labels(path: str | Path, raw_questions: dict[str, dict]) -> LabelSet:
    path = Path(path)
    questions = parse_request({"model": "jev-latest", "state": "", "questions": raw_questions}).questions
    by_signature = {question_signature(q): qid for qid, q in raw_questions.items()}
    items: dict[str, Labelled] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise LabelsError(f"{path}: cannot read the labels ({error})") from None
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        where = f"{path}:{number}"
        try:
            row = json.loads(text)
        except json.JSONDecodeError as error:
            raise LabelsError(f"{where}: not JSON ({error.msg}); each line is one JSON object") from None
        if not isinstance(row, dict) or "gold" not in row:
            raise LabelsError(f"{where}: each line is a JSON object with a \"gold\" field "
                              '({"state": ..., "gold": {question id: answer}}, or the corpus format)')
        if "request" in row:  # the corpus format: one question, matched by content
            request = row["request"]
            if not isinstance(request, dict) or not isinstance(request.get("questions"), dict) or len(request["questions"]) != 1:
                raise LabelsError(f"{where}: a corpus line's request has exactly one question")
            (asked,) = request["questions"].values()
            qid = by_signature.get(question_signature(asked) if isinstance(asked, dict) else "")
            if qid is None:
                raise LabelsError(f"{where}: its question is not in the question set (matched by type, instructions "
                                  "and criteria); add it to --questions or leave the line out")
            state, gold = request.get("state"), {qid: row["gold"]}
        else:
            if "state" not in row:
                raise LabelsError(f"{where}: no \"state\" field; each line carries the state it labels")
            state, gold = row["state"], row["gold"]
            if not isinstance(gold, dict):
                if len(questions) != 1:
                    raise LabelsError(f"{where}: \"gold\" is an object {{question id: answer}} when the question set "
                                      f"has {len(questions)} questions")
                gold = {next(iter(questions)): gold}
        unknown = [k for k in gold if k not in questions]
        if unknown:
            raise LabelsError(f"{where}: gold names question {unknown[0]!r}, which is not in the question set "
                              f"({', '.join(questions)}); fix the id or add the question")
        key = str(row["id"]) if isinstance(row.get("id"), (str, int)) and not isinstance(row.get("id"), bool) else \
            hashlib.sha256(json.dumps(state, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
        item = items.setdefault(key, Labelled(key, state, {}, number))
        if item.state != state:
            raise LabelsError(f"{where}: id {key!r} was used on line {item.line} for another state; ids must be unique")
        for qid, value in gold.items():
            try:
                index = _gold_index(questions[qid], value)
            except ValueError as error:
                raise LabelsError(f"{where}: question {qid!r}: {error}") from None
            if qid in item.gold and item.gold[qid] != index:
                raise LabelsError(f"{where}: question {qid!r} of item {key!r} was labelled differently on line {item.line}")
            item.gold[qid] = index
    if not items:
        raise LabelsError(f"{path}: no labelled lines")
    return LabelSet(raw_questions, dict(questions), list(items.values()))
