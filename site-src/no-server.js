/* safari_kit (site-src/no-server.js, put in every page's <head> by build_site.py): a page opened as a file
   (file://, e.g. the site folder double-clicked on a USB stick) cannot run Python, because the browser refuses
   the kernel's web worker there; say so at once instead of a page that spins for ever. */
if (location.protocol === "file:") {
  addEventListener("DOMContentLoaded", function () {
    var p = document.createElement("p");
    p.className = "safari-no-server";
    p.setAttribute("role", "alert");
    p.style.cssText = "position:fixed;inset:0;margin:0;box-sizing:border-box;padding:2rem max(2rem, calc(50vw - 23rem));" +
      "background:#fff;color:#111;z-index:2147483647;font:1.25rem/1.5 system-ui,sans-serif";
    p.textContent = "This site must be opened through a web server, not as a file: in a terminal in the site\u2019s " +
      "folder, run \u201cpython3 -m http.server\u201d and open http://localhost:8000/ (or ask your teacher for " +
      "the class\u2019s address).";
    document.documentElement.appendChild(p);
  });
}
