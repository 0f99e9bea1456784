"""API shapes of the standings (順位表): the rows of `scoring.exports.standing_dict`, the rows
the public boards and the CSV/JSON exports show, and the board's frame (rounds, cut line)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.rulesets import service_families


class StandingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="Another row has the same rank (同順位).")
    entry = serializers.IntegerField(
        allow_null=True, help_text="The entry number (null on a season board)."
    )
    player = serializers.CharField()
    player_id = serializers.IntegerField()
    points = serializers.IntegerField(help_text="Net of active penalty deductions.")
    games = serializers.IntegerField()
    metrics = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="The game family's metric counts by key, as the family declares them "
        "(大富豪: daifugo, fugo, heimin, hinmin, daihinmin titles, fouls (反則あがり), "
        "miyako_ochi (都落ち)); each is also a field of its own.",
    )
    best_set = serializers.IntegerField(allow_null=True)
    penalty_points = serializers.IntegerField(help_text="Active deductions (減点), already taken.")
    warnings = serializers.IntegerField(help_text="Active warnings (警告).")
    provisional = serializers.BooleanField(help_text="Some of its results are provisional (暫定).")
    provisional_games = serializers.IntegerField(
        help_text="Games finished but not yet confirmed by a second official."
    )
    confirmed_points = serializers.IntegerField(
        allow_null=True, help_text="Points on confirmed results only (what cut lines use)."
    )
    confirmed_rank = serializers.IntegerField(allow_null=True)
    reached_stage = serializers.CharField(
        allow_null=True,
        help_text="The name of the latest stage the entrant took part in (到達); the "
        "tournament's rank orders by it first (docs/formats.md). Null on a season board and "
        "for an entrant who has played no stage yet.",
    )
    decided_by_playoff = serializers.BooleanField(
        help_text="Placed among entrants level on every tie-break by a settled playoff "
        "(順位決定戦); playoff games add nothing to points."
    )
    duplicate_points = serializers.CharField(
        allow_null=True,
        help_text="Duplicate Daifugo's par total (docs/duplicate.md) as a decimal string with "
        '2 places ("-1.33"): the sum over the player\'s duplicate games of their points minus '
        "the mean of the other holders of the same hand; null where the scope has no "
        "duplicate game.",
    )
    duplicate_games = serializers.IntegerField(
        help_text="The duplicate games counted in duplicate_points (a hand no one else has "
        "held yet is not counted)."
    )
    advancing = serializers.BooleanField(
        allow_null=True,
        help_text="Stage boards with a cut: would advance on confirmed results; null elsewhere.",
    )


# The metrics of each family the service runs are also fields of a row of their own (the shape
# rows had before metrics were the family's), declared here from the families so that the schema
# lists them; a scope has those of its own family only.
for _family in service_families().values():
    for _metric in _family.metrics:
        if _metric.key not in StandingRowSerializer._declared_fields:
            _field = serializers.IntegerField(
                required=False, help_text=f"metrics.{_metric.key} ({_family.name})."
            )
            StandingRowSerializer._declared_fields[_metric.key] = _field


class CorrectedGameSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    set = serializers.IntegerField()
    game = serializers.IntegerField()


class StandingsRoundSerializer(serializers.Serializer[Any]):
    tournament = serializers.CharField()
    stage = serializers.CharField()
    round = serializers.IntegerField()
    status = serializers.CharField()
    complete = serializers.BooleanField(help_text="Its results are final.")
    corrected_after_reveal = CorrectedGameSerializer(
        many=True, help_text="Games an organiser corrected after the seed was revealed."
    )


class CutSerializer(serializers.Serializer[Any]):
    rule = serializers.CharField(help_text="The stage's advancement rule, as the board says it.")
    advancing = serializers.ListField(
        child=serializers.IntegerField(), help_text="Entry numbers that would advance."
    )
    tied = serializers.ListField(
        child=serializers.IntegerField(), help_text="Entry numbers tied across the line."
    )
    places_left = serializers.IntegerField()
    line_after_rank = serializers.IntegerField(allow_null=True)
    provisional_games = serializers.IntegerField(help_text="Results the cut does not count yet.")


class StandingsScopeSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField(help_text="tournament, stage or season.")
    id = serializers.IntegerField()


class OrderStepSerializer(serializers.Serializer[Any]):
    stages = serializers.ListField(
        child=serializers.CharField(), help_text="The stages whose entrants this step ranks."
    )
    by = serializers.ChoiceField(
        choices=["stage", "totals"],
        help_text="stage: by that stage's standings (its playoffs included); totals: several "
        "stages ranked together by the tournament's total points.",
    )


class OrderSerializer(serializers.Serializer[Any]):
    caption = serializers.CharField(
        help_text="The order in words, in the reader's language: 「決勝の順位 → 予選の順位」."
    )
    steps = OrderStepSerializer(many=True, help_text="Best first; entrants of no stage last.")


class StandingsSerializer(serializers.Serializer[Any]):
    scope = StandingsScopeSerializer()
    title = serializers.CharField()
    order = OrderSerializer(
        allow_null=True,
        help_text="The tournament board: how its rank is built (stage reached first, "
        "docs/formats.md); null for a stage or a season, ranked by their own standings.",
    )
    version = serializers.IntegerField(
        help_text="Changes whenever the standings change: poll with ?v= (304-free: compare it)."
    )
    complete = serializers.BooleanField(help_text="Every round of the scope is final.")
    any_provisional = serializers.BooleanField()
    tie_breaks = serializers.ListField(
        child=serializers.CharField(), help_text="The tie-break keys, in order."
    )
    rounds = StandingsRoundSerializer(many=True)
    cut = CutSerializer(allow_null=True, help_text="Stage boards whose stage has a cut rule.")
    count = serializers.IntegerField(help_text="Rows in all (the page holds `limit` of them).")
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = StandingRowSerializer(many=True)


# --- team standings (掼蛋 Guandan team events) -----------------------------------------------


class TeamInPlaySerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField(help_text="The table number in the current round.")
    opponent = serializers.IntegerField(allow_null=True, help_text="The opponent's team number.")
    opponent_name = serializers.CharField()
    levels = serializers.ListField(
        child=serializers.CharField(),
        help_text='The team\'s level and the opponent\'s as they stand ("2" … "10", "J" … "A").',
    )
    hands = serializers.IntegerField(help_text="Hands of the match finished so far.")


class TeamStandingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="Another team has the same rank (同順位).")
    team = serializers.IntegerField(help_text="The team number.")
    team_name = serializers.CharField()
    members = serializers.ListField(
        child=serializers.CharField(), help_text="Its players' names, by entry number."
    )
    match_points = serializers.IntegerField(help_text="Match points (勝点), byes included.")
    played = serializers.IntegerField(help_text="Matches over (a match in play is not one).")
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField(help_text="Rounds it sat out with a bye (不戦).")
    level_difference = serializers.IntegerField(
        help_text="Over its matches played: its final level minus the opponents' (級差); "
        "a match won at A counts one level past A."
    )
    opponents_strength = serializers.IntegerField(
        help_text="The match points of the teams it has played, summed (Buchholz)."
    )
    provisional = serializers.BooleanField(
        help_text="A match counted has a hand not yet confirmed (暫定)."
    )
    provisional_matches = serializers.IntegerField()
    in_play = TeamInPlaySerializer(
        allow_null=True, help_text="The match it is playing now, not counted yet."
    )


class TeamStandingsSerializer(serializers.Serializer[Any]):
    scope = StandingsScopeSerializer()
    title = serializers.CharField()
    version = serializers.IntegerField(
        help_text="The scope's standings version, shared with the individual standings."
    )
    complete = serializers.BooleanField(help_text="Every round of the scope is final.")
    any_provisional = serializers.BooleanField()
    tie_breaks = serializers.ListField(
        child=serializers.CharField(),
        help_text="match_points, level_difference, opponents_strength: the ranking keys.",
    )
    rounds = StandingsRoundSerializer(many=True)
    count = serializers.IntegerField(help_text="Teams in all (the page holds `limit` of them).")
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = TeamStandingRowSerializer(many=True)


class RatingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="Equal displayed ratings share a rank.")
    player = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.display_name")
    rating = serializers.IntegerField(help_text="1500 + 40 × (μ − 3σ), rounded.")
    spread = serializers.IntegerField(help_text="σ on the displayed scale (the ± shown).")
    games_in_scope = serializers.IntegerField(help_text="Rated games in the league.")
    games = serializers.IntegerField(help_text="Rated games in every event.")


class LeagueRatingsSerializer(serializers.Serializer[Any]):
    league = serializers.SlugField()
    name = serializers.CharField()
    results = RatingRowSerializer(many=True)


class RatingPointSerializer(serializers.Serializer[Any]):
    sequence = serializers.IntegerField(help_text="The order the games were rated in.")
    game = serializers.IntegerField(source="game_id")
    tournament = serializers.SlugField(source="tournament.slug")
    played_at = serializers.DateTimeField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    rating = serializers.IntegerField()


class PlayerRatingSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.IntegerField(allow_null=True, help_text="Null: no rated game yet.")
    spread = serializers.IntegerField(allow_null=True)
    raw_rating = serializers.IntegerField(
        allow_null=True, help_text="The same replay ranked by places alone (no deal adjustment)."
    )
    games = serializers.IntegerField()
    history = RatingPointSerializer(many=True)
