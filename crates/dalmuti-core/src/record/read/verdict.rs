//! The verdict's JSON form, as `dalmuti check --json` prints it.

use serde::Serialize;

use super::Checked;

/// The verdict as `dalmuti check --json` prints it (the spec's
/// "`dalmuti check`" section), through the output's own types below.
impl Serialize for Checked {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Checked::Valid(r) => ValidOut {
                valid: true,
                hands: r
                    .hands
                    .iter()
                    .map(|h| HandOut {
                        finished: h.finished,
                        revolution: h.revolution,
                        finish_order: &h.finish_order,
                        scores: h.scores.as_deref().map(Points),
                    })
                    .collect(),
                seating: r.seating.as_deref(),
                totals: r.totals.as_deref().map(Points),
            }
            .serialize(serializer),
            Checked::Invalid(f) => InvalidOut {
                valid: false,
                error: FaultOut {
                    hand: f.hand,
                    play: f.play,
                    message: &f.message,
                },
            }
            .serialize(serializer),
            Checked::Unreadable(m) => UnreadableOut {
                valid: false,
                unreadable: m,
            }
            .serialize(serializer),
        }
    }
}

#[derive(Serialize)]
struct ValidOut<'a> {
    valid: bool,
    hands: Vec<HandOut<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seating: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    totals: Option<Points<'a>>,
}

#[derive(Serialize)]
struct HandOut<'a> {
    finished: bool,
    revolution: &'static str,
    finish_order: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    scores: Option<Points<'a>>,
}

#[derive(Serialize)]
struct InvalidOut<'a> {
    valid: bool,
    error: FaultOut<'a>,
}

#[derive(Serialize)]
struct FaultOut<'a> {
    hand: Option<usize>,
    play: Option<usize>,
    message: &'a str,
}

#[derive(Serialize)]
struct UnreadableOut<'a> {
    valid: bool,
    unreadable: &'a str,
}

/// Points by player, as one object in the order given.
struct Points<'a>(&'a [(String, u32)]);

impl Serialize for Points<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, points)| (name, points)))
    }
}
