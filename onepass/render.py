"""Prompts and label sets: each question becomes token ids after a shared, once-rendered state prefix.

The prompt is split in two token sequences, tokenised separately:
  prefix  = everything up to the end of the state (identical for every question about that state)
  suffix  = the question block plus the chat template's assistant header, ending at the answer position
so the backend can prefill the prefix once and read every question's next-token distribution after it.
Question ids never appear in either part.

Caller text is data: everything between the chat template's head and tail (state, instructions, option
names and descriptions, levels) is tokenised with special-token strings split into ordinary tokens, so
content that contains `<|im_end|>` cannot close its turn or answer for the model. Only the template's
own head and tail keep their real control tokens. Every backend reads these ids, so this holds for all.
"""

from __future__ import annotations

import json
import string
from dataclasses import dataclass
from itertools import product

from onepass.errors import OnepassError
from onepass.wire import (
    MAX_LEVELS,
    MAX_OPTIONS,
    ChoiceQuestion,
    NoulQuestion,
    Question,
    ScoreQuestion,
)

SYSTEM = (
    "You are a decision model. You read the content between <content> and </content>, then answer the "
    "question after it with exactly one of the allowed labels and nothing else."
)
SENTINEL = "\u0000ONEPASS-QUESTION\u0000"
YES_NO = ("Yes", "No")


class LabelError(OnepassError, ValueError):
    """The model's tokenizer cannot give every label its own single token at the answer position (422)."""

    status = 422
    error_type = "label_error"


