// The live table follows the game: on each "change" event from the kiosk, the table is
// fetched again and swapped in. Without JavaScript the page still shows the table (reload
// to see the latest move). Says when the kiosk cannot be reached, and tries again.
"use strict";
(function () {
  var live = document.getElementById("live");
  var lost = document.getElementById("lost");
  if (!live || !window.EventSource || !window.fetch) { return; }
  var fragment = live.getAttribute("data-fragment");
  var pending = null;
  var wanted = 0;

  function show(isLost) { lost.hidden = !isLost; }

  function refresh() {
    if (pending) { wanted += 1; return; }
    pending = fetch(fragment, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.text();
      })
      .then(function (html) {
        live.innerHTML = html;  // the server's own escaped HTML
        live.setAttribute("data-updated", String(Date.now()));
        show(false);
      })
      .catch(function () { show(true); })
      .then(function () {
        pending = null;
        if (wanted) { wanted = 0; refresh(); }
      });
  }

  var source = new EventSource(live.getAttribute("data-events"));
  var opened = false;
  source.addEventListener("open", function () {
    show(false);
    if (opened) { refresh(); }  // back after a loss: catch up on what was missed
    opened = true;
  });
  source.addEventListener("change", function () { refresh(); });
  source.addEventListener("error", function () {
    show(true);
    if (source.readyState === EventSource.CLOSED) {
      // Refused (too many phones, or the page turned off): try again in a while.
      window.setTimeout(function () { window.location.reload(); }, 30000);
    }
  });
})();
