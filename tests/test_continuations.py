"""Likelihood continuations as a packed option trie: the same per-token log-probabilities as reading every
token alone, whatever the chunk bounds, with shared leading tokens computed once."""

from __future__ import annotations

import numpy as np
import pytest

from onepass.backends.base import Continuation, continuations_via_reads
from onepass.backends.trie import OptionTrie

NAMES = ["Account access", "Account", "Account access and login", "Billing", "Billing disputes", "Shipping", "Ship", "x"]


def items_for(engine):
    r = engine.renderer
    end = [r.tokenizer.eos_token_id]
    options = [r.encode(" " + name) + end for name in NAMES]
    return r.prefix("Hello there, my parcel is lost and I was charged twice."), [
        Continuation(r.encode("Question: which team?"), options), Continuation(r.encode("Another context"), options[:3])]


def test_trie_shares_leading_tokens_and_keeps_ancestors_first():
    trie = OptionTrie([[1, 2, 3], [1, 2], [1, 4], [5], [1, 2, 3]])
    assert trie.token == [1, 2, 3, 4, 5]  # 9 option tokens, 5 nodes
    assert trie.paths == [[0, 1, 2], [0, 1], [0, 3], [4], [0, 1, 2]]
    assert all(p < k for k, p in enumerate(trie.parent))
    assert trie.depth == [0, 1, 2, 1, 0]
    whole = list(trie.chunks(max_nodes=100, max_rows=100))
    assert whole == [[0, 1, 2, 3, 4]]
    # A subtree too big for the bounds is split, each piece carrying the ancestors its nodes attend to.
    pieces = list(trie.chunks(max_nodes=2, max_rows=1))
    assert all(trie.parent[k] in piece or trie.parent[k] < 0 for piece in pieces for k in piece)
    assert {k for piece in pieces for k in piece if trie.children[k]} == {0, 1}


@pytest.mark.parametrize("bounds", [(256, 1024), (2, 3), (1, 2)])
def test_packed_trie_equals_reading_every_token_alone(smol, bounds):
    backend = smol.backend
    prefix, items = items_for(smol)
    reference = continuations_via_reads(backend, prefix, items)
    saved = backend.max_logit_rows, backend.continuation_max_tokens
    backend.max_logit_rows, backend.continuation_max_tokens = bounds
    try:
        got = backend.continuations(prefix, items)
    finally:
        backend.max_logit_rows, backend.continuation_max_tokens = saved
    for per_item, ref_item in zip(got, reference):
        assert [len(x) for x in per_item] == [len(x) for x in ref_item]
        assert max(float(np.abs(x - y).max()) for x, y in zip(per_item, ref_item)) <= 1e-4


def test_reads_sharing_a_long_start_run_as_one_trie_and_equal_plain_reads(smol):
    """The isolated family's reads of one question repeat its instructions before each option: the embedded
    backend runs them as one trie (each shared token once) and returns what plain read passes return."""
    from onepass.backends import passes
    from onepass.wire import parse_request

    question = {"type": "choice", "instructions": "Which team of the support organisation should handle this customer "
                "message, given the catalogue of teams and what each of them takes care of?",
                "criteria": {name: f"messages about {name.lower()}" for name in NAMES}}
    request = parse_request({"model": "jev-latest", "state": "My parcel is lost.", "questions": {"q": question}})
    reads = smol.readouts["isolated"].plan(smol.renderer, request.questions["q"]).reads
    shared = passes.reads_as_trie(reads)
    assert shared is not None
    item, where = shared
    assert len(item.options) == 2 * len(reads) and all(len(ks) == 2 for ks in where)
    assert len(item.context) + len(OptionTrie(item.options).token) < 0.75 * sum(len(r.suffix) for r in reads)
    prefix = smol.renderer.prefix(request.state)
    got, plain = smol.backend.logprobs(prefix, reads), smol.backend.read_request(prefix, reads)
    assert max(float(np.abs(a - b).max()) for a, b in zip(got, plain)) <= 1e-4
    # Reads with little in common, or with many labels (a slot read's letters), stay plain reads.
    assert passes.reads_as_trie(reads[:1]) is None
    assert passes.reads_as_trie([reads[0].__class__(r.suffix, list(range(10))) for r in reads]) is None
