"""CUDA C++ kernels compiled at run time (cupy.RawModule) and their loaders; each has a NumPy reference."""
