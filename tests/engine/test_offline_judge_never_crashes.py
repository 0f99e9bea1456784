"""The offline console's judge (games/offline.py) answers every tap, whatever a page sends it:
an accepted move or a refusal with a code and both languages — never an exception, which in
the browser would leave the referee with a dead button. What it accepts replays to the same
state (the queue it keeps is the truth it syncs), and cards are never made or lost."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from games import offline
from games.engine import JDF, legal_moves, new_game
from games.engine.deal import deal
from games.engine.record import export_record
from games.engine.rules import LOCAL

FIELDS = ["seat", "cards", "cards_text", "action", "as", "declare", "choice", "respond", "misplay"]
WORDS = ["0", "1", "2", "3", "-1", "9", "play", "pass", "give", "misplay", "set", "stairs",
         "up", "down", "1", "3S", "♠3", "JK", "jk", "TD", "10H", "zz", "", "♥"]  # fmt: skip

forms = st.dictionaries(
    st.sampled_from(FIELDS),
    st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=6)), max_size=4),
    max_size=len(FIELDS),
)


def record(seed: int, rules: Any = JDF) -> str:
    dealt = deal(f"offline-{seed}", rules)
    return json.dumps(export_record(new_game(rules, dealt.hands, blind=dealt.blind), []))


@given(seed=st.integers(0, 50), taps=st.lists(forms, max_size=12), local=st.booleans())
def test_every_tap_gets_a_verdict_and_the_accepted_ones_replay(
    seed: int, taps: list[dict[str, list[str]]], local: bool
) -> None:
    start = record(seed, LOCAL if local else JDF)
    queue: list[object] = []
    for tap in taps:
        answer = json.loads(offline.judge(start, json.dumps(queue), json.dumps(tap)))
        if answer["ok"]:
            queue.append(answer["move"])
        else:
            assert answer["code"] and answer["message_en"] and answer["message_ja"]

    view = json.loads(offline.state_view(start, json.dumps(queue)))
    now = [c["code"] for hand in view["hands"] for c in hand] + view["played"]
    dealt = [code for hand in json.loads(start)["hands"] for code in hand]
    assert sorted(now + view.get("discarded", [])) == sorted(dealt)


@given(seed=st.integers(0, 50), steps=st.integers(0, 40))
def test_legal_moves_offered_by_the_engine_are_accepted_as_taps(seed: int, steps: int) -> None:
    start = record(seed)
    state = offline.Table(json.loads(start)).state
    queue: list[object] = []
    for _ in range(steps):
        moves = list(legal_moves(state))
        if not moves:
            break
        move = moves[len(queue) % len(moves)]
        tap: dict[str, list[str]] = {"seat": [str(move.seat)]}
        payload = offline.Table(json.loads(start)).family.move_to_json(move)
        if "pass" in payload:
            tap["action"] = ["pass"]
        elif "give" in payload:
            tap |= {"action": ["give"], "cards": list(payload["give"])}  # type: ignore[arg-type]
        else:
            tap |= {"action": ["play"], "cards": list(payload["play"])}  # type: ignore[arg-type]
            if "as" in payload:
                joker = payload["as"]["JK"]  # type: ignore[index]
                tap["as"] = [" ".join(joker) if isinstance(joker, list) else joker]
            if "declare" in payload:
                tap["declare"] = [str(payload["declare"])]
            if "choice" in payload:
                tap["choice"] = [str(payload["choice"])]
        answer = json.loads(offline.judge(start, json.dumps(queue), json.dumps(tap)))
        assert answer["ok"], (tap, answer)
        queue.append(answer["move"])
        state = offline.Table(json.loads(start), queue).state
