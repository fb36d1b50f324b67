"""Running readout plans on a backend, and counting what they make the model read.

A request's questions each come with a Plan (onepass/readouts/base.py): reads at the answer position,
continuations to score, hidden-state features. `run_plans` sends all of them in one backend call per
kind, computing identical ones once, hands each plan its results (`Plan.combine`) and flags the labels a
remote engine did not return. The token counts here are the ones the engine's limits and `usage` use.
"""

from __future__ import annotations

import numpy as np

from onepass.backends.base import Backend
from onepass.deadline import checkpoint
from onepass.errors import APIError
from onepass.readouts import Outcome, Plan

__all__ = ["run_plans", "plan_tokens", "answer_positions", "check_context"]


def run_plans(backend: Backend, prefix: list[int], plans: dict[str, Plan]) -> dict[str, Outcome]:
    """One backend call for every read of every plan, one for every continuation; then combine. A plan
    with its own runner (a LoRA adapter's reads) is answered by it instead, after the shared calls."""
    own = {qid: plan for qid, plan in plans.items() if plan.runner is not None}
    if own:
        shared = run_plans(backend, prefix, {qid: p for qid, p in plans.items() if qid not in own}) if len(own) < len(plans) else {}
        for qid, plan in own.items():
            checkpoint()
            lps = plan.runner(prefix, plan.reads)
            shared[qid] = plan.combine(lps, [])
            missing = {int(t) for read, lp in zip(plan.reads, lps) for t, v in zip(read.token_ids, lp) if np.isnan(v)}
            if missing:
                shared[qid].extras["x_missing_labels"] = sorted(missing)
        return {qid: shared[qid] for qid in plans}
    reads = [read for plan in plans.values() for read in plan.reads]
    conts = [c for plan in plans.values() for c in plan.continuations]
    feature_reads = [read for plan in plans.values() for read in plan.features]
    # Identical reads (the same question asked twice, isolated options or likelihood contexts that do
    # not depend on order) are computed once and shared.
    unique_reads, read_of = _unique(reads, lambda r: (tuple(r.suffix), tuple(r.token_ids)))
    unique_conts, cont_of = _unique(conts, lambda c: (tuple(c.context), tuple(map(tuple, c.options))))
    read_lp = backend.logprobs(prefix, unique_reads) if reads else []
    checkpoint()
    cont_lp = backend.continuations(prefix, unique_conts) if conts else []
    unique_feats, feat_of = _unique(feature_reads, lambda r: (tuple(r.suffix), tuple(r.token_ids)))
    feats = backend.features(prefix, unique_feats) if feature_reads else []
    feats = [feats[k] for k in feat_of]
    # Labels a remote engine did not return come back NaN (the backend contract): every readout leaves
    # them out, and they are flagged below.
    read_lp = [read_lp[k] for k in read_of]
    cont_lp = [cont_lp[k] for k in cont_of]
    outcomes, r, c, f = {}, 0, 0, 0
    for qid, plan in plans.items():
        mine = read_lp[r : r + len(plan.reads)]
        conts_of_plan = cont_lp[c : c + len(plan.continuations)]
        if plan.features:
            outcomes[qid] = plan.combine(mine, conts_of_plan, feats[f : f + len(plan.features)])
            f += len(plan.features)
        else:
            outcomes[qid] = plan.combine(mine, conts_of_plan)
        # A remote engine's top-k fallback may not return every label: flagged, and left out.
        missing = {int(t) for read, lp in zip(reads[r : r + len(plan.reads)], mine) for t, v in zip(read.token_ids, lp) if np.isnan(v)}
        missing |= {int(o[j]) for cont, lps in zip(conts[c : c + len(plan.continuations)], conts_of_plan)
                    for o, lp in zip(cont.options, lps) for j in range(len(lp)) if np.isnan(lp[j])}
        if missing:
            outcomes[qid].extras["x_missing_labels"] = sorted(missing)
        r += len(plan.reads)
        c += len(plan.continuations)
    return outcomes


def plan_tokens(plan: Plan) -> int:
    """Tokens a plan makes the model read after the state (what `--max-input-tokens` counts)."""
    return sum(len(r.suffix) for r in [*plan.reads, *plan.features]) + sum(
        len(c.context) + sum(len(o) for o in c.options) for c in plan.continuations)


def answer_positions(plan: Plan) -> int:
    """Positions a plan reads an answer at: nothing is generated, so this is usage's output_tokens."""
    return len(plan.reads) + len(plan.features) + sum(len(c.options) for c in plan.continuations)


def check_context(prefix: list[int], plans, max_context: int, model_id: str) -> None:
    """400 max_tokens_exceeded when the state plus a plan's longest read passes the model's context."""
    longest = max(
        [len(r.suffix) for p in plans for r in [*p.reads, *p.features]]
        + [len(c.context) + max(map(len, c.options)) for p in plans for c in p.continuations]
    )
    if len(prefix) + longest > max_context:
        raise APIError(
            400,
            "max_tokens_exceeded",
            f"the state and question take {len(prefix) + longest} tokens; model {model_id} reads at most "
            f"{max_context}. Shorten the state or the question text.",
        )


def _unique(items: list, key) -> tuple[list, list[int]]:
    """(distinct items in first-seen order, index of each item's distinct copy)."""
    seen: dict = {}
    index = [seen.setdefault(key(item), len(seen)) for item in items]
    distinct = [None] * len(seen)
    for item, k in zip(items, index):
        distinct[k] = item
    return distinct, index
