"""What a ruling changes in the standings and at a stage's cut (issue #35 §3): the question
games and tournaments ask before a correction, a void, a forfeit or a penalty is saved, and
which scoring answers.

Tournaments never imports scoring (scoring builds on tournaments), so scoring registers its
answer when the app is ready (`scoring.impact.ruling_impact`): it runs the ruling's own write
inside a savepoint, recomputes every scope of the tournament with the real standings code
before and after, and rolls everything back — so a preview can never disagree with what saving
the ruling writes. Without it (tournaments alone) nothing is known, and nothing is asked.

`Impact` says, per scope (the tournament, each of its stages, its season), who moves from
which rank to which, and per stage with a cut rule whose entrants above the cut change, who
falls out, who comes in and who is now tied on the line. Such a change needs the official's
explicit confirmation (`require_cut_confirmed`, refusal `cut_change_unconfirmed`); the
confirmation is recorded with the ruling's audit entry (`Impact.audit`). Nothing about an
advancement already made changes automatically: those who moved on stay where they are until
the officials decide otherwise (docs/tournament-day.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.models import Tournament

IN, TIED, OUT = "in", "tied", "out"


def rank_words(rank: int | None, tied: bool) -> str:
    """A board rank in the active language: 「2位」, 「4位（同率）」, 「順位なし」."""
    if rank is None:
        return _("not ranked")
    if tied:
        return _("rank %(rank)s (tied)") % {"rank": rank}
    return _("rank %(rank)s") % {"rank": rank}


def cut_status_words(status: str) -> str:
    """Where an entrant stands at a stage's cut, in the active language."""
    if status == IN:
        return pgettext("cut status", "above the cut")
    if status == TIED:
        return pgettext("cut status", "tied on the cut line")
    return pgettext("cut status", "below the cut")


@dataclass(frozen=True, slots=True)
class Who:
    """An entrant (or, in a season, a player) as the boards name them."""

    player_id: int
    entry_id: int | None
    name: str
    number: int | None

    @property
    def label(self) -> str:
        return f"{self.name} #{self.number}" if self.number is not None else self.name

    def as_dict(self) -> dict[str, Any]:
        return {
            "entry": self.entry_id,
            "entry_number": self.number,
            "player": self.player_id,
            "name": self.name,
        }


@dataclass(frozen=True, slots=True)
class RankMove:
    """One competitor whose board rank changes: `before`/`after` (None: not on the board),
    each tied when another row shares it."""

    who: Who
    before: int | None
    before_tied: bool
    after: int | None
    after_tied: bool

    @property
    def words(self) -> str:
        """「2位 → 4位（同率）」 in the active language."""
        return (
            f"{rank_words(self.before, self.before_tied)} → "
            f"{rank_words(self.after, self.after_tied)}"
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.who.as_dict(),
            "rank_before": self.before,
            "tied_before": self.before_tied,
            "rank_after": self.after,
            "tied_after": self.after_tied,
        }


@dataclass(frozen=True, slots=True)
class CutMove:
    """An entrant whose place at the cut changes: `before`/`after` are IN, TIED or OUT."""

    who: Who
    before: str
    after: str

    @property
    def words(self) -> str:
        return f"{cut_status_words(self.before)} → {cut_status_words(self.after)}"

    def as_dict(self) -> dict[str, Any]:
        return {**self.who.as_dict(), "before": self.before, "after": self.after}


@dataclass(frozen=True, slots=True)
class CutChange:
    """A stage whose set of entrants above the cut changes. `advanced_to`: the next stage's
    name when the stage has advanced already (its qualifiers moved on), else ""."""

    stage_id: int
    stage: str
    rule: str
    advanced_to: str
    moves: tuple[CutMove, ...]
    # After the ruling: entrants tied across the line, and how many places they contend for.
    tied_after: tuple[Who, ...] = ()

    @property
    def falls_out(self) -> list[Who]:
        return [m.who for m in self.moves if m.before == IN and m.after != IN]

    @property
    def comes_in(self) -> list[Who]:
        return [m.who for m in self.moves if m.before != IN and m.after == IN]

    @property
    def newly_tied(self) -> list[Who]:
        return [m.who for m in self.moves if m.after == TIED]

    def as_dict(self) -> dict[str, Any]:
        return {
            "stage": self.stage_id,
            "stage_name": self.stage,
            "rule": self.rule,
            "advanced": bool(self.advanced_to),
            "advanced_to": self.advanced_to,
            "moves": [m.as_dict() for m in self.moves],
            "falls_out": [w.entry_id for w in self.falls_out],
            "comes_in": [w.entry_id for w in self.comes_in],
            "tied_after": [w.entry_id for w in self.tied_after],
        }


