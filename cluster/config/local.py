"""ReFrame site configuration of the tests: the local Slurm of cluster/local-slurm and a
laptop without one. Pick the system with --system (cluster/rfm does):

- local-slurm: one node, partitions `cpu` and `gpu-sim` (one fake GPU: gres gpu:fake:1, so
  jobs there request and get a GPU, but fusebench's CUDA backend cannot run: the partition
  has the features `gpu` (request one) and `cpu` (run the cpu backend), not `cuda`). Scheduler from
  FB_RFM_SCHEDULER: `squeue` (the default; it never learns a job's exit code, which the suite
  does not use) or `slurm` (it calls sacct, which the local Slurm answers only with `-c`: run
  it through cluster/rfm --local-sacct, which puts cluster/sacct-shim first in PATH).
  --exclusive: two sweeps never share the node's cores.
- laptop: the `local` scheduler, jobs are plain processes.
"""
import os

_scheduler = os.environ.get("FB_RFM_SCHEDULER", "squeue")

site_configuration = {
    "systems": [
        {
            "name": "local-slurm",
            "descr": "cluster/local-slurm: one node, a cpu and a gpu-sim (fake GPU) partition",
            "hostnames": [r".*"],
            "modules_system": "nomod",
            "partitions": [
                {
                    "name": "cpu",
                    "descr": "CPU only",
                    "scheduler": _scheduler,
                    "launcher": "local",
                    "access": ["--partition=cpu", "--exclusive"],
                    "environs": ["fb-gcc"],
                    "features": ["cpu"],
                    "max_jobs": 4,
                },
                {
                    "name": "gpu-sim",
                    "descr": "one fake GPU (gres on /dev/null): the GPU request path only",
                    "scheduler": _scheduler,
                    "launcher": "local",
                    "access": ["--partition=gpu-sim", "--exclusive"],
                    "environs": ["fb-gcc"],
                    "features": ["gpu", "cpu"],
                    "resources": [
                        {"name": "_rfm_gpu", "options": ["--gpus-per-node={num_gpus_per_node}"]},
                    ],
                    "max_jobs": 4,
                },
            ],
        },
        {
            "name": "laptop",
            "descr": "this machine, no batch system",
            "hostnames": [r".*"],
            "modules_system": "nomod",
            "partitions": [
                {
                    "name": "default",
                    "scheduler": "local",
                    "launcher": "local",
                    "environs": ["fb-gcc"],
                    "features": ["cpu"],
                    "max_jobs": 1,   # one sweep at a time: they would share the cores
                },
            ],
        },
    ],
    "environments": [
        # Not "builtin": ReFrame warns about redefining its own.
        {"name": "fb-gcc", "cc": "gcc", "cxx": "g++"},
    ],
    "logging": [
        {
            # In the working directory (cluster/rfm runs ReFrame in its --prefix), not /tmp.
            "handlers": [
                {"type": "file", "name": "reframe.log", "level": "debug2",
                 "format": "[%(asctime)s] %(levelname)s: %(check_info)s: %(message)s",
                 "append": False},
                {"type": "stream", "name": "stdout", "level": "info",
                 "format": "%(message)s"},
            ],
            "handlers_perflog": [
                {"type": "filelog", "prefix": "%(check_system)s/%(check_partition)s",
                 "level": "info",
                 "format": "%(check_job_completion_time)s|%(check_info)s|%(check_perfvalues)s",
                 "format_perfvars": "%(check_perf_value)s|%(check_perf_unit)s|",
                 "append": True},
            ],
        }
    ],
}
