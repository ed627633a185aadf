"""The learned card-play model: a small network over one seat's view with a policy over the 32 cards and a value
head, run with numpy (no PyTorch at play time; ``tools/train_cardplay.py`` trains it).

Input: the observation of :func:`skat.players.encoding.encode_view` followed by the mask of the legal cards
(:func:`skat.players.encoding.legal_cards`). A multilayer perceptron (ReLU) feeds the policy; the value head has a smaller perceptron of its own over the
same input (trained on a shared trunk it made the policy worse: ``tools/train_cardplay.py --ablations``):

* **policy**: a logit per card; illegal cards get no weight (their probability is exactly 0);
* **value**: the declarer's chance to win the deal (a logit) and the declarer's expected card points (/ 120),
  whoever the seat is (the encoding says who the declarer is, relative to the seat).

The weights are one ``.npz`` file (float16 on disk, float32 in memory; its ``meta`` entry is a JSON text with the
layer sizes, the encoding's size and what the model was trained on). The shipped model is
``skat/data/card_model.npz`` (:func:`shipped_card_model`, trained on the solver's labels: the default of a searching
player or likelihood given none, as in the ablations of the days before, and ``learned``'s in Null games);
``strong`` and ``expert`` play with :data:`LEVEL_MODEL` (:func:`level_card_model`), the policy iteration's second round on
the values of ``strong``'s own playouts, and ``learned`` with :data:`LEARNED_MODEL` (:func:`learned_card_model`), its
third round.
"""

from __future__ import annotations

import functools
import itertools
import json
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from skat.players.encoding import OBSERVATION_SIZE, OFFSET, encode_view, legal_cards

__all__ = ["CardModel", "INPUT_SIZE", "features", "packaged_card_model", "shipped_card_model", "SHIPPED_MODEL",
           "LEVEL_MODEL", "level_card_model", "LEARNED_MODEL", "learned_card_model"]

INPUT_SIZE = OBSERVATION_SIZE + 32
"""The model's input: the observation, then the legal cards."""
SHIPPED_MODEL = "card_model.npz"
"""The file name of the shipped model in the package's data (trained on positions labelled by the solver)."""
LEVEL_MODEL = "card_model_playouts_2.npz"
"""The model ``strong`` and ``expert`` play with since the evening of 6 December 2026 (``learned`` until 7 December
2026): the second round of the policy iteration, trained beside the shipped model's corpora on two corpora of ``strong``'s own play, every legal
card labelled by the values of its playouts (``bench/data/cardplay-playouts-2``; docs/players.md, "The playouts teach the policy")."""
LEARNED_MODEL = "card_model_playouts_3.npz"
"""The model ``learned`` plays with since 7 December 2026: the policy iteration's third round, trained beside the
corpora of :data:`LEVEL_MODEL` on a corpus of ``strong``'s play with :data:`LEVEL_MODEL`, every legal card labelled by
the values of its playouts (``bench/data/cardplay-playouts-3``): ``learned`` with it +1.64 [+0.76, +2.51] SF points a
game over 4,000 deals against ``learned`` with :data:`LEVEL_MODEL` (docs/players.md)."""


def features(view: Any) -> np.ndarray:
    """The model's input for one seat's view (``float32``, :data:`INPUT_SIZE` values)."""
    return np.concatenate([encode_view(view), legal_cards(view).astype(np.float32)])


