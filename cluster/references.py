"""Performance references of the ReFrame suite (cluster/fusebench_checks.py): the one file a
site edits. Per config (its file name less .ini), per "system:partition" of the site's ReFrame
configuration ("*" for any), per performance variable (fusebench_report.PERF: speedup_largest,
speedup_launch_bound, fused_over_copy, copy_bandwidth, fit_launch, fit_bandwidth):

    (reference, lower, upper, unit)

lower and upper are fractions of the reference (-0.1: at most 10% below; None: no bound),
ReFrame's convention; a variable without an entry is logged, never judged. A test fails with
"failed to meet reference(s)" when a value falls outside its bounds, and when a judged value
is nan (not derivable from the run: a noisy point, a fit without enough points).

Take references from a run of your own on a quiet node (docs/cluster.md), not from another
site's hardware; the entries below are examples.
"""

REFERENCES = {
    # cluster/configs/ci.ini on the local Slurm (cluster/local-slurm): nothing judged. CI's
    # machine is shared: a disturbed point is "noisy" and has no speedup, so any reference
    # there could fail on load alone. The values are logged (perflogs/) all the same.
    "ci": {},
    # configs/default.ini on the example GPU cluster (cluster/config/example-gpu-cluster.py).
    # Placeholders to replace with your own measured values: the model's limits (launch-bound
    # speedup at most 2, memory-bound 5/3 on a GPU) bound what a healthy run shows.
    "default": {
        "example:a100": {
            "speedup_largest": (1.6, -0.1, 0.1, "x"),
            "speedup_launch_bound": (1.9, -0.15, 0.1, "x"),
        },
        "example:h100": {
            "speedup_largest": (1.6, -0.1, 0.1, "x"),
            "speedup_launch_bound": (1.9, -0.15, 0.1, "x"),
        },
    },
}


def for_config(config_stem):
    """The ReFrame reference dict ({"system:partition": {var: tuple}}) of one config; empty
    (nothing judged) for a config without entries."""
    return REFERENCES.get(config_stem, {})
