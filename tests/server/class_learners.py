"""Learners of a class, as raw clients of the class server: the page's own messages, without a browser.

Used by ``tools/load_class.py`` (the class benchmark, issue 19) and
``tests/server/test_class_load.py`` (its 5-learner version in ``make test``).

A :class:`RawLearner` does what the app's page does (Voilà's template, its
ipywidgets 8 manager and the kit's anywidget table), over the same wire:

1. ``GET /`` (its own cookie jar: the owner cookie and ``_xsrf``), and the kernel
   id from the page's ``jupyter-config-data``; while the server answers with its
   waiting page ("Your lab is starting", issue 26) it asks again after a few
   seconds, as that page's own script does. The page must hold its app: the
   app cell's widget view (:func:`page_app_model`), the same model the kernel
   then names as the app's root, as a browser needs it to draw anything
   (a page without it was white, issue 26);
2. the kernel websocket ``/api/kernels/<id>/channels`` with the cookie, in the
   ``v1.kernel.websocket.jupyter.org`` binary protocol the page negotiates;
   a ``kernel_info_request``, then the widgets' states as ipywidgets 8 loads
   them (a ``jupyter.widget.control`` comm, ``request_states``);
3. a learner's clicks as the widgets send them: a chooser's choice is a
   comm ``update`` (``{"index": i}``), a button press a comm ``custom``
   ``{"event": "click"}``, a click on the table an ``update`` of its ``click``
   trait ``{"kind", "id", "seq"}`` (``safari_kit/widgets/static/table.js``);
   new widgets arrive as ``comm_open`` (the lab's table among them);
4. leaving: the page's unload ``POST /voila/api/shutdown/<id>`` (with the
   ``_xsrf`` form field), or a tab that dies without it.

Each learner comes from its own loopback address (127.0.0.x), as the
computers of a class do, so the server's per-computer cap applies as in a room.

**Timings.** *open -> first table*: from the ``GET`` to the ``comm_open`` of the
lab's table after pressing Open lab at once (no think time). *action -> reply*:
from sending a click to the first message the kernel sends because of it (a
widget ``update`` or a new widget; ipywidgets' ``echo_update`` does not count);
a click that changes nothing is answered by the kernel's ``idle`` status.
"""
from __future__ import annotations

import asyncio
import json
import random
import re
import time
import uuid
from dataclasses import dataclass, field

from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

AsyncHTTPClient.configure(None, max_clients=500)  # a class opens its pages at once; tornado's default is 10

PROTOCOL = "v1.kernel.websocket.jupyter.org"
REPLY_TIMEOUT = 30.0
#: how long a learner keeps a waiting page open before giving up (the page says "up to a minute")
PAGE_TIMEOUT = 180.0
#: in the class server's waiting page (safari_kit.classroom.lab_pages.WAITING_MARKER)
WAITING_MARKER = "safari-lab-starting"
_WIDGET_VIEW = re.compile(r'<script type="application/vnd\.voila\.cell-output\+json">\s*(\{.*?\})\s*</script>', re.S)
#: the labs a learner opens first (each has a table); the Simulation lab comes later for some
TABLE_LABS = (("Safari Witness", "Identification"), ("Safari Witness", "Challenge"), ("Safari Witness", "Full game"),
              ("Safari Knockout", "Knockout"), ("Safari Witness", "Rules tutorial"),
              ("Safari Knockout", "Rules tutorial"))
SIMULATION = ("Both games", "Simulation")
SKIP_BUTTONS = {"Save game record", "Load game record", "Open lab", "Stop", "Back"}
RARE_BUTTONS = {"Reset", "New game"}


