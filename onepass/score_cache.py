"""The scores cache behind `onepass calibrate --scores FILE`: each corpus item's label logits, stored under a
key made of everything that changes a score, so a cached number is only ever reused by the setting that
produced it, and an interrupted pass resumes where it stopped.

A setting (`setting(engine, family)`) is: the model id, a fingerprint of its weights and tokenizer files
(the registry's pinned sha256 or package, else a sha256 of the model directory's files; none for a remote
engine), the dtype, the backend, the readout family and that readout's options, prior correction on/off,
and the prompt version of that family (render.py and the readout modules it uses: `prompt_modules`).
File format (JSONL), one file holding any number of settings (one per family, say):

    {"setting": ID, "key": {...the setting...}}                         before the first row of a setting
    {"setting": ID, "key": ITEM_KEY, "id": ..., "scores": [...], "label_mass": ...}

Rows of other settings are kept and ignored; rows of the same model and family written under another setting
(or before settings were recorded: rows without "setting") are never served, and the cache says once why.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Callable

import numpy as np

__all__ = ["FORMAT", "setting", "setting_id", "item_key", "legacy_key", "readout_options", "weights_fingerprint",
           "prompt_modules", "prompt_version", "read_rows", "select", "ScoresCache"]

FORMAT = 2  # 1: rows keyed by model, readout, dtype (when not float32) and prior only, no setting lines
_WEIGHT_SUFFIXES = {".safetensors", ".bin", ".gguf", ".pt", ".json", ".txt", ".model", ".jinja", ".tiktoken"}
_fingerprints: dict[tuple, str] = {}  # (path, size, mtime_ns) of every hashed file -> digest, per process


def readout_options(readout) -> dict:
    """A readout's settings as plain JSON (its public attributes; a readout it delegates to, nested)."""
    out: dict = {}
    for name, value in sorted(vars(readout).items()):
        if name.startswith("_"):
            continue
        if value is None or isinstance(value, (str, int, float, bool)):
            out[name] = value
        elif hasattr(value, "plan") and hasattr(value, "name"):  # e.g. shortlist's likelihood re-ranker
            out[name] = {"family": value.name, **readout_options(value)}
        else:
            try:
                out[name] = json.loads(json.dumps(value, sort_keys=True))
            except (TypeError, ValueError):
                out[name] = type(value).__name__
    return out


def _hash_files(paths: list[Path]) -> str:
    stamp = tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in paths)
    if stamp not in _fingerprints:
        digest = hashlib.sha256()
        for path in paths:
            digest.update(path.name.encode() + b"\0")
            with open(path, "rb") as f:
                while chunk := f.read(1 << 22):
                    digest.update(chunk)
        _fingerprints[stamp] = digest.hexdigest()
    return _fingerprints[stamp]


def weights_fingerprint(engine) -> str | None:
    """What identifies the model's weights and tokenizer: a registry model's pinned sha256 (or its hash-pinned
    package), else the sha256 of the files of the directory or GGUF it was loaded from; None when unknown
    (a remote engine: the key then rests on the model id, backend and dtype)."""
    from onepass import models

    entry = models.REGISTRY.get(engine.info.id)
    if entry is not None:
        return f"sha256:{entry.sha256}" if entry.sha256 else f"package:{entry.packages}"
    if getattr(engine, "dtype", None) is None:
        return None
    names = sorted(set(getattr(engine, "names", ())) - models.ALIASES - {engine.info.id}) + [engine.info.id]
    for name in names:
        path = Path(name).expanduser()
        if path.is_file() and path.suffix == ".gguf":
            return "sha256:" + _hash_files([path])
        if path.is_dir() and (path / "config.json").exists():
            files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix in _WEIGHT_SUFFIXES)
            return "sha256:" + _hash_files(files)
    return None


def prompt_modules(family: str | None = None) -> list[Path]:
    """The readout modules a family's scores depend on: readouts/base.py, the family's module and the readout
    modules it imports (transitively); all of them for `auto` (it hands questions to the others) or None."""
    from onepass import readouts

    folder = Path(readouts.__file__).parent
    if family is None or family == "auto" or not (folder / f"{family}.py").exists():
        return sorted(folder.glob("*.py"))
    wanted, todo = {"base"}, [family]
    while todo:
        name = todo.pop()
        if name not in wanted:
            wanted.add(name)
            todo += _IMPORT.findall((folder / f"{name}.py").read_text())
    return sorted(folder / f"{name}.py" for name in wanted)


def prompt_version(family: str | None = None) -> str:
    """A hash of the code that writes prompts and reads labels for `family` (render.py and its
    `prompt_modules`): any change there rescores, with nothing to remember to bump, and a change to one
    family leaves the other families' rows valid."""
    from onepass import render

    digest = hashlib.sha256(Path(render.__file__).read_bytes())
    for path in prompt_modules(family):
        digest.update(path.read_bytes())
    return "prompt:" + digest.hexdigest()[:16]


_IMPORT = re.compile(r"^from onepass\.readouts\.(\w+) import", re.MULTILINE)


def setting(engine, family: str) -> dict:
    """Everything that changes a score of `engine` read with readout `family`."""
    return {
        "format": FORMAT,
        "model": engine.info.id,
        "weights": weights_fingerprint(engine),
        "dtype": engine.dtype.value if getattr(engine, "dtype", None) else None,
        "backend": getattr(engine.backend, "name", type(engine.backend).__name__),
        "readout": family,
        "readout_options": readout_options(engine.readouts[family]),
        "prior_correction": bool(engine.prior_correction),
        "prompt": prompt_version(family),
    }


