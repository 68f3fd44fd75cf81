"""fusebench as a ReFrame (4.10) test library: a sweep per partition, config, dtype and backend,
each in a job of the partition's scheduler (docs/cluster.md; run it with cluster/rfm).

- FusebenchBuild (a fixture, one per partition): builds fusebench on the partition in a job
  (scripts/ensure-build into build-cluster/<system>-<partition>/ of the repository, kept
  between runs so that the next one only checks it; meson options from the partition's
  extras "meson_options", then the variable `meson_options`), or,
  when `fusebench` names a built binary (-S FusebenchBuild.fusebench=PATH), checks that one.
- FusebenchSweep: cluster/run-sweep in a job: the sweep, its charts, the check and the
  numbers of cluster/fusebench_report.py. Parameters: `config` (FB_RFM_CONFIGS, a comma list
  of config paths relative to the repository, default configs/default.ini), `dtype`
  (FB_RFM_DTYPES, default fp32), `backend` (cuda on partitions with the feature `cuda`, cpu
  on those with the feature `cpu`). A partition with the feature `gpu` gets num_gpus_per_node = 1 (its config
  turns that into --gpus-per-node=1). Sanity comes from the results file, through fusebench
  (every planned point has a verified row, none failed, launches as planned) and, on a `gpu`
  partition, from the job's CUDA_VISIBLE_DEVICES (Slurm granted the GPU); never from the
  job's exit code, which the squeue scheduler cannot know. Performance variables: those of
  fusebench_report.PERF; their references per config, system and partition are in
  cluster/references.py, the one file a site edits.
- Results: <results_root>/<system>/<partition>/<backend>-<device>/<config>-<dtype>.csv, its
  charts and <config>-<dtype>.plan.json beside it (-S FusebenchSweep.results_root=DIR,
  default out/cluster/ of the repository); cluster/gather collects and compares them.
"""
import math
import os
import shlex
import sys

import reframe as rfm
import reframe.core.runtime as rt
import reframe.utility.sanity as sn
from reframe.core.builtins import (fixture, parameter, run_after, run_before, sanity_function,
                                   variable)
from reframe.core.exceptions import ReframeError
from reframe.core.logging import getlogger

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import fusebench_report  # noqa: E402  (beside this file, not a package)
import references  # noqa: E402


def _from_caller(path):
    """A path given on the command line, relative to where cluster/rfm was called
    (FB_RFM_CWD: ReFrame itself runs in its prefix)."""
    return os.path.join(os.environ.get("FB_RFM_CWD", os.getcwd()), os.path.expanduser(path))


def _words(*args):
    """Each argument as one shell word: ReFrame pastes executable, executable_opts and the
    pre/postrun commands into the job script as they are, joined with spaces, so a space,
    a quote or `$(...)` in a path or name (the results root, the clone's location, a config,
    a dtype, a meson option) would split it or run in the job. Every word this file hands
    to a job script goes through here."""
    return [shlex.quote(str(a)) for a in args]


def _env_list(name, default):
    """A comma list from the environment, or default (parameters are fixed when the file is
    loaded, so the environment is how a run chooses them)."""
    items = [s.strip() for s in os.environ.get(name, "").split(",") if s.strip()]
    return items or default


class FusebenchBuild(rfm.RunOnlyRegressionTest):
    """fusebench on this partition: built in a job, or the given binary checked."""

    fusebench = variable(str, value="")      # a built fusebench; "" builds one here
    meson_options = variable(str, value="")  # e.g. "-Dgpu_archs=90" for an H100 partition
    valid_systems = ["*"]
    valid_prog_environs = ["*"]
    sourcesdir = None                        # built from the repository in place (a shared
                                             # file system), not from a copy
    time_limit = "30m"

    @run_before("run")
    def choose(self):
        if self.fusebench:
            self.binary = os.path.abspath(_from_caller(self.fusebench))
            self.executable, *self.executable_opts = _words(self.binary, "--version")
        else:
            # Not the stage directory: ReFrame removes it once the sweeps that use it end.
            build = os.path.join(REPO, "build-cluster",
                                 self.current_partition.fullname.replace(":", "-"))
            self.binary = os.path.join(build, "fusebench")
            # Several meson options in one string, split on spaces on purpose; each then
            # one word, so none of them runs in the job.
            options = self.current_partition.extras.get("meson_options", "").split()
            self.executable, *self.executable_opts = _words(
                os.path.join(REPO, "scripts", "ensure-build"), build, *options,
                *self.meson_options.split())
            self.postrun_cmds = [" ".join(_words(self.binary, "--version"))]

    @sanity_function
    def runs(self):
        return sn.assert_found(r"^fusebench \S+", self.stdout,
                               msg=f"{self.binary} --version printed no version")


