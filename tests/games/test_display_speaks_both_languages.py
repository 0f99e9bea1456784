"""Game words for people (`games.display`) speak the active language: a Japanese page reads
the players' words (大富豪, 8切り, 革命！, 都落ち, 反則あがり, パス), an English page reads their
English names — each row one sentence, cards always as ♠3, never as codes."""

from __future__ import annotations

from django.utils import translation

from games.display import (
    GAME_STATUS_LABELS,
    TITLE_LABELS,
    event_sentence,
    log_line,
    move_sentence,
    typed_codes,
)

NAMES = {0: "佐藤", 1: "山本", 2: "Aoki"}


def sentences(*events: dict[str, object]) -> list[str]:
    return [event_sentence(e, NAMES) for e in events]


EVENTS = (
    {"kind": "played", "seat": 0, "cards": ["8S", "8H"]},
    {"kind": "eight_cut", "seat": 0},
    {"kind": "revolution", "seat": 1, "on": True},
    {"kind": "revolution", "seat": 1, "on": False},
    {"kind": "miyako_ochi", "seat": 1},
    {"kind": "foul_finish", "seat": 2, "place": 4},
    {"kind": "finished", "seat": 0, "place": 1},
    {"kind": "passed", "seat": 2},
    {"kind": "trick_cleared"},
    {"kind": "lock_started", "suits": ["S", "H"]},
    {"kind": "exchange_given", "seat": 1, "count": 2},
)


def test_events_read_as_english_sentences() -> None:
    with translation.override("en"):
        assert sentences(*EVENTS) == [
            "佐藤 played ♠8 ♥8",
            "佐藤: eight-cut",
            "山本: revolution!",
            "山本: counter-revolution!",
            "Miyako-ochi: 山本",
            "Aoki: foul finish — place 4",
            "佐藤 went out — place 1",
            "Aoki passed",
            "Trick cleared",
            "Lock: ♠ ♥",
            "山本 gave 2 cards in the card exchange",
        ]


def test_events_read_as_japanese_sentences_in_game_words() -> None:
    with translation.override("ja"):
        assert sentences(*EVENTS) == [
            "佐藤さんが♠8 ♥8を出しました",
            "佐藤さんが8切り",
            "山本さんが革命！",
            "山本さんが革命返し！",
            "都落ち: 山本さん",
            "Aokiさんが反則あがり(4位)",
            "佐藤さんがあがり(1位)",
            "Aokiさんがパス",
            "場が流れました",
            "しばり: ♠ ♥",
            "山本さんがカード交換で2枚渡しました",
        ]


def test_a_seat_without_a_name_is_numbered_from_one() -> None:
    with translation.override("en"):
        assert event_sentence({"kind": "eight_cut", "seat": 3}, {}) == "Seat 4: eight-cut"
    with translation.override("ja"):
        assert event_sentence({"kind": "eight_cut", "seat": 3}, {}) == "4番席さんが8切り"


def test_a_move_without_events_and_an_undo_read_in_either_language() -> None:
    undo = {"kind": "undo", "events": [], "reason": "misread"}
    played = {"kind": "action", "events": list(EVENTS[:2])}
    with translation.override("en"):
        assert move_sentence(undo, NAMES) == "Undo: misread"
        assert move_sentence(played, NAMES) == "佐藤 played ♠8 ♥8 · 佐藤: eight-cut"
    with translation.override("ja"):
        assert move_sentence(undo, NAMES) == "取り消し: misread"
        assert move_sentence(played, NAMES) == "佐藤さんが♠8 ♥8を出しました · 佐藤さんが8切り"


def test_titles_and_statuses_follow_the_language_they_are_read_in() -> None:
    with translation.override("en"):
        assert [TITLE_LABELS[t] for t in ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")] == [
            "Grand millionaire",
            "Millionaire",
            "Commoner",
            "Poor",
            "Extreme poor",
        ]
        assert GAME_STATUS_LABELS["in_play"] == "In play"
    with translation.override("ja"):
        assert [TITLE_LABELS[t] for t in ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")] == [
            "大富豪",
            "富豪",
            "平民",
            "貧民",
            "大貧民",
        ]
        assert GAME_STATUS_LABELS.get("in_play") == "対局中"
        assert TITLE_LABELS.get("unknown", "unknown") == "unknown"


def test_log_rows_keep_their_cards_apart_in_both_languages() -> None:
    give = {"seat": 3, "give": ["2S", "2H"]}
    call = {"seat": 1, "play": ["JS", "JH"], "choice": "down", "respond": True}
    with translation.override("en"):
        row = log_line(1, "action", give)
        assert (row.words, row.tail) == ("Seat 4 gave", "to the exchange")
        assert [c["label"] for c in row.cards] == ["♠2", "♥2"]
        assert str(log_line(2, "action", call)) == (
            "Seat 2 played ♠J ♥J · out of turn · 11-back call: down"
        )
        assert str(log_line(3, "action", {"seat": 0, "pass": True}, undone=True)) == (
            "Seat 1 passed · undone"
        )
    with translation.override("ja"):
        row = log_line(1, "action", give)
        assert (row.words, row.tail) == ("4番席が", "をカード交換に出しました")
        assert str(row) == "4番席が ♠2 ♥2 をカード交換に出しました"
        assert str(log_line(2, "action", call)) == (
            "2番席が ♠J ♥J を出しました · 手番外 · イレブンバック: 下"
        )
        assert str(log_line(3, "action", {"seat": 0, "pass": True}, undone=True)) == (
            "1番席がパス · 取り消し済み"
        )
        assert str(log_line(4, "undo", {"undo": 3}, reason="misread")) == (
            "3手目を取り消し — misread"
        )
        assert str(log_line(5, "decision", {"decide": 4, "approve": True})) == (
            "取り消し要求(4)を承認"
        )


def test_cards_can_be_typed_as_the_pages_show_them_or_as_codes() -> None:
    assert typed_codes("♠3 ♥10 jk 10d TC 4s") == ["3S", "TH", "JK", "TD", "TC", "4S"]
    # Anything else goes on unchanged, for the engine to refuse by name.
    assert typed_codes("♠ 3X") == ["♠", "3X"]
