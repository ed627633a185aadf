"""Typed, ranged options, declared once and checked wherever they enter.

A frozen dataclass of options (:class:`skat.rules.rulesets.RuleSet`,
:class:`skat.variants.officers.options.OfficersOptions`) declares every field with one of :func:`flag`,
:func:`number`, :func:`choice`, :func:`text`, :func:`numbers` or :func:`names`. That puts the
option's type, its range or choices and its documentation into the field's metadata, one
:class:`Option`. A :class:`Schema` reads them back and serves every entry point alike:

* Python and JSON (:meth:`Schema.check`, :meth:`Schema.validate`): strict types, so ``1`` is not
  ``true``, ``true`` is not a number and ``2.0`` is not a whole number; lists become tuples.
* The command line (:meth:`Schema.parse`, :meth:`Schema.parse_assignments`): ``kontra=yes``,
  ``schneider_points=91``, ``bid_values=18,20,22``, each converted by the option's type.
* Documentation (:meth:`Schema.describe`): value, accepted values and doc of every option.

Every refusal is an :class:`OptionError` (a ValueError) that names the option and says what it
accepts.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["OPTION", "Option", "OptionError", "Schema", "flag", "number", "choice", "text", "numbers", "names"]

OPTION = "skat.option"
"""The key of a field's metadata that holds its :class:`Option`."""

KINDS = ("bool", "int", "choice", "text", "ints", "names")
"""``bool``; ``int`` (a whole number in a range); ``choice`` (one word of a list); ``text``; ``ints``
(a tuple of whole numbers); ``names`` (a tuple of distinct words of a list)."""

_TRUE = ("true", "yes", "1")
_FALSE = ("false", "no", "0")
_INT_TEXT = re.compile(r"[+-]?\d{1,40}")


class OptionError(ValueError):
    """An unknown option, or a value of the wrong type or out of range.

    ``option`` is the option's name (None when the request as a whole is malformed) and
    ``accepts`` says what the option takes.
    """

    def __init__(self, message: str, option: str | None = None, accepts: str | None = None) -> None:
        super().__init__(message)
        self.option = option
        self.accepts = accepts


