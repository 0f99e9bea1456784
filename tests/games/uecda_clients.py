"""The bundled UECda bot (tools/uecda_bot.py) as a module, and the bridge run in a thread
of the test process on a free loopback port, for the bridge's protocol tests."""

from __future__ import annotations

import importlib.util
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import ModuleType

from django.db import connections

from games.uecda_bridge import serve
from tests.conftest import ROOT
from tournaments.models import Tournament


def bundled_bot() -> ModuleType:
    spec = importlib.util.spec_from_file_location("uecda_bot", ROOT / "tools" / "uecda_bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextmanager
def bridge_thread(tournament: Tournament, *, rounds: int | None = None) -> Iterator[int]:
    """`serve` in a thread; yields the port it listens on, stops it afterwards."""
    stop = threading.Event()
    ready: queue.Queue[int] = queue.Queue()
    failed: list[BaseException] = []

    def run() -> None:
        try:
            serve(tournament, port=0, rounds=rounds, timeout=10, stop=stop, ready=ready)
        except BaseException as error:  # reported to the test below
            failed.append(error)
            ready.put(0)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    port = ready.get(timeout=30)
    try:
        assert not failed, failed
        yield port
    finally:
        stop.set()
        thread.join(timeout=30)
    assert not failed, failed


def run_clients(port: int, names: Iterable[str], play: Callable[[str, int], None]) -> None:
    """Run `play(name, port)` for every name at once, each program in its own thread, and
    wait for them all (two minutes at most)."""
    clients = [threading.Thread(target=play, args=(name, port)) for name in names]
    for client in clients:
        client.start()
    for client in clients:
        client.join(timeout=120)
