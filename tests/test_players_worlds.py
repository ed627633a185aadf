"""World sampling never contradicts what a seat knows, and never uses what it cannot know."""

from __future__ import annotations

import random

import pytest

from skat.cards import ALL_CARDS, mask_of
from skat.deal.game import Game, Phase
from skat.players.heuristic import HeuristicPlayer
from skat.players.worlds import SKAT, Knowledge, World, sample_worlds
from skat.rules.ranking import FOLLOW_MASK


def _true_world(game: Game) -> World:
    if game.phase is Phase.DISCARD:
        skat = 0
    elif game.skat_taken and game.discard is not None:
        skat = game.discard
    else:
        skat = game.initial_skat
    return World(hands=(game._hands[0], game._hands[1], game._hands[2]), skat=skat)


def _shown_voids(game: Game) -> list[int]:
    """Suits each seat failed to follow, recomputed from the game's own trick history."""
    voids = [0, 0, 0]
    if game.contract is None:
        return voids
    gt = int(game.contract.game_type)
    tricks = [(ld, list(cs)) for ld, cs, _w in game.tricks]
    if game.trick:
        tricks.append((game.trick_leader, list(game.trick)))
    for leader, cards in tricks:
        follow = FOLLOW_MASK[gt][cards[0]]
        for i, c in enumerate(cards[1:], 1):
            if not follow >> c & 1:
                voids[(leader + i) % 3] |= follow
    return voids


def _played(game: Game) -> int:
    mask = 0
    for _ld, cs, _w in game.tricks:
        for c in cs:
            mask |= 1 << c
    for c in game.trick:
        mask |= 1 << c
    return mask


def _check_world(game: Game, seat: int, world: World) -> None:
    view = game.view(seat)
    assert world.hands[seat] == view.hand.mask, "a seat's own hand is never changed"
    for s in range(3):
        assert world.hands[s].bit_count() == view.hand_sizes[s], "hand sizes match"
    for s, cards in view.open_hands.items():
        assert world.hands[s] == cards.mask, "open hands are shown as they are"
    played = _played(game)
    union = world.hands[0] | world.hands[1] | world.hands[2] | world.skat
    assert union & played == 0 and union | played == ALL_CARDS, "every unplayed card is somewhere, once"
    assert sum(m.bit_count() for m in (*world.hands, world.skat)) + played.bit_count() == 32
    for s, void in enumerate(_shown_voids(game)):
        assert world.hands[s] & void == 0, f"seat {s} showed void but got a card of that suit"
    if seat == game.declarer and view.discard is not None:
        assert world.skat == view.discard.mask, "the declarer knows his discard"
    if game.phase is Phase.DISCARD:
        assert world.skat == 0


@pytest.mark.parametrize("seed", range(12))
def test_sampled_worlds_respect_every_fact_through_a_deal(seed: int) -> None:
    game = Game(seed=seed)
    players = [HeuristicPlayer(seed * 3 + s) for s in range(3)]
    rng = random.Random(seed)
    while not game.is_over:
        for seat in range(3):
            view = game.view(seat)
            know = Knowledge.from_view(view)
            assert know.consistent(_true_world(game)), "the real deal is always one of the possible worlds"
            for world in sample_worlds(view, 4, rng):
                assert know.consistent(world)
                _check_world(game, seat, world)
        mover = game.to_move
        game.apply(players[mover].choose(game.view(mover)), mover)


def test_sampling_does_not_depend_on_the_hidden_cards() -> None:
    # Seat 0's view is the same in both deals; the others' cards and the skat differ.
    own = "CJ SJ CA CT CK C9 HA HT S7 D8"
    a = Game(hands=[own, "HJ DJ C8 C7 HK HQ H9 SA ST SK", "H8 H7 SQ S9 S8 DA DT DK DQ D9"], skat="CQ D7")
    b = Game(hands=[own, "H8 H7 SQ S9 S8 DA DT DK DQ D9", "CQ D7 C8 C7 HK HQ H9 SA ST SK"], skat="HJ DJ")
    wa = sample_worlds(a.view(0), 20, random.Random(5))
    wb = sample_worlds(b.view(0), 20, random.Random(5))
    assert wa == wb
    # and the hidden cards really move between the places
    assert len({w.hands[1] for w in wa}) > 15