def as_text(value: object) -> str:
    """Render an instruction, description or state value: strings verbatim, JSON values as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, indent=None, separators=(", ", ": "))


def state_text(state: object) -> str:
    if isinstance(state, str):
        return state
    return json.dumps(state, ensure_ascii=False, indent=2)


def choice_label_candidates() -> list[str]:
    """A..Z, then AA..ZZ: letters keep the familiar lettered-options format; two letters reach 255+."""
    singles = list(string.ascii_uppercase)
    return singles + ["".join(pair) for pair in product(string.ascii_uppercase, repeat=2)]


@dataclass(frozen=True)
class RenderedQuestion:
    suffix: list[int]  # token ids from the end of the state to the answer position
    labels: list[str]  # surface labels, in the question's own option/level order
    label_ids: list[int]  # one token id per label


class Renderer:
    """Renders states and questions for one tokenizer, with labels checked once per model."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer
        self._plain = _without_added_tokens(tokenizer)
        self.chat = bool(getattr(tokenizer, "chat_template", None))
        head, tail = self._template()
        self._head = head  # chat text before the state
        self._tail = tail  # chat text after the question: closes the user turn, opens the answer
        # Without a chat template the answer follows "Answer:", so labels carry the leading space.
        self._space = "" if self.chat else " "
        self.yes_no = self._resolve(list(YES_NO))
        self.levels = self._resolve([str(i) for i in range(MAX_LEVELS)])
        self.choice_labels, self.choice_ids = self._resolve_many(choice_label_candidates(), MAX_OPTIONS)

    # -- template ---------------------------------------------------------------------------------
    def _template(self) -> tuple[str, str]:
        if not self.chat:
            return f"{SYSTEM}\n\n", "\nAnswer:"
        messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": SENTINEL}]
        # enable_thinking=False switches off reasoning modes (Qwen3 and similar); other templates ignore it.
        text = self.tokenizer.apply_chat_template(
            messages, tokenize=False, add_generation_prompt=True, enable_thinking=False
        )
        head, tail = text.split(SENTINEL)
        return head, tail

    def encode(self, text: str) -> list[int]:
        """Caller or onepass text as plain text: the strings of added tokens (control tokens, tool-call
        markers; special or not) become ordinary tokens."""
        if self._plain is not None:
            return self._plain.encode(text, add_special_tokens=False).ids
        return self.tokenizer.encode(text, add_special_tokens=False, split_special_tokens=True)

    def _template_ids(self, text: str) -> list[int]:
        """The chat template's own head or tail, whose control tokens must stay real."""
        return self.tokenizer.encode(text, add_special_tokens=False)

    def _single_token(self, label: str) -> int | None:
        """The label's id if `tail + label` tokenises as `tail` plus exactly one token, else None."""
        base = self._template_ids(self._tail)
        ids = base + self.encode(self._space + label)
        whole = self._template_ids(self._tail + self._space + label)
        if whole != ids:  # the label would merge with the template's last token
            return None
        if len(ids) == len(base) + 1:
            return ids[-1]
        return None

    def _resolve(self, labels: list[str]) -> list[int]:
        ids = [self._single_token(label) for label in labels]
        bad = [label for label, i in zip(labels, ids) if i is None]
        if bad or len(set(ids)) != len(ids):
            raise LabelError(
                f"labels {bad or labels} are not distinct single tokens at the answer position for this "
                "tokenizer; this model cannot be read with the slot label scheme"
            )
        return ids  # type: ignore[return-value]

    def _resolve_many(self, candidates: list[str], need: int) -> tuple[list[str], list[int]]:
        labels, ids = [], []
        for label in candidates:
            token = self._single_token(label)
            if token is not None and token not in ids:
                labels.append(label)
                ids.append(token)
                if len(labels) == need:
                    break
        return labels, ids

    # -- rendering ------------------------------------------------------------------------------------
    def prefix(self, state: object) -> list[int]:
        return self._template_ids(self._head) + self.encode(f"<content>\n{state_text(state)}\n</content>\n\n")

    def _suffix(self, block: str) -> list[int]:
        return self.encode(block) + self._template_ids(self._tail)

    def question(self, q: Question, order: list[int] | None = None) -> RenderedQuestion:
        """The slot rendering. For a choice, `order` lists option indices in the order they are shown
        (default: as given); labels go to display positions, and the result's labels and ids are
        returned in the question's own option order."""
        if isinstance(q, NoulQuestion):
            block, labels, ids = self._noul(q), list(YES_NO), self.yes_no
        elif isinstance(q, ChoiceQuestion):
            n = len(q.criteria)
            if n > len(self.choice_labels):
                raise LabelError(
                    f"this model's tokenizer has single-token labels for {len(self.choice_labels)} options; "
                    f"the question has {n}"
                )
            order = list(range(n)) if order is None else order
            block = self._choice(q, self.choice_labels[:n], order)
            position = {option: shown for shown, option in enumerate(order)}
            labels = [self.choice_labels[position[i]] for i in range(n)]
            ids = [self.choice_ids[position[i]] for i in range(n)]
        elif isinstance(q, ScoreQuestion):
            n = len(q.criteria)
            labels, ids = [str(i) for i in range(n)], self.levels[:n]
            block = self._score(q)
        else:  # box and future types are refused before rendering
            raise TypeError(f"cannot render {type(q).__name__}")
        return RenderedQuestion(self._suffix(block), labels, list(ids))

    @staticmethod
    def _noul(q: NoulQuestion) -> str:
        lines = []
        if q.instructions is not None:
            lines.append(f"Question: {as_text(q.instructions)}")
        else:
            lines.append("Question: Does the content match the description below?")
        criteria = q.criteria
        if criteria is not None and criteria.true is not None:
            lines.append(f"Answer Yes if: {as_text(criteria.true)}")
        if criteria is not None and criteria.false is not None:
            lines.append(f"Answer No if: {as_text(criteria.false)}")
        lines.append("Answer with Yes or No.")
        return "\n".join(lines)

    @staticmethod
    def _choice(q: ChoiceQuestion, labels: list[str], order: list[int]) -> str:
        lines = [f"Question: {_instructions(q, 'Which option fits the content best?')}"]
        lines.append("Options:")
        items = list(q.criteria.items())
        for label, index in zip(labels, order):
            name, description = items[index]
            lines.append(f"{label}. {_option(name, description)}")
        lines.append(f"Answer with the label ({labels[0]}, {labels[1]}, ...) of the best option only.")
        return "\n".join(lines)

    @staticmethod
    def _score(q: ScoreQuestion) -> str:
        lines = [f"Question: {_instructions(q, 'Rate the content.')}"]
        lines.append("Levels:")
        for i, description in enumerate(q.criteria):
            lines.append(f"{i}: {as_text(description)}")
        lines.append(f"Answer with the level number (0 to {len(q.criteria) - 1}) only.")
        return "\n".join(lines)

    # -- isolated: every option judged alone -----------------------------------------------------------
    def isolated(self, q: ChoiceQuestion | ScoreQuestion) -> list[list[int]]:
        """One yes/no suffix per option (or level) in the question's order; no other option is visible."""
        suffixes = []
        if isinstance(q, ChoiceQuestion):
            head = f"Question: {_instructions(q, 'Which option fits the content best?')}"
            for name, description in q.criteria.items():
                block = f"{head}\nProposed answer: {_option(name, description)}\nIs the proposed answer the right one for the content? Answer with Yes or No."
                suffixes.append(self._suffix(block))
        else:
            head = f"Question: {_instructions(q, 'Rate the content.')}"
            top = len(q.criteria) - 1
            for i, description in enumerate(q.criteria):
                block = f"{head}\nProposed rating: level {i} on a scale from 0 to {top}, meaning: {as_text(description)}\nDoes this rating fit the content? Answer with Yes or No."
                suffixes.append(self._suffix(block))
        return suffixes

    # -- likelihood: each option's own text as the answer ------------------------------------------------
    def likelihood(self, q: Question) -> tuple[list[int], list[list[int]]]:
        """(context, one token sequence per option). Choice options are listed sorted by name, without
        labels, so the prompt does not depend on the request's order; each answer ends with the end-of-turn
        token so an option that is a prefix of another is not favoured."""
        if isinstance(q, NoulQuestion):
            block, answers = self._noul(q), list(YES_NO)
        elif isinstance(q, ChoiceQuestion):
            lines = [f"Question: {_instructions(q, 'Which option fits the content best?')}", "Options:"]
            lines += [f"- {_option(name, q.criteria[name])}" for name in sorted(q.criteria)]
            lines.append("Answer with the name of the best option only, exactly as written.")
            block, answers = "\n".join(lines), list(q.criteria)
        else:
            lines = [f"Question: {_instructions(q, 'Rate the content.')}", "Levels, from lowest to highest:"]
            lines += [f"- {as_text(d)}" for d in q.criteria]
            lines.append("Answer with the description of the right level only, exactly as written.")
            block, answers = "\n".join(lines), [as_text(d) for d in q.criteria]
        end = [self.tokenizer.eos_token_id] if self.chat and self.tokenizer.eos_token_id is not None else []
        options = [self.encode(self._space + answer) + end for answer in answers]
        return self._suffix(block), options


def _without_added_tokens(tokenizer):
    """The tokenizer's own normaliser, pre-tokeniser and vocabulary with no added tokens to match, so text
    tokenises as plain text; None for tokenizers without a `tokenizers` backend (they split special tokens
    through transformers instead). Text without added-token strings gets exactly the same ids."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is None:
        return None
    from tokenizers import Tokenizer

    spec = json.loads(backend.to_str())
    spec["added_tokens"] = []
    return Tokenizer.from_str(json.dumps(spec))


def _instructions(q, default: str) -> str:
    return as_text(q.instructions) if q.instructions is not None else default


def _option(name: str, description: object) -> str:
    return name + (f": {as_text(description)}" if description is not None else "")
