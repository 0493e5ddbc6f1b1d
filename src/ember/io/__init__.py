"""Readers and writers: CSV (GPU tokenizer, pyarrow and pandas host paths), Parquet, JSON, ORC.

Readers take paths, file objects, globs, directories (Parquet) and fsspec URLs (s3://, gs://,
http(s)://, memory://) with ``storage_options``, and return ember DataFrames. Writers take an ember
DataFrame first; ``DataFrame.to_csv`` / ``to_parquet`` / ``to_json`` call them.
"""

from ember.io.csv import CsvReader, read_csv
from ember.io.csv_writer import write_csv
from ember.io.json import read_json, write_json
from ember.io.orc import read_orc, write_orc
from ember.io.parquet import ParquetError, read_parquet, write_parquet

__all__ = [
    "CsvReader",
    "ParquetError",
    "read_csv",
    "read_json",
    "read_orc",
    "read_parquet",
    "write_csv",
    "write_json",
    "write_orc",
    "write_parquet",
]