def encode_v1(channel: str, msg: dict) -> bytes:
    """A message in the v1 kernel websocket protocol (what the page sends)."""
    parts = [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata", "content")]
    offsets = [8 * (1 + 1 + len(parts) + 1)]
    offsets.append(offsets[-1] + len(channel.encode()))
    for p in parts:
        offsets.append(offsets[-1] + len(p))
    head = len(offsets).to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + channel.encode() + b"".join(parts)


def decode_v1(frame: bytes) -> tuple[str, dict]:
    """(channel, message) of a v1 frame; binary buffers are dropped (the app sends none)."""
    n = int.from_bytes(frame[:8], "little")
    offs = [int.from_bytes(frame[8 * (i + 1):8 * (i + 2)], "little") for i in range(n)]
    channel = frame[offs[0]:offs[1]].decode()
    parts = [frame[offs[i]:offs[i + 1]] for i in range(1, min(5, n - 1))]
    keys = ("header", "parent_header", "metadata", "content")
    return channel, {k: json.loads(p) if p else {} for k, p in zip(keys, parts, strict=False)}


def message(msg_type: str, content: dict, session: str, metadata: dict | None = None) -> dict:
    return {"header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "", "session": session,
                       "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": metadata or {}, "content": content}


def page_app_model(body: str) -> str | None:
    """The model id of the first widget view among the page's cell outputs, or None (a page without its app).

    Voilà's template writes each output as a ``application/vnd.voila.cell-output+json``
    script; the page's widget manager draws the view of that model, nothing else.
    """
    for match in _WIDGET_VIEW.finditer(body):
        try:
            output = json.loads(match.group(1))
        except ValueError:
            continue
        view = (output.get("data") or {}).get("application/vnd.jupyter.widget-view+json") or {}
        if isinstance(view, dict) and view.get("model_id"):
            return str(view["model_id"])
    return None


def ref(value) -> str | None:
    return value[len("IPY_MODEL_"):] if isinstance(value, str) and value.startswith("IPY_MODEL_") else None


@dataclass
class Sample:
    kind: str  # "chooser", "table", "button", "toggle", "simulation"
    seconds: float | None  # None: no reply within REPLY_TIMEOUT


@dataclass
class LearnerResult:
    name: str
    status: int = 0
    page_seconds: float | None = None
    table_seconds: float | None = None
    lab: str = ""
    samples: list[Sample] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    left_with_shutdown: bool | None = None
    waiting_pages: int = 0   # waiting pages ("Your lab is starting") before the lab's page
    app_model: str | None = None  # the app's widget view in the page (None: a page without its app)
    nickname: str = ""       # joined the class experiment under it (issue 21), or ""
    results_text: str = ""   # the page's own results file (its Download my results button) when the learner left


class RawLearner:
    """One learner's browser tab (see the module's docstring)."""

    def __init__(self, url: str, ip: str, name: str, rng: random.Random):
        self.url, self.ip, self.rng = url.rstrip("/") + "/", ip, rng
        self.result = LearnerResult(name)
        self.cookies: dict[str, str] = {}
        self.kernel_id: str | None = None
        self.ws = None
        self.session = uuid.uuid4().hex
        self.models: dict[str, dict] = {}  # comm id -> widget state
        self.pending: dict[str, dict] = {}  # msg id -> {"t0", "first", "done" (a future)}
        self.table_event = asyncio.Event()
        self.opened_at = 0.0
        self.seq = int(time.time() * 1000)
        self.reader: asyncio.Task | None = None
        self.closed_code: int | None = None
        self.page_html = ""
        self.custom: dict[str, dict] = {}  # comm id -> the last custom message a widget sent the page

    # ------------------------------------------------------------------ http
    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    async def fetch(self, path: str, **kw):
        req = HTTPRequest(self.url + path, network_interface=self.ip, connect_timeout=180, request_timeout=180,
                          follow_redirects=False,
                          headers={"Cookie": self.cookie_header(), **kw.pop("headers", {})}, **kw)
        resp = await AsyncHTTPClient().fetch(req, raise_error=False)
        for line in resp.headers.get_list("Set-Cookie"):
            name, _, rest = line.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return resp

    async def open_page(self) -> int:
        """GET the app page, through the waiting pages as a browser does; the kernel id is kept. Returns the status.

        An answer other than the app's page with its kernel id and its app's
        widget view is an error of the learner's (what the page was instead:
        its size and first words).
        """
        self.opened_at = time.perf_counter()
        while True:
            resp = await self.fetch("")
            body = (resp.body or b"").decode(errors="replace")
            if resp.code != 200 or WAITING_MARKER not in body or time.perf_counter() - self.opened_at > PAGE_TIMEOUT:
                break
            self.result.waiting_pages += 1
            await asyncio.sleep(self.rng.uniform(1.4, 2.6))  # the waiting page's own script: about 2 s
        self.result.status = resp.code
        self.result.page_seconds = time.perf_counter() - self.opened_at
        self.page_html = body
        match = re.search(r'"kernelId":\s*"([0-9a-f-]+)"', body)
        self.kernel_id = match.group(1) if match else None
        self.result.app_model = page_app_model(body)
        if resp.code == 200 and not (self.kernel_id and self.result.app_model):  # what the page was instead
            words = " ".join(re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ", body, flags=re.S).split())
            what = "a kernel id" if not self.kernel_id else "its app (no widget view in its outputs)"
            self.result.errors.append(f"page without {what} ({len(body)} bytes, {self.result.page_seconds:.2f} s, "
                                      f"after {self.result.waiting_pages} waiting pages): {words[:300]!r}")
        return resp.code

    async def shutdown(self) -> int:
        """The page's unload request (Voilà's template posts the _xsrf form field)."""
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"_xsrf\"\r\n\r\n"
                f"{self.cookies.get('_xsrf', '')}\r\n--{boundary}--\r\n")
        resp = await self.fetch(f"voila/api/shutdown/{self.kernel_id}", method="POST", body=body,
                                headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
        return resp.code

    # ------------------------------------------------------------------ websocket
    async def connect(self) -> None:
        ws_url = self.url.replace("http://", "ws://") + f"api/kernels/{self.kernel_id}/channels?session_id=" \
                 + self.session
        req = HTTPRequest(ws_url, network_interface=self.ip, headers={"Cookie": self.cookie_header()},
                          connect_timeout=120, request_timeout=120)  # tornado's 20 s: a busy server's upgrade
        self.ws = await asyncio.wait_for(websocket_connect(req, subprotocols=[PROTOCOL],
                                                           max_message_size=64 * 1024 * 1024), 60)
        self.reader = asyncio.ensure_future(self._read())
        await self.request("kernel_info_request", {}, kind=None)
        control = uuid.uuid4().hex
        await self.send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
                        {"version": "1.0.0"})  # ipywidgets' control protocol version, as the page sends it
        await self.request("comm_msg", {"comm_id": control, "data": {"method": "request_states"}}, kind=None)
        await self.send("comm_close", {"comm_id": control, "data": {}})

    async def send(self, msg_type: str, content: dict, metadata: dict | None = None) -> str:
        msg = message(msg_type, content, self.session, metadata)
        await self.ws.write_message(encode_v1("shell", msg), binary=True)
        return msg["header"]["msg_id"]

    async def request(self, msg_type: str, content: dict, kind: str | None) -> float | None:
        """Send and wait for the reply (see the module's docstring); record it under ``kind``."""
        msg = message(msg_type, content, self.session)
        done = asyncio.get_running_loop().create_future()
        entry = {"t0": time.perf_counter(), "first": None, "done": done}
        self.pending[msg["header"]["msg_id"]] = entry
        await self.ws.write_message(encode_v1("shell", msg), binary=True)
        try:
            await asyncio.wait_for(done, REPLY_TIMEOUT)
        except asyncio.TimeoutError:
            pass
        self.pending.pop(msg["header"]["msg_id"], None)
        seconds = entry["first"]
        if kind is not None:
            self.result.samples.append(Sample(kind, seconds))
        return seconds

    async def _read(self) -> None:
        while True:
            frame = await self.ws.read_message()
            if frame is None:
                self.closed_code = self.ws.close_code
                for entry in self.pending.values():
                    if not entry["done"].done():
                        entry["done"].set_result(None)
                return
            if isinstance(frame, str):
                continue
            channel, msg = decode_v1(frame)
            self._on_message(channel, msg)

    def _on_message(self, channel: str, msg: dict) -> None:
        kind = msg["header"].get("msg_type")
        content = msg.get("content") or {}
        if kind == "comm_open" and content.get("target_name") == "jupyter.widget":
            self.models[content["comm_id"]] = dict(content.get("data", {}).get("state", {}))
            self._table_check(self.models[content["comm_id"]])
        elif kind == "comm_msg":
            data = content.get("data", {})
            if data.get("method") in ("update", "echo_update"):
                self.models.setdefault(content["comm_id"], {}).update(data.get("state", {}))
                self._table_check(self.models[content["comm_id"]])
            elif data.get("method") == "custom":  # a widget's own message to the page (the results file)
                self.custom[content["comm_id"]] = data.get("content") or {}
            elif data.get("method") == "update_states":
                for cid, model in data.get("states", {}).items():
                    self.models[cid] = {"_model_name": model.get("model_name"), **model.get("state", {})}
        elif kind == "comm_close":
            self.models.pop(content.get("comm_id"), None)
        entry = self.pending.get(msg.get("parent_header", {}).get("msg_id"))
        if entry is None:
            return
        now = time.perf_counter() - entry["t0"]
        replied = (kind in ("comm_open", "comm_close", "kernel_info_reply", "display_data", "stream", "error")
                   or (kind == "comm_msg" and content.get("data", {}).get("method") != "echo_update"))
        if replied and entry["first"] is None:
            entry["first"] = now
        if kind == "kernel_info_reply" or (kind == "status" and content.get("execution_state") == "idle"):
            if entry["first"] is None:
                entry["first"] = now
            if not entry["done"].done():
                entry["done"].set_result(now)

    def _table_check(self, state: dict) -> None:
        """The lab's table has arrived: a CardTable (its ``selectable`` trait) with a view to draw."""
        if "selectable" in state and state.get("view") and self.result.table_seconds is None and self.result.lab:
            self.result.table_seconds = time.perf_counter() - self.opened_at
            self.table_event.set()

    async def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
        if self.reader is not None:
            self.reader.cancel()

    # ------------------------------------------------------------------ the widgets
    def find(self, pred) -> list[str]:
        return [cid for cid, s in self.models.items() if pred(s)]

    def root(self) -> str | None:
        found = self.find(lambda s: "safari-app" in (s.get("_dom_classes") or ()))
        return found[0] if found else None

    def shown(self, start: str | None) -> list[str]:
        """The widgets shown under ``start`` (children of boxes, skipping hidden layouts)."""
        out, todo = [], [start] if start else []
        while todo:
            cid = todo.pop()
            state = self.models.get(cid)
            if state is None:
                continue
            layout = self.models.get(ref(state.get("layout")) or "", {})
            if layout.get("display") == "none" or layout.get("visibility") == "hidden":
                continue
            out.append(cid)
            todo.extend(r for r in (ref(c) for c in state.get("children") or ()) if r)
        return out

    def chooser_parts(self) -> dict[str, str]:
        root = self.models[self.root()]
        rows = [ref(c) for c in root["children"]]
        # the lab's stage, by its class: the chooser has parts after it (its language holder, issue 30)
        stages = [r for r in rows if "safari-stage" in (self.models.get(r, {}).get("_dom_classes") or ())]
        parts = {"stage": stages[0] if stages else rows[3]}
        for cid in (ref(c) for r in rows if r != parts["stage"] for c in self.models.get(r, {}).get("children") or ()):
            state = self.models.get(cid, {})
            name = state.get("_model_name")
            if name == "ToggleButtonsModel":
                parts["game"] = cid
            elif name == "DropdownModel":
                parts["lab"] = cid
            elif name == "ButtonModel" and state.get("description") == "Open lab":
                parts["open"] = cid
            elif name == "TextModel" and "nickname" in (state.get("placeholder") or ""):
                parts["nickname"] = cid
            elif name == "ButtonModel" and "safari-join" in (state.get("_dom_classes") or ()):
                parts["join"] = cid
        return parts

    async def join(self, nickname: str) -> None:
        """Type ``nickname`` in the chooser's box and press Join (issue 21), as the page sends them."""
        parts = self.chooser_parts()
        await self.update(parts["nickname"], {"value": nickname}, "chooser")
        await self.press(parts["join"], "chooser")

    async def results_file(self, timeout: float = REPLY_TIMEOUT) -> str:
        """The page's "Download my results" file, asked for as its button does, or "" (issues 21, 26).

        The button sends the custom message ``{"ask": "file"}``; the kernel
        answers once with ``{"name", "text"}`` (safari_kit/widgets/class_join.py).
        """
        for cid in self.shown(self.root()):
            if "safari-results-download" not in (self.models[cid].get("_dom_classes") or ()):
                continue
            self.custom.pop(cid, None)
            await self.send("comm_msg", {"comm_id": cid, "data": {"method": "custom", "content": {"ask": "file"}}})
            deadline = time.perf_counter() + timeout
            while cid not in self.custom and time.perf_counter() < deadline and self.closed_code is None:
                await asyncio.sleep(0.05)
            content = self.custom.get(cid) or {}
            return str(content.get("text") or "")
        return ""

    async def update(self, cid: str, state: dict, kind: str | None) -> float | None:
        return await self.request("comm_msg", {"comm_id": cid, "data": {"method": "update", "state": state,
                                                                         "buffer_paths": []}}, kind)

    async def press(self, cid: str, kind: str | None) -> float | None:
        return await self.request("comm_msg", {"comm_id": cid, "data": {"method": "custom",
                                                                         "content": {"event": "click"}}}, kind)

    async def open_lab(self, game: str, lab: str) -> None:
        """Choose ``game`` and ``lab`` in the chooser and press Open lab, as the learner's clicks do."""
        parts = self.chooser_parts()
        games = self.models[parts["game"]].get("_options_labels", [])
        if self.models[parts["game"]].get("index") != games.index(game):
            await self.update(parts["game"], {"index": games.index(game)}, "chooser")
        labs = self.models[parts["lab"]].get("_options_labels", [])
        if self.models[parts["lab"]].get("index") != labs.index(lab):
            await self.update(parts["lab"], {"index": labs.index(lab)}, "chooser")
        self.result.lab = f"{game} / {lab}"
        await self.press(parts["open"], "chooser")

    def actions(self) -> list[tuple[float, str, str, object]]:
        """(weight, kind, comm id, what) of every click the learner could make now in the open lab."""
        stage = self.chooser_parts()["stage"]
        simulation = "Simulation" in self.result.lab
        found: list[tuple[float, str, str, object]] = []
        for cid in self.shown(stage):
            s = self.models[cid]
            name = s.get("_model_name")
            if "selectable" in s and s.get("interactive"):
                for t in s.get("selectable") or []:
                    found.append((3.0 / max(1, len(s["selectable"])) * 3, "table", cid, t))
            elif name == "ButtonModel" and not s.get("disabled") and s.get("description") not in SKIP_BUTTONS:
                weight = 0.2 if s.get("description") in RARE_BUTTONS else 1.0
                found.append((weight, "simulation" if simulation else "button", cid, None))
            elif name == "ToggleButtonsModel" and not s.get("disabled") and len(s.get("_options_labels") or ()) > 1:
                found.append((0.5, "toggle", cid, self.rng.randrange(len(s["_options_labels"]))))
        return found

    async def act(self) -> bool:
        """One click of the learner's choosing; False when nothing is clickable."""
        choices = self.actions()
        if not choices:
            return False
        _w, kind, cid, what = self.rng.choices(choices, weights=[c[0] for c in choices])[0]
        if kind == "table":
            self.seq += 1
            await self.update(cid, {"click": {"kind": what["kind"], "id": what["id"], "seq": self.seq}}, kind)
        elif kind == "toggle":
            await self.update(cid, {"index": what}, kind)
        else:
            await self.press(cid, kind)
        return True


async def play_learner(learner: RawLearner, delay: float, seconds: float, pace=(2.0, 5.0),
                       lab=None, switch_to_simulation: bool = False, nickname: str = "") -> LearnerResult:
    """Arrive after ``delay`` s, open a table lab at once, then an action every ``pace`` s for ``seconds`` s;
    with ``nickname``, join the class experiment first (issue 21) and keep the page's results file at the end."""
    r = learner.result
    await asyncio.sleep(delay)
    try:
        if await learner.open_page() != 200 or not learner.kernel_id or not r.app_model:
            r.errors.append(f"page answered {r.status}" + ("" if r.app_model else " without its app"))
            return r
        await learner.connect()
        if learner.root() is None:
            r.errors.append("no app widget in the kernel's states")
            return r
        if learner.root() != r.app_model:
            r.errors.append(f"the page shows widget {r.app_model}, the kernel's app is {learner.root()}")
            return r
        if nickname:
            await learner.join(nickname)
            r.nickname = nickname
        await learner.open_lab(*(lab or learner.rng.choice(TABLE_LABS)))
        try:
            await asyncio.wait_for(learner.table_event.wait(), REPLY_TIMEOUT)
        except asyncio.TimeoutError:
            r.errors.append(f"no table within {REPLY_TIMEOUT:.0f} s of Open lab ({r.lab})")
        end = time.perf_counter() + seconds
        switched = False
        while time.perf_counter() < end and learner.closed_code is None:
            await asyncio.sleep(learner.rng.uniform(*pace))
            if switch_to_simulation and not switched and time.perf_counter() > end - seconds / 2:
                switched = True
                await learner.open_lab(*SIMULATION)
                continue
            await learner.act()
        if learner.closed_code is not None:
            r.errors.append(f"websocket closed by the server (code {learner.closed_code})")
        elif nickname:  # the last click's record reaches the page within its reply; wait for the replies
            await asyncio.sleep(1.0)
            r.results_text = await learner.results_file()
    except Exception as exc:  # noqa: BLE001 - a benchmark reports, it does not stop
        r.errors.append(f"{type(exc).__name__}: {exc}")
    return r


async def leave(learner: RawLearner, with_shutdown: bool) -> None:
    """Close the tab: with the page's unload shutdown, or as a tab that dies without it."""
    learner.result.left_with_shutdown = with_shutdown
    if with_shutdown and learner.kernel_id:
        code = await learner.shutdown()
        if code not in (200, 204):
            learner.result.errors.append(f"shutdown answered {code}")
    await learner.close()
