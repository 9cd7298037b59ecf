/* The start-up sentence of the app page and of a lesson's page (issue 18, items 3 and 5), put first in the
   page's <body> at build time (site-src/kernel_startup.py: which page, its key, what "ready" is). A lesson's page
   (JupyterLite) says it only when opened on a notebook (?path=....ipynb): until that notebook's kernel is idle.
   From the first second until the app shows: "Starting Python in your browser: about N s on this computer",
   N being this browser's last start-up of the page (kept in localStorage), or on a first visit the figure the
   build was given (measured by tools/measure_site.py). The online build also checks that the Python runtime's
   host answers; where it cannot be reached the sentence says so instead of the page waiting for ever. */
(function () {
  var KEY = __KEY__;
  var READY = __READY__;
  if (__NEEDS_NOTEBOOK__ && !/[?&]path=[^&#]*\.ipynb/.test(window.location.search)) return;
  var FIRST = __FIRST_SECONDS__;
  var RUNTIME = __RUNTIME_URL__;
  // the sentences in the page's language (issue 30: site-src/site_languages.py; English: the words below)
  var W = (__WORDS__)[__PAGE_LANGUAGE__] || null;

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (m, key) { return key in values ? values[key] : m; });
  }
  var failed = false;
  var timer = null;

  function stored() {
    try { return parseFloat(window.localStorage.getItem(KEY)) || 0; } catch (e) { return 0; }
  }

  function about(seconds) {
    return seconds < 20 ? Math.max(1, Math.round(seconds)) : 5 * Math.round(seconds / 5);
  }

  var estimate = about(stored() || FIRST);

  function note() {
    var el = document.getElementById("safari-starting");
    if (!el && document.body) {
      el = document.createElement("div");
      el.id = "safari-starting";
      el.setAttribute("role", "status");
      el.style.cssText = "position:fixed;top:0;left:0;right:0;z-index:10000;padding:.7rem 1rem;" +
        "font:16px/1.4 system-ui,sans-serif;background:#fff8dc;color:#222;border-bottom:1px solid #d8c78a;" +
        "text-align:center";
      document.body.appendChild(el);
    }
    return el;
  }

  function ready() {
    return !!document.querySelector(READY);
  }

  function tick() {
    if (ready() && !failed) {  // JupyterLab draws itself without a kernel: the sentence stays
      var seconds = performance.now() / 1000, shown = document.getElementById("safari-starting");
      try { window.localStorage.setItem(KEY, seconds.toFixed(1)); } catch (e) { /* private window: no store */ }
      if (shown) shown.remove();
      clearInterval(timer);
      return;
    }
    var el = note();
    if (!el) return;
    if (failed) {
      el.textContent = "Python cannot start: this computer cannot reach the website that sends Python (" +
        new URL(RUNTIME).host + "). Connect to the internet, or ask your teacher for the offline copy of this site.";
      if (W) el.textContent = fill(W.cannot_start, { host: new URL(RUNTIME).host });
      el.style.background = "#fde8e8";
      // JupyterLite's own "Loading JupyterLite..." spinner would go on turning under the sentence
      var spinner = document.getElementById("jupyterlite-loading-indicator");
      if (spinner) spinner.classList.add("hidden");
      return;
    }
    var text = "Starting Python in your browser: about " + estimate + " seconds on this computer (" +
      Math.round(performance.now() / 1000) + " seconds so far).";
    if (W) text = fill(W.starting, { estimate: estimate, elapsed: Math.round(performance.now() / 1000) });
    // only when the words change (once a second): each change makes the browser lay the page out and paint it
    // again, which a slow laptop pays for while Python starts (issue 31)
    if (el.textContent !== text) el.textContent = text;
  }

  if (RUNTIME) {
    fetch(RUNTIME, { mode: "no-cors", cache: "no-store" }).catch(function () { failed = true; tick(); });
  }
  timer = setInterval(tick, 250);
  tick();
})();
