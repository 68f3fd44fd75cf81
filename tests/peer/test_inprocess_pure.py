#!/usr/bin/env python3
"""The parts of tools/torch_inprocess.py that need no torch and no GPU: torch's device is the
backend's (the device of its stream, so the config's [backend] device, not torch's current
one), the sample function every torch sample and the empty one share (the switch to the
backend's stream included), and the empty sample's share of a row's sample, reported beside
the ratios. A fake torch and a fake driver stand in (issue 31, defect 7)."""
import ctypes
import os
import sys
import unittest

SRC = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(SRC, "tools"))
import fbpeer  # noqa: E402
import torch_inprocess as ti  # noqa: E402


class FakeTorch:
    @staticmethod
    def device(kind, index=None):
        return (kind, index)


class FakeDriver:
    """cuStreamGetDevice(stream, &ordinal) answering `ordinal` with `rc`."""

    def __init__(self, ordinal, rc=0):
        self.ordinal, self.rc, self.asked = ordinal, rc, []

    def cuStreamGetDevice(self, stream, out):
        self.asked.append(stream.value)
        ctypes.cast(out, ctypes.POINTER(ctypes.c_int))[0] = self.ordinal
        return self.rc


class Device(unittest.TestCase):
    def test_cuda_runs_on_the_device_of_the_backends_stream(self):
        asked = []
        dev = ti.torch_device(FakeTorch, "cuda", 0x1234,
                              device_of=lambda s: asked.append(s) or 3)
        self.assertEqual(dev, ("cuda", 3))  # not torch.device("cuda"): torch's current one
        self.assertEqual(asked, [0x1234])
        self.assertEqual(ti.torch_device(FakeTorch, "cpu", None), ("cpu", None))

    def test_the_driver_names_the_streams_device(self):
        drv = FakeDriver(2)
        self.assertEqual(ti.stream_device(0xabc0, libcuda=drv), 2)
        self.assertEqual(drv.asked, [0xabc0])

    def test_a_driver_that_cannot_say_is_an_error(self):
        with self.assertRaisesRegex(fbpeer.PeerError, "CUresult 201"):
            ti.stream_device(0xabc0, libcuda=FakeDriver(0, rc=201))
        with self.assertRaisesRegex(fbpeer.PeerError, "cuStreamGetDevice"):
            ti.stream_device(0xabc0, libcuda=object())  # an old driver: no such symbol


class Sample(unittest.TestCase):
    def setUp(self):
        self.entered, self.called = 0, []
        test = self

        class OnStream:
            def __enter__(self):
                test.entered += 1

            def __exit__(self, *exc):
                return False
        self.on_stream = OnStream

    def test_a_sample_runs_its_calls_on_the_stream(self):
        calls = ti.sample_calls(self.on_stream, lambda a, b: self.called.append((a, b)), (1, 2))
        calls(3)
        self.assertEqual((self.entered, self.called), (1, [(1, 2)] * 3))

    def test_the_empty_sample_is_a_sample_without_calls(self):
        empty = ti.sample_calls(self.on_stream)
        empty(0)  # as the library calls it
        self.assertEqual((self.entered, self.called), (1, []))

    def test_the_empty_share_of_a_sample(self):
        self.assertAlmostEqual(ti.empty_share(1e-6, 2e-6, 5), 0.1)
        self.assertNotEqual(ti.empty_share(1e-6, 0.0, 5), ti.empty_share(1e-6, 0.0, 5))  # NaN


if __name__ == "__main__":
    unittest.main(verbosity=2)
