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
import sys

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import (fixture, parameter, run_after, run_before, sanity_function,
                                   variable)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import fusebench_report  # noqa: E402  (beside this file, not a package)
import references  # noqa: E402


def _from_caller(path):
    """A path given on the command line, relative to where cluster/rfm was called
    (FB_RFM_CWD: ReFrame itself runs in its prefix)."""
    return os.path.join(os.environ.get("FB_RFM_CWD", os.getcwd()), os.path.expanduser(path))


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
            self.executable = self.binary
            self.executable_opts = ["--version"]
        else:
            # Not the stage directory: ReFrame removes it once the sweeps that use it end.
            build = os.path.join(REPO, "build-cluster",
                                 self.current_partition.fullname.replace(":", "-"))
            self.binary = os.path.join(build, "fusebench")
            self.executable = os.path.join(REPO, "scripts", "ensure-build")
            options = self.current_partition.extras.get("meson_options", "")
            self.executable_opts = [build] + options.split() + self.meson_options.split()
            self.postrun_cmds = [f'"{self.binary}" --version']

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
        self.executable = os.path.join(HERE, "run-sweep")
        self.executable_opts = ["--fusebench", self.build.binary, "--config", config,
                                "--backend", self.backend, "--dtype", self.dtype,
                                "--results", results]
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
