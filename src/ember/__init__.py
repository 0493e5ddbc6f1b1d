"""ember: PyData on GPUs — a pandas-compatible DataFrame on CuPy, with the same code on NumPy.

``import ember`` imports neither CuPy, Dask nor scikit-learn; the GPU is probed on first use.
"""

from ember import _config as config
from ember import backend

__version__ = "0.1.0"

__all__ = ["backend", "config"]