class CardModel:
    """The network's weights and its forward pass (numpy)."""

    def __init__(self, weights: dict[str, np.ndarray], meta: dict[str, Any] | None = None) -> None:
        self.hidden = [(weights[f"w{i}"].astype(np.float32), weights[f"b{i}"].astype(np.float32))
                       for i in range(_count_layers(weights))]
        self.value_hidden = [(weights[f"vw{i}"].astype(np.float32), weights[f"vb{i}"].astype(np.float32))
                             for i in range(_count_layers(weights, "vw"))]
        """The value head's own layers over the input (empty: it reads the policy's last hidden layer)."""
        self.policy_w = weights["policy_w"].astype(np.float32)
        self.policy_b = weights["policy_b"].astype(np.float32)
        self.value_w = weights["value_w"].astype(np.float32)
        self.value_b = weights["value_b"].astype(np.float32)
        self.meta = dict(meta or {})
        first = self.hidden[0][0] if self.hidden else self.policy_w
        if first.shape[0] != INPUT_SIZE:
            raise ValueError(f"the model reads {first.shape[0]} inputs, the encoding gives {INPUT_SIZE}: it was "
                             "trained on another encoding; train it again (tools/train_cardplay.py)")

    @classmethod
    def load(cls, path: str | Path) -> CardModel:
        """A model from its ``.npz`` file."""
        with np.load(path, allow_pickle=False) as data:
            weights = {k: data[k] for k in data.files if k != "meta"}
            meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
        return cls(weights, meta)

    def save(self, path: str | Path) -> None:
        """Write the model (float16 weights, the ``meta`` as JSON text)."""
        out: dict[str, Any] = {}
        for i, (w, b) in enumerate(self.hidden):
            out[f"w{i}"], out[f"b{i}"] = w.astype(np.float16), b.astype(np.float16)
        for i, (w, b) in enumerate(self.value_hidden):
            out[f"vw{i}"], out[f"vb{i}"] = w.astype(np.float16), b.astype(np.float16)
        out.update(policy_w=self.policy_w.astype(np.float16), policy_b=self.policy_b.astype(np.float16),
                   value_w=self.value_w.astype(np.float16), value_b=self.value_b.astype(np.float16),
                   meta=np.array(json.dumps(self.meta, sort_keys=True)))
        np.savez_compressed(path, **out)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Policy logits (n × 32, illegal cards at -inf) and value outputs (n × 2: the win logit, the points
        / 120) for inputs ``x`` (n × :data:`INPUT_SIZE`)."""
        with _one_blas_thread():
            return self._forward(x)

    def _forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = np.asarray(x, dtype=np.float32)
        legal = x[:, OBSERVATION_SIZE:] > 0.5
        h = x
        for w, b in self.hidden:
            h = np.maximum(h @ w + b, 0.0)
        logits = h @ self.policy_w + self.policy_b
        logits = np.where(legal, logits, -np.inf)
        if self.value_hidden:
            h = x
            for w, b in self.value_hidden:
                h = np.maximum(h @ w + b, 0.0)
        return logits, h @ self.value_w + self.value_b

    def policy_logits(self, x: np.ndarray) -> np.ndarray:
        """The policy's logits alone (n × 32, illegal cards at -inf): :meth:`forward` without the value head."""
        h = np.asarray(x, dtype=np.float32)
        legal = h[:, OBSERVATION_SIZE:] > 0.5
        with _one_blas_thread():
            for w, b in self.hidden:
                h = np.maximum(h @ w + b, 0.0)
            return np.where(legal, h @ self.policy_w + self.policy_b, -np.inf)

    def first_layer(self) -> tuple[np.ndarray, np.ndarray]:
        """The weights and bias of the first layer (:data:`INPUT_SIZE` rows): a caller that knows most of many inputs
        alike adds up their parts' products (``x @ w`` is linear in ``x``) and passes the sum plus the bias to
        :meth:`policy_logits_after_first`."""
        return self.hidden[0] if self.hidden else (self.policy_w, self.policy_b)

    def policy_logits_after_first(self, first: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """:meth:`policy_logits` from the first layer's sums ``first`` (n × its width, ``x @ w + b`` of
        :meth:`first_layer`) and the legal cards ``legal`` (n × 32, true where legal)."""
        h = np.asarray(first, dtype=np.float32)
        if not self.hidden:
            return np.where(legal, h, -np.inf)
        with _one_blas_thread():
            h = np.maximum(h, 0.0)
            for w, b in self.hidden[1:]:
                h = np.maximum(h @ w + b, 0.0)
            return np.where(legal, h @ self.policy_w + self.policy_b, -np.inf)

    @staticmethod
    def one_blas_thread() -> Any:
        """The context the forward passes run in (BLAS on one thread), for a caller's own products with
        :meth:`first_layer`."""
        return _one_blas_thread()

    def policy(self, view: Any) -> np.ndarray:
        """The chance of each of the 32 cards in this view (0 for every card not legal; sums to 1)."""
        return self.policies(features(view)[None, :])[0]

    def symmetric_policy(self, view: Any) -> np.ndarray:
        """:meth:`policy` averaged over the suit permutations that leave the game as it is (:func:`suit_symmetries`:
        6 in a suit game, 24 in grand and Null), each read back to the real cards: the network's answers to the same
        position told with other suits. One batched pass; the chance of a legal card only, as :meth:`policy`."""
        x = features(view)
        spans = suit_symmetries()[2]
        game = int(game_index(x[None, :])[0])
        if game not in spans:
            return self.policies(x[None, :])[0]
        in_maps, card_maps, _ = suit_symmetries()
        lo, hi = spans[game]
        p = self.policies(x[in_maps[lo:hi]])
        out = np.zeros(32, dtype=np.float64)
        np.add.at(out, card_maps[lo:hi].ravel(), p.ravel())
        return out / (hi - lo)

    def policies(self, x: np.ndarray) -> np.ndarray:
        """:meth:`policy` for a batch of inputs (n × :data:`INPUT_SIZE`)."""
        logits, _ = self.forward(x)
        top = logits.max(axis=1, keepdims=True)
        top = np.where(np.isfinite(top), top, 0.0)
        p = np.exp(logits - top)
        total = p.sum(axis=1, keepdims=True)
        return p / np.where(total > 0, total, 1.0)

    def value(self, view: Any) -> tuple[float, float]:
        """The declarer's chance to win and his expected card points, as the model sees this seat's view."""
        _, v = self.forward(features(view)[None, :])
        return float(1.0 / (1.0 + np.exp(-v[0, 0]))), float(v[0, 1] * 120.0)

    @property
    def size_bytes(self) -> int:
        """The weights' size as shipped (float16)."""
        arrays = [a for pair in (*self.hidden, *self.value_hidden) for a in pair] + [
            self.policy_w, self.policy_b, self.value_w, self.value_b]
        return sum(a.size * 2 for a in arrays)


JACK_RANK = 4
"""A jack's rank index within its suit (:mod:`skat.cards`: 7 8 9 T J Q K A)."""


@functools.lru_cache(maxsize=1)
def suit_symmetries() -> tuple[np.ndarray, np.ndarray, dict[int, tuple[int, int]]]:
    """The suit permutations that leave a game as it is, as index maps: the inputs' map (n × INPUT_SIZE), the
    cards' map (n × 32) and, by the game's index in the encoding (0-3 a suit game, 4 grand, 5 Null), the range
    of maps that game allows. Suit games: the three side suits in any order (the trump suit and the jacks stay);
    grand: the four suits (the jacks stay: they rank by suit); Null: the four suits with their jacks. ``new[j] =
    old[map[j]]`` for every card block of the input (hand, skat, discard, open, played, trick, legal), and the
    shown voids follow their suits."""
    card_blocks = [OFFSET["hand"] + 32 * k for k in range(10)] + [INPUT_SIZE - 32]
    inputs, cards, ranges = [], [], {}

    def add(perm: tuple[int, ...], move_jacks: bool) -> None:
        card_map = np.arange(32)
        for j in range(32):
            suit, rank = divmod(j, 8)
            if rank != JACK_RANK or move_jacks:
                card_map[j] = 8 * perm[suit] + rank
        in_map = np.arange(INPUT_SIZE)
        for base in card_blocks:
            in_map[base:base + 32] = base + card_map
        for seat in range(2):
            base = OFFSET["void"] + 5 * seat
            for suit in range(4):
                in_map[base + suit] = base + perm[suit]
        inputs.append(in_map)
        cards.append(card_map)

    for trump in range(4):  # suit games: the side suits permuted
        start = len(cards)
        sides = [s for s in range(4) if s != trump]
        for order in itertools.permutations(sides):
            mapping = list(range(4))
            for a, b in zip(sides, order, strict=True):
                mapping[a] = b
            add(tuple(mapping), move_jacks=False)
        ranges[trump] = (start, len(cards))
    for game, move_jacks in ((4, False), (5, True)):
        start = len(cards)
        for perm in itertools.permutations(range(4)):
            add(perm, move_jacks)
        ranges[game] = (start, len(cards))
    return np.stack(inputs), np.stack(cards), ranges


def game_index(x: np.ndarray) -> np.ndarray:
    """The game of each input row as the encoding's index (0-3 suit, 4 grand, 5 Null, 6 none)."""
    return x[:, OFFSET["game"]:OFFSET["game"] + 7].argmax(axis=1)


@functools.lru_cache(maxsize=1)
def _blas() -> Any:
    """threadpoolctl's controller of this process's BLAS libraries (made once: it looks them up)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def _one_blas_thread() -> Any:
    """A context in which BLAS runs on one thread: the model's matrices are small, and OpenBLAS's threads cost more
    CPU than they save (``learned``'s card: p95 8.3 ms with them, 0.3 ms without, beside a match on the other core)."""
    return _blas().limit(limits=1, user_api="blas")


def _count_layers(weights: dict[str, np.ndarray], prefix: str = "w") -> int:
    n = 0
    while f"{prefix}{n}" in weights:
        n += 1
    return n


@functools.lru_cache(maxsize=8)
def packaged_card_model(name: str) -> CardModel:
    """A model in the package's ``skat/data`` by file name (loaded once); FileNotFoundError when this install has
    none of that name."""
    path = resources.files("skat") / "data" / name
    if not path.is_file():
        raise FileNotFoundError(f"no card-play model at {path}; train one with tools/train_cardplay.py")
    with resources.as_file(path) as file:
        return CardModel.load(file)


def shipped_card_model() -> CardModel:
    """The shipped model (:data:`SHIPPED_MODEL` in ``skat/data``, loaded once): the solver's labels; ``learned``
    plays its Null games by it."""
    return packaged_card_model(SHIPPED_MODEL)


def level_card_model() -> CardModel:
    """The model ``strong`` and ``expert`` search and infer with (:data:`LEVEL_MODEL`, loaded once)."""
    return packaged_card_model(LEVEL_MODEL)


def learned_card_model() -> CardModel:
    """The model ``learned`` plays its suit and grand games by (:data:`LEARNED_MODEL`, loaded once)."""
    return packaged_card_model(LEARNED_MODEL)
