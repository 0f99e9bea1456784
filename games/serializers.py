"""API shapes for games (declared so drf-spectacular documents every status, 409/422 too)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import Game, Move


class MoveSubmitSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField(min_value=1, help_text="The move's number in the game's log.")
    move = serializers.JSONField(
        help_text='A kakumei-record/1 move: {"seat": 0, "play": ["3S"]}, {"seat": 1, '
        '"pass": true}, an exchange give {"seat": 3, "give": ["2S", "2H"]} or, where the '
        'ruleset has misplay (プンリー), a recorded misplay {"seat": 2, "misplay": ["7H"]}.'
    )


class MoveAcceptedSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=["accepted", "replayed"])
    seq = serializers.IntegerField()
    next_seq = serializers.IntegerField()
    events = serializers.ListField(child=serializers.JSONField())
    game_over = serializers.BooleanField()


class MoveErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="Stable code, e.g. not_stronger, seq_conflict.")
    message_en = serializers.CharField()
    message_ja = serializers.CharField()
    rule = serializers.CharField(required=False, help_text="The rule the engine applied.")
    expected_seq = serializers.IntegerField(required=False, help_text="On 409: the next seq.")


class BatchLineSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField()
    http_status = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["accepted", "replayed", "conflict", "rejected", "invalid"]
    )
    seq = serializers.IntegerField(allow_null=True)
    events = serializers.ListField(child=serializers.JSONField(), required=False)
    error = MoveErrorSerializer(required=False)


class BatchResultSerializer(serializers.Serializer[Any]):
    ok = serializers.BooleanField(help_text="Every line was accepted or replayed.")
    results = BatchLineSerializer(many=True)


class PublicMoveSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Move.Kind.choices)
    seat = serializers.IntegerField(allow_null=True)
    move = serializers.JSONField(
        help_text="Exchange gives show only their card count until the end."
    )
    events = serializers.ListField(child=serializers.JSONField())
    ref_seq = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(
        help_text="An undo's reason; blank at a known deal (the official's note may name the "
        "cards taken back)."
    )
    approved = serializers.BooleanField(
        allow_null=True,
        help_text="An undo's verdict (the head referee's decision where one was needed): null "
        "while it waits; a decision row's own verdict.",
    )
    withdrawn = serializers.BooleanField(
        help_text="An action an undo took back, listed struck through at an open table (a known "
        "deal lists nothing of it: its cards are back in a hidden hand)."
    )
    created_at = serializers.DateTimeField()


class MoveListSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    last_seq = serializers.IntegerField()
    moves = PublicMoveSerializer(many=True)


TEAM_HELP = "The partnership the seat played in (Guandan); null where every seat plays alone."
DETAIL_HELP = (
    "The game family's own result detail: for 大富豪 title (null in a 3-player game), foul "
    "(反則あがり) and miyako_ochi (都落ち)."
)
FLAT_HELP = (
    'A copy of detail\'s value, kept for clients of 大富豪-only results (title: "" when none).'
)


class LiveResultSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    place = serializers.IntegerField()
    team = serializers.IntegerField(allow_null=True, help_text=TEAM_HELP)
    detail = serializers.JSONField(help_text=DETAIL_HELP)
    title = serializers.CharField(allow_blank=True, required=False, help_text=FLAT_HELP)
    foul = serializers.BooleanField(required=False, help_text=FLAT_HELP)
    miyako_ochi = serializers.BooleanField(required=False, help_text=FLAT_HELP)
    points = serializers.IntegerField()


class LiveGameSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    set_number = serializers.IntegerField()
    game_number = serializers.IntegerField()
    mode = serializers.ChoiceField(choices=Game.Mode.choices)
    status = serializers.ChoiceField(choices=Game.Status.choices)
    seating = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The table position (1-based) whose player plays each engine seat: "
        "[1, 2, 3, 4] as drawn, another order after a seat change (UECda 席替え).",
    )
    version = serializers.IntegerField()
    last_seq = serializers.IntegerField()
    state = serializers.JSONField(
        allow_null=True, help_text="engine.observe(state, None): hands hidden until the end."
    )
    recent = PublicMoveSerializer(many=True)
    results = LiveResultSerializer(many=True)


class LiveSeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(
        help_text="The engine seat (0-based, turn order) this player plays in the current game."
    )
    position = serializers.IntegerField(help_text="The table position the draw gave (1-based).")
    entry_number = serializers.IntegerField()
    player = serializers.CharField()


class LiveTableSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    seats = LiveSeatSerializer(many=True)
    game = LiveGameSerializer(allow_null=True)
