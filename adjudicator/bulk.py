"""Many logs at once: the logs a command names, found and checked in order.

A club's organiser checks a season of logs in one command: files,
directories (searched recursively), zip and tar archives, and lists of
paths (a file, or standard input). :class:`Inputs` enumerates them lazily as
:class:`Source` values, in the order given; :func:`ordered` checks them on
every core and gives the results in that same order, each as soon as it and
those before it are ready. Memory stays bounded whatever the number of logs:
sources are taken from the enumeration only a bounded window ahead of the
results consumed (:func:`window`), and nothing is kept once consumed.

Which files are logs, in a directory or an archive (a file named on the
command line or in a list is always read as a log, whatever its name):

- names ending in ``.json`` (JSON), ``.txt`` (the text form, or a pasted
  mail body) or ``.eml`` (a mail message), in any case;
- but not ``*.secret.json`` (a referee's secret file: never read here) and
  nothing hidden (a name, or a directory on its path, starting with ``.``:
  lock files, temporary files, ``.git``, ``__MACOSX/._*``);
- archives inside a directory or an archive are not opened.

A log-named entry that cannot be read safely is reported, not read: a
symbolic or hard link (never followed: in a directory, name the file itself
to read it), a device or other special file, an encrypted zip member, and a
log larger than :data:`MAX_LOG`. Archive members are read into memory and
named ``ARCHIVE:MEMBER``; nothing is ever extracted to disk, so a member
named ``../x.json`` or ``/etc/x.json`` is only a label.
"""

from __future__ import annotations

import os
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, islice
from typing import TypeVar

import msgspec

from .errors import AdjudicatorError, UsageError

#: The largest log read from a directory or an archive: the bound the
#: referee by mail puts on a message (``postal.incoming.MAX_MESSAGE``); a
#: game's log is a few hundred kilobytes at most.
MAX_LOG = 4 * 1024 * 1024

#: The endings of the names taken for logs in a directory or an archive.
LOG_ENDINGS = (".json", ".txt", ".eml")
#: Names with a log's ending that are not logs (a referee's secret file, an
#: event's standings in its archive).
NOT_LOGS = (".secret.json", ".standings.json")
ZIP_ENDINGS = (".zip",)
TAR_ENDINGS = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz", ".txz")

#: Fewer sources than this are checked in this process: a pool of worker
#: processes costs more to start than a few logs take to check.
FEW = 8
#: Sources sent to a worker at once, at most (:func:`batches` grow to it).
CHUNK = 16
#: Batches waiting or in progress per worker process.
AHEAD = 2
#: A batch is sent once the logs read into it hold this many bytes.
BATCH_BYTES = 256 * 1024


class Source(msgspec.Struct, frozen=True):
    """One log to check: ``label`` names it in the output (a path, ``-``
    for standard input, ``ARCHIVE:MEMBER``); ``data`` is its bytes when
    already read (standard input, an archive member), None to read the file
    at ``label``; ``problem`` says why it is not read (then there is no
    data), e.g. ``a symbolic link: not followed``."""

    label: str
    data: bytes | None = None
    problem: str | None = None

    def failure(self) -> AdjudicatorError | None:
        """The error that says :attr:`problem`, naming the label; None when there is none."""
        return None if self.problem is None else AdjudicatorError(f"{self.label}: {self.problem}")


# --- which inputs -------------------------------------------------------------------------------


def is_log_name(name: str) -> bool:
    """Whether a file found in a directory or an archive (``name``: its path
    there, ``/``-separated) is taken for a log."""
    parts = name.replace("\\", "/").split("/")
    if any(p.startswith(".") and p not in (".", "..") for p in parts):
        return False
    base = parts[-1].lower()
    return base.endswith(LOG_ENDINGS) and not base.endswith(NOT_LOGS)


def archive_kind(path: str) -> str | None:
    """``zip`` or ``tar`` for a path named as an archive, else None."""
    lower = path.lower()
    if lower.endswith(ZIP_ENDINGS):
        return "zip"
    if lower.endswith(TAR_ENDINGS):
        return "tar"
    return None


def expands(path: str) -> bool:
    """Whether ``path`` names many logs: a directory or an archive."""
    return path != "-" and (os.path.isdir(path) or archive_kind(path) is not None)


def too_large(size: int) -> str:
    return f"larger than {MAX_LOG // (1024 * 1024)} MiB ({size} bytes): not read"


