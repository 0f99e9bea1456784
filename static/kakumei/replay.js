// The replay viewer's keys: ← back, → forward, Home first, End last. Each key clicks the step
// link the page shows, so a key does exactly what a tap does (htmx swap, or a page load).
"use strict";

(function () {
  const STEPS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const step = STEPS[event.key];
    if (!step) return;
    const target = event.target;
    if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    const link = document.querySelector('#replay a[data-step="' + step + '"]');
    if (!link) return;
    event.preventDefault();
    link.click();
  });

  // The move list scrolls on its own: keep the current move in sight there, without moving
  // the page (scrollIntoView would scroll the page too).
  function showCurrentMove() {
    const list = document.querySelector("#replay .replay-moves");
    const current = list && list.querySelector("[aria-current]");
    if (!current) return;
    const item = current.parentElement;
    if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = item.offsetTop - list.clientHeight / 2;
    }
  }
  // A swap replaces the step links: give focus back to the one tapped, so Tab and Enter go on
  // from where the reader was.
  let focusedStep = null;
  document.addEventListener("htmx:beforeSwap", function () {
    const active = document.activeElement;
    focusedStep = active && active.closest("#replay") ? active.getAttribute("data-step") : null;
  });
  document.addEventListener("DOMContentLoaded", showCurrentMove);
  document.addEventListener("htmx:afterSwap", function () {
    showCurrentMove();
    const again = focusedStep && document.querySelector('#replay [data-step="' + focusedStep + '"]');
    if (again) again.focus();
  });
})();
