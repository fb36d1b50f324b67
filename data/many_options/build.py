"""Build data/many_options/items.jsonl: hand-written intent-routing items with many options per question.

The intent sets live in sets.py and the labelled utterances in items.py (both written by hand for
onepass; see docs/many-options.md). This script checks them and writes one System One request per item:

    python3 data/many_options/build.py           # check, write items.jsonl, print counts
    python3 data/many_options/build.py --check   # check, rebuild in memory, fail if items.jsonl differs

Standard library only. The output is byte-identical on every run (no randomness, no timestamps, fixed key
order, options sent in the order sets.py lists them).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "items.jsonl"
MODEL = "jev-latest"
MAX_OPTIONS = 255  # the API's limit on options in one choice question
MIN_WORDS, MAX_WORDS = 5, 60
MAX_PER_INTENT = 3  # no intent may be the gold of more than this many items of one set
# Size band of a set, by its option count (inclusive ranges); a set outside every band is an error.
BANDS = (("20", 15, 30), ("50", 40, 60), ("100", 80, 120), ("200+", 200, MAX_OPTIONS))
BAND_ORDER = [b[0] for b in BANDS]
MIN_ITEMS_PER_BAND = 70
MIN_ITEMS = 320
NAME_RE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"many_options_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _duplicate_literal_keys(path: Path) -> list[str]:
    """Keys repeated inside one dict literal (Python would silently keep the last one)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            found += [f"{path.name}: {k!r}" for k, n in Counter(keys).items() if n > 1]
    return found


def band_of(n_options: int) -> str | None:
    for name, lo, hi in BANDS:
        if lo <= n_options <= hi:
            return name
    return None


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", "", text.lower()).split())


def check(sets: dict, items: list) -> list[str]:
    errors = _duplicate_literal_keys(HERE / "sets.py")
    for set_name, spec in sets.items():
        if set(spec) != {"domain", "instructions", "intents"}:
            errors.append(f"set {set_name}: keys must be domain, instructions, intents; got {sorted(spec)}")
            continue
        intents = spec["intents"]
        n = len(intents)
        if not 2 <= n <= MAX_OPTIONS:
            errors.append(f"set {set_name}: {n} options (must be 2..{MAX_OPTIONS})")
        if band_of(n) is None:
            errors.append(f"set {set_name}: {n} options is in no size band {BANDS}")
        if not spec["instructions"].strip() or not spec["domain"].strip():
            errors.append(f"set {set_name}: empty domain or instructions")
        for name, description in intents.items():
            if not NAME_RE.match(name):
                errors.append(f"set {set_name}: intent name {name!r} is not short snake_case")
            if not isinstance(description, str) or not description.strip() or "\n" in description:
                errors.append(f"set {set_name}: intent {name!r} needs a one-line description")
        descriptions = Counter(intents.values())
        errors += [f"set {set_name}: description used twice: {d!r}" for d, c in descriptions.items() if c > 1]

    seen: dict[str, int] = {}
    for i, entry in enumerate(items, 1):
        if not (isinstance(entry, tuple) and len(entry) == 3 and all(isinstance(x, str) for x in entry)):
            errors.append(f"item {i}: must be a (set, utterance, gold) tuple of strings")
            continue
        set_name, text, gold = entry
        if set_name not in sets:
            errors.append(f"item {i}: unknown set {set_name!r}")
            continue
        if gold not in sets[set_name]["intents"]:
            errors.append(f"item {i}: gold {gold!r} is not an intent of {set_name}")
        words = len(text.split())
        if not MIN_WORDS <= words <= MAX_WORDS:
            errors.append(f"item {i}: {words} words (must be {MIN_WORDS}..{MAX_WORDS}): {text!r}")
        if text != text.strip() or "  " in text or "\n" in text:
            errors.append(f"item {i}: stray whitespace in {text!r}")
        key = _norm(text)
        if key in seen:
            errors.append(f"item {i}: duplicate of item {seen[key]}: {text!r}")
        seen.setdefault(key, i)

    per_set_gold = Counter((s, g) for s, _, g in items if s in sets)
    errors += [f"set {s}: gold {g!r} used {c} times (max {MAX_PER_INTENT})"
               for (s, g), c in per_set_gold.items() if c > MAX_PER_INTENT]
    per_set = Counter(s for s, _, _ in items)
    errors += [f"set {s}: no items" for s in sets if not per_set[s]]
    per_band = Counter(band_of(len(sets[s]["intents"])) for s, _, _ in items if s in sets)
    errors += [f"band {b}: {per_band[b]} items (need at least {MIN_ITEMS_PER_BAND})"
               for b in BAND_ORDER if per_band[b] < MIN_ITEMS_PER_BAND]
    if len(items) < MIN_ITEMS:
        errors.append(f"{len(items)} items (need at least {MIN_ITEMS})")
    return errors


def records(sets: dict, items: list) -> list[dict]:
    out = []
    for i, (set_name, text, gold) in enumerate(items, 1):
        spec = sets[set_name]
        intents = spec["intents"]
        out.append({
            "id": f"mo-{i:04d}",
            "set": set_name,
            "options": len(intents),
            "band": band_of(len(intents)),
            "request": {
                "model": MODEL,
                "state": text,
                "questions": {"q": {"type": "choice", "instructions": spec["instructions"],
                                    "criteria": dict(intents)}},
            },
            "gold": gold,
        })
    return out


def render(recs: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs)


def summary(sets: dict, items: list) -> str:
    lines = []
    per_set = Counter(s for s, _, _ in items)
    golds = {s: Counter(g for s2, _, g in items if s2 == s) for s in sets}
    for band in BAND_ORDER:
        names = [s for s in sets if band_of(len(sets[s]["intents"])) == band]
        lines.append(f"band {band:>4}: {sum(per_set[s] for s in names):4d} items")
        for s in names:
            n = len(sets[s]["intents"])
            oos = golds[s].get("out_of_scope", 0)
            lines.append(f"    {s:<22} {n:3d} options  {per_set[s]:4d} items  "
                         f"{len(golds[s]):3d} distinct golds  {oos} out_of_scope")
    lines.append(f"total: {len(items)} items, {len(sets)} sets")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if argv not in ([], ["--check"]):
        print("usage: build.py [--check]", file=sys.stderr)
        return 2
    sys.dont_write_bytecode = True  # keep __pycache__ out of the data folder
    sets = _load("sets").SETS
    items = _load("items").ITEMS
    errors = check(sets, items)
    if errors:
        for e in errors:
            print("error:", e, file=sys.stderr)
        return 1
    text = render(records(sets, items))
    if argv == ["--check"]:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else None
        if current != text:
            print(f"{OUT.name} is out of date (or missing); run build.py", file=sys.stderr)
            return 1
        print(f"{OUT.name} is up to date")
    else:
        OUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUT}")
    print(summary(sets, items))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