def test_a_void_shown_keeps_the_suit_out_of_that_hand() -> None:
    game = Game(hands=["CJ SJ HJ DJ CA CT CK CQ C9 H7", "HA HT HK HQ H9 H8 C8 SA ST SK",
                       "DA DT DK DQ D9 D8 D7 SQ S9 S8"], skat="C7 S7")
    for action in ("18", "hold", "pass", "pass", "declare clubs hand", "H7", "HA", "DA"):
        game.apply(action)
    # the declarer (seat 0) saw seat 2 discard on a heart lead: seat 2 has no heart
    view = game.view(0)
    hearts = mask_of("HT HK HQ H9 H8")
    for world in sample_worlds(view, 50, random.Random(1)):
        assert world.hands[2] & hearts == 0
        assert (world.hands[1] | world.skat) & hearts == hearts  # a hand game: the skat is unseen


def test_declarer_knows_the_skat_he_put_away() -> None:
    game = Game(seed=11)
    player = HeuristicPlayer(0)
    while game.phase is not Phase.PLAY and not game.is_over:
        mover = game.to_move
        game.apply(player.choose(game.view(mover)), mover)
    assert not game.is_over, "seed 11 is declared by the heuristic"
    declarer = game.declarer
    know = Knowledge.from_view(game.view(declarer))
    if game.skat_taken:
        assert know.known[SKAT] == game.discard
        for world in sample_worlds(game.view(declarer), 10, random.Random(2)):
            assert world.skat == game.discard
    defender = (declarer + 1) % 3
    skats = {w.skat for w in sample_worlds(game.view(defender), 30, random.Random(3))}
    assert len(skats) > 1, "a defender does not know the skat"


def _schieberamsch(seed: int, unseen: tuple[bool, bool, bool]) -> Game:
    """A Schieberamsch to the first card: everybody passes, each seat picks up (or, where ``unseen`` says, pushes the
    skat on unseen) and pushes two cards, the lowest it may."""
    from skat.rules.rulesets import get_ruleset

    game = Game(seed=seed, ruleset=get_ruleset("pub").replace(schieberamsch=True))
    while game.phase is not Phase.PLAY:
        seat = game.to_move
        legal = game.view(seat).legal_actions
        tokens = [str(a) for a in legal]
        wanted = ("pass" if "pass" in tokens else "push" if "push" in tokens and unseen[seat] else
                  "pickup" if "pickup" in tokens else tokens[0])
        game.apply(legal[tokens.index(wanted)], seat)
    return game


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("unseen", [(False, False, False), (False, True, False), (True, False, True)])
def test_a_schieberamsch_seat_knows_where_its_pushed_cards_went(seed: int, unseen: tuple[bool, bool, bool]) -> None:
    """Rearhand's push is the skat; middlehand's never went back to forehand; the real deal always fits."""
    game = _schieberamsch(seed, unseen)
    truth = World(hands=(game._hands[0], game._hands[1], game._hands[2]), skat=game._skat)
    for seat in range(3):
        view = game.view(seat)
        know = Knowledge.from_view(view)
        assert know.consistent(truth)
        pushed = view.discard.mask if view.discard else 0
        assert bool(pushed) == (not unseen[seat])
        worlds = sample_worlds(view, 20, random.Random(seed))
        assert all(know.consistent(w) for w in worlds)
        if seat == 2 and pushed:
            assert know.known[SKAT] == pushed == game._skat
            assert {w.skat for w in worlds} == {pushed}
        elif seat == 1 and pushed:
            assert not any(w.hands[0] & pushed for w in worlds)
            assert len({w.skat for w in worlds}) > 1  # rearhand may have kept them: the skat stays hidden
        else:
            assert know.known[SKAT] == 0