class Inputs:
    """The logs a command names: ``paths`` (files, ``-`` for a log on
    standard input, directories, archives), then the paths listed one a line
    in the file ``files_from`` (``-``: standard input), each of which may
    again be a file, a directory or an archive. Iterating gives every log as
    a :class:`Source`, lazily, in that order.

    >>> [s.label for s in Inputs(["examples/q-turn"])][:1]
    ['examples/q-turn/2-players-sample.json']
    """

    def __init__(self, paths: Sequence[str], files_from: str | None = None) -> None:
        if not paths and files_from is None:
            raise UsageError("no log given: name log files, directories or archives, "
                             "or a list of them with --files-from FILE")
        if files_from == "-" and "-" in paths:
            raise UsageError("'-' (a log on stdin) and '--files-from -' (a list on stdin) "
                             "cannot both read stdin")
        if files_from not in (None, "-"):
            try:
                with open(files_from, "rb"):
                    pass
            except OSError as e:
                raise AdjudicatorError(f"--files-from {files_from}: cannot read: "
                                       f"{e.strerror or e}") from None
        self.paths = list(paths)
        self.files_from = files_from
        #: A directory, an archive or a list is among them: how many logs
        #: there are is known only once they are all found.
        self.expanded = files_from is not None or any(map(expands, self.paths))

    @property
    def count(self) -> int | None:
        """How many logs there are, when known beforehand (a plain list of files)."""
        return None if self.expanded else len(self.paths)

    @property
    def single(self) -> bool:
        """One log file (or ``-``), named as such: ``audit`` then gives its full report."""
        return not self.expanded and len(self.paths) == 1

    def names(self) -> Iterator[str]:
        """The paths given, then those listed in ``files_from``."""
        yield from self.paths
        if self.files_from is not None:
            yield from listed(self.files_from)

    def __iter__(self) -> Iterator[Source]:
        for path in self.names():
            if path == "-" and self.files_from == "-":
                yield Source(path, problem="stdin holds the list of paths (--files-from -), not a log")
            else:
                yield from sources(path)


def listed(path: str) -> Iterator[str]:
    """The paths listed in the file ``path`` (``-``: standard input), one a
    line, read as they are needed; empty lines are skipped."""
    stream = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115 (closed below)
    try:
        for line in stream:
            name = line.rstrip(b"\r\n")
            if name:
                yield os.fsdecode(name)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def sources(path: str) -> Iterator[Source]:
    """The logs ``path`` names: itself, those under it (a directory) or in it (an archive)."""
    if path == "-":
        yield Source(path, data=sys.stdin.buffer.read())
    elif os.path.isdir(path):
        yield from in_directory(path)
    elif archive_kind(path) == "zip":
        yield from in_zip(path)
    elif archive_kind(path) == "tar":
        yield from in_tar(path)
    else:
        yield Source(path)


def in_directory(root: str) -> Iterator[Source]:
    """The logs under the directory ``root``, depth first in name order;
    symbolic links are not followed. Each directory's names are listed (and
    sorted) when it is reached."""

    def listing(folder: str) -> list[str] | Source:
        try:
            return sorted(os.listdir(folder))
        except OSError as e:
            return Source(folder, problem=f"cannot read the directory: {e.strerror or e}")

    first = listing(root)
    if isinstance(first, Source):
        yield first
        return
    stack: list[tuple[str, Iterator[str]]] = [(root, iter(first))]
    while stack:
        folder, names = stack[-1]
        name = next(names, None)
        if name is None:
            stack.pop()
            continue
        if name.startswith("."):
            continue
        path = os.path.join(folder, name)
        try:
            mode = os.lstat(path)
        except OSError as e:
            if is_log_name(name):
                yield Source(path, problem=f"cannot read: {e.strerror or e}")
            continue
        if stat.S_ISDIR(mode.st_mode):
            inner = listing(path)
            if isinstance(inner, Source):
                yield inner
            else:
                stack.append((path, iter(inner)))
        elif is_log_name(name):
            if stat.S_ISLNK(mode.st_mode):
                yield Source(path, problem="a symbolic link: not followed in a directory "
                                           "(name the file itself to read it)")
            elif not stat.S_ISREG(mode.st_mode):
                yield Source(path, problem="not a regular file: not read")
            elif mode.st_size > MAX_LOG:
                yield Source(path, problem=too_large(mode.st_size))
            else:
                yield Source(path)


def in_zip(path: str) -> Iterator[Source]:
    """The logs in the zip archive ``path``, in the archive's order, read
    into memory (never extracted). zipfile reads the archive's directory of
    names whole when it opens it; the logs are read one at a time."""
    import zipfile

    try:
        archive = zipfile.ZipFile(path)
    except FileNotFoundError:
        yield Source(path, problem="no such file")
        return
    except Exception as e:  # whatever a file that is no zip makes zipfile raise
        yield Source(path, problem=f"not a zip archive, or a damaged one ({e})")
        return
    with archive:
        for info in archive.infolist():
            if info.is_dir() or not is_log_name(info.filename):
                continue
            label = f"{path}:{info.filename}"
            # The Unix file type, when the archive says one (zipfile's own
            # writestr gives permissions alone: a plain file).
            kind = stat.S_IFMT(info.external_attr >> 16)
            if kind == stat.S_IFLNK:
                yield Source(label, problem="a symbolic link: not read")
            elif kind not in (0, stat.S_IFREG):
                yield Source(label, problem="not a regular file: not read")
            elif info.flag_bits & 0x1:
                yield Source(label, problem="encrypted: not read")
            elif info.file_size > MAX_LOG:
                yield Source(label, problem=too_large(info.file_size))
            else:
                try:
                    with archive.open(info) as member:
                        data = member.read(MAX_LOG + 1)  # the size in the directory may lie
                except Exception as e:  # a damaged member, whatever the decompressor raises
                    yield Source(label, problem=f"cannot read it from the archive: {e}")
                    continue
                if len(data) > MAX_LOG:
                    yield Source(label, problem=too_large(info.file_size))
                else:
                    yield Source(label, data=data)


