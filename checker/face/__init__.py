"""The face: what a user touches.

The ``obligations`` command (:mod:`.cli`), the pytest plugin (:mod:`.pytest_plugin`), the project
configuration ``[tool.obligations]`` (:mod:`.config`), catalogues and subcommands registered by
entry points (:mod:`.plugins`), ``obligations init`` (:mod:`.scaffold`) and the cross-check of the
Lean-style declarations (:mod:`.lean`).

May import: every other room. Nothing imports it but the public modules at the top of the package.
"""