def _reference_deal(know: Knowledge, cards: list[int], allowed: dict[int, int], free: list[int],
                    rng: random.Random) -> World:
    """The dealing as it was written in Python before it was compiled (skat.players.dealing): Hall's condition
    checked over the patterns of places the undealt cards may go to."""
    subsets = range(1, 16)
    left = list(free)
    pattern_count: dict[int, int] = {}
    for c in cards:
        pattern_count[allowed[c]] = pattern_count.get(allowed[c], 0) + 1

    def feasible() -> bool:
        for subset in subsets:
            need = sum(n for pattern, n in pattern_count.items() if n and pattern & ~subset == 0)
            if need and need > sum(left[p] for p in range(4) if subset >> p & 1):
                return False
        return True

    places = list(know.known)
    order = list(cards)
    rng.shuffle(order)
    order.sort(key=lambda c: allowed[c].bit_count())
    for c in order:
        bits = allowed[c]
        pattern_count[bits] -= 1
        options, weights = [], []
        for p in range(4):
            if bits >> p & 1 and left[p] > 0:
                left[p] -= 1
                if len(pattern_count) == 1 or feasible():
                    options.append(p)
                    weights.append(left[p] + 1)
                left[p] += 1
        p = options[0] if len(options) == 1 else rng.choices(options, weights)[0]
        left[p] -= 1
        places[p] |= 1 << c
    return World(hands=(places[0], places[1], places[2]), skat=places[3])


def _knowledge_through_deals(ruleset: str, deals: int, schieberamsch: bool = False) -> list[Knowledge]:
    from skat.players.arena import new_game
    from skat.rules.rulesets import get_ruleset

    rules = get_ruleset(ruleset).replace(schieberamsch=True) if schieberamsch else get_ruleset(ruleset)
    out = []
    for seed in range(deals):
        game = new_game(seed, rules)
        players = [HeuristicPlayer(seed * 3 + s) for s in range(3)]
        while not game.is_over:
            mover = game.to_move
            out.append(Knowledge.from_view(game.view(mover)))
            game.apply(players[mover].choose(game.view(mover)), mover)
    return out


@pytest.mark.parametrize(("ruleset", "schieberamsch"), [("isko2018", False), ("pub", False), ("pub", True)])
def test_the_compiled_dealing_deals_the_worlds_the_python_dealing_dealt(ruleset: str, schieberamsch: bool) -> None:
    """Same seed, same worlds: the compiled loop draws as random.Random.choices did, card by card, through every
    phase of the deal (the auction, the discard, the play; under the pub rules a Ramsch when all pass, and a
    Schieberamsch's pushes)."""
    from skat.players import worlds

    checked = 0
    for k, know in enumerate(_knowledge_through_deals(ruleset, 6, schieberamsch)):
        cards = sorted((c for c in range(32) if know.hidden >> c & 1), key=lambda c: know.allowed(c).bit_count())
        allowed = {c: know.allowed(c) for c in cards}
        free = [know.capacity[p] - know.known[p].bit_count() for p in range(4)]
        for draw in range(3):
            ours = worlds._deal(know, cards, allowed, free, random.Random(k * 10 + draw))
            theirs = _reference_deal(know, cards, allowed, free, random.Random(k * 10 + draw))
            assert ours == theirs and know.consistent(ours)
            checked += 1
    assert checked > 300


def test_the_dealing_source_and_its_compiled_build_deal_alike() -> None:
    """The module's plain Python source (what runs without a C compiler) against what this install imports
    (compiled by setup.py where it could be): the same four places for the same seeds."""
    import importlib.util
    from pathlib import Path

    from skat.players import worlds

    source = Path(worlds.__file__).with_name("dealing.py")
    spec = importlib.util.spec_from_file_location("skat_dealing_source", source)
    assert spec is not None and spec.loader is not None
    plain = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plain)
    assert not plain.COMPILED
    for k, know in enumerate(_knowledge_through_deals("isko2018", 2)):
        cards = sorted((c for c in range(32) if know.hidden >> c & 1), key=lambda c: know.allowed(c).bit_count())
        by_card = [know.allowed(c) if know.hidden >> c & 1 else 0 for c in range(32)]
        free = [know.capacity[p] - know.known[p].bit_count() for p in range(4)]
        one = len({by_card[c] for c in cards}) == 1
        assert (worlds._dealing.deal_hidden(know.known, cards, by_card, free, one, random.Random(k))
                == plain.deal_hidden(know.known, cards, by_card, free, one, random.Random(k)))
    with pytest.raises(ValueError, match="contradicts itself"):
        worlds._dealing.deal_hidden((0, 0, 0, 0), [5], [0] * 32, [1, 0, 0, 0], False, random.Random(1))
