"""The reports: every renderer of results, all from the same JSON document.

:mod:`.reports` builds and reads the versioned JSON report and renders the terminal table, Markdown
and one certificate; :mod:`.formats` renders LaTeX, JUnit XML and HTML; :mod:`.cells` holds the
wording every format shares (the status cell, the audit cells, the summary line); :mod:`.texify`
turns Unicode mathematics into LaTeX. Renderers only read results.

May import: :mod:`checker.kernel` only.
"""
