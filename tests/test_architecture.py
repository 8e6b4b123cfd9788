"""The package's shape: no import cycles, no module much over 500 lines.

Both are read from the source (``ast``), so a cycle made by an import inside a
function counts as much as one at the top of a module: a lazy import hides a
cycle from Python, not from the reader. See docs/architecture.md.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "evalreport"
#: a module's syntax tree, parsed once for every check that reads it (the trees are only walked)
_parse = functools.lru_cache(maxsize=None)(ast.parse)

#: the most lines a module may have
MAX_LINES = 560
#: modules allowed past it, each with the reason
LONG_MODULES: dict[str, str] = {}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _origin(node: ast.ImportFrom, package: str) -> str:
    """The module a ``from ... import`` reads from, its dots resolved against ``package``."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The evalreport modules ``name`` imports, wherever in the file the import is
    (blocks under ``if TYPE_CHECKING:`` aside: they never run)."""
    tree = _parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for n in ast.walk(node))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            origin = _origin(node, package)
            # `from pkg import mod` imports the module pkg.mod; `from mod import name`, mod
            targets = [f"{origin}.{a.name}" if f"{origin}.{a.name}" in modules else origin
                       for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    # A package's own __init__ is run before any of its modules, so an import of the
    # package from inside it (`from . import x` for a name defined in __init__) is an
    # edge to the parent; it is kept, as it can close a cycle like any other.
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    assert _cycles(_graph()) == []


def test_cycle_finder_finds_a_cycle():
    """The check itself can fail: a two-module and a three-module cycle are found."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}}
    assert sorted(_cycles(graph)) == [["a", "b"], ["c", "d", "e"]]


def test_relative_imports_resolve(tmp_path):
    """`from . import x`, `from .m import y` and `from ..p import z` reach the right modules."""
    modules = {"evalreport": None, "evalreport.a": None, "evalreport.b": None,
               "evalreport.sub": None, "evalreport.sub.c": None}
    src = tmp_path / "c.py"
    src.write_text("from . import helper\nfrom ..a import f\ndef g():\n    from .. import b\n"
                   "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..b import T\n")
    assert _imports("evalreport.sub.c", src, modules) == {"evalreport.sub", "evalreport.a", "evalreport.b"}


