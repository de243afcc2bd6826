//! TLS to the database, for a PostgreSQL on another host (issue 24).
//!
//! The address says whether: `sslmode=require` (or `verify-ca`,
//! `verify-full`) in the URL, or a CA file (`sslrootcert=PATH` in the URL,
//! or `dalmuti serve --database-ca PATH`). The certificate is then always
//! verified, host name included, as libpq's `verify-full` does: against the
//! CA file if one is given, else the system's trusted roots. Without either
//! the connection is plain, as before (`sslmode=disable` or `prefer`, the
//! default): a database on loopback or a private network.

use std::path::{Path, PathBuf};

use postgres::config::SslMode;
use rustls::RootCertStore;
use rustls_pki_types::CertificateDer;
use rustls_pki_types::pem::PemObject;
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::store::StoreError;

/// How connections are made: plain or over TLS.
#[derive(Clone)]
pub(super) enum Connector {
    Plain,
    Tls(MakeRustlsConnect),
}

/// The address without the options only this side reads (`sslrootcert`,
/// and the `verify-*` modes the driver does not know), and what they ask.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Address {
    /// What the driver parses.
    pub url: String,
    /// TLS asked for by `sslmode`.
    pub required: bool,
    /// The CA file from `sslrootcert`.
    pub ca: Option<PathBuf>,
}

impl Address {
    /// Splits `url` (`postgres://…?k=v&…` or `k=v k=v`).
    pub fn parse(url: &str) -> Address {
        let mut required = false;
        let mut ca = None;
        let mut keep = |key: &str, value: &str| -> Option<String> {
            match key {
                "sslrootcert" => {
                    ca = Some(PathBuf::from(value));
                    None
                }
                "sslmode" if matches!(value, "require" | "verify-ca" | "verify-full") => {
                    required = true;
                    Some(format!("{key}=require"))
                }
                _ => Some(format!("{key}={value}")),
            }
        };
        let url = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            match url.split_once('?') {
                Some((base, query)) => {
                    let kept: Vec<String> = query
                        .split('&')
                        .filter(|p| !p.is_empty())
                        .filter_map(|p| {
                            let (k, v) = p.split_once('=').unwrap_or((p, ""));
                            keep(k, v)
                        })
                        .collect();
                    if kept.is_empty() {
                        base.to_string()
                    } else {
                        format!("{base}?{}", kept.join("&"))
                    }
                }
                None => url.to_string(),
            }
        } else {
            url.split_whitespace()
                .filter_map(|p| match p.split_once('=') {
                    Some((k, v)) => keep(k, v),
                    None => Some(p.to_string()),
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        Address { url, required, ca }
    }
}

/// The connector for `config`, with the CA file `ca` if one is given
/// (the operator's `--database-ca` before the URL's `sslrootcert`).
pub(super) fn connector(
    config: &mut postgres::Config,
    required: bool,
    ca: Option<&Path>,
) -> Result<Connector, StoreError> {
    if !required && ca.is_none() {
        return Ok(Connector::Plain);
    }
    config.ssl_mode(SslMode::Require);
    let mut roots = RootCertStore::empty();
    match ca {
        Some(path) => {
            let certs = CertificateDer::pem_file_iter(path)
                .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
                .map_err(|e| {
                    StoreError::Failed(format!(
                        "PostgreSQL: the database's CA file {}: {e}",
                        path.display()
                    ))
                })?;
            if certs.is_empty() {
                return Err(StoreError::Failed(format!(
                    "PostgreSQL: the database's CA file {} holds no PEM certificate",
                    path.display()
                )));
            }
            for cert in certs {
                roots.add(cert).map_err(|e| {
                    StoreError::Failed(format!(
                        "PostgreSQL: a certificate of {}: {e}",
                        path.display()
                    ))
                })?;
            }
        }
        None => {
            let found = rustls_native_certs::load_native_certs();
            let (added, _) = roots.add_parsable_certificates(found.certs);
            if added == 0 {
                return Err(StoreError::Failed(
                    "PostgreSQL: TLS asked for, but the system has no trusted root \
                     certificates: give the database's CA with --database-ca"
                        .into(),
                ));
            }
        }
    }
    let tls = rustls::ClientConfig::builder()
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Connector::Tls(MakeRustlsConnect::new(tls)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_only_this_side_reads_are_taken_out_of_the_address() {
        let a = Address::parse("postgres://u@db:5432/d?sslmode=verify-full&sslrootcert=/ca.pem");
        assert_eq!(a.url, "postgres://u@db:5432/d?sslmode=require");
        assert!(a.required);
        assert_eq!(a.ca, Some(PathBuf::from("/ca.pem")));
        let a = Address::parse("host=db user=u sslrootcert=/ca.pem");
        assert_eq!(a.url, "host=db user=u");
        assert!(!a.required);
        assert_eq!(a.ca, Some(PathBuf::from("/ca.pem")));
        let plain = Address::parse("postgres://u@127.0.0.1/d");
        assert_eq!(plain.url, "postgres://u@127.0.0.1/d");
        assert!(!plain.required && plain.ca.is_none());
        let a = Address::parse("postgres://u@db/d?sslrootcert=/ca.pem");
        assert_eq!(a.url, "postgres://u@db/d");
    }

    #[test]
    fn a_missing_or_empty_ca_file_is_an_error_that_names_it() {
        let mut config = postgres::Config::new();
        let e = match connector(&mut config, true, Some(Path::new("/no/such/ca.pem"))) {
            Err(e) => e,
            Ok(_) => panic!("a missing CA file was taken"),
        };
        assert!(e.message().contains("/no/such/ca.pem"), "{e}");
        let plain = connector(&mut config, false, None).ok().unwrap();
        assert!(matches!(plain, Connector::Plain));
    }
}
