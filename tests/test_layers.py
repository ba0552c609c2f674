"""The layers hold: app → training → core → indexes | models → config, and no Textual below app.

Every module of every layer is found with ``pkgutil`` and read with ``ast``, so an import written
inside a function (the lazy ones) counts as much as one at the top, and a new module is checked
without being listed here. A module named in a string counts too (``python -m scholar_tui.x``,
``importlib.import_module("scholar_tui.x")``, a sandbox factory ``"scholar_tui.x:f"``, an
f-string ``f"scholar_tui.x.{name}"``): it is imported all the same, only later. A layer may import itself and any layer below it; ``indexes`` and
``models`` stand side by side and never import each other.
"""

from __future__ import annotations

import ast
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Each layer and what it may import besides itself. The README's "Layout" says the same.
MAY_IMPORT = {
    "app": {"training", "core", "indexes", "models", "config"},
    "training": {"core", "indexes", "models", "config"},
    "core": {"indexes", "models", "config"},
    "indexes": {"config"},
    "models": {"config"},
    "config": set(),
}
UI = ("textual",)  # only app/ may import the UI toolkit


def modules() -> list[tuple[str, Path]]:
    """(module name, file) of every module of every layer."""
    found = []
    for layer in MAY_IMPORT:
        package = __import__(f"scholar_tui.{layer}", fromlist=["_"])
        found.append((package.__name__, Path(package.__file__).resolve()))
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
            spec = info.module_finder.find_spec(info.name.rsplit(".", 1)[-1])
            found.append((info.name, Path(spec.origin).resolve()))
    return found


def imported_names(name: str, path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in the file, relative ones resolved."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # ``from scholar_tui import models`` imports the layer itself
            names += [
                (node.lineno, f"{target}.{alias.name}" if target == "scholar_tui" else target) for alias in node.names
            ]
    return names


# A whole string that is a module of ours (with a ``:attribute`` for a factory), or an f-string's
# leading part that is (``f"scholar_tui.training.{name}"``); prose in a docstring is neither.
MODULE_STRING = re.compile(r"(scholar_tui(?:\.[A-Za-z_]\w*)+)(?::[\w.]+)?")
MODULE_PREFIX = re.compile(r"(scholar_tui(?:\.[A-Za-z_]\w*)+)\.")


def named_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every module of ours named by a string: imported by name at run time."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            whole = MODULE_STRING.fullmatch(node.value)
            if whole:
                names.append((node.lineno, whole.group(1)))
        elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
            start = MODULE_PREFIX.fullmatch(str(node.values[0].value))
            if start:
                names.append((node.lineno, start.group(1)))
    return names


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "scholar_tui" and parts[1] in MAY_IMPORT else None


def wrong_imports(found: list[tuple[str, Path]], root: Path = ROOT) -> list[str]:
    wrong = []
    for name, path in found:
        layer = layer_of(name)
        for line, target in imported_names(name, path) + named_modules(path):
            where = f"{path.relative_to(root)}:{line}: {name} imports {target}"
            other = layer_of(target)
            if other is not None and other != layer and other not in MAY_IMPORT[layer]:
                wrong.append(f"{where} ({layer} may import {', '.join(sorted(MAY_IMPORT[layer])) or 'nothing'})")
            if layer != "app" and target.split(".")[0] in UI:
                wrong.append(f"{where} (only app/ may import the UI)")
    return wrong


def test_every_layer_is_walked():
    found = dict(modules())
    assert len(found) > 100
    for name in (
        "scholar_tui.config.settings",
        "scholar_tui.core.soay.engine",
        "scholar_tui.indexes.library",
        "scholar_tui.models.llamacpp",
        "scholar_tui.training.crawler_ppo",
        "scholar_tui.app.cli",
    ):
        assert name in found, name


def test_no_module_imports_a_layer_above_or_beside_it():
    assert wrong_imports(modules()) == []


def test_a_wrong_import_is_caught(tmp_path):
    """The check can fail: an index that imports an engine, and an engine that imports Textual lazily."""
    index = tmp_path / "index.py"
    index.write_text("from scholar_tui.core.soay.engine import SoAyEngine\n")
    engine = tmp_path / "engine.py"
    engine.write_text("def show():\n    from ..sandbox import Sandbox\n    import textual.app\n")
    fakes = [("scholar_tui.indexes.index", index), ("scholar_tui.core.soay.engine", engine)]
    assert wrong_imports(fakes, root=tmp_path) == [
        "index.py:1: scholar_tui.indexes.index imports scholar_tui.core.soay.engine (indexes may import config)",
        "engine.py:3: scholar_tui.core.soay.engine imports textual.app (only app/ may import the UI)",
    ]


def test_a_module_named_in_a_string_is_caught(tmp_path):
    """``python -m`` and ``import_module`` import too: core starting an app module by name is caught."""
    bench = tmp_path / "bench.py"
    bench.write_text(
        '"""Times ``scholar_tui.app.startup_probe`` (prose: not an import)."""\n'
        'PROBE = ["python", "-m", "scholar_tui.app.startup_probe"]\n'
        'FACTORY = "scholar_tui.core.library.sandbox_apis:academic_functions"\n'
        'def script(name):\n    return f"scholar_tui.training.{name}"\n'
    )
    assert wrong_imports([("scholar_tui.core.bench", bench)], root=tmp_path) == [
        "bench.py:2: scholar_tui.core.bench imports scholar_tui.app.startup_probe (core may import config, indexes, models)",
        "bench.py:5: scholar_tui.core.bench imports scholar_tui.training (core may import config, indexes, models)",
    ]


def test_imports_are_absolute():
    """``from scholar_tui.core.x import y``, never ``from ..core.x``: people, grep and tools read it
    as the folder it names."""
    relative = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for name, path in modules()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.level
    ]
    assert relative == []


