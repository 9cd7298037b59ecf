"""``safari-kit class --hub`` without a hub (issue 29): a fake HubOAuth stands for JupyterHub's login.

What the glue adds to JupyterHub's own identity provider (safari_kit.classroom.hub), checked in-process:
a lab answers only its hub user (REST, websocket, shutdown), the teacher's page opens for the group and the
admins and sends a teacher who is not logged in to the hub's login, the routes sit under the prefix, the
service's environment is read and checked, the rate counts per user, and nothing of JupyterHub is imported
without ``--hub``. The real hub is tests/hub/test_hub_integration.py.
"""
from __future__ import annotations

import asyncio
import subprocess
import sys
import types
import urllib.parse
import warnings
from pathlib import Path

import pytest

pytest.importorskip("voila")
pytest.importorskip("jupyterhub")

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager  # noqa: E402
from jupyterhub.services.auth import HubOAuth  # noqa: E402
from jupyterhub.singleuser.extension import (  # noqa: E402
    JupyterHubIdentityProvider, JupyterHubOAuthCallbackHandler, JupyterHubUser,
)
from tornado import web  # noqa: E402

from safari_kit.classroom import hub_env  # noqa: E402
from safari_kit.classroom.config import voila_config  # noqa: E402
from safari_kit.classroom.hub import (  # noqa: E402
    TOO_FAST_FOR_A_USER, HubKernelManager, HubOwnerIdentityProvider, HubTeacherDoor, hub_config, is_teacher,
)
from safari_kit.classroom.owners import OwnersMixin  # noqa: E402
from safari_kit.classroom.serve import flushed  # noqa: E402
from safari_kit.classroom.settings import ClassSettings  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
PREFIX = "/services/7b/"
ENV = {"JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:8071", "JUPYTERHUB_SERVICE_PREFIX": PREFIX,
       "JUPYTERHUB_API_TOKEN": "secret-api-token", "JUPYTERHUB_CLIENT_ID": "service-7b",
       "JUPYTERHUB_SERVICE_NAME": "7b", "JUPYTERHUB_OAUTH_CALLBACK_URL": PREFIX + "oauth_callback"}
USERS = {  # the fake hub's users, as HubOAuth's user model has them (identify scope)
    "lea": {"kind": "user", "name": "lea", "admin": False, "groups": ["7b"], "scopes": ["access:services!service=7b"]},
    "max": {"kind": "user", "name": "max", "admin": False, "groups": ["7b"], "scopes": ["access:services!service=7b"]},
    "ms-ada": {"kind": "user", "name": "ms-ada", "admin": False, "groups": ["teachers-7b"],
               "scopes": ["access:services!service=7b"]},
    "head": {"kind": "user", "name": "head", "admin": True, "groups": [], "scopes": ["access:services"]},
    "ole": {"kind": "user", "name": "ole", "admin": False, "groups": ["teachers-8c"],
            "scopes": ["access:services!service=8c"]},
}


class FakeHubOAuth(HubOAuth):
    """HubOAuth whose users are :data:`USERS`, named by the request's ``X-Test-User`` header (no hub asked)."""

    async def _get_user(self, handler):
        name = handler.request.headers.get("X-Test-User") if hasattr(handler.request, "headers") else \
            getattr(handler.request, "test_user", None)
        return dict(USERS[name]) if name else None

    def _patch_xsrf(self, handler):
        pass

    def _persist_url_token_if_set(self, handler):
        pass


def fake_hub_auth() -> FakeHubOAuth:
    return FakeHubOAuth(api_token="secret-api-token", oauth_client_id="service-7b", base_url=PREFIX,
                        oauth_redirect_uri="http://127.0.0.1:8000" + PREFIX + "oauth_callback",
                        access_scopes={"access:services!service=7b"}, hub_prefix="/hub/")


def provider() -> HubOwnerIdentityProvider:
    return HubOwnerIdentityProvider(hub_auth=fake_hub_auth())


# ------------------------------------------------------------------ a lab belongs to its hub user
class Kernels(OwnersMixin, AsyncMappingKernelManager):
    live: list = []

    def __contains__(self, kernel_id):
        return kernel_id in self.live


def kernel_request(user: str | None, path: str, km, kernel_id: str | None = "k1"):
    return types.SimpleNamespace(
        request=types.SimpleNamespace(path=path, method="GET", test_user=user),
        path_kwargs={"kernel_id": kernel_id} if kernel_id else {}, settings={"kernel_manager": km},
        get_login_url=lambda: "/login")


@pytest.mark.parametrize("route", ["api/kernels/k1", "api/kernels/k1/channels", "voila/api/shutdown/k1"],
                         ids=["rest", "websocket", "shutdown"])
