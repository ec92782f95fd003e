use super::*;

#[test]
fn outside_path_dependencies_become_absolute() {
    let mut manifest: toml::Table = r#"
        [package]
        name = "app"
        [dependencies]
        inside = { path = "../sibling" }
        outside = { path = "../../elsewhere/lib" }
        registry = "1"
        [target.'cfg(unix)'.dev-dependencies]
        helper = { path = "../../helper" }
    "#
    .parse()
    .unwrap();
    let changed = rewrite_manifest(&mut manifest, Path::new("/ws/app"), Path::new("/ws"));
    assert!(changed);
    assert_eq!(
        manifest["dependencies"]["inside"]["path"].as_str(),
        Some("../sibling")
    );
    assert_eq!(
        manifest["dependencies"]["outside"]["path"].as_str(),
        Some("/elsewhere/lib")
    );
    assert_eq!(manifest["dependencies"]["registry"].as_str(), Some("1"));
    assert_eq!(
        manifest["target"]["cfg(unix)"]["dev-dependencies"]["helper"]["path"].as_str(),
        Some("/helper")
    );
}

#[test]
fn manifests_without_outside_paths_are_left_alone() {
    let mut manifest: toml::Table = "[dependencies]\nx = { path = \"sub\" }\n".parse().unwrap();
    assert!(!rewrite_manifest(
        &mut manifest,
        Path::new("/ws"),
        Path::new("/ws")
    ));
}

/// A scratch copy of the workspace at `root`, building in its target dir.
fn unit_copy(root: &Path) -> ScratchDir {
    ScratchDir::create(root, &root.join("target"), "unit", Budget::unlimited()).unwrap()
}

#[test]
fn writes_stay_inside_the_copy() {
    let original = tempfile::tempdir().unwrap();
    fs::write(
        original.path().join("Cargo.toml"),
        "[package]\nname = \"x\"\n",
    )
    .unwrap();
    let scratch = unit_copy(original.path());
    let outside = original.path().join("Cargo.toml");
    assert!(scratch.write(&outside, "oops").is_err());
    assert!(scratch.write(Path::new("../escape"), "oops").is_err());
    scratch.write(Path::new("Cargo.toml"), "changed").unwrap();
    assert_eq!(
        fs::read_to_string(&outside).unwrap(),
        "[package]\nname = \"x\"\n"
    );
    assert_eq!(
        fs::read_to_string(scratch.root().join("Cargo.toml")).unwrap(),
        "changed"
    );
}

#[test]
fn a_reset_copy_holds_the_workspace_again_at_the_same_path() {
    let original = tempfile::tempdir().unwrap();
    fs::create_dir(original.path().join("src")).unwrap();
    fs::write(original.path().join("src/lib.rs"), "pub fn f() {}\n").unwrap();
    let scratch = unit_copy(original.path());
    let (lib, new) = (Path::new("src/lib.rs"), Path::new("src/new.rs"));
    scratch.write(lib, "probed").unwrap();
    scratch.write(lib, "probed twice").unwrap();
    scratch.write(new, "mod x;").unwrap();
    scratch.reset().unwrap();
    let root = scratch.root().to_path_buf();
    assert_eq!(
        fs::read_to_string(root.join(lib)).unwrap(),
        "pub fn f() {}\n"
    );
    assert!(!root.join(new).exists());
    // Once more: what the first write after a reset found is put back.
    scratch.write(lib, "patched").unwrap();
    scratch.reset().unwrap();
    assert_eq!(
        fs::read_to_string(root.join(lib)).unwrap(),
        "pub fn f() {}\n"
    );
    assert_eq!(scratch.root(), root);
}

#[cfg(unix)]
#[test]
fn links_are_copied_as_their_content_and_never_written_through() {
    let base = tempfile::tempdir().unwrap();
    let package = base.path().join("pkg");
    let elsewhere = base.path().join("elsewhere");
    fs::create_dir_all(package.join("sub")).unwrap();
    fs::create_dir_all(elsewhere.join("src")).unwrap();
    fs::write(package.join("Cargo.toml"), "[package]\n").unwrap();
    fs::write(elsewhere.join("src/lib.rs"), "mine").unwrap();
    std::os::unix::fs::symlink("../elsewhere/src", package.join("src")).unwrap();
    std::os::unix::fs::symlink("/no/such/file", package.join("sub/dangling")).unwrap();
    std::os::unix::fs::symlink("..", package.join("sub/up")).unwrap();
    let scratch = unit_copy(&package);
    let copied = scratch.root().join("src");
    assert!(!copied.is_symlink() && copied.is_dir());
    assert_eq!(fs::read_to_string(copied.join("lib.rs")).unwrap(), "mine");
    assert!(!scratch.root().join("sub/dangling").exists());
    scratch.write(Path::new("src/lib.rs"), "woven").unwrap();
    assert_eq!(
        fs::read_to_string(elsewhere.join("src/lib.rs")).unwrap(),
        "mine"
    );

    // A link made in the copy later is refused too.
    fs::remove_dir_all(&copied).unwrap();
    std::os::unix::fs::symlink(elsewhere.join("src"), &copied).unwrap();
    let refused = scratch.write(Path::new("src/lib.rs"), "woven").unwrap_err();
    assert!(
        refused.to_string().contains("is a symbolic link"),
        "{refused}"
    );
    assert_eq!(
        fs::read_to_string(elsewhere.join("src/lib.rs")).unwrap(),
        "mine"
    );
}

