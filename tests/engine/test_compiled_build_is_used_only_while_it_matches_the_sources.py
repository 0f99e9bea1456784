"""A mypyc build of the engine is used only while it matches the sources: once a source is
edited (or a module added), the pure modules run, and KAKUMEI_ENGINE=compiled refuses loudly.

Each case runs a fresh interpreter on a copy of the engine's sources, beside a build of those
very sources: the run's build when ``KAKUMEI_ENGINE_BUILD`` names one (./dev test compiles the
engine once per run and passes it here: it must then be fresh, never built a second time), else
a fresh ``build/engine`` of this checkout, else one built here at -O0.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import loader

ROOT = Path(__file__).resolve().parents[2]
REPORT = (
    "import games.engine as e, games.engine.core as core;"
    "print(e.COMPILED, type(core.__loader__).__name__, getattr(core, 'EDITED', None))"
)


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    existing = loader.build_dir()
    problem = loader.build_problem(existing)
    if problem is None:
        return existing
    if os.environ.get("KAKUMEI_ENGINE_BUILD"):
        pytest.fail(f"KAKUMEI_ENGINE_BUILD names a build this run cannot use: {problem}")
    built = tmp_path_factory.mktemp("engine-build") / "build"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "compile_engine.py"),
            f"--build-dir={built}",
            "--opt-level=0",
        ],
        check=True,
        capture_output=True,
    )
    return built


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    """A copy of games/engine (the sources the build was made from) in a games package."""
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "__init__.py").write_text("", encoding="utf-8")
    shutil.copytree(
        ROOT / "games" / "engine",
        tmp_path / "games" / "engine",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return tmp_path


def run(sources: Path, build: Path, mode: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(sources),
        "KAKUMEI_ENGINE": mode,
        "KAKUMEI_ENGINE_BUILD": str(build),
    }
    return subprocess.run(
        [sys.executable, "-c", REPORT], cwd=sources, env=env, capture_output=True, text=True
    )


def test_a_fresh_build_is_loaded(sources: Path, build: Path) -> None:
    for mode in ("auto", "compiled"):
        done = run(sources, build, mode)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["True", "ExtensionFileLoader", "None"]
        assert done.stderr == ""


def test_an_edited_source_runs_as_pure_python(sources: Path, build: Path) -> None:
    core = sources / "games" / "engine" / "core.py"
    core.write_text(core.read_text(encoding="utf-8") + "\nEDITED = 'yes'\n", encoding="utf-8")

    done = run(sources, build, "auto")

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "SourceFileLoader", "yes"]
    assert "stale: core.py changed" in done.stderr  # a logged warning: never silently


def test_a_new_module_makes_the_build_stale(sources: Path, build: Path) -> None:
    (sources / "games" / "engine" / "steps.py").write_text("STEPS = 1\n", encoding="utf-8")

    assert run(sources, build, "auto").stdout.split()[:2] == ["False", "SourceFileLoader"]


def test_compiled_mode_refuses_a_stale_build(sources: Path, build: Path) -> None:
    deal = sources / "games" / "engine" / "deal.py"
    deal.write_text(deal.read_text(encoding="utf-8") + "\n# a comment is a change too\n")

    done = run(sources, build, "compiled")

    assert done.returncode != 0
    assert "ImportError: KAKUMEI_ENGINE=compiled, but" in done.stderr
    assert "deal.py changed" in done.stderr


def test_pure_mode_ignores_a_fresh_build(sources: Path, build: Path) -> None:
    assert run(sources, build, "pure").stdout.split() == ["False", "SourceFileLoader", "None"]
