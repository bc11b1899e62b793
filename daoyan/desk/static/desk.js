// The desk's only script besides htmx: copy buttons, the time slider's label, and the search of the
// player pickers. No inline script anywhere (the page's CSP forbids it).
(function () {
  "use strict";
  function copied(button, ok) {
    var was = button.dataset.label || button.textContent;
    button.dataset.label = was;
    button.textContent = ok ? "已复制 ✓" : "请按 Ctrl+C 复制";
    button.classList.toggle("done", ok);
    setTimeout(function () { button.textContent = was; button.classList.remove("done"); }, 2500);
  }
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest("[data-copy]");
    if (!button) return;
    var source = document.getElementById(button.dataset.copy);
    if (!source) return;
    var text = source.value;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { copied(button, true); }, function () {
        source.select(); copied(button, document.execCommand("copy"));
      });
    } else {
      source.select();
      copied(button, document.execCommand("copy"));
    }
  });
  // a page left open while `scan`, `watch` or `flags` write to the store says so
  function checkFreshness() {
    var day = document.getElementById("day");
    if (!day || !day.dataset.versionUrl) return Promise.resolve(false);
    return fetch(day.dataset.versionUrl, {credentials: "same-origin", cache: "no-store"}).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (v) {
      var stale = v !== null && v !== day.dataset.version;
      var banner = document.getElementById("stale");
      if (banner) {
        banner.hidden = !stale;
        document.getElementById("stale-reload").href = window.location.href;
      }
      return stale;
    }, function () { return false; });
  }
  window.daoyanCheckFreshness = checkFreshness;
  setInterval(checkFreshness, 30000);
  // player pickers: a search box (shown only where this script runs; the select alone works without it)
  // narrows the select to the players whose name or alias holds what is typed, and picks the best match
  // (an exact name or alias first). The names to search are folded on the server (data-names), as
  // daoyan compares names; the query is folded the same way here (NFKC, no spaces, lower case).
  function fold(s) { return (s || "").normalize("NFKC").replace(/\s+/g, "").toLowerCase(); }
  function searchPlayers(input) {
    var select = input.form && input.form.querySelector("select[data-player-picker]");
    if (!select) return;
    var q = fold(input.value), exact = null, first = null, none = null;
    Array.prototype.forEach.call(select.options, function (o) {
      if (!o.value) { none = o; return; }
      var names = (o.dataset.names || fold(o.value)).split("\n");
      var hit = !q || names.some(function (n) { return n.indexOf(q) >= 0; });
      o.hidden = !hit;
      if (hit && !first) first = o;
      if (q && !exact && names.indexOf(q) >= 0) exact = o;
    });
    var pick = exact || first;
    if (q) {
      if (pick) select.value = pick.value;
      else if (none) select.value = "";
      else select.selectedIndex = -1;  // a required picker: nothing to submit until a player is found
    }
    var status = input.form.querySelector("[data-picker-status]");
    if (status) status.textContent = q && !pick ? "没有名字或别名含“" + input.value.trim() + "”的玩家" : "";
  }
  function revealSearch() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-picker-search]"), function (input) {
      var label = input.closest("label");
      if (label) label.hidden = false;
    });
  }
  document.addEventListener("DOMContentLoaded", revealSearch);
  document.addEventListener("htmx:load", revealSearch);
  window.daoyanSearchPlayers = searchPlayers;
  document.addEventListener("keydown", function (ev) {  // Enter in a search box finds; it records nothing
    if (ev.key === "Enter" && ev.target.matches && ev.target.matches("[data-picker-search]")) ev.preventDefault();
  });
  document.addEventListener("input", function (ev) {
    if (ev.target.matches && ev.target.matches("[data-picker-search]")) { searchPlayers(ev.target); return; }
    if (ev.target.id !== "moment") return;
    var stops = document.querySelectorAll("#moment-stops li");
    var label = document.getElementById("moment-label");
    var stop = stops[Number(ev.target.value)];
    if (label && stop) label.textContent = stop.textContent;
  });
})();
