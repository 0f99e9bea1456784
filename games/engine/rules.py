"""Rulesets as data: an immutable :class:`RuleSet` of named switches, and the presets.

A game records the ruleset it was played under as ``id@version`` (or, with
overrides, ``{"preset": "jdf", "overrides": {...}}``).  Changing what a preset
means requires a new version.

Every switch listed in :data:`SWITCHES` is implemented and tested for every value
it accepts.  The presets (``jdf``, ``gekijo``, ``local``, ``uecda``) differ only in
switch values: a rule that needs a mechanism gets a general switch in the shared
core, never a preset special case.

>>> find_ruleset("jdf@1").with_overrides(spade3_ignores_lock=True).spade3_ignores_lock
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .cards import JOKERS, NUMBERS, format_card, parse_card
from .errors import InvalidNotation, RulesError
from .family import SwitchInfo, find_ruleset

SwitchValue = bool | int | str | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OneOf:
    """The check of a switch with finitely many values: ``allowed``, in the order they are
    offered (a bool is not an int here, so ``True`` never passes for ``1``)."""

    allowed: tuple[SwitchValue, ...]

    def __call__(self, value: object) -> SwitchValue:
        for choice in self.allowed:
            if type(value) is type(choice) and value == choice:
                return choice
        if self.allowed == (False, True):
            raise RulesError(f"expected true or false, got {value!r}")
        raise RulesError(f"expected one of {list(self.allowed)}, got {value!r}")


@dataclass(frozen=True, slots=True)
class Switch:
    """Documentation and validation of one switch."""

    name: str
    doc: str
    reference: str
    check: Callable[[object], SwitchValue]

    @property
    def choices(self) -> tuple[SwitchValue, ...] | None:
        """Every value the switch may take, when they are finite (``None``: a card list, or
        a number from a range)."""
        return self.check.allowed if isinstance(self.check, OneOf) else None


@dataclass(frozen=True, slots=True)
class RuleSet:
    """An immutable ruleset: identity plus named switches (see :data:`SWITCHES`)."""

    id: str
    version: int
    name: str
    seats: int = 4
    jokers: int = 2
    blind_cards: int = 2
    first_lead_cards: tuple[str, ...] = ("3S", "3C", "3D", "3H")
    opening_card_required: bool = True
    opening_card_every_game: bool = False
    pass_on_lead: bool = False
    last_player_may_follow: bool = False
    joker_pair_allowed: bool = True
    joker_single_only: bool = False
    one_card_two_jokers: str = "declare"
    revolution_set_size: int = 4
    revolution_stairs_size: int = 0
    stairs_overlap: bool = True
    joker_beyond_ends: bool = False
    double_stairs: bool = False
    triple_run: bool = False
    eight_cut: bool = True
    eight_cut_in_stairs: bool = False
    eight_cut_joker_in_stairs: bool = True
    eleven_back: str = "off"
    reset_passes_on_reverse: bool = False
    spade_three_return: bool = True
    heart_three_return: bool = False
    joker_return_out_of_turn: bool = False
    spade3_ignores_lock: bool = False
    suit_lock: bool = True
    suit_lock_after: int = 1
    lock_counts_joker_suits: bool = False
    joker_suit_choice: bool = False
    number_lock: bool = False
    number_lock_after: int = 2
    miyako_ochi: bool = True
    foul_finishes: str = "standard"
    lone_spade3_finish_is_foul: bool = True
    eight_in_stairs_finish_is_foul: bool = False
    foul_order: str = "first_lowest"
    instant_win: bool = False
    exchange_order: str = "simultaneous"
    stalemate_passes: int = 0
    misplay: bool = False
    points: tuple[int, ...] = ()
    """Points per place (1st first), read by scoring; empty when the ruleset has none."""
    overrides: tuple[tuple[str, SwitchValue], ...] = ()

    @property
    def key(self) -> str:
        """``id@version``, e.g. ``jdf@1``."""
        return f"{self.id}@{self.version}"

    @property
    def family(self) -> str:
        """The game family these switches belong to (:mod:`games.engine.family`)."""
        return "daifugo"

    def with_overrides(self, **switches: object) -> RuleSet:
        """A copy with some switches changed.

        Unknown names or bad values raise :class:`RulesError`.
        """
        values: dict[str, SwitchValue] = dict(self.overrides)
        for name, raw in switches.items():
            switch = SWITCHES.get(name)
            if switch is None:
                raise RulesError(f"unknown switch {name!r}")
            values[name] = switch.check(raw)
        preset = PRESETS.get(self.key, self)
        base = dataclasses.replace(preset, overrides=())
        # Overrides equal to the preset value are dropped, so equal rulesets compare equal.
        kept = tuple(sorted((k, v) for k, v in values.items() if getattr(base, k) != v))
        changed: dict[str, Any] = dict(kept)
        return dataclasses.replace(base, overrides=kept, **changed)

    def to_record(self) -> str | dict[str, object]:
        """The value of a record's ``rules`` key for this ruleset."""
        if not self.overrides:
            return self.key
        return {
            "preset": self.key,
            "overrides": {k: list(v) if isinstance(v, tuple) else v for k, v in self.overrides},
        }

    def score(self, place: int) -> int | None:
        """Points for ``place`` (1 = first) from :attr:`points`, or None without a table."""
        return self.points[place - 1] if self.points and 1 <= place <= len(self.points) else None

    def switches(self) -> dict[str, SwitchValue]:
        """Every switch and its value."""
        return {name: getattr(self, name) for name in SWITCHES}

    def unset_switches(self) -> tuple[str, ...]:
        """Every 大富豪 switch has a default: none is ever unset."""
        return ()

    def describe_switches(self) -> tuple[SwitchInfo, ...]:
        """Every switch of :data:`SWITCHES`: its documentation, values, the preset's value
        and this ruleset's."""
        preset = PRESETS.get(self.key, self)
        return tuple(
            SwitchInfo(s.name, s.doc, s.choices, getattr(preset, s.name), getattr(self, s.name))
            for s in SWITCHES.values()
        )


