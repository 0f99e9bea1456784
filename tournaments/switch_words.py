"""A ruleset's switches and their values in the page's language (the engine names them in code,
`eleven_back`, and describes them in English for the record format's readers).

A switch or value missing here (a family added later) shows its engine name: the settings page
still lists it, only less kindly worded.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

SWITCH_LABELS: dict[str, Promise] = {
    # 大富豪
    "seats": _("Players at a table"),
    "jokers": _("Jokers in the deck"),
    "blind_cards": _("Blind cards (ブラインドカード)"),
    "first_lead_cards": _("Opening cards, in order"),
    "opening_card_required": _("The first play includes the opening card"),
    "opening_card_every_game": _("The opening card leads every game"),
    "pass_on_lead": _("Passing on an empty table (空場パス)"),
    "last_player_may_follow": _("The last player may play on their own cards"),
    "joker_pair_allowed": _("Two jokers make a pair"),
    "joker_single_only": _("The joker is played only alone"),
    "one_card_two_jokers": _("One card and two jokers"),
    "revolution_set_size": _("Revolution (革命): cards in a set"),
    "revolution_stairs_size": _("Revolution by stairs (階段革命): cards"),
    "stairs_overlap": _("Stairs may overlap the table's ranks"),
    "joker_beyond_ends": _("A joker beyond the ends of stairs"),
    "double_stairs": _("Double stairs (イーペーコー)"),
    "triple_run": _("Three triples in a row (サンレンコー)"),
    "eight_cut": _("8-cut (8切り)"),
    "eight_cut_in_stairs": _("8-cut by stairs through the 8"),
    "eight_cut_joker_in_stairs": _("8-cut by a joker standing for the 8 in stairs"),
    "eleven_back": _("11-back (11バック)"),
    "reset_passes_on_reverse": _("Passes reset when the order turns"),
    "spade_three_return": _("Spade-3 return (スペ3返し)"),
    "heart_three_return": _("Heart-3 return (ハート3返し)"),
    "joker_return_out_of_turn": _("The joker return out of turn"),
    "spade3_ignores_lock": _("The joker return ignores a lock (縛り)"),
    "suit_lock": _("Suit lock (縛り)"),
    "suit_lock_after": _("Suit lock: matching plays that start it"),
    "lock_counts_joker_suits": _("A joker's suit counts toward a lock"),
    "joker_suit_choice": _("The player chooses a joker's suit"),
    "number_lock": _("Number lock (数字縛り)"),
    "number_lock_after": _("Number lock: one-step plays that start it"),
    "miyako_ochi": _("Capital falls (都落ち)"),
    "lone_spade3_finish_is_foul": _("Going out on a lone spade 3 is a foul"),
    "foul_finishes": _("Foul finishes (反則あがり)"),
    "eight_in_stairs_finish_is_foul": _("Going out on stairs through the 8 is a foul"),
    "foul_order": _("Places of demoted players"),
    "instant_win": _("Instant win (イッツー)"),
    "exchange_order": _("Card exchange"),
    "stalemate_passes": _("Stalemate (千日手) after this many passes"),
    "misplay": _("Misplays recorded (プンリー)"),
    # 掼蛋 Guandan
    "tribute_tie": _("Two equal tribute cards"),
    "return_limit": _("The card given back for a tribute"),
    "a_failure_limit": _("Failures at A before going back to 2"),
    "aces_finish_demotes": _("An opponent going out on aces sends the A team back"),
    # 大財閥 Daizaibatsu (seats and number_lock: as 大富豪's)
    "hand_size": _("Cards dealt to each player (the rest is the 山札)"),
    "pile_renewals": _("Renewals of the 山札 before an empty one ends the game"),
    "eight_cut_window": _("An 8-cut may be answered out of turn (砂嵐, four 3s)"),
    "forbidden_finish": _("Going out on 3s, 8s, 2s or jokers only is not allowed"),
    "skip_counts_finished": _("A 5-skip counts players already out"),
    "reverse_per_card": _("Each 9 of a play reverses the direction"),
    "three_nines_at_once": _("Three 9s revolt at once"),
    "zaibatsu_revolution": _("財閥革命 / 大財閥革命"),
    "finish_kill_card": _("上がり殺し (finish kill) card"),
    "counter_draw_returns_finished": _("革命返し draws bring players already out back"),
    "stairs_effects_in_order": _("Effects in stairs run weakest to strongest"),
    "double_back_factor": _("倍返し: times the cards drawn"),
    "pass_is_final": _("A pass is final until the trick flows"),
    "counter_toggles": _("Each 革命返し of a chain turns the order"),
}

# A string value of a switch, by switch and value: "choice" means one thing for 11-back only.
VALUE_LABELS: dict[tuple[str, str], Promise] = {
    ("eleven_back", "off"): pgettext_lazy("11-back", "off"),
    ("eleven_back", "choice"): _("the player chooses up or down"),
    ("eleven_back", "toggle"): _("a J reverses the order"),
    ("one_card_two_jokers", "declare"): _("the player declares set or stairs"),
    ("one_card_two_jokers", "set"): _("always a set"),
    ("foul_finishes", "standard"): _("joker, 8, spade 3, 2 (JDF)"),
    ("foul_finishes", "joker"): _("a joker only"),
    ("foul_finishes", "none"): _("none"),
    ("foul_order", "first_lowest"): _("the first foul lowest (JDF)"),
    ("foul_order", "latest_lowest"): _("the latest demoted lowest"),
    ("exchange_order", "simultaneous"): _("at the same time, face down"),
    ("exchange_order", "lower_first"): _("the lower titles give first (UECda)"),
    ("tribute_tie", "seat_order"): _("the payer nearer first place gives to first place"),
    ("tribute_tie", "first_chooses"): _("first place chooses"),
    ("return_limit", "ten_or_lower"): _("a 10 or lower"),
    ("return_limit", "any"): _("any card"),
    ("zaibatsu_revolution", "off"): pgettext_lazy("daizaibatsu switch", "not played"),
    ("finish_kill_card", "off"): pgettext_lazy("daizaibatsu switch", "no finish-kill card"),
}


def switch_label(name: str) -> str:
    """The switch's name in the page's language (its engine name when it has no label)."""
    label = SWITCH_LABELS.get(name)
    return str(label) if label is not None else name


def value_label(name: str, value: object) -> str:
    """A switch value in the page's language: on/off, a number, a list of cards, a choice."""
    if value is None:
        return str(_("not set"))
    if isinstance(value, bool):
        return str(pgettext_lazy("switch", "on") if value else pgettext_lazy("switch", "off"))
    if isinstance(value, list | tuple):
        return " ".join(str(item) for item in value)
    if isinstance(value, str):
        label = VALUE_LABELS.get((name, value))
        # The engine's word ("choice") stays in the field's help, beside the switch's name.
        return value if label is None else str(label)
    return str(value)


def in_both(name: str) -> tuple[str, str]:
    """The switch's label in English and in Japanese (a refusal carries both)."""
    with translation.override("en"):
        english = switch_label(name)
    with translation.override("ja"):
        japanese = switch_label(name)
    return english, japanese
