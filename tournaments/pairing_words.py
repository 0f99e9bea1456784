"""The Swiss pairing's reasons in the page's language (`tournaments.pairing` keeps them as facts,
`TableReason` / `ByeReason`; its English sentence is the record kept in `explanation` and the
API). Each reason is one whole message, so a translation can order its parts freely."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.pairing import (
    ByeReason,
    TableReason,
    TeamRef,
    bye_reason_of,
    table_reason_of,
)


def _points(value: float) -> str:
    return f"{value:g}"


def _team(team: TeamRef) -> str:
    if team.number is None:
        return team.label
    return _("Team %(number)s %(name)s") % {"number": team.number, "name": team.name}


def _listed(items: list[str]) -> str:
    return pgettext("list separator", ", ").join(items)


def table_reason_words(reason: TableReason) -> str:
    """Why the table's two teams meet, e.g. "Team 1 Sakura (4 MP) v Team 2 Fuji (4 MP): paired
    in the 4-point group." / 「チーム 1 Sakura（勝点4）対 チーム 2 Fuji（勝点4）：
    勝点4点グループ内で対戦。」"""
    values: dict[str, Any] = {
        "first": _team(reason.first),
        "second": _team(reason.second),
        "first_points": _points(reason.first.match_points),
        "second_points": _points(reason.second.match_points),
        "group": _points(reason.group_points),
        "rounds": _listed(list(reason.met_in)),
        "repeats": reason.repeats,
        "taken": _listed(
            [
                _("%(team)s (v %(opponent)s)")
                % {"team": _team(e.team), "opponent": _team(e.opponent)}
                for e in reason.elsewhere
            ]
        ),
    }
    if reason.kind == "lot":
        return _("%(first)s v %(second)s: paired by lot (first round).") % values
    if reason.kind == "group":
        if reason.met_in:
            return (
                _(
                    "%(first)s (%(first_points)s MP) v %(second)s (%(second_points)s MP): paired "
                    "in the %(group)s-point group; they met before (round %(rounds)s): no pairing "
                    "without a repeat exists, this one has the fewest (%(repeats)s)."
                )
                % values
            )
        return (
            _(
                "%(first)s (%(first_points)s MP) v %(second)s (%(second_points)s MP): paired in "
                "the %(group)s-point group."
            )
            % values
        )
    if not reason.elsewhere:
        if reason.met_in:
            return (
                _(
                    "%(first)s (%(first_points)s MP) v %(second)s (%(second_points)s MP): "
                    "%(first)s floated down: no unplayed opponent in the %(group)s-point group; "
                    "they met before (round %(rounds)s): no pairing without a repeat exists, this "
                    "one has the fewest (%(repeats)s)."
                )
                % values
            )
        return (
            _(
                "%(first)s (%(first_points)s MP) v %(second)s (%(second_points)s MP): %(first)s "
                "floated down: no unplayed opponent in the %(group)s-point group."
            )
            % values
        )
    if reason.met_in:
        return (
            _(
                "%(first)s (%(first_points)s MP) v %(second)s (%(second_points)s MP): %(first)s "
                "floated down: its unplayed opponents in the %(group)s-point group are paired "
                "elsewhere (%(taken)s); they met before (round %(rounds)s): no pairing without a "
                "repeat exists, this one has the fewest (%(repeats)s)."
            )
            % values
        )
    return (
        _(
            "%(first)s (%(first_points)s MP) v %(second)s (%(second_points)s MP): %(first)s "
            "floated down: its unplayed opponents in the %(group)s-point group are paired "
            "elsewhere (%(taken)s)."
        )
        % values
    )


def bye_reason_words(reason: ByeReason) -> str:
    """Why the team sits out, e.g. "Team 5 Yama (0 MP) had a bye: lowest ranked without one." /
    「チーム 5 Yama（勝点0）が不戦：不戦未経験のチームで最下位。」"""
    values: dict[str, Any] = {
        "team": _team(reason.team),
        "points": _points(reason.team.match_points),
        "fewest": reason.fewest,
        "passed_over": _listed([_team(t) for t in reason.passed_over]),
    }
    if reason.kind == "lot":
        return _("%(team)s had a bye: drawn by lot (an odd number of teams).") % values
    if reason.kind == "next_lowest":
        if reason.fewest == 0:
            return (
                _(
                    "%(team)s (%(points)s MP) had a bye: next lowest ranked without one: "
                    "%(passed_over)s sitting out would have forced a repeat pairing."
                )
                % values
            )
        return (
            _(
                "%(team)s (%(points)s MP) had a bye: next lowest ranked of those with the fewest "
                "(%(fewest)s): %(passed_over)s sitting out would have forced a repeat pairing."
            )
            % values
        )
    if reason.fewest == 0:
        return _("%(team)s (%(points)s MP) had a bye: lowest ranked without one.") % values
    return (
        _(
            "%(team)s (%(points)s MP) had a bye: every team has had a bye: lowest ranked of those "
            "with the fewest (%(fewest)s)."
        )
        % values
    )


def table_reason_text(reason: dict[str, Any] | None, explanation: str) -> str:
    """A stored table's reason in the page's language; a row drawn before reasons were stored
    (or a 大富豪 table) shows its stored `explanation`."""
    if reason is None:
        return explanation
    return table_reason_words(table_reason_of(reason))


def bye_reason_text(reason: dict[str, Any] | None, explanation: str) -> str:
    """A stored bye's reason in the page's language, like `table_reason_text`."""
    if reason is None:
        return explanation
    return bye_reason_words(bye_reason_of(reason))