def setting_id(key: dict) -> str:
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]


def item_key(setting_hash: str, request: dict) -> str:
    return hashlib.sha256(json.dumps([setting_hash, request], sort_keys=True).encode()).hexdigest()


def legacy_key(model: str, readout: str, dtype: str, prior: bool, request: dict) -> str:
    """The key of a format-1 row (read by the bench scripts; never served by the cache)."""
    parts = [model, readout] + ([dtype] if dtype != "float32" else []) + (["prior"] if prior else [])
    return hashlib.sha256(json.dumps(parts + [request], sort_keys=True).encode()).hexdigest()


def read_rows(path: Path) -> tuple[dict[str, dict], list[dict]]:
    """(setting id -> setting, rows in file order); a torn last line (an interrupted write) is skipped."""
    settings: dict[str, dict] = {}
    rows: list[dict] = []
    for line in Path(path).read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(row, dict):
            continue
        if "scores" not in row and isinstance(row.get("key"), dict):
            settings[row["setting"]] = row["key"]
        elif "scores" in row:
            rows.append(row)
    return settings, rows


def select(path: Path, items: list[dict], *, model: str, readout: str, dtype: str = "float32",
           prior: bool = False) -> dict[str, dict]:
    """item id -> cached row for one model / family / dtype / prior setting, from format-2 rows (the last
    written wins when several settings match) or format-1 rows; for analysis scripts that read a scores
    file without a model."""
    settings, rows = read_rows(path)
    wanted = {sid for sid, key in settings.items() if (key.get("model"), key.get("readout"), key.get("dtype") or "float32",
                                                        bool(key.get("prior_correction"))) == (model, readout, dtype, prior)}
    by_key = {row["key"]: row for row in rows if row.get("setting") in wanted or "setting" not in row}
    found = {}
    for item in items:
        for sid in [*wanted, None]:
            key = item_key(sid, item["request"]) if sid else legacy_key(model, readout, dtype, prior, item["request"])
            if key in by_key:
                found[item["id"]] = by_key[key]
    return found


def _torn(path: Path) -> bool:
    """Whether the file ends inside a line (an interrupted write)."""
    if not path.exists() or path.stat().st_size == 0:
        return False
    with open(path, "rb") as f:
        f.seek(-1, 2)
        return f.read(1) != b"\n"


def _describe(old: dict, new: dict) -> str:
    changed = [f"{name} {json.dumps(old.get(name))} -> {json.dumps(new.get(name))}" for name in sorted(set(old) | set(new))
               if name != "format" and old.get(name) != new.get(name)]
    return "; ".join(changed) or "format"


class ScoresCache:
    """Cached label logits for one setting, read from and appended to a JSONL file (or nothing, for None).

    >>> with ScoresCache(path, setting(engine, "slot")) as cache:
    ...     hit = cache.get(request)          # (scores, label_mass) or None
    ...     cache.put(item_id, request, scores, label_mass)
    """

    def __init__(self, path: Path | None, key: dict, log: Callable[[str], None] | None = None):
        self.path = Path(path) if path else None
        self.key = key
        self.id = setting_id(key)
        self.log = log or (lambda message: print(message, file=sys.stderr, flush=True))
        self.done: dict[str, dict] = {}
        self._sink = None
        self._announced = False
        if self.path and self.path.exists():
            settings, rows = read_rows(self.path)
            self._announced = self.id in settings
            self.done = {row["key"]: row for row in rows if row.get("setting") == self.id}
            self._explain_misses(settings, rows)

    def _explain_misses(self, settings: dict[str, dict], rows: list[dict]) -> None:
        """One line when rows of this model and family exist under another key: they are not served."""
        same = lambda key: key.get("model") == self.key["model"] and key.get("readout") == self.key["readout"]  # noqa: E731
        other = [sid for sid, key in settings.items() if sid != self.id and same(key)]
        stale = sum(1 for row in rows if row.get("setting") in other)
        legacy = sum(1 for row in rows if "setting" not in row)
        if stale:
            counts = {sid: sum(1 for row in rows if row.get("setting") == sid) for sid in other}
            latest = max(other, key=counts.get)
            self.log(f"scores cache {self.path}: ignoring {stale} rows of {self.key['model']}/{self.key['readout']} "
                     f"written under a different key ({_describe(settings[latest], self.key)}); rescoring them")
        elif legacy:
            self.log(f"scores cache {self.path}: ignoring {legacy} rows written before the cache key recorded the "
                     "weights, readout options, prompt version and backend (format 1); rescoring them")

    def __enter__(self) -> "ScoresCache":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def get(self, request: dict) -> tuple[np.ndarray, float | None] | None:
        row = self.done.get(item_key(self.id, request))
        return None if row is None else (np.array(row["scores"], dtype=np.float64), row["label_mass"])

    def put(self, item_id: str, request: dict, scores: np.ndarray, label_mass: float | None) -> None:
        if self.path is None:
            return
        if self._sink is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            torn = _torn(self.path)
            self._sink = open(self.path, "a")
            if torn:  # an interrupted write left half a line: start on a fresh one
                self._sink.write("\n")
        if not self._announced:
            self._sink.write(json.dumps({"setting": self.id, "key": self.key}, sort_keys=True) + "\n")
            self._announced = True
        key = item_key(self.id, request)
        row = {"setting": self.id, "key": key, "id": item_id, "scores": np.asarray(scores).tolist(), "label_mass": label_mass}
        self._sink.write(json.dumps(row) + "\n")
        self._sink.flush()
        self.done[key] = row

    def close(self) -> None:
        if self._sink is not None:
            self._sink.close()
            self._sink = None
