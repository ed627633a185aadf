"""The rules layer: pure functions and small value types, no I/O and no state."""

from skat.rules.bidding import BID_VALUES, Auction, AuctionError, is_valid_bid, next_bid
from skat.rules.contract import NULL_VALUES, Contract, DeclarationError, null_value
from skat.rules.ranking import GameType, display_order, legal_cards, trick_winner
from skat.rules.value import Outcome, evaluate, matadors

__all__ = [
    "BID_VALUES", "Auction", "AuctionError", "is_valid_bid", "next_bid",
    "NULL_VALUES", "Contract", "DeclarationError", "null_value",
    "GameType", "display_order", "legal_cards", "trick_winner",
    "Outcome", "evaluate", "matadors",
]
