"""The README documents every spec key, metric, comparison and exit status, and every
relative link of the project's Markdown resolves inside the repository."""

import re
from pathlib import Path
from urllib.parse import unquote

from evalreport import spec as S

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def _keys(model, prefix=""):
    for name, field in model.model_fields.items():
        if field.exclude:
            continue
        yield prefix + (field.alias or name)  # the key as written in YAML (columns, not class_columns)


def test_every_spec_key_is_documented():
    missing = []
    for model, prefix in ((S.Spec, ""), (S.DataSource, ""), (S.Learner, ""), (S.PartialAuc, ""),
                          (S.Confidence, ""), (S.Gate, ""), (S.Report, "report."), (S.Spark, "")):
        for key in _keys(model, prefix):
            if f"`{key}`" not in README and not re.search(rf"`[^`]*\b{re.escape(key.split('.')[-1])}\b[^`]*`", README):
                missing.append(key)
    assert not missing, f"spec keys not in README.md: {missing}"


def test_every_name_list_is_documented():
    # the measures' names are in docs/measures.md's table, generated from the registry
    # (tests/test_registry.py keeps it in step); the formats in the README
    measures = (Path(__file__).resolve().parents[1] / "docs" / "measures.md").read_text()
    for name in S.METRICS + S.COMPARISONS + S.GATE_METRICS:
        assert f"| `{name}` |" in measures, name
    for name in S.FORMATS:
        assert name in README, name


def test_exit_statuses_and_commands():
    for text in ("| 0 |", "| 2 |", "| 3 |", "| 1 |", "evalreport run", "evalreport validate",
                 "evalreport init", "evalreport schema", "python3 -m pytest"):
        assert text in README, text


# ---------------------------------------------------------------------------
# Links: every relative link and image in the project's Markdown resolves inside
# the repository (a user has nothing beside it), and every #anchor to a heading.

ROOT = Path(__file__).resolve().parents[1]
_FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
# [text](target "title") and ![alt](target); the text may hold one level of brackets
_INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE_LINK = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", re.M)
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def _prose(text: str) -> str:
    """The text without code blocks and code spans (links there are not links);
    blanked rather than cut so that line numbers stay."""
    text = _FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return _CODE_SPAN.sub("", text)


def _anchors(path: Path) -> set[str]:
    """GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens,
    a repeated id numbered -1, -2, ..."""
    seen: dict[str, int] = {}
    out = set()
    for m in _HEADING.finditer(_FENCE.sub("", path.read_text(encoding="utf-8"))):
        title = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1))  # a link's text
        slug = re.sub(r"[^\w\- ]", "", title.replace("`", "").strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def broken_links(path: Path, root: Path) -> list[str]:
    """'file:line: target: why' for each relative link of ``path`` that does not
    resolve to a file or folder inside ``root`` (or to a heading of a Markdown file)."""
    text = _prose(path.read_text(encoding="utf-8"))
    found = [(m.start(), m.group(1)) for m in _INLINE_LINK.finditer(text)]
    found += [(m.start(), m.group(1)) for m in _REFERENCE_LINK.finditer(text)]
    problems = []
    for start, target in sorted(found):
        if _SCHEME.match(target):
            continue  # http:, https:, mailto:
        where = f"{path.relative_to(root)}:{text.count(chr(10), 0, start) + 1}: {target}"
        name, _, anchor = target.partition("#")
        file = (path.parent / unquote(name)).resolve() if name else path
        if not name and not anchor:
            problems.append(f"{where}: empty link")
        elif not file.is_relative_to(root.resolve()):
            problems.append(f"{where}: outside the repository")
        elif not file.exists():
            problems.append(f"{where}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            problems.append(f"{where}: no heading '#{anchor}' in {file.relative_to(root.resolve())}")
    return problems


def _markdown_files() -> list[Path]:
    files = {ROOT / "README.md", ROOT / "bench" / "README.md", *ROOT.glob("docs/*.md"),
             *ROOT.glob("examples/**/README.md"), *ROOT.glob("tests/data/**/README.md")}
    return sorted(f for f in files if f.is_file())


def test_every_relative_link_resolves_inside_the_repository():
    files = _markdown_files()
    assert ROOT / "docs" / "measures.md" in files and ROOT / "docs" / "reference.md" in files
    problems = [p for f in files for p in broken_links(f, ROOT)]
    assert not problems, "\n".join(problems)


def test_readme_links_to_the_docs():
    for target in ("docs/measures.md", "docs/reference.md"):
        assert f"]({target}" in README, target
    # nothing outside the repository, which is all a user has (code blocks included)
    assert "../" not in README


def test_broken_links_finds_each_kind_of_broken_link(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A title\n\n## Its `code` part (1)\n", encoding="utf-8")
    (tmp_path / "img.png").write_bytes(b"")
    (tmp_path / "README.md").write_text(
        "# Top\n"
        "[ok](docs/a.md) [ok](docs/a.md#a-title) [ok](docs/a.md#its-code-part-1) [ok](#top)\n"
        "![ok](img.png) [ok](https://example.org/x) [ok](docs/) `[code](nowhere.md)`\n"
        "```\n[fenced](nowhere.md)\n```\n"
        "[missing](docs/b.md)\n"
        "![missing image](docs/img.png)\n"
        "[bad anchor](docs/a.md#no-such-part) [bad local anchor](#nowhere)\n"
        "[outside](../elsewhere/notes.md)\n"
        "[ref]: docs/c.md\n",
        encoding="utf-8",
    )
    assert broken_links(tmp_path / "README.md", tmp_path) == [
        "README.md:7: docs/b.md: no such file",
        "README.md:8: docs/img.png: no such file",
        "README.md:9: docs/a.md#no-such-part: no heading '#no-such-part' in docs/a.md",
        "README.md:9: #nowhere: no heading '#nowhere' in README.md",
        "README.md:10: ../elsewhere/notes.md: outside the repository",
        "README.md:11: docs/c.md: no such file",
    ]


def test_the_quick_start_works_as_written(tmp_path):
    """The README's quick start, its commands exactly as printed, run from an empty
    folder with `evalreport` on the PATH (issue 36: `run` failed with "file not found:
    predictions.csv")."""
    import json
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    text = README
    block = re.search(r"## Quick start\n\n```sh\n(.*?)```", text, flags=re.S).group(1)
    commands = [line.split("#", 1)[0].strip() for line in block.splitlines()]
    commands = [c for c in commands if c]
    assert commands[0] == "evalreport init my-audit" and commands[-1] == "evalreport run my-audit/evalreport.yaml"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "evalreport"  # what `pip install` puts on the PATH, for this checkout
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m evalreport "$@"\n')
    shim.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "PYTHONPATH": str(root),
           "MPLBACKEND": "Agg"}
    for command in commands:
        done = subprocess.run(["sh", "-c", command], cwd=work, env=env, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
    results = json.loads((work / "my-audit" / "reports" / "results.json").read_text())  # as its comment says
    assert list(results["learners"]) == ["logistic"]
    assert json.loads((work / "my-audit" / "evalreport-schema.json").read_text())["type"] == "object"


def test_init_leaves_the_users_predictions_alone(tmp_path, capsys):
    from evalreport.__main__ import main

    (tmp_path / "predictions.csv").write_text("mine\n")
    assert main(["init", str(tmp_path)]) == 0
    assert (tmp_path / "predictions.csv").read_text() == "mine\n"
    assert capsys.readouterr().out.splitlines() == [f"wrote {tmp_path / 'evalreport.yaml'}"]
