"""Adapters served by name: a request whose `model` names an adapter is answered by it.

Each question of such a request is matched to the adapter's learned questions by content (type,
instructions, criteria; the request's question id does not matter). A learned question becomes one slot
read that also hands back the hidden state (`Backend.features`), scored by the adapter's fitted arithmetic
and temperature (for retrieved examples, the read's suffix carries the demonstrations first); any other
question is read as the base model would read it, zero-shot. Every answer says which: `x_adapter` =
{"name", "question" (the learned id, or null), "method"}. All adapters share the one base model in memory;
their reads go through the same backend as every other request, except a LoRA method's: in-process, its
PEFT weights over a shadow of the one base model (onepass/learn/lora.py, no copy of the base weights); on
vLLM, the LoRA module the engine serves under the name `lora_module` gives (the same read, another model
name).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from onepass.backends.base import Read
from onepass.errors import ConfigError
from onepass.learn.adapter import Adapter
from onepass.learn.labels import question_signature
from onepass.readouts.base import Outcome, Plan
from onepass.render import state_text

__all__ = ["load_adapters", "attach_lora", "lora_module", "model_entries", "learned_plans", "signature_of", "mark"]


def signature_of(question) -> str:
    """A parsed question's signature, the same function the adapter's learned questions are keyed by."""
    return question_signature(question.model_dump(mode="json"))


def load_adapters(paths: tuple[str, ...], folder: str | None, model_id: str, backend, taken: set[str]) -> dict[str, Adapter]:
    """Every adapter of --adapter and --adapters-dir, checked against the served model before serving anything."""
    dirs = [Path(p) for p in paths]
    if folder:
        root = Path(folder)
        if not root.is_dir():
            raise ConfigError(f"adapters_dir (--adapters-dir) {root} is not a directory")
        dirs += sorted(p for p in root.iterdir() if (p / "manifest.json").is_file())
    adapters: dict[str, Adapter] = {}
    for path in dirs:
        adapter = Adapter.load(path)
        if adapter.base != model_id:
            raise ConfigError(f"adapter {adapter.name} ({path}) was learned on model {adapter.base}; this server serves "
                              f"{model_id}: serve it with --model {adapter.base}, or learn it again on {model_id}")
        if adapter.name in adapters or adapter.name in taken:
            raise ConfigError(f"adapter name {adapter.name!r} ({path}) is already served here; learn it under another --name")
        if any(q.needs_hidden for q in adapter.questions.values()) and not backend.capabilities.hidden_states:
            raise ConfigError(f"adapter {adapter.name} reads hidden states, which backend {backend.name} does not hand "
                              "out; serve it in-process (--backend embedded)")
        adapters[adapter.name] = adapter
    return adapters


def lora_module(adapter: Adapter, learned) -> str:
    """The name vLLM serves a LoRA method's PEFT directory under: `--lora-modules NAME=DIR` with these."""
    return f"{adapter.name}-{learned.fitted.info['dir']}"


# vLLM 0.32's --max-lora-rank accepts only these values; an adapter of rank r needs the first one >= r.
VLLM_LORA_RANKS = (1, 8, 16, 32, 64, 128, 256, 320, 512)


