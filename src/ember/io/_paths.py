"""Where the bytes come from: local paths, file objects, globs, directories and fsspec URLs.

Every reader goes through here so that a missing file, an unreadable archive or a wrong encoding raises
one clear exception that names the file, whatever the storage.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_COMPRESSION_BY_EXT = {".gz": "gzip", ".bz2": "bz2", ".zst": "zstd", ".xz": "xz", ".zip": "zip"}
COMPRESSIONS = (None, "infer", "gzip", "bz2", "zstd", "xz", "zip")


def is_url(path: Any) -> bool:
    """True for fsspec URLs with a protocol other than file:// (s3://, gs://, http(s)://, memory:// ...)."""
    return isinstance(path, str) and "://" in path and not path.startswith("file://")


def is_file_like(obj: Any) -> bool:
    return hasattr(obj, "read") and callable(obj.read)


def display_name(source: Any) -> str:
    """How errors name a source: its path, or the file object's name attribute, or its type."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None)
    return str(name) if isinstance(name, (str, os.PathLike)) else f"<{type(source).__name__}>"


def infer_compression(path: Any, compression: Any) -> str | None:
    """The codec named by ``compression`` ('infer' looks at the file extension), as pandas does."""
    if isinstance(compression, dict):
        compression = compression.get("method")
    if compression not in COMPRESSIONS:
        raise ValueError(
            f"Unrecognized compression type: {compression}. Valid compression types are "
            f"{[c for c in COMPRESSIONS if c]}"
        )
    if compression != "infer":
        return compression
    if not isinstance(path, (str, os.PathLike)):
        return None
    return _COMPRESSION_BY_EXT.get(os.path.splitext(os.fspath(path))[1].lower())


def optional_import(module: str, purpose: str) -> Any:
    """Import an optional dependency, or raise ImportError saying what needs it and what to install."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{purpose} needs the optional package {module!r}, which is not installed: pip install {module}"
        ) from exc


class LocalFileSystem:
    """The few fsspec filesystem calls the readers and writers make, for local paths.

    Local files need no fsspec (an optional dependency; pandas reads local files without it either);
    ``arrow()`` gives the pyarrow filesystem that pyarrow.dataset and pyarrow.parquet take."""

    protocol = "file"

    def exists(self, path: str) -> bool:
        return os.path.exists(path)

    def isdir(self, path: str) -> bool:
        return os.path.isdir(path)

    def glob(self, pattern: str) -> list[str]:
        import glob

        return sorted(glob.glob(pattern, recursive=True))

    def find(self, path: str) -> list[str]:
        """All files under ``path`` (walked down), sorted; ``[path]`` for a file."""
        if not os.path.isdir(path):
            return [path] if os.path.exists(path) else []
        return sorted(os.path.join(root, f) for root, _, files in os.walk(path) for f in files)

    def open(self, path: str, mode: str = "rb") -> Any:
        return open(path, mode)

    def arrow(self) -> Any:
        import pyarrow.fs

        return pyarrow.fs.LocalFileSystem()


def arrow_filesystem(fs: Any) -> Any:
    """The filesystem to hand pyarrow: its own for local paths; fsspec filesystems pyarrow wraps itself."""
    return fs.arrow() if isinstance(fs, LocalFileSystem) else fs


def get_filesystem(path: str, storage_options: dict | None) -> tuple[Any, str]:
    """(filesystem, path inside it) for a local path (no fsspec needed) or an fsspec URL."""
    if not is_url(path):
        if storage_options:
            raise ValueError(
                "storage_options passed with a local file path; they apply to fsspec URLs only "
                "(s3://, gs://, http(s)://, memory:// ...)"
            )
        local = path[len("file://") :] if path.startswith("file://") else path
        return LocalFileSystem(), os.path.abspath(os.path.expanduser(local))
    fsspec = optional_import("fsspec", f"reading or writing {path.split('://')[0]}:// URLs")
    fs, inner = fsspec.core.url_to_fs(path, **(storage_options or {}))
    return fs, inner


def _missing(path: Any) -> FileNotFoundError:
    return FileNotFoundError(2, f"No such file or directory: {display_name(path)!r}", display_name(path))


def _decompressor(raw: Any, codec: str | None, name: str) -> Any:
    """Wrap a binary stream so that reading it yields the decompressed bytes."""
    if codec is None:
        return raw
    if codec == "gzip":
        import gzip

        return gzip.GzipFile(fileobj=raw, mode="rb")
    if codec == "bz2":
        import bz2

        return bz2.BZ2File(raw, mode="rb")
    if codec == "xz":
        import lzma

        return lzma.LZMAFile(raw, mode="rb")
    if codec == "zstd":
        zstandard = optional_import("zstandard", f"{name}: zstd decompression")
        return zstandard.ZstdDecompressor().stream_reader(raw)
    import zipfile

    zf = zipfile.ZipFile(raw)
    names = zf.namelist()
    if len(names) != 1:
        raise ValueError(
            f"{name}: a zip archive read as one file must hold exactly one member, found {names}"
        )
    return zf.open(names[0])


