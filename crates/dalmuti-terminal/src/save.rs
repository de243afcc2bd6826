//! Where and how a game is saved: a game record named by date, time and
//! seed, in the user's data directory.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// A game that could not be saved, and why, in words for the player.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// Neither `XDG_DATA_HOME` nor `HOME` says where to save.
    #[error("cannot find where to save games: set XDG_DATA_HOME or HOME")]
    NoDirectory,
    /// The directory or the file could not be written.
    #[error("cannot save the game in {}: {reason}", .path.display())]
    Write {
        /// The directory or file.
        path: PathBuf,
        /// The system's reason.
        reason: String,
    },
}

/// The directory games are saved in: `$XDG_DATA_HOME/dalmuti/games`, or
/// `~/.local/share/dalmuti/games` when `XDG_DATA_HOME` is unset, empty or
/// not an absolute path (as the XDG specification asks).
pub fn default_dir() -> Result<PathBuf, SaveError> {
    let xdg = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    let data = match xdg {
        Some(p) => p,
        None => std::env::var_os("HOME")
            .map(PathBuf::from)
            .filter(|p| !p.as_os_str().is_empty())
            .ok_or(SaveError::NoDirectory)?
            .join(".local/share"),
    };
    Ok(data.join("dalmuti").join("games"))
}

/// Writes `text` to a new file in `dir` (created if needed) named
/// `YYYY-MM-DDTHH-MM-SSZ-seed-SEED.json`, with `-2`, `-3`… added if that
/// name is taken; never overwrites a file.
pub fn write_new(dir: &Path, seed: &str, text: &str) -> Result<PathBuf, SaveError> {
    let fail = |path: &Path, e: std::io::Error| SaveError::Write {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
    let stem = format!("{}-seed-{seed}", utc_stamp(SystemTime::now()));
    for n in 1..=1000 {
        let name = if n == 1 {
            format!("{stem}.json")
        } else {
            format!("{stem}-{n}.json")
        };
        let path = dir.join(name);
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut file) => {
                file.write_all(text.as_bytes())
                    .and_then(|()| file.write_all(b"\n"))
                    .and_then(|()| file.sync_all())
                    .map_err(|e| fail(&path, e))?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(fail(&path, e)),
        }
    }
    Err(fail(
        dir,
        std::io::Error::other("too many games saved this second"),
    ))
}

/// A UTC time as `YYYY-MM-DDTHH-MM-SSZ` (no colons: file names must work
/// everywhere).
pub fn utc_stamp(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}-{:02}-{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn stamps_are_utc_dates() {
        assert_eq!(utc_stamp(UNIX_EPOCH), "1970-01-01T00-00-00Z");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400 + 3_723); // 2000-02-29
        assert_eq!(utc_stamp(t), "2000-02-29T01-02-03Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_735_689_599); // last second of 2024
        assert_eq!(utc_stamp(t), "2024-12-31T23-59-59Z");
    }

    #[test]
    fn saving_never_overwrites() {
        let dir = std::env::temp_dir().join(format!("dalmuti-save-{}", std::process::id()));
        let a = write_new(&dir, "7", "{}").unwrap();
        let b = write_new(&dir, "7", "{}").unwrap();
        assert_ne!(a, b);
        assert!(
            a.file_name()
                .unwrap()
                .to_string_lossy()
                .ends_with("-seed-7.json")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
