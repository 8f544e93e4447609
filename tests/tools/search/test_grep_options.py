"""grep's options against ripgrep itself on one real tree: case, context, files, counts."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from pydantic import BaseModel

from tests.tools.search.support import grep, write
from tether.tools.card_context import CardContext
from tether.tools.invocation import parse_arguments
from tether.tools.search import GrepArgs, GrepTool
from tether.tools.search.grep import MAX_MATCHES
from tether.tools.search.rg import rg_binary
from tether.views import SearchFile, SearchMatch, SearchMatchesResultView, SearchPathsResultView

TREE = {
    "src/app.py": "import os\n\ndef Main():\n    TODO = 1\n    return main()\n\n\n\ndef main():\n"
    "    # todo: more\n    pass\n",
    "src/util.py": "x = 1\ny = 2\n# TODO later\nz = 3\n",
    "docs/notes.md": "Todo list\n- a\n- b\n- todo c\n- d\n- e\n- f\n- g\n- todo h\n",
    "README.md": "nothing here\n",
    ".gitignore": "build/\n",
    "build/gen.py": "TODO generated\n",
}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tree every case searches (read only)."""
    root = tmp_path_factory.mktemp("tree")
    write(root, dict(TREE))
    return root


def rg(tree: Path, *args: str) -> str:
    """What ripgrep itself prints for `args`."""
    run = subprocess.run(
        [str(rg_binary()), "--no-config", "--no-require-git", "--sort", "path", *args],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode in (0, 1), run.stderr
    return run.stdout


def as_rg_heading(text: str) -> str:
    """grep's text (`  N: line`, `  N- line`, `  --`) in ripgrep's `--heading -n` form."""
    out = []
    for block in text.split("\n\n")[:-1]:  # the footer goes
        path, *lines = block.split("\n")
        out.append(path)
        for line in lines:
            body = line.removeprefix("  ")
            if body == "--":
                out.append("--")
                continue
            number_and_mark, _, rest = body.partition(" ")  # `12:` or `12-`
            out.append(number_and_mark + rest)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(
    ("args", "flags"),
    [
        ({"pattern": "todo"}, []),
        ({"pattern": "todo", "ignore_case": True}, ["-i"]),
        ({"pattern": "todo", "ignore_case": True, "context": 2}, ["-i", "-C", "2"]),
        ({"pattern": "todo", "before_context": 1}, ["-B", "1"]),
        ({"pattern": "TODO", "after_context": 3}, ["-A", "3"]),
        ({"pattern": "main", "context": 1, "after_context": 4}, ["-B", "1", "-A", "4"]),
        ({"pattern": "todo", "ignore_case": True, "include": "*.md", "context": 1}, ["-i"]),
    ],
)
async def test_lines_and_context_are_what_ripgrep_prints(
    tree: Path, args: dict[str, object], flags: list[str]
) -> None:
    result = await grep(tree, **args)
    assert not result.is_error
    if "include" in args:
        flags = [*flags, "--glob", str(args["include"]), "-C", "1"]
    expected = rg(tree, "--heading", "-n", *flags, "--regexp", str(args["pattern"]))
    # ripgrep separates files with a blank line too: compare file by file.
    assert as_rg_heading(result.text()) == expected.replace("\n\n", "\n")


async def test_files_with_matches_and_count_are_what_ripgrep_prints(tree: Path) -> None:
    files = await grep(tree, pattern="todo", ignore_case=True, output_mode="files_with_matches")
    listed = sorted(files.text().splitlines())
    assert listed == sorted(rg(tree, "-i", "-l", "todo").splitlines())
    assert files.meta == {"paths": files.text().splitlines(), "truncated": False, "total": 3}

    counts = await grep(tree, pattern="todo", ignore_case=True, output_mode="count")
    *lines, _, footer = counts.text().split("\n")
    assert [line.replace(": ", ":") for line in lines] == rg(tree, "-i", "-c", "todo").split()
    assert footer == "(6 matches in 3 files)"
    ripgrep = [line.rpartition(":") for line in rg(tree, "-i", "-c", "todo").split()]
    ripgrep.sort(key=lambda found: found[0].split("/"))
    assert counts.meta == {
        "files": [{"path": p, "matches": [], "count": int(n)} for p, _, n in ripgrep],
        "truncated": False,
        "total": 6,
        "totalFiles": 3,
    }


async def test_the_cut_keeps_each_kept_match_with_its_own_context_only(tmp_path: Path) -> None:
    # 300 matches, one every 4 lines: the 250th match's after-context stays, the context
    # leading up to the 251st does not.
    write(tmp_path, {"a.txt": "".join(f"hit {i}\nx\ny\nz\n" for i in range(300))})
    result = await grep(tmp_path, pattern="hit", before_context=1, after_context=1)
    meta = result.meta
    assert isinstance(meta, dict) and meta["total"] == 300 and meta["truncated"] is True
    [file] = meta["files"]
    matches = [m for m in file["matches"] if not m.get("context")]
    assert len(matches) == MAX_MATCHES
    last = matches[-1]["lineNumber"]
    assert file["matches"][-1] == {"lineNumber": last + 1, "line": "x", "context": True}
    assert result.text().endswith(
        "(Showing 250 of 300 matches. Narrow the search with a "
        "more specific pattern, `path` or `include` to see the rest.)"
    )


async def test_counts_and_files_are_capped_with_the_exact_totals(tmp_path: Path) -> None:
    write(tmp_path, {f"d/f{i:03}.txt": "hit\nhit\n" for i in range(MAX_MATCHES + 20)})
    counts = await grep(tmp_path, pattern="hit", output_mode="count")
    assert isinstance(counts.meta, dict)
    assert len(counts.meta["files"]) == MAX_MATCHES and counts.meta["total"] == 540
    assert counts.meta["truncated"] is True
    assert counts.meta["files"][0] == {"path": "d/f000.txt", "matches": [], "count": 2}
    assert counts.text().endswith(
        "(Showing 250 of 270 files; 540 matches in 270 files. Narrow the search with a more "
        "specific pattern, `path` or `include`.)"
    )
    files = await grep(tmp_path, pattern="hit", output_mode="files_with_matches")
    assert isinstance(files.meta, dict)
    assert len(files.meta["paths"]) == MAX_MATCHES and files.meta["total"] == 270
    assert files.text().endswith(
        "(Showing the 250 most recently modified of 270 files. Narrow the search with a more "
        "specific pattern, `path` or `include` to see the rest.)"
    )


def test_claude_code_names_mean_the_same_and_minus_n_is_always_on() -> None:
    parsed = parse_arguments(
        GrepTool(),
        json.dumps(
            {
                "pattern": "x",
                "glob": "*.py",
                "-i": True,
                "-A": 1,
                "-B": 2,
                "-C": 3,
                "-n": True,
                "output_mode": "content",
            }
        ),
    )
    assert isinstance(parsed, BaseModel)
    assert parsed.model_dump(exclude_defaults=True) == {
        "pattern": "x",
        "include": "*.py",
        "ignore_case": True,
        "after_context": 1,
        "before_context": 2,
        "context": 3,
    }
    refused = parse_arguments(GrepTool(), '{"pattern": "x", "-n": false}')
    assert not isinstance(refused, BaseModel)
    assert "- -n: line numbers are always shown; leave -n out" in refused.text()
    too_much = parse_arguments(GrepTool(), '{"pattern": "x", "-C": 21}')
    assert not isinstance(too_much, BaseModel)
    assert "- context: Input should be less than or equal to 20" in too_much.text()


async def test_cards_and_titles_for_each_mode(tree: Path) -> None:
    tool = GrepTool()
    cases = [
        GrepArgs(pattern="TODO", ignore_case=True, context=1, path="src/util.py"),
        GrepArgs(pattern="todo", before_context=2, output_mode="count"),
        GrepArgs(pattern="todo", after_context=1, output_mode="files_with_matches"),
    ]
    titles = [tool.present_call(args, CardContext()).title for args in cases]
    assert titles == [
        "Grep TODO in src/util.py -i -C 1",
        "Grep todo -B 2 -c",
        "Grep todo -A 1 -l",
    ]
    lines_args, count_args, files_args = cases
    lines = await grep(tree, **lines_args.model_dump())
    assert tool.present_result(lines_args, lines, CardContext()) == SearchMatchesResultView(
        title=titles[0],
        files=(
            SearchFile(
                path="src/util.py",
                matches=(
                    SearchMatch(line_number=2, line="y = 2", context=True),
                    SearchMatch(line_number=3, line="# TODO later"),
                    SearchMatch(line_number=4, line="z = 3", context=True),
                ),
            ),
        ),
        truncated=False,
        total=1,
        total_files=1,
    )
    counted = await grep(tree, **count_args.model_dump())
    card = tool.present_result(count_args, counted, CardContext())
    assert isinstance(card, SearchMatchesResultView)
    assert [(f.path, f.count, f.matches) for f in card.files] == [
        ("docs/notes.md", 2, ()),
        ("src/app.py", 1, ()),
    ]
    found = await grep(tree, **files_args.model_dump())
    assert tool.present_result(files_args, found, CardContext()) == SearchPathsResultView(
        title=titles[2], paths=found.text().splitlines(), truncated=False, total=2
    )
    assert sorted(found.text().splitlines()) == ["docs/notes.md", "src/app.py"]


async def test_offset_and_head_limit_page_through_the_matches(tmp_path: Path) -> None:
    write(tmp_path, {"a.txt": "".join(f"hit {n}\n" for n in range(1, 8))})
    page = await grep(tmp_path, pattern="hit", head_limit=3, offset=2)
    assert page.text() == (
        "a.txt\n  3: hit 3\n  4: hit 4\n  5: hit 5\n\n"
        "(Showing matches 3-5 of 7. Use offset=5 for the next ones.)"
    )
    last = await grep(tmp_path, pattern="hit", head_limit=3, offset=5)
    assert last.text() == "a.txt\n  6: hit 6\n  7: hit 7\n\n(Showing matches 6-7 of 7.)"
    past = await grep(tmp_path, pattern="hit", offset=9)
    assert past.text() == "(No matches past offset=9: there are 7.)"


async def test_type_and_multiline(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": "start\nmiddle\nend\n", "a.js": "start\nend\n"})
    py = await grep(tmp_path, pattern="start", type="py", output_mode="files_with_matches")
    assert py.text() == "a.py"
    spanning = await grep(tmp_path, pattern="start.end", multiline=True)
    assert spanning.text().startswith("a.js\n  1: start\n")
    unknown = await grep(tmp_path, pattern="x", type="nosuchtype")
    assert unknown.is_error and "nosuchtype" in unknown.text()