def attach_lora(adapters: dict[str, Adapter], engine) -> None:
    """Give every learned question whose method is a LoRA adapter the runner that reads with it."""
    import copy

    for adapter in adapters.values():
        for learned in adapter.questions.values():
            if learned.fitted.kind != "lora":
                continue
            folder = adapter.path / learned.fitted.info["dir"]
            name = engine.backend.name
            if name == "embedded":
                from onepass.learn.lora import load_lora

                try:
                    learned.runner = load_lora(engine, folder).read
                except (OSError, ValueError) as error:
                    raise ConfigError(f"adapter {adapter.name} ({adapter.path}): question {learned.qid}'s LoRA adapter "
                                      f"in {folder} cannot be loaded: {error}") from None
            elif name == "vllm":
                from onepass.backends.remote_checks import pick_model

                module = lora_module(adapter, learned)
                wanted = int(learned.fitted.info.get("rank") or 8)
                rank = next((r for r in VLLM_LORA_RANKS if r >= wanted), wanted)
                try:
                    pick_model(engine.backend.client, module)
                except ConfigError:
                    raise ConfigError(f"adapter {adapter.name}: question {learned.qid} was learned as a LoRA adapter, "
                                      f"which vLLM serves as a LoRA module; start vLLM with --enable-lora --max-lora-rank "
                                      f"{rank} --lora-modules {module}={folder.resolve()}") from None
                remote = copy.copy(engine.backend)  # the same engine and tokenizer, asked for the module by name
                remote.model = module
                learned.runner = remote.logprobs
            else:
                raise ConfigError(f"adapter {adapter.name}: question {learned.qid} was learned as a LoRA adapter, which "
                                  f"onepass serves in-process or on vLLM, not on {name}; serve it with --backend "
                                  "embedded or --backend vllm (docs/deployment.md)")


def model_entries(adapters: dict[str, Adapter], release_date: str) -> list[dict]:
    """/v1/models rows: each adapter with its base, methods and held-out numbers."""
    rows = []
    for name, adapter in sorted(adapters.items()):
        summary = adapter.summary()
        methods = ", ".join(f"{qid}: {s['method']}" for qid, s in summary.items())
        rows.append({"name": name, "description": f"Adapter learned by onepass on {adapter.base} ({methods}).",
                     "release_date": release_date, "x_adapter": {"base": adapter.base, "questions": summary,
                                                                  "labels": adapter.manifest["labels"]["items"]}})
    return rows


def learned_plans(adapter: Adapter, renderer, state, questions: dict, features: bool = True) -> dict[str, Plan]:
    """A Plan per learned question of the request; questions the adapter did not learn are left out.
    `features`: the backend hands out hidden states; then every learned read is the features read the labels
    were learned from (the same numbers `onepass learn` fitted on), else a plain read."""
    matched = {qid: adapter.questions.get(signature_of(q)) for qid, q in questions.items()}
    matched = {qid: learned for qid, learned in matched.items() if learned is not None}
    embedding = None
    if any(learned.needs_embedding for learned in matched.values()):
        from onepass.learn.features import embed_texts

        embedding = embed_texts([state_text(state)])[0]
    plans = {}
    for qid, learned in matched.items():
        rendered = renderer.question(questions[qid])

        def combine(reads, _conts, features=None, learned=learned) -> Outcome:
            lp, hidden = features[0] if features else (reads[0], None)
            mass = float(np.exp(np.asarray(lp, dtype=np.float64)).sum())
            return Outcome(learned.scores(lp, hidden, embedding), mass,
                           extras={"x_adapter": {"name": adapter.name, "question": learned.qid, "method": learned.method}})

        if learned.fitted.kind == "examples":  # demonstrations retrieved for this state, then the question
            from onepass.learn.examples_method import examples_read

            read = examples_read(learned.fitted, renderer, questions[qid], embedding)
        else:
            read = Read(rendered.suffix, rendered.label_ids)
        if learned.runner is not None:  # LoRA: the plain read, by the adapter's weights
            plans[qid] = Plan(reads=[read], combine=combine, runner=learned.runner)
        # Without hidden states (remote engines) a method that does not read them is served from a plain read.
        elif features:
            plans[qid] = Plan(features=[read], combine=combine)
        else:
            plans[qid] = Plan(reads=[read], combine=combine)
    return plans


def mark(answer_extras: dict, adapter: Adapter) -> None:
    """Flag an answer the adapter did not learn: read zero-shot by the base model."""
    answer_extras.setdefault("x_adapter", {"name": adapter.name, "question": None, "method": "zero-shot"})
