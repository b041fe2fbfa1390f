"""Game options: their declaration, validation and text form.

A game declares its options as a tuple of `OptionSpec`. Values may be given as Python values
(``move_limit=100``) or as text (``"100"``, as typed on the command line or read from JSON); both
are checked the same way and bad values are refused with the accepted ones listed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ludoteca.core.errors import InvalidOptionError

OptionValue = str | int | bool | None

#: The largest value of any integer option: safeguards such as ``max_plies`` stay far inside
#: the kernels' integer arrays, and a huge number is refused with the bounds, not an overflow.
OPTION_MAXIMUM = 1_000_000


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game.

    Attributes:
        name: The keyword, e.g. ``"scoring"``.
        default: The value used when the option is not given.
        description: One sentence for people (shown by the CLI and the web lobby).
        choices: The accepted values, when they form a short list.
        minimum: For integer options, the smallest accepted value.
        maximum: For integer options, the largest accepted value.
        allow_none: Whether ``None`` (text ``"none"``) is accepted, e.g. to disable a rule.
    """

    name: str
    default: OptionValue
    description: str
    choices: tuple[OptionValue, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    allow_none: bool = False

    @property
    def accepted(self) -> str:
        """A short phrase saying which values are accepted."""
        if self.choices is not None:
            return "one of " + ", ".join(_format(c) for c in self.choices)
        if isinstance(self.default, bool):
            return "true or false"
        parts = ["an integer"]
        if self.minimum is not None and self.maximum is not None:
            parts = [f"an integer from {self.minimum} to {self.maximum}"]
        elif self.minimum is not None:
            parts = [f"an integer from {self.minimum} to {OPTION_MAXIMUM}"]
        if self.allow_none:
            parts.append("none")
        return " or ".join(parts)

    def coerce(self, value: Any) -> OptionValue:
        """Return ``value`` checked and converted to the option's type.

        Raises:
            InvalidOptionError: The value is not accepted; the message lists what is.
        """
        converted = self._convert(value)
        if self.choices is not None and converted not in self.choices:
            raise self._refuse(value)
        if isinstance(converted, int) and not isinstance(converted, bool):
            too_low = self.minimum is not None and converted < self.minimum
            too_high = converted > (OPTION_MAXIMUM if self.maximum is None else self.maximum)
            if too_low or too_high:
                raise self._refuse(value)
        return converted

    def _convert(self, value: Any) -> OptionValue:
        if value is None or (isinstance(value, str) and value.strip().lower() == "none"):
            if self.allow_none or (self.choices is not None and None in self.choices):
                return None
            raise self._refuse(value)
        if isinstance(self.default, bool):
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in ("true", "false"):
                return value.strip().lower() == "true"
            raise self._refuse(value)
        if self.choices is not None and all(isinstance(c, str) for c in self.choices if c):
            if isinstance(value, str):
                return value.strip()
            raise self._refuse(value)
        # Integer options, possibly with string choices mixed in (e.g. first="random" or 0 / 1).
        if isinstance(value, bool):
            raise self._refuse(value)
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():  # JSON's 1e3 is a whole number
            return int(value)
        if isinstance(value, str):
            text = value.strip()
            if self.choices is not None and text in self.choices:
                return text
            try:
                return int(text)
            except ValueError:
                raise self._refuse(value) from None
        raise self._refuse(value)

    def _refuse(self, value: Any) -> InvalidOptionError:
        shown = repr(value)
        if len(shown) > 40:  # never echo a huge input back whole
            shown = shown[:40] + "…"
        return InvalidOptionError(
            f"option {self.name!r} does not accept {shown}; accepted: {self.accepted}"
        )


def _format(value: OptionValue) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def format_option_value(value: OptionValue) -> str:
    """The text form of an option value, as `OptionSpec.coerce` reads it back."""
    return _format(value)


def resolve_options(
    game_id: str, specs: tuple[OptionSpec, ...], given: Mapping[str, Any]
) -> dict[str, OptionValue]:
    """Check ``given`` against ``specs`` and return every option with its value.

    Raises:
        InvalidOptionError: An unknown option name or a refused value.
    """
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        accepted = ", ".join(known) if known else "none"
        raise InvalidOptionError(
            f"{game_id} has no option {unknown[0]!r}; accepted options: {accepted}"
        )
    return {
        spec.name: spec.coerce(given[spec.name]) if spec.name in given else spec.default
        for spec in specs
    }


def parse_option_assignments(assignments: list[str]) -> dict[str, str]:
    """Read ``["key=value", ...]`` as typed on the command line.

    Raises:
        InvalidOptionError: An item without ``=``.
    """
    result: dict[str, str] = {}
    for item in assignments:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InvalidOptionError(f"option {item!r} is not of the form name=value")
        result[key.strip()] = value.strip()
    return result
