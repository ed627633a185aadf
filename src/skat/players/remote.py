"""A computer player in a seat of a ``skat serve`` table, over the table protocol (docs/protocol.md).

The server sends the seat's view as JSON; :func:`view_from_json` (:func:`skat.records.wire.seat_view_from_json`)
rebuilds the :class:`~skat.deal.game.SeatView` that a player's ``choose(view)`` takes, so any player of this
package, or a bot of one's own, can sit at a table on another machine and play with the same
code it uses in the arena:

    skat bot "http://host:8765/t/TABLE#token=TOKEN" --player strong --deals 12

The seat must be a person's seat (the link and token that ``skat serve`` or ``POST /api/tables``
hand out). The bot acts only on the views it receives, like a person in a browser.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from skat.deal.game import Phase
from skat.records.wire import action_token
from skat.records.wire import seat_view_from_json as view_from_json

__all__ = ["view_from_json", "TableAddress", "parse_table_link", "play_remote"]


@dataclass(frozen=True)
class TableAddress:
    """Where a seat is: the WebSocket URL of the table and the seat's secret token."""

    websocket_url: str
    table_id: str
    token: str


def parse_table_link(link: str, token: str | None = None) -> TableAddress:
    """A seat link as the server prints it (``http://host:port/t/TABLE#token=TOKEN``)."""
    parts = urlsplit(link)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"not a table link: {link!r}; expected http://host:port/t/TABLE#token=TOKEN")
    path = parts.path.rstrip("/").split("/")
    if len(path) < 3 or path[-2] != "t" or not path[-1]:
        raise ValueError(f"not a table link: {link!r}; the path must be /t/TABLE")
    fragment = dict(p.split("=", 1) for p in parts.fragment.split("&") if "=" in p)
    token = token or fragment.get("token")
    if not token:
        raise ValueError("the link has no seat token (#token=...): give the token of a person's seat")
    scheme = "wss" if parts.scheme == "https" else "ws"
    return TableAddress(f"{scheme}://{parts.netloc}/ws/{path[-1]}", path[-1], token)


async def play_remote(address: TableAddress, player: Any, deals: int | None = None,
                      log: Any = None) -> int:
    """Play the seat at ``address`` with ``player`` until ``deals`` deals have ended (or the table closes).

    Returns the number of deals that ended while the bot sat there. Between deals it says it is
    ready for the next one, as a person presses "next game".
    """
    import websockets

    def say(text: str) -> None:
        if log is not None:
            log(text)

    played: set[int] = set()  # deals seen being played
    ended: set[int] = set()
    ready_for: int | None = None  # the finished deal after which we said we are ready
    answered: tuple[int, int] | None = None  # (deal, seq) of the last state acted on
    refusal: str | None = None
    try:
        async with websockets.connect(address.websocket_url) as ws:
            try:
                await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": address.token}))
            except websockets.ConnectionClosed:
                pass  # refused at once (no such table): the reason is among the messages already received
            while True:
                message = json.loads(await ws.recv())
                kind = message.get("type")
                if kind == "error":
                    code = message.get("code")
                    if code in ("bad_token", "protocol", "hello_first", "no_table"):
                        refusal = str(message.get("message"))
                        break
                    say(f"server: {code}: {message.get('message')}")
                    continue
                if kind == "closed":
                    return len(ended)
                if kind == "welcome" and message.get("position") is None:
                    raise RuntimeError("the token is not a seat at this table (the server took us for a spectator)")
                if kind != "state" or message.get("view") is None:
                    continue
                view_json = message["view"]
                deal = message["table"]["deal_no"]
                if view_json["phase"] == Phase.FINISHED.value:
                    if deal in played and deal not in ended:
                        ended.add(deal)
                        say(f"deal {deal}: {(view_json.get('result') or {}).get('explanation', 'over')}")
                        if deals is not None and len(ended) >= deals:
                            return len(ended)
                    if ready_for != deal:
                        ready_for = deal
                        await ws.send(json.dumps({"type": "next_deal"}))
                    continue
                played.add(deal)
                seq = message["seq"]
                if view_json["to_move"] != view_json["seat"] or not view_json["legal_actions"] or answered == (deal, seq):
                    continue  # not our turn, or the same state again (another client joined)
                action = await asyncio.to_thread(player.choose, view_from_json(view_json))
                answered = (deal, seq)
                await ws.send(json.dumps({"type": "action", "action": action_token(action), "seq": seq}))
    except websockets.ConnectionClosed as exc:
        if refusal is None:
            raise RuntimeError(f"the server closed the connection ({exc})") from None
    raise RuntimeError(f"the server refused the seat: {refusal}")
