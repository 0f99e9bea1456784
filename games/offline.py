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


@dataclass(frozen=True, slots=True)
class QuickError(Exception):
    """A quick result refused as it was read: a stable ``code`` and the message in English and
    Japanese (seats numbered from 1, places in the form's words). Nothing is saved."""

    code: str
    message_en: str
    message_ja: str


def _seat(seat: int, names: Sequence[str] | None) -> tuple[str, str]:
    """A seat as the pages number it (from 1), with its player's name when known."""
    if names and 0 <= seat < len(names) and names[seat]:
        return f"seat {seat + 1} ({names[seat]})", f"{seat + 1}番席（{names[seat]}）"
    return f"seat {seat + 1}", f"{seat + 1}番席"


def _seats(seats: Sequence[int], names: Sequence[str] | None) -> tuple[str, str]:
    words = [_seat(seat, names) for seat in seats]
    return " and ".join(en for en, _ in words), "と".join(ja for _, ja in words)


def place_words(value: str, seats: int) -> tuple[str, str]:
    """A select value of the quick-result form in the words the form shows it
    (`games.official_views.quick_outcome_choices`; a test keeps the two the same)."""
    kind, _, n = value.partition("-")
    if kind == "clean" and n == str(seats):
        return f"{n}. out / left with cards", f"{n}. あがり／残り"
    if kind == "clean":
        return f"{n}. out", f"{n}. あがり"
    if kind == "foul":
        return f"foul {n}", f"反則{n}"
    return "Miyako-ochi", "都落ち"


def _choice(value: str, seats: int) -> tuple[str, int] | None:
    """`clean-N` (1 ≤ N ≤ seats), `foul-N` (1 ≤ N < seats: someone is left holding cards) or
    `miyako`, as (kind, N); None for anything else."""
    if value == "miyako":
        return value, 0
    kind, _, n = value.partition("-")
    if not n.isdigit():
        return None
    top = seats if kind == "clean" else seats - 1 if kind == "foul" else 0
    return (kind, int(n)) if 1 <= int(n) <= top else None


def _first_gap(numbers: Sequence[int]) -> int | None:
    """The first of 1, 2, … missing from `numbers` (sorted), None when they are 1..len."""
    for expected, n in enumerate(numbers, start=1):
        if n != expected:
            return expected
    return None


