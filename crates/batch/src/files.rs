//! Whole-file writes that a crash or a kill cannot leave half done.

use std::path::Path;

/// Writes `bytes` to `path` through a temporary file in the same folder (`.NAME.PID.tmp`),
/// renamed over `path`, so that the file is whole at every moment: the old contents or the new.
/// The temporary file is removed when the rename fails.
///
/// # Errors
/// The write or the rename's I/O error.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map_or("file".into(), |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_replaced_whole_and_no_temporary_file_stays() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.ply");
        write_atomically(&path, b"old").unwrap();
        write_atomically(&path, b"new contents").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new contents");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
        // a folder in the way: the rename fails, the temporary file goes
        let blocked = dir.path().join("sub");
        std::fs::create_dir(&blocked).unwrap();
        std::fs::write(blocked.join("x"), b"x").unwrap();
        assert!(write_atomically(&blocked, b"y").is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
