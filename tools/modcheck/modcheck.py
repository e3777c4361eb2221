#!/usr/bin/env python3
"""Module cycle check: the modules of every crate must form a directed acyclic graph.

Usage: tools/modcheck/modcheck.py [--graph CRATE] [--all] [REPO_ROOT]

For each crate under `crates/`, each crate root (`src/lib.rs`, `src/main.rs`, `src/bin/*.rs`) is
parsed down its `mod` declarations (`foo.rs` beside its folder or `foo/mod.rs`, and inline
`mod foo { ... }`). Every path in a module that names an item of the same crate is an edge:
`use` declarations (`crate::`, `$crate::`, `super::`, `self::` or a child module's name first,
brace groups expanded) and `crate::`/`$crate::`/`super::`/`self::` paths in code and in
`macro_rules!` bodies. A path resolves to the deepest module it names, through `pub use`
re-exports of the module it passes (`crate::Solver` re-exported from `endgame` is an edge to
`endgame`).

The rule, at every level of the module tree: the children of one module form a DAG. An edge from
module `a::b::c` to `a::d::e` counts as `a::b -> a::d` (the two children of their nearest common
ancestor `a`); an edge between a module and its own ancestor or descendant is the normal Rust
pattern (`mod.rs` re-exports its children, the children use their parent's items through
`super::`) and does not count. So `crate::midgame::think -> crate::endgame` is an edge
`midgame -> endgame` between top-level modules, and `midgame::think -> midgame::worker` one
between siblings inside `midgame`.

Test code does not count: a module or item under `#[cfg(test)]` (the `tests` modules, test
helpers) may use any module, as tests exercise the crate from outside the layers.
Comments, strings and doc links are ignored (a doc link is no dependency).

The check fails on any cycle; there is no allowlist. (The cycles older than the check were
broken by moving the item both modules needed down a layer, issue 34: do the same with a new one.)
`--graph CRATE` prints the edges the check sees in one crate.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def strip_comments_and_strings(src):
    """Blanks out comments, string and char literals (keeps newlines and lengths roughly)."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            i = j
            continue
        if src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(" ")
            i = j
            continue
        m = re.match(r'b?r(#*)"', src[i : i + 10])
        if m and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = '"' + m.group(1)
            j = src.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append('""')
            i = j
            continue
        if c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            out.append('""')
            i = j + 1
            continue
        if c == "'":
            # char literal ('a', '\n', '\u{..}') versus lifetime ('a)
            m = re.match(r"'(\\(u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'])'", src[i : i + 12])
            if m:
                out.append("' '")
                i += m.end()
                continue
        out.append(c)
        i += 1
    return "".join(out)


