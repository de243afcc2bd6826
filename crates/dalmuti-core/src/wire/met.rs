//! What a reader of actions meets: any JSON value, kept as much as an
//! action's reader asks of it and as a message needs to show it.

use std::borrow::Cow;

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

/// Any JSON value met where an action is read: what the reader asks of it
/// (a string, a whole number, an object's fields), and enough to show a
/// sender what it sent when that is not an action, in `serde_json`'s
/// compact form (`{"play":"6 6","pass":1}`). Read by serde from any
/// deserializer, so that a malformed action is answered in the same words
/// whether it came as text or as a parsed value.
pub(super) enum Met<'de> {
    Text(Cow<'de, str>),
    /// A whole number from 0.
    Whole(u64),
    Null,
    /// An object's fields in order; a key given twice keeps its first
    /// place and its last value, as `serde_json` reads it.
    Fields(IndexMap<String, Met<'de>>),
    /// Anything else (`true`, `-1`, `2.5`, an array), as its text: shown,
    /// never read.
    Other(String),
}

impl Met<'_> {
    /// Its JSON text.
    pub(super) fn text(&self) -> String {
        match self {
            Met::Text(s) => quoted(s),
            Met::Whole(n) => n.to_string(),
            Met::Null => "null".into(),
            Met::Fields(fields) => {
                let fields: Vec<String> = fields
                    .iter()
                    .map(|(k, v)| format!("{}:{}", quoted(k), v.text()))
                    .collect();
                format!("{{{}}}", fields.join(","))
            }
            Met::Other(text) => text.clone(),
        }
    }

    /// Its text for a message, cut short if long.
    pub(super) fn shown(&self) -> String {
        super::truncate(&self.text(), 80)
    }

    /// An object's field.
    pub(super) fn get(&self, key: &str) -> Option<&Self> {
        match self {
            Met::Fields(fields) => fields.get(key),
            _ => None,
        }
    }
}

/// A string as JSON text.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string always serializes")
}

impl<'de> Deserialize<'de> for Met<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Met<'de>, D::Error> {
        deserializer.deserialize_any(MetVisitor)
    }
}

struct MetVisitor;

impl<'de> Visitor<'de> for MetVisitor {
    type Value = Met<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Met<'de>, E> {
        Ok(Met::Other(b.to_string()))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Met<'de>, E> {
        Ok(u64::try_from(n).map_or_else(|_| Met::Other(n.to_string()), Met::Whole))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Met<'de>, E> {
        Ok(Met::Whole(n))
    }

    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Met<'de>, E> {
        Ok(Met::Other(
            serde_json::to_string(&x).expect("a number always serializes"),
        ))
    }

    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Met<'de>, E> {
        Ok(Met::Text(Cow::Borrowed(s)))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Met<'de>, E> {
        Ok(Met::Text(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Met<'de>, E> {
        Ok(Met::Text(Cow::Owned(s)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Met<'de>, E> {
        Ok(Met::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Met<'de>, E> {
        Ok(Met::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Met<'de>, D::Error> {
        Met::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Met<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Met>()? {
            items.push(item.text());
        }
        Ok(Met::Other(format!("[{}]", items.join(","))))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Met<'de>, A::Error> {
        let mut fields = IndexMap::new();
        while let Some((key, value)) = map.next_entry::<String, Met>()? {
            fields.insert(key, value);
        }
        Ok(Met::Fields(fields))
    }
}
