"""Snapshots with git: a repository of its own (GIT_DIR in the store), the workspace as work tree.

The person's repository, index and stash are never read or written: the snapshot repository
has its own GIT_DIR and its own index file. Its index keeps every file's stat data, so a
checkpoint lists what changed by stat (`ls-files -m -o`, with the untracked cache) and hashes
only those files; unchanged trees are not written again.

Left out of snapshots: what `.gitignore` ignores, `.git` itself, files over 10 MB (and files
git cannot read, named like them), anything that is not a regular file or a symbolic link,
nested repositories, tether's data directory when it lies inside the workspace, and the
files tether itself writes there (`own`: the person's remembered answers), so that no undo
or rewind takes them away and no "prompt N changed" line counts them.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path

from tether.checkpoints.blobs import BlobReader, blob_id
from tether.checkpoints.files import MAX_SNAPSHOT_BYTES, Blob, FileMode, FileState
from tether.checkpoints.git import Git
from tether.checkpoints.store import LineCount, Snapshot, StoreKind, store_lock
from tether.errors import CheckpointError
from tether.gitenv import VERBATIM_ATTRIBUTES

__all__ = ["GitStore"]

_CONFIG = (
    ("core.repositoryformatversion", "0"),
    ("core.bare", "false"),
    ("core.autocrlf", "false"),
    ("core.safecrlf", "false"),
    ("core.fsmonitor", "false"),
    ("core.untrackedCache", "true"),
    ("core.splitIndex", "true"),
    ("core.quotePath", "false"),
    ("core.symlinks", "true"),
    ("core.fileMode", "true"),
    ("core.hooksPath", os.devnull),
    ("index.version", "4"),
    ("splitIndex.sharedIndexExpire", "now"),
    ("gc.auto", "0"),
    ("gc.pruneExpire", "never"),
    ("gc.reflogExpire", "never"),
    ("pack.threads", "1"),
)
"""The snapshot repository's settings: stat-cached scans, no conversions, nothing pruned."""


_BATCH_PATHS = 200
_MAX_FAILED = 64
"""Files one checkpoint leaves out because git could not read them, before it fails."""
_UNPROCESSED = re.compile(r"Unable to process path (.+)$", re.MULTILINE)
"""git's `update-index` on the path it could not save (the others before it were saved)."""
MAX_FILES = 250_000
"""A workspace listing more new or changed files than this at once is not snapshotted."""
_PACK_AFTER = 256
"""Loose objects counted before they are packed (small objects cost a disk block each)."""


