"""Any HF directory loads; labels are single tokens in context or the model is refused; confidence formulas."""

from __future__ import annotations

import math

import numpy as np
import pytest

from onepass import Engine, models
from onepass.answers import choice_confidence, score_confidence
from onepass.render import LabelError, Renderer, choice_label_candidates
from tests.tiny_random import llama_with_char_tokenizer, llama_with_smollm_tokenizer

REQUEST = {"model": "jev-latest", "state": "The build failed: disk full on /var.",
           "questions": {"q": {"type": "choice", "criteria": {"disk": None, "network": None, "cpu": None}},
                         "y": {"type": "noul", "instructions": "Is this an error?"}}}


def test_score_confidence_worked_check():
    assert round(score_confidence([0.005, 0.005, 0.04, 0.25, 0.70]), 4) == 0.6958


def test_confidence_edges():
    assert choice_confidence([0.25] * 4) == 0.0
    assert choice_confidence([1.0, 0.0, 0.0]) == 1.0
    assert choice_confidence([1.0]) == 1.0
    assert score_confidence([1.0, 0, 0, 0]) == 1.0
    assert score_confidence([0.5, 0, 0, 0.5]) == 0.0  # clamped at 0, never negative
    assert math.isclose(choice_confidence([0.7, 0.3]), 0.4)


def test_labels_are_single_tokens_in_context(smol):
    renderer: Renderer = smol.renderer
    tail = renderer.encode(renderer._tail)
    for labels, ids in [(["Yes", "No"], renderer.yes_no), ([str(i) for i in range(10)], renderer.levels),
                        (renderer.choice_labels, renderer.choice_ids)]:
        assert len(set(ids)) == len(ids)
        for label, token in zip(labels, ids):
            assert renderer.encode(renderer._tail + label) == tail + [token]
    assert len(renderer.choice_labels) == 255
    assert renderer.choice_labels[:26] == choice_label_candidates()[:26]  # A..Z first


def test_hf_directory_model_answers(tmp_path):
    directory = llama_with_smollm_tokenizer(tmp_path / "tiny")
    engine = Engine(str(directory), log=lambda _m: None)
    assert engine.info.id == "tiny"
    out = engine.decide(REQUEST)
    probs = out["answers"]["q"]["probabilities"]
    assert list(probs) == ["disk", "network", "cpu"] and math.isclose(sum(probs.values()), 1.0)
    assert out["model"] == "tiny"
    # A second engine over the same weights gives the same numbers (deterministic load and read).
    again = Engine(str(directory), log=lambda _m: None).decide(REQUEST)
    assert np.allclose(list(again["answers"]["q"]["probabilities"].values()), list(probs.values()), atol=1e-6)


def test_model_whose_labels_are_not_single_tokens_is_refused(tmp_path):
    directory = llama_with_char_tokenizer(tmp_path / "chars")
    with pytest.raises(LabelError, match="not distinct single tokens"):
        Engine(str(directory), log=lambda _m: None)


def test_unknown_model_name_says_what_works():
    with pytest.raises(models.ModelError, match="Hugging Face model directory"):
        models.resolve("no-such-model")


def test_state_longer_than_context_is_400(tmp_path):
    from onepass.errors import APIError

    engine = Engine(str(llama_with_smollm_tokenizer(tmp_path / "tiny", max_positions=1024)), log=lambda _m: None)
    with pytest.raises(APIError) as caught:
        engine.decide({**REQUEST, "state": "word " * 2000})
    assert caught.value.status == 400 and caught.value.error_type == "max_tokens_exceeded"
    assert "1024" in caught.value.message


def test_total_work_limit_and_in_process_bad_text(tmp_path):
    from onepass.errors import APIError, RequestInvalid

    directory = llama_with_smollm_tokenizer(tmp_path / "tiny")
    engine = Engine(str(directory), max_input_tokens=300, log=lambda _m: None)
    many = {f"q{i}": {"type": "noul", "instructions": f"Is this about topic number {i}?"} for i in range(40)}
    with pytest.raises(APIError) as caught:
        engine.decide({**REQUEST, "questions": many})
    assert caught.value.status == 400 and "at most 300" in caught.value.message
    assert engine.decide(REQUEST)["answers"]["q"]["type"] == "choice"  # a small request still fits
    with pytest.raises(RequestInvalid):
        engine.decide({**REQUEST, "state": "broken \ud800 text"})
    with pytest.raises(RequestInvalid):
        engine.decide({**REQUEST, "x_abstain_mass": 10 ** 400})
