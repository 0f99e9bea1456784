"""Games, their append-only moves and results (issue: referee console) build on the engine."""

from __future__ import annotations
