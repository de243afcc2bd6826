//! The workspace's shape, checked (issue 42): no two top-level modules of
//! a crate import each other, however indirectly (a circle made them one
//! module in two files, and circles cleared once came back when nothing
//! guarded them), and no production source file is over 1,000 lines.
//!
//! A module's imports are read from its source: `crate::NAME` (grouped
//! `crate::{A, B}` too) and, in a file directly under `src/`,
//! `super::NAME`. Comments and `#[cfg(test)]` modules are not imports.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The longest a production source file may be.
const MAX_LINES: usize = 1000;

/// The workspace's `crates/` folder.
fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/")
        .to_path_buf()
}

/// Every `.rs` file under `dir`, sorted.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// Whether `file` (under a crate's `src/`) is test code: a `tests.rs`
/// module or a file under a `tests/` folder.
fn is_test_file(src: &Path, file: &Path) -> bool {
    let rel = file.strip_prefix(src).unwrap_or(file);
    rel.components()
        .any(|c| c.as_os_str() == "tests" || c.as_os_str() == "tests.rs")
}

/// The top-level module `file` belongs to (`None`: the crate root).
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main")).then(|| name.to_string())
}

/// The source without comments and without its `#[cfg(test)]` modules
/// (from the first `#[cfg(test)]` that opens a `mod`, to the end: they
/// close their files here).
fn code_of(text: &str) -> String {
    let mut code = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]")
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod "))
        {
            break;
        }
        let line = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    code
}

/// The identifiers that follow `prefix` in `code`: `crate::a` gives `a`,
/// `crate::{a, b::c}` gives `a` and `b`.
fn named_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().last();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            // Nested groups are rare in imports; their first names count.
            for part in group[..end].split(',') {
                names.insert(ident(part));
            }
        } else {
            names.insert(ident(rest));
        }
    }
    names.retain(|n| !n.is_empty() && n != "self");
    names
}

/// Each top-level module of the crate at `src` and the others it imports.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = sources(src);
    let modules: BTreeSet<String> = files.iter().filter_map(|f| top_module(src, f)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let Some(module) = top_module(src, file) else {
            continue;
        };
        if is_test_file(src, file) {
            continue;
        }
        let code = code_of(&fs::read_to_string(file).expect("a source file"));
        let mut imported = named_after(&code, "crate::");
        if file.parent() == Some(src) {
            imported.extend(named_after(&code, "super::"));
        }
        let edges = graph.entry(module.clone()).or_default();
        for other in imported {
            if other != module && modules.contains(&other) {
                edges.insert(other);
            }
        }
    }
    graph
}

/// The circles of `graph`: its strongly connected components of more
/// than one module (Tarjan's algorithm), each sorted.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<Vec<String>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, v: &'g str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.found
}

/// Every crate of the workspace: its name and its `src/`.
fn workspace_crates() -> Vec<(String, PathBuf)> {
    let mut crates: Vec<(String, PathBuf)> = fs::read_dir(crates_dir())
        .expect("crates/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("src").is_dir())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, p.join("src"))
        })
        .collect();
    crates.sort();
    crates
}

#[test]
fn no_top_level_module_of_a_crate_imports_itself_through_others() {
    let mut found = Vec::new();
    for (name, src) in workspace_crates() {
        for circle in circles(&module_graph(&src)) {
            found.push(format!("{name}: {}", circle.join(" ↔ ")));
        }
    }
    assert!(
        found.is_empty(),
        "import circles among the modules of a crate (break each by moving \
         what both need into a module of its own, or by passing it in):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_production_source_file_is_over_a_thousand_lines() {
    let mut long = Vec::new();
    for (_, src) in workspace_crates() {
        for file in sources(&src) {
            if is_test_file(&src, &file) {
                continue;
            }
            let lines = fs::read_to_string(&file)
                .expect("a source file")
                .lines()
                .count();
            if lines > MAX_LINES {
                long.push(format!("{} ({lines} lines)", file.display()));
            }
        }
    }
    assert!(
        long.is_empty(),
        "production source files over {MAX_LINES} lines (split each into modules \
         of one job):\n{}",
        long.join("\n")
    );
}

/// The check itself finds what it looks for.
#[test]
fn the_checks_see_circles_grouped_imports_and_test_code() {
    let code = "use crate::{store::Row, names};\nuse crate::error::E; // crate::ratings\n\
                fn f() { other_crate::x(); }\n#[cfg(test)]\nmod tests { use crate::queue; }\n";
    let names = named_after(&code_of(code), "crate::");
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        ["error", "names", "store"]
    );
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(m, to)| (m.to_string(), to.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(circles(&graph), [["a", "b", "c"]]);
}
