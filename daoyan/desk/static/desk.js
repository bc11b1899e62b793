// The desk's only script besides htmx: copy buttons and the time slider's label. No inline
// script anywhere (the page's CSP forbids it).
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
  document.addEventListener("input", function (ev) {
    if (ev.target.id !== "moment") return;
    var stops = document.querySelectorAll("#moment-stops li");
    var label = document.getElementById("moment-label");
    var stop = stops[Number(ev.target.value)];
    if (label && stop) label.textContent = stop.textContent;
  });
})();
