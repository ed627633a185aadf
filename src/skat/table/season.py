"""A club's season (the "Jahreswertung", docs/season.md): a ranking across the club's tournament evenings.

* A :class:`Season` has a name, a rule (:data:`RULES`: ``sum`` adds every evening's Seeger-Fabian points,
  ``best`` the best ``best`` of the evenings held), the club's members (each may be linked to an account by its
  id), the links the director set (an evening's player name -> a member) and the evenings, each a tournament's
  id, name and date with its standings (:class:`Result`: player, Seeger-Fabian points, place, games won and lost).
* An evening's player is the member whose name has the player's name key (:func:`name_key`: NFKC, case folded,
  NFKC again, the rule account names are compared by), or the member a link names (a link comes first), or the
  member whose linked account's name has that key (the names of accounts are given to :meth:`Season.ranking`).
  A player who is no member is listed by :meth:`Season.unmatched`, for the director to link or to add as a member;
  so is a second player of one evening who would be the same member (reason ``twice``): the first, the better
  placed, counts.
* :meth:`Season.ranking` ranks every member who played at least one evening: the points of each evening (None
  where absent), which evenings count (``sum``: every one played; ``best``: the ``best`` highest, the earlier
  evening first among equal points; Seeger-Fabian points may be negative, and fewer evenings than ``best`` all
  count), the total of the counted evenings, the evenings played and the best single evening.

Tie-break: a higher total, then more evenings played, then the better single evening; members equal in all three
share the place (1, 2, 2, 4), listed by name.

Every refusal is a :class:`SeasonError` whose :attr:`~SeasonError.code` says what is wrong (``bad_name``,
``bad_rule``, ``bad_date``, ``member_taken``, ``no_member``, ``evening_taken``, ``no_evening``, ``impossible``);
the server answers with that code.
"""

from __future__ import annotations

import datetime
import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from skat.errors import SkatError

__all__ = ["SeasonError", "name_key", "RULES", "Result", "Evening", "Member", "Unmatched", "SeasonStanding", "Season",
           "MAX_NAME", "MAX_SEASON_NAME", "MAX_MEMBERS", "MAX_EVENINGS", "MAX_BEST", "MAX_LINKS", "check_date",
           "check_rule"]

RULES = ("sum", "best")
"""``sum``: the Seeger-Fabian points of every evening; ``best``: of the best N evenings."""
MAX_NAME = 100
"""The longest name of a member or an evening's player."""
MAX_SEASON_NAME = 200
MAX_MEMBERS = 1000
MAX_EVENINGS = 200
MAX_LINKS = 4 * MAX_MEMBERS
MAX_BEST = MAX_EVENINGS
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class SeasonError(SkatError, ValueError):
    """A season, or a change of one, that cannot be: the message says why, :attr:`code` what (the server's error
    code: ``bad_name``, ``bad_rule``, ``bad_date``, ``member_taken``, ``no_member``, ``evening_taken``,
    ``no_evening``, ``impossible``)."""

    def __init__(self, message: str, code: str = "impossible") -> None:
        super().__init__(message)
        self.code = code


def name_key(name: str) -> str:
    """The key two names are compared by: NFKC, case folded, NFKC again (``"Ǆ"`` and ``"DŽ"``, ``"Straße"`` and
    ``"STRASSE"`` are one name). Account names (:mod:`skat.server.accounts`) and a season's members use it."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _name(value: Any, what: str, longest: int = MAX_NAME) -> str:
    """A name as kept (trimmed): text of 1 to ``longest`` characters without control characters."""
    if not isinstance(value, str):
        raise SeasonError(f"{what} is text, not {type(value).__name__}", "bad_name")
    value = value.strip()
    if not 1 <= len(value) <= longest:
        raise SeasonError(f"{what} has 1 to {longest} characters", "bad_name")
    if any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") for c in value):
        raise SeasonError(f"{what} may not hold control characters", "bad_name")
    return value


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SeasonError(f"{what} is a whole number, not {value!r}")
    return value


def check_date(value: Any) -> str:
    """An evening's date as ``YYYY-MM-DD`` (a real day)."""
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        raise SeasonError(f"an evening's date is written YYYY-MM-DD, not {str(value)[:30]!r}", "bad_date")
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        raise SeasonError(f"{value} is no day of the calendar", "bad_date") from None
    return value


