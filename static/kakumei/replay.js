// The replay viewer's keys: ← back, → forward, Home first, End last. A key clicks a link the
// page shows (the move list has one per position), so it does exactly what a tap does (htmx
// swap, or a page load). Keys pressed while a step is loading count on from the position asked
// for, and the page goes there once that step is shown: three quick → go three moves on, not
// one, and one request at a time, so the answers cannot arrive out of order.
"use strict";

(function () {
  const STEPS = { ArrowLeft: -1, ArrowRight: 1, Home: "first", End: "last" };
  let wanted = null; // the position asked for and not shown yet

  function go(board, to) {
    const link = board.querySelector('.replay-moves li[value="' + to + '"] a');
    if (link) link.click();
    else wanted = null;
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const step = STEPS[event.key];
    const board = document.getElementById("replay");
    if (step === undefined || !board) return;
    const target = event.target;
    if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    const total = Number(board.dataset.total);
    const from = wanted === null ? Number(board.dataset.move) : wanted;
    const to = step === "first" ? 0 : step === "last" ? total : Math.max(0, Math.min(total, from + step));
    event.preventDefault();
    if (to === from) return;
    const loading = wanted !== null;
    wanted = to;
    if (!loading) go(board, to);
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
  // A step that failed (the network, the server) is not coming: count from what is shown.
  document.addEventListener("htmx:responseError", function () { wanted = null; });
  document.addEventListener("htmx:sendError", function () { wanted = null; });
  document.addEventListener("DOMContentLoaded", showCurrentMove);
  // Once the new links are live (settled), go on to the position asked for meanwhile.
  document.addEventListener("htmx:afterSettle", function () {
    const board = document.getElementById("replay");
    if (!board || wanted === null) return;
    if (Number(board.dataset.move) === wanted) wanted = null;
    else go(board, wanted);
  });
  document.addEventListener("htmx:afterSwap", function () {
    showCurrentMove();
    const again = focusedStep && document.querySelector('#replay [data-step="' + focusedStep + '"]');
    if (again) again.focus();
  });
})();
