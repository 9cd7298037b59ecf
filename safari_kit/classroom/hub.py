"""The class server as a JupyterHub managed service (``safari-kit class --hub``, issue 29): the hub's login.

Imported only with ``--hub`` (it imports JupyterHub: the ``hub`` extra). What it adds to the class server:

* :class:`HubOwnerIdentityProvider`: JupyterHub's own identity provider for Jupyter servers
  (``JupyterHubIdentityProvider``, what ``jupyterhub-singleuser`` uses: ``HubOAuth``, the hub's login
  before any page) with the kit's owner check on top (:func:`safari_kit.classroom.owners.owner_checked`):
  a lab belongs to the hub user whose page it was handed to, so another user gets 403 on its REST API,
  its websocket and its shutdown, and the same account on a second device gets in. Its routes
  (``oauth_callback``, ``logout``) go under the service's prefix: Voilà adds a provider's routes as they
  are, where ``jupyter_server`` would prefix them.
* :class:`HubKernelManager`: the class server's kernel manager, counting ``--labs-per-minute`` per hub user
  (every request reaches the service from the hub's proxy: one address for the whole class).
* :class:`HubTeacherDoor`: the teacher's page opens for the hub's admins and the members of
  ``--teacher-group`` (the teacher's key still works); a teacher not logged in is sent to the hub's login
  (as ``HubOAuthenticated`` does), a learner gets the page's 403.
* :func:`hub_config`: what ``--hub`` changes in Voilà's config (:func:`safari_kit.classroom.config.voila_config`).
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from jupyterhub.singleuser.extension import JupyterHubIdentityProvider, JupyterHubOAuthCallbackHandler
from jupyterhub.utils import url_path_join

from safari_kit.classroom.hub_env import HubService
from safari_kit.classroom.kernels import ClassroomKernelManager
from safari_kit.classroom.owners import owner_checked, user_id_of
from safari_kit.core.i18n import N_

__all__ = ["HubOwnerIdentityProvider", "HubKernelManager", "HubTeacherDoor", "is_teacher", "hub_config",
           "IDENTITY_PROVIDER_CLASS", "KERNEL_MANAGER_CLASS"]

IDENTITY_PROVIDER_CLASS = "safari_kit.classroom.hub.HubOwnerIdentityProvider"
KERNEL_MANAGER_CLASS = "safari_kit.classroom.hub.HubKernelManager"

#: the page a learner sees past ``--labs-per-minute`` on the hub (the rate is theirs, not their computer's)
TOO_FAST_FOR_A_USER = N_("You opened {limit} labs in the last minute, the most the class server allows. "
                         "Wait a minute, then reload this page.")


class HubOwnerIdentityProvider(JupyterHubIdentityProvider):
    """The hub's login (HubOAuth), and a request on a kernel is someone only from the kernel's hub user."""

    def __init__(self, **kwargs: Any) -> None:
        # Voilà passes token='' (no token of its own); the hub's provider has no such setting (its token is the
        # service's API token, a property), and traitlets warned about the unknown argument at every start
        kwargs.pop("token", None)
        super().__init__(**kwargs)

    async def get_user(self, handler: Any) -> Any:
        user = await super().get_user(handler)
        return owner_checked(user, handler, self.log)

    def get_handlers(self) -> list[tuple]:
        """The hub's OAuth callback and logout under the service's prefix (the callback where the hub sends it)."""
        prefix = self.hub_auth.base_url
        callback = urlsplit(self.hub_auth.oauth_redirect_uri).path or url_path_join(prefix, "oauth_callback")
        return [(url_path_join(prefix, "logout"), self.logout_handler_class),
                (callback, JupyterHubOAuthCallbackHandler, {"hub_auth": self.hub_auth})]


class HubKernelManager(ClassroomKernelManager):
    """The class server's kernel manager on the hub: new labs per minute counted per hub user."""

    def _rate_client(self, handler: Any) -> str:
        user = user_id_of(handler)
        return f"user:{user}" if user else super()._rate_client(handler)


def is_teacher(user: dict[str, Any] | None, group: str) -> bool:
    """Whether the hub user model ``user`` may open the teacher's page: a hub admin, or a member of ``group``.

    >>> is_teacher({"name": "ms-ada", "admin": False, "groups": ["teachers-7b"]}, "teachers-7b")
    True
    >>> is_teacher({"name": "lea", "admin": False, "groups": ["7b"]}, "teachers-7b"), is_teacher(None, "x")
    (False, False)
    >>> is_teacher({"name": "root", "admin": True, "groups": []}, "")
    True
    """
    if not user or user.get("kind", "user") != "user":
        return False
    return bool(user.get("admin")) or (bool(group) and group in (user.get("groups") or ()))


class HubTeacherDoor:
    """The teacher's page's door on the hub (:class:`safari_kit.classroom.teacher.TeacherAccess` ``door``)."""

    def __init__(self, group: str) -> None:
        self.group = group

    async def admitted(self, handler: Any) -> bool:
        """Whether the hub user of ``handler``'s request is a teacher of this class. Not logged in: the handler
        is sent to the hub's login (and finished), then comes back here; logged in, not a teacher: False."""
        provider = handler.settings.get("identity_provider")
        if not isinstance(provider, JupyterHubIdentityProvider):
            return False
        hub_auth = provider.hub_auth
        user = await hub_auth.get_user(handler, sync=False)
        if user is None:
            provider._patch_get_login_url(handler)  # the hub's login, with the OAuth state cookie for the way back
            handler.redirect(handler.get_login_url())
            return False
        if not hub_auth.check_scopes(hub_auth.access_scopes, user):  # no role giving access to this service
            return False
        return is_teacher(user, self.group)


def hub_config(c: Any, service: HubService) -> None:
    """Change Voilà's config ``c`` (made by :func:`~safari_kit.classroom.config.voila_config`) for the hub."""
    c.Voila.identity_provider_class = IDENTITY_PROVIDER_CLASS
    if service.public_url:  # Voilà's own "running at" line: the hub's public address, not the service's 127.0.0.1
        c.Voila.custom_display_url = service.public_url
    c.VoilaConfiguration.multi_kernel_manager_class = KERNEL_MANAGER_CLASS
    # (the settings given to ClassroomKernelManager reach its subclass: traitlets reads the parents' sections)
    c.HubKernelManager.too_fast_message = TOO_FAST_FOR_A_USER