def parse_quick_outcomes(
    data: Mapping[str, Any], seats: int, names: Sequence[str] | None = None
) -> QuickOutcome:
    """Read the per-seat selects `outcome_<seat>` of a quick-result form (the console, the
    offline console, the officials' correction form): `clean-N` (N-th clean finisher; the
    player left with cards comes last, `clean-<seats>` says so), `foul-N` (N-th foul) or
    `miyako` (都落ち). Refuses (:class:`QuickError`) a field for a seat not at the table, a
    value the form does not offer or beyond the table's size, two seats on one place, two
    都落ち, a seat left blank and a place nobody took. `names`: the players, by seat, for the
    messages. What the ruleset can produce is judged next, by :func:`quick_placings`."""
    for field, value in data.items():
        number = field.removeprefix("outcome_")
        if (
            field != number
            and str(value).strip()
            and not (number.isdigit() and int(number) < seats)
        ):
            seat_en = f"seat {int(number) + 1}" if number.isdigit() else f"seat “{number}”"
            seat_ja = f"{int(number) + 1}番席" if number.isdigit() else f"「{number}」の席"
            raise QuickError(
                "quick_seat_not_at_table",
                f"There is no {seat_en} at this table: it seats {seats} (seats 1 to {seats}). "
                "Nothing was saved.",
                f"この卓に{seat_ja}はありません（{seats}人：1〜{seats}番席）。保存していません。",
            )
    chosen = {seat: str(data.get(f"outcome_{seat}", "")).strip() for seat in range(seats)}
    read: dict[int, tuple[str, int]] = {}
    for seat, value in chosen.items():
        if not value:
            continue
        choice = _choice(value, seats)
        if choice is None:
            who_en, who_ja = _seat(seat, names)
            raise QuickError(
                "quick_place_out_of_range",
                f"“{value}” for {who_en} is not a place at a table of {seats}: choose "
                f"1. out to {seats}. out, a foul or miyako-ochi.",
                f"{who_ja}の「{value}」は{seats}人の卓の順位ではありません。"
                f"1. あがり〜{seats}. あがり、反則、都落ちから選んでください。",
            )
        read[seat] = choice
    by_value: dict[str, list[int]] = {}
    for seat, value in chosen.items():
        if seat in read and value != "miyako":
            by_value.setdefault(value, []).append(seat)
    for value, holders in by_value.items():
        if len(holders) > 1:
            who_en, who_ja = _seats(holders, names)
            place_en, place_ja = place_words(value, seats)
            raise QuickError(
                "quick_duplicate_place",
                f"{who_en} both chose “{place_en}”: each place goes to one player. Nothing "
                "was saved.",
                f"{who_ja}が同じ「{place_ja}」になっています。順位は一人ずつです。"
                "保存していません。",
            )
    fallen = [seat for seat, (kind, _) in read.items() if kind == "miyako"]
    if len(fallen) > 1:
        who_en, who_ja = _seats(fallen, names)
        raise QuickError(
            "quick_miyako_invalid",
            f"{who_en} are both marked miyako-ochi: only one player, the previous 大富豪, "
            "can fall (都落ち). Nothing was saved.",
            f"{who_ja}が両方とも都落ちになっています。都落ちするのは前局の大富豪一人だけです。"
            "保存していません。",
        )
    blank = [seat for seat in range(seats) if seat not in read]
    if blank:
        who_en, who_ja = _seats(blank, names)
        raise QuickError(
            "quick_missing_place",
            f"{who_en}: no outcome chosen. Give every player's outcome. Nothing was saved.",
            f"{who_ja}の結果が選ばれていません。全員の結果を選んでください。保存していません。",
        )
    clean = sorted((n, seat) for seat, (kind, n) in read.items() if kind == "clean")
    fouls = sorted((n, seat) for seat, (kind, n) in read.items() if kind == "foul")
    # The player left holding cards may be marked by the last place's own choice
    # (`clean-<seats>`, "left with cards") even when fouls or 都落ち took places below.
    numbers = [n for n, _ in clean]
    if numbers and numbers[-1] == seats:
        numbers.pop()
    gaps = (("clean", _first_gap(numbers)), ("foul", _first_gap([n for n, _ in fouls])))
    for kind, gap in gaps:
        if gap is not None:
            place_en, place_ja = place_words(f"{kind}-{gap}", seats)
            raise QuickError(
                "quick_missing_place",
                f"No player is “{place_en}”: number the clean finishes 1, 2, … in the order "
                "they went out (the player left holding cards last) and the fouls 1, 2, … in "
                "the order they fouled. Nothing was saved.",
                f"「{place_ja}」の人がいません。あがりは上がった順に1から（最後まで残った人が"
                "最後）、反則は反則した順に1から番号をつけてください。保存していません。",
            )
    return QuickOutcome(
        [seat for _, seat in clean], [seat for _, seat in fouls], fallen[0] if fallen else None
    )