@dataclass(frozen=True)
class Option:
    """One option's type, range or choices, and documentation (kept in a dataclass field's metadata)."""

    kind: str
    """One of :data:`KINDS`."""
    doc: str
    """What the option means (one paragraph)."""
    low: int | None = None
    """``int``/``ints``: the smallest whole number allowed."""
    high: int | None = None
    """``int``/``ints``: the largest whole number allowed."""
    choices: tuple[str, ...] = ()
    """``choice``/``names``: the words allowed."""
    length: int | None = None
    """``ints``/``names``: the exact number of items, if fixed."""
    min_length: int = 0
    """``text``/``ints``/``names``: the fewest characters or items."""
    max_length: int | None = None
    """``text``/``ints``/``names``: the most characters or items."""
    increasing: bool = False
    """``ints``: the numbers must rise strictly."""
    rule: str | None = None
    """Says in words what the option accepts, instead of the description made from the fields above."""
    test: Callable[[Any], str | None] | None = None
    """A further test of a value that passed the others: returns what is wrong with it, or None."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise TypeError(f"unknown option kind {self.kind!r}; one of {', '.join(KINDS)}")
        if self.kind in ("choice", "names") and not self.choices:
            raise TypeError(f"a {self.kind} option needs its choices")
        if self.kind in ("int", "ints") and (self.low is None or self.high is None):
            raise TypeError(f"an {self.kind} option needs its range (low and high)")

    # ------------------------------------------------------------------ words
    def accepts(self) -> str:
        """What the option accepts, in words (for error messages and ``skat rules show``)."""
        if self.rule:
            return self.rule
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            return f"a whole number from {self.low} to {self.high}"
        if self.kind == "choice":
            return f"one of {', '.join(self.choices)}"
        if self.kind == "text":
            least = "non-empty text" if self.min_length else "text"
            return f"{least} of at most {self.max_length} characters" if self.max_length else least
        count = self._count_words()
        if self.kind == "ints":
            rising = ", strictly increasing" if self.increasing else ""
            return f"{count} whole numbers from {self.low} to {self.high}{rising}"
        return f"{count} distinct names from {', '.join(self.choices)}"

    def short(self) -> str:
        """What the option accepts, briefly (a column of ``skat rules show``; :meth:`accepts` says it all)."""
        if self.kind == "bool":
            return "true, false"
        if self.kind == "int":
            return f"{self.low} to {self.high}"
        if self.kind == "choice":
            return ", ".join(self.choices)
        if self.kind == "text":
            return f"text, up to {self.max_length} characters" if self.max_length else "text"
        if self.kind == "ints":
            rising = ", rising" if self.increasing else ""
            return f"{self._count_words()} numbers, {self.low} to {self.high}{rising}"
        return "any of " + ", ".join(self.choices)

    def _count_words(self) -> str:
        if self.length is not None:
            return str(self.length)
        if self.max_length is not None:
            return f"{self.min_length} to {self.max_length}"
        return f"at least {self.min_length}" if self.min_length else "any number of"

    def allowed(self) -> dict[str, Any]:
        """The constraints, JSON-ready (for machines: ``skat rules show --json``)."""
        out: dict[str, Any] = {"type": self.kind, "accepts": self.accepts(), "short": self.short()}
        for key in ("low", "high", "length", "max_length"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.min_length:
            out["min_length"] = self.min_length
        if self.choices:
            out["choices"] = list(self.choices)
        if self.increasing:
            out["increasing"] = True
        return out

    # ------------------------------------------------------------------ checks
    def check(self, value: Any) -> Any:
        """The value, normalised (a list becomes a tuple); raises ValueError saying what is wrong."""
        kind = self.kind
        if kind == "bool":
            if not isinstance(value, bool):
                raise ValueError("")
        elif kind == "int":
            self._check_int(value)
        elif kind == "choice":
            if not isinstance(value, str) or value not in self.choices:
                raise ValueError("")
        elif kind == "text":
            if not isinstance(value, str):
                raise ValueError("")
            if len(value) < self.min_length or (self.max_length is not None and len(value) > self.max_length):
                raise ValueError(f"it has {len(value)} characters")
        else:
            value = self._check_items(value)
        if self.test is not None:
            why = self.test(value)
            if why:
                raise ValueError(why)
        return value

    def _check_int(self, value: Any) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError("")
        assert self.low is not None and self.high is not None
        if not self.low <= value <= self.high:
            raise ValueError("")

    def _check_items(self, value: Any) -> tuple[Any, ...]:
        if not isinstance(value, (list, tuple)):
            raise ValueError("")
        n = len(value)
        if self.length is not None and n != self.length:
            raise ValueError(f"it has {n} item{'s' if n != 1 else ''}")
        if n < self.min_length or (self.max_length is not None and n > self.max_length):
            raise ValueError(f"it has {n} item{'s' if n != 1 else ''}")
        for item in value:
            if self.kind == "ints":
                try:
                    self._check_int(item)
                except ValueError:
                    raise ValueError(f"{_shown(item)} is not a whole number from {self.low} to {self.high}") from None
            elif not isinstance(item, str) or item not in self.choices:
                raise ValueError(f"{_shown(item)} is not one of them")
        if self.kind == "ints" and self.increasing:
            for a, b in zip(value, value[1:]):
                if b <= a:
                    raise ValueError(f"{b} does not rise above {a}")
        if self.kind == "names" and len(set(value)) != n:
            twice = next(x for x in value if value.count(x) > 1)
            raise ValueError(f"{twice} is named twice")
        return value if isinstance(value, tuple) else tuple(value)

    # ------------------------------------------------------------------ command line
    def parse(self, raw: str) -> Any:
        """A value from command-line text, converted by the option's type (not yet range-checked)."""
        word = raw.strip()
        if self.kind == "bool":
            low = word.lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise ValueError("")
        if self.kind == "int":
            return _parse_int(word)
        if self.kind in ("choice", "text"):
            return word
        if word.startswith("[") and word.endswith("]"):
            word = word[1:-1]
        parts = [p.strip() for p in word.split(",")] if word.strip() else []
        if self.kind == "ints":
            return tuple(_parse_int(p) for p in parts)
        return tuple(parts)

    def command_line_form(self, example: Any) -> str:
        """How the option is written after ``--set NAME=`` (for error messages)."""
        if self.kind == "bool":
            return "true/false, yes/no or 1/0"
        if self.kind in ("ints", "names"):
            if not example:
                return "comma-separated, or empty for none"
            return "comma-separated, e.g. " + ",".join(str(x) for x in example[:3])
        return ""


