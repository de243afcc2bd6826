//! Names for the strings the server passes around, so that a table's id
//! is never given where a player's name is wanted, nor the other way
//! round: [`TableId`] here, [`PlayerName`](crate::names::PlayerName) with
//! the rules of names.
//!
//! Each is written as a plain JSON string (the wire and the store are
//! unchanged) and reads as a `&str` wherever text is wanted.

use std::fmt;

/// What a string newtype shares: reading as `&str` (and looked up in a map
/// by one), printing as itself, comparing with text.
macro_rules! text_type {
    ($name:ident) => {
        impl std::ops::Deref for $name {
            type Target = str;

            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl std::borrow::Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl PartialEq<$name> for str {
            fn eq(&self, other: &$name) -> bool {
                self == other.0
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }

        impl From<$name> for String {
            fn from(text: $name) -> String {
                text.0
            }
        }

        impl $name {
            /// The text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }
    };
}

pub(crate) use text_type;

/// Made from any text, unchecked: for the types whose every text is one.
macro_rules! from_text {
    ($name:ident) => {
        impl From<String> for $name {
            fn from(text: String) -> $name {
                $name(text)
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> $name {
                $name(text.to_string())
            }
        }
    };
}

pub(crate) use from_text;

/// A table's id: 96 random bits as 24 hex digits when the server makes
/// one ([`TableId::new`]). It is also a private table's invitation, so it
/// is never guessable. Any text read back (a path, a stored row) is taken
/// as an id: one that names no table is answered "no such table". The
/// default id is empty and names no table (rows built in tests).
///
/// ```
/// use dalmuti_table::ids::TableId;
/// let id = TableId::new();
/// assert_eq!(id.len(), 24);
/// assert_ne!(id, TableId::new());
/// assert_eq!(serde_json::to_string(&id).unwrap(), format!("\"{id}\""));
/// assert_eq!(TableId::from("t"), "t");
/// ```
#[derive(
    Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct TableId(String);

text_type!(TableId);

impl TableId {
    /// A new random id, from the operating system's random source.
    pub fn new() -> TableId {
        TableId(random_hex::<12>())
    }
}

/// `N` bytes from the operating system's random source, in lowercase hex.
pub fn random_hex<const N: usize>() -> String {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    hex(&bytes)
}

/// Lowercase hex.
///
/// ```
/// assert_eq!(dalmuti_table::ids::hex(&[0, 171]), "00ab");
/// ```
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

from_text!(TableId);

impl fmt::Debug for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

/// Stored as the text it is.
#[cfg(feature = "sql")]
impl rusqlite::ToSql for TableId {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        self.0.to_sql()
    }
}

#[cfg(feature = "sql")]
impl rusqlite::types::FromSql for TableId {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        String::column_result(value).map(TableId)
    }
}

#[cfg(feature = "sql")]
impl postgres::types::ToSql for TableId {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        self.0.to_sql(ty, out)
    }

    fn accepts(ty: &postgres::types::Type) -> bool {
        <String as postgres::types::ToSql>::accepts(ty)
    }

    postgres::types::to_sql_checked!();
}

#[cfg(feature = "sql")]
impl<'a> postgres::types::FromSql<'a> for TableId {
    fn from_sql(
        ty: &postgres::types::Type,
        raw: &'a [u8],
    ) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        String::from_sql(ty, raw).map(TableId)
    }

    fn accepts(ty: &postgres::types::Type) -> bool {
        <String as postgres::types::FromSql>::accepts(ty)
    }
}