def check_seats(
    seats: int,
    named: Sequence[int],
    names: Sequence[str] | None = None,
    *,
    complete: bool = True,
) -> None:
    """The seats a result names, in any shape (the API's lists, a 掼蛋 order): each at the
    table, each once and — `complete` — every seat named. Raises :class:`QuickError`."""
    outside = [seat for seat in named if not 0 <= seat < seats]
    if outside:
        raise QuickError(
            "quick_seat_not_at_table",
            f"There is no seat {outside[0] + 1} (seat index {outside[0]}) at this table: its "
            f"seats are 1 to {seats} (indexes 0 to {seats - 1}). Nothing was saved.",
            f"この卓に{outside[0] + 1}番席（番号 {outside[0]}）はありません。席は1〜{seats}"
            f"番席（番号 0〜{seats - 1}）です。保存していません。",
        )
    repeated = next((seat for i, seat in enumerate(named) if seat in named[:i]), None)
    if repeated is not None:
        who_en, who_ja = _seat(repeated, names)
        raise QuickError(
            "quick_duplicate_place",
            f"{who_en} is given more than one place: each player has one. Nothing was saved.",
            f"{who_ja}に複数の順位がついています。順位は一人に一つです。保存していません。",
        )
    missing = [seat for seat in range(seats) if seat not in named]
    if complete and missing:
        who_en, who_ja = _seats(missing, names)
        raise QuickError(
            "quick_missing_place",
            f"{who_en}: no place given. Give every player's outcome. Nothing was saved.",
            f"{who_ja}の順位がありません。全員の結果を入力してください。保存していません。",
        )


def quick_placings(
    rules: RuleSet,
    seats: int,
    titles: Sequence[str] | None,
    finishing_order: Sequence[int],
    fouls: Sequence[int],
    miyako_ochi: int | None,
    names: Sequence[str] | None = None,
) -> tuple[Placing, ...]:
    """Placings from a quick result, by the engine's own title assignment (JDF §19).

    `finishing_order`: the clean finishers in the order they went out, ending with the player
    left holding cards; `fouls`: foul finishers (反則あがり) in the order they fouled;
    `miyako_ochi`: the previous 大富豪 when they fell (都落ち). The titles are the engine's
    (`final_placings`), so quick results and move-by-move games follow the same rules.

    Refuses (:class:`QuickError`) what the table and the ruleset cannot produce
    (REFERENCE §1.1 rules 17–19): a seat not at the table, twice or missing; a foul where
    the rules have no foul finishes, or nobody left holding cards (that player never fouls);
    都落ち where the rules have none, for anyone but the previous 大富豪, or when nobody
    finished clean; and a clean finisher ahead of the 大富豪 without 都落ち.
    """
    everyone = [*finishing_order, *fouls, *([miyako_ochi] if miyako_ochi is not None else [])]
    check_seats(seats, everyone, names)
    if fouls and rules.foul_finishes == "none":
        who_en, who_ja = _seats(fouls, names)
        raise QuickError(
            "quick_foul_invalid",
            f"These rules have no foul finishes (反則あがり): {who_en} cannot have fouled. "
            "Nothing was saved.",
            f"このルールには反則あがりがありません（{who_ja}）。保存していません。",
        )
    if not finishing_order:
        raise QuickError(
            "quick_foul_invalid",
            "Someone is always left holding cards, and that player has not fouled: give them "
            "the last clean place (left with cards). Nothing was saved.",
            "最後まで手札が残った人は反則あがりではありません。その人は最後の順位（残り）に"
            "してください。保存していません。",
        )
    daifugo = titles.index("daifugo") if titles and "daifugo" in titles else None
    if miyako_ochi is not None:
        who_en, who_ja = _seat(miyako_ochi, names)
        if not rules.miyako_ochi:
            reason_en = "these rules have no 都落ち"
            reason_ja = "このルールには都落ちがありません"
        elif daifugo is None:
            reason_en = "nobody was 大富豪 in the previous game (a set's first game)"
            reason_ja = "前局の大富豪がいません（セットの最初のゲームなど）"
        elif miyako_ochi != daifugo:
            reason_en = f"only the previous 大富豪, {_seat(daifugo, names)[0]}, can fall"
            reason_ja = f"都落ちするのは前局の大富豪（{_seat(daifugo, names)[1]}）だけです"
        elif len(finishing_order) < 2:
            reason_en = "the 大富豪 falls when another player finishes clean first, and nobody did"
            reason_ja = (
                "都落ちは他の人が反則なしで先に上がったときに起こりますが、誰も上がっていません"
            )
        else:
            reason_en = reason_ja = ""
        if reason_en:
            raise QuickError(
                "quick_miyako_invalid",
                f"{who_en} cannot be miyako-ochi: {reason_en}. Nothing was saved.",
                f"{who_ja}は都落ちにできません。{reason_ja}。保存していません。",
            )
    elif (
        rules.miyako_ochi
        and daifugo is not None
        and daifugo not in fouls
        and len(finishing_order) > 1
        and finishing_order[0] != daifugo
    ):
        # Someone else finished first while the 大富豪 still held cards: 都落ち is automatic.
        first_en, first_ja = _seat(finishing_order[0], names)
        d_en, d_ja = _seat(daifugo, names)
        raise QuickError(
            "quick_miyako_missing",
            f"{first_en} finished before the previous 大富豪 ({d_en}): mark {d_en} "
            "miyako-ochi (都落ち). Nothing was saved.",
            f"{first_ja}が前局の大富豪（{d_ja}）より先に上がっています。{d_ja}を都落ちに"
            "してください。保存していません。",
        )
    return final_placings(
        rules,
        seats,
        clean=finishing_order[:-1],
        remaining=finishing_order[-1:],
        fouls=fouls,
        miyako=miyako_ochi,
    )