def check_rule(rule: Any, best: Any = None) -> tuple[str, int | None]:
    """A rule and its N: ``("sum", None)`` or ``("best", N)`` with N from 1 to :data:`MAX_BEST`."""
    if rule not in RULES:
        raise SeasonError(f"a season's rule is 'sum' (every evening) or 'best' (the best N evenings), not "
                          f"{str(rule)[:30]!r}", "bad_rule")
    if rule == "sum":
        if best is not None:
            raise SeasonError("'best' is given with the rule 'best' only", "bad_rule")
        return "sum", None
    if isinstance(best, bool) or not isinstance(best, int) or not 1 <= best <= MAX_BEST:
        raise SeasonError(f"the rule 'best' counts the best N evenings: N is a whole number from 1 to {MAX_BEST}, "
                          f"not {str(best)[:30]}", "bad_rule")
    return "best", best


@dataclass(frozen=True)
class Result:
    """One player's result of an evening (a line of its tournament's ranking)."""

    player: str
    points: int
    """Seeger-Fabian points of the evening."""
    place: int
    won: int = 0
    lost: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "points": self.points, "place": self.place, "won": self.won, "lost": self.lost}

    @classmethod
    def from_json(cls, data: Any) -> Result:
        if not isinstance(data, Mapping):
            raise SeasonError("a result is an object with player, points and place")
        return cls(_name(data.get("player"), "a player's name"), _int(data.get("points"), "'points'"),
                   _int(data.get("place"), "'place'"), _int(data.get("won", 0), "'won'"), _int(data.get("lost", 0), "'lost'"))


@dataclass
class Evening:
    """A tournament evening of the season: its tournament's id, name and date, and its standings (best first)."""

    tournament: str
    name: str = ""
    date: str = ""
    results: list[Result] = field(default_factory=list)

    def to_json(self, results: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"tournament": self.tournament, "name": self.name, "date": self.date}
        if results:
            out["results"] = [r.to_json() for r in self.results]
        return out

    @classmethod
    def from_json(cls, data: Any) -> Evening:
        if not isinstance(data, Mapping):
            raise SeasonError("an evening is an object with its tournament, name, date and results")
        tournament = data.get("tournament")
        if not isinstance(tournament, str) or not tournament.strip() or len(tournament) > 64:
            raise SeasonError("an evening names its tournament's id")
        name = data.get("name", "")
        if not isinstance(name, str) or len(name) > MAX_SEASON_NAME:
            raise SeasonError(f"an evening's name is a text of at most {MAX_SEASON_NAME} characters", "bad_name")
        date = data.get("date", "")
        results = data.get("results", [])
        if not isinstance(results, list):
            raise SeasonError("an evening's 'results' is a list")
        return cls(tournament, name, check_date(date) if date else "", [Result.from_json(r) for r in results])


@dataclass
class Member:
    """A member of the club; ``account``: the id of the account linked to the member, if any."""

    name: str
    account: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "account": self.account}


@dataclass(frozen=True)
class Unmatched:
    """A player of evenings who is no member (``unknown``), or a second player of one evening who would be the
    same member as another (``twice``); ``evenings`` numbers them from 1."""

    player: str
    evenings: tuple[int, ...]
    reason: str = "unknown"

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "evenings": list(self.evenings), "reason": self.reason}


@dataclass(frozen=True)
class SeasonStanding:
    """A line of the season's ranking."""

    rank: int
    member: str
    points: tuple[int | None, ...]
    """The Seeger-Fabian points of each evening (None where the member did not play)."""
    counted: tuple[bool, ...]
    """Whether each evening counts for the total."""
    total: int
    played: int
    best: int
    """The best single evening's points."""
    account: str | None = None
    """The id of the member's account, if linked."""

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "member": self.member, "account": self.account, "points": list(self.points),
                "counted": list(self.counted), "total": self.total, "played": self.played, "best": self.best}


def _counted(points: Sequence[int | None], rule: str, best: int | None) -> tuple[bool, ...]:
    """Which evenings count: every one played (``sum``), or the ``best`` highest (earlier first among equals)."""
    played = [i for i, p in enumerate(points) if p is not None]
    if rule == "best" and best is not None and len(played) > best:
        played = sorted(played, key=lambda i: (-(points[i] or 0), i))[:best]
    chosen = set(played)
    return tuple(i in chosen for i in range(len(points)))


