"""The kernel: what an obligation is and what may be said of it.

The model (obligations, statuses, grades, certificates, results), the claim language a theorem is
declared in, the declaration of obligations (``@obligation`` and its table), the rules that make
verdicts, what a witness must be (exact numbers inside the declared domains, realised by objects),
the printer that shows a claim as a formula, and the errors a user can act on. Everything else in
the engine builds on this room.

May import: nothing else of the engine (and no catalogue).
"""
