from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "engine",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("engine")
