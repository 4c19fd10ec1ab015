"""The audits: checks of a result beyond its status.

Re-checking a refutation's witness independently of whatever found it (:mod:`.recheck`); the
default vacuity check of a proof (:mod:`.vacuity`); the audits run on request after a discharge,
vacuity, necessity of each hypothesis, tightness of declared bounds, shrinking of witnesses,
brittleness across seeds (:mod:`.audits`); and the mutation audit, which re-runs each discharge on
perturbed source (:mod:`.mutation`).

May import: :mod:`checker.kernel` and :mod:`checker.backends`.
"""
