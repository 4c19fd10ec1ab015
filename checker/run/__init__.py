"""Running a catalogue: discovery, the runner, the worker processes and the schedule.

:mod:`.discovery` imports a catalogue's modules, each first in an isolated worker; :mod:`.runner`
discharges obligations, validates every verdict and uses the cache; :mod:`.workers` forks one
process per job from a clean template, with hard time and memory limits (the runner hands it the
job function by dotted path); :mod:`.schedule` orders jobs by their expected time.

May import: :mod:`checker.kernel`, :mod:`checker.backends`, :mod:`checker.audit` and :mod:`checker.store`.
"""
