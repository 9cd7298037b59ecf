"""The class service on a real JupyterHub (issue 29): the kit's shipped config, JupyterHub, configurable-http-proxy.

One hub for the module (tests/hub/hubrun.py: the shipped config's two classes, 7b and 8c, a dummy login,
loopback ports), every request through the hub's proxy as a browser sends it: the hub's login form, the
OAuth redirects, the page and its lab, the lab's websocket, the teacher's page; then SIGTERM to a class
service, which must end without a traceback. The tests run in this file's order (the last stops 7b).
"""
from __future__ import annotations

import asyncio
import re
import signal
import time
import uuid

import pytest
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

from tests.hub.hubrun import Hub, HubUser, running_hub
from tests.server.class_server import kernel_info_round_trip

pytestmark = pytest.mark.slow

#: what must never be in the hub's log (its services' output included)
NEVER = ("Traceback", "Uncaught exception", "ProgrammingError", "Passing unrecognized arguments")


@pytest.fixture(scope="module")
def hub():
    start = time.monotonic()
    with running_hub() as running:
        print(f"\nhub and 2 class services up in {time.monotonic() - start:.1f} s")
        yield running


@pytest.fixture(scope="module")
def lea(hub: Hub):
    """Lea, a learner of 7b, logged in, on 7b's page: (her browser, the kernel id in her page)."""
    user = HubUser(hub, "lea")
    user.log_in()
    status, body, final = user.get(hub.service_url("7b"))
    assert status == 200, body[:2000]
    kernel = re.search(r'"kernelId":\s*"([0-9a-f-]+)"', body)
    assert kernel, body[:2000]
    return user, kernel.group(1), final


def logged_in(hub: Hub, name: str) -> HubUser:
    user = HubUser(hub, name)
    user.log_in()
    return user


def test_login_oauth_then_the_page_with_its_lab(hub, lea):
    _user, kernel_id, final = lea
    assert final == hub.service_url("7b")  # back from the hub's OAuth to the class's page
    log = hub.log_text()
    # the learners' address printed is the hub's public one, flushed at once; never the service's own port
    assert f"    {hub.service_url('7b')}" in log and f"    {hub.service_url('8c')}" in log
    assert not re.search(r"give learners this address[^\n]*\n\s+http://127\.0\.0\.1:\d+/services/", log.replace(
        hub.url, "PUBLIC/"))
    assert "new labs per hub user per minute" in log


def test_not_logged_in_the_page_sends_to_the_hubs_login(hub):
    status, body, final = HubUser(hub, "nobody").get(hub.service_url("7b"))
    assert status == 200 and "/hub/login" in final, final  # the hub's login form, not a 403


async def _websocket(hub: Hub, kernel_id: str, cookie: str):
    url = hub.service_url("7b").replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels?session_id=" \
        f"{uuid.uuid4()}"
    return await asyncio.wait_for(websocket_connect(HTTPRequest(url, headers={"Cookie": cookie})), 30)


def test_the_lab_answers_its_owner_only(hub, lea):
    user, kernel_id, _ = lea
    max_ = logged_in(hub, "max")  # a classmate in 7b, logged in

    async def owner():
        ws = await _websocket(hub, kernel_id, user.cookie_header())
        try:
            return await kernel_info_round_trip(ws)
        finally:
            ws.close()

    async def classmate():
        try:
            (await _websocket(hub, kernel_id, max_.cookie_header())).close()
        except HTTPClientError as exc:
            return exc.code
        return 101

    assert asyncio.run(owner()) > 0
    assert asyncio.run(classmate()) == 403
    assert user.get(hub.service_url("7b") + f"api/kernels/{kernel_id}")[0] == 200
    assert max_.get(hub.service_url("7b") + f"api/kernels/{kernel_id}")[0] == 403
    assert shutdown(hub, kernel_id, max_) == 403  # the page's unload shutdown, from a classmate's account
    time.sleep(0.5)  # the refusal's log line
    log = hub.log_text()
    assert "does not own kernel" in log
    assert not [bad for bad in NEVER if bad in log], log[-4000:]


def test_a_learner_of_another_class_gets_403(hub):
    ole = logged_in(hub, "ole")  # 8c
    assert ole.get(hub.service_url("8c"))[0] == 200  # her own class
    assert ole.get(hub.service_url("7b"))[0] == 403


def test_the_teachers_page_for_the_teachers_group_and_admins_not_learners(hub, lea):
    teacher = logged_in(hub, "ms-ada")  # teachers-7b
    status, body, final = teacher.get(hub.service_url("7b") + "teacher")
    assert status == 200 and final == hub.service_url("7b") + "teacher", (status, final, body[:500])
    assert "<html" in body.lower() and "the teacher's page could not be made" not in body
    assert logged_in(hub, "head").get(hub.service_url("7b") + "teacher")[0] == 200  # the hub's admin
    learner, _kernel, _ = lea
    assert learner.get(hub.service_url("7b") + "teacher")[0] == 403
    # a teacher not logged in to the hub gets the hub's login form, not a 403
    fresh = HubUser(hub, "ms-ada")
    status, _body, final = fresh.get(hub.service_url("7b") + "teacher")
    assert status == 200 and "/hub/login" in final


def test_the_owners_page_unload_shutdown_ends_her_lab(hub, lea):
    user, kernel_id, _ = lea
    assert shutdown(hub, kernel_id, user) in (200, 204)  # HubOAuth's _xsrf check passes for the page's own post
    deadline = time.monotonic() + 20
    while user.get(hub.service_url("7b") + f"api/kernels/{kernel_id}")[0] != 404 and time.monotonic() < deadline:
        time.sleep(0.3)
    assert user.get(hub.service_url("7b") + f"api/kernels/{kernel_id}")[0] == 404


def shutdown(hub: Hub, kernel_id: str, user: HubUser) -> int:
    """``POST voila/api/shutdown/<id>`` as the page's unload sends it (the ``_xsrf`` form field from its cookie)."""
    import urllib.error
    import urllib.request

    xsrf = next((c.value for c in user.jar if c.name == "_xsrf" and c.path.startswith("/services/7b")), "")
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"_xsrf\"\r\n\r\n{xsrf}\r\n"
            f"--{boundary}--\r\n").encode()
    req = urllib.request.Request(hub.service_url("7b") + f"voila/api/shutdown/{kernel_id}", data=body, method="POST",
                                 headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    try:
        with user.opener.open(req, timeout=30) as resp:
            return resp.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_sigterm_ends_the_class_service_without_a_traceback(hub):
    import psutil

    pid = hub.service_pid("7b")
    assert pid, "no 7b service process"
    proc = psutil.Process(pid)
    proc.send_signal(signal.SIGTERM)
    # ended: gone, or a zombie the hub has not reaped yet (it polls its services every few seconds, so waiting
    # for the pid to vanish cost 13-34 s of the suite)
    deadline = time.monotonic() + 60
    while _alive(proc) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(proc), "the 7b service did not end within 60 s of SIGTERM"
    log = hub.log_text()
    assert "Class server stopped." in log
    assert not [bad for bad in NEVER if bad in log], log[-4000:]


def _alive(proc) -> bool:
    import psutil

    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
