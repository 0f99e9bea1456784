"""Which implementation of the engine is imported: the pure modules or a mypyc build of them.

The pure Python modules are the reference and always the fallback. ``tools/compile_engine.py``
(``./dev compile-engine``) compiles them with mypyc into a build directory outside the source
tree and writes there a manifest with a SHA-256 digest of each source it compiled. The
package's ``__init__`` calls :func:`choose` before it imports any submodule, and only a build
whose digests match the sources as they are now, made for this interpreter, is put first on
the package's ``__path__``: an edited (or added, or removed) source is never shadowed by
compiled code built from an older one.

``KAKUMEI_ENGINE`` chooses: ``auto`` (the default: a fresh build if there is one, else the
pure modules, with a logged warning when a build exists but cannot be used), ``pure`` (never
a build) or ``compiled`` (a fresh build or an ``ImportError`` that says why: for deployments
and CI runs that must not silently run the pure modules). ``KAKUMEI_ENGINE_BUILD`` is the
build directory (default ``build/engine`` beside the ``games`` package).

Standard library only, and never compiled itself: it runs before the choice is made.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import sysconfig
from importlib.machinery import ExtensionFileLoader
from pathlib import Path
from typing import Final

PACKAGE_DIR: Final = Path(__file__).resolve().parent
PACKAGE: Final = __name__.rpartition(".")[0]
NOT_COMPILED: Final = frozenset({"__init__", "__main__", "loader"})
"""Modules that stay Python: the package itself, the command line and this chooser."""
MANIFEST: Final = "kakumei-engine-build.json"
MANIFEST_FORMAT: Final = "kakumei-engine-build/1"
MODES: Final = ("auto", "pure", "compiled")

logger = logging.getLogger(PACKAGE)


def compiled_modules(package_dir: Path = PACKAGE_DIR) -> list[str]:
    """The module names a build compiles: every ``*.py`` of the package but ``NOT_COMPILED``."""
    return sorted(p.stem for p in package_dir.glob("*.py") if p.stem not in NOT_COMPILED)


def module_digests(package_dir: Path = PACKAGE_DIR) -> dict[str, str]:
    """SHA-256 of each compiled module's source, by module name."""
    return {
        name: hashlib.sha256((package_dir / f"{name}.py").read_bytes()).hexdigest()
        for name in compiled_modules(package_dir)
    }


def ext_suffix() -> str:
    """The extension-module suffix of this interpreter (``.cpython-311-x86_64-linux-gnu.so``)."""
    return str(sysconfig.get_config_var("EXT_SUFFIX"))


def build_dir() -> Path:
    """``KAKUMEI_ENGINE_BUILD``, else ``build/engine`` beside the ``games`` package."""
    configured = os.environ.get("KAKUMEI_ENGINE_BUILD")
    return Path(configured) if configured else PACKAGE_DIR.parent.parent / "build" / "engine"


def modules_dir(build: Path) -> Path:
    """Where a build keeps this package's extension modules."""
    return build.joinpath(*PACKAGE.split("."))


def build_problem(build: Path, package_dir: Path = PACKAGE_DIR) -> str | None:
    """Why ``build`` may not stand in for the sources in ``package_dir``; ``None`` if it may."""
    path = build / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return f"no compiled build in {build}"
    except (OSError, ValueError) as exc:
        return f"unreadable build manifest {path}: {exc}"
    if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
        return f"{path} is not a {MANIFEST_FORMAT} manifest"
    if manifest.get("ext_suffix") != ext_suffix():
        return f"the build in {build} is for {manifest.get('python')}, not Python {sys.version}"
    built = manifest.get("modules")
    if not isinstance(built, dict):
        return f"{path} lists no modules"
    now = module_digests(package_dir)
    changed = sorted(name for name in now.keys() & built.keys() if now[name] != built[name])
    problems = [f"{name}.py changed" for name in changed]
    problems += [f"{name}.py is new" for name in sorted(now.keys() - built.keys())]
    problems += [f"{name}.py was removed" for name in sorted(built.keys() - now.keys())]
    if problems:
        return f"the build in {build} is stale: {', '.join(problems)} since it was made"
    missing = [n for n in sorted(now) if not (modules_dir(build) / f"{n}{ext_suffix()}").is_file()]
    if missing:
        return f"the build in {build} lacks {', '.join(missing)}"
    return None


def choose(package_path: list[str]) -> str:
    """Put a fresh build first on ``package_path`` (the package's ``__path__``) if chosen.

    Returns what was chosen, for diagnostics (``games.engine.ENGINE_BUILD``).
    """
    mode = os.environ.get("KAKUMEI_ENGINE", "auto") or "auto"
    if mode not in MODES:
        raise ImportError(f"KAKUMEI_ENGINE must be one of {', '.join(MODES)}, not {mode!r}")
    if mode == "pure":
        return "pure (KAKUMEI_ENGINE=pure)"
    build = build_dir()
    problem = build_problem(build)
    if problem is None:
        package_path.insert(0, str(modules_dir(build)))
        return f"compiled ({build})"
    if mode == "compiled":
        raise ImportError(f"KAKUMEI_ENGINE=compiled, but {problem}; run ./dev compile-engine")
    if (build / MANIFEST).exists():
        logger.warning("using the pure engine: %s (rebuild: ./dev compile-engine)", problem)
    return f"pure ({problem})"


def is_compiled() -> bool:
    """Whether every compiled module imported so far came from a build (and ``core`` did)."""
    loaded = [sys.modules.get(f"{PACKAGE}.{name}") for name in compiled_modules()]
    core = sys.modules.get(f"{PACKAGE}.core")
    return core is not None and all(
        isinstance(getattr(module, "__loader__", None), ExtensionFileLoader)
        for module in loaded
        if module is not None
    )
