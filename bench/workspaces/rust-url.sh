#!/bin/sh
# A real multi-crate workspace with a fault in a lower member: rust-url's `url` 2.5.8 with
# its `form_urlencoded` 1.2.2 and `percent-encoding` 2.3.2 as path members (as in the
# servo/rust-url repository), `form_urlencoded`'s separator test made `>=` (an injected
# boundary fault: every serialized query starts with `&`), so that four of `url`'s
# integration tests fail. The crates come from crates.io through cargo's registry.
#
#   sh bench/workspaces/rust-url.sh DIR     # builds the workspace in DIR (a new directory)
#   cd DIR && cargo autofix --rank-only -p url && cargo autofix -p url
set -eu
dir=${1:?usage: rust-url.sh DIR}
mkdir "$dir"
fetch=$(mktemp -d)
mkdir "$fetch/src"
printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\nurl = "=2.5.8"\nform_urlencoded = "=1.2.2"\npercent-encoding = "=2.3.2"\n' > "$fetch/Cargo.toml"
: > "$fetch/src/lib.rs"
cargo metadata --format-version 1 --manifest-path "$fetch/Cargo.toml" > "$fetch/metadata.json"
source_of() {
    python3 -c "import json,sys,os; m=json.load(open(sys.argv[1])); print(next(os.path.dirname(p['manifest_path']) for p in m['packages'] if p['name']==sys.argv[2] and p['version']==sys.argv[3]))" "$fetch/metadata.json" "$1" "$2"
}
cp -r "$(source_of url 2.5.8)" "$dir/url"
cp -r "$(source_of form_urlencoded 1.2.2)" "$dir/form_urlencoded"
cp -r "$(source_of percent-encoding 2.3.2)" "$dir/percent-encoding"
rm -rf "$fetch" "$dir"/*/Cargo.lock "$dir"/*/.cargo_vcs_info.json
printf '[workspace]\nmembers = ["url", "form_urlencoded", "percent-encoding"]\nresolver = "2"\n' > "$dir/Cargo.toml"
python3 - "$dir" <<'PY'
import re, sys
root = sys.argv[1]
def path_dependency(manifest, name, path):
    text = open(f"{root}/{manifest}").read()
    text, n = re.subn(r'(\[dependencies\.%s\]\n)version = "[^"]*"\n' % re.escape(name),
                      r'\1version = "*"\npath = "%s"\n' % path, text)
    assert n == 1, (manifest, name)
    open(f"{root}/{manifest}", "w").write(text)
path_dependency("url/Cargo.toml", "form_urlencoded", "../form_urlencoded")
path_dependency("url/Cargo.toml", "percent-encoding", "../percent-encoding")
path_dependency("form_urlencoded/Cargo.toml", "percent-encoding", "../percent-encoding")
lib = f"{root}/form_urlencoded/src/lib.rs"
text = open(lib).read()
right = "    if string.len() > start_position {\n        string.push('&')"
assert text.count(right) == 1
open(lib, "w").write(text.replace(right, right.replace(">", ">=", 1)))
PY
echo "built $dir: cd $dir && cargo autofix -p url"
