"""Records of what was played, for the table's officials: a team match (掼蛋 Guandan) as one
`kakumei-record/1` match record (`games.records.match_record`).

Unlike the table API (`games.api_table`), a record holds the deals — but only of hands that
have ended, which tell nothing of a hand in play (each hand's deal is derived from the round's
seed on its own), and only the table's officials (or its device) may read it.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from games.api_table import TableAPIView, _call, _errors, writable_table
from games.records import match_record


class TableMatchRecordView(TableAPIView):
    @extend_schema(
        operation_id="tables_match_record",
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="A kakumei-record/1 match record (docs/record-format.md §8).",
            ),
            **_errors(
                conflict="no_hands_ended (no hand of the match has ended), match_not_replayable "
                "(a hand entered as a result only, or corrected: not replayable from its cards)."
            ),
        },
    )
    def get(self, request: Request, table_id: int) -> Response:
        """The table's team match as one match record: every ended hand's deal, first leader
        and moves, in playing order, each hand's `match` as the service started it. `python -m
        games.engine replay` replays it and derives the same levels (officials only)."""
        table = writable_table(request, table_id)
        if isinstance(table, Response):
            return table
        return _call(lambda: Response(match_record(table)))