def _parse_int(word: str) -> int:
    if not _INT_TEXT.fullmatch(word.strip()):
        raise ValueError(f"{word!r} is not a whole number")
    return int(word)


def _shown(value: Any, limit: int = 60) -> str:
    """A value as JSON would write it, cut short when long."""
    try:
        out = json.dumps(list(value) if isinstance(value, tuple) else value, ensure_ascii=False)
    except (TypeError, ValueError):
        out = repr(value)
    if len(out) <= limit:
        return out
    return out[: limit - 5] + " ...]" if out.startswith("[") else out[: limit - 4] + " ..."


# ---------------------------------------------------------------------- declaring fields
def _field(default: Any, option: Option) -> Any:
    return dataclasses.field(default=default, metadata={OPTION: option})


def flag(default: bool, doc: str) -> Any:
    """A true/false option."""
    return _field(default, Option("bool", doc))


def number(default: int, low: int, high: int, doc: str, *, rule: str | None = None) -> Any:
    """A whole number from ``low`` to ``high``."""
    return _field(default, Option("int", doc, low=low, high=high, rule=rule))


def choice(default: str, choices: Sequence[str], doc: str) -> Any:
    """One word of ``choices``."""
    return _field(default, Option("choice", doc, choices=tuple(choices)))


def text(default: str, doc: str, *, min_length: int = 0, max_length: int | None = 200) -> Any:
    """A text (names and descriptions)."""
    return _field(default, Option("text", doc, min_length=min_length, max_length=max_length))


def numbers(default: tuple[int, ...], low: int, high: int, doc: str, *, length: int | None = None,
            min_length: int = 0, max_length: int | None = None, increasing: bool = False, rule: str | None = None,
            test: Callable[[Any], str | None] | None = None) -> Any:
    """A tuple of whole numbers from ``low`` to ``high`` (a list in JSON, comma-separated on the command line)."""
    return _field(default, Option("ints", doc, low=low, high=high, length=length, min_length=min_length,
                                  max_length=max_length, increasing=increasing, rule=rule, test=test))


def names(default: tuple[str, ...], choices: Sequence[str], doc: str, *, rule: str | None = None) -> Any:
    """A tuple of distinct words of ``choices``."""
    choices = tuple(choices)
    return _field(default, Option("names", doc, choices=choices, max_length=len(choices), rule=rule))


