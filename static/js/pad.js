// The table page as a score pad: tapping a round's row opens its why, and the score sheet
// download says at once that it is being prepared. Every page works without this file.
(function () {
  "use strict";

  // A row of the grid opens that round's card below: its why, Edit and Delete.
  document.addEventListener("click", function (event) {
    var row = event.target.closest && event.target.closest(".pad tr[data-hand]");
    if (!row) return;
    var n = row.dataset.hand;
    var hand = document.getElementById("hand-" + n);
    var why = document.getElementById("why-" + n);
    if (!hand) return;
    event.preventDefault();
    if (why) why.open = true;
    hand.scrollIntoView({ block: "start" });
    if (history.replaceState) history.replaceState(null, "", "#hand-" + n);
    var edit = hand.querySelector(".hand-actions a, summary");
    if (edit) edit.focus({ preventScroll: true });
  });

  // The sheet download: fetched here, so the link can show that it is working until the PDF
  // arrives (a first rendering takes a few seconds); a plain download without this script.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-busy]");
    if (!link || link.getAttribute("aria-busy") === "true" || !window.fetch || !window.URL) return;
    event.preventDefault();
    var label = link.textContent;
    link.setAttribute("aria-busy", "true");
    link.classList.add("busy");
    link.textContent = link.dataset.busy;
    var status = document.getElementById("sheet-status");
    if (status) status.textContent = link.dataset.busy;
    function done(message) {
      link.removeAttribute("aria-busy");
      link.classList.remove("busy");
      link.textContent = label;
      if (status) status.textContent = message;
    }
    fetch(link.href, { credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) throw new Error(String(r.status));
        var name = (r.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/);
        return r.blob().then(function (blob) { return { blob: blob, name: name ? name[1] : "courtier.pdf" }; });
      })
      .then(function (file) {
        var a = document.createElement("a");
        a.href = URL.createObjectURL(file.blob);
        a.download = file.name;
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(function () { URL.revokeObjectURL(a.href); }, 60000);
        done(window.courtierSay("Sheet ready: {file}", { file: file.name }));
      })
      .catch(function () { done(window.courtierSay("The sheet could not be made just now. Try again in a moment.")); });
  });

  // "Undone — Redo": the notice fades after a while; the Redo button goes with it.
  function fadeNotices(root) {
    (root || document).querySelectorAll("[data-fade]").forEach(function (box) {
      if (box.dataset.fading) return;
      box.dataset.fading = "1";
      setTimeout(function () { box.hidden = true; }, parseInt(box.dataset.fade, 10) || 12000);
    });
  }
  // Loaded by app.js when a table's page shows, maybe after the page has loaded.
  function ready(fn) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn);
    else fn();
  }
  ready(function () { fadeNotices(document); });
  document.addEventListener("htmx:afterSettle", function () { fadeNotices(document); });
})();

// Times in the history are written in UTC by the server; shown here in the phone's own time.
(function () {
  "use strict";
  function localTimes(root) {
    (root || document).querySelectorAll("time[data-local]").forEach(function (t) {
      var when = new Date(t.getAttribute("datetime"));
      if (isNaN(when)) return;
      // In the phone's own time zone, and its own way of writing the page's language (en-GB, hi-IN), or
      // the page's language as it is written where the phone speaks another.
      var page = document.documentElement.lang, phone = (navigator.language || "").split("-")[0];
      t.textContent = when.toLocaleString(!page || phone === page ? undefined : page, { weekday: "short", day: "numeric", month: "short",
        hour: "2-digit", minute: "2-digit", second: "2-digit" });
      t.title = t.getAttribute("datetime");
    });
  }
  if (document.readyState === "loading") {  // loaded by app.js, maybe after the page has loaded
    document.addEventListener("DOMContentLoaded", function () { localTimes(document); });
  } else {
    localTimes(document);
  }
  document.addEventListener("htmx:afterSettle", function () { localTimes(document); });
})();

// An older round's why is loaded when its card is opened (it is a page of its own without this).
(function () {
  "use strict";
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!details.open || !details.querySelector) return;
    var later = details.querySelector("[data-why-src]");
    if (!later || later.dataset.loading) return;
    later.dataset.loading = "1";
    fetch(later.dataset.whySrc, { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var body = doc.querySelector("#why .why-body");
        if (body) later.replaceWith(document.importNode(body, true));
      })
      .catch(function () { delete later.dataset.loading; });
  }, true);
})();
