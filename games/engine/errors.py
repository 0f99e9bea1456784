"""Exceptions, typed by kind of mistake, each with a stable ``code``.

All are :class:`ValueError` subclasses through :class:`EngineError`, so a caller
can catch broadly (``except EngineError``) or narrowly.  The codes of
:class:`IllegalMove` are exactly those of ``record-format.md``.
"""

from __future__ import annotations

from typing import Final

MOVE_CODES: Final = frozenset(
    {
        "not_your_turn",
        "game_over",
        "card_not_in_hand",
        "unknown_card",
        "invalid_combination",
        "wrong_count",
        "wrong_kind",
        "not_stronger",
        "suit_locked",
        "number_locked",
        "already_passed",
        "must_lead",
        "must_include_opening_card",
        "bad_joker_assignment",
        "exchange_invalid",
        "choice_required",
        "choice_invalid",
        "bad_wild_declaration",
        "tribute_invalid",
    }
)


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""

    code: str

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.code = code


class InvalidNotation(EngineError):
    """Malformed card notation (code ``unknown_card``)."""

    def __init__(self, message: str, *, code: str = "unknown_card") -> None:
        super().__init__(message, code=code)


class RulesError(EngineError):
    """Unknown ruleset, unknown switch or a switch value out of range (code ``invalid_rules``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="invalid_rules")


class RecordError(EngineError):
    """A game record, set-up or move object that is not valid; ``key`` names the part at fault.

    ``message_ja`` is the Japanese for a person (a referee's device shows it); the English
    message is the exception's text.
    """

    def __init__(
        self,
        message: str,
        *,
        key: str = "",
        code: str = "invalid_record",
        message_ja: str = "記録の形式が正しくありません",
    ) -> None:
        super().__init__(f"{key}: {message}" if key else message, code=code)
        self.key = key
        self.message_en = message
        self.message_ja = message_ja


class IllegalMove(EngineError):
    """A well-formed move that the rules do not allow in this state.

    ``rule`` names the rule, e.g. ``"JDF §13 suit lock"``.
    """

    def __init__(
        self, code: str, message_en: str, message_ja: str, rule: str | None = None
    ) -> None:
        super().__init__(message_en, code=code)
        self.message_en = message_en
        self.message_ja = message_ja
        self.rule = rule

    def __repr__(self) -> str:
        return (
            f"IllegalMove({self.code!r}, {self.message_en!r}, {self.message_ja!r}, {self.rule!r})"
        )
