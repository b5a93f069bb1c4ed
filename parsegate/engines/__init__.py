"""Engines that run the per-document work of a run: engines.local (worker processes on this machine)
and engines.ray (Ray actors). engines.base says what an engine is; engines.work is the work."""
