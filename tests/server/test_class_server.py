"""The class server (``safari-kit class``, issue 19): a kernel belongs to the browser that opened it; the limits hold.

Each test runs the real command on 127.0.0.1 (tests/server/class_server.py)
serving a one-button notebook, and plays learners with raw HTTP and websocket
clients, as a curious learner's console or a second laptop would. Controls run
the same requests against a kernel the learner owns, so a refusal is the
ownership check, not a broken request.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import time

import pytest

pytest.importorskip("voila")

from tornado.httpclient import HTTPClientError  # noqa: E402
from tornado.websocket import WebSocketClosedError  # noqa: E402

from tests.server.class_server import (  # noqa: E402
    Learner, class_server, kernel_info_request, kernel_info_round_trip, kernel_status, page_shutdown, request, ws_open,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server():
    with class_server("--labs-per-minute", "0") as srv:
        yield srv


def _open(server) -> Learner:
    learner = Learner(server)
    status, _ = learner.open_page()
    assert status == 200 and learner.kernel_id, server.log_text()[-2000:]
    return learner


# ----------------------------------------------------------------------------- ownership
def test_a_second_client_is_refused_on_the_websocket_and_the_rest_api(server):
    owner, other = _open(server), _open(server)
    kid = owner.kernel_id
    # the REST API: no cookie, another learner's cookie -> 403; the owner -> 200
    assert request(server, f"api/kernels/{kid}")[0] == 403
    assert request(server, f"api/kernels/{kid}", cookie=other.cookie_header())[0] == 403
    assert request(server, f"api/kernels/{kid}", cookie="username-127-0-0-1=made-up")[0] == 403
    assert kernel_status(server, owner) == 200

    async def websockets():
        for cookie in ("", other.cookie_header()):
            with pytest.raises(HTTPClientError) as refused:
                await ws_open(server, kid, cookie)
            assert refused.value.code == 403
        ws = await ws_open(server, kid, owner.cookie_header())  # the owner's page connects and is answered
        try:
            await kernel_info_round_trip(ws)
        finally:
            ws.close()

    asyncio.run(websockets())
    assert "does not own kernel" in server.log_text()


def test_a_forged_shutdown_is_refused_and_the_pages_own_shutdown_works(server):
    owner, other = _open(server), _open(server)
    # the forgery: a made-up double-submit pair (cookie _xsrf=T, header X-XSRFToken: T), no owner cookie
    status, _ = request(server, f"voila/api/shutdown/{owner.kernel_id}", method="POST",
                        cookie="_xsrf=T", headers={"X-XSRFToken": "T"})
    assert status == 403
    # another learner's browser with its own valid XSRF token: still not the owner
    assert page_shutdown(server, owner, xsrf=other.cookies()["_xsrf"], cookie=other.cookie_header())[0] == 403
    assert kernel_status(server, owner) == 200
    # the page's own unload shutdown (its _xsrf cookie's value as a form field): 204, kernel gone
    assert "_xsrf" in owner.cookies(), "the page must get the _xsrf cookie its unload shutdown posts"
    assert page_shutdown(server, owner)[0] == 204
    assert kernel_status(server, owner) == 404
    assert kernel_status(server, other) == 200


def test_the_owner_cookie_is_httponly_and_samesite_strict(server):
    learner = Learner(server)
    with learner.opener.open(server.url, timeout=120) as resp:
        set_cookies = resp.headers.get_all("Set-Cookie")
    owner_cookie = next(c for c in set_cookies if c.startswith("username-"))
    assert "HttpOnly" in owner_cookie and "SameSite=Strict" in owner_cookie


# ----------------------------------------------------------------------------- limits
def test_a_9_mb_frame_is_refused_while_others_play(server):
    abuser, player = _open(server), _open(server)

    async def play():
        ws_player = await ws_open(server, player.kernel_id, player.cookie_header())
        ws_abuser = await ws_open(server, abuser.kernel_id, abuser.cookie_header())
        try:
            await kernel_info_round_trip(ws_player)
            big = json.loads(kernel_info_request())
            big["metadata"]["padding"] = "x" * (9 * 1024 * 1024)  # a well-formed message, as a widget update
            with contextlib.suppress(WebSocketClosedError):  # the server may drop it mid-write
                await ws_abuser.write_message(json.dumps(big))
            closed, deadline = False, time.monotonic() + 15
            with contextlib.suppress(asyncio.TimeoutError):
                while not closed and time.monotonic() < deadline:  # frames already on their way, then the close
                    closed = await asyncio.wait_for(ws_abuser.read_message(), deadline - time.monotonic()) is None
            return closed, ws_abuser.close_code, await kernel_info_round_trip(ws_player)
        finally:
            ws_player.close()
            ws_abuser.close()

    # closed: 1009 "message too big" (tornado's websocket_max_message_size, 1 MiB) when the close frame
    # arrives before the server drops the connection, else no code; without the cap the frame is accepted
    # (tornado's default is 10 MiB) and the kernel answers it
    closed, code, seconds = asyncio.run(play())
    assert closed and code in (1009, None)
    assert seconds < 5
    assert kernel_status(server, player) == 200


def test_a_page_sending_frames_at_the_cap_again_and_again_is_closed_with_a_sentence(server):
    """Each frame under the 1 MiB cap, but 5 of them in a few seconds: over the page's 4 MiB per 10 s."""
    flooder = _open(server)

    async def flood():
        ws = await ws_open(server, flooder.kernel_id, flooder.cookie_header())
        try:
            await kernel_info_round_trip(ws)  # a page's ordinary message passes
            big = json.loads(kernel_info_request())
            big["metadata"]["padding"] = "x" * (1000 * 1024)
            sent = 0
            with contextlib.suppress(WebSocketClosedError):
                for _ in range(8):
                    await ws.write_message(json.dumps(big))
                    sent += 1
                    await asyncio.sleep(0.2)
            deadline = time.monotonic() + 15
            with contextlib.suppress(asyncio.TimeoutError):
                while time.monotonic() < deadline and await asyncio.wait_for(
                        ws.read_message(), deadline - time.monotonic()) is not None:
                    pass
            return sent, ws.close_code, ws.close_reason
        finally:
            ws.close()

    sent, code, reason = asyncio.run(flood())
    assert code == 4002, (sent, code, reason)
    assert "more than 4.2 MB in 10 seconds" in reason and "Traceback" not in reason
    assert kernel_status(server, flooder) == 200  # the lab itself is not stopped: a reload gets a new one


