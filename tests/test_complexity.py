"""No function grows too tangled to change: at most :data:`MOST` functions
outside the compiled kernels are rated D or worse by radon (cyclomatic
complexity above 20); a compiled kernel (``@jit``) is one long loop on
purpose and is left out. Every function counts, wherever it is defined:
a module's, a class's, a function's own (a closure) and a method of a class
defined inside a function or class, each rated on its own as radon rates a
top-level one (radon's ``cc_visit`` lists only the top-level functions and
classes with their methods, so counting its list alone misses the others)."""

from __future__ import annotations

import ast
from pathlib import Path

from radon.complexity import cc_rank
from radon.visitors import ComplexityVisitor

PACKAGE = Path(__file__).resolve().parent.parent / "tavlakit"
#: The most functions rated D or worse (issue 28: at most 10).
MOST = 10


def _rated(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """radon's cyclomatic complexity of one function (its closures rated apart, as radon does)."""
    visitor = ComplexityVisitor.from_ast(ast.Module(body=[node], type_ignores=[]))
    return next(f.complexity for f in visitor.functions if f.lineno == node.lineno)


def _compiled(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Compiled by numba (decorated ``jit`` or ``jit(...)``)."""
    targets = [d.func if isinstance(d, ast.Call) else d for d in node.decorator_list]
    return any(isinstance(t, ast.Name) and t.id == "jit" for t in targets)


def tangled(root: Path = PACKAGE) -> list[str]:
    """``file:line name rank`` of each function rated D or worse, at any depth, kernels left out."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _compiled(node):
                rank = cc_rank(_rated(node))
                if rank >= "D":
                    found.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name} {rank}")
    return sorted(found)


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


def test_nested_functions_count(tmp_path: Path) -> None:
    """A closure and a method of a class inside a function are rated too (radon's list leaves them out)."""
    body = "".join(f"        if x == {i}:\n            return {i}\n" for i in range(21))
    method = body.replace("\n        ", "\n            ").replace("        if x == 0", "            if x == 0", 1)
    (tmp_path / "m.py").write_text(
        f"def outer():\n    def inner(x):\n{body}        return -1\n    return inner\n\n\n"
        f"def maker():\n    class Local:\n        def method(self, x):\n{method}            return -1\n"
        "    return Local\n",
        encoding="utf-8",
    )
    assert [line.split()[1:] for line in tangled(tmp_path)] == [["inner", "D"], ["method", "D"]]
