// The referee console's think-time countdown (games/clock.py, docs/tournament-day.md). The
// server renders the decision's deadline and its own time; one interval reads whichever
// #think-clock is on the page now, so it keeps ticking across htmx swaps of the console. At 0
// it turns red and says time is up: the referee decides what follows, nothing is automatic.
(function () {
  function tick() {
    var clock = document.getElementById("think-clock");
    if (!clock) return;
    if (!clock.dataset.skew) {
      // The phone's clock may differ from the server's: count from the server's time.
      clock.dataset.skew = String(Date.parse(clock.dataset.now) - Date.now());
    }
    var left = Date.parse(clock.dataset.deadline) - (Date.now() + Number(clock.dataset.skew));
    var seconds = Math.max(0, Math.ceil(left / 1000));
    var shown = clock.querySelector("[data-slot=left]");
    if (shown && shown.textContent !== String(seconds)) shown.textContent = String(seconds);
    var out = seconds === 0;
    clock.classList.toggle("out", out);
    var said = clock.querySelector("[data-slot=out]");
    if (said) said.hidden = !out;
  }
  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", tick);
  // htmx settles a swapped element's attributes a moment after the swap: tick again then.
  document.addEventListener("htmx:afterSwap", tick);
  document.addEventListener("htmx:afterSettle", tick);
})();
