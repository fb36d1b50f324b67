"""`onepass run` (ask a question set about one text, answers drawn as bars) and `onepass presets` (the
built-in question sets): their flags, where the text comes from, the prompt loop.

Answers come from onepass/deciders.py and are drawn by onepass/terminal.py.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from onepass import presets as presets_mod
from onepass.deciders import (
    DecideError,
    add_source_args,
    decide_with_retries,
    make_decider,
)
from onepass.terminal import Style, clip, fail, render, use_color

__all__ = ["run", "list_presets", "register"]


class _Ask(argparse.Action):
    """--ask TEXT adds a yes/no question; --choice OPTION turns the latest --ask into a choice (or starts a
    choice of its own); --level TEXT turns it into a score (levels in order, lowest first)."""

    def __call__(self, parser, namespace, value, option_string=None):
        asked = list(getattr(namespace, "asked", None) or [])
        if option_string == "--ask":
            asked.append({"type": "noul", "instructions": value})
        else:
            kind, key = ("choice", dict) if option_string == "--choice" else ("score", list)
            last = asked[-1] if asked else None
            if last is None or (last["type"] != kind and last["type"] != "noul") or (last["type"] == "noul" and "criteria" in last):
                last = {"type": kind, "instructions": "Which of these fits best?" if kind == "choice" else "Where on this scale does it fall?"}
                asked.append(last)
            if last["type"] == "noul":
                last["type"] = kind
            criteria = last.setdefault("criteria", key())
            if kind == "choice":
                criteria[value] = None
            else:
                criteria.append(value)
        namespace.asked = asked


def _read_text(args) -> str | None:
    if args.file:
        with open(args.file, encoding="utf-8") as f:
            return f.read()
    if args.text == "-" or (args.text is None and not sys.stdin.isatty()):
        return sys.stdin.read()
    return args.text


def _state_of(text: str, as_json: bool):
    if not as_json:
        return text.strip("\n")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"--state-json: the text is not JSON ({error})") from None


def run(args) -> int:
    asked = getattr(args, "asked", None) or []
    if not (args.preset or args.questions or asked):
        return fail("run", "give --preset NAME (onepass presets lists them), --questions FILE, or --ask 'question?'")
    try:
        questions, source = presets_mod.question_set(args.preset, args.questions, asked)
    except presets_mod.PresetError as error:
        return fail("run", str(error))
    bad = [qid for qid, q in questions.items() if q.get("type") == "choice" and len(q.get("criteria") or {}) < 2]
    if bad:
        return fail("run", f"a choice needs at least two options (--choice A --choice B): {', '.join(bad)}")
    try:
        text = _read_text(args)
    except OSError as error:
        return fail("run", f"cannot read {args.file}: {error}")
    interactive = text is None
    color = use_color(args.color)
    err_style = Style(use_color(args.color, sys.stderr))
    if not interactive and not text.strip():
        return fail("run", "the text is empty")
    if interactive and args.json:
        return fail("run", "--json needs a text (an argument, --file or stdin)")
    where = args.url or (args.model or "the default model")
    if sys.stderr.isatty():
        print(err_style(f"loading {where} …", "grey"), file=sys.stderr, flush=True)
    try:
        decider = make_decider(args, command="run")
    except KeyboardInterrupt:
        return 130
    try:
        if interactive:
            return _prompt_loop(decider, questions, source, args, color)
        return _answer_once(decider, text, questions, source, args, color)
    except KeyboardInterrupt:
        return 130
    finally:
        decider.close()


def _answer_once(decider, text: str, questions: dict, source: str, args, color: bool) -> int:
    try:
        state = _state_of(text, args.state_json)
    except ValueError as error:
        return fail("run", str(error))
    started = time.perf_counter()
    try:
        response, _ = decide_with_retries(decider, state, questions, retries=args.retries)
    except DecideError as error:
        return fail("run", str(error), 1)
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps(response, indent=2, ensure_ascii=False))
    else:
        print(render(response, questions, color=color, title=source, seconds=seconds))
    return 0


def _prompt_loop(decider, questions: dict, source: str, args, color: bool, input_fn=input) -> int:
    style = Style(color)
    print(style(f"onepass run · {source} · {decider.describe().get('model')}", "bold"))
    print(style("Type or paste a text; a blank line sends it, Ctrl-D quits.", "grey"))
    while True:
        lines: list[str] = []
        try:
            while True:
                line = input_fn("› " if not lines else "… ")
                if not line.strip() and lines:
                    break
                if line.strip():
                    lines.append(line)
        except (EOFError, KeyboardInterrupt):
            if not lines:
                print()
                return 0
        text = "\n".join(lines)
        try:
            code = _answer_once(decider, text, questions, source, args, color)
        except KeyboardInterrupt:
            print(style("(interrupted)", "grey"))
            continue
        if code == 2:
            return code
        print()


def list_presets(args) -> int:
    found = presets_mod.builtin()
    if args.show:
        try:
            print(json.dumps(presets_mod.get(args.show).as_json(), indent=2, ensure_ascii=False))
        except presets_mod.PresetError as error:
            return fail("presets", str(error))
        return 0
    if args.json:
        print(json.dumps([p.as_json() for p in found.values()], indent=2, ensure_ascii=False))
        return 0
    style = Style(use_color(args.color))
    for preset in found.values():
        aliases = f" (also: {', '.join(preset.aliases)})" if preset.aliases else ""
        print(style(preset.name, "bold", "cyan") + style(aliases, "grey") + f"  {preset.title}")
        print(f"  {preset.description}")
        for qid, question in preset.questions.items():
            print(style(f"    {qid:12s} {presets_mod.describe_question(question):11s} ", "grey") + clip(str(question.get("instructions", "")), 70))
    print(style("Try: onepass run --preset triage \"Hi, I was charged twice for order #4411.\"  ·  "
                "onepass presets --show NAME prints one as a --questions file.", "grey"))
    return 0


def register(sub, model_args) -> None:
    p = sub.add_parser("run", help="ask a preset or your own questions about a text; answers as bars",
                       description="Ask a question set about one text and draw each answer: the answer, a bar and its "
                                   "probability (scores as 'x / max' with the level's text). Text from the argument, "
                                   "--file, or stdin; with none on a terminal, a prompt loop.")
    model_args(p)
    add_source_args(p)
    p.add_argument("text", nargs="?", help="the text to ask about ('-' for stdin)")
    p.add_argument("--file", help="read the text from this file")
    p.add_argument("--preset", help="a built-in question set (onepass presets lists them)")
    p.add_argument("--questions", help="a question-set JSON file: {id: question} or a preset-shaped object")
    p.add_argument("--ask", action=_Ask, dest="asked", metavar="QUESTION", help="add a yes/no question (repeatable)")
    p.add_argument("--choice", action=_Ask, dest="asked", metavar="OPTION",
                   help="an option of a choice: makes the latest --ask a choice (repeat for each option)")
    p.add_argument("--level", action=_Ask, dest="asked", metavar="LEVEL",
                   help="a level of a score, lowest first: makes the latest --ask a score (repeat for each level)")
    p.add_argument("--state-json", action="store_true", help="parse the text as JSON (an object or array state)")
    p.add_argument("--json", action="store_true", help="print the System One response as JSON")
    p.add_argument("--color", choices=["auto", "always", "never"], default="auto", help="colour (auto: on a terminal, unless NO_COLOR)")
    p.add_argument("--retries", type=int, default=2, help="retries on 429 / 5xx / connection errors")
    p.set_defaults(fn=run)

    p = sub.add_parser("presets", help="list the built-in question sets")
    p.add_argument("--show", metavar="NAME", help="print one preset as JSON (usable as --questions FILE)")
    p.add_argument("--json", action="store_true", help="all presets as JSON")
    p.add_argument("--color", choices=["auto", "always", "never"], default="auto")
    p.set_defaults(fn=list_presets)
