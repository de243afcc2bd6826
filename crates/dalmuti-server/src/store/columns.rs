//! What both databases read and write the same way: the columns of a
//! table's row and of a ticket, a player's row checked as it is read, the
//! silenced seats' text, and the look-alike forms of names kept before.

use super::{PlayerRow, Seating, Silenced, StoreError, TableId, Ticket};

/// The look-alike forms of players kept before forms were kept, oldest
/// first (`(key, name)`): each player's key and form, the form given to
/// the oldest of players whose names look alike only (the others keep
/// their names, which were theirs first, without a form: their look-alike
/// form is the older player's).
pub(crate) fn alike_forms(players: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut taken = std::collections::HashSet::new();
    players
        .into_iter()
        .filter_map(|(key, name)| {
            let form = crate::names::form(&name);
            taken.insert(form.clone()).then_some((key, form))
        })
        .collect()
}

/// The columns of a table's row, in the order both stores read them.
pub(crate) const ROW: &str =
    "id, name, seats, rules, public, turn_seconds, spectator_chat, rematch, rated, silenced";

/// A player's row from its columns, checked.
pub(crate) fn player_from(
    key: String,
    name: &str,
    secret: &str,
    since: i64,
) -> Result<PlayerRow, StoreError> {
    let bad = |what: &str| StoreError::Failed(format!("the player {key:?} has a bad {what}"));
    let name = crate::names::PlayerName::new(name).map_err(|_| bad("name"))?;
    let mut secret_hash = [0u8; 32];
    if secret.len() != 64 || !secret.is_ascii() {
        return Err(bad("secret hash"));
    }
    for (i, byte) in secret_hash.iter_mut().enumerate() {
        *byte =
            u8::from_str_radix(&secret[2 * i..2 * i + 2], 16).map_err(|_| bad("secret hash"))?;
    }
    Ok(PlayerRow {
        key,
        name,
        secret_hash,
        since: since.max(0) as u64,
    })
}

/// The `silenced` column's text: the silenced seats as a JSON array.
pub(crate) fn silenced_text(silenced: &[Silenced]) -> String {
    serde_json::to_string(silenced).expect("silenced seats serialize")
}

/// The `silenced` column read back (bare names, as kept before issue
/// 40, too); a value that does not read (which only a hand-edited
/// database has) silences nobody.
pub(crate) fn silenced_from(text: &str) -> Vec<Silenced> {
    serde_json::from_str(text).unwrap_or_default()
}

/// The columns of a ticket, in the order both stores read them.
pub(crate) const TICKET: &str =
    "id, key, name, game, players, wait_ms, mu, since, table_id, claimed, seated, origin";

/// A ticket from its columns (read as [`TICKET`] names them).
#[allow(clippy::too_many_arguments)] // one per column
pub(crate) fn ticket_from(
    id: String,
    key: String,
    name: &str,
    game: String,
    players: i64,
    wait_ms: i64,
    mu: f64,
    since: i64,
    (table, claimed, seated, from): (Option<TableId>, Option<i64>, bool, Option<String>),
) -> Result<Ticket, StoreError> {
    let name = crate::names::PlayerName::new(name)
        .map_err(|_| StoreError::Failed(format!("ticket {id} has a bad name")))?;
    let seating = match (table, seated) {
        (None, _) => Seating::Waiting,
        (Some(table), true) => Seating::Seated(table),
        (Some(table), false) => Seating::Claimed {
            table,
            since: claimed.unwrap_or(since).max(0) as u64,
        },
    };
    Ok(Ticket {
        id,
        key,
        name,
        game,
        players: players.max(0) as usize,
        wait_ms: wait_ms.max(0) as u64,
        mu,
        since: since.max(0) as u64,
        from,
        seating,
    })
}

// The JSON text the databases keep, written and read in one place: the
// rest of the server sees the types.

/// A table's rules as its row keeps them.
pub(crate) fn rules_text(rules: &dalmuti_core::Rules) -> String {
    serde_json::to_string(rules).expect("rules serialize")
}

/// A table's rules read back: a row whose rules do not read is an error
/// that names the table, not a table.
pub(crate) fn rules_from(table: &str, text: &str) -> Result<dalmuti_core::Rules, StoreError> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::Failed(format!("table {table} has rules that do not read: {e}")))
}

/// An event as the log keeps it.
pub(crate) fn event_text(event: &dalmuti_table::state::Stored) -> String {
    serde_json::to_string(event).expect("an event serializes")
}

/// Event `v` of `table` read back.
pub(crate) fn event_from(
    table: &TableId,
    v: usize,
    text: &str,
) -> Result<dalmuti_table::state::Stored, StoreError> {
    serde_json::from_str(text).map_err(|e| {
        StoreError::Failed(format!(
            "event {} of table {table} does not read: {e}",
            v + 1
        ))
    })
}

/// A finished table's lobby summary as kept.
pub(crate) fn summary_text(summary: &crate::protocol::TableInfo) -> String {
    serde_json::to_string(summary).expect("a summary serializes")
}

/// A lobby summary read back; one that does not read (which only a
/// hand-edited database has) is left out.
pub(crate) fn summary_from(text: &str) -> Option<crate::protocol::TableInfo> {
    serde_json::from_str(text).ok()
}

/// A line of talk as kept.
pub(crate) fn talk_text(line: &crate::protocol::TalkLine) -> String {
    match line {
        crate::protocol::TalkLine::Chat(l) => serde_json::to_string(l),
        crate::protocol::TalkLine::News(l) => serde_json::to_string(l),
    }
    .expect("a line serializes")
}

/// A kept line of `kind` read back; one that does not read is `None` (it
/// is only talk: its number still counts).
pub(crate) fn talk_from(kind: super::TalkKind, text: &str) -> Option<crate::protocol::TalkLine> {
    match kind {
        super::TalkKind::Chat => serde_json::from_str(text)
            .ok()
            .map(crate::protocol::TalkLine::Chat),
        super::TalkKind::News => serde_json::from_str(text)
            .ok()
            .map(crate::protocol::TalkLine::News),
    }
}
