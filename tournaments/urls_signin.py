"""Password-less sign-in for officials, mounted at /accounts/ next to Django's login view."""

from __future__ import annotations

from django.urls import path

from tournaments import signin_views as views

urlpatterns = [
    path("welcome/", views.welcome, name="welcome"),
    path("pin/", views.sign_in_pin, name="sign-in-pin"),
    path("link/<str:secret>/", views.sign_in_link, name="sign-in-link"),
]
