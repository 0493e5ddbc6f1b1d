"""Algorithms as plain functions on arrays and Columns -> arrays/Columns. No frame imports.

Each function works on NumPy and CuPy alike (it takes ``xp`` from its inputs); device syncs are
limited to sizes that must be known on the host, read once per operation.
"""
