"""Compile the rules engine (``games/engine``) with mypyc into a build directory.

    python tools/compile_engine.py [--build-dir DIR] [--source ROOT] [--opt-level N]

``./dev compile-engine`` runs this. Every module of the package but ``__init__``,
``__main__`` and ``loader`` is compiled (``games.engine.loader.compiled_modules``); the
extension modules go to ``DIR/games/engine/`` (default ``build/engine``, or
``KAKUMEI_ENGINE_BUILD``) with a manifest of the sources' digests, which the package checks
before it uses them (see ``games/engine/loader.py``). The sources are copied first and the
copy is compiled and hashed, so an edit made during the build makes the build stale instead
of half-new. The new build replaces the old one only once it is complete.

Needs the dev extras (mypy with mypyc, setuptools), a C compiler and the Python headers.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
GROUP = "games.engine._native"
"""mypyc's shared library (``_native__mypyc``): inside the package, so on its ``__path__``."""


def _load_loader(package: Path) -> ModuleType:
    """The ``loader`` module of the sources being compiled, without importing the package:
    the build's digests are those that very code will check."""
    spec = importlib.util.spec_from_file_location("_kakumei_engine_loader", package / "loader.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _stage(source_root: Path, stage: Path) -> Path:
    """Copy the engine's Python sources (and its ``py.typed``) under ``stage``."""
    package = stage / "games" / "engine"
    package.mkdir(parents=True)
    # An empty parent package: the Django app's own __init__ plays no part in the engine.
    (stage / "games" / "__init__.py").write_text("", encoding="utf-8")
    for path in sorted((source_root / "games" / "engine").iterdir()):
        if path.suffix == ".py" or path.name == "py.typed":
            shutil.copy2(path, package / path.name)
    return package


def compile_engine(source_root: Path, build: Path, opt_level: str) -> dict[str, object]:
    """Build, then swap the result in place of ``build``; returns the manifest."""
    from mypy.version import __version__ as mypy_version
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped,unused-ignore]

    started = time.perf_counter()
    build = build.resolve()
    build.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kakumei-mypyc-") as tmp:
        work = Path(tmp)
        package = _stage(source_root, work / "src")
        loader = _load_loader(package)
        modules: list[str] = loader.compiled_modules(package)
        digests: dict[str, str] = loader.module_digests(package)
        # Beside the target, so that the finished build is renamed into place in one step.
        fresh = Path(tempfile.mkdtemp(prefix=f".{build.name}-", dir=build.parent))
        fresh.chmod(0o755)  # mkdtemp makes it private; servers may run as another user
        cwd = Path.cwd()
        os.chdir(work / "src")  # mypyc names the modules from paths relative to here
        try:
            extensions = mypycify(
                [f"games/engine/{name}.py" for name in modules],
                opt_level=opt_level,
                group_name=GROUP,
                target_dir=str(work / "c"),
            )
            setup(
                name="kakumei-engine-compiled",
                ext_modules=extensions,
                script_args=[
                    "--quiet",
                    "build_ext",
                    f"--build-lib={fresh}",
                    f"--build-temp={work / 'obj'}",
                ],
            )
        except BaseException:
            shutil.rmtree(fresh, ignore_errors=True)
            raise
        finally:
            os.chdir(cwd)
        manifest: dict[str, object] = {
            "format": loader.MANIFEST_FORMAT,
            "modules": digests,
            "ext_suffix": loader.ext_suffix(),
            "python": sys.version.split()[0],
            "mypy": mypy_version,
            "opt_level": opt_level,
            "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "seconds": round(time.perf_counter() - started, 1),
        }
        (fresh / loader.MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")
    old = build.with_name(f".{build.name}-old")
    shutil.rmtree(old, ignore_errors=True)
    if build.exists():
        build.rename(old)
    fresh.rename(build)
    shutil.rmtree(old, ignore_errors=True)
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--build-dir",
        type=Path,
        default=_load_loader(ROOT / "games" / "engine").build_dir(),
        help="where the build goes (default: $KAKUMEI_ENGINE_BUILD or build/engine)",
    )
    parser.add_argument(
        "--source",
        type=Path,
        default=ROOT,
        help="the directory holding games/engine (default: this checkout)",
    )
    parser.add_argument(
        "--opt-level",
        default="3",
        choices=["0", "1", "2", "3"],
        help="C optimisation level (0 builds fastest, for tests)",
    )
    args = parser.parse_args()
    manifest = compile_engine(args.source.resolve(), args.build_dir, args.opt_level)
    modules = manifest["modules"]
    assert isinstance(modules, dict)
    print(
        f"compiled {len(modules)} engine modules with mypyc {manifest['mypy']} "
        f"(-O{args.opt_level}) in {manifest['seconds']} s into {args.build_dir}"
    )


if __name__ == "__main__":
    main()
