"""Rules-engine benchmark: random JDF games, legal-move generation and checked validation,
and random Guandan (掼蛋) hands beside them.

    python benchmarks/engine.py [--games N] [--seconds S] [--seed K] [--rounds R]
                                [--compile | --build DIR] [--against REV]

Each implementation runs in its own process, one after the other (one core each), on the
same seeded games, and the figures are printed side by side with their ratios:

* ``pure``: this checkout's pure Python engine (the reference);
* ``compiled``: its mypyc build (``./dev compile-engine``; ``--build DIR`` for another one,
  ``--compile`` to make one in a temp dir first), when a build matching the sources exists;
* ``REV`` (``--against REV``): the pure engine of a git revision (``git archive REV
  games/engine games/__init__.py`` into a temp dir), to show what a change costs.

Every figure also has a baseline measured in the same process:

* random games/s (each turn picks uniformly among ``legal_moves`` and applies it with
  the unchecked fast path; also with the checked ``apply``) against the Python floor:
  the same number of turns doing only ``random.choice`` over lists of the same sizes;
* ``legal_moves`` calls/s on a corpus of states from those games, against the naive
  brute force (every subset of the hand up to 6 cards, plus pass, tried with ``apply``
  — the oracle of the tests) on a sample of the same states;
* validations/s: checked ``apply`` of a legal move on the corpus states (and
  ``apply_unchecked`` of the same moves).

Guandan (when the revision has it): random hands/s (each turn, tribute decisions included,
picks uniformly among ``legal_moves`` and applies it with the checked ``apply``, the family's
only path; two hands of a match, so the second pays tribute), ``legal_moves`` calls/s on
states from those hands, and the worst cases of the wilds: reading a selection that holds
both wilds without a declaration (every pair of stand-ins is tried; the slowest of a straight,
a tube, ten of a kind and a whole 27-card hand) and listing a 27-card lead holding both wilds.

Times are the process's CPU time (the machine may be shared). Targets on one core: pure
>= 400 games/s and >= 50k legal-move calls/s; compiled >= 4,000 random JDF games/s.
``--rounds R`` runs every implementation R times, alternating, and keeps each one's best
figures (the best run is the least disturbed by other processes).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from io import BytesIO
from itertools import combinations
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES_TARGET = 400
GUANDAN_TARGET = 100
DAIZAIBATSU_TARGET = 100
COMPILED_TARGET = 4000
LEGAL_MOVES_TARGET = 50_000


# --- one implementation, in its own process ---------------------------------------------


def measure(games: int, seconds: float, seed: int) -> dict[str, Any]:
    """Every figure of the engine imported from ``sys.path`` (one process, one engine)."""
    # CPU time of this process, not wall time: on a shared machine, time spent waiting for
    # a core is not the engine's.
    clock = time.process_time
    import games.engine as engine
    from games.engine import (
        JDF,
        PRESETS,
        EngineError,
        Move,
        RuleSet,
        State,
        apply,
        apply_unchecked,
        deal,
        legal_moves,
        new_game,
    )

    def play_games(
        n: int, checked: bool, rules: RuleSet = JDF
    ) -> tuple[float, int, list[State], list[int]]:
        """Play ``n`` random games; (seconds, turns, sampled states, list sizes per turn)."""
        rng = random.Random(seed)
        states: list[State] = []
        sizes: list[int] = []
        turns = 0
        t0 = clock()
        for i in range(n):
            d = deal(seed * 100_003 + i, rules)  # the seeded SHA-256 deal is part of each game
            state = new_game(rules, list(d.hands), blind=d.blind)
            while state.phase != 2:
                moves = list(legal_moves(state))
                move = rng.choice(moves)
                state = apply(state, move)[0] if checked else apply_unchecked(state, move)
                turns += 1
                if turns % 7 == 0:
                    states.append(state)
                    sizes.append(len(moves))
        return clock() - t0, turns, states, sizes

    def floor_games(turns: int, sizes: list[int]) -> float:
        """The Python floor: ``turns`` iterations doing only list building and random.choice."""
        rng = random.Random(seed)
        pool = [list(range(s)) for s in sizes] or [[0]]
        t0 = clock()
        k = len(pool)
        for i in range(turns):
            rng.choice(list(pool[i % k]))
        return clock() - t0

    def brute_force(state: State) -> int:
        """Naive legal plays: every subset of the hand up to 6 cards, plus pass, via apply."""
        seat = state.turn
        hand = state.hands[seat]
        bits = [1 << c for c in range(54) if hand >> c & 1]
        count = 0
        candidates = [Move(seat, is_pass=True)]
        for size in range(1, min(6, len(bits)) + 1):
            candidates.extend(Move(seat, sum(c)) for c in combinations(bits, size))
        for move in candidates:
            try:
                apply(state, move)
            except EngineError:
                continue
            count += 1
        return count

    def rate(fn: Callable[[Any], object], items: list[Any]) -> float:
        """Calls per second of ``fn`` over ``items``, looped for at least ``seconds``."""
        calls = 0
        t0 = clock()
        while True:
            for item in items:
                fn(item)
            calls += len(items)
            elapsed = clock() - t0
            if elapsed >= seconds:
                return calls / elapsed

    out: dict[str, Any] = {
        "compiled": bool(getattr(engine, "COMPILED", False)),
        "build": getattr(engine, "ENGINE_BUILD", "pure (no loader in this revision)"),
    }
    elapsed, turns, states, sizes = play_games(games, checked=False)
    out["turns_per_game"] = turns / games
    out["games_fast"] = games / elapsed
    out["floor_games"] = games / floor_games(turns, sizes)
    out["games_checked"] = games / play_games(games, checked=True)[0]
    out["presets"] = {
        key: games / play_games(games, False, rules)[0] for key, rules in PRESETS.items()
    }
    states = [s for s in states if s.phase == 1]
    out["states"] = len(states)
    out["legal_moves"] = rate(lambda s: list(legal_moves(s)), states)
    out["brute_force"] = rate(brute_force, states[:: max(1, len(states) // 60)])
    rng = random.Random(seed)
    pairs = [(s, rng.choice(list(legal_moves(s)))) for s in states]
    out["validations"] = rate(lambda p: apply(*p), pairs)
    out["unchecked"] = rate(lambda p: apply_unchecked(*p), pairs)
    out["guandan"] = measure_guandan(max(10, games // 8), rate, seed)
    out["daizaibatsu"] = measure_daizaibatsu(max(10, games // 8), rate, seed)
    return out


def measure_guandan(
    hands: int, rate: Callable[[Callable[[Any], object], list[Any]], float], seed: int
) -> dict[str, float]:
    """Random Guandan hands/s and the worst cases of the wilds (empty before the family)."""
    try:
        from games.engine import guandan as gd
        from games.engine import multideck as md
    except ImportError:
        return {}
    clock = time.process_time
    rules = gd.GUANDAN_CN
    rng = random.Random(seed)
    states: list[Any] = []
    turns = 0
    t0 = clock()
    for i in range(0, hands, 2):
        match = gd.Match()
        for hand in range(2):  # the second hand of a match starts with its tribute
            dealt = gd.deal_hands(f"{seed}/{i}/{hand}", rules)
            state = gd.new_game(rules, list(dealt), match=match, leader=None if hand else 0)
            while state.phase != gd.PHASE_OVER:
                state = gd.apply(state, rng.choice(list(gd.legal_moves(state))))[0]
                turns += 1
                if turns % 7 == 0:
                    states.append(state)
            match = gd.next_match(state)
    elapsed = clock() - t0
    played = 2 * ((hands + 1) // 2)
    wilds = gd.wild_card(2)
    both = md.from_cards([wilds, wilds])
    lead_hand = gd.deal_hands("wild-lead", rules)[0]
    lead_hand = md.parse_multi([n for n in md.multi_names(lead_hand) if n != "2H"][:25]) + both
    spare = [md.from_cards([c]) for c in range(52) if lead_hand.count(c) == 0]
    others = spare[:3]
    lead = gd.new_game(rules, [lead_hand, *others], leader=0)
    return {
        "hands": played / elapsed,
        "turns_per_hand": turns / played,
        "legal_moves": rate(lambda s: list(gd.legal_moves(s)), states[::3]),
        # The slowest of: a straight, a tube, ten of a kind, a whole hand, each with both wilds.
        "wild_readings": min(
            rate(lambda c: gd.readings(c, 2), [selection])
            for selection in (
                md.parse_multi("3S 4S 5S") + both,
                md.parse_multi("3S 3D 4S 4D") + both,
                md.parse_multi("9S 9S 9H 9H 9D 9D 9C 9C") + both,
                lead_hand,
            )
        ),
        "wild_lead": rate(lambda s: list(gd.legal_moves(s)), [lead]),
        "wild_lead_moves": float(len(list(gd.legal_moves(lead)))),
    }


def measure_daizaibatsu(
    games: int, rate: Callable[[Callable[[Any], object], list[Any]], float], seed: int
) -> dict[str, float]:
    """Random 大財閥 games/s from seeded deals (every move checked, decisions included), and
    legal_moves calls/s over the states met (empty before the family)."""
    try:
        from games.engine import daizaibatsu as dz
        from games.engine.daizaibatsu_rules import DAIZAIBATSU
    except ImportError:
        return {}
    clock = time.process_time
    # The organiser's two switches without default: off, as a tournament without them plays.
    rules = DAIZAIBATSU.with_overrides(finish_kill_card="off", zaibatsu_revolution="off")
    rng = random.Random(seed)
    states: list[Any] = []
    turns = 0
    t0 = clock()
    for i in range(games):
        state = dz.new_game(rules, seed=f"{seed}/{i}")
        while state.phase != dz.PHASE_OVER:
            state = dz.apply(state, rng.choice(list(dz.legal_moves(state))))[0]
            turns += 1
            if turns % 7 == 0:
                states.append(state)
    elapsed = clock() - t0
    return {
        "games": games / elapsed,
        "turns_per_game": turns / games,
        "legal_moves": rate(lambda s: list(dz.legal_moves(s)), states[::3]),
    }


def worker(args: argparse.Namespace) -> None:
    root = Path(args.root).resolve()
    sys.path.insert(0, str(root))
    import games.engine

    origin = Path(games.engine.__file__ or "").resolve()
    if not origin.is_relative_to(root):
        sys.exit(f"imported games.engine from {origin}, not from {root}")
    print(json.dumps(measure(args.games, args.seconds, args.seed)))


# --- the run: every implementation, side by side -----------------------------------------


class Implementation:
    def __init__(self, name: str, root: Path, env: dict[str, str]) -> None:
        self.name = name
        self.root = root
        self.env = env
        self.best: dict[str, Any] | None = None

    def run(self, args: argparse.Namespace) -> None:
        command = [sys.executable, __file__, "--worker", f"--root={self.root}"]
        command += [f"--games={args.games}", f"--seconds={args.seconds}", f"--seed={args.seed}"]
        done = subprocess.run(
            command,
            env={**os.environ, **self.env},
            cwd=self.root,
            capture_output=True,
            text=True,
        )
        if done.returncode:
            sys.exit(f"{self.name}: the benchmark failed:\n{done.stderr}")
        figures = json.loads(done.stdout.splitlines()[-1])
        self.best = figures if self.best is None else _best(self.best, figures)


def _best(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Per figure, the better of two runs (the higher rate)."""
    out = dict(a)
    for key, value in b.items():
        if isinstance(value, float) and key not in ("turns_per_game", "turns_per_hand"):
            out[key] = max(a[key], value)
        elif isinstance(value, dict):
            out[key] = _best(a[key], value)
    return out


