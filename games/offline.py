"""The referee console's judge when the network is gone: what the phone runs under Pyodide.

The offline console (docs/offline.md) keeps the game it was showing as a ``kakumei-record/1``
record (the server's effective moves so far) and a queue of moves not yet sent. Each tap is
judged here, by the engine itself, against the record plus the queue — never by a second
implementation in JavaScript that could disagree with the server. The server reads the
console's forms with the same :func:`move_from_form`, so a tap means the same move online and
offline.

Standard library and the engine only (no Django): the page loads this module, the engine and
``games/__init__.py`` as one archive (``games.offline_assets``). Functions the page calls take
and return JSON text, so nothing but strings crosses between JavaScript and Python.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from games.engine import InvalidNotation, Placing, RuleSet, final_placings, format_card, parse_card
from games.engine.errors import IllegalMove, RecordError
from games.engine.family import family_of, ruleset_from_record
from games.engine.record import load_record

SUITS = {"S": ("♠", "black"), "H": ("♥", "red"), "D": ("♦", "red"), "C": ("♣", "black")}

# Form errors keep the codes clients already handle; every other form error is a bad payload.
FORM_CODES = frozenset({"unknown_card", "invalid_combination"})


def card_face(code: str) -> dict[str, str]:
    """A card as the pages show it: its code (a form value), a label (♠3) and its colour."""
    if code == "JK":
        return {"code": code, "label": "JK", "colour": "joker"}
    rank = "10" if code[0] == "T" else code[0]
    symbol, colour = SUITS[code[1]]
    return {"code": code, "label": f"{symbol}{rank}", "colour": colour}


def typed_codes(text: str) -> list[str]:
    """Cards as a referee types them, as codes (3S 10H TH jk) or as the pages show them
    (♠3 ♥10), read by the engine's own parser into codes; a word it cannot read is passed on
    for the engine to refuse by name."""
    codes = []
    for word in text.split():
        try:
            codes.append(format_card(parse_card(word)))
        except InvalidNotation:
            codes.append(word)
    return codes


def move_from_form(form: Mapping[str, Sequence[str]]) -> dict[str, object]:
    """The record-format move a 大富豪 console form posts: a play or a pass for the seat in
    turn, a give in the exchange, an out-of-turn answer (``respond=1``) or a misplay the
    referee records (``action=misplay``, プンリー). ``form`` maps each field to its values."""

    def first(name: str) -> str:
        values = form.get(name) or [""]
        return values[0]

    seat_text = first("seat").strip()
    seat = int(seat_text) if seat_text.lstrip("-").isdigit() else -1
    chosen = list(form.get("cards") or []) or typed_codes(first("cards_text"))
    action = first("action") or "play"
    if action == "pass":
        return {"seat": seat, "pass": True}
    if action == "give":
        return {"seat": seat, "give": chosen}
    if action == "misplay" or first("misplay") == "1":
        return {"seat": seat, "misplay": chosen}  # the cards stay the seat's, face up
    move: dict[str, object] = {"seat": seat, "play": chosen}
    if first("as").strip():
        move["as"] = typed_codes(first("as"))
    if first("declare"):
        move["declare"] = first("declare")
    if first("choice"):  # the 11-back call, "up" or "down" (the engine judges)
        move["choice"] = first("choice")
    if first("respond") == "1":  # posted by an out-of-turn form
        move["respond"] = True
    return move


class Refused(Exception):
    """A move the engine (or its form reading) refuses, with the server's code and words."""

    def __init__(self, code: str, message_en: str, message_ja: str, rule: str = "") -> None:
        super().__init__(message_en)
        self.code, self.message_en, self.message_ja, self.rule = code, message_en, message_ja, rule

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "ok": False,
            "code": self.code,
            "message_en": self.message_en,
            "message_ja": self.message_ja,
        }
        if self.rule:
            out["rule"] = self.rule
        return out


