#!/usr/bin/env bash
# Builds the offline engine's WebAssembly and its JavaScript glue from
# source into crates/dalmuti-server/web/wasm/ (committed: the server embeds
# and serves them like the page's other files; docs/DEVELOPING.md, "The
# offline engine", says why they are committed).
#
#     bash crates/dalmuti-wasm/build-wasm.sh           # writes web/wasm/
#     bash crates/dalmuti-wasm/build-wasm.sh --check   # fails if they differ
#
# --check is CI's: the committed files must be, byte for byte, what their
# source builds. The build is made reproducible for that: every path the
# compiler could write into the file is mapped to a fixed one
# (--remap-path-prefix: the checkout, cargo's registry, the standard
# library's sources), no debug info, no timestamp (neither rustc nor
# wasm-bindgen writes one), a locked dependency set, one codegen unit.
#
# What it needs: a wasm32 standard library. Where rustup has no
# wasm32-unknown-unknown target (no network to its server),
# ../shared/tools/wasm-toolchain.sh installs Debian's rustc-web and its
# sources and builds std with -Zbuild-std; its environment is used in this
# script only (it points RUSTC at that other compiler). And wasm-bindgen's
# CLI at the exact version of the wasm-bindgen crate (cargo install, into
# target/wasm-tools/, once).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
check=false
[[ ${1:-} == --check ]] && check=true

toolchain=${DALMUTI_WASM_TOOLCHAIN:-$root/../shared/tools/wasm-toolchain.sh}
[[ -f $toolchain ]] || { echo "error: no $toolchain (the wasm32 toolchain's script)" >&2; exit 1; }
eval "$(bash "$toolchain")"

# wasm-bindgen's CLI, at the crate's own version (Cargo.lock says which).
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
tools=$root/target/wasm-tools
bindgen=$tools/bin/wasm-bindgen
if ! [[ -x $bindgen ]] || [[ $("$bindgen" --version) != "wasm-bindgen $bindgen_version" ]]; then
    echo "installing wasm-bindgen-cli $bindgen_version into $tools" >&2
    # Its own compiler: the stable one, not the one built for wasm32. Only
    # the one program this script runs, unoptimised: it writes the same
    # bytes either way (checked against the committed web/wasm), and on a
    # fresh clone a debug build takes 83 s where the release one took
    # about 160 s of CI's time (issue 41).
    env -u RUSTC -u RUSTC_BOOTSTRAP CARGO_TARGET_DIR="$tools/build" \
        cargo install --quiet --debug wasm-bindgen-cli --version "$bindgen_version" \
        --bin wasm-bindgen --root "$tools"
fi

# The bytes depend on the compiler and the linker: say which (a new
# rustc-web from Debian, or a new stable rustup's rust-lld, is a rebuild
# to commit).
echo "compiler: $("${RUSTC:-rustc}" --version); linker: ${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER:-the default}; $("$bindgen" --version)"

registry=${CARGO_HOME:-$HOME/.cargo}/registry
std_src=$("${RUSTC:-rustc}" --print sysroot)/lib/rustlib/src/rust
remap=(
    "--remap-path-prefix=$root=/dalmuti"
    "--remap-path-prefix=$registry=/cargo/registry"
    "--remap-path-prefix=$std_src=/rust"
    "--remap-path-prefix=/usr/lib/rustlib/src/rust=/rust"
)
export RUSTFLAGS="--cfg getrandom_backend=\"wasm_js\" ${remap[*]}"
# Its own target folder: another compiler, other flags.
export CARGO_TARGET_DIR=$root/target/wasm
# shellcheck disable=SC2086 # WASM_BUILD_STD is a flag or nothing
cargo build --locked --profile wasm --target wasm32-unknown-unknown $WASM_BUILD_STD -p dalmuti-wasm

built=$(mktemp -d)
trap 'rm -rf "$built"' EXIT
"$bindgen" --target web --no-typescript --remove-name-section --remove-producers-section \
    --out-dir "$built" \
    "$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm/dalmuti_wasm.wasm"

out=crates/dalmuti-server/web/wasm
if $check; then
    if ! diff -r "$built" "$out" >/dev/null; then
        echo "error: $out is not what its source builds (crates/dalmuti-wasm and the crates it uses changed?):" >&2
        for f in "$built"/*; do
            cmp "$f" "$out/$(basename "$f")" >&2 || true
        done
        echo "run 'bash crates/dalmuti-wasm/build-wasm.sh' and commit $out (the compiler" \
            "and linker above are part of what it is built from: docs/DEVELOPING.md)" >&2
        exit 1
    fi
    echo "$out is what its source builds"
else
    mkdir -p "$out"
    rm -f "$out"/*
    cp "$built"/* "$out"/
    ls -l "$out"
fi
