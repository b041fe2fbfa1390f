"""Where numba keeps the compiled kernels: a cache directory keyed by what they are compiled from.

numba's own on-disk cache checks only the timestamp of the file a compiled function is defined
in. A kernel that inlines a helper from another module, or reads a constant table from one,
keeps the old machine code after that module changes. So Ludoteca gives numba a cache directory
of its own for each *key*, a hash of

- the source of every kernel module: every module under ``ludoteca/core/`` and
  ``ludoteca/games/`` (the rules layers, which import only each other, so everything a kernel
  can read is there) and every other module of the package that imports numba, generated
  modules included;
- the numba version;
- the CPU as numba compiles for it (its name and features, or ``NUMBA_CPU_NAME`` and
  ``NUMBA_CPU_FEATURES`` when set).

Any change to those gives a new, empty directory, so stale machine code is never loaded; going
back to earlier sources finds their directory again while it is kept. The directories live
under ``$LUDOTECA_NUMBA_CACHE`` if set, else ``$XDG_CACHE_HOME/ludoteca/numba`` (by default
``~/.cache/ludoteca/numba``). Ludoteca sets ``NUMBA_CACHE_DIR`` itself: a value set outside is
replaced.

numba reads its settings when it is imported, so importing this module (the first thing
``import ludoteca`` does) installs a hook that chooses the directory the moment anything first
imports numba, or chooses it at once if numba is already imported. Commands that never compile
(``ludoteca --version``) pay nothing for it.

Old keys are pruned: each process holds a shared lock on its key's directory for as long as it
runs; a directory is deleted only when its lock can be taken exclusively (no process uses it),
and the directory in use plus the two most recently used others are always kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.abc
import importlib.machinery
import os
import re
import shutil
import sys
import types
from collections.abc import Iterable, Sequence
from importlib import metadata
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: no locks, so nothing is ever pruned
    fcntl = None  # type: ignore[assignment]

#: Names the root folder of the keyed cache directories.
ROOT_VARIABLE = "LUDOTECA_NUMBA_CACHE"
#: Directories kept besides the one in use, the most recently used first.
KEEP_OTHERS = 2
#: The file of each key's directory that processes lock while they use it; its time is the
#: directory's last use.
LOCK_NAME = ".in-use"
#: The rules layers: every module under them is part of the key.
RULES_LAYERS = ("core", "games")

_KEY_LENGTH = 16
_KEY_NAME = re.compile(rf"[0-9a-f]{{{_KEY_LENGTH}}}")
_TRASH_PREFIX = ".deleting-"
_IMPORTS_NUMBA = re.compile(rb"^\s*(?:import|from)\s+numba\b", re.MULTILINE)

_PACKAGE = Path(__file__).resolve().parent
_extra_sources: list[Path] = []
_in_use: Path | None = None
_lock: int | None = None  # the shared lock's file descriptor, held until the process exits


def cache_root() -> Path:
    """The folder that holds the keyed cache directories (not created here)."""
    chosen = os.environ.get(ROOT_VARIABLE)
    if chosen:
        return Path(chosen).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ludoteca" / "numba"


def kernel_sources(package: Path) -> list[Path]:
    """The modules of ``package`` whose source is part of the key (see the module docs), sorted."""
    sources = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package).parts
        if relative[0] in RULES_LAYERS or _IMPORTS_NUMBA.search(_read(path)):
            sources.append(path)
    return sources


def add_kernel_sources(package: Path) -> None:
    """Key the cache on another package's kernels too (its `kernel_sources`).

    For a package whose compiled functions inline each other's: call it before numba is
    imported (a plug-in game is usually loaded later, and then relies on numba's own check).

    Raises:
        RuntimeError: numba is already imported, so its cache directory is already chosen.
    """
    if _in_use is not None:
        raise RuntimeError(
            f"numba is already imported: its cache directory ({_in_use}) is chosen; "
            "add kernel sources before anything imports numba"
        )
    _extra_sources.append(Path(package).resolve())


def cache_key(sources: Iterable[Path], *, numba_version: str, cpu: str) -> str:
    """The key of a cache directory: a hash of the sources' contents, numba and the CPU.

    Only contents count, not where the files are: two checkouts of one commit share a key.
    """
    digest = hashlib.sha256()
    for part in (numba_version, cpu):
        digest.update(part.encode() + b"\0")
    for path in sources:
        digest.update(hashlib.sha256(_read(path)).digest())
    return digest.hexdigest()[:_KEY_LENGTH]


def host_cpu() -> str:
    """The CPU numba compiles for: its name and features, as numba's code generator finds them."""
    name = os.environ.get("NUMBA_CPU_NAME")
    features = os.environ.get("NUMBA_CPU_FEATURES")
    if name is None or features is None:
        import llvmlite.binding as llvm

        name = name or llvm.get_host_cpu_name()
        if features is None:
            features = "" if name.lower() == "generic" else llvm.get_host_cpu_features().flatten()
    return f"{name} {features}"


def cache_dir() -> Path | None:
    """The directory numba caches in for this process; None until numba is imported."""
    return _in_use


def use_keyed_cache() -> Path:
    """Choose, create and lock this process's cache directory, tell numba, prune old ones.

    Runs once, when numba is first imported (see `install`); later calls return the directory.
    """
    global _in_use
    if _in_use is not None:
        return _in_use
    sources = [path for package in (_PACKAGE, *_extra_sources) for path in kernel_sources(package)]
    key = cache_key(sources, numba_version=_numba_version(), cpu=host_cpu())
    try:
        directory = cache_root() / key
        _hold(directory)
    except (OSError, RuntimeError):  # unwritable, or no home: a folder of the temporary one
        directory = _temporary_root() / key
        with contextlib.suppress(OSError):
            _hold(directory)
    _in_use = directory
    os.environ["NUMBA_CACHE_DIR"] = str(directory)
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba came first: kernels not yet compiled still read this
        config.CACHE_DIR = str(directory)  # type: ignore[attr-defined]
    with contextlib.suppress(OSError):
        prune(directory.parent, keep=directory)
    return directory


def prune(root: Path, *, keep: Path, keep_others: int = KEEP_OTHERS) -> list[Path]:
    """Delete the cache directories under ``root`` that no process uses, but the newest few.

    ``keep`` and the ``keep_others`` most recently used others stay; so does every directory
    whose lock another process holds, and anything under ``root`` not named like a key.
    Returns the directories deleted.
    """
    if fcntl is None:
        return []
    for trash in root.glob(f"{_TRASH_PREFIX}*"):  # left by a process that stopped mid-way
        shutil.rmtree(trash, ignore_errors=True)
    others = [
        entry
        for entry in root.iterdir()
        if _KEY_NAME.fullmatch(entry.name) and entry.name != keep.name and entry.is_dir()
    ]
    if len(others) <= keep_others:
        return []
    others.sort(key=_last_used, reverse=True)
    return [old for old in others[keep_others:] if _delete_unused(old, root)]


def install() -> None:
    """Choose the cache directory before numba is first imported (at once if it already is)."""
    if "numba" in sys.modules:
        use_keyed_cache()
    elif not any(isinstance(finder, _BeforeNumba) for finder in sys.meta_path):
        sys.meta_path.insert(0, _BeforeNumba())


class _BeforeNumba(importlib.abc.MetaPathFinder):
    """Runs `use_keyed_cache` when ``numba`` is about to be imported, then steps aside."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        # Runs under the import lock of "numba", so once even with threads. It stays in
        # sys.meta_path: removing it here would make the import machinery skip the next finder.
        if fullname == "numba" and _in_use is None:
            use_keyed_cache()
        return None  # the usual finders import numba


def _hold(directory: Path) -> None:
    """Create ``directory`` and hold a shared lock on it until the process exits."""
    global _lock
    for _ in range(5):
        directory.mkdir(parents=True, exist_ok=True)
        lock = directory / LOCK_NAME
        try:
            descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except FileNotFoundError:  # pruned between the two calls: make it again
            continue
        if fcntl is None:
            os.close(descriptor)
            return
        fcntl.flock(descriptor, fcntl.LOCK_SH)  # waits only while a pruner deletes this key
        if _same_file(descriptor, lock):
            os.utime(lock)  # the last use, for pruning
            _lock = descriptor
            return
        os.close(descriptor)  # it was deleted before the lock was ours: make it again
    raise OSError(f"could not lock the compiled cache at {directory}")


def _delete_unused(directory: Path, root: Path) -> bool:
    assert fcntl is not None
    lock = directory / LOCK_NAME
    try:
        descriptor = os.open(lock, os.O_RDWR)
    except OSError:  # no lock file: being created right now, or not ours
        return False
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # in use
        if not _same_file(descriptor, lock):
            return False
        # Renamed first, so that a process starting on this key makes a new directory
        # instead of using one half deleted.
        trash = root / f"{_TRASH_PREFIX}{directory.name}-{os.getpid()}"
        directory.rename(trash)
        shutil.rmtree(trash, ignore_errors=True)
        return True
    except OSError:
        return False
    finally:
        os.close(descriptor)


def _same_file(descriptor: int, path: Path) -> bool:
    try:
        named = path.stat()
    except FileNotFoundError:
        return False
    held = os.fstat(descriptor)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


def _last_used(directory: Path) -> float:
    try:
        return (directory / LOCK_NAME).stat().st_mtime
    except OSError:
        return 0.0


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:  # unreadable: keyed by its name alone
        return b""


def _numba_version() -> str:
    try:
        return metadata.version("numba")
    except metadata.PackageNotFoundError:
        return "unknown"


def _temporary_root() -> Path:
    import tempfile

    user = os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    return Path(tempfile.gettempdir()) / f"ludoteca-numba-{user}"


install()