class Table:
    """A game as the offline console holds it: the server's record, then the queued moves."""

    def __init__(self, record: Mapping[str, object], queued: Sequence[object] = ()) -> None:
        loaded = load_record(record)
        self.family = family_of(loaded.rules)
        self.seats = loaded.rules.seats
        state = loaded.initial_state()
        for _name, actions in loaded.sections():
            for action in actions:
                state, _events = self.family.apply(state, action)
        self.state: Any = state
        for move in queued:
            self.play(move)

    def play(self, payload: object) -> dict[str, object]:
        """Apply one record-format move; the canonical move, its cards as faces (for the list
        of moves waiting), its events and whether the game is over. Raises :class:`Refused` as
        the server would refuse it (same code)."""
        try:
            move = self.family.move_from_json(payload, "move", self.seats)
        except RecordError as error:
            code = error.code if error.code in FORM_CODES else "bad_payload"
            raise Refused(code, error.message_en, error.message_ja) from None
        try:
            self.state, events = self.family.apply(self.state, move)
        except IllegalMove as error:
            raise Refused(
                error.code, error.message_en, error.message_ja, error.rule or ""
            ) from None
        canonical = self.family.move_to_json(move)
        cards = canonical.get("play") or canonical.get("give") or canonical.get("misplay") or []
        return {
            "ok": True,
            "move": canonical,
            "faces": _faces(cast(list[str], cards)),
            "events": [event.to_dict() for event in events],
            "over": self.family.is_over(self.state),
        }

    def view(self) -> dict[str, Any]:
        """What the referee sees: the public view, every known hand (the referee's own page
        shows them all), the decisions owed and the seats that may act — cards as faces."""
        view: dict[str, Any] = self.family.observe(self.state)
        own = [self.family.observe(self.state, seat)["hands"] for seat in range(self.seats)]
        view["hands"] = [_faces(cast(list[Any], hands)[seat]) for seat, hands in enumerate(own)]
        if view.get("table"):
            view["table"] = {**view["table"], "cards": _faces(view["table"]["cards"])}
        view["exposed"] = {seat: _faces(cards) for seat, cards in view["exposed"].items()}
        view["pending"] = [decision.to_dict() for decision in self.family.pending(self.state)]
        view["to_move"] = list(self.family.to_move(self.state))
        view["over"] = self.family.is_over(self.state)
        return view


def _faces(cards: Sequence[str] | None) -> list[dict[str, str]] | None:
    return None if cards is None else [card_face(code) for code in cards]


def state_view(record: str, queued: str) -> str:
    """The console's view of the record plus the queued moves (JSON text in and out)."""
    return json.dumps(Table(json.loads(record), json.loads(queued)).view())


def judge(record: str, queued: str, form: str) -> str:
    """Judge one tap: the form's fields (JSON: field → values) read as the server reads them,
    then applied after the queued moves. JSON text: ``{"ok": true, "move", "events", "over"}``
    or ``{"ok": false, "code", "message_en", "message_ja"}`` — the server's answer to it."""
    table = Table(json.loads(record), json.loads(queued))
    try:
        return json.dumps(table.play(move_from_form(json.loads(form))))
    except Refused as error:
        return json.dumps(error.to_dict())


def rebase(record: str, queued: str) -> str:
    """The queued moves judged again, in order, on a newer record (the game moved on elsewhere
    while the phone was offline): one verdict each, as :func:`judge` gives it; a refused move
    is left out of the moves after it, as a referee console skips it (docs/offline.md)."""
    table = Table(json.loads(record))
    verdicts = []
    for move in json.loads(queued):
        try:
            verdicts.append(table.play(move))
        except Refused as error:
            verdicts.append(error.to_dict())
    return json.dumps(verdicts)


# --- quick results ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QuickOutcome:
    """A quick result as the services take it: `finishing_order` (clean finishers in order,
    ending with the player left holding cards), `fouls` (in foul order), `miyako_ochi`."""

    finishing_order: list[int]
    fouls: list[int]
    miyako_ochi: int | None


def parse_quick_outcomes(data: Mapping[str, Any], seats: int) -> QuickOutcome:
    """Read the per-seat selects `outcome_<seat>` of a quick-result form: `clean-N` (N-th clean
    finisher; the player left with cards comes last), `foul-N` (N-th foul) or `miyako` (都落ち).
    A seat left blank is simply missing (the service then refuses an incomplete result)."""
    clean: list[tuple[int, int]] = []
    fouls: list[tuple[int, int]] = []
    miyako: int | None = None
    for seat in range(seats):
        kind, _, n = str(data.get(f"outcome_{seat}", "")).partition("-")
        if kind == "clean" and n.isdigit():
            clean.append((int(n), seat))
        elif kind == "foul" and n.isdigit():
            fouls.append((int(n), seat))
        elif kind == "miyako":
            miyako = seat
    return QuickOutcome([s for _, s in sorted(clean)], [s for _, s in sorted(fouls)], miyako)