@contextmanager
def open_binary(
    source: Any, compression: Any = "infer", storage_options: dict | None = None
) -> Iterator[Any]:
    """A readable binary stream of ``source`` with compression undone; file objects are not closed."""
    name = display_name(source)
    codec = infer_compression(source, compression)
    if is_file_like(source):
        raw = source
        if isinstance(source, io.TextIOBase):
            raw = io.BytesIO(source.read().encode("utf-8"))
        yield _decompressor(raw, codec, name)
        return
    if isinstance(source, (bytes, bytearray, memoryview)):
        yield _decompressor(io.BytesIO(source), codec, name)
        return
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"expected a path, URL or file object, got {type(source).__name__}")
    path = os.fspath(source)
    if not is_url(path):
        if path.startswith("file://"):
            path = path[len("file://") :]
        if not os.path.exists(path):
            raise _missing(source)
        with open(path, "rb") as raw:
            yield _decompressor(raw, codec, name)
        return
    fs, inner = get_filesystem(path, storage_options)
    if not fs.exists(inner):
        raise _missing(source)
    with fs.open(inner, "rb") as raw:
        yield _decompressor(raw, codec, name)


def local_plain_file(source: Any, compression: Any = "infer") -> str | None:
    """The path of ``source`` when it names an existing local file read without decompression (the
    readers can then read it in place, in parallel pieces), else None."""
    if not isinstance(source, (str, os.PathLike)) or is_url(source):
        return None
    path = os.fspath(source)
    path = path[len("file://") :] if path.startswith("file://") else path
    if infer_compression(path, compression) is not None or not os.path.isfile(path):
        return None
    return path


def read_all(source: Any, compression: Any = "infer", storage_options: dict | None = None) -> bytes:
    """All (decompressed) bytes of ``source``; codec errors are re-raised naming the file."""
    name = display_name(source)
    with open_binary(source, compression, storage_options) as f:
        try:
            data = f.read()
        except (OSError, EOFError, ValueError) as exc:
            if isinstance(exc, FileNotFoundError):
                raise
            raise type(exc)(f"{name}: cannot decompress ({exc})") from exc
    if isinstance(data, str):
        data = data.encode("utf-8")
    return bytes(data)


@contextmanager
def open_output(
    target: Any, compression: Any = "infer", storage_options: dict | None = None, mode: str = "wb"
) -> Iterator[Any]:
    """A writable binary stream for ``target`` (path, URL or file object) that compresses on the way."""
    codec = infer_compression(target, compression)
    if is_file_like(target) or hasattr(target, "write"):
        if codec is not None:
            raise NotImplementedError(
                "writing compressed data to a file object is not supported by ember; "
                "pass a path or URL, or compression=None"
            )
        yield target
        return
    if codec == "zstd":
        optional_import("zstandard", "zstd compression")  # before the target file is created
    path = os.fspath(target)
    if is_url(path):
        fs, inner = get_filesystem(path, storage_options)
        opener = fs.open(inner, mode)
    else:
        opener = open(path[len("file://") :] if path.startswith("file://") else path, mode)
    with opener as raw:
        if codec is None:
            yield raw
        elif codec == "zip":
            import zipfile

            arcname = (
                os.path.basename(path)[: -len(".zip")] if path.endswith(".zip") else os.path.basename(path)
            )
            with (
                zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as zf,
                zf.open(arcname or "data", "w") as member,
            ):
                yield member
        else:
            stream = _compressor(raw, codec)
            try:
                yield stream
            finally:
                stream.close()


def _compressor(raw: Any, codec: str) -> Any:
    if codec == "gzip":
        import gzip

        return gzip.GzipFile(fileobj=raw, mode="wb")
    if codec == "bz2":
        import bz2

        return bz2.BZ2File(raw, mode="wb")
    if codec == "xz":
        import lzma

        return lzma.LZMAFile(raw, mode="wb")
    zstandard = optional_import("zstandard", "zstd compression")
    return zstandard.ZstdCompressor().stream_writer(raw, closefd=False)


def expand_paths(
    source: Any, storage_options: dict | None = None, suffixes: tuple[str, ...] = ()
) -> tuple[Any, list[str]]:
    """(fsspec filesystem, sorted file list) for a path, URL, list of them, directory or glob.

    Directories are walked (hidden and ``_``-prefixed files skipped, as pyarrow.dataset does); a pattern
    or directory matching nothing raises FileNotFoundError naming it.
    """
    sources = list(source) if isinstance(source, (list, tuple)) else [source]
    if not sources:
        raise ValueError("no paths given")
    fs = None
    out: list[str] = []
    for src in sources:
        path = os.fspath(src)
        fs_i, inner = get_filesystem(path, storage_options)
        fs = fs or fs_i
        if any(ch in inner for ch in "*?["):
            matched = sorted(fs_i.glob(inner))
            if not matched:
                raise _missing(path)
            for m in matched:
                out.extend(_walk(fs_i, m, suffixes))
        elif fs_i.isdir(inner):
            files = _walk(fs_i, inner, suffixes)
            if not files:
                raise FileNotFoundError(2, f"directory {path!r} holds no data files", path)
            out.extend(files)
        elif fs_i.exists(inner):
            out.append(inner)
        else:
            raise _missing(path)
    return fs, out


def _walk(fs: Any, path: str, suffixes: tuple[str, ...]) -> list[str]:
    if not fs.isdir(path):
        return [path]
    files = []
    for f in sorted(fs.find(path)):
        parts = f[len(path) :].strip("/").split("/")
        if any(p.startswith((".", "_")) for p in parts):
            continue
        if suffixes and not f.endswith(suffixes) and "." in parts[-1]:
            continue
        files.append(f)
    return files
