"""The rules engine as one zip, for the referee console's offline mode (issue #19).

Offline, the referee's phone judges moves itself: it runs this project's own engine under
Pyodide (Python compiled to WebAssembly, served from ``static/pyodide/``), so a move refused
at a venue without a network is refused with the same code and words as on the server. The
service worker fetches this archive once and keeps it; Pyodide unpacks it onto its ``sys.path``.

The archive is built from the source files on every request rather than by a build step, so it
can never be older than the engine the server runs. It is built deterministically (sorted
names, fixed timestamps and permissions), so the same sources give the same bytes and the same
ETag: the service worker's revalidation costs a 304 until the engine actually changes.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response
from django.views.decorators.http import require_GET

GAMES_DIR: Final = Path(__file__).resolve().parent
ENGINE_DIR: Final = GAMES_DIR / "engine"
# Test data for the engine's own test suite, megabytes of it; the phone never replays vectors.
LEFT_OUT_DIRS: Final = frozenset({"conformance", "__pycache__"})
# The command line (`python -m games.engine`) has no use in a browser.
LEFT_OUT_FILES: Final = frozenset({"__main__.py"})
# Zip's epoch: the earliest date the format can store, the same for every build.
FIXED_DATE_TIME: Final = (1980, 1, 1, 0, 0, 0)
# A regular file, rw-r--r--, whoever checked the sources out with whatever umask.
FILE_ATTRIBUTES: Final = 0o100644 << 16


def archived_sources() -> dict[str, Path]:
    """The archive's members by name: the ``games`` package marker, every engine module and
    the Django-free judge the console calls, ``games/offline.py``."""
    members = {
        "games/__init__.py": GAMES_DIR / "__init__.py",
        "games/offline.py": GAMES_DIR / "offline.py",
    }
    for path in _engine_modules(ENGINE_DIR):
        members[path.relative_to(GAMES_DIR.parent).as_posix()] = path
    return members


def _engine_modules(directory: Path) -> Iterator[Path]:
    for path in directory.iterdir():
        if path.is_dir():
            if path.name not in LEFT_OUT_DIRS:
                yield from _engine_modules(path)
        elif path.suffix == ".py" and path.name not in LEFT_OUT_FILES:
            yield path


def engine_archive() -> bytes:
    """The zip's bytes: equal sources give equal bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, path in sorted(archived_sources().items()):
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE_TIME)
            info.external_attr = FILE_ATTRIBUTES
            info.create_system = 3  # Unix, so that the attributes above are read as Unix modes
            zf.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED, compresslevel=9)
    return buffer.getvalue()


@require_GET
def offline_engine(request: HttpRequest) -> HttpResponseBase:
    """``GET /referee/offline/engine.zip``: open to anyone, as the engine holds no game data."""
    archive = engine_archive()
    etag = f'"{hashlib.sha256(archive).hexdigest()}"'
    unchanged = get_conditional_response(request, etag=etag)
    response = unchanged or HttpResponse(archive, content_type="application/zip")
    response["ETag"] = etag
    # Revalidate every time: the service worker keeps its own copy for when there is no network.
    response["Cache-Control"] = "no-cache"
    return response
