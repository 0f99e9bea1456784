"""A program whose handshake name is no bot entrant of the tournament is refused: the bridge
closes its connection without a player number, and says why in its log."""

from __future__ import annotations

import logging
import socket

import pytest

from tests.factories import bot_event
from tests.games.uecda_clients import bridge_thread, bundled_bot


@pytest.mark.django_db(transaction=True)
def test_an_unknown_name_is_closed_without_a_player_number(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = bundled_bot()
    tournament = bot_event()
    caplog.set_level(logging.INFO, logger="games.uecda_bridge")
    with (
        bridge_thread(tournament) as port,
        socket.create_connection(("127.0.0.1", port), timeout=5) as sock,
    ):
        bot.send_table(sock, bot.profile("stranger"))
        assert sock.recv(4) == b""  # closed: no player number
    refusals = [r.getMessage() for r in caplog.records if "stranger" in r.getMessage()]
    assert refusals and "no bot entrant" in refusals[0]
