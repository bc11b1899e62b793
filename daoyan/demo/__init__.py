"""The demo forum: the project's own stand-in for a Discuz! X3.5 forum, with a sample game.

`DemoForum` serves the sample over loopback HTTP in the same URLs and markup as a real
Discuz! X3.5, so `daoyan demo`, the scanner tests and the benchmarks run offline.
"""
from .sample import EXPECTED, Sample, SamplePost, SampleThread, build_sample
from .server import DemoForum, FaultPlan, LoopbackServer, RequestLog

__all__ = ["DemoForum", "FaultPlan", "LoopbackServer", "RequestLog", "Sample", "SamplePost", "SampleThread", "build_sample",
           "EXPECTED"]
