//! The regression file: failures of a test are saved beside the test crate
//! and replayed first on the next run (like `proptest-regressions/`).

use super::driver::Origin;
use super::settings::Settings;
use std::path::PathBuf;

/// The file of a property, when it can have one (a named test, a known
/// source file, a crate directory).
pub(crate) fn file_of(origin: &Origin) -> Option<PathBuf> {
    origin.test.as_ref()?;
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR")?;
    Some(crate::replay::regression_path(
        std::path::Path::new(&manifest),
        origin.file?,
    ))
}

/// The keys saved for this test.
pub(crate) fn saved_keys(config: &Settings, origin: &Origin) -> Vec<String> {
    if !config.regressions {
        return vec![];
    }
    match (file_of(origin), &origin.test) {
        (Some(path), Some(test)) => crate::replay::load_keys(&path, test),
        _ => vec![],
    }
}

/// Saves a failing key; returns the file's path when it was written.
pub(crate) fn save(config: &Settings, origin: &Origin, key: &str, shown: &str) -> Option<PathBuf> {
    if !config.regressions || key.is_empty() {
        return None;
    }
    let path = file_of(origin)?;
    let test = origin.test.as_ref()?;
    crate::replay::save_key(&path, test, key, shown).ok()?;
    Some(path)
}