#[test]
fn a_new_target_dir_starts_from_the_builds_there_are_with_their_times() {
    let original = tempfile::tempdir().unwrap();
    fs::write(original.path().join("Cargo.toml"), "[package]\n").unwrap();
    let target = original.path().join("target");
    // The user's own `cargo test` built a dependency.
    let users = target.join("debug");
    fs::create_dir_all(users.join("deps")).unwrap();
    fs::create_dir_all(users.join("incremental").join("app-1")).unwrap();
    fs::write(users.join("deps").join("libdep-1.rlib"), "built").unwrap();
    fs::write(users.join("incremental").join("app-1").join("s"), "state").unwrap();
    let long_ago = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1 << 30);
    fs::File::options()
        .write(true)
        .open(users.join("deps").join("libdep-1.rlib"))
        .unwrap()
        .set_modified(long_ago)
        .unwrap();
    let built = |scratch: &ScratchDir, name: &str| {
        let path = scratch.target_dir.join("debug").join("deps").join(name);
        fs::read_to_string(&path).ok().map(|text| {
            let modified = fs::metadata(&path).unwrap().modified().unwrap();
            (text, modified)
        })
    };

    let main =
        ScratchDir::create(original.path(), &target, MAIN_TARGET, Budget::unlimited()).unwrap();
    assert_eq!(
        built(&main, "libdep-1.rlib"),
        Some(("built".into(), long_ago))
    );
    assert!(!main.target_dir.join("debug").join("incremental").exists());
    assert!(!main.target_dir.join("debug.seeding").exists());

    // A worker starts from `main`, with what was built there since.
    fs::write(main.target_dir.join("debug/deps/libdep-2.rlib"), "woven").unwrap();
    let worker =
        ScratchDir::create(original.path(), &target, "worker-0", Budget::unlimited()).unwrap();
    assert_eq!(
        built(&worker, "libdep-1.rlib"),
        Some(("built".into(), long_ago))
    );
    assert_eq!(built(&worker, "libdep-2.rlib").unwrap().0, "woven");

    // A dir with builds of its own keeps them.
    fs::write(main.target_dir.join("debug/deps/libdep-2.rlib"), "rebuilt").unwrap();
    let again =
        ScratchDir::create(original.path(), &target, "worker-0", Budget::unlimited()).unwrap();
    assert_eq!(built(&again, "libdep-2.rlib").unwrap().0, "woven");
}

#[test]
fn a_copy_given_back_is_reused_in_the_run_only_as_it_was_made() {
    let original = tempfile::tempdir().unwrap();
    fs::create_dir(original.path().join("src")).unwrap();
    fs::write(original.path().join("src/lib.rs"), "pub fn f() {}\n").unwrap();
    let target = original.path().join("target");
    let take =
        || ScratchDir::reused(original.path(), &target, "unit", Budget::unlimited()).unwrap();
    let lib = Path::new("src/lib.rs");
    spare::start();
    let first = take();
    let at = first.root().to_path_buf();
    first.write(lib, "pub fn f() { woven() }\n").unwrap();
    first.write(Path::new("src/new.rs"), "// made\n").unwrap();
    first.give_back();
    // At the same path, the tool's writes put back.
    let second = take();
    assert_eq!(second.root(), at);
    assert_eq!(fs::read_to_string(at.join(lib)).unwrap(), "pub fn f() {}\n");
    assert!(!at.join("src/new.rs").exists());
    // A file a test left: the copy is removed, the next is new.
    fs::write(at.join("output.txt"), "left").unwrap();
    second.give_back();
    assert!(!at.exists());
    let third = take();
    let (third_at, other) = (third.root().to_path_buf(), take());
    assert_ne!(third_at, at);
    assert_ne!(other.root(), third_at, "two copies alive at once are two");
    third.give_back();
    spare::end();
    // The run's end removes what it kept; outside a run nothing is kept.
    assert!(!third_at.exists());
    let other_at = other.root().to_path_buf();
    other.give_back();
    assert!(!other_at.exists());
}

#[test]
fn a_write_of_what_a_file_holds_leaves_it_and_its_time() {
    let original = tempfile::tempdir().unwrap();
    fs::write(original.path().join("lib.rs"), "same\n").unwrap();
    let scratch = unit_copy(original.path());
    let path = scratch.root().join("lib.rs");
    let before = fs::metadata(&path).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    scratch.write(Path::new("lib.rs"), "same\n").unwrap();
    assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), before);
    scratch.write(Path::new("lib.rs"), "other\n").unwrap();
    assert_ne!(fs::metadata(&path).unwrap().modified().unwrap(), before);
}
