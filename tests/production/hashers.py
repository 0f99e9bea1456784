"""Passwords the deployed stack can check: the suite's MD5 hasher (tests/conftest.py) is not
among production's, so the stage's users get PBKDF2 hashes — with few iterations, which the
production hasher reads from the hash itself."""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class FewIterationsPBKDF2(PBKDF2PasswordHasher):
    iterations = 1000