@dataclass(frozen=True, slots=True)
class ScopeImpact:
    """One scope's standings: `kind` a scoring scope (tournament, stage, season)."""

    kind: str
    id: int
    label: str
    moves: tuple[RankMove, ...] = ()
    cut: CutChange | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "scope": self.kind,
            "id": self.id,
            "name": self.label,
            "rank_changes": [m.as_dict() for m in self.moves],
            "cut_change": self.cut.as_dict() if self.cut is not None else None,
        }


@dataclass(frozen=True, slots=True)
class Impact:
    """What a ruling would change, scope by scope (only the scopes where something moves)."""

    scopes: tuple[ScopeImpact, ...] = ()
    # Whether the standings could be computed at all (tournaments alone: not).
    known: bool = True

    @property
    def changes_ranks(self) -> bool:
        return any(s.moves for s in self.scopes)

    @property
    def cut_changes(self) -> list[CutChange]:
        return [s.cut for s in self.scopes if s.cut is not None]

    @property
    def confirmed_cuts_changed(self) -> list[CutChange]:
        """The cut changes at stages that have advanced already: their qualifiers moved on
        on the old order, so the ruling needs the official's explicit confirmation. A cut
        that is still provisional (the stage plays on) moves with the boards, shown only."""
        return [c for c in self.cut_changes if c.advanced_to]

    @property
    def needs_confirmation(self) -> bool:
        return bool(self.confirmed_cuts_changed)

    def as_dict(self) -> dict[str, Any]:
        """The API's shape (structured: scope, entrant, rank before and after)."""
        return {
            "scopes": [s.as_dict() for s in self.scopes],
            "cut_changes": [c.as_dict() for c in self.cut_changes],
            "needs_cut_confirmation": self.needs_confirmation,
        }

    def audit(self, confirmed: bool) -> dict[str, Any]:
        """What the ruling's audit entry keeps of it: the rank and cut changes, and whether
        the official confirmed the cut change (empty when nothing moved)."""
        if not self.scopes:
            return {}
        data: dict[str, Any] = {"standings": [s.as_dict() for s in self.scopes]}
        if self.needs_confirmation:
            data["cut_change_confirmed"] = confirmed
        return data


NO_CHANGE = Impact()
NOTHING_KNOWN = Impact(known=False)

Provider = Callable[[Tournament, Callable[[], object]], Impact]
_provider: Provider | None = None


def register_ruling_impact(provider: Provider | None) -> None:
    global _provider  # one process-wide answer, set once at start-up
    _provider = provider


def ruling_impact(tournament: Tournament, apply: Callable[[], object]) -> Impact:
    """What `apply` — the ruling's own write, run and rolled back — changes in `tournament`'s
    standings. Errors `apply` raises (the ruling's refusals) propagate, nothing written."""
    if _provider is None:
        return NOTHING_KNOWN
    return _provider(tournament, apply)


class CutChangeUnconfirmed(Exception):
    """Raised by `require_cut_confirmed`; callers turn it into their own refusal type."""

    code = "cut_change_unconfirmed"

    def __init__(self, impact: Impact) -> None:
        stages = ", ".join(c.stage for c in impact.confirmed_cuts_changed)
        self.message_en = (
            f"This changes who is above the cut of {stages}. Look at the preview, tick the "
            "confirmation that you have seen the cut change, and give a reason: nothing was "
            "saved."
        )
        self.message_ja = (
            f"この変更で{stages}のカット内の顔ぶれが変わります。プレビューを確認し、カットの"
            "変更を確認したことにチェックを入れ、理由を入力してください。保存していません。"
        )
        super().__init__(self.message_en)


def require_cut_confirmed(impact: Impact, confirmed: bool) -> None:
    """Refuse (`cut_change_unconfirmed`) a ruling that changes who is above the cut of a
    stage that has advanced already, unless the official confirmed it explicitly."""
    if impact.needs_confirmation and not confirmed:
        raise CutChangeUnconfirmed(impact)
