"""A kernel belongs to the browser that started it: the class server's identity provider.

In Voilà the kernel id is written into the page (``jupyter-config-data``), and
a hot-seat page is read by several learners. Without this module the id is the
whole key: anyone who reads it can open ``/api/kernels/<id>/channels`` from
another laptop (every later frame, every click of that table), read
``GET /api/kernels/<id>``, and shut the kernel down with
``POST /voila/api/shutdown/<id>`` and a made-up double-submit XSRF pair.

The secret is one jupyter_server already has: with no token (Voilà's default)
its identity provider gives each new browser a random user id (128 bits) in a
login cookie signed with the server's ``cookie_secret``, HttpOnly (page scripts
cannot read it) and, with the class settings, ``SameSite=Strict``. The kernel
manager (:class:`~safari_kit.classroom.kernels.ClassroomKernelManager`) records
the user id of the page that started each kernel; this identity provider,
given to Voilà as ``Voila.identity_provider_class`` (a documented hook),
answers "nobody" for any request on a kernel route whose browser is not the
kernel's owner. jupyter_server then refuses it with 403 on all of them: the
kernel websocket (``ws_authenticated``), the kernel REST API and Voilà's
shutdown endpoint (``@web.authenticated`` on API handlers).

It also makes the page's own unload shutdown work (voila-dashboards/voila#1458):
Voilà's page posts ``_xsrf`` read from the ``_xsrf`` cookie, but standalone
Voilà never sets that cookie, so the post was refused ("_xsrf argument missing").
Rendering the page now touches ``handler.xsrf_token``, which makes tornado set
it; a forged pair still fails, since the forger has no owner cookie.
"""
from __future__ import annotations

import re
from collections.abc import Awaitable

from typing import Any

from jupyter_server.auth.identity import PasswordIdentityProvider

from safari_kit.classroom import owner_tags
from safari_kit.classroom.policy import KernelPolicy

__all__ = ["KernelOwnerIdentityProvider", "OwnersMixin", "kernel_id_of", "user_id_of", "owner_checked"]

# Voilà's kernel routes: /api/kernels/<id>[/channels], /voila/api/shutdown/<id>, and with
# preheating or progressive rendering /voila/query/<id>, /voila/execution/<id>
_KERNEL_ROUTE = re.compile(r"/(?:api/kernels|voila/api/shutdown|voila/query|voila/execution)/(?P<kernel_id>[^/?]*)")


def user_id_of(handler: Any) -> str | None:
    """The random user id of the browser a request comes from (its signed login cookie), if any."""
    return getattr(getattr(handler, "current_user", None), "username", None) or None


def kernel_id_of(handler) -> str | None:
    """The kernel id a request is about, or None for a request on no kernel (the page, static files).

    >>> class H:
    ...     path_kwargs = {}
    ...     class request:
    ...         path = "/voila/api/shutdown/1b2c-3"
    >>> kernel_id_of(H())
    '1b2c-3'
    >>> H.request.path = "/voila/static/voila.js"; kernel_id_of(H()) is None
    True
    """
    kid = (getattr(handler, "path_kwargs", None) or {}).get("kernel_id")
    if kid:
        return kid
    match = _KERNEL_ROUTE.search(getattr(handler.request, "path", "") or "")
    return match.group("kernel_id") if match else None


def _is_page(handler) -> bool:
    """Whether ``handler`` renders a notebook page (Voilà's page handler)."""
    try:
        from voila.handler import VoilaHandler
    except ImportError:  # pragma: no cover - the class server runs Voilà
        return False
    return isinstance(handler, VoilaHandler)


def owner_checked(user: Any, handler: Any, log: Any) -> Any:
    """``user`` if the request may go on, None when it is on a kernel ``user`` does not own.

    Shared by :class:`KernelOwnerIdentityProvider` (a browser's cookie) and the hub's class service
    (:class:`safari_kit.classroom.hub.HubOwnerIdentityProvider`: the hub user's name).
    """
    kernel_id = kernel_id_of(handler)
    if kernel_id is None:
        if user is not None and _is_page(handler):
            # the page's unload shutdown posts the _xsrf cookie's value: make sure the page has the cookie.
            # tornado's xsrf_token reads current_user, which jupyter_server sets right after this call
            handler.current_user = user
            handler.xsrf_token  # noqa: B018 - reading it sets the cookie (tornado)
        return user
    km = handler.settings.get("kernel_manager")
    owned_by = getattr(km, "owned_by", None)
    if owned_by is None:  # not the class server's kernel manager: nothing to check against
        return user
    if kernel_id not in km:  # no such kernel: the handler answers 404 (a uuid4 cannot be guessed)
        return user
    user_id = getattr(user, "username", None)
    if not owned_by(kernel_id, user_id):
        # no address in the log (what is kept: docs/teachers.md); safari_kit.classroom.request_log caps the lines
        log.warning("Refused %s %s: this browser does not own kernel %s",
                    handler.request.method, handler.request.path, kernel_id)
        return None
    return user


class KernelOwnerIdentityProvider(PasswordIdentityProvider):
    """jupyter_server's identity provider, where a request on a kernel is someone only from its owner."""

    async def get_user(self, handler):
        got = super().get_user(handler)
        user = await got if isinstance(got, Awaitable) else got
        return owner_checked(user, handler, self.log)


class OwnersMixin(KernelPolicy):
    """The kernel manager's half: each kernel's owner, the browser whose page it was handed to.

    A kernel handed to no page yet (a ready lab, Voilà's pool) is claimed by the first browser that uses it:
    its id was only ever written into that browser's page.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._owners: dict[str, str] = {}

    def owner_of(self, kernel_id: str) -> str | None:
        return self._owners.get(kernel_id)

    def owned_by(self, kernel_id: str, user_id: str | None) -> bool:
        """Whether ``user_id`` owns ``kernel_id``; a live kernel nobody owns yet is claimed by its first user."""
        if not user_id or kernel_id not in self:
            return False
        if kernel_id not in self._owners:
            self.log.info("Kernel %s had no owner (a preheated kernel): its first user claims it",
                          kernel_id)
            self._claim_for(kernel_id, user_id)
        return self._owners[kernel_id] == user_id

    def _claim_for(self, kernel_id: str, user_id: str) -> None:
        self._owners[kernel_id] = user_id
        owner_tags.tag(kernel_id, user_id)  # issue 26: the lab learns its browser's tag (recording only)

    def _handed_out(self, kernel_id: str, handler: Any) -> None:
        super()._handed_out(kernel_id, handler)
        user_id = user_id_of(handler)
        if user_id:
            self._claim_for(kernel_id, user_id)

    def _kernel_gone(self, kernel_id: str) -> None:
        super()._kernel_gone(kernel_id)
        self._owners.pop(kernel_id, None)