def test_the_kernel_cap_gives_a_clear_page():
    with class_server("--max-labs", "2", "--labs-per-minute", "0") as srv:
        first, second = _open(srv), _open(srv)
        status, body = Learner(srv).open_page()
        assert status == 503
        assert "The class server is full" in body and "tell your teacher" in body
        assert "Traceback" not in body and "site-packages" not in body and "https://cdn" not in body
        # a lab closed by its page frees a place
        assert page_shutdown(srv, first)[0] == 204
        assert Learner(srv).open_page()[0] == 200
        assert kernel_status(srv, second) == 200


def test_new_kernels_per_client_per_minute():
    with class_server("--labs-per-minute", "3") as srv:
        learner = Learner(srv)
        for _ in range(3):
            assert learner.open_page()[0] == 200
            assert page_shutdown(srv, learner)[0] == 204  # each reload closes the last lab
        status, body = learner.open_page()
        assert status == 429
        assert "opened 3 labs in the last minute" in body and "Traceback" not in body


def test_abandoned_kernels_are_culled_never_one_with_an_open_page():
    with class_server("--idle-seconds", "3", "--cull-interval", "1", "--labs-per-minute", "0") as srv:
        abandoned, playing = _open(srv), _open(srv)

        async def stay_connected():
            gone = await ws_open(srv, abandoned.kernel_id, abandoned.cookie_header())
            await kernel_info_round_trip(gone)
            gone.close()  # a tab that loaded, then died without its shutdown request
            # a page still loading (its kernel started, no websocket yet) is not culled within its grace (120 s)
            loading = await asyncio.to_thread(_open, srv)
            ws = await ws_open(srv, playing.kernel_id, playing.cookie_header())
            try:
                await kernel_info_round_trip(ws)
                deadline = time.monotonic() + 20
                while kernel_status(srv, abandoned) == 200 and time.monotonic() < deadline:
                    await asyncio.sleep(0.5)
                await asyncio.sleep(4)  # the connected kernel has now been idle longer than the cull time
                return kernel_status(srv, abandoned), kernel_status(srv, playing), kernel_status(srv, loading)
            finally:
                ws.close()

        abandoned_status, playing_status, loading_status = asyncio.run(stay_connected())
        assert abandoned_status == 404, srv.log_text()[-2000:]
        assert playing_status == 200 and loading_status == 200
        assert "Culling" in srv.log_text()
