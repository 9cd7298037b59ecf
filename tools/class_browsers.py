"""Real Chromium learners for the class benchmark (``tools/load_class.py --browsers K``).

Run as a process of its own (so the raw learners' event loop is not the
browser's): ``python tools/class_browsers.py URL --pages K --seconds S --spread A``
prints one JSON line per page. Each page is its own browser context (its own
cookies: a computer of the class), opens the app, presses Open lab (Safari
Witness, Identification) and plays at a human pace: a click every 2-5 s on a
card of the table or a lab button the page shows, like a learner.

Timings are taken inside the page on the kernel websocket (an init script
wraps ``WebSocket``), so they mean what the raw learners' do: from the page
sending a widget message (a click, a press) to the first widget message the
kernel sends because of it (not ipywidgets' ``echo_update``), or its ``idle``
status when the click changed nothing.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import time

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"]

WIRE = """
(() => {
  const sent = new Map(); window.__replies = []; window.__sent = 0;
  const dec = new TextDecoder();
  function parse(buf) {
    const dv = new DataView(buf); const n = Number(dv.getBigUint64(0, true)); const o = [];
    for (let i = 0; i < n; i++) o.push(Number(dv.getBigUint64(8 * (i + 1), true)));
    const part = (i) => {
      const s = dec.decode(new Uint8Array(buf, o[i], o[i + 1] - o[i])); return s ? JSON.parse(s) : {};
    };
    return {header: part(1), parent: part(2), content: part(4)};
  }
  const origSend = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try {
      const buf = data instanceof ArrayBuffer ? data : (ArrayBuffer.isView(data) ? data.buffer : null);
      if (buf) {
        const m = parse(buf);
        const method = m.content && m.content.data && m.content.data.method;
        if (m.header.msg_type === 'comm_msg' && (method === 'update' || method === 'custom')) {
          sent.set(m.header.msg_id, performance.now()); window.__sent += 1;
        }
      }
    } catch (e) { /* not a kernel message */ }
    if (!this.__watched) {
      this.__watched = true;
      this.addEventListener('message', (ev) => {
        if (!(ev.data instanceof ArrayBuffer)) return;
        try {
          const m = parse(ev.data); const t0 = sent.get(m.parent.msg_id);
          const method = m.content && m.content.data && m.content.data.method;
          const idle = m.header.msg_type === 'status' && m.content.execution_state === 'idle';
          if (t0 !== undefined && (m.header.msg_type === 'comm_open' || idle
              || (m.header.msg_type === 'comm_msg' && method !== 'echo_update'))) {
            window.__replies.push(performance.now() - t0); sent.delete(m.parent.msg_id);
          }
        } catch (e) { /* ignore */ }
      });
    }
    return origSend.call(this, data);
  };
})();
"""

PICK = """
() => {
  const lab = document.querySelector('.safari-app');
  const cards = [...document.querySelectorAll('.safari-table .st-selectable')];
  const skip = ['Open lab', 'Save game record', 'Load game record', 'Stop', 'Back', 'Reset', 'New game'];
  const buttons = [...lab.querySelectorAll('button')].filter((b) => !b.disabled && b.offsetParent
      && !skip.includes(b.textContent.trim()) && !b.closest('.safari-app-top')
      && !b.classList.contains('safari-open'));
  const all = cards.length ? cards.concat(cards, buttons) : buttons;
  if (!all.length) return false;
  all[Math.floor(Math.random() * all.length)].click();
  return true;
}
"""


async def one_page(browser, url: str, delay: float, seconds: float, rng: random.Random) -> dict:
    await asyncio.sleep(delay)
    out: dict = {"table_seconds": None, "replies_ms": [], "sent": 0, "errors": []}
    context = await browser.new_context(viewport={"width": 1366, "height": 768})
    await context.add_init_script(WIRE)
    page = await context.new_page()
    page.on("pageerror", lambda e: out["errors"].append(f"JS error: {e}"))
    try:
        t0 = time.perf_counter()
        await page.goto(url, wait_until="commit", timeout=180_000)
        await page.locator("button.safari-open").wait_for(timeout=180_000)
        await page.locator("button.safari-open").click()
        await page.locator(".safari-table").first.wait_for(timeout=60_000)
        out["table_seconds"] = time.perf_counter() - t0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            await asyncio.sleep(rng.uniform(2, 5))
            await page.evaluate(PICK)
        await asyncio.sleep(1.0)  # the last reply
        out["replies_ms"] = await page.evaluate("() => window.__replies")
        out["sent"] = await page.evaluate("() => window.__sent")
    except Exception as exc:  # noqa: BLE001 - a benchmark reports
        try:
            shown = " ".join((await page.locator("body").inner_text(timeout=2_000)).split())[:160]
        except Exception:  # noqa: BLE001
            shown = "?"
        out["errors"].append(f"{type(exc).__name__}: {str(exc).splitlines()[0]} (the page shows: {shown!r})")
    finally:
        await context.close()  # the page's unload shutdown
    return out


async def main_async(args) -> None:
    from playwright.async_api import async_playwright

    rng = random.Random(args.seed)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=args.chromium, args=ARGS, headless=True)
        results = await asyncio.gather(*(one_page(browser, args.url, rng.uniform(0, args.spread), args.seconds,
                                                  random.Random(rng.random())) for _ in range(args.pages)))
        await browser.close()
    for r in results:
        print(json.dumps(r), flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("url")
    ap.add_argument("--pages", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=180)
    ap.add_argument("--spread", type=float, default=10, help="pages open within this many seconds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    asyncio.run(main_async(ap.parse_args(argv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
