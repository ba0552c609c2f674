"""Every package folder ships in the wheel: setuptools only installs the packages it is told."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    mapping = {folder: name for name, folder in config["package-dir"].items()}
    found = set()
    for top, name in mapping.items():
        for init in (ROOT / top).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / top)
            found.add(".".join([name, *relative.parts]))
    assert found == listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