def test_a_lab_answers_its_hub_user_only(tmp_path, route):
    km = Kernels(connection_dir=str(tmp_path))
    km.live = ["k1"]
    km._handed_out("k1", types.SimpleNamespace(current_user=JupyterHubUser(USERS["lea"])))
    ip = provider()

    async def who(user, kernel_id="k1"):
        return await ip.get_user(kernel_request(user, PREFIX + route, km, kernel_id))

    lea_here, lea_phone, max_, head = (asyncio.run(who("lea")), asyncio.run(who("lea")), asyncio.run(who("max")),
                                       asyncio.run(who("head")))
    assert lea_here.username == "lea" and lea_phone.username == "lea"  # the same account on a second device
    assert max_ is None and head is None  # another learner, and even an admin: jupyter_server answers 403
    assert asyncio.run(who(None)) is None  # not logged in
    page = asyncio.run(ip.get_user(kernel_request("max", PREFIX, km, None)))
    assert page.username == "max"  # a request on no kernel (the page): any learner of the class


def test_a_user_without_the_class_role_is_nobody(tmp_path):
    km = Kernels(connection_dir=str(tmp_path))
    assert asyncio.run(provider().get_user(kernel_request("ole", PREFIX, km, None))) is None


def test_voilas_empty_token_is_not_passed_on_to_the_hubs_provider():
    """Voilà passes token='' to its identity provider; JupyterHub's has no such setting and traitlets warned."""
    def warned(cls):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cls(token="", hub_auth=fake_hub_auth())
        return [str(w.message) for w in caught if "token" in str(w.message)]

    assert warned(JupyterHubIdentityProvider)  # the hub's own provider warns: what the class service did
    assert warned(HubOwnerIdentityProvider) == []
    assert provider().token == "secret-api-token"


def test_the_login_routes_are_under_the_services_prefix():
    routes = {route[0]: route for route in provider().get_handlers()}
    assert set(routes) == {PREFIX + "logout", PREFIX + "oauth_callback"}
    assert routes[PREFIX + "oauth_callback"][1] is JupyterHubOAuthCallbackHandler
    # the hub's own provider gives them unprefixed: Voilà adds them as they are, where the hub never sends anyone
    assert {r[0] for r in JupyterHubIdentityProvider(hub_auth=fake_hub_auth()).get_handlers()} == {
        "/logout", "/oauth_callback"}


# ------------------------------------------------------------------ the teacher's page on the hub
def test_who_is_a_teacher():
    assert is_teacher(USERS["ms-ada"], "teachers-7b") and is_teacher(USERS["head"], "teachers-7b")
    assert not is_teacher(USERS["lea"], "teachers-7b") and not is_teacher(USERS["ole"], "teachers-7b")
    assert not is_teacher(USERS["ms-ada"], "")  # no group given: admins only
    assert not is_teacher({"kind": "service", "name": "x", "admin": True}, "teachers-7b")


async def _teacher_page(tmp_path, *requests):
    """Serve the teacher's routes with the hub's door on 127.0.0.1 and GET each (user, path); [(status, ...)]."""
    from tornado.httpclient import AsyncHTTPClient, HTTPClientError
    from tornado.httpserver import HTTPServer
    from tornado.netutil import bind_sockets

    from safari_kit.class_results.class_store import ResultStore
    from safari_kit.classroom.teacher import TeacherAccess, handlers

    store = ResultStore(tmp_path, "s1")
    access = TeacherAccess("the-key", store, "s1", PREFIX, door=HubTeacherDoor("teachers-7b"))
    ip = provider()
    app = web.Application(handlers(access) + ip.get_handlers(), cookie_secret="x" * 32, identity_provider=ip,
                          login_url=PREFIX + "login")
    sockets = bind_sockets(0, "127.0.0.1")
    server = HTTPServer(app)
    server.add_sockets(sockets)
    base = f"http://127.0.0.1:{sockets[0].getsockname()[1]}"
    answers = []
    try:
        for user, path in requests:
            try:
                resp = await AsyncHTTPClient().fetch(base + path, headers={"X-Test-User": user} if user else {},
                                                     follow_redirects=False, raise_error=False)
            except HTTPClientError as exc:  # pragma: no cover - raise_error=False
                resp = exc.response
            answers.append((resp.code, resp.headers.get("Location", ""), resp.body.decode(errors="replace")))
    finally:
        server.stop()
        store.close()
    return answers


def test_the_teachers_page_opens_for_the_group_and_admins_and_sends_others_to_login_or_403(tmp_path):
    page = PREFIX + "teacher"
    (teacher, admin, learner, other_class, nobody, key, csv) = asyncio.run(_teacher_page(
        tmp_path, ("ms-ada", page), ("head", page), ("lea", page), ("ole", page), (None, page),
        (None, page + "?token=the-key"), ("ms-ada", page + "/results.csv")))
    assert teacher[0] == 200 and admin[0] == 200 and csv[0] == 200
    assert learner[0] == 403 and other_class[0] == 403
    # not logged in: the hub's login (OAuth, with its state), never a bare 403
    assert nobody[0] == 302 and nobody[1].startswith("/hub/api/oauth2/authorize?"), nobody
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(nobody[1]).query)
    assert query["client_id"] == ["service-7b"] and query["state"]
    assert key[0] == 303  # the teacher's key still opens it


