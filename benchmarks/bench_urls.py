"""The production URLs plus `/bench/empty/`: an authenticated DRF view returning `{}` — the
baseline the move endpoint is compared with (same auth, parsers and middleware)."""

from __future__ import annotations

from django.urls import path
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import urlpatterns as production


class Empty(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def post(self, request: Request) -> Response:
        return Response({})


urlpatterns = [path("bench/empty/", Empty.as_view()), *production]