def compiled_build(args: argparse.Namespace, scratch: Path) -> tuple[Path | None, str]:
    """The build to benchmark and a line about it (or None and why there is none)."""
    sys.path.insert(0, str(ROOT))
    from games.engine import loader

    if args.compile:
        build = scratch / "engine"
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, str(ROOT / "tools" / "compile_engine.py"), f"--build-dir={build}"],
            check=True,
            capture_output=True,
        )
        return build, f"compiled: built for this run in {time.perf_counter() - t0:.0f} s"
    build = Path(args.build) if args.build else loader.build_dir()
    problem = loader.build_problem(build)
    if problem is not None:
        return None, f"compiled: not measured ({problem}; ./dev compile-engine, or --compile)"
    manifest = json.loads((build / loader.MANIFEST).read_text(encoding="utf-8"))
    return build, f"compiled: {build} (built {manifest['built_at']}, mypyc {manifest['mypy']})"


def archive(rev: str, into: Path) -> Path:
    """``git archive REV games/engine games/__init__.py``, unpacked under ``into``."""
    tar = subprocess.run(
        ["git", "archive", rev, "games/engine", "games/__init__.py"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(tar)) as unpacked:
        unpacked.extractall(into, filter="data")
    return into


def report(impls: list[Implementation], args: argparse.Namespace, notes: list[str]) -> None:
    names = [i.name for i in impls]
    figures = {i.name: i.best for i in impls if i.best is not None}
    pure = figures["pure"]
    ratios = [("compiled", "pure")] if "compiled" in figures else []
    if args.against:
        ratios.append(("pure", args.against))
    print(
        f"Python {sys.version.split()[0]}, {args.games} games, seed {args.seed}, "
        f"{args.rounds} round(s), each implementation in its own process"
    )
    for note in notes:
        print(f"  {note}")
    head = f"{'':34}" + "".join(f"{n:>12}" for n in names)
    head += "".join(f"{a + '/' + b:>18}" for a, b in ratios)
    print(head)

    def row(label: str, get: Callable[[dict[str, Any]], float], fmt: str = "12.0f") -> None:
        line = f"{label:34}" + "".join(f"{get(figures[n]):{fmt}}" for n in names)
        line += "".join(f"{get(figures[a]) / get(figures[b]):17.2f}x" for a, b in ratios)
        print(line)

    row("turns per game", lambda f: f["turns_per_game"], "12.1f")
    row("random games/s (fast path)", lambda f: f["games_fast"])
    row("random games/s (checked apply)", lambda f: f["games_checked"])
    for key in pure["presets"]:
        # A preset version the other revision does not have shows as nan.
        row(f"  {key} games/s (fast path)", lambda f, key=key: f["presets"].get(key, float("nan")))
    row("legal_moves calls/s", lambda f: f["legal_moves"])
    row("validations/s (checked apply)", lambda f: f["validations"])
    row("apply_unchecked/s", lambda f: f["unchecked"])
    nan = float("nan")
    row("Guandan turns per hand", lambda f: f["guandan"].get("turns_per_hand", nan), "12.1f")
    row("Guandan random hands/s (checked)", lambda f: f["guandan"].get("hands", nan), "12.1f")
    row("Guandan legal_moves calls/s", lambda f: f["guandan"].get("legal_moves", nan))
    row(
        "Guandan wilds: worst reading ms",
        lambda f: 1000 / f["guandan"].get("wild_readings", nan),
        "12.2f",
    )
    row(
        "Guandan wilds: 27-card lead ms",
        lambda f: 1000 / f["guandan"].get("wild_lead", nan),
        "12.2f",
    )
    row(
        "Daizaibatsu turns per game",
        lambda f: f.get("daizaibatsu", {}).get("turns_per_game", nan),
        "12.1f",
    )
    row(
        "Daizaibatsu random games/s (checked)",
        lambda f: f.get("daizaibatsu", {}).get("games", nan),
        "12.1f",
    )
    row(
        "Daizaibatsu legal_moves calls/s",
        lambda f: f.get("daizaibatsu", {}).get("legal_moves", nan),
    )
    print("baselines and targets:")
    for name, f in figures.items():
        jdf = f["presets"]["jdf@1"]
        worst = min(f["presets"].values()) / jdf
        print(
            f"  {name + ':':10}random.choice floor {f['floor_games']:.0f} games/s (the engine "
            f"costs {f['floor_games'] / f['games_fast']:.1f}x it); brute-force oracle "
            f"{f['brute_force']:.0f} calls/s\n{'':12}(legal_moves is "
            f"{f['legal_moves'] / f['brute_force']:.0f}x faster); slowest preset {worst:.2f}x "
            f"jdf (must be >= 0.5); checking costs {f['unchecked'] / f['validations']:.2f}x"
        )
    print(
        f"  pure: {pure['games_fast']:.0f} games/s (target >= {GAMES_TARGET}), "
        f"{pure['legal_moves']:.0f} legal_moves calls/s (target >= {LEGAL_MOVES_TARGET}, "
        f"{pure['states']} states)"
    )
    if pure.get("guandan"):
        hands = pure["guandan"]["hands"]
        verdict = "met" if hands >= GUANDAN_TARGET else "NOT met"
        print(
            f"  pure: {hands:.0f} random Guandan hands/s (target >= {GUANDAN_TARGET}: {verdict}); "
            f"a 27-card lead holding both wilds lists "
            f"{pure['guandan']['wild_lead_moves']:.0f} moves"
        )
    if pure.get("daizaibatsu"):
        dz_games = pure["daizaibatsu"]["games"]
        verdict = "met" if dz_games >= DAIZAIBATSU_TARGET else "NOT met"
        print(
            f"  pure: {dz_games:.0f} random 大財閥 games/s "
            f"(target >= {DAIZAIBATSU_TARGET}: {verdict})"
        )
    if "compiled" in figures:
        games = figures["compiled"]["games_fast"]
        verdict = "met" if games >= COMPILED_TARGET else "NOT met"
        print(f"  compiled: {games:.0f} games/s (target >= {COMPILED_TARGET}: {verdict})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=2.0, help="per timed loop")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1, help="runs per implementation")
    parser.add_argument("--compile", action="store_true", help="build a compiled engine first")
    parser.add_argument("--build", help="the compiled build to measure (default: the loader's)")
    parser.add_argument("--against", metavar="REV", help="also a git revision's pure engine")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--root", default=str(ROOT), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return

    with tempfile.TemporaryDirectory(prefix="kakumei-bench-") as tmp:
        scratch = Path(tmp)
        impls = [Implementation("pure", ROOT, {"KAKUMEI_ENGINE": "pure"})]
        build, note = compiled_build(args, scratch)
        notes = [note]
        if build is not None:
            env = {"KAKUMEI_ENGINE": "compiled", "KAKUMEI_ENGINE_BUILD": str(build)}
            impls.append(Implementation("compiled", ROOT, env))
        if args.against:
            tree = archive(args.against, scratch / "against")
            impls.append(Implementation(args.against, tree, {"KAKUMEI_ENGINE": "pure"}))
            notes.append(f"{args.against}: the pure engine of git revision {args.against}")
        for _ in range(args.rounds):
            for impl in impls:
                impl.run(args)
        for impl in impls:
            assert impl.best is not None
            if impl.best["compiled"] != (impl.name == "compiled"):
                sys.exit(f"{impl.name}: loaded {impl.best['build']}")
        report(impls, args, notes)


if __name__ == "__main__":
    main()