class GitStore:
    """The git snapshot store of one workspace."""

    kind: StoreKind = "git"

    def __init__(
        self,
        directory: Path,
        root: Path,
        binary: str,
        excluded: Sequence[Path],
        own: Sequence[str] = (),
    ) -> None:
        self.directory = directory
        self.root = root
        self._index = directory / "index"
        self._lock = directory / "lock"
        self.git = Git(binary, directory / "git", root, self._index)
        self._excluded = tuple(excluded)
        self._own = tuple(own)
        self._new_objects = 0
        self._fresh: list[tuple[str, str]] = []
        """Small steps since the last pack: (the tree before, the tree after)."""

    @classmethod
    def open(
        cls,
        directory: Path,
        root: Path,
        binary: str,
        excluded: Sequence[Path] = (),
        own: Sequence[str] = (),
    ) -> GitStore:
        """The store in `directory` for the workspace `root`, created on first use.

        `excluded` are directories never saved (tether's own data when it is inside `root`),
        `own` the files (relative to `root`) tether writes itself, never saved either.
        """
        directory.mkdir(parents=True, exist_ok=True)
        store = cls(directory, root, binary, excluded, own)
        with store.locked():
            store._init()
        return store

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the store's lock; a git lock file left by a killed process is removed first."""
        with store_lock(self._lock) as held:
            # Every git command on this store runs holding our lock (it inherits the
            # descriptor), so a lock file of git's found now was left by a killed git.
            for stale in (self._index.with_name("index.lock"), self.git.git_dir / "index.lock"):
                with contextlib.suppress(FileNotFoundError):
                    stale.unlink()
            self.git.held = held
            try:
                yield
            finally:
                self.git.held = None

    def _init(self) -> None:
        git_dir = self.git.git_dir
        (self.directory / "workspace").write_text(f"{self.root}\n", encoding="utf-8")
        if not (git_dir / "HEAD").is_file():
            # What `git init` makes, without a process: the objects, refs and config.
            for sub in ("objects/info", "objects/pack", "refs/heads", "refs/tags", "info"):
                (git_dir / sub).mkdir(parents=True, exist_ok=True)
            (git_dir / "config").write_text(_config_text(), encoding="utf-8")
            (git_dir / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
        info = git_dir / "info"
        (info / "attributes").write_text(VERBATIM_ATTRIBUTES, encoding="utf-8")
        excluded = _exclude_lines(self.root, self._excluded) + _own_lines(self._own)
        (info / "exclude").write_text(excluded, encoding="utf-8")

    def snapshot(self, previous: str | None) -> Snapshot:
        """Save the workspace: update the index from what changed by stat, write its tree."""
        with self.locked():
            listed = self.git.run("ls-files", "-z", "-m", "-o", "--exclude-standard")
            if listed.count(b"\0") > MAX_FILES:
                raise CheckpointError(
                    f"{self.root} has more than {MAX_FILES:,} files to save; "
                    "checkpoints are off for it (a .gitignore can leave some out)"
                )
            update, drop, skipped = self._sort(_split(listed))
            # A store made before a file was tether's own may hold it: it goes now.
            drop.extend(self._own)
            if update:
                skipped += self._update(update)
            if drop:
                self.git.run("update-index", "-z", "--force-remove", "--stdin", stdin=_joined(drop))
            tree = self.git.run("write-tree").decode().strip()
            changed: tuple[str, ...] = ()
            if previous is not None and previous != tree:
                changed = tuple(self.diff(previous, tree))
            if previous is not None and changed and len(changed) < _PACK_AFTER:
                # A small step: its few objects (blobs and the trees above them) are packed
                # once enough have piled up. A large one's stay loose: packing them could
                # take long, and they would gain little.
                self._fresh.append((previous, tree))
                self._new_objects += 2 * len(changed) + 1
                if self._new_objects > _PACK_AFTER:
                    self._pack()
        return Snapshot(tree, changed, tuple(skipped))

    def _update(self, paths: list[str]) -> list[str]:
        """Save `paths` in the index; those git could not read (left as last saved, so the
        checkpoint names them instead of failing whole, and no later one fails on them)."""
        failed: list[str] = []
        left = paths
        while left:
            try:
                self.git.run(
                    "update-index",
                    "-z",
                    "--add",
                    "--remove",
                    "--replace",
                    "--stdin",
                    stdin=_joined(left),
                )
                break
            except CheckpointError as exc:
                bad = _UNPROCESSED.search(str(exc))
                if bad is None or bad.group(1) not in left or len(failed) >= _MAX_FAILED:
                    raise
                failed.append(bad.group(1))
                left = [p for p in left if p != bad.group(1)]  # those before it: saved again
        return failed

    def _sort(self, paths: Iterator[str]) -> tuple[list[str], list[str], list[str]]:
        """The listed paths: to update (files, links, deleted ones), to drop, and too large."""
        update: list[str] = []
        drop: list[str] = []
        skipped: list[str] = []
        seen: set[str] = set()
        folders: dict[str, bool] = {}
        # Joined as strings: a first checkpoint stats every file, and a `Path` per file cost
        # more than the stat itself.
        prefix = os.path.join(os.fspath(self.root), "")
        for path in paths:
            if path in seen or path.endswith("/"):
                continue  # listed twice (modified and deleted), or a nested repository
            seen.add(path)
            if not self._in_folders(path, folders):
                # A folder on its way is a symbolic link (or a file) now: the path is gone,
                # and git would refuse it as `beyond a symbolic link`. The link itself is
                # listed on its own.
                drop.append(path)
                continue
            try:
                info = os.lstat(prefix + path)
            except FileNotFoundError:
                update.append(path)  # deleted: `--remove` drops it
                continue
            except OSError:
                drop.append(path)
                continue
            if stat.S_ISLNK(info.st_mode):
                update.append(path)
            elif not stat.S_ISREG(info.st_mode):
                drop.append(path)  # a directory where a file was, a FIFO, a device
            elif info.st_size > MAX_SNAPSHOT_BYTES:
                drop.append(path)
                skipped.append(path)
            else:
                update.append(path)
        return update, drop, skipped

    def _in_folders(self, path: str, folders: dict[str, bool]) -> bool:
        """Whether each folder on the way to `path` is a real folder (not a link), with the
        answers cached in `folders`."""
        parts = path.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folder = "/".join(parts[:depth])
            if folder not in folders:
                try:
                    mode = os.lstat(self.root / folder).st_mode
                    folders[folder] = stat.S_ISDIR(mode)
                except OSError:
                    folders[folder] = False
            if not folders[folder]:
                return False
        return True

    def _pack(self) -> None:
        # Each loose object takes a disk block; packed, a checkpoint's trees delta well. No
        # ref holds the trees (the logs do): the small steps' trees name what to pack, less
        # what the trees they started from already held.
        after = dict.fromkeys(new for _, new in self._fresh)
        before = dict.fromkeys(old for old, _ in self._fresh if old not in after)
        trees = "".join(f"{t}\n" for t in after) + "".join(f"^{t}\n" for t in before)
        pack = str(self.git.git_dir / "objects" / "pack" / "pack")
        self.git.run(
            "pack-objects",
            "--revs",
            "--unpacked",
            "--incremental",
            "-q",
            pack,
            stdin=trees.encode(),
        )
        self.git.run("prune-packed", "-q")
        self._new_objects = 0
        self._fresh.clear()

    def track(self, previous: str | None, paths: Sequence[str]) -> None:
        """Nothing to do: every snapshot saves the whole workspace."""

    def states(self, tree: str, paths: Collection[str]) -> dict[str, FileState]:
        """What `tree` holds for each path (`None`: no such file then)."""
        wanted = set(paths)
        found: dict[str, FileState] = dict.fromkeys(wanted)
        if not wanted:
            return found
        if len(wanted) > _BATCH_PATHS:
            batches: list[list[str]] = [[]]  # the whole tree at once
        else:
            batches = [sorted(wanted)]
        for batch in batches:
            listed = self.git.run("ls-tree", "-r", "-z", "--full-tree", tree, "--", *batch)
            for entry in _split(listed):
                meta, _, path = entry.partition("\t")
                mode, kind, oid = meta.split(" ")
                if path in wanted and kind == "blob" and mode in ("100644", "100755", "120000"):
                    found[path] = Blob(oid, _mode(mode))
        return found

    def origins(self, tree: str, paths: Collection[str]) -> dict[str, FileState]:
        """Nothing: a git tree knows every path."""
        return {}

    def diff(self, old: str, new: str) -> list[str]:
        """The paths whose content, mode or presence differs between two trees."""
        listed = self.git.run("diff-tree", "-r", "-z", "--name-only", "--no-renames", old, new)
        return list(_split(listed))

    def line_counts(self, old: str, new: str) -> list[LineCount]:
        """Lines added and deleted per path between two trees (binary files count `None`)."""
        listed = self.git.run("diff-tree", "-r", "-z", "--numstat", "--no-renames", old, new)
        counts = []
        for entry in _split(listed):
            added, deleted, path = entry.split("\t", 2)
            counts.append(
                LineCount(
                    path,
                    None if added == "-" else int(added),
                    None if deleted == "-" else int(deleted),
                )
            )
        return counts

    def content(self, oid: str) -> bytes:
        """The bytes of a blob."""
        return self.git.run("cat-file", "blob", blob_id(oid))

    @contextlib.contextmanager
    def blobs(self) -> Iterator[Callable[[str], bytes]]:
        """A reader of many blobs through one `git cat-file --batch`."""
        reader = BlobReader(self.git.popen("cat-file", "--batch"))
        try:
            yield reader.read
        finally:
            reader.close()


def _config_text() -> str:
    sections: dict[str, list[str]] = {}
    for key, value in _CONFIG:
        section, name = key.split(".")
        sections.setdefault(section, []).append(f"\t{name} = {value}\n")
    return "".join(f"[{section}]\n" + "".join(lines) for section, lines in sections.items())


def _mode(text: str) -> FileMode:
    match text:
        case "100755":
            return "100755"
        case "120000":
            return "120000"
        case _:
            return "100644"


def _split(output: bytes) -> Iterator[str]:
    for item in output.split(b"\0"):
        if item:
            yield os.fsdecode(item)


def _joined(paths: Sequence[str]) -> bytes:
    return b"".join(os.fsencode(p) + b"\0" for p in paths)


_GLOB = re.compile(r"([*?\[\\!# ])")


def _own_lines(own: Sequence[str]) -> str:
    """`info/exclude` lines for the files tether writes itself (paths relative to the root)."""
    return "".join("/" + _GLOB.sub(r"\\\1", path) + "\n" for path in own)


def _exclude_lines(root: Path, excluded: Sequence[Path]) -> str:
    """`info/exclude` lines for the directories inside `root` that are never saved."""
    lines = []
    for path in excluded:
        if path != root and path.is_relative_to(root):
            relative = path.relative_to(root).as_posix()
            lines.append("/" + _GLOB.sub(r"\\\1", relative) + "/")
    return "".join(f"{line}\n" for line in lines)