GUANDAN_PLACES = (1, 2, 3, 4)


def parse_finishing_places(
    data: Mapping[str, Any], names: Sequence[str] | None = None
) -> list[int]:
    """A 掼蛋 hand's quick form: the selects `place_1`…`place_4`, a seat (0-based) each, as far
    as they decide the hand (a 1-2 finish needs only the first two). Refuses a seat not at the
    table, a seat chosen twice and a place left blank before a later one; the order's meaning
    (does it decide the hand?) is the engine's (`settle_hand`)."""
    chosen = [str(data.get(f"place_{n}", "")).strip() for n in GUANDAN_PLACES]
    for value in chosen:
        if value and not value.isdigit():
            raise QuickError(
                "quick_seat_not_at_table",
                f"“{value}” is not a seat at this table (seats 1 to 4). Nothing was saved.",
                f"「{value}」はこの卓の席ではありません（1〜4番席）。保存していません。",
            )
    given = [n for n, value in zip(GUANDAN_PLACES, chosen, strict=True) if value]
    if given and given != list(range(1, len(given) + 1)):
        gap = _first_gap(given) or 1
        raise QuickError(
            "quick_missing_place",
            f"Place {gap} is blank while a later place is given: give the seats in the "
            "order they went out, from the first. Nothing was saved.",
            f"{gap}位が空いていますが、その後の順位が入力されています。上がった順に1位から"
            "入力してください。保存していません。",
        )
    order = [int(value) for value in chosen if value]
    check_seats(4, order, names, complete=False)
    return order


def judge_quick(game: str, form: str) -> str:
    """Judge a quick-result form offline (JSON: field → values), as the server's `quick` view
    reads and judges it — the same parser, the same codes and messages. ``game`` (JSON): the
    game's ``rules`` as a record names them, its ``seats``, the previous game's ``titles`` and
    the players' ``names`` by seat. Answers ``{"ok": true, "result":
    {finishing_order, fouls, miyako_ochi}, "placings": [...]}`` or the server's refusal."""
    facts = json.loads(game)
    rules = ruleset_from_record(facts["rules"])
    seats = int(facts["seats"])
    fields = {name: values[0] for name, values in json.loads(form).items() if values}
    names = facts.get("names")
    try:
        outcome = parse_quick_outcomes(fields, seats, names)
        placings = quick_placings(
            rules,
            seats,
            facts.get("titles"),
            outcome.finishing_order,
            outcome.fouls,
            outcome.miyako_ochi,
            names,
        )
    except QuickError as error:
        return json.dumps(Refused(error.code, error.message_en, error.message_ja).to_dict())
    result = {
        "finishing_order": outcome.finishing_order,
        "fouls": outcome.fouls,
        "miyako_ochi": outcome.miyako_ochi,
    }
    return json.dumps({"ok": True, "result": result, "placings": [p.to_dict() for p in placings]})