@rfm.simple_test
class FusebenchSweep(rfm.RunOnlyRegressionTest):
    """One fusebench sweep in a job; sanity and numbers from its results file."""

    config = parameter(_env_list("FB_RFM_CONFIGS", ["configs/default.ini"]))
    dtype = parameter(_env_list("FB_RFM_DTYPES", ["fp32"]))
    backend = parameter(["cpu", "cuda"])
    results_root = variable(str, value=os.path.join(REPO, "out", "cluster"))
    build = fixture(FusebenchBuild, scope="partition")
    valid_prog_environs = ["*"]
    num_tasks = 1
    time_limit = "2h"
    sourcesdir = None
    tags = {"fusebench"}

    @run_after("init")
    def by_backend(self):
        # The partition's features say which backends run there: `cuda` (a GPU fusebench's
        # CUDA backend runs on) and `cpu`. The local Slurm's gpu-sim (a fake GPU) is
        # `gpu` and `cpu`: it requests a GPU and runs the cpu backend.
        self.valid_systems = ["+cuda"] if self.backend == "cuda" else ["+cpu"]
        self.descr = f"fusebench {self.config} {self.dtype} on {self.backend}"

    @run_before("run")
    def job_options(self):
        part = self.current_partition
        if "gpu" in part.features:
            self.num_gpus_per_node = 1
        config = os.path.join(REPO, self.config)
        config_stem = os.path.splitext(os.path.basename(config))[0]
        results = os.path.join(os.path.abspath(_from_caller(self.results_root)),
                               part.fullname.replace(":", os.sep))
        self.executable, *self.executable_opts = _words(
            os.path.join(HERE, "run-sweep"), "--fusebench", self.build.binary,
            "--config", config, "--backend", self.backend, "--dtype", self.dtype,
            "--results", results)
        self.site_references = references.for_config(config_stem)
        self.reference = self.site_references

    @sanity_function
    def results_pass(self):
        checks = [
            sn.assert_found(r"^fusebench-results: \S+", self.stdout,
                            msg="the sweep wrote no results file"),
            sn.assert_found(r"^fusebench-check: PASS$", self.stdout,
                            msg="fusebench-check failed (its line in the job's stdout says why)"),
        ]
        if "gpu" in self.current_partition.features:
            checks.append(sn.assert_not_found(r"CUDA_VISIBLE_DEVICES=unset", self.stdout,
                                              msg="the job was granted no GPU"))
        return sn.all(checks)

    @run_before("performance")
    def numbers(self):
        # A value the run could not derive (nan: a noisy point, a fit without enough points)
        # fails its reference, as it should; one that has no reference here is left out of
        # the perf log instead of failing an unjudged variable (the report line still has it).
        part = self.current_partition
        judged = set()
        for scope in (part.fullname, f"{part.fullname.split(':')[0]}:*", "*"):
            judged.update(self.site_references.get(scope, {}))
        self.perf_variables = {}
        stdout = os.path.join(self.stagedir, sn.evaluate(self.stdout))  # hooks run elsewhere
        for name, unit, _ in fusebench_report.PERF:
            value = sn.extractsingle(rf"^fusebench-perf: {name}=(\S+)", stdout, 1, float)
            if name in judged or not math.isnan(sn.evaluate(value)):
                self.perf_variables[name] = sn.make_performance_function(value, unit)


def _sweep_partitions():
    """The selected partitions (--system SYSTEM[:PARTITION]) where FusebenchSweep runs."""
    return [p.fullname for p in rt.runtime().system.partitions
            if {"cpu", "cuda"} & set(p.features)]


if not _sweep_partitions():
    # Without this, a site configuration whose partitions lack both features selects no
    # sweep at all, and ReFrame reports 0 test cases as PASSED.
    _NO_SWEEP = (f"no partition of system {rt.runtime().system.name} selected here has the "
                 f"feature `cpu` or `cuda`, so fusebench runs no sweep: give the partitions "
                 f"that should run one of those features in the site configuration "
                 f"(docs/cluster.md)")
    getlogger().warning(f"fusebench_checks: {_NO_SWEEP}")

    @rfm.simple_test
    class FusebenchNoSweep(rfm.RunOnlyRegressionTest):
        """Fails, saying why, where FusebenchSweep selects no partition (see above)."""

        valid_systems = [rt.runtime().system.partitions[0].fullname]
        valid_prog_environs = ["*"]
        executable = "true"
        descr = "fusebench: no partition selected here runs a sweep"
        tags = {"fusebench"}

        @run_after("setup")
        def refuse(self):
            raise ReframeError(_NO_SWEEP)