def test_no_module_below_app_loads_textual():
    """Importing every module of the lower layers, in a fresh process, loads no Textual."""
    names = [
        name
        for name, _ in modules()
        if layer_of(name) in ("core", "indexes", "models", "config") and not name.endswith("sandbox_worker")
    ]
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n    importlib.import_module(name)\n"
        "print(sorted(n for n in sys.modules if n.split('.')[0] == 'textual' or n.startswith('scholar_tui.app')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "[]"


def test_scholar_tui_resolves_to_the_folders():
    """``scholar_tui.core.x`` is ``core/x.py`` of this checkout, as tools and people read it."""
    code = (
        "import scholar_tui.core.soay.engine as m, scholar_tui.config.settings as c, scholar_tui.app.cli as a\n"
        "print(m.__file__); print(c.__file__); print(a.__file__)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert result.returncode == 0, result.stderr
    files = [Path(line).resolve() for line in result.stdout.split()]
    assert files == [ROOT / "core" / "soay" / "engine.py", ROOT / "config" / "settings.py", ROOT / "app" / "cli.py"]


@pytest.mark.parametrize("layer", sorted(MAY_IMPORT))
def test_every_layer_is_installed_from_its_folder(layer):
    package = __import__(f"scholar_tui.{layer}", fromlist=["_"])
    assert Path(package.__file__).resolve().parent == ROOT / layer


def test_static_tools_find_every_installed_folder():
    """pyproject's package-dir and the links static tools read (.import-root) name the same folders."""
    import tomllib

    package_dir = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    links = ROOT / ".import-root" / "scholar_tui"
    assert {f"scholar_tui.{link.name}": link.resolve() for link in links.iterdir()} == {
        name: (ROOT / folder).resolve() for name, folder in package_dir.items()
    }
    assert set(package_dir) == {f"scholar_tui.{layer}" for layer in MAY_IMPORT}


# A noqa comment silences the linter; it must say why (the developers' guide), after its codes.
NOQA = re.compile(r"#\s*noqa\b(?::?\s*[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)?(?P<reason>.*)$")


def unexplained_noqa(paths: list[Path], root: Path = ROOT) -> list[str]:
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = NOQA.search(line)
            if match and len(match.group("reason").strip(" -—:")) < 3:
                found.append(f"{path.relative_to(root)}:{number}")
    return found


def test_every_noqa_says_why():
    paths = [path for _, path in modules()] + sorted((ROOT / "tests").glob("*.py"))
    assert unexplained_noqa(paths) == []


def test_a_noqa_without_a_reason_is_caught(tmp_path):
    code = tmp_path / "code.py"
    code.write_text(
        "import a  # noqa: F401\nimport b  # noqa\n"
        "import c  # noqa: F401 - imported for its side effect: it registers the dialect\n"
    )
    assert unexplained_noqa([code], root=tmp_path) == ["code.py:1", "code.py:2"]