def skip_item(src, i):
    """Index just past the item starting at `i` (up to `;` or a balanced `{...}`)."""
    n = len(src)
    depth = 0
    while i < n:
        c = src[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == ";" and depth == 0:
            return i + 1
        elif c == "{" and depth == 0:
            d, j = 1, i + 1
            while j < n and d:
                if src[j] == "{":
                    d += 1
                elif src[j] == "}":
                    d -= 1
                j += 1
            return j
        i += 1
    return n


CFG_TEST = re.compile(r"#\[cfg\((test|all\(test[^\]]*|any\(test[^\]]*)\)\]")


def strip_test_items(src):
    """Removes every item under `#[cfg(test)]` (the attribute and the item after it)."""
    out, i = [], 0
    while True:
        m = CFG_TEST.search(src, i)
        if not m:
            out.append(src[i:])
            return "".join(out)
        out.append(src[i : m.start()])
        j = m.end()
        # further attributes of the same item
        while True:
            k = j
            while k < len(src) and src[k].isspace():
                k += 1
            if src.startswith("#[", k):
                d, k2 = 0, k + 1
                while k2 < len(src):
                    if src[k2] == "[":
                        d += 1
                    elif src[k2] == "]":
                        d -= 1
                        if d == 0:
                            break
                    k2 += 1
                j = k2 + 1
            else:
                break
        i = skip_item(src, j)


class Module:
    def __init__(self, path, file):
        self.path = path  # tuple of names below the crate root
        self.file = file
        self.children = {}
        self.code = ""  # this module's own code (inline child modules cut out)
        self.reexports = {}  # name -> absolute path tuple (pub use)


MOD_DECL = re.compile(r"(?:pub(?:\([^)]*\))?\s+)?mod\s+(r#)?([A-Za-z_]\w*)\s*([;{])")


def parse_module(mod, src, dir_for_children):
    """Fills `mod` from its (comment-stripped, test-stripped) source; recurses into children."""
    own, i = [], 0
    while True:
        m = MOD_DECL.search(src, i)
        if not m:
            own.append(src[i:])
            break
        # must be at an item position: preceded by start, `;`, `}`, `{` or an attribute
        before = src[: m.start()].rstrip()
        if before and before[-1] not in ";{}]":
            own.append(src[i : m.end()])
            i = m.end()
            continue
        own.append(src[i : m.start()])
        name = m.group(2)
        child_path = mod.path + (name,)
        if m.group(3) == ";":
            cands = [
                os.path.join(dir_for_children, name + ".rs"),
                os.path.join(dir_for_children, name, "mod.rs"),
            ]
            f = next((c for c in cands if os.path.isfile(c)), None)
            if f is None:
                i = m.end()
                continue
            child = Module(child_path, f)
            with open(f, encoding="utf-8") as fh:
                csrc = strip_test_items(strip_comments_and_strings(fh.read()))
            cdir = os.path.dirname(f) if f.endswith("mod.rs") else os.path.join(dir_for_children, name)
            parse_module(child, csrc, cdir)
            i = m.end()
        else:
            end = skip_item(src, m.start(3))
            child = Module(child_path, mod.file)
            parse_module(child, src[m.end() : end - 1], os.path.join(dir_for_children, name))
            i = end
        mod.children[name] = child
    mod.code = "".join(own)


def expand_use_tree(tree):
    """`a::{b, c::{d, e as f}, self}` -> [(['a','b'], 'b'), (['a','c','d'], 'd'),
    (['a','c','e'], 'f'), (['a'], 'a')]: each path with the name it binds."""
    tree = re.sub(r"\s+as\s+", "@", tree)  # `x as y` -> `x@y`
    tree = re.sub(r"\s+", "", tree)
    results = []

    def rec(prefix, s):
        # split top-level commas
        parts, d, cur = [], 0, ""
        for ch in s:
            if ch == "{":
                d += 1
            elif ch == "}":
                d -= 1
            if ch == "," and d == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        if cur:
            parts.append(cur)
        for p in parts:
            k = p.find("{")
            if k >= 0:
                head = [x for x in p[:k].split("::") if x]
                rec(prefix + head, p[k + 1 : p.rfind("}")])
            else:
                p, _, alias = p.partition("@")
                segs = [x for x in p.split("::") if x and x != "*"]
                if segs == ["self"]:
                    segs = []
                full = prefix + segs
                results.append((full, alias or (full[-1] if full else None)))

    rec([], tree)
    return results


USE_DECL = re.compile(r"(?:(?<=[;{}\]])|\A)\s*(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);")
PATH_REF = re.compile(r"(?<![\w:])(\$crate|crate|super|self)((?:\s*::\s*[A-Za-z_]\w*)+)")


def absolute(mod, segs):
    """Absolute path (tuple) of a path written in `mod`, or None when it leaves the crate."""
    if not segs:
        return None
    head = segs[0]
    if head in ("crate", "$crate"):
        return tuple(segs[1:])
    if head == "self":
        return mod.path + tuple(segs[1:])
    if head == "super":
        base = list(mod.path)
        k = 0
        while k < len(segs) and segs[k] == "super":
            if not base:
                return None
            base.pop()
            k += 1
        return tuple(base) + tuple(segs[k:])
    if head in mod.children:
        return mod.path + tuple(segs)
    return None


def all_modules(root):
    stack = [root]
    while stack:
        m = stack.pop()
        yield m
        stack.extend(m.children.values())


def lookup(root, path):
    m = root
    for p in path:
        m = m.children.get(p)
        if m is None:
            return None
    return m


def resolve(root, path, depth=0):
    """The module that absolute `path` lands in (through re-exports)."""
    m, k = root, 0
    while k < len(path) and path[k] in m.children:
        m = m.children[path[k]]
        k += 1
    if k < len(path) and path[k] in m.reexports and depth < 8:
        target = m.reexports[path[k]]
        if target != m.path + (path[k],):
            return resolve(root, target + tuple(path[k + 1 :]), depth + 1)
    return m.path


def crate_graph(root_file):
    root = Module((), root_file)
    with open(root_file, encoding="utf-8") as fh:
        src = strip_test_items(strip_comments_and_strings(fh.read()))
    parse_module(root, src, os.path.dirname(root_file))
    mods = list(all_modules(root))
    uses = {}
    for m in mods:
        uses[m.path] = []
        for um in USE_DECL.finditer(m.code):
            for segs, alias in expand_use_tree(um.group(2)):
                a = absolute(m, segs)
                if a is None:
                    continue
                uses[m.path].append(a)
                if um.group(1) and alias:
                    m.reexports[alias] = a
    refs = {}
    for m in mods:
        targets = set()
        for a in uses[m.path]:
            targets.add(resolve(root, a))
        for pm in PATH_REF.finditer(m.code):
            segs = [pm.group(1)] + [s.strip() for s in pm.group(2).split("::") if s.strip()]
            a = absolute(m, segs)
            if a is not None:
                targets.add(resolve(root, a))
        refs[m.path] = targets
    # edges between siblings (children of the nearest common ancestor)
    edges = {}
    for src_path, targets in refs.items():
        for t in targets:
            k = 0
            while k < len(src_path) and k < len(t) and src_path[k] == t[k]:
                k += 1
            if k == len(src_path) or k == len(t):
                continue  # ancestor or descendant (or itself)
            a, b = src_path[: k + 1], t[: k + 1]
            edges.setdefault(a, set()).add(b)
    return root, edges


def find_cycles(edges):
    """One cycle per strongly connected component with more than one module (Tarjan)."""
    index, low, on, stack, sccs = {}, {}, set(), [], []
    counter = [0]
    nodes = set(edges) | {b for bs in edges.values() for b in bs}

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            strong(v)
    cycles = []
    for comp in sccs:
        comp_set = set(comp)
        # a shortest cycle through the first module of the component (BFS)
        start = comp[0]
        prev, queue, found = {start: None}, [start], None
        while queue and found is None:
            v = queue.pop(0)
            for w in sorted(edges.get(v, ())):
                if w not in comp_set:
                    continue
                if w == start:
                    found = v
                    break
                if w not in prev:
                    prev[w] = v
                    queue.append(w)
        path, v = [], found
        while v is not None:
            path.append(v)
            v = prev[v]
        path.reverse()
        cycles.append((comp, path + [start]))
    return cycles


def name(path):
    return "::".join(path) if path else "crate"


def crate_roots(repo):
    out = []
    cdir = os.path.join(repo, "crates")
    for c in sorted(os.listdir(cdir)):
        src = os.path.join(cdir, c, "src")
        if not os.path.isdir(src):
            continue
        for r in ("lib.rs", "main.rs"):
            if os.path.isfile(os.path.join(src, r)):
                out.append((c, os.path.join(src, r)))
        bindir = os.path.join(src, "bin")
        if os.path.isdir(bindir):
            for f in sorted(os.listdir(bindir)):
                if f.endswith(".rs"):
                    out.append((c, os.path.join(bindir, f)))
    return out


def canonical(cycle):
    """A cycle as text, rotated to start at its smallest module (the same text on every run)."""
    ring = cycle[:-1]
    k = ring.index(min(ring))
    ring = ring[k:] + ring[:k]
    return " -> ".join(name(p) for p in ring + [ring[0]])


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    repo = args[0] if args else os.path.join(HERE, "..", "..")
    graph_of = None
    if "--graph" in argv:
        graph_of = argv[argv.index("--graph") + 1]
        args = [a for a in args if a != graph_of]
        repo = args[0] if args else os.path.join(HERE, "..", "..")
    total_mods = 0
    failures = []
    for crate, root_file in crate_roots(repo):
        root, edges = crate_graph(root_file)
        total_mods += sum(1 for _ in all_modules(root))
        rel = os.path.relpath(root_file, os.path.join(repo, "crates"))
        if graph_of and graph_of in (crate, rel):
            print(f"# {rel}: edges between sibling modules")
            for a in sorted(edges):
                print(f"{name(a)} -> {', '.join(name(b) for b in sorted(edges[a]))}")
        for comp, cycle in find_cycles(edges):
            mods = sorted(name(p) for p in comp)
            failures.append(
                f"{rel}: module cycle {canonical(cycle)}  [cyclic set: {', '.join(mods)}]"
            )
    if failures:
        for f in failures:
            print("error: " + f, file=sys.stderr)
        return 1
    print(f"modcheck: no module cycle ({total_mods} modules)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
