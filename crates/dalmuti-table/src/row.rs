//! A table's settings as it is made and kept: its row, the seats whose
//! chat its host removed, and the kinds of its kept talk.

use crate::ids::TableId;
use crate::names::PlayerName;

/// A table as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableRow {
    /// Its id (random, unguessable: it is also the invite link).
    pub id: TableId,
    /// Its display name.
    pub name: String,
    /// How many seats (3 to 16).
    pub seats: usize,
    /// The rules.
    pub rules: dalmuti_core::Rules,
    /// Whether the lobby lists it (a private table is reached by its link).
    pub public: bool,
    /// The turn timer in seconds, if any.
    pub turn_seconds: Option<u32>,
    /// Whether spectators may chat (the host's setting; off by default).
    pub spectator_chat: bool,
    /// The table of this game's rematch, once one was asked for.
    pub rematch: Option<TableId>,
    /// Whether the game counts for ratings (the host's choice).
    pub rated: bool,
    /// The seats whose chat the host removed: they may chat no more, nor
    /// may the person who held the seat under another name.
    pub silenced: Vec<Silenced>,
}

/// A seat whose chat the host removed, and who held it beyond the seat's
/// name: the key of the player who kept that name, and marks of the
/// addresses it chatted from. A person who leaves and comes back under
/// another name (or as a spectator) is still silenced at the table: by
/// their key, or by their address (issue 40). The seats at the table
/// when the host silenced it (`spared`) are other people, whatever
/// address they share (a household, a mobile network): the address
/// holds only for newcomers and spectators.
///
/// An address is kept as a mark only ([`Silenced::mark`]): a hash of it
/// with the table's id, which says whether a later address is the same
/// at this table and nothing else (not the address itself, nor whether
/// two tables saw the same one).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(from = "SilencedText")]
pub struct Silenced {
    /// The seat's name.
    pub name: PlayerName,
    /// The key of the player who kept that name, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// The marks of the addresses the seat chatted from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub from: Vec<String>,
    /// The other seats at the table when it was silenced.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spared: Vec<PlayerName>,
}

/// A silenced seat as the `silenced` column holds it: a bare name (as
/// kept before issue 40) or the whole of it.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum SilencedText {
    Name(PlayerName),
    Whole {
        name: PlayerName,
        #[serde(default)]
        player: Option<String>,
        #[serde(default)]
        from: Vec<String>,
        #[serde(default)]
        spared: Vec<PlayerName>,
    },
}

impl From<SilencedText> for Silenced {
    fn from(text: SilencedText) -> Silenced {
        match text {
            SilencedText::Name(name) => Silenced {
                name,
                player: None,
                from: Vec::new(),
                spared: Vec::new(),
            },
            SilencedText::Whole {
                name,
                player,
                from,
                spared,
            } => Silenced {
                name,
                player,
                from,
                spared,
            },
        }
    }
}

impl Silenced {
    /// The mark address `ip` leaves at table `table`: the first 16 hex
    /// digits of a SHA-256 of both (an IPv6 address counted by its /64,
    /// as every per-address limit counts it).
    ///
    /// ```
    /// use dalmuti_table::row::Silenced;
    /// let ip = "192.0.2.1".parse().unwrap();
    /// let mark = Silenced::mark(&"t1".into(), ip);
    /// assert_eq!(mark.len(), 16);
    /// assert_eq!(mark, Silenced::mark(&"t1".into(), ip));
    /// assert_ne!(mark, Silenced::mark(&"t2".into(), ip));
    /// ```
    pub fn mark(table: &TableId, ip: std::net::IpAddr) -> String {
        use sha2::Digest;
        let key = crate::origin::address_key(ip);
        let digest = sha2::Sha256::digest(format!("{table} {key}").as_bytes());
        crate::ids::hex(&digest[..8])
    }
}

/// Whether a kept line is chat or table news (each kept up to its own
/// bound).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TalkKind {
    /// A line someone typed.
    Chat,
    /// Something that happened at the table.
    News,
}

impl TalkKind {
    /// The word the store keeps it under.
    pub fn as_str(self) -> &'static str {
        match self {
            TalkKind::Chat => "chat",
            TalkKind::News => "news",
        }
    }
}
