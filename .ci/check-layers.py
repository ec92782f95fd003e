#!/usr/bin/env python3
"""Checks that imports point down the pipeline, stop at each folder's surface,
and that no modules form a cycle.

The layers of `src/`, lowest first (ARCHITECTURE.md, "Code map"). A module
may use modules of its own layer or of a layer below; `lib.rs` and `main.rs`
(the facade and the binary) may use anything. Every `crate::...` path in a
file counts, in `use` items and inline, test modules included. Within a
layer, the graph of module-to-module uses must have no cycle.

Each folder's `mod.rs` is its surface: a module outside the folder may name
only what the folder re-exports or a submodule it declares `pub mod` (a
namespace such as `system::process`); `pub mod` declarations are at most a
fifth of all module declarations.

Exit code 0 when both hold; 1 with one line per violation otherwise.
"""

import re
import sys
from pathlib import Path

LAYERS = [
    ["exit", "dd"],
    ["system"],
    ["cargo"],
    ["code"],
    ["baseline"],
    ["mutation"],
    ["evaluate"],
    ["localize"],
    ["repair"],
    ["reduce"],
    ["render"],
    ["app"],
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}
TOP = {"", "main"}  # lib.rs and main.rs


def module_of(path: Path, src: Path) -> str:
    """`src/a/b.rs` -> `a::b`, `src/a/mod.rs` -> `a`, `src/lib.rs` -> ``."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "mod":
        parts.pop()
    if parts == ["lib"]:
        return ""
    return "::".join(parts)


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


def crate_paths(text: str) -> list:
    """Every `crate::...` path of a file, one level of `{...}` groups expanded."""
    paths = []
    text = strip_comments(text)
    # `use crate::a::{b, c::d}`: expand one level of braces.
    for prefix, inner in re.findall(r"crate((?:::\w+)*)::\{([^{}]*)\}", text):
        for item in inner.split(","):
            item = item.strip().split(" as ")[0]
            if item == "self":
                paths.append(prefix)
            elif item:
                paths.append(prefix + "::" + item)
    paths.extend(re.findall(r"crate((?:::\w+)+)", text))
    return paths


def used_modules(text: str, modules: set) -> set:
    """The modules a file's `crate::` paths name (the longest known prefix)."""
    used = {resolve(path, modules) for path in crate_paths(text)}
    used.discard(None)
    return used


def resolve(path: str, modules: set):
    parts = [p for p in path.split("::") if p]
    while parts:
        candidate = "::".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def layer(module: str) -> str:
    return module.split("::")[0]


def cycles(graph: dict) -> list:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def public_modules(texts: dict) -> set:
    """The modules declared `pub mod`: `a::b` for `pub mod b;` in `a`'s file."""
    public = set()
    for module, text in texts.items():
        for name in re.findall(r"^\s*pub mod (\w+);", text, re.M):
            public.add(f"{module}::{name}" if module else name)
    return public


def past_surface(module: str, path: str, modules: set, public: set):
    """The first private module a path goes through from outside its folder
    (`crate::a::b::C` with `b` private to `a`, from a module outside `a`). A
    path that ends at a private module's name names what the folder
    re-exports under that name (`crate::repair::bisect`, the function)."""
    parts = [p for p in path.split("::") if p]
    for depth in range(2, len(parts)):
        inner = "::".join(parts[:depth])
        folder = "::".join(parts[: depth - 1])
        inside = module == folder or module.startswith(folder + "::")
        if inner in modules and not inside and inner not in public:
            return inner
    return None


def main() -> int:
    src = Path(__file__).resolve().parent.parent / "src"
    files = {module_of(p, src): p for p in src.rglob("*.rs")}
    texts = {module: path.read_text() for module, path in files.items()}
    modules = set(files)
    problems = []
    graph = {}
    public = public_modules(texts)
    declared = sum(len(re.findall(r"^\s*(?:pub )?mod \w+", t, re.M)) for t in texts.values())
    pub_mods = sum(len(re.findall(r"^\s*pub mod \w+;", t, re.M)) for t in texts.values())
    if pub_mods * 5 > declared:
        problems.append(f"{pub_mods} of {declared} module declarations are `pub mod` (at most a fifth)")
    for module, path in sorted(files.items()):
        text = texts[module]
        uses = used_modules(text, modules) - {module}
        graph[module] = uses
        if module in TOP:
            continue
        own = layer(module)
        if own not in RANK:
            problems.append(f"{path}: module `{module}` is in no layer of .ci/check-layers.py")
            continue
        for used in sorted(uses):
            if used in TOP:
                problems.append(f"{path}: `{module}` uses the crate root")
            elif RANK.get(layer(used), -1) > RANK[own]:
                problems.append(
                    f"{path}: `{module}` ({own}) uses `{used}` ({layer(used)}), a layer above it"
                )
        for reached in sorted(
            {past_surface(module, p, modules, public) for p in crate_paths(text)} - {None}
        ):
            problems.append(
                f"{path}: `{module}` reaches past the surface of "
                f"`{reached.rsplit('::', 1)[0]}` into `{reached}`"
            )
    for component in cycles(graph):
        problems.append("import cycle: " + " -> ".join(component))
    for problem in problems:
        print(problem)
    if not problems:
        print(
            f"layers: {len(modules)} modules, imports point down and stop at surfaces, "
            f"no cycles; {pub_mods} of {declared} module declarations `pub mod`"
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
