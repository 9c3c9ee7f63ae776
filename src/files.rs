//! Files that hold credentials (the admin's personal link, the local certificate authority's key).

use std::io::Write;
use std::path::Path;

/// Writes `text` to `file`, readable and writable by its owner alone (on Unix; elsewhere as the folder allows).
pub fn write_private(file: &Path, text: &str) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(file)?.write_all(text.as_bytes())
}
