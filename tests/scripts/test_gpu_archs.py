#!/usr/bin/env python3
"""scripts/gpu_archs.py, the architectures a build compiles the kernels for, on the lists
that real toolkits print for `nvcc --list-gpu-code` (injected: no nvcc is run here, except a
stand-in script for the command line) and on the option values a user types."""
import os
import stat
import subprocess
import sys
import tempfile
import unittest

SRC = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(SRC, "scripts"))
import gpu_archs  # noqa: E402

# nvcc 13.0 (this machine's) and 13.5 (the nvidia-cuda-nvcc wheel), as they print it; lists
# shaped like 12.8's (Blackwell added as sm_100, sm_101 (13.0's sm_110) and sm_120; Maxwell to
# Volta still there) and 12.6's (Hopper the newest), written from the release notes, not run.
NVCC_13_0 = "sm_75\nsm_80\nsm_86\nsm_87\nsm_88\nsm_89\nsm_90\nsm_100\nsm_110\nsm_103\nsm_120\nsm_121\n"
NVCC_13_5 = NVCC_13_0 + "sm_107\n"
NVCC_12_8 = ("sm_50\nsm_52\nsm_53\nsm_60\nsm_61\nsm_62\nsm_70\nsm_72\nsm_75\nsm_80\nsm_86\n"
             "sm_87\nsm_89\nsm_90\nsm_100\nsm_101\nsm_120\n")
NVCC_12_6 = ("sm_50\nsm_52\nsm_53\nsm_60\nsm_61\nsm_62\nsm_70\nsm_72\nsm_75\nsm_80\nsm_86\n"
             "sm_87\nsm_89\nsm_90\n")


class ForDevice(unittest.TestCase):
    """What scripts/gpu-check builds for the GPU present: the audited lowest minor of its
    major (it built the exact capability before, which the SASS audit never saw for 8.6/8.9)."""
    def test_each_device_gets_the_lowest_minor_of_its_major(self):
        listed = gpu_archs.parse_listed(NVCC_13_0)
        for cc, want in (("7.5", 75), ("8.0", 80), ("8.6", 80), ("8.7", 80), ("8.9", 80),
                         ("9.0", 90), ("10.0", 100), ("10.3", 100), ("11.0", 110),
                         ("12.0", 120), ("12.1", 120)):
            self.assertEqual(gpu_archs.for_device(cc, listed), want, cc)
        self.assertEqual(gpu_archs.for_device("10.1", gpu_archs.parse_listed(NVCC_12_8)), 100)

    def test_a_device_no_listed_code_runs_on_is_refused(self):
        listed = gpu_archs.parse_listed(NVCC_13_0)
        for cc in ("7.0", "7.2", "6.1", "8", "sm_86"):
            self.assertRaises(ValueError, gpu_archs.for_device, cc, listed)

    def test_the_command_line_prints_the_number(self):
        with tempfile.TemporaryDirectory() as d:
            nvcc = os.path.join(d, "nvcc")
            with open(nvcc, "w") as f:
                f.write("#!/bin/sh\nprintf '%s'\n" % NVCC_13_0.replace("\n", "\\n"))
            os.chmod(nvcc, stat.S_IRWXU)
            out = subprocess.run([sys.executable, os.path.join(SRC, "scripts", "gpu_archs.py"),
                                  "--nvcc", nvcc, "--device", "8.9"], capture_output=True,
                                 text=True)
            self.assertEqual((out.returncode, out.stdout), (0, "80\n"), out.stderr)


