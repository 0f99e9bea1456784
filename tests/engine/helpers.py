"""A tiny driver for writing rules tests as table scenarios."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from games.engine import JDF, IllegalMove, Move, RuleSet, State, apply, new_game, observe
from games.engine.events import Event


class Table:
    """Seats 0..3 stand for the REFERENCE's P1..P4."""

    def __init__(
        self,
        hands: Sequence[str | None],
        *,
        leader: int | None = 0,
        rules: RuleSet = JDF,
        titles: Sequence[str] | None = None,
        blind: str | None = None,
        counts: Sequence[int] | None = None,
    ) -> None:
        self.state: State = new_game(
            rules, list(hands), leader=leader, titles=titles, blind=blind, counts=counts
        )
        self.events: tuple[Event, ...] = ()

    def _do(self, move: Move) -> list[str]:
        self.state, self.events = apply(self.state, move)
        return [e.kind for e in self.events]

    def play(self, seat: int, cards: str, **kw: object) -> list[str]:
        return self._do(Move.play(seat, cards, **kw))  # type: ignore[arg-type]

    def pass_(self, seat: int) -> list[str]:
        return self._do(Move.pass_turn(seat))

    def give(self, seat: int, cards: str) -> list[str]:
        return self._do(Move.give(seat, cards))

    def reject(self, move: Move, code: str) -> IllegalMove:
        before = self.state
        with pytest.raises(IllegalMove) as info:
            apply(self.state, move)
        assert info.value.code == code, (info.value.code, str(info.value))
        assert self.state is before
        assert info.value.message_en and info.value.message_ja and info.value.rule
        return info.value

    def reject_play(self, seat: int, cards: str, code: str, **kw: object) -> IllegalMove:
        return self.reject(Move.play(seat, cards, **kw), code)  # type: ignore[arg-type]

    @property
    def view(self) -> dict[str, object]:
        return observe(self.state, None)

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def lock(self) -> object:
        return self.view["lock"]

    def placing(self) -> list[tuple[int, str | None, bool, bool]]:
        return [(p.seat, p.title, p.foul, p.miyako_ochi) for p in self.state.placings()]
