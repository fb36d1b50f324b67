"""What the commands print on a terminal: ANSI styles (off without colour), when to use colour, eighth-cell
bars, a System One response drawn as one row per answer, and the one-line `onepass CMD: problem` error.

Owns presentation only: no model, no HTTP, no argument parsing.
"""

from __future__ import annotations

import json
import os
import shutil
import sys

__all__ = ["LOW_MASS", "Style", "use_color", "bar", "clip", "answer_rows", "render", "fail"]

LOW_MASS = 0.5  # below this label mass an answer is flagged: the model wanted to say something else
EIGHTHS = " ▏▎▍▌▋▊▉"


def fail(command: str, message: str, code: int = 2) -> int:
    """Print `onepass COMMAND: message` on stderr and return the exit code (2: bad usage)."""
    print(f"onepass {command}: {message}", file=sys.stderr)
    return code


class Style:
    """ANSI styling that is a no-op without colour."""

    CODES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35",
             "cyan": "36", "grey": "90"}

    def __init__(self, color: bool):
        self.color = color

    def __call__(self, text: str, *styles: str) -> str:
        if not self.color or not styles:
            return text
        return "\x1b[" + ";".join(self.CODES[s] for s in styles) + "m" + text + "\x1b[0m"


def use_color(choice: str = "auto", stream=None) -> bool:
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    stream = stream or sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)()) and os.environ.get("TERM") != "dumb"


def bar(fraction: float, width: int) -> tuple[str, str]:
    """(filled, empty) parts of a bar `width` cells wide, in eighths of a cell."""
    fraction = min(1.0, max(0.0, float(fraction)))
    eighths = round(fraction * width * 8)
    full, part = divmod(eighths, 8)
    filled = "█" * full + (EIGHTHS[part] if part else "")
    return filled, "·" * (width - len(filled))


def _level_colour(confidence: float) -> str:
    """Bar colour by how decided the answer is (the wire contract's confidence; |2p - 1| for yes/no), so a
    0.47 among five options is not drawn like a coin flip."""
    return "green" if confidence >= 0.6 else "yellow" if confidence >= 0.3 else "red"


def clip(text: str, width: int) -> str:
    """`text`, cut to `width` characters with an ellipsis when longer."""
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"


def answer_rows(response: dict, questions: dict) -> list[dict]:
    """One plain row per question: id, answer text, bar fraction, number text, colour value, extras."""
    rows = []
    for qid, answer in response.get("answers", {}).items():
        question = questions.get(qid, {})
        row = {"id": qid, "type": answer.get("type"), "mass": answer.get("x_label_mass"), "abstain": answer.get("x_abstain"),
               "others": []}
        if answer.get("type") == "noul":
            p = float(answer["noul"])
            yes = p >= 0.5
            row.update(answer="yes" if yes else "no", fraction=p if yes else 1 - p, number=f"{p if yes else 1 - p:.2f}",
                       strength=abs(2 * p - 1))
        elif answer.get("type") == "choice":
            probs = answer.get("probabilities", {})
            p = float(probs.get(answer["choice"], 0.0))
            row.update(answer=str(answer["choice"]), fraction=p, number=f"{p:.2f}", strength=float(answer.get("confidence", p)))
            row["others"] = [(name, float(q)) for name, q in sorted(probs.items(), key=lambda kv: -kv[1])
                             if name != answer["choice"]][:2]
        elif answer.get("type") == "score":
            legend = answer.get("legend") or {}
            levels = len(answer.get("probabilities") or legend) or len(question.get("criteria") or []) or 2
            top = levels - 1
            score = float(answer["score"])
            text = legend.get(str(min(top, max(0, round(score)))), "")
            row.update(answer=str(text), fraction=score / top if top else 0.0, number=f"{score:.1f} / {top}",
                       strength=float(answer.get("confidence", 0.0)))
        else:
            row.update(answer=json.dumps(answer)[:60], fraction=0.0, number="", strength=0.0)
        rows.append(row)
    return rows


def render(response: dict, questions: dict, *, color: bool = False, width: int | None = None, title: str = "",
           seconds: float | None = None) -> str:
    """The answers as text: a header, then one row per question (id, answer, bar, probability)."""
    style = Style(color)
    width = width or shutil.get_terminal_size((100, 24)).columns
    rows = answer_rows(response, questions)
    id_w = min(18, max([len(r["id"]) for r in rows] + [4]))
    ans_w = min(24, max([len(r["answer"]) for r in rows] + [6]))
    num_w = max([len(r["number"]) for r in rows] + [4])
    bar_w = max(10, min(28, width - id_w - ans_w - num_w - 12))
    head = [style(title or "answers", "bold")]
    if response.get("model"):
        head.append(style(response["model"], "cyan"))
    head.append(style(f"{len(rows)} question{'s' if len(rows) != 1 else ''}", "grey"))
    if seconds is not None:
        head.append(style(f"{seconds:.2f} s", "grey"))
    lines = [" " + style(" · ", "grey").join(head)]
    for row in rows:
        filled, empty = bar(row["fraction"], bar_w)
        colour = _level_colour(row["strength"])
        line = (" " + style(clip(row["id"], id_w).ljust(id_w), "blue") + "  "
                + style(clip(row["answer"], ans_w).ljust(ans_w), "bold") + "  "
                + style(filled, colour) + style(empty, "grey") + "  " + row["number"].rjust(num_w))
        used = 1 + id_w + 2 + ans_w + 2 + bar_w + 2 + num_w
        room = width - used - 3
        warnings = []  # kept before the runners-up when the terminal is narrow
        if row["mass"] is not None and row["mass"] < LOW_MASS:
            warnings.append((f"⚠ label mass {row['mass']:.2f}", "yellow"))
        if row["abstain"]:
            warnings.append(("abstain", "magenta"))
        notes = []
        left = room - sum(len(t) + 2 for t, _ in warnings)
        if row["others"] and left > 12:
            notes.append((clip(" · ".join(f"{name} {p:.2f}" for name, p in row["others"]), left), "grey"))
        notes += warnings if left >= 0 else warnings[:1]
        if notes:
            line += "   " + "  ".join(style(t, s) for t, s in notes)
        lines.append(line)
    return "\n".join(lines)
