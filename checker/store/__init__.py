"""The store: what the checker remembers between runs.

The result cache, keyed by the fingerprint of everything a result depends on (:mod:`.cache`,
:mod:`.fingerprint`); baselines and the regression comparison with them (:mod:`.baseline`); the
relation between two versions of a claim (:mod:`.claim_relation`); and atomic, authenticated file
writes (:mod:`.files`). The store is only a speed-up and a memory: trouble with it never fails a run.

May import: :mod:`checker.kernel`, :mod:`checker.backends`, :mod:`checker.audit` (a cached refutation's
witness is re-checked) and :mod:`checker.report` (a baseline is a JSON report).
"""
