"""The ``lean_mlp`` catalogue's subcommand ``obligations discharge`` (registered in
``pyproject.toml`` under ``[project.entry-points."obligations.commands"]``).

``obligations discharge CAPSTONE --net FILE.npz --example X0,X1,… --label K --lr LR`` evaluates a
descent capstone's hypotheses and conclusion at a concrete network (:mod:`.discharge`). Exit 0:
certified and checked; 1: a hypothesis failed or the conclusion did not check; 2: unusable input.
"""

from __future__ import annotations

import argparse

from checker.face.plugins import Command


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("capstone", metavar="CAPSTONE",
                   help="linear, mlp_output, mlp_hidden or mlp_input, with _sgd_descends or _float_sgd_descends "
                   "(linear: the file's output layer dense W2 b2 as a linear net, so the example has d2 entries)")
    p.add_argument("--net", required=True, metavar="FILE.npz", help="network file (binary32 arrays W0 b0 W1 b1 W2 b2)")
    p.add_argument("--example", required=True, metavar="X0,X1,…",
                   help="the example's input, comma-separated exact numbers (write --example=-1,… when the first is negative)")
    p.add_argument("--label", required=True, type=int, metavar="K", help="the example's class")
    p.add_argument("--lr", required=True, metavar="LR", help="learning rate (e.g. 1/256 or 0.00390625)")
    p.add_argument("--eta", metavar="ETA", help="ℝ capstones: use an oracle off by ETA per entry (default: the exact gradient)")
    p.add_argument("--format", choices=("table", "json"), default="table")


def _run(args: argparse.Namespace) -> int:
    import json
    import sys

    from obligations.lean_mlp import discharge

    discharge.parse_capstone(args.capstone)  # an unknown name is reported before the file is read
    net = discharge.load_network(args.net)
    report = discharge.discharge(
        args.capstone, net, discharge.parse_vector(args.example), args.label,
        discharge.parse_number(args.lr, "--lr"),
        eta=None if args.eta is None else discharge.parse_number(args.eta, "--eta"))
    if args.format == "json":
        sys.stdout.write(json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(report.render_table())
    return 0 if report.ok else 1


DISCHARGE = Command(
    name="discharge",
    help="evaluate a descent capstone's hypotheses and conclusion at a concrete network",
    configure=_configure,
    run=_run,
)
