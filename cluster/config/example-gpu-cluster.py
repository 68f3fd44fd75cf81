"""ReFrame site configuration for a typical Slurm GPU cluster: an example to copy and edit
(cluster/rfm --site FILE.py). What the fusebench suite reads from it:

- a partition's `features`: `gpu` makes its jobs request one GPU (num_gpus_per_node = 1,
  turned into --gpus-per-node=1 by the `_rfm_gpu` resource); `cuda` makes it run fusebench's
  cuda backend, `cpu` its cpu backend (a partition without either runs no sweep: login);
- `access`: the sbatch options of every job there; --exclusive keeps other jobs off the
  node while it measures (a shared node's neighbours show up as noisy points);
- `extras: {"meson_options": ...}`: how FusebenchBuild configures the build on that
  partition (-Dgpu_archs=80: one architecture, ~5x faster to build than the default all);
- environments: the modules a build and a sweep need (a compiler with OpenMP, meson and
  ninja, libinih, cmocka, gnuplot, python3, and the CUDA toolkit (12.6 or newer) on GPU
  partitions); names are examples, `module avail` says your site's.

Scheduler: `slurm` (ReFrame polls sacct: needs Slurm's accounting, which clusters have) or
`squeue` (no accounting needed; the suite's sanity never uses the job's exit code).
"""

site_configuration = {
    "systems": [
        {
            "name": "example",
            "descr": "a Slurm cluster with A100 and H100 partitions",
            "hostnames": [r"login\d+", r"nid\d+"],
            "modules_system": "lmod",
            "partitions": [
                {
                    "name": "login",
                    "descr": "the login node: no sweeps (neither `cpu` nor `cuda`)",
                    "scheduler": "local",
                    "launcher": "local",
                    "environs": ["fb-gnu"],
                    "features": ["login"],
                },
                {
                    "name": "cpu",
                    "scheduler": "slurm",
                    "launcher": "local",
                    "access": ["--partition=cpu", "--exclusive"],
                    "environs": ["fb-gnu"],
                    "features": ["cpu"],
                    "max_jobs": 8,
                },
                {
                    "name": "a100",
                    "scheduler": "slurm",
                    "launcher": "local",
                    "access": ["--partition=a100", "--exclusive"],
                    "environs": ["fb-cuda"],
                    "features": ["gpu", "cuda"],
                    "resources": [
                        {"name": "_rfm_gpu", "options": ["--gpus-per-node={num_gpus_per_node}"]},
                    ],
                    "extras": {"meson_options": "-Dgpu_archs=80"},
                    "max_jobs": 8,
                },
                {
                    "name": "h100",
                    "scheduler": "slurm",
                    "launcher": "local",
                    "access": ["--partition=h100", "--exclusive"],
                    "environs": ["fb-cuda"],
                    "features": ["gpu", "cuda"],
                    "resources": [
                        {"name": "_rfm_gpu", "options": ["--gpus-per-node={num_gpus_per_node}"]},
                    ],
                    "extras": {"meson_options": "-Dgpu_archs=90"},
                    "max_jobs": 8,
                },
            ],
        },
    ],
    "environments": [
        {"name": "fb-gnu", "modules": ["gcc", "meson", "python"], "cc": "gcc", "cxx": "g++"},
        {"name": "fb-cuda", "modules": ["gcc", "meson", "python", "cuda/12.6"],
         "cc": "gcc", "cxx": "g++"},
    ],
    # ReFrame's log in its working directory (cluster/rfm runs it in its --prefix), the perf
    # logs per system and partition under perflogs/.
    "logging": [
        {
            "handlers": [
                {"type": "file", "name": "reframe.log", "level": "debug2",
                 "format": "[%(asctime)s] %(levelname)s: %(check_info)s: %(message)s",
                 "append": False},
                {"type": "stream", "name": "stdout", "level": "info", "format": "%(message)s"},
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