class Season:
    """A club's season: its rule, members, links and evenings, and the ranking across the evenings."""

    def __init__(self, name: str = "", rule: str = "sum", best: int | None = None) -> None:
        if not isinstance(name, str):
            raise SeasonError("a season's name is text", "bad_name")
        self.name = _name(name, "a season's name", MAX_SEASON_NAME) if name.strip() else ""
        self.rule, self.best = check_rule(rule, best)
        self.members: list[Member] = []
        self.links: dict[str, str] = {}
        """An evening's player name (as typed at the evening) -> the member's name."""
        self.evenings: list[Evening] = []

    # ------------------------------------------------------------------ the rule
    def set_rule(self, rule: str, best: int | None = None) -> None:
        self.rule, self.best = check_rule(rule, best)

    def rename(self, name: str) -> None:
        self.name = _name(name, "a season's name", MAX_SEASON_NAME)

    # ------------------------------------------------------------------ members
    def member(self, name: str) -> Member:
        """The member of a name (compared by :func:`name_key`)."""
        key = name_key(name.strip()) if isinstance(name, str) else None
        for m in self.members:
            if name_key(m.name) == key:
                return m
        raise SeasonError(f"{str(name)[:MAX_NAME]!r} is no member of the season", "no_member")

    def add_member(self, name: str, account: str | None = None) -> Member:
        """A new member (``account``: the id of an account to link); a name is one member's only."""
        name = _name(name, "a member's name")
        key = name_key(name)
        if any(name_key(m.name) == key for m in self.members):
            raise SeasonError(f"{name} is a member already (names are compared ignoring case and width)", "member_taken")
        if len(self.members) >= MAX_MEMBERS:
            raise SeasonError(f"a season has at most {MAX_MEMBERS} members")
        member = Member(name, account)
        self.members.append(member)
        return member

    def remove_member(self, name: str) -> None:
        """Remove a member and the links to the member."""
        member = self.member(name)
        self.members.remove(member)
        self.links = {p: m for p, m in self.links.items() if m != member.name}

    def link_account(self, name: str, account: str | None) -> None:
        """Link the member to an account (by its id), or unlink it (None)."""
        if account is not None and (not isinstance(account, str) or not account or len(account) > 64):
            raise SeasonError("an account is linked by its id")
        self.member(name).account = account

    def link(self, player: str, member: str) -> None:
        """The evening's player of this name is the member (at every evening of the season)."""
        player = _name(player, "a player's name")
        target = self.member(member)
        key = name_key(player)
        links = {p: m for p, m in self.links.items() if name_key(p) != key}
        if len(links) >= MAX_LINKS:
            raise SeasonError(f"a season holds at most {MAX_LINKS} links")
        links[player] = target.name
        self.links = links

    def unlink(self, player: str) -> None:
        key = name_key(_name(player, "a player's name"))
        kept = {p: m for p, m in self.links.items() if name_key(p) != key}
        if len(kept) == len(self.links):
            raise SeasonError(f"{player} is linked to no member", "no_member")
        self.links = kept

    # ------------------------------------------------------------------ evenings
    def add_evening(self, evening: Evening) -> Evening:
        """Add an evening, in the order of the dates (an evening without a date, or on the same day, after)."""
        if any(e.tournament == evening.tournament for e in self.evenings):
            raise SeasonError(f"the tournament {evening.tournament} is an evening of this season already",
                              "evening_taken")
        if len(self.evenings) >= MAX_EVENINGS:
            raise SeasonError(f"a season has at most {MAX_EVENINGS} evenings")
        if evening.date:
            check_date(evening.date)
        at = len(self.evenings)
        while at > 0 and evening.date and self.evenings[at - 1].date > evening.date:
            at -= 1
        self.evenings.insert(at, evening)
        return evening

    def evening(self, tournament: str) -> Evening:
        for e in self.evenings:
            if e.tournament == tournament:
                return e
        raise SeasonError(f"the tournament {str(tournament)[:64]} is no evening of this season", "no_evening")

    def remove_evening(self, tournament: str) -> None:
        self.evenings.remove(self.evening(tournament))

    # ------------------------------------------------------------------ matching
    def _keys(self, accounts: Mapping[str, str] | None) -> dict[str, Member]:
        """Name key -> member: the accounts' names, then the members' names, then the links (the later wins)."""
        by_name = {m.name: m for m in self.members}
        keys: dict[str, Member] = {}
        for m in self.members:
            account_name = accounts.get(m.account) if accounts and m.account else None
            if account_name:
                keys.setdefault(name_key(account_name), m)
        for m in self.members:
            keys[name_key(m.name)] = m
        for player, name in self.links.items():
            if name in by_name:
                keys[name_key(player)] = by_name[name]
        return keys

    def member_of(self, player: str, accounts: Mapping[str, str] | None = None) -> Member | None:
        """The member an evening's player is (None: no member)."""
        return self._keys(accounts).get(name_key(player))

    def _match(self, accounts: Mapping[str, str] | None) -> tuple[dict[str, list[int | None]], list[Unmatched]]:
        keys = self._keys(accounts)
        points: dict[str, list[int | None]] = {m.name: [None] * len(self.evenings) for m in self.members}
        missing: dict[tuple[str, str], tuple[str, list[int]]] = {}
        for number, evening in enumerate(self.evenings):
            for r in sorted(evening.results, key=lambda r: r.place):
                member = keys.get(name_key(r.player))
                reason = "unknown" if member is None else "twice" if points[member.name][number] is not None else ""
                if not reason:
                    assert member is not None
                    points[member.name][number] = r.points
                    continue
                entry = missing.setdefault((name_key(r.player), reason), (r.player, []))
                if number + 1 not in entry[1]:
                    entry[1].append(number + 1)
        unmatched = [Unmatched(player, tuple(evenings), reason) for (_, reason), (player, evenings) in missing.items()]
        unmatched.sort(key=lambda u: (u.reason != "unknown", name_key(u.player)))
        return points, unmatched

    def unmatched(self, accounts: Mapping[str, str] | None = None) -> list[Unmatched]:
        """The evenings' players who are no member (or a member twice in one evening), by name."""
        return self._match(accounts)[1]

    # ------------------------------------------------------------------ the ranking
    def ranking(self, accounts: Mapping[str, str] | None = None) -> list[SeasonStanding]:
        """Every member who played an evening, best first (rule and tie-break: the module's docstring).
        ``accounts`` maps account ids to their names: a player under a linked account's name is its member."""
        points, _ = self._match(accounts)
        lines = []
        for m in self.members:
            per = points[m.name]
            played = [p for p in per if p is not None]
            if not played:
                continue
            counted = _counted(per, self.rule, self.best)
            total = sum(p for p, c in zip(per, counted, strict=True) if c and p is not None)
            lines.append(SeasonStanding(0, m.name, tuple(per), counted, total, len(played), max(played), m.account))

        def key(s: SeasonStanding) -> tuple[int, int, int]:
            return (-s.total, -s.played, -s.best)

        lines.sort(key=lambda s: (key(s), name_key(s.member)))
        out: list[SeasonStanding] = []
        for i, s in enumerate(lines):
            rank = out[-1].rank if out and key(lines[i - 1]) == key(s) else i + 1
            out.append(SeasonStanding(rank, s.member, s.points, s.counted, s.total, s.played, s.best, s.account))
        return out

    # ------------------------------------------------------------------ JSON
    def to_json(self, results: bool = True) -> dict[str, Any]:
        """``name``, ``rule``, ``best``, ``members``, ``links`` and ``evenings`` (without their ``results`` if
        ``results`` is false: the server reads them from the tournaments)."""
        return {"name": self.name, "rule": self.rule, "best": self.best,
                "members": [m.to_json() for m in self.members],
                "links": [{"player": p, "member": m} for p, m in self.links.items()],
                "evenings": [e.to_json(results) for e in self.evenings]}

    @classmethod
    def from_json(cls, data: Any) -> Season:
        if not isinstance(data, Mapping):
            raise SeasonError("a season is an object with its name, rule, members, links and evenings")
        name = data.get("name", "")
        if not isinstance(name, str):
            raise SeasonError("a season's name is text", "bad_name")
        season = cls(name, data.get("rule", "sum"), data.get("best"))
        for what in ("members", "links", "evenings"):
            if not isinstance(data.get(what, []), list):
                raise SeasonError(f"a season's {what!r} is a list")
        for raw in data.get("members", []):
            if not isinstance(raw, Mapping):
                raise SeasonError("a member is an object with a name and an account (or null)")
            account = raw.get("account")
            if account is not None and not isinstance(account, str):
                raise SeasonError("a member's account is an account's id, or null")
            season.add_member(raw.get("name"), account)  # type: ignore[arg-type]  # checked there
        for raw in data.get("links", []):
            if not isinstance(raw, Mapping):
                raise SeasonError("a link is an object with a player and a member")
            season.link(raw.get("player"), raw.get("member"))  # type: ignore[arg-type]  # checked there
        for raw in data.get("evenings", []):
            season.add_evening(Evening.from_json(raw))
        return season

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    @classmethod
    def from_json_text(cls, text: str) -> Season:
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            raise SeasonError(f"not valid JSON ({exc})") from None