def test_modules_are_short():
    long = {name: n for name, path in _modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert set(long) <= set(LONG_MODULES), {k: v for k, v in long.items() if k not in LONG_MODULES}


#: where the task object, not a test of the result's type or the spec's task, decides
TASK_BLIND = ["pipeline.py", "tasks/base.py", "report/context.py", "results/__init__.py",
              "results/comparisons.py", "results/format.py", "report/notes.py",
              "number_style.py", "report/significance.py"]


def _task_tests(source: str) -> list[str]:
    """isinstance tests on learner or result types, and comparisons with the spec's task."""
    found = []
    for node in ast.walk(_parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance":
            if any(n in ast.unparse(node.args[1]) for n in ("LearnerResult", "Result", "Evaluation")):
                found.append(ast.unparse(node))
        if isinstance(node, ast.Compare) and ".task" in ast.unparse(node.left) + ast.unparse(node.comparators[0]):
            found.append(ast.unparse(node))
    return found


def test_the_pipeline_and_the_sinks_do_not_ask_which_task():
    for name in TASK_BLIND:
        assert _task_tests((PACKAGE / name).read_text(encoding="utf-8")) == [], name


def test_task_test_finder_finds_them():
    src = ("if isinstance(lr, LearnerResult):\n    pass\nif spec.task == 'multiclass':\n    pass\n"
           "if isinstance(x, dict):\n    pass\n")
    assert _task_tests(src) == ["isinstance(lr, LearnerResult)", "spec.task == 'multiclass'"]


def test_every_module_imports_first(monkeypatch):
    """Each module imports on its own, as the first module of the package a
    program imports: an import cycle between packages (metrics -> compare ->
    metrics) fails only in the order that enters it from the wrong side."""
    import importlib
    import pkgutil
    import sys
    from importlib.machinery import SourceFileLoader

    import evalreport

    # Each module's code is compiled once for the whole test, not once per import of
    # it (about 200 times each): every module body still runs afresh in the order
    # tried, which is what the test is about. Without .pyc files (PYTHONDONTWRITEBYTECODE)
    # the compiling was four fifths of the test's CPU.
    compiled: dict = {}
    get_code = SourceFileLoader.get_code

    def get_code_once(loader, fullname):
        if loader.path not in compiled:
            compiled[loader.path] = get_code(loader, fullname)
        return compiled[loader.path]

    monkeypatch.setattr(SourceFileLoader, "get_code", get_code_once)

    names = [m.name for m in pkgutil.walk_packages(evalreport.__path__, "evalreport.")
             if not m.name.startswith("evalreport.templates") and not m.name.startswith("evalreport.configs")]
    assert len(names) > 50
    saved = {k: v for k, v in sys.modules.items() if k == "evalreport" or k.startswith("evalreport.")}
    failed = {}
    try:
        for name in names:
            for k in [k for k in sys.modules if k == "evalreport" or k.startswith("evalreport.")]:
                del sys.modules[k]
            try:
                importlib.import_module(name)
            except ImportError as e:
                failed[name] = str(e)
    finally:
        for k in [k for k in sys.modules if k == "evalreport" or k.startswith("evalreport.")]:
            del sys.modules[k]
        sys.modules.update(saved)
    assert not failed, failed


#: the evaluation's packages (data -> evaluation -> a typed Result -> sinks): none of
#: their modules imports the report (HTML/PDF) or the figures
EVALUATION = ["evalreport.pipeline", "evalreport.verdict", "evalreport.compare", "evalreport.metrics",
              "evalreport.counting", "evalreport.history"]
SINKS = ("evalreport.report", "evalreport.figures")
#: the imports of a sink left, each with the reason (issue 35: to be removed)
SINK_IMPORTS_LEFT = {
    "evalreport.metrics.binary": "a BinaryEvaluation's _repr_html_ in Jupyter (figures/evaluation.py: its "
                                 "scalars and curves) is imported inside the method, when the HTML is asked for: "
                                 "Jupyter finds _repr_html_ on the class, which no sink can lend it",
}


def _within(name: str, packages) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def _sink_imports(graph: dict[str, set[str]]) -> dict[str, list[str]]:
    """The evaluation's modules that import a sink, with the sink modules imported."""
    out = {}
    for name, imported in graph.items():
        if _within(name, EVALUATION) and (bad := sorted(w for w in imported if _within(w, SINKS))):
            out[name] = bad
    return out


def test_the_evaluation_imports_no_sink():
    """Layers one way: the pipeline, the verdict, the comparisons, the measures and
    the history import nothing of the report or the figures (results.json, which the
    history compares with the previous run, is data: evalreport.results; numbers
    print as evalreport.number_style says)."""
    assert set(_sink_imports(_graph())) == set(SINK_IMPORTS_LEFT)


def test_sink_import_finder_finds_them():
    graph = {"evalreport.metrics.a": {"evalreport.words", "evalreport.figures.text"},
             "evalreport.words": {"evalreport.figures.text"}, "evalreport.history.b": {"evalreport.results"},
             "evalreport.pipeline": {"evalreport.report.format"}}
    assert _sink_imports(graph) == {"evalreport.metrics.a": ["evalreport.figures.text"],
                                    "evalreport.pipeline": ["evalreport.report.format"]}


def test_the_counting_engine_imports_no_measure():
    """counting/ builds the count table; the measures (metrics/) read it: the
    engine imports nothing of metrics/ (nor anything above it), so the two
    packages do not import each other (docs/architecture.md, The counting engine).
    words.py, which imports nothing, prints the numbers of its warnings."""
    graph = _graph()
    assert graph["evalreport.words"] == set()
    engine = {name: sorted(w for w in imported if not _within(w, ["evalreport.counting", "evalreport.words"]))
              for name, imported in graph.items() if _within(name, ["evalreport.counting"])}
    assert len(engine) >= 10
    assert {name: out for name, out in engine.items() if out} == {}


#: the most lines of code a function may have (its docstring aside: documentation
#: with runnable examples is not what makes a function hard to read)
MAX_FUNCTION_LINES = 80


def _function_lengths(source: str) -> dict[str, int]:
    """Each function's (and method's) lines from its ``def`` to its last line,
    less its docstring; a name defined twice keeps its longest."""
    out: dict[str, int] = {}
    for node in ast.walk(_parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            n = node.end_lineno - node.lineno + 1
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                n -= first.end_lineno - first.lineno + 1
            out[node.name] = max(n, out.get(node.name, 0))
    return out


def _long_functions() -> dict[str, int]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE.parent).as_posix()
        for name, n in _function_lengths(path.read_text(encoding="utf-8")).items():
            if n > MAX_FUNCTION_LINES:
                out[f"{where}:{name}"] = n
    return out


def test_functions_are_short():
    assert _long_functions() == {}


def test_function_length_finder_counts_code_not_docstrings():
    body = "".join(f"    x{i} = {i}\n" for i in range(81))
    src = (f"def long():\n{body}"
           f"def documented():\n    \"\"\"{'.' * 10}\n" + "\n" * 100 + "    \"\"\"\n    return 1\n"
           "class C:\n    def method(self):\n" + body.replace("    ", "        "))
    assert _function_lengths(src) == {"long": 82, "documented": 2, "method": 82}



def _private_imports(name: str, source: str, modules) -> set[str]:
    """The underscore names module ``name`` imports from another evalreport
    module (``from .x import _y``; dunder names and submodules aside)."""
    package = name if source.startswith("#pkg") else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(_parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        origin = _origin(node, package)
        if origin.split(".")[0] != "evalreport":
            continue
        for a in node.names:
            if a.name.startswith("_") and not a.name.startswith("__") and f"{origin}.{a.name}" not in modules:
                found.add(a.name)
    return found


def _all_private_imports() -> dict[str, set[str]]:
    modules = _modules()
    out = {}
    for name, path in modules.items():
        source = path.read_text(encoding="utf-8")
        if path.name == "__init__.py":
            source = "#pkg\n" + source
        if found := _private_imports(name, source, modules):
            out[path.relative_to(PACKAGE).as_posix()] = found
    return out


def test_no_private_names_imported_across_modules():
    # (a public name imported under a private alias, ``import x as _x``, is not one)
    assert _all_private_imports() == {}, "import a public name (drop the underscore at its definition)"


def test_private_import_finder_finds_them():
    modules = {"evalreport": None, "evalreport.a": None, "evalreport.sub": None, "evalreport.sub.c": None,
               "evalreport.sub._m": None}
    src = ("from ..a import _x, y, __version__\nfrom . import _m\nfrom .c import _z as zed\n"
           "from ..a import public as _alias\nfrom os import _exit\ndef f():\n    from evalreport.a import _w\n")
    assert _private_imports("evalreport.sub.b", src, modules) == {"_x", "_z", "_w"}


#: what importing each must not load: the evaluation and results.json as data
LOADED_ALONE = EVALUATION + ["evalreport.results", "evalreport.result", "evalreport.tasks",
                             "evalreport.registry", "evalreport.redact"]


def _loaded_sinks(*modules: str) -> dict[str, list[str]]:
    """For each module, the sink modules in sys.modules after it is imported first,
    as by a fresh interpreter: one child imports each in turn, with every evalreport
    module dropped from sys.modules before it (third-party modules stay loaded:
    only evalreport's own are looked at)."""
    import json
    import subprocess
    import sys

    code = ("import importlib, json, sys\n"
            "found = {}\n"
            "for name in sys.argv[1:]:\n"
            "    for k in [k for k in sys.modules if k == 'evalreport' or k.startswith('evalreport.')]:\n"
            "        del sys.modules[k]\n"
            "    importlib.import_module(name)\n"
            "    found[name] = sorted(m for m in sys.modules\n"
            "                         if m.startswith(('evalreport.report', 'evalreport.figures')))\n"
            "print(json.dumps(found))\n")
    done = subprocess.run([sys.executable, "-c", code, *modules], capture_output=True, text=True, check=True,
                          cwd=PACKAGE.parent)
    return json.loads(done.stdout)


def test_importing_the_evaluation_loads_no_sink():
    """Layers one way, as Python runs them: importing the pipeline, the verdict, the
    comparisons, the measures, the history, results.json's writer or the tasks loads
    no module of the report or the figures (a lazy import inside a function is
    loaded only when called; the tasks' report hooks were imported at import time)."""
    loaded = {m: found for m, found in _loaded_sinks(*LOADED_ALONE).items() if found}
    assert loaded == {}


def test_loaded_sink_finder_finds_them():
    """The check itself can fail: the report's own module loads the report."""
    # and a module imported after another sees none of the first one's modules
    found = _loaded_sinks("evalreport.report.context", "evalreport.metrics")
    assert "evalreport.report.context" in found["evalreport.report.context"]
    assert found["evalreport.metrics"] == []


_WEAK = {"weakref", "WeakKeyDictionary", "WeakValueDictionary", "WeakSet"}


def _identity_caches(source: str) -> list[str]:
    """Caches keyed on an object's identity: weakref's dictionaries (or any use of
    weakref), and a module-level mapping indexed by ``id(...)`` (``CACHE[id(x)]``,
    ``CACHE.get(id(x))``). What such a cache holds belongs on the typed result the
    pipeline builds once (Result.leaderboard, json_core, published), or in a value
    the sink makes once and passes on; a local set of ids (a graph walk's visited
    nodes) is no cache and is not counted."""
    tree = _parse(source)
    module_names = {t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                    for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                    if isinstance(t, ast.Name)}

    def is_id(node) -> bool:
        return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "id"

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "weakref" for a in node.names):
            found.append(ast.unparse(node))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "weakref":
            found.append(ast.unparse(node))
        elif isinstance(node, ast.Attribute) and node.attr in _WEAK:
            found.append(ast.unparse(node))
        elif isinstance(node, ast.Subscript) and is_id(node.slice) and getattr(node.value, "id", None) in module_names:
            found.append(ast.unparse(node))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args
              and is_id(node.args[0]) and getattr(node.func.value, "id", None) in module_names):
            found.append(ast.unparse(node))
    return found


def test_no_cache_keyed_on_identity():
    """No module keeps a cache keyed on an object's identity (issue 35): such a cache
    must be carried by hand to every copy of the object (dataclasses.replace), and
    hid a bug once. The pipeline builds what the sinks share once, on the Result."""
    found = {name: hits for name, path in _modules().items()
             if (hits := _identity_caches(path.read_text(encoding="utf-8")))}
    assert found == {}


def test_identity_cache_finder_finds_them():
    src = ("import weakref\n_DRAWN = weakref.WeakKeyDictionary()\n_BY_ID = {}\n"
           "def f(result):\n    seen = set()\n    seen.add(id(result))\n    _BY_ID[id(result)] = 1\n"
           "    return _BY_ID.get(id(result))\n")
    assert _identity_caches(src) == ["import weakref", "weakref.WeakKeyDictionary", "_BY_ID[id(result)]",
                                     "_BY_ID.get(id(result))"]


#: a comparison with a task's name: `== "binary"`, `"multiclass" !=`, `task == ...` in a template
_TASK_NAME_TEST = re.compile(r"""[=!]=\s*["'](binary|multiclass)["']|["'](binary|multiclass)["']\s*[=!]="""
                             r"""|\btask\s*[=!]=|[=!]=\s*task\b|\bin\s*\(\s*["'](binary|multiclass)["']""")
TEMPLATES = PACKAGE.parent / "templates"


def _task_name_tests(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if _TASK_NAME_TEST.search(line)]


def test_the_report_and_templates_do_not_compare_the_task():
    """Task-specific behaviour lives in the task (``Task.per_class``) or in the
    task's builder (report/binary.py, report/multiclass.py, picked by
    report/context.py's BUILDERS), which prepares the values the templates print:
    no module of the report and no template compares the task's name."""
    files = [*sorted((PACKAGE / "report").rglob("*.py")), *sorted(TEMPLATES.rglob("*.j2"))]
    found = {str(p.relative_to(PACKAGE.parent)): hits for p in files
             if (hits := _task_name_tests(p.read_text(encoding="utf-8")))}
    assert found == {}


def test_task_name_test_finder_finds_them():
    text = ('if spec.task == "binary":\n{% if task == "multiclass" %}\nx = "multiclass" != t\n'
            'registry.ranked("binary")\nBUILDERS = {"binary": 1}\n')
    assert _task_name_tests(text) == ['if spec.task == "binary":', '{% if task == "multiclass" %}',
                                      'x = "multiclass" != t']


def test_no_merge_leftovers_in_the_tree():
    # a merge's *.orig / *.rej copies were once committed beside the modules they copied
    root = PACKAGE.parent
    leftovers = [str(p.relative_to(root)) for folder in ("evalreport", "templates", "tests", "configs", "docs")
                 for pattern in ("*.orig", "*.rej") for p in (root / folder).rglob(pattern)]
    assert not leftovers, leftovers