_bool: Final = OneOf((False, True))


def _int_in(*allowed: int) -> OneOf:
    return OneOf(allowed)


def _str_in(*allowed: str) -> OneOf:
    return OneOf(allowed)


def _stalemate_passes(value: object) -> int:
    if value is None:
        return 0
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not (value == 0 or 2 <= value <= 1000)
    ):
        raise RulesError(f"expected 0 (off) or a number of passes 2..1000, got {value!r}")
    return value


def _lead_cards(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not value:
        raise RulesError(f"expected a non-empty list of cards, got {value!r}")
    out: list[str] = []
    for item in value:
        if not isinstance(item, str):
            raise RulesError(f"expected a card, got {item!r}")
        try:
            card = parse_card(item)
        except InvalidNotation as exc:
            raise RulesError(str(exc)) from exc
        if (1 << card) & JOKERS or not (1 << card) & NUMBERS:
            raise RulesError("a joker cannot be the opening card")
        name = format_card(card)
        if name in out:
            raise RulesError(f"opening card {name} listed twice")
        out.append(name)
    return tuple(out)


SWITCHES: Final[dict[str, Switch]] = {
    s.name: s
    for s in (
        Switch(
            "seats",
            "Number of players (4, or 5 as in UECda: titles 大富豪 富豪 平民 貧民 大貧民; 3 at a "
            "short table of a tournament, without titles). A table of 3 or 5 plays any preset "
            "with this override, so its records name the seat count.",
            "REFERENCE §1.1 rule 1, §4.1 rule 1",
            _int_in(3, 4, 5),
        ),
        Switch(
            "jokers",
            "Jokers in the deck (bits 52, 53; one joker uses bit 52 only).",
            "REFERENCE §1.1 rule 2; §2.2 B1 (gekijo: 1); §4.1 rule 1 (UECda: 53 cards)",
            _int_in(1, 2),
        ),
        Switch(
            "blind_cards",
            "Number cards removed unseen before each deal (ブラインドカード); never jokers. "
            "0 deals all 54 cards (seats 0 and 1 then get 14).",
            "REFERENCE §1.1 rule 2, A3",
            _int_in(0, 1, 2, 3, 4),
        ),
        Switch(
            "first_lead_cards",
            "Opening card of a first game and its fallbacks, in order: the holder of the first "
            "of these cards still in play leads and must include it in the first play.",
            "REFERENCE §1.1 rule 22, A4 (3S, then 3C, 3D, 3H)",
            _lead_cards,
        ),
        Switch(
            "opening_card_required",
            "The first play must include the opening card; when false its holder only leads.",
            "REFERENCE §1.1 rule 22; §2.1 rule 4; §4.1 rule 5 (UECda: the ♦3 holder leads)",
            _bool,
        ),
        Switch(
            "opening_card_every_game",
            "The opening card decides the leader in every game (after the exchange too); when "
            "false, later games are led by the previous 大貧民.",
            "REFERENCE §2.2 B12; §4.2 D1; JDF rule 22 (later games: 大貧民)",
            _bool,
        ),
        Switch(
            "pass_on_lead",
            "The leader may pass on an empty table (空場パス); the pass is final for the trick.",
            "REFERENCE §4.1 rule 12; §8 item 9",
            _bool,
        ),
        Switch(
            "last_player_may_follow",
            "The trick flows only when every player still in the game has passed since the "
            "last play, its player included: when all the others have passed, the turn comes "
            "back to the player whose cards are on top, who may play again on top of them "
            "(stronger, same form; a suit match with their own play locks) or pass. After the "
            "flow the last player to play leads (if out, the next seat still in the game).",
            "REFERENCE §4.1 rule 13 (UECda); JDF, gekijo, local: false",
            _bool,
        ),
        Switch(
            "joker_pair_allowed",
            "The two jokers together (JK JK) are a pair, the strongest one.",
            "REFERENCE A5",
            _bool,
        ),
        Switch(
            "joker_single_only",
            "The joker is never wild: it may only be played alone (error joker_single_only).",
            "REFERENCE §2.1 rule 10; §8 item 1",
            _bool,
        ),
        Switch(
            "one_card_two_jokers",
            "How a lead of one card plus two jokers reads: 'declare' (the leader says set or "
            "stairs) or 'set' (always a set of that rank, never stairs).",
            "REFERENCE §1.1 rule 24 (declare); §3.1 rule 11 (set)",
            _str_in("declare", "set"),
        ),
        Switch(
            "revolution_set_size",
            "A set of at least this many cards (jokers count) reverses the order (革命); "
            "0 disables revolutions.",
            "REFERENCE §1.1 rule 10",
            _int_in(0, 4, 5, 6),
        ),
        Switch(
            "revolution_stairs_size",
            "Stairs (and イーペーコー) of at least this many cards, jokers included, reverse the "
            "order; 0 = stairs never do.",
            "REFERENCE §2.1 rule 7 (8: 8枚連番, ノベタンイーペーコー); §3.1 rule 12 (4); "
            "§4.1 rule 9 (5)",
            _int_in(0, 4, 5, 8),
        ),
        Switch(
            "stairs_overlap",
            "Following stairs may overlap the table's ranks (only the weakest rank must be "
            "stronger); when false the new run lies wholly beyond the old one.",
            "REFERENCE §1.1 rule 6; §2.1 rule 6; §4.1 rule 7; §4.2 D2",
            _bool,
        ),
        Switch(
            "joker_beyond_ends",
            "A joker in stairs may also stand below the 3 or above the 2 (UECda's columns 0 "
            "and 14): AH 2H JK may be A-2-(above 2), whose weakest card is the A, and JK 3S 4S "
            "(below 3)-3-4. Such a joker stands for no rank (no 8, no J); 'as' writes it -S … "
            "(below 3) and +S … (above 2).",
            "REFERENCE §4.1 rule 13a (supersedes §4.2 D5)",
            _bool,
        ),
        Switch(
            "double_stairs",
            "イーペーコー: two stairs of identical ranks in two suits (number cards only) are a "
            "combination; followed like stairs.",
            "REFERENCE §2.1 rules 5-7; §2.2 B7",
            _bool,
        ),
        Switch(
            "triple_run",
            "サンレンコー: three triples of consecutive ranks (9 number cards, suits free) are a "
            "combination; it never revolutionises; followed like stairs.",
            "REFERENCE §2.1 rule 5; §2.2 B8",
            _bool,
        ),
        Switch(
            "eight_cut",
            "A single 8 or a set of 8s (jokers standing in count) clears the trick (8切り).",
            "REFERENCE §1.1 rule 11, A11",
            _bool,
        ),
        Switch(
            "eight_cut_in_stairs",
            "Stairs whose run covers rank 8 (natural or joker) also cut.",
            "REFERENCE §8 item 5 (JDF: no)",
            _bool,
        ),
        Switch(
            "eight_cut_joker_in_stairs",
            "With eight_cut_in_stairs: a joker standing for 8 in stairs cuts too; when false "
            "only a natural 8 does.",
            "REFERENCE §3.1 rule 14 (no); §4.1 rule 10 (yes)",
            _bool,
        ),
        Switch(
            "eleven_back",
            "11-back (イレブンバック): 'off'; 'choice' — a set of Js may carry choice up/down, "
            "setting the order absolutely until the trick ends; 'toggle' — any play covering "
            "a J reverses the trick order (effective order = revolution XOR back).",
            "REFERENCE §2.1 rule 9, B5, B6; §4.1 rule 14, D7, UE-T13; §0.1",
            _str_in("off", "choice", "toggle"),
        ),
        Switch(
            "reset_passes_on_reverse",
            "When an 11-back call or a revolution makes the effective order reversed (下), "
            "every pass of the trick is reset.",
            "REFERENCE §2.1 rule 12(b); §2.2 B4",
            _bool,
        ),
        Switch(
            "spade_three_return",
            "A single 3S beats a single joker and clears the trick (スペ3返し).",
            "REFERENCE §1.1 rule 12",
            _bool,
        ),
        Switch(
            "heart_three_return",
            "A single 3H beats a single joker and clears the trick (gekijo: ハーツ).",
            "REFERENCE §2.1 rule 10",
            _bool,
        ),
        Switch(
            "joker_return_out_of_turn",
            "The return card (♠3 / ♥3) may answer a lone joker out of turn, even after "
            "passing, from the moment the joker is played until the next action "
            "(record key respond).",
            "REFERENCE §2.1 rule 10, 12(a); §2.2 B2; §8 item 11",
            _bool,
        ),
        Switch(
            "spade3_ignores_lock",
            "The joker return (♠3 or ♥3) is allowed even when a lock on another suit is on.",
            "REFERENCE A7 (default: the lock applies)",
            _bool,
        ),
        Switch(
            "suit_lock",
            "Suit lock (スートしばり): after matching plays every play must use the locked suits.",
            "REFERENCE §1.1 rule 13, A8, A12",
            _bool,
        ),
        Switch(
            "suit_lock_after",
            "Consecutive joker-free suit matches that start the lock (JDF: the first match).",
            "REFERENCE §1.1 rule 13; §8 item 6",
            _int_in(1, 2),
        ),
        Switch(
            "lock_counts_joker_suits",
            "The suits jokers stand for count toward starting a suit lock (given by 'as', or "
            "taken from the table's play); when false a play with a joker never starts one.",
            "REFERENCE §4.1 rule 11 (UECda); §1.1 rule 13 (JDF: false)",
            _bool,
        ),
        Switch(
            "joker_suit_choice",
            "With lock_counts_joker_suits: the suit each joker in a set stands for is the "
            "player's choice, listed as one legal move per suit set ('as'); a led set with a "
            "joker has those concrete suits, which the next play can match to start a lock.",
            "REFERENCE §4.1 rule 13b, UE-T07",
            _bool,
        ),
        Switch(
            "number_lock",
            "Number lock (数字しばり): after number_lock_after consecutive one-step-stronger "
            "joker-free plays, every play must be one step stronger (a lone joker may follow).",
            "REFERENCE §3.1 rules 15, 18; §3.2 C1, C3, C4, C5",
            _bool,
        ),
        Switch(
            "number_lock_after",
            "Consecutive joker-free one-step plays that start the number lock (2: three plays "
            "in a row, the lead counting).",
            "REFERENCE §3.1 rule 15; §3.2 C4",
            _int_in(1, 2),
        ),
        Switch(
            "miyako_ochi",
            "The reigning 大富豪 is out at once, hand discarded, when another player makes the "
            "first clean finish (都落ち).",
            "REFERENCE §1.1 rule 17",
            _bool,
        ),
        Switch(
            "lone_spade3_finish_is_foul",
            "Any lone 3S as the final play is a foul finish; when false, only a ♠3 return is.",
            "REFERENCE §1.1 rule 18(c), A6",
            _bool,
        ),
        Switch(
            "foul_finishes",
            "Which final plays are foul finishes (反則あがり): 'standard' (joker, 8, lone 3S, "
            "2 / 3 in revolution, JDF rule 18), 'joker' (only a joker finish, gekijo), 'none'.",
            "REFERENCE §1.1 rule 18; §2.1 rule 11, B11; §3.1 rule 19; §4.1 rule 15",
            _str_in("standard", "joker", "none"),
        ),
        Switch(
            "eight_in_stairs_finish_is_foul",
            "With standard fouls: an 8 inside stairs (or another run) is a foul finish too.",
            "REFERENCE §3.1 rule 19, LR-T11; JDF-T13 (false)",
            _bool,
        ),
        Switch(
            "foul_order",
            "'first_lowest': fouls at the bottom, the first foul last, the 都落ち player above "
            "them (JDF); 'latest_lowest': demoted players (fouls and 都落ち) in the order they "
            "were demoted, the latest last.",
            "REFERENCE §1.1 rule 19; §3.1 rules 20-21, LR-T12, LR-T13",
            _str_in("first_lowest", "latest_lowest"),
        ),
        Switch(
            "instant_win",
            "イッツー: before the first play of a game a player holding exactly one card of each "
            "rank 3…2 (plus jokers) may declare it and finish first (declare instant_win).",
            "REFERENCE §2.1 rule 14, GK-T12",
            _bool,
        ),
        Switch(
            "exchange_order",
            "'simultaneous' (face down, JDF); 'lower_first': 大貧民/貧民 give their strongest "
            "first, and the higher titles choose after receiving (UECda).",
            "REFERENCE §1.1 rule 15; §4.1 rule 4, UE-T11",
            _str_in("simultaneous", "lower_first"),
        ),
        Switch(
            "stalemate_passes",
            "千日手: after this many passes in a row (across trick flows) the game ends and the "
            "seats still in it take the places left in an order drawn from the game itself "
            "(SHA-256, kakumei-stalemate/1, keyed by the deal and the cards played), so every "
            "replay agrees; 0 (or null) = off. UECda's Python server uses 20.",
            "REFERENCE §4.1 rule 18, §4.2 D3",
            _stalemate_passes,
        ),
        Switch(
            "misplay",
            "プンリー: the referee may record a misplay (move {seat, misplay: [cards]}); the "
            "cards are not taken back but stay the offender's, exposed face up to everyone, "
            "and may be played later; the turn and the trick do not change (event misplay).",
            "REFERENCE §2.1 rule 13, §2.2 B10",
            _bool,
        ),
    )
}

JDF: Final = RuleSet(id="jdf", version=1, name="日本大富豪連盟 公式ルール (JDF official rules)")

GEKIJO: Final = RuleSet(
    id="gekijo",
    version=1,
    name="全日本劇場大貧民協会 (gekijo house rules)",
    jokers=1,
    blind_cards=0,
    first_lead_cards=("3D",),
    opening_card_every_game=True,
    joker_single_only=True,
    revolution_stairs_size=8,
    stairs_overlap=False,
    double_stairs=True,
    triple_run=True,
    eleven_back="choice",
    reset_passes_on_reverse=True,
    spade_three_return=False,
    heart_three_return=True,
    joker_return_out_of_turn=True,
    suit_lock=False,
    miyako_ochi=False,
    foul_finishes="joker",
    instant_win=True,
)

LOCAL: Final = RuleSet(
    id="local",
    version=1,
    name="ローカルルール (seed-002 local rules)",
    blind_cards=0,
    first_lead_cards=("3D",),
    opening_card_every_game=True,
    one_card_two_jokers="set",
    revolution_stairs_size=4,
    eight_cut_in_stairs=True,
    eight_cut_joker_in_stairs=False,
    suit_lock_after=2,
    number_lock=True,
    lone_spade3_finish_is_foul=False,
    eight_in_stairs_finish_is_foul=True,
    foul_order="latest_lowest",
)

UECDA: Final = RuleSet(
    id="uecda",
    version=1,
    name="UECda (UEC Computer Daihinmin Competition)",
    seats=5,
    jokers=1,
    blind_cards=0,
    first_lead_cards=("3D",),
    opening_card_required=False,
    opening_card_every_game=True,
    pass_on_lead=True,
    revolution_stairs_size=5,
    stairs_overlap=False,
    eight_cut_in_stairs=True,
    spade3_ignores_lock=True,
    lock_counts_joker_suits=True,
    miyako_ochi=False,
    foul_finishes="none",
    exchange_order="lower_first",
    points=(5, 4, 3, 2, 1),
)

GEKIJO_2: Final = dataclasses.replace(GEKIJO, version=2, misplay=True)
"""gekijo@1 plus プンリー: the referee records misplays (REFERENCE §2.1 rule 13, §2.2 B10)."""

UECDA_2: Final = dataclasses.replace(
    UECDA,
    version=2,
    last_player_may_follow=True,
    joker_beyond_ends=True,
    joker_suit_choice=True,
)
"""uecda@1 plus the last player following their own play (REFERENCE §4.1 rule 13) and the
joker readings of rules 13a (beyond the ends of stairs) and 13b (a set's joker suits)."""

PRESETS: Final[Mapping[str, RuleSet]] = {
    r.key: r for r in (JDF, GEKIJO, GEKIJO_2, LOCAL, UECDA, UECDA_2)
}
"""Every preset version; a bare id (``uecda``) resolves to its latest (``uecda@2``)."""


def _preset(name: str) -> RuleSet:
    """A 大富豪 preset by name, through the registry of every family (``find_ruleset``)."""
    found = find_ruleset(name)
    if not isinstance(found, RuleSet):
        raise RulesError(f"{name!r} is not a 大富豪 ruleset")
    return found


def ruleset_from_record(value: object) -> RuleSet:
    """The ruleset named by a record's ``rules`` value (a name or ``{"preset", "overrides"}``)."""
    if isinstance(value, str):
        return _preset(value)
    if isinstance(value, dict):
        unknown = set(value) - {"preset", "overrides"}
        if unknown:
            raise RulesError(f"unknown key {sorted(unknown)[0]!r} in rules")
        preset = value.get("preset")
        if not isinstance(preset, str):
            raise RulesError("rules.preset must be a ruleset name")
        overrides = value.get("overrides", {})
        if not isinstance(overrides, dict):
            raise RulesError("rules.overrides must be an object")
        return _preset(preset).with_overrides(**{str(k): v for k, v in overrides.items()})
    raise RulesError(f"rules must be a name or an object, got {value!r}")
