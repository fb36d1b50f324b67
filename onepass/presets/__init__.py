"""Built-in question sets ("presets") and question-set files.

A preset is a JSON file shipped in this package: `{"name", "aliases", "title", "description", "example",
"questions": {<id>: <System One question>}}`. `onepass presets` lists them, `onepass run --preset NAME` and
`onepass label --preset NAME` ask them, the MCP server exposes them as resources. A question-set file
(`--questions FILE`) is either such an object or a bare `{<id>: <question>}` mapping.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from onepass.errors import OnepassError


class PresetError(OnepassError, ValueError):
    """An unknown preset or an unreadable question-set file; the message says what to do."""

    status = 422
    error_type = "preset_error"


@dataclass(frozen=True)
class Preset:
    name: str
    title: str
    description: str
    questions: dict[str, dict]
    example: str = ""
    aliases: tuple[str, ...] = field(default_factory=tuple)

    def as_json(self) -> dict:
        return {"name": self.name, "aliases": list(self.aliases), "title": self.title, "description": self.description,
                "example": self.example, "questions": self.questions}


def _from_json(data: dict, where: str) -> Preset:
    if not isinstance(data, dict) or not isinstance(data.get("questions"), dict) or not data["questions"]:
        raise PresetError(f"{where}: a preset is an object with a non-empty 'questions' object")
    return Preset(name=str(data.get("name") or Path(where).stem), title=str(data.get("title") or data.get("name") or ""),
                  description=str(data.get("description") or ""), questions=data["questions"],
                  example=str(data.get("example") or ""), aliases=tuple(data.get("aliases") or ()))


def builtin() -> dict[str, Preset]:
    """The shipped presets by name, in name order."""
    found = {}
    for entry in sorted(resources.files(__name__).iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            preset = _from_json(json.loads(entry.read_text(encoding="utf-8")), entry.name)
            found[preset.name] = preset
    return found


def get(name: str) -> Preset:
    """A built-in preset by name or alias (case-insensitive)."""
    wanted = name.strip().lower()
    presets = builtin()
    for preset in presets.values():
        if wanted == preset.name or wanted in preset.aliases:
            return preset
    raise PresetError(f"unknown preset {name!r}; built-in presets: {', '.join(sorted(presets))} (onepass presets lists them)")


def load_questions(path: str | Path) -> dict[str, dict]:
    """The questions of a question-set file: a preset-shaped object, or a bare {id: question} mapping."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PresetError(f"question-set file {path} does not exist") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise PresetError(f"question-set file {path} is not readable JSON ({error})") from None
    if isinstance(data, dict) and isinstance(data.get("questions"), dict) and all(
            isinstance(q, dict) for q in data["questions"].values()) and not _is_question(data.get("questions")):
        questions = data["questions"]
    else:
        questions = data
    if not isinstance(questions, dict) or not questions or not all(isinstance(q, dict) for q in questions.values()):
        raise PresetError(f"question-set file {path}: give an object of questions ({{\"id\": {{\"type\": \"noul\", ...}}}}), "
                          "or an object with a 'questions' object (the shape `onepass presets --show NAME` prints)")
    return questions


def _is_question(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("type"), str)


def question_set(preset: str | None = None, questions_file: str | None = None,
                 asked: list[dict] | None = None) -> tuple[dict[str, dict], str]:
    """The questions of one run: a preset, a file and ad-hoc questions merged in that order, plus a label
    naming where they came from. Ids already taken get a numeric suffix."""
    merged: dict[str, dict] = {}
    names = []
    if preset:
        chosen = get(preset)
        merged.update(chosen.questions)
        names.append(chosen.name)
    if questions_file:
        for qid, question in load_questions(questions_file).items():
            merged[_free_id(qid, merged)] = question
        names.append(Path(questions_file).name)
    for question in asked or []:
        merged[_free_id(slug(question.get("instructions") or "question"), merged)] = question
    if asked:
        names.append("asked")
    return merged, " + ".join(names)


def slug(text: str, limit: int = 24) -> str:
    """A short question id from a question's text: 'Is it urgent?' -> 'is_it_urgent'."""
    words = "".join(c.lower() if c.isalnum() else " " for c in str(text)).split()
    out = ""
    for word in words:
        candidate = f"{out}_{word}" if out else word
        if len(candidate) > limit:
            break
        out = candidate
    return out or (words[0][:limit] if words else "question")


def _free_id(qid: str, taken: dict) -> str:
    if qid not in taken:
        return qid
    n = 2
    while f"{qid}_{n}" in taken:
        n += 1
    return f"{qid}_{n}"


def describe_question(question: dict) -> str:
    """'choice of 5', 'score 0-3', 'yes/no' ..."""
    kind = question.get("type")
    criteria = question.get("criteria")
    if kind == "choice" and isinstance(criteria, dict):
        return f"choice of {len(criteria)}"
    if kind == "score" and isinstance(criteria, list):
        return f"score 0-{len(criteria) - 1}"
    if kind == "noul":
        return "yes/no"
    return str(kind)
