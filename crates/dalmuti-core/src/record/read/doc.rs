//! A record's document as serde reads it: every part typed, in the shape
//! the format gives it (`shared/specs/game-record.md`, `docs/RECORDS.md`).
//! What the parts mean (names seated, cards dealt, plays legal) is checked
//! by the reader, which replays them through the engine.
//!
//! Fields the format does not name are ignored, as its page asks of a
//! reader. A hand is kept as its text until the reader reaches it, and a
//! play line as whatever it was, so that the first fault of a record is
//! the one reported: a malformed hand after an illegal play is not.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;
use std::num::NonZeroU32;

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::rules::Scoring;
use crate::variant::Variant;

/// The document's top level.
#[derive(Deserialize)]
pub(super) struct Doc<'a> {
    #[serde(borrow)]
    pub format: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub rules: Option<Obj<RulesIn<'a>>>,
    pub draw: Option<Vec<Names<String>>>,
    pub seating: Option<Vec<String>>,
    /// Each hand's text, read when the reader comes to it.
    #[serde(borrow)]
    pub hands: Option<Vec<&'a RawValue>>,
}

/// The rules; a field left out (or null) keeps the default.
#[derive(Deserialize)]
pub(super) struct RulesIn<'a> {
    pub variant: Option<Variant>,
    pub stripped_deck: Option<bool>,
    pub first_deal_revolution: Option<bool>,
    pub merchant_exchange: Option<bool>,
    pub join_and_leave: Option<bool>,
    pub scoring: Option<Scoring>,
    /// President and Daifugō's options, over the variant's own: read by
    /// [`crate::Climbing::over`], which knows them by name.
    #[serde(borrow)]
    pub climbing: Option<&'a RawValue>,
    pub hands: Option<NonZeroU32>,
}

/// One hand.
#[derive(Deserialize)]
pub(super) struct HandIn<'a> {
    pub leave: Option<Vec<String>>,
    pub join: Option<Vec<Obj<JoinIn>>>,
    pub seating: Option<Vec<String>>,
    pub deal: Option<Names<String>>,
    pub revolution: Option<String>,
    pub tax: Option<Names<String>>,
    pub merchant_exchange: Option<Names<String>>,
    pub merchant_offer: Option<Obj<OfferIn>>,
    pub declined: Option<Vec<Declined>>,
    pub ready: Option<Vec<String>>,
    pub stalemate: Option<Vec<String>>,
    #[serde(borrow)]
    pub plays: Option<Vec<Line<'a>>>,
}

/// A newcomer and its seat.
#[derive(Deserialize)]
pub(super) struct JoinIn {
    pub name: String,
    pub seat: u64,
}

/// A merchant exchange offered and not yet answered.
#[derive(Deserialize)]
pub(super) struct OfferIn {
    pub from: String,
    pub to: String,
    pub card: String,
}

/// A decision declined (the project's own field).
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub(super) enum Declined {
    Revolution,
    MerchantExchange,
}

/// A `T` that must be written as a JSON object: serde would also read a
/// struct from an array of its fields in order, which no record holds.
pub(super) struct Obj<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Obj<T>, D::Error> {
        struct ObjVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjVisitor<T> {
            type Value = Obj<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Obj<T>, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(Obj)
            }
        }
        deserializer.deserialize_map(ObjVisitor(PhantomData))
    }
}

/// An object keyed by player name (a deal, a tax, a round of the draw),
/// its entries in the order written; a name given twice keeps its first
/// place and its last value.
pub(super) type Names<T> = IndexMap<String, T>;

/// One entry of a hand's `plays`: its text, or what it was instead of a
/// string (refused when the reader comes to it, in its turn).
pub(super) struct Line<'a>(pub Result<Cow<'a, str>, Kind>);

impl<'de: 'a, 'a> Deserialize<'de> for Line<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Line<'a>, D::Error> {
        struct LineVisitor<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for LineVisitor<'a> {
            type Value = Line<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a play line")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Line<'a>, E> {
                Ok(Line(Ok(Cow::Borrowed(s))))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Line<'a>, E> {
                Ok(Line(Ok(Cow::Owned(s.to_owned()))))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Line<'a>, E> {
                Ok(Line(Ok(Cow::Owned(s))))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Line<'a>, E> {
                Ok(Line(Err(Kind::Boolean)))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Line<'a>, E> {
                Ok(Line(Err(Kind::Number)))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Line<'a>, E> {
                Ok(Line(Err(Kind::Number)))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Line<'a>, E> {
                Ok(Line(Err(Kind::Number)))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Line<'a>, E> {
                Ok(Line(Err(Kind::Null)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Line<'a>, A::Error> {
                KindVisitor.visit_seq(seq).map(|k| Line(Err(k)))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Line<'a>, A::Error> {
                KindVisitor.visit_map(map).map(|k| Line(Err(k)))
            }
        }
        deserializer.deserialize_any(LineVisitor(PhantomData))
    }
}

/// What kind of JSON value something is, for messages: "not an array".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Null,
    Boolean,
    Number,
    String,
    Array,
    Object,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Kind::Null => "null",
            Kind::Boolean => "a boolean",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        })
    }
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Kind, D::Error> {
        deserializer.deserialize_any(KindVisitor)
    }
}

/// Reads any value (all of it: its syntax is checked) for its kind.
struct KindVisitor;

impl<'de> Visitor<'de> for KindVisitor {
    type Value = Kind;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Kind, E> {
        Ok(Kind::Boolean)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Kind, E> {
        Ok(Kind::Number)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Kind, E> {
        Ok(Kind::Number)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Kind, E> {
        Ok(Kind::Number)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Kind, E> {
        Ok(Kind::String)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Kind, E> {
        Ok(Kind::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Kind, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Kind::Array)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Kind, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Kind::Object)
    }
}

/// What a text that could not be read as a record holds at its top: an
/// object and its `format` (a string, or what it is instead), or another
/// kind of value. Reading it checks the whole text's syntax.
pub(super) enum Top {
    Object {
        format: Option<Result<String, Kind>>,
    },
    Not(Kind),
}

impl<'de> Deserialize<'de> for Top {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Top, D::Error> {
        struct TopVisitor;
        impl<'de> Visitor<'de> for TopVisitor {
            type Value = Top;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top, A::Error> {
                let mut format = None;
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    if key == "format" {
                        format = match map.next_value::<Line<'de>>()?.0 {
                            Err(Kind::Null) => None,
                            read => Some(read.map(Cow::into_owned)),
                        };
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(Top::Object { format })
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Top, A::Error> {
                KindVisitor.visit_seq(seq).map(Top::Not)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Top, E> {
                Ok(Top::Not(Kind::Boolean))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Top, E> {
                Ok(Top::Not(Kind::Number))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Top, E> {
                Ok(Top::Not(Kind::Number))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Top, E> {
                Ok(Top::Not(Kind::Number))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Top, E> {
                Ok(Top::Not(Kind::String))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Top, E> {
                Ok(Top::Not(Kind::Null))
            }
        }
        deserializer.deserialize_any(TopVisitor)
    }
}

/// Reads `text` as a `T`, or says where in it and what is wrong: the
/// path (`deal.Dana`, `seating[3]`; empty for the whole) and serde's
/// words, without a line and column (the path says where).
pub(super) fn read_part<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, (String, String)> {
    let mut de = serde_json::Deserializer::from_str(text);
    let read = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        (path, crate::wire::without_position(e.inner()))
    })?;
    // Nothing but white space after it: else it is not JSON.
    de.end()
        .map_err(|e| (String::new(), crate::wire::without_position(&e)))?;
    Ok(read)
}
