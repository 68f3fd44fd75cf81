#!/usr/bin/env python3
"""scripts/find_cuda_libs.py on made-up toolkit layouts (empty files in a temp dir): where it
finds the CUDA runtime, CUPTI and libnvperf for a toolkit with CUPTI beside the runtime, a
runfile install with extras/CUPTI, the CUDA 13 and CUDA 12 pip wheels (versioned files only,
no libcupti.so), targets/<arch>-linux, and -Dcupti_dir. The script runs as a subprocess with
python -S (no site-packages: a real torch install must not answer) and PYTHONPATH set to the
made-up site directory, with CUDA_PATH and CUDA_HOME cleared."""
import os
import platform
import subprocess
import sys
import tempfile
import unittest

SRC = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
SCRIPT = os.path.join(SRC, "scripts", "find_cuda_libs.py")


class Layouts(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = os.path.realpath(self.tmp.name)
        self.site = os.path.join(self.d, "site")
        os.makedirs(self.site)

    def tearDown(self):
        self.tmp.cleanup()

    def touch(self, *paths):
        for p in paths:
            full = os.path.join(self.d, p)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            open(full, "w").close()

    def toolkit(self, lib="lib64"):
        """A toolkit at d/cuda with nvcc and the runtime, no CUPTI."""
        self.touch("cuda/bin/nvcc", "cuda/include/cuda_runtime.h", "cuda/%s/libcudart.so" % lib)
        return os.path.join(self.d, "cuda", "bin", "nvcc")

    def run_script(self, *args):
        env = {k: v for k, v in os.environ.items() if k not in ("CUDA_PATH", "CUDA_HOME")}
        env["PYTHONPATH"] = self.site
        r = subprocess.run([sys.executable, "-S", SCRIPT] + list(args), env=env,
                           capture_output=True, text=True)
        found = {}
        for line in r.stdout.splitlines():
            key, _, value = line.partition("\t")
            found[key] = value
        return r.returncode, found, r.stderr

    def p(self, *parts):
        return os.path.join(self.d, *parts)

    def test_cupti_beside_the_runtime_in_lib64(self):
        nvcc = self.toolkit()
        self.touch("cuda/lib64/libcupti.so", "cuda/include/cupti.h",
                   "cuda/lib64/libnvperf_host.so", "cuda/lib64/libnvperf_target.so")
        rc, f, _ = self.run_script("--nvcc", nvcc)
        self.assertEqual(rc, 0)
        self.assertEqual(f["cupti_layout"], "toolkit")
        self.assertEqual(f["cudart_dir"], self.p("cuda/lib64"))
        self.assertEqual(f["cudart_lib"], self.p("cuda/lib64/libcudart.so"))
        self.assertEqual(f["cuda_include"], self.p("cuda/include"))
        self.assertEqual(f["cupti_lib"], self.p("cuda/lib64/libcupti.so"))
        self.assertEqual(f["nvperf_host"], self.p("cuda/lib64/libnvperf_host.so"))
        self.assertEqual(f["nvperf_target"], self.p("cuda/lib64/libnvperf_target.so"))

    def test_runfile_install_keeps_cupti_in_extras(self):
        nvcc = self.toolkit()
        self.touch("cuda/extras/CUPTI/lib64/libcupti.so", "cuda/extras/CUPTI/include/cupti.h",
                   "cuda/extras/CUPTI/lib64/libnvperf_host.so")
        rc, f, _ = self.run_script("--nvcc", nvcc)
        self.assertEqual(f["cupti_layout"], "extras")
        self.assertEqual(f["cupti_dir"], self.p("cuda/extras/CUPTI/lib64"))
        self.assertEqual(f["cupti_include"], self.p("cuda/extras/CUPTI/include"))
        self.assertEqual(f["nvperf_host"], self.p("cuda/extras/CUPTI/lib64/libnvperf_host.so"))
        self.assertEqual(f["nvperf_target"], "")

    def test_cuda13_wheel_has_versioned_files_only(self):
        nvcc = self.toolkit()
        self.touch("site/nvidia/cu13/lib/libcupti.so.13", "site/nvidia/cu13/include/cupti.h",
                   "site/nvidia/cu13/lib/libnvperf_host.so",
                   "site/nvidia/cu13/lib/libnvperf_target.so")
        rc, f, _ = self.run_script("--nvcc", nvcc)
        self.assertEqual(f["cupti_layout"], "pip-cu13")
        # The linker takes the versioned file as a path: there is no libcupti.so to -l.
        self.assertEqual(f["cupti_lib"], self.p("site/nvidia/cu13/lib/libcupti.so.13"))
        self.assertEqual(f["cupti_include"], self.p("site/nvidia/cu13/include"))
        self.assertEqual(f["nvperf_host"], self.p("site/nvidia/cu13/lib/libnvperf_host.so"))
        self.assertEqual(f["cudart_dir"], self.p("cuda/lib64"))

    def test_cuda12_wheel_layout(self):
        nvcc = self.toolkit()
        self.touch("site/nvidia/cuda_cupti/lib/libcupti.so.12",
                   "site/nvidia/cuda_cupti/include/cupti.h",
                   "site/nvidia/cuda_cupti/lib/libnvperf_host.so")
        rc, f, _ = self.run_script("--nvcc", nvcc)
        self.assertEqual(f["cupti_layout"], "pip-cuda_cupti")
        self.assertEqual(f["cupti_lib"], self.p("site/nvidia/cuda_cupti/lib/libcupti.so.12"))

    def test_the_toolkit_wins_over_a_wheel(self):
        nvcc = self.toolkit()
        self.touch("cuda/lib64/libcupti.so", "cuda/include/cupti.h",
                   "site/nvidia/cu13/lib/libcupti.so.13", "site/nvidia/cu13/include/cupti.h")
        rc, f, _ = self.run_script("--nvcc", nvcc)
        self.assertEqual(f["cupti_layout"], "toolkit")

    def test_the_highest_version_and_its_shortest_name(self):
        nvcc = self.toolkit()
        self.touch("site/nvidia/cu13/lib/libcupti.so.12", "site/nvidia/cu13/lib/libcupti.so.13.0.85",
                   "site/nvidia/cu13/include/cupti.h")
        os.symlink("libcupti.so.13.0.85", self.p("site/nvidia/cu13/lib/libcupti.so.13"))
        rc, f, _ = self.run_script("--nvcc", nvcc)
        self.assertEqual(f["cupti_lib"], self.p("site/nvidia/cu13/lib/libcupti.so.13"))

    def test_a_wheel_runtime_when_the_toolkit_has_none(self):
        # nvcc from the nvidia-cuda-nvcc wheel: d/site/nvidia/cu13/bin/nvcc, runtime in its lib/.
        self.touch("site/nvidia/cu13/bin/nvcc", "site/nvidia/cu13/lib/libcudart.so.13",
                   "site/nvidia/cu13/include/cuda_runtime.h")
        rc, f, _ = self.run_script("--nvcc", self.p("site/nvidia/cu13/bin/nvcc"))
        self.assertEqual(f["cudart_lib"], self.p("site/nvidia/cu13/lib/libcudart.so.13"))
        self.assertEqual(f["cuda_root"], self.p("site/nvidia/cu13"))

    def test_targets_layout(self):
        tgt = "targets/%s-linux" % {"aarch64": "sbsa"}.get(platform.machine(), platform.machine())
        self.touch("cuda/bin/nvcc", "cuda/%s/include/cuda_runtime.h" % tgt,
                   "cuda/%s/lib/libcudart.so" % tgt, "cuda/%s/lib/libcupti.so" % tgt,
                   "cuda/%s/include/cupti.h" % tgt)
        rc, f, _ = self.run_script("--nvcc", self.p("cuda/bin/nvcc"))
        self.assertEqual(f["cudart_dir"], self.p("cuda", tgt, "lib"))
        self.assertEqual(f["cupti_layout"], "toolkit")
        self.assertEqual(f["cupti_include"], self.p("cuda", tgt, "include"))

    def test_cupti_dir_option_is_the_only_place_looked(self):
        nvcc = self.toolkit()
        self.touch("cuda/lib64/libcupti.so", "cuda/include/cupti.h",
                   "mine/lib/libcupti.so.13", "mine/include/cupti.h")
        rc, f, _ = self.run_script("--nvcc", nvcc, "--cupti-dir", self.p("mine"))
        self.assertEqual(rc, 0)
        self.assertEqual(f["cupti_layout"], "option")
        self.assertEqual(f["cupti_dir"], self.p("mine/lib"))

    def test_cupti_dir_without_cupti_is_an_error(self):
        nvcc = self.toolkit()
        rc, f, err = self.run_script("--nvcc", nvcc, "--cupti-dir", self.p("nothing"))
        self.assertEqual(rc, 2)
        self.assertIn("no libcupti.so*", err)

    def test_nothing_found_says_so(self):
        nvcc = self.toolkit()
        rc, f, _ = self.run_script("--nvcc", nvcc)
        self.assertEqual(rc, 0)
        self.assertEqual(f["cupti_layout"], "none")
        self.assertEqual(f["cupti_lib"], "")
        self.assertEqual(f["nvperf_host"], "")
        self.assertEqual(f["cudart_lib"], self.p("cuda/lib64/libcudart.so"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
