//! Lists every file of the browser client (`web/`) for `src/web.rs`, so a
//! new file there (a module, an image, a sound) is served without naming it
//! by hand. No crate needed: the list is a Rust array of `include_bytes!`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
    // Cargo scans a directory given here for any change inside it.
    println!("cargo:rerun-if-changed=web");
    let mut files = Vec::new();
    collect(&web, &mut files);
    files.sort();
    let mut out = String::from("/// Every file of `web/`: its URL path and its bytes.\n");
    out.push_str("pub(crate) const FILES: &[(&str, &[u8])] = &[\n");
    for file in &files {
        let rel = file.strip_prefix(&web).expect("under web/");
        let url: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        writeln!(
            out,
            "    ({:?}, include_bytes!({:?})),",
            format!("/{}", url.join("/")),
            file.display().to_string()
        )
        .unwrap();
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("web_files.rs");
    std::fs::write(dest, out).unwrap();
}

/// The files under `dir`, without hidden ones and the client's own tests
/// (`test-*`, run by node, never by a browser).
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if name.starts_with('.') || name.starts_with("test-") {
            continue;
        }
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}
