//! Choosing an action from STATE: the scripted clients' play.

use serde_json::{Value, json};

// Choosing a legal action from STATE.

/// Cards by rank: `counts[r]` numbered cards of rank `r` (1 to 12) and
/// `jesters`.
pub(crate) struct Cards {
    pub(crate) counts: [u8; 13],
    pub(crate) jesters: u8,
}

impl Cards {
    pub(crate) fn parse(hand: &str) -> Cards {
        let mut cards = Cards {
            counts: [0; 13],
            jesters: 0,
        };
        for token in hand.split_whitespace() {
            if token == "J" {
                cards.jesters += 1;
            } else if let Ok(rank) = token.parse::<usize>()
                && (1..=12).contains(&rank)
            {
                cards.counts[rank] += 1;
            }
        }
        cards
    }

    /// The `n` worst cards (highest ranks first, Jesters last), best first.
    pub(crate) fn worst(&self, n: usize) -> Option<String> {
        let mut picked = Vec::new();
        for rank in (1..=12).rev() {
            for _ in 0..self.counts[rank] {
                if picked.len() < n {
                    picked.push(rank.to_string());
                }
            }
        }
        for _ in 0..self.jesters {
            if picked.len() < n {
                picked.push("J".to_string());
            }
        }
        if picked.len() < n || n == 0 {
            return None;
        }
        // Best first, Jesters last.
        picked.sort_by_key(|c| c.parse::<u8>().unwrap_or(13));
        Some(picked.join(" "))
    }
}

/// A legal action for `decision` (STATE's) holding `hand`: no revolution,
/// no exchange, the worst cards as tax or in answer, the worst single card
/// to lead, a pass to follow. None for a decision it does not know.
pub(crate) fn choose(decision: &Value, hand: &str) -> Option<Value> {
    let cards = Cards::parse(hand);
    match decision.get("kind")?.as_str()? {
        "tax" => {
            let count = decision.get("count")?.as_u64()? as usize;
            Some(json!({ "give_tax": cards.worst(count)? }))
        }
        "offer_exchange" | "exchange_offer" => Some(json!("decline_exchange")),
        "answer_exchange" | "exchange_answer" => {
            Some(json!({ "answer_exchange": cards.worst(1)? }))
        }
        "lead" => Some(json!({ "play": cards.worst(1)? })),
        "follow" => Some(json!("pass")),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
