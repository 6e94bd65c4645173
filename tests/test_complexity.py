"""No function grows too tangled to change: at most :data:`MOST` functions
outside the compiled kernels are rated D or worse by radon (cyclomatic
complexity above 20); a compiled kernel (``@jit``) is one long loop on
purpose and is left out."""

from __future__ import annotations

import ast
from pathlib import Path

from radon.complexity import cc_rank, cc_visit

PACKAGE = Path(__file__).resolve().parent.parent / "tavlakit"
#: The most functions rated D or worse (issue 28: at most 10).
MOST = 10


def _kernels(tree: ast.AST) -> set[int]:
    """The first lines of the functions compiled by numba (decorated ``jit``)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if isinstance(target, ast.Name) and target.id == "jit":
                    out.add(node.lineno)
    return out


def tangled(root: Path = PACKAGE) -> list[str]:
    """``file:line name rank`` of each function rated D or worse, kernels left out."""
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        kernels = _kernels(ast.parse(text))
        for block in cc_visit(text):
            for item in [block, *getattr(block, "methods", [])]:
                rank = cc_rank(item.complexity)
                if rank >= "D" and item.lineno not in kernels:
                    found.append(f"{path.relative_to(root.parent)}:{item.lineno} {item.name} {rank}")
    return sorted(set(found))


def test_few_tangled_functions() -> None:
    found = tangled()
    assert len(found) <= MOST, "\n".join(found)


def test_tangled_functions_are_found(tmp_path: Path) -> None:
    """The count can fail: a function with 21 branches is found, a compiled one is not."""
    branches = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(21))
    (tmp_path / "m.py").write_text(
        f"def plain(x):\n{branches}    return -1\n\n\n@jit(cache=True)\ndef kernel(x):\n{branches}    return -1\n",
        encoding="utf-8",
    )
    assert [line.split()[1:] for line in tangled(tmp_path)] == [["plain", "D"]]
