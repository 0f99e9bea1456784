"""Signing in without a password (issue #12), mounted under /accounts/ by config/urls.py.

- `/accounts/link/<secret>/`: a one-time sign-in link. Opening it only *shows* whom it signs
  in; a POST (the button) uses it, so a chat app's link preview cannot spend it.
- `/accounts/pin/`: the sign-in name and the 8-digit PIN of a printed card.
- `/accounts/welcome/`: where every sign-in lands (`LOGIN_REDIRECT_URL`): organisers (and
  staff) go to /organiser/, everyone else to their tables at /referee/; a safe `?next=` wins.

Every refusal says the same thing, whether or not the sign-in name exists. Wrong PINs count
towards the same sign-in lockout as wrong passwords (config/lockout.py). Wrong PINs and unusable
links count against the client's address too; past the `failed-credentials` rate the address
gets 429 before its PIN or link is checked (`lockout.refuse_failing_addresses`).
"""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from config import lockout, throttling
from tournaments import services
from tournaments.permissions import AnyUser
from tournaments.selectors import organised_tournaments

BACKEND = "django.contrib.auth.backends.ModelBackend"


def landing_url(user: AnyUser) -> str:
    """Organisers (anyone organising a tournament, or staff) to /organiser/, others to
    /referee/."""
    if getattr(user, "is_staff", False) or organised_tournaments(user).exists():
        return reverse("organiser:home")
    return reverse("referee:home")


def _next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


def _sign_in(request: HttpRequest, user: User) -> HttpResponse:
    login(request, user, backend=BACKEND)
    url = _next(request) or landing_url(user)
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(url)
    return redirect(url)


@require_GET
def welcome(request: HttpRequest) -> HttpResponse:
    """`LOGIN_REDIRECT_URL`: the right home page for whoever just signed in."""
    if not request.user.is_authenticated:
        return redirect("login")
    return redirect(_next(request) or landing_url(request.user))


@require_http_methods(["GET", "POST"])
@lockout.refuse_failing_addresses
def sign_in_link(request: HttpRequest, secret: str) -> HttpResponse:
    """GET shows whom the link signs in, with a button; POST signs in and uses the link."""
    if request.method == "POST":
        try:
            user = services.sign_in_with_code(secret=secret)
        except services.SignInRefused as error:
            return _link_refused(request, error)
        return _sign_in(request, user)
    try:
        code = services.sign_in_link_code(secret)
    except services.SignInRefused as error:
        return _link_refused(request, error)
    return render(
        request,
        "registration/sign_in_link.html",
        {"official": code.user, "tournament": code.tournament, "expires_at": code.expires_at,
         "next": _next(request)},
    )  # fmt: skip


def _link_refused(request: HttpRequest, error: services.DomainError) -> HttpResponse:
    throttling.count_failed_credentials(request)
    return render(request, "registration/sign_in_link.html", {"error": error}, status=410)


@require_http_methods(["GET", "POST"])
@lockout.refuse_failing_addresses
def sign_in_pin(request: HttpRequest) -> HttpResponse:
    """The PIN card's form: sign-in name and PIN. Five wrong PINs end a card; too many wrong
    tries for one name from one address pause signing in as that name from there (a locked-out
    try is refused without looking at the PIN, and starts the wait again)."""
    username = (request.POST.get("username") or request.GET.get("user") or "").strip()
    error: services.DomainError | None = None
    if request.method == "POST":
        if not lockout.sign_in_allowed(request, username):
            error = services.SignInRefused()
        else:
            try:
                user = services.sign_in_with_code(
                    username=username, pin=request.POST.get("pin", "")
                )
            except services.SignInRefused as refused:
                error = refused
            else:
                return _sign_in(request, user)
        # Past the limit, axes' middleware answers with the lockout page instead of this one.
        lockout.count_failed_sign_in(request, username, sender=__name__)
    context = {"username": username, "error": error, "next": _next(request)}
    template = "registration/pin.html"
    if getattr(request, "htmx", False):
        template += "#pin-form"
    return render(request, template, context, status=422 if error else 200)