# ---------------------------------------------------------------------- the schema
class Schema:
    """The options of a dataclass, read from its fields' metadata; every field must have an :class:`Option`.

    ``label`` names an option in messages (``rule option``); ``error`` is the exception raised.
    """

    def __init__(self, cls: type, label: str, error: type[OptionError] = OptionError) -> None:
        missing = [f.name for f in dataclasses.fields(cls) if OPTION not in f.metadata]
        if missing:
            raise TypeError(f"{cls.__name__} field(s) {', '.join(missing)} lack a schema entry "
                            f"(declare them with skat.schema.flag/number/choice/text/numbers/names)")
        self.cls = cls
        self.label = label
        self.error = error
        self.options: dict[str, Option] = {f.name: f.metadata[OPTION] for f in dataclasses.fields(cls)}
        self.defaults: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(cls)}

    # ------------------------------------------------------------------ errors
    def fail(self, name: str, value: Any, why: str = "") -> OptionError:
        """The error for a refused value of option ``name``: it names the option and what it accepts."""
        option = self.options[name]
        accepts = option.accepts()
        if why:
            return self.error(f"{self.label} {name}={_shown(value)}: {why}; it takes {accepts}", name, accepts)
        return self.error(f"{self.label} {name} takes {accepts}, not {_shown(value)}", name, accepts)

    def refuse_unknown(self, given: Iterable[str]) -> None:
        """Raise for names that are no option (with the closest option when one is near)."""
        unknown = [str(n) for n in given if n not in self.options]
        if not unknown:
            return
        hint = ""
        if len(unknown) == 1:
            near = difflib.get_close_matches(unknown[0], self.options, n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
        raise self.error(f"unknown {self.label}(s) {', '.join(sorted(unknown))}{hint}; "
                         f"known: {', '.join(sorted(self.options))}", unknown[0] if len(unknown) == 1 else None)

    # ------------------------------------------------------------------ checks
    def check(self, name: str, value: Any) -> Any:
        """``value`` for option ``name``, normalised; raises :attr:`error` for an unknown name or a bad value."""
        if name not in self.options:
            self.refuse_unknown([name])
        try:
            return self.options[name].check(value)
        except ValueError as exc:
            raise self.fail(name, value, str(exc)) from None

    def check_changes(self, changes: Mapping[str, Any]) -> dict[str, Any]:
        """A mapping of options (from JSON or keywords), every name and value checked, values normalised."""
        if not isinstance(changes, Mapping):
            raise self.error(f"the {self.label}s are an object of name: value pairs, not {_shown(changes)}")
        self.refuse_unknown(changes)
        return {name: self.check(name, value) for name, value in changes.items()}

    def validate(self, instance: Any) -> None:
        """Check every field of a (frozen) instance, storing the normalised values (call it in ``__post_init__``)."""
        for name, option in self.options.items():
            value = getattr(instance, name)
            try:
                clean = option.check(value)
            except ValueError as exc:
                raise self.fail(name, value, str(exc)) from None
            if clean is not value:
                object.__setattr__(instance, name, clean)

    # ------------------------------------------------------------------ command line
    def parse(self, name: str, raw: str) -> Any:
        """Option ``name`` from command-line text: converted by its type, then checked."""
        if name not in self.options:
            self.refuse_unknown([name])
        option = self.options[name]
        try:
            value = option.parse(raw)
        except ValueError as exc:
            form = option.command_line_form(self.defaults[name])
            how = f" (written {form})" if form else ""
            why = f": {exc}" if str(exc) else ""
            raise self.error(f"{self.label} {name} takes {option.accepts()}{how}, not {_shown(raw)}{why}",
                             name, option.accepts()) from None
        try:
            return option.check(value)
        except ValueError as exc:
            form = option.command_line_form(self.defaults[name])
            err = self.fail(name, value, str(exc))
            if form:
                err = self.error(f"{err} (written {form})", name, option.accepts())
            raise err from None

    def parse_assignments(self, pairs: Sequence[str], flag_name: str = "--set") -> dict[str, Any]:
        """``["kontra=yes", "bid_values=18,20"]`` -> checked values by name (a later pair wins)."""
        out: dict[str, Any] = {}
        for pair in pairs:
            name, sep, raw = pair.partition("=")
            name = name.strip()
            if not sep or not name:
                raise self.error(f"{flag_name} expects OPTION=VALUE, got {pair!r}")
            out[name] = self.parse(name, raw)
        return out

    # ------------------------------------------------------------------ documentation
    def describe(self, instance: Any) -> list[dict[str, Any]]:
        """Per option: name, value (JSON-ready), default, accepted values and doc."""
        rows = []
        for name, option in self.options.items():
            rows.append({"name": name, "value": json_value(getattr(instance, name)),
                         "default": json_value(self.defaults[name]), **option.allowed(), "doc": option.doc})
        return rows


def json_value(value: Any) -> Any:
    """A value JSON-ready: tuples become lists."""
    return list(value) if isinstance(value, tuple) else value
