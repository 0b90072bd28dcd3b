"""Many logs at once (issue #28, "Club scale"): ``validate`` and ``audit``
over directories, zip and tar archives and lists of paths (adjudicator/bulk.py).

Every log here is self-played from a fixed seed. Results come in the order
the inputs are found, whatever the number of worker processes; archive
members are named ``ARCHIVE:MEMBER`` and never extracted; links, special
files and oversized members are reported, not read; and the enumeration is
consumed lazily, a bounded window ahead of the results (checked by counting,
not by timing or by memory use).
"""

from __future__ import annotations

import io
import json
import tarfile
import zipfile
from operator import attrgetter
from pathlib import Path

import jsonschema
import msgspec
import pytest
from typer.testing import CliRunner

from adjudicator import bulk, log as logmod, match, textform
from adjudicator.cli import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def run(*args: object, input: bytes | str | None = None):
    r = runner.invoke(app, [str(a) for a in args], input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output
    return r


def simulated(i: int) -> bytes:
    """A small finished log, different for every ``i`` (fixed seeds)."""
    game, players = [("turn-of-time", ("ann", "bob", "cy")), ("atlas", ("ann", "bob"))][i % 2]
    return logmod.encode(match.simulate(game, players, f"bulk-test-{i}"))


LOGS = [simulated(i) for i in range(4)]


def broken(data: bytes) -> bytes:
    """``data`` with its third move made nonsense: bad from move 3."""
    d = json.loads(data)
    d["moves"][2]["move"] = "nonsense"
    return json.dumps(d).encode()


def zipped(path: Path, members: list[tuple[str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            z.writestr(name, data)
    return path


def tarred(path: Path, members: list[tuple[str, bytes]], mode: str = "w:gz") -> Path:
    with tarfile.open(path, mode) as t:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return path


def labels(text: str) -> list[str]:
    """The log each line names, in order."""
    out = []
    for line in text.splitlines():
        name = line[3:] if line.startswith("ok ") else line
        out.append(name.split(": ", 1)[0])
    return out


# --- directories -------------------------------------------------------------------------------


def test_a_directory_tree_in_name_order(tmp_path: Path) -> None:
    club = tmp_path / "club"
    (club / "round-2" / "late").mkdir(parents=True)
    (club / "round-1").mkdir()
    (club / ".git").mkdir()
    (club / "round-1" / "b.json").write_bytes(LOGS[0])
    (club / "round-1" / "a.JSON").write_bytes(LOGS[1])
    (club / "round-2" / "late" / "c.txt").write_text(textform.dumps(logmod.decode(LOGS[2])))
    (club / "round-2" / "d.eml").write_text("From: ann@example.org\nSubject: our game\n\n"
                                            + textform.dumps(logmod.decode(LOGS[3])))
    (club / "top.json").write_bytes(LOGS[0])
    # Not logs: skipped unread (a secret file, hidden files, other names).
    (club / "top.secret.json").write_text("{ not read")
    (club / ".top.json.lock").write_text("")
    (club / ".git" / "x.json").write_text("{ not read")
    (club / "notes.md").write_text("not a log")
    (club / "round-1" / "old.zip").write_text("archives in a directory are not opened")
    r = run("validate", club)
    assert r.exit_code == 0, r.output
    assert labels(r.stdout) == [str(club / p) for p in (
        "round-1/a.JSON", "round-1/b.json", "round-2/d.eml", "round-2/late/c.txt", "top.json")]
    assert r.stderr == "5 logs checked, 0 bad\n"


def test_a_link_in_a_directory_is_not_followed(tmp_path: Path) -> None:
    (tmp_path / "real.json").write_bytes(LOGS[0])
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    (tmp_path / "loop").symlink_to(tmp_path)  # a linked directory: not entered
    r = run("validate", tmp_path)
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0] == (f"{tmp_path / 'link.json'}: a symbolic link: not followed "
                                        "in a directory (name the file itself to read it)")
    assert labels(r.stdout) == [str(tmp_path / "real.json")]
    assert run("validate", tmp_path / "link.json").exit_code == 0  # named, it is read


def test_no_log_found(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("nothing here")
    r = run("validate", tmp_path)
    assert r.exit_code == 1
    assert r.stderr == "Error: no log found in the directories, archives or lists given\n"


# --- archives ----------------------------------------------------------------------------------


def test_a_zip_in_archive_order(tmp_path: Path) -> None:
    archive = zipped(tmp_path / "season.zip", [("z.json", LOGS[0]), ("games/a.json", LOGS[1]),
                                               ("games/", b""), ("readme.md", b"not a log"),
                                               ("m.txt", textform.dumps(logmod.decode(LOGS[2])).encode())])
    r = run("validate", archive)
    assert r.exit_code == 0, r.output
    assert labels(r.stdout) == [f"{archive}:z.json", f"{archive}:games/a.json", f"{archive}:m.txt"]
    assert r.stdout.startswith(f"ok {archive}:z.json: turn-of-time, ")
    assert r.stderr == "3 logs checked, 0 bad\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["season.zip"]  # nothing extracted


@pytest.mark.parametrize("ending", ["tar", "tar.gz", "tgz", "tar.bz2", "tar.xz"])
def test_a_tar_in_archive_order(tmp_path: Path, ending: str) -> None:
    mode = {"tar": "w", "tar.gz": "w:gz", "tgz": "w:gz", "tar.bz2": "w:bz2", "tar.xz": "w:xz"}[ending]
    archive = tarred(tmp_path / f"season.{ending}", [("z.json", LOGS[0]), ("a/b.json", LOGS[1])], mode)
    r = run("validate", archive)
    assert r.exit_code == 0, r.output
    assert labels(r.stdout) == [f"{archive}:z.json", f"{archive}:a/b.json"]


def test_a_bad_log_in_an_archive_is_named_by_its_member(tmp_path: Path) -> None:
    archive = tarred(tmp_path / "s.tar.gz", [("good.json", LOGS[0]), ("r1/bad.json", broken(LOGS[1])),
                                             ("last.json", LOGS[2])])
    r = run("validate", archive)
    assert r.exit_code == 1
    (line,) = r.stderr.splitlines()[:-1]
    assert line.startswith(f"{archive}:r1/bad.json: move 3 "), line
    assert r.stderr.splitlines()[-1] == "3 logs checked, 1 bad"
    assert labels(r.stdout) == [f"{archive}:good.json", f"{archive}:last.json"]
    report = json.loads(run("validate", archive, "--json").stdout)
    assert [e["file"] for e in report] == [f"{archive}:good.json", f"{archive}:r1/bad.json",
                                           f"{archive}:last.json"]
    assert report[1]["error"]["move"] == 3 and not report[1]["valid"]


def test_tar_links_and_devices_are_not_read(tmp_path: Path) -> None:
    archive = tmp_path / "evil.tar"
    with tarfile.open(archive, "w") as t:
        for name, kind, target in (("sym.json", tarfile.SYMTYPE, "/etc/passwd"),
                                   ("hard.json", tarfile.LNKTYPE, "ok.json"),
                                   ("dev.json", tarfile.CHRTYPE, ""),
                                   ("fifo.json", tarfile.FIFOTYPE, "")):
            info = tarfile.TarInfo(name)
            info.type, info.linkname = kind, target
            t.addfile(info)
        info = tarfile.TarInfo("ok.json")
        info.size = len(LOGS[0])
        t.addfile(info, io.BytesIO(LOGS[0]))
    r = run("validate", archive)
    assert r.exit_code == 1
    assert r.stderr.splitlines() == [
        f"{archive}:sym.json: a symbolic link: not read",
        f"{archive}:hard.json: a hard link: not read",
        f"{archive}:dev.json: not a regular file: not read",
        f"{archive}:fifo.json: not a regular file: not read",
        "5 logs checked, 4 bad",
    ]
    assert labels(r.stdout) == [f"{archive}:ok.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["evil.tar"]


def test_zip_member_names_are_only_labels(tmp_path: Path) -> None:
    inner = tmp_path / "inner"
    inner.mkdir()
    archive = zipped(inner / "evil.zip", [("../escaped.json", LOGS[0]), ("/abs/x.json", LOGS[1]),
                                          ("a/../../up.json", broken(LOGS[2]))])
    link = zipfile.ZipInfo("link.json")
    link.external_attr = (0o120777 << 16)  # a symbolic link made on Unix
    with zipfile.ZipFile(archive, "a") as z:
        z.writestr(link, "/etc/passwd")
    r = run("validate", archive)
    assert r.exit_code == 1
    assert labels(r.stdout) == [f"{archive}:../escaped.json", f"{archive}:/abs/x.json"]
    err = r.stderr.splitlines()
    assert err[0].startswith(f"{archive}:a/../../up.json: move 3 ")
    assert err[1] == f"{archive}:link.json: a symbolic link: not read"
    # Nothing was written anywhere.
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["evil.zip", "inner"]


def test_an_oversized_member_gets_one_line(tmp_path: Path) -> None:
    big = b" " * (bulk.MAX_LOG + 1)
    archive = zipped(tmp_path / "big.zip", [("big.json", big), ("ok.json", LOGS[0])])
    tar = tarred(tmp_path / "big.tgz", [("big.json", big), ("ok.json", LOGS[0])])
    for path in (archive, tar):
        r = run("validate", path)
        assert r.exit_code == 1
        assert r.stderr.splitlines() == [
            f"{path}:big.json: larger than 4 MiB ({bulk.MAX_LOG + 1} bytes): not read",
            "2 logs checked, 1 bad"]
        assert labels(r.stdout) == [f"{path}:ok.json"]


def test_what_is_neither_an_archive_nor_a_log(tmp_path: Path) -> None:
    fake_zip = tmp_path / "notes.zip"
    fake_zip.write_text("just notes")
    fake_tar = tmp_path / "notes.tar.gz"
    fake_tar.write_text("just notes")
    notes = tmp_path / "notes.md"
    notes.write_text("just notes")
    r = run("validate", fake_zip, fake_tar, notes, tmp_path / "missing.zip")
    assert r.exit_code == 1
    err = r.stderr.splitlines()
    assert len(err) == 5 and err[-1] == "4 logs checked, 4 bad"
    assert err[0].startswith(f"{fake_zip}: not a zip archive, or a damaged one")
    assert err[1].startswith(f"{fake_tar}: not a tar archive, or a damaged one")
    assert err[2].startswith(f"{notes}: holds no adjudicator log")
    assert err[3] == f"{tmp_path / 'missing.zip'}: no such file"


# --- lists of paths ----------------------------------------------------------------------------


def test_a_list_on_stdin(tmp_path: Path) -> None:
    a = tmp_path / "a.json"
    a.write_bytes(LOGS[0])
    archive = zipped(tmp_path / "b.zip", [("b.json", LOGS[1])])
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "c.json").write_bytes(LOGS[2])
    listing = f"{archive}\n\n{tmp_path / 'dir'}\r\n{a}\n{tmp_path / 'gone.json'}\n-\n"
    r = run("validate", "--files-from", "-", input=listing)
    assert r.exit_code == 1
    assert labels(r.stdout) == [f"{archive}:b.json", str(tmp_path / "dir" / "c.json"), str(a)]
    assert r.stderr.splitlines() == [
        f"{tmp_path / 'gone.json'}: no such file",
        "-: stdin holds the list of paths (--files-from -), not a log",
        "5 logs checked, 2 bad"]
    (tmp_path / "list.txt").write_text(f"{a}\n{archive}\n")
    r = run("validate", a, "-T", tmp_path / "list.txt")  # the arguments first, then the list
    assert r.exit_code == 0
    assert labels(r.stdout) == [str(a), str(a), f"{archive}:b.json"]


def test_list_usage_errors(tmp_path: Path) -> None:
    r = run("validate", "-", "--files-from", "-", input="")
    assert r.exit_code == 2 and r.stderr.startswith("Error: ")
    r = run("validate", "--files-from", tmp_path / "nope.txt")
    assert r.exit_code == 1
    assert r.stderr.splitlines() == [f"Error: --files-from {tmp_path / 'nope.txt'}: cannot read: "
                                     "No such file or directory"]
    assert run("audit").exit_code == 2


def test_a_mix_in_order_on_two_processes(tmp_path: Path) -> None:
    """Files, a directory, a zip, a tar.gz and a list, with --jobs 2: the
    output is in the order given, the same as with one process."""
    expected = []
    (tmp_path / "dir").mkdir()
    args: list[object] = []
    for i in range(4):
        p = tmp_path / f"f{i}.json"
        p.write_bytes(LOGS[i] if i != 2 else broken(LOGS[i]))
        args.append(p)
        expected.append(str(p))
    for i in range(6):
        (tmp_path / "dir" / f"{i:02}.json").write_bytes(LOGS[i % 4])
    args.append(tmp_path / "dir")
    expected += [str(tmp_path / "dir" / f"{i:02}.json") for i in range(6)]
    members = [(f"m{i}.json", LOGS[(i * 3) % 4]) for i in range(10)]
    args.append(zipped(tmp_path / "z.zip", members))
    expected += [f"{tmp_path / 'z.zip'}:m{i}.json" for i in range(10)]
    args.append(tarred(tmp_path / "t.tar.gz", members[::-1]))
    expected += [f"{tmp_path / 't.tar.gz'}:m{i}.json" for i in reversed(range(10))]
    listing = "\n".join(str(p) for p in args[:2]) + "\n"
    expected += expected[:2]
    outs = {}
    for jobs in ("1", "2"):
        r = run("validate", "--jobs", jobs, *args, "--files-from", "-", input=listing)
        assert r.exit_code == 1
        outs[jobs] = r
        merged = [line for line in (r.stdout + r.stderr).splitlines() if not line[0].isdigit()]
        assert sorted(labels("\n".join(merged))) == sorted(expected)
        assert labels(r.stdout) == [e for e in expected if not e.endswith("f2.json")]
        assert labels(r.stderr)[:-1] == [str(tmp_path / "f2.json")] * 1
    assert outs["1"].stdout == outs["2"].stdout and outs["1"].stderr == outs["2"].stderr
    report = json.loads(run("validate", "--jobs", "2", "--json", *args).stdout)
    assert [e["file"] for e in report] == expected[:-2]


# --- JSON, streamed ----------------------------------------------------------------------------


def test_json_is_the_list_printed_before(tmp_path: Path) -> None:
    """The list is written item by item, byte for byte the text of the
    whole list at once (the format of validate --json for files)."""
    paths = []
    for i in range(3):
        paths.append(tmp_path / f"{i}.json")
        paths[-1].write_bytes(LOGS[i])
    r = run("validate", "--json", *paths)
    whole = json.loads(r.stdout)
    assert r.stdout == msgspec.json.format(msgspec.json.encode(whole), indent=2).decode() + "\n"


def test_audit_many(tmp_path: Path) -> None:
    archive = zipped(tmp_path / "a.zip", [("good.json", LOGS[0]), ("bad.json", broken(LOGS[1]))])
    r = run("audit", archive, tmp_path / "none.json")
    assert r.exit_code == 1
    assert r.stdout == f"ok {archive}:good.json: audit passed\n"
    err = r.stderr.splitlines()
    assert err[0].startswith(f"{archive}:bad.json: audit failed: digest chain: ")
    assert err[1:] == [f"{tmp_path / 'none.json'}: no such file", "3 logs audited, 2 failed"]
    r = run("audit", archive, "--json")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    schema = json.loads((ROOT / "notation" / "schemas" / "audits.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(data)
    assert [(e["file"], e["passed"]) for e in data] == [(f"{archive}:good.json", True),
                                                        (f"{archive}:bad.json", False)]
    one = tmp_path / "one.json"
    one.write_bytes(LOGS[0])
    r = run("audit", one)  # one log: the report, as ever
    assert r.exit_code == 0 and r.stdout.startswith(f"Audit of {one}:\n  ok   header: ")


# --- bounded memory ----------------------------------------------------------------------------


class Counted:
    """Sources made on demand, counting how many were taken."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.taken = 0

    def __iter__(self):
        for i in range(self.n):
            self.taken += 1
            yield bulk.Source(f"log-{i:04}.json")


@pytest.mark.parametrize(("jobs", "chunk", "ahead", "early"),
                         [(1, 16, 2, False), (2, 2, 1, False), (2, 5, 2, False), (2, 3, 2, True)])
def test_sources_are_taken_a_bounded_window_ahead(jobs: int, chunk: int, ahead: int,
                                                  early: bool) -> None:
    """However many sources, only a window of them is taken ahead of the
    results consumed (so neither they nor their results pile up)."""
    sources = Counted(300)
    limit = bulk.window(jobs, chunk, ahead)
    assert limit < 100
    got = []
    for label in bulk.ordered(attrgetter("label"), sources, jobs=jobs, chunk=chunk, ahead=ahead,
                              early=early):
        got.append(label)
        assert sources.taken - len(got) <= limit - 1
        if len(got) == 1:
            assert sources.taken <= limit  # lazily: not the whole enumeration first
    assert got == [f"log-{i:04}.json" for i in range(300)]


def test_batches_grow_and_are_cut_by_size() -> None:
    big = bulk.Source("x", data=b"x" * (bulk.BATCH_BYTES // 2))
    small = bulk.Source("y")
    sizes = [len(b) for b in bulk.batches([small] * 20 + [big] * 5, chunk=16)]
    assert sizes == [1, 2, 4, 8, 7, 2, 1]  # growing to 16, but two big logs fill one
    assert [len(b) for b in bulk.batches([small] * 60, chunk=16)] == [1, 2, 4, 8, 16, 16, 13]


def test_a_tar_is_read_as_a_stream(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """tarfile keeps every member it has read; the enumeration empties that
    list as it goes, and gives each member as soon as it is read."""
    archive = tarred(tmp_path / "s.tar", [(f"{i}.json", LOGS[i % 4]) for i in range(50)], "w")
    held = []
    read = tarfile.TarFile.next

    def spy(self: tarfile.TarFile) -> tarfile.TarInfo | None:
        held.append(len(self.members))
        return read(self)

    monkeypatch.setattr(tarfile.TarFile, "next", spy)
    sources = iter(bulk.Inputs([str(archive)]))
    first = next(sources)
    assert first.label == f"{archive}:0.json" and first.data == LOGS[0]
    assert len(held) <= 2
    assert sum(1 for _ in sources) == 49
    assert max(held) <= 1


def test_names_taken_for_logs() -> None:
    assert bulk.is_log_name("a/b.json") and bulk.is_log_name("x.TXT") and bulk.is_log_name("m.eml")
    assert bulk.is_log_name("../up.json")
    for name in ("game.secret.json", ".hidden.json", "__MACOSX/._a.json", ".git/x.json", "a.md",
                 "a.zip", "dir/"):
        assert not bulk.is_log_name(name), name


def test_the_inputs_say_whether_the_count_is_known(tmp_path: Path) -> None:
    assert bulk.Inputs(["a.json", "b.json"]).count == 2
    assert bulk.Inputs([str(tmp_path)]).count is None
    assert bulk.Inputs(["x.tar.gz"]).count is None
    assert bulk.Inputs(["a.json"]).single and not bulk.Inputs(["a.zip"]).single
