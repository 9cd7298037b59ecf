"""The class server (``make class``, ``safari-kit class``): Voilà serving the classroom app to a class.

One concern a module:

* :mod:`~safari_kit.classroom.settings`: every class setting, its default and its check (:class:`ClassSettings`);
* :mod:`~safari_kit.classroom.config`: Voilà's traitlets config from the settings (documented hooks only);
* :mod:`~safari_kit.classroom.serve`: the launcher (``run``: template, trust, the address, Voilà);
  :mod:`~safari_kit.classroom.quick_start` (before it: no IRI parsers built that no schema uses);
* :mod:`~safari_kit.classroom.addresses`: the addresses learners type;
* :mod:`~safari_kit.classroom.kernels`: the kernel manager, composed of one mixin per policy, and the
  kernel websocket connection that tells it about pages;
* the policies: :mod:`~safari_kit.classroom.owners` (a kernel belongs to its browser),
  :mod:`~safari_kit.classroom.ready_labs` and :mod:`~safari_kit.classroom.lab_pages` (labs made ready and
  handed out only whole), :mod:`~safari_kit.classroom.lab_holds` (labs per browser and address, a full
  server's reclaim), :mod:`~safari_kit.classroom.page_sockets` (a lab's websockets and byte budget),
  :mod:`~safari_kit.classroom.owner_tags` (one browser, one learner), :mod:`~safari_kit.classroom.request_log`
  (no addresses, no floods in the log);
* the teacher's page: :mod:`~safari_kit.classroom.recording` (``--results``: the store, the token, the app
  with the teacher's routes), :mod:`~safari_kit.classroom.teacher` (the routes),
  :mod:`~safari_kit.classroom.wrong_keys` (wrong keys counted), :mod:`~safari_kit.classroom.lab_words` (the
  labs' names for the page);
* on a JupyterHub (``--hub``): :mod:`~safari_kit.classroom.hub_env` (the hub's service environment, read
  without importing JupyterHub), :mod:`~safari_kit.classroom.hub_watch` (a service whose hub is gone stops; a
  hub that does not answer is said once), :mod:`~safari_kit.classroom.hub` (the hub's login with the kit's owner check,
  labs per minute per hub user, the teacher's page for admins and the teachers' group),
  :mod:`~safari_kit.classroom.learner_server` (a learner's own server for the lessons: their copies, then
  ``jupyterhub-singleuser``) and ``hub_config/`` (the files a school's hub runs: ``jupyterhub_config.py``,
  ``lessons_servers.py``, the Zero to JupyterHub values).

It sits above the labs (``safari_kit.widgets``: the teacher's page names labs as the chooser does) and
the class's records (``safari_kit.class_results``). The Jupyter server extension (TCP_NODELAY) stays apart in
:mod:`safari_kit.server`, which imports nothing of the kit: a Jupyter server loads it alone.
"""
