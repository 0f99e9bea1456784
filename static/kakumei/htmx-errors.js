// A failed htmx request (5xx, or no answer at all) must not fail silently: show the banner.
// 4xx answers are swapped in by the htmx-config rule in base.html (they carry an error partial).
(function () {
  function show(event) {
    // The offline console (offline.js) takes over a tap that never reached the server.
    if (event && event.defaultPrevented) return;
    var banner = document.getElementById("htmx-error");
    if (banner) banner.hidden = false;
  }
  function hide() {
    var banner = document.getElementById("htmx-error");
    if (banner) banner.hidden = true;
  }
  document.addEventListener("htmx:responseError", show);
  document.addEventListener("htmx:sendError", show);
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) hide();
  });
})();
