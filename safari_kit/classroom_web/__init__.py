"""The class server's pages that need the kit's teaching layer: the teacher's page (issue 21).

``safari_kit.server`` imports nothing else of the kit (a Jupyter server may load it
alone), so what the class server serves *from* the kit's records lives here, one
layer above it: :mod:`safari_kit.classroom_web.teacher` (the token-guarded handlers)
and :mod:`safari_kit.classroom_web.app` (the Voilà app with those handlers, and
``safari-kit class --results``).
"""