class Default(unittest.TestCase):
    def test_every_major_from_turing_at_its_lowest_minor_and_ptx_of_the_newest(self):
        listed = gpu_archs.parse_listed(NVCC_13_0)
        self.assertEqual(gpu_archs.choose("all", listed), ([75, 80, 90, 100, 110, 120], 120))

    def test_the_list_follows_the_toolkit(self):
        self.assertEqual(gpu_archs.choose("all", gpu_archs.parse_listed(NVCC_13_5)),
                         ([75, 80, 90, 100, 110, 120], 120))
        # 12.8: Volta and older are left out (Turing is the floor), Blackwell is in
        self.assertEqual(gpu_archs.choose("all", gpu_archs.parse_listed(NVCC_12_8)),
                         ([75, 80, 90, 100, 120], 120))
        # 12.6 has no Blackwell: Hopper's PTX is the newest, which Blackwell GPUs JIT
        self.assertEqual(gpu_archs.choose("all", gpu_archs.parse_listed(NVCC_12_6)),
                         ([75, 80, 90], 90))

    def test_gencode_flags(self):
        self.assertEqual(gpu_archs.gencode([80, 90], 90),
                         ["-gencode=arch=compute_80,code=sm_80",
                          "-gencode=arch=compute_90,code=sm_90",
                          "-gencode=arch=compute_90,code=compute_90"])


class Named(unittest.TestCase):
    listed = gpu_archs.parse_listed(NVCC_13_0)

    def test_the_forms_a_user_types(self):
        # -Dgpu_archs=80,90 reaches the script as "80,90" (meson splits, meson.build joins)
        self.assertEqual(gpu_archs.choose("80,90", self.listed), ([80, 90], 90))
        self.assertEqual(gpu_archs.choose("sm_90, 8.9,90", self.listed), ([89, 90], 90))
        self.assertEqual(gpu_archs.choose("120", self.listed), ([120], 120))

    def test_an_architecture_nvcc_cannot_build_is_an_error_naming_the_list(self):
        with self.assertRaises(ValueError) as e:
            gpu_archs.choose("70", self.listed)
        self.assertIn("sm_70 is not one this nvcc can build", str(e.exception))
        self.assertIn("sm_75, sm_80", str(e.exception))
        with self.assertRaises(ValueError) as e:
            gpu_archs.choose("hopper", self.listed)
        self.assertIn("'hopper' is not an architecture", str(e.exception))
        with self.assertRaises(ValueError):
            gpu_archs.choose("all,90", self.listed)

    def test_native_without_a_gpu_fails_clearly(self):
        with tempfile.TemporaryDirectory() as d:
            query = os.path.join(d, "__nvcc_device_query")
            with open(query, "w") as f:
                f.write("#!/bin/sh\necho 'failed to call load_driver_entries()' >&2\nexit 1\n")
            os.chmod(query, stat.S_IRWXU)
            with self.assertRaises(ValueError) as e:
                gpu_archs.choose("native", self.listed, query)
            self.assertIn("-Dgpu_archs=native: no GPU answered here", str(e.exception))
            self.assertIn("-Dgpu_archs=90", str(e.exception))
            # with GPUs, what the query prints (its compute capabilities) is the list
            with open(query, "w") as f:
                f.write("#!/bin/sh\necho 86,90\n")
            self.assertEqual(gpu_archs.choose("native", self.listed, query), ([86, 90], 90))


class CommandLine(unittest.TestCase):
    def test_prints_what_meson_reads_and_exits_2_on_a_bad_request(self):
        with tempfile.TemporaryDirectory() as d:
            nvcc = os.path.join(d, "nvcc")
            with open(nvcc, "w") as f:
                f.write("#!/bin/sh\nprintf '%s'\n" % NVCC_13_0.replace("\n", "\\n"))
            os.chmod(nvcc, stat.S_IRWXU)
            script = os.path.join(SRC, "scripts", "gpu_archs.py")
            done = subprocess.run([sys.executable, script, "--nvcc", nvcc, "--archs", "80,90"],
                                  capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            lines = done.stdout.splitlines()
            self.assertIn("sass\t80,90", lines)
            self.assertIn("ptx\t90", lines)
            self.assertIn("gencode\t-gencode=arch=compute_90,code=compute_90", lines)
            done = subprocess.run([sys.executable, script, "--nvcc", nvcc, "--archs", "61"],
                                  capture_output=True, text=True)
            self.assertEqual(done.returncode, 2)
            self.assertIn("sm_61 is not one this nvcc can build", done.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
