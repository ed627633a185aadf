"""A table's connections and its fan-out: who is connected, and every message sent to them.

Each connected browser or program is a :class:`Client` with its own ``send``; :class:`Connections` holds a
table's clients, keeps the table core's count of who is present (:meth:`skat.server.core.TableCore.arrive`)
and sends: every client its own state (built and encoded once per position), one message to all, or a
newcomer's first state. A client whose socket fails is dropped (it reconnects and gets a fresh state).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from skat.server.core import TableCore
from skat.server.messages import check_outgoing, checking

__all__ = ["Client", "Connections", "Sender", "encode_message"]

log = logging.getLogger("skat.server")

Sender = Callable[[dict[str, Any] | str], Awaitable[None]]
"""Sends one message to a client: a dict, or a JSON text already encoded."""



@dataclass(eq=False)
class Client:
    """One connected browser or program: a seat holder (``position``) or a spectator (None)."""

    send: Sender
    position: int | None
    name: str = ""


def encode_message(message: dict[str, Any]) -> str:
    """A message as the compact JSON text of a WebSocket frame (orjson: the server's hottest encoder); checked
    against the protocol's models first when :func:`skat.server.messages.checking` (the test suite)."""
    if checking():
        check_outgoing(message)
    return orjson.dumps(message).decode()


class Connections:
    """The clients connected to one table."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.clients: list[Client] = []

    def __iter__(self) -> Iterator[Client]:
        return iter(self.clients)

    def __len__(self) -> int:
        return len(self.clients)

    def __bool__(self) -> bool:
        return bool(self.clients)

    def __contains__(self, client: object) -> bool:
        return client in self.clients

    def add(self, client: Client) -> None:
        """A client joins (after its ``hello``)."""
        self.clients.append(client)
        self.core.arrive(client.position)

    def discard(self, client: Client) -> bool:
        """A client leaves; returns whether it was there."""
        if client not in self.clients:
            return False
        self.clients.remove(client)
        self.core.leave(client.position)
        return True

    async def send(self, client: Client, message: dict[str, Any] | str) -> None:
        """Send one client one message; a dropped socket drops the client."""
        try:
            await client.send(message)
        except Exception:  # a dropped socket: the client reconnects and gets a fresh state
            self.discard(client)

    async def states(self) -> None:
        """Send every connected client its own state (built and encoded once per position)."""
        if not self.clients:
            return  # a table held here whose people are connected to another server process
        info, memo = self.core.public_info(), dict[str, Any]()
        encoded: dict[int | None, str] = {}
        for client in list(self.clients):
            text = encoded.get(client.position)
            if text is None:
                text = encoded[client.position] = encode_message(self.core.state_for(client.position, info, memo))
            await self.send(client, text)

    async def everyone(self, message: dict[str, Any]) -> None:
        """Send every connected client the same message."""
        if not self.clients:
            return
        text = encode_message(message)
        for client in list(self.clients):
            await self.send(client, text)

    async def others(self, newcomer: Client, message: dict[str, Any]) -> None:
        """Send every client but ``newcomer`` the same message."""
        text = None
        for client in list(self.clients):
            if client is not newcomer:
                text = text or encode_message(message)
                await self.send(client, text)