def in_tar(path: str) -> Iterator[Source]:
    """The logs in the tar archive ``path`` (plain or compressed with gzip,
    bzip2 or xz), read as a stream, in the archive's order, into memory
    (never extracted)."""
    import tarfile

    try:
        archive = tarfile.open(path, "r|*")  # noqa: SIM115 (closed below)
    except FileNotFoundError:
        yield Source(path, problem="no such file")
        return
    except Exception as e:  # whatever a file that is no tar makes tarfile raise
        yield Source(path, problem=f"not a tar archive, or a damaged one ({e})")
        return
    with archive:
        seen = 0
        while True:
            try:
                info = archive.next()
            except Exception as e:  # a damaged archive: nothing after this can be read
                yield Source(path, problem=f"damaged after {seen} members ({e})")
                return
            if info is None:
                return
            # tarfile remembers every member it has read (its list "members",
            # not in its documentation or its stubs): the archive is read once,
            # in order, and nothing needs them again.
            held = vars(archive).get("members")
            if isinstance(held, list):
                held.clear()
            seen += 1
            if info.isdir() or not is_log_name(info.name):
                continue
            label = f"{path}:{info.name}"
            if info.issym():
                yield Source(label, problem="a symbolic link: not read")
            elif info.islnk():
                yield Source(label, problem="a hard link: not read")
            elif not info.isreg():
                yield Source(label, problem="not a regular file: not read")
            elif info.size > MAX_LOG:
                yield Source(label, problem=too_large(info.size))
            else:
                try:
                    member = archive.extractfile(info)
                    data = b"" if member is None else member.read()
                except Exception as e:
                    yield Source(path, problem=f"damaged at {info.name!r} ({e})")
                    return
                yield Source(label, data=data)


# --- checking in order, on every core -----------------------------------------------------------

R = TypeVar("R")


def window(workers: int, chunk: int = CHUNK, ahead: int = AHEAD) -> int:
    """The most sources :func:`ordered` takes ahead of the results consumed."""
    return max(FEW, (workers * ahead + 1) * chunk)


def batches(sources: Iterable[Source], chunk: int = CHUNK) -> Iterator[list[Source]]:
    """``sources`` in lists of 1, 2, 4... up to ``chunk`` (so that a few logs
    still spread over the workers, and the first result comes soon), each cut
    once the logs read into it hold :data:`BATCH_BYTES`; none is taken
    before it is needed."""
    batch: list[Source] = []
    size = 0
    most = 1
    for source in sources:
        batch.append(source)
        size += len(source.data or b"")
        if len(batch) >= most or size >= BATCH_BYTES:
            yield batch
            batch, size, most = [], 0, min(chunk, most * 2)
    if batch:
        yield batch


def check_batch(check: Callable[[Source], R], batch: list[Source]) -> list[R]:
    """``check`` of every source of ``batch`` (module level: run in worker processes)."""
    return [check(source) for source in batch]


def ordered(check: Callable[[Source], R], sources: Iterable[Source], *, jobs: int | None = None,
            chunk: int = CHUNK, ahead: int = AHEAD, early: bool = False) -> Iterator[R]:
    """``check(source)`` for every source, in order, each given as soon as
    it and those before it are ready.

    With ``jobs`` worker processes (default: one per core) and at least
    :data:`FEW` sources, sources go to the workers in batches of at most
    ``chunk`` (:func:`batches`; ``ahead`` batches queued per worker). A batch
    is sent only when one is taken back, so at most :func:`window` sources
    are taken from ``sources`` ahead of the results consumed, and the
    results are given as they come back: the number of logs does not bound
    memory. With ``early`` (for sources found in directories and archives:
    how many is not known) the workers start before the first source is
    taken, whatever their number, so that a worker forked from this process
    carries nothing of an archive being read. ``check`` must be picklable (a
    module-level function, or a ``functools.partial`` of one) and must not
    raise for a bad log.
    """
    workers = jobs or os.cpu_count() or 1
    it = iter(sources)
    first: list[Source] = []
    if workers == 1 or not early:
        first = list(islice(it, FEW))
        if workers == 1 or len(first) < FEW:
            yield from map(check, chain(first, it))
            return
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(workers)
    try:
        if early:
            pool.submit(int).result()  # forked now (every worker at once, under "fork")
        todo = batches(chain(first, it), chunk)
        pending = deque(pool.submit(check_batch, check, batch)
                        for batch in islice(todo, workers * ahead))
        while pending:
            done = pending.popleft().result()
            # The next batch goes before these results are given, so the
            # workers stay busy while the caller prints them.
            for batch in islice(todo, 1):
                pending.append(pool.submit(check_batch, check, batch))
            yield from done
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