@dataclass(frozen=True, slots=True)
class QuickError(Exception):
    code: str
    message_en: str
    message_ja: str


def quick_placings(
    rules: RuleSet,
    seats: int,
    titles: Sequence[str] | None,
    finishing_order: Sequence[int],
    fouls: Sequence[int],
    miyako_ochi: int | None,
) -> tuple[Placing, ...]:
    """Placings from a quick result, by the engine's own title assignment (JDF §19).

    `finishing_order`: the clean finishers in the order they went out, ending with the player
    left holding cards; `fouls`: foul finishers (反則あがり) in the order they fouled;
    `miyako_ochi`: the previous 大富豪 when they fell (都落ち). The titles are the engine's
    (`final_placings`), so quick results and move-by-move games follow the same rules.
    """
    everyone = [*finishing_order, *fouls, *([miyako_ochi] if miyako_ochi is not None else [])]
    if sorted(everyone) != list(range(seats)):
        raise QuickError(
            "quick_incomplete",
            f"every seat 0..{seats - 1} must appear exactly once",
            "全員の結果を一度ずつ入力してください",
        )
    if not finishing_order:
        raise QuickError(
            "quick_incomplete", "someone is left holding cards", "最後に残った人がいません"
        )
    daifugo = titles.index("daifugo") if titles else None
    if miyako_ochi is not None:
        if not rules.miyako_ochi or daifugo is None:
            raise QuickError(
                "quick_miyako_invalid",
                "都落ち only happens to the previous 大富豪 under a ruleset with 都落ち",
                "都落ちは前局の大富豪にのみ起こります",
            )
        if miyako_ochi != daifugo:
            raise QuickError(
                "quick_miyako_invalid",
                f"only seat {daifugo}, the previous 大富豪, can fall (都落ち)",
                f"都落ちは前局の大富豪（{daifugo}番席）だけです",
            )
    elif (
        rules.miyako_ochi
        and daifugo is not None
        and daifugo not in fouls
        and len(finishing_order) > 1
        and finishing_order[0] != daifugo
    ):
        # Someone else finished first while the 大富豪 still held cards: 都落ち is automatic.
        raise QuickError(
            "quick_miyako_missing",
            f"seat {finishing_order[0]} finished before the previous 大富豪: mark 都落ち",
            "前局の大富豪より先に上がった人がいます：都落ちを入力してください",
        )
    return final_placings(
        rules,
        seats,
        clean=finishing_order[:-1],
        remaining=finishing_order[-1:],
        fouls=fouls,
        miyako=miyako_ochi,
    )


def judge_quick(game: str, form: str) -> str:
    """Judge a quick-result form offline (JSON: field → values), as the server's `quick` view
    reads and judges it. ``game`` (JSON): the game's ``rules`` as a record names them, its
    ``seats`` and the previous game's ``titles``. Answers ``{"ok": true, "result":
    {finishing_order, fouls, miyako_ochi}, "placings": [...]}`` or the server's refusal."""
    facts = json.loads(game)
    rules = ruleset_from_record(facts["rules"])
    seats = int(facts["seats"])
    if rules.seats != seats:  # tables of 3 or 5 play any preset, as the service seats them
        rules = dataclasses.replace(rules, seats=seats)
    fields = {name: values[0] for name, values in json.loads(form).items() if values}
    outcome = parse_quick_outcomes(fields, seats)
    try:
        placings = quick_placings(
            rules,
            seats,
            facts.get("titles"),
            outcome.finishing_order,
            outcome.fouls,
            outcome.miyako_ochi,
        )
    except QuickError as error:
        return json.dumps(Refused(error.code, error.message_en, error.message_ja).to_dict())
    result = {
        "finishing_order": outcome.finishing_order,
        "fouls": outcome.fouls,
        "miyako_ochi": outcome.miyako_ochi,
    }
    return json.dumps({"ok": True, "result": result, "placings": [p.to_dict() for p in placings]})
