"""Kakumei rules engine: pure Python, standard library only (no Django below here).

>>> from games.engine import JDF, new_game, legal_moves, apply, Move
>>> state = new_game(JDF, ["3S 5D", "4H 6C", "7S 9D", "8H TD"])
>>> state.turn
0
>>> state, events = apply(state, Move.play(0, "3S"))
>>> [e.kind for e in events], state.turn
(['played'], 1)
"""

from __future__ import annotations

from typing import Final

from . import loader

ENGINE_BUILD: Final = loader.choose(__path__)
"""Which implementation is loaded and why: ``compiled (DIR)`` or ``pure (reason)``."""
# Only now the submodules: from the build put first on __path__ just above, or from here.

from .cards import (
    FULL_DECK,
    JOKERS,
    NUMBERS,
    RANK_MASK,
    SUIT_MASK,
    Card,
    CardSet,
    card_names,
    format_card,
    format_cards,
    iter_cards,
    normalise_jokers,
    parse_card,
    parse_cards,
)
from .core import (
    PHASE_EXCHANGE,
    PHASE_OVER,
    PHASE_PLAY,
    SET,
    STAIRS,
    TITLES,
    Combo,
    Move,
    Setup,
    State,
    apply,
    apply_unchecked,
    final_placings,
    is_legal,
    legal_moves,
    new_game,
    observe,
    placings,
)
from .daifugo import DAIFUGO
from .daizaibatsu import DAIZAIBATSU_FAMILY
from .deal import Deal, deal
from .errors import EngineError, IllegalMove, InvalidNotation, RecordError, RulesError
from .events import Event, Placing
from .family import (
    Decision,
    Family,
    Metric,
    SeatResult,
    SwitchInfo,
    families,
    family_of,
    find_ruleset,
    latest_rulesets,
    rulesets,
)
from .guandan import GUANDAN
from .rules import JDF, PRESETS, SWITCHES, RuleSet
from .snapshot import SnapshotError, restore, snapshot

COMPILED: Final = loader.is_compiled()
"""Whether the engine runs as mypyc-compiled modules (else the pure Python reference)."""

__all__ = [
    "COMPILED",
    "DAIFUGO",
    "DAIZAIBATSU_FAMILY",
    "ENGINE_BUILD",
    "FULL_DECK",
    "GUANDAN",
    "JDF",
    "JOKERS",
    "NUMBERS",
    "PHASE_EXCHANGE",
    "PHASE_OVER",
    "PHASE_PLAY",
    "PRESETS",
    "RANK_MASK",
    "SET",
    "STAIRS",
    "SUIT_MASK",
    "SWITCHES",
    "TITLES",
    "Card",
    "CardSet",
    "Combo",
    "Deal",
    "Decision",
    "EngineError",
    "Event",
    "Family",
    "IllegalMove",
    "InvalidNotation",
    "Metric",
    "Move",
    "Placing",
    "RecordError",
    "RuleSet",
    "RulesError",
    "SeatResult",
    "Setup",
    "SnapshotError",
    "State",
    "SwitchInfo",
    "apply",
    "apply_unchecked",
    "card_names",
    "deal",
    "families",
    "family_of",
    "final_placings",
    "find_ruleset",
    "format_card",
    "format_cards",
    "is_legal",
    "iter_cards",
    "latest_rulesets",
    "legal_moves",
    "new_game",
    "normalise_jokers",
    "observe",
    "parse_card",
    "parse_cards",
    "placings",
    "restore",
    "rulesets",
    "snapshot",
]
