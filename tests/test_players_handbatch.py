"""skat.players.handbatch: the hand strengths and contract features of many hands at once equal the one-hand
functions they follow, number for number."""

from __future__ import annotations

import random

import numpy as np
import pytest

from skat.players import handbatch
from skat.players.heuristic import hand_strength, null_risk
from skat.players.learned import contract_features


def _hands(n: int, size: int, seed: int) -> np.ndarray:
    rng = random.Random(seed)
    return np.array([sum(1 << c for c in rng.sample(range(32), size)) for _ in range(n)], dtype=np.int64)


@pytest.mark.parametrize("size", [10, 12])
def test_the_strengths_of_many_hands_are_the_heuristic_s(size: int) -> None:
    hands = _hands(3000, size, size)
    for gt in range(6):
        ours = handbatch.hand_strengths(hands, gt)
        assert ours.tolist() == [hand_strength(int(h), gt) for h in hands], gt
    assert handbatch.null_risks(hands).tolist() == [null_risk(int(h)) for h in hands]


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_contract_features_of_many_hands_are_the_learned_bidder_s(seat: int) -> None:
    hands = _hands(1500, 10, 7 + seat)
    for gt in range(6):
        for heard in (0, 36):
            ours = handbatch.contract_features_of(hands, gt, seat, heard)
            theirs = np.stack([contract_features(int(h), gt, seat, heard) for h in hands])
            assert ours.shape == theirs.shape and np.array_equal(ours, theirs), (gt, heard)


def test_popcount_and_points_of_masks() -> None:
    from skat.cards import mask_points

    masks = _hands(500, 9, 3) | (1 << 31)
    assert handbatch.popcount(masks).tolist() == [int(m).bit_count() for m in masks]
    assert handbatch.card_points(masks).tolist() == [mask_points(int(m)) for m in masks]
