"""Every refutation of the catalogue passes the domain-and-realiser re-check.

For each obligation the source asserts false, the discharge's refutation is re-checked with
:func:`checker.backends.exact.confirm` against the declared claim its certificate names (every
variable in its domain, the claim failing in exact rationals or rigorous intervals, the witness
realised where the claim is over derived quantities). A refutation that names no declared claim
must be a custom construction whose certificate says how it was re-checked."""

from __future__ import annotations

import pytest

from checker.backends import exact
from checker.kernel.model import Context, Expect, Status, derive_seed
from checker.run.discovery import discover

CATALOGUE = discover("obligations")
REFUTING = [ob for ob in CATALOGUE.obligations if ob.expect is Expect.FAILS and not ob.slow]


def _claim_names(cert_json):
    names = []
    data = cert_json.get("data") or {}
    for key in ("claim", "witness_claim"):
        if isinstance(data.get(key), str):
            names.append(data[key])
    for part in (data.get("parts") or {}).values():
        if isinstance(part, dict) and part.get("status") == "refuted":
            names.extend(_claim_names(part))
    return names


@pytest.mark.parametrize("ob", REFUTING, ids=lambda ob: ob.id)
def test_refutation_rechecks_against_domains_and_realisers(ob):
    v = ob.discharge(Context(ob.id, derive_seed(20260806, ob.id), 120.0))
    assert v.status is Status.REFUTED, v.certificate.reason
    cert = v.certificate.to_json()
    declared = {c.name: c for c in ob.claims}
    named = [declared[n] for n in _claim_names(cert) if n in declared]
    if named:
        c = named[0]
        witness = {k: x for k, x in (v.certificate.witness or {}).items() if k in c.variables}
        confirmation = exact.confirm(c, witness)
        assert confirmation.confirmed, confirmation.reason
    else:
        method = v.certificate.method.lower()
        assert any(w in method for w in ("exact", "rigorous", "re-checked")), v.certificate.method