# ------------------------------------------------------------------ the service's environment
def test_the_services_environment_is_read():
    service = hub_env.read_service(ENV)
    assert (service.ip, service.port, service.prefix, service.name) == ("127.0.0.1", 8071, PREFIX, "7b")
    assert service.public_url == ""
    assert hub_env.read_service(ENV, "https://hub.school.org/").public_url == "https://hub.school.org/services/7b/"
    from_hub = hub_env.read_service({**ENV, "JUPYTERHUB_PUBLIC_URL": "https://hub.school.org/services/7b/"})
    assert from_hub.public_url == "https://hub.school.org/services/7b/"
    settings = hub_env.hub_settings(ClassSettings(hub=True, labs_per_address=6), service)
    assert (settings.ip, settings.port, settings.base_url, settings.labs_per_address) == ("127.0.0.1", 8071, PREFIX,
                                                                                          0)
    # the address printed: never the service's own 127.0.0.1 one
    assert "127.0.0.1" not in hub_env.public_address(service) and PREFIX in hub_env.public_address(service)


@pytest.mark.parametrize("change, named", [
    ({"JUPYTERHUB_SERVICE_URL": ""}, "JUPYTERHUB_SERVICE_URL"),
    ({"JUPYTERHUB_API_TOKEN": ""}, "JUPYTERHUB_API_TOKEN"),
    ({"JUPYTERHUB_SERVICE_URL": "http://127.0.0.1"}, "names no port"),
    ({"JUPYTERHUB_SERVICE_PREFIX": "/services/7b"}, "must start and end with '/'"),
    ({"JUPYTERHUB_OAUTH_CALLBACK_URL": "/elsewhere/oauth_callback"}, "not under the service's prefix"),
    ({"JUPYTERHUB_PUBLIC_URL": "hub.school.org"}, "JUPYTERHUB_PUBLIC_URL"),
])
def test_a_wrong_environment_is_named(change, named):
    with pytest.raises(hub_env.HubEnvError, match=named):
        hub_env.read_service({**ENV, **change})


def test_the_class_command_with_hub_outside_a_hub_says_what_is_missing_in_one_line(capsys, monkeypatch):
    from safari_kit.cli import main

    for key in hub_env.NEEDED:
        monkeypatch.delenv(key, raising=False)
    assert main(["class", str(REPO / "notebooks" / "app.ipynb"), "--hub"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "JUPYTERHUB_SERVICE_URL" in err and "Traceback" not in err
    assert main(["class", "app.ipynb", "--teacher-group", "teachers-7b"]) == 2  # without --hub: no groups
    assert "need hub (--hub)" in capsys.readouterr().err


def test_hub_without_jupyterhub_names_the_extra(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "jupyterhub" else real(name, *a))
    with pytest.raises(hub_env.HubEnvError, match=r"pip install 'safari_kit\[hub\]'"):
        hub_env.require_jupyterhub()


# ------------------------------------------------------------------ per user, flushed, imported only with --hub
def test_new_labs_per_minute_count_per_hub_user(tmp_path):
    km = HubKernelManager(connection_dir=str(tmp_path), new_kernels_per_minute=1, too_fast_message=TOO_FAST_FOR_A_USER)

    def page(user):
        return types.SimpleNamespace(current_user=types.SimpleNamespace(username=user),
                                     request=types.SimpleNamespace(remote_ip="127.0.0.1"))  # all from the proxy

    km._check_page(page("lea"))
    km._check_page(page("max"))  # another learner behind the same proxy address
    with pytest.raises(web.HTTPError) as too_fast:
        km._check_page(page("lea"))
    assert too_fast.value.status_code == 429 and too_fast.value.log_message.startswith("You opened 1 labs")


def test_hub_config_sets_the_hubs_provider_and_kernel_manager():
    c = voila_config(ClassSettings(hub=True))
    hub_config(c, hub_env.read_service(ENV, "https://hub.school.org"))
    assert c.Voila.custom_display_url == "https://hub.school.org/services/7b/"  # Voilà's log line: the public one
    assert c.Voila.identity_provider_class == "safari_kit.classroom.hub.HubOwnerIdentityProvider"
    assert c.VoilaConfiguration.multi_kernel_manager_class == "safari_kit.classroom.hub.HubKernelManager"
    assert c.HubKernelManager.too_fast_message == TOO_FAST_FOR_A_USER


def test_printed_lines_are_flushed(monkeypatch):
    """Under the hub stdout is a pipe: the addresses must not wait in its buffer."""
    flushes = []
    monkeypatch.setattr(sys, "stdout", types.SimpleNamespace(flush=lambda: flushes.append(1)))
    got = []
    flushed(got.append)("give learners this address")
    assert got == ["give learners this address"] and flushes == [1]


def test_nothing_of_jupyterhub_is_imported_without_hub():
    code = ("import sys\n"
            "from safari_kit.cli import build_parser\n"
            "from safari_kit.classroom import serve, recording, teacher\n"
            "from safari_kit.classroom.config import voila_config\n"
            "from safari_kit.classroom.settings import ClassSettings\n"
            "build_parser().parse_args(['class', 'app.ipynb'])\n"
            "voila_config(ClassSettings())\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'jupyterhub'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
