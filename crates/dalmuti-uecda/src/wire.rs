//! The bytes on the wire: an 8×15 table of 32-bit cells in network byte
//! order (protocol 20070, `man/protocol.html` § 13), its 33-character
//! hexadecimal form (protocol 20140, the kit's `conv_table_to_20140.c`),
//! and single integers. No meaning here: [`crate::StateTable`],
//! [`crate::Cells`] and [`crate::Hello`] read and write the cells.

use std::fmt;
use std::str::FromStr;

/// Rows of a table.
pub const ROWS: usize = 8;
/// Columns of a table.
pub const COLUMNS: usize = 15;
/// A table's size in protocol 20070: 8 × 15 cells of 4 bytes.
pub const TABLE_BYTES: usize = ROWS * COLUMNS * 4;
/// A table's size in protocol 20140's hexadecimal form.
pub const HEX_BYTES: usize = 33;
/// An integer's size (a player number, an answer to a play, an end flag).
pub const INT_BYTES: usize = 4;

/// The protocol a client speaks, from the first cell of its first table.
///
/// ```
/// use dalmuti_uecda::Protocol;
/// assert_eq!(Protocol::from_number(20070), Some(Protocol::Tables));
/// assert_eq!(Protocol::Hex.number(), 20140);
/// assert_eq!(Protocol::from_number(20060), None); // the 2006 protocol is not spoken
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// 20070 (UECda-2007 to this day): every table as 480 bytes.
    Tables,
    /// 20140: tables as 33 hexadecimal characters; integers as in 20070.
    Hex,
}

impl Protocol {
    /// The number a client writes in its first table's cell `[0][0]`.
    pub const fn number(self) -> i32 {
        match self {
            Protocol::Tables => 20070,
            Protocol::Hex => 20140,
        }
    }

    /// The protocol of that number, if it is one this crate speaks.
    pub const fn from_number(number: i32) -> Option<Protocol> {
        match number {
            20070 => Some(Protocol::Tables),
            20140 => Some(Protocol::Hex),
            _ => None,
        }
    }

    /// How many bytes a table takes in this protocol.
    pub const fn table_bytes(self) -> usize {
        match self {
            Protocol::Tables => TABLE_BYTES,
            Protocol::Hex => HEX_BYTES,
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// An 8×15 table as it crosses the wire: the cells as the reference
/// server holds them (C `int`s, so a cell may be negative in memory, as a
/// poor player's exchange count is; protocol 20070 sends a negative cell as
/// 0).
///
/// ```
/// use dalmuti_uecda::RawTable;
/// let mut t = RawTable::ZERO;
/// t.set(5, 3, 6);
/// t.set(5, 1, -2);
/// let bytes = t.to_bytes();
/// assert_eq!(&bytes[(5 * 15 + 3) * 4..][..4], &[0, 0, 0, 6]);
/// assert_eq!(RawTable::from_bytes(&bytes).get(5, 1), 0); // sent as 0
/// assert_eq!(t.to_string(), "5.1=-2 5.3=6");
/// assert_eq!("5.1=-2 5.3=6".parse::<RawTable>(), Ok(t));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct RawTable {
    cells: [[i32; COLUMNS]; ROWS],
}

impl RawTable {
    /// A table of zeros (a pass).
    pub const ZERO: RawTable = RawTable {
        cells: [[0; COLUMNS]; ROWS],
    };

    /// The cell at `row`, `column`.
    ///
    /// # Panics
    /// If `row` ≥ 8 or `column` ≥ 15.
    #[inline]
    pub fn get(&self, row: usize, column: usize) -> i32 {
        self.cells[row][column]
    }

    /// Sets the cell at `row`, `column`.
    ///
    /// # Panics
    /// If `row` ≥ 8 or `column` ≥ 15.
    #[inline]
    pub fn set(&mut self, row: usize, column: usize, value: i32) {
        self.cells[row][column] = value;
    }

    /// One row.
    pub fn row(&self, row: usize) -> &[i32; COLUMNS] {
        &self.cells[row]
    }

    /// One row, to change.
    pub fn row_mut(&mut self, row: usize) -> &mut [i32; COLUMNS] {
        &mut self.cells[row]
    }

    /// Protocol 20070: each cell a 4-byte big-endian integer, row by row; a
    /// negative cell is sent as 0 (the kit's `tn_card_write`).
    pub fn to_bytes(&self) -> [u8; TABLE_BYTES] {
        let mut out = [0u8; TABLE_BYTES];
        for (i, cell) in self.cells.iter().flatten().enumerate() {
            out[4 * i..4 * i + 4].copy_from_slice(&(*cell).max(0).to_be_bytes());
        }
        out
    }

    /// Reads a table of protocol 20070 (each cell as a C `int`, as the
    /// reference server reads it: 0xFFFFFFFF is −1).
    pub fn from_bytes(bytes: &[u8; TABLE_BYTES]) -> RawTable {
        let mut t = RawTable::ZERO;
        for (i, cell) in t.cells.iter_mut().flatten().enumerate() {
            let b = &bytes[4 * i..4 * i + 4];
            *cell = i32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        }
        t
    }

    /// Protocol 20140: 13 hexadecimal digits for the cards of the four suits
    /// by rank (bit 0 spades … bit 3 clubs), two for the Joker's cell
    /// (`FF` for none), one each for the exchange, the turn and the four
    /// flags of row 5, then the fifteen cells of row 6 (the kit's
    /// `conv_table_20140`). Only those cells travel.
    ///
    /// ```
    /// use dalmuti_uecda::RawTable;
    /// let t: RawTable = "0.1=1 2.1=1 4.1=2 5.0=1 5.1=2 5.3=6 6.0=11 6.12=4".parse().unwrap();
    /// let hex = t.to_hex();
    /// assert_eq!(&hex, b"50000000000003DC60B00000000000400");
    /// assert_eq!(RawTable::from_hex(&hex).unwrap(), t);
    /// ```
    pub fn to_hex(&self) -> [u8; HEX_BYTES] {
        let c = &self.cells;
        let mut out = [b'0'; HEX_BYTES];
        for col in 1..14 {
            let digit = (0..4).fold(0, |d, row| d | u32::from(c[row][col] == 1) << row);
            out[col - 1] = hex_digit(digit);
        }
        let joker = (0..5 * COLUMNS)
            .find(|&i| c[i / COLUMNS][i % COLUMNS] == 2)
            .map_or(0xFF, |i| i as u32);
        out[13] = hex_digit(joker >> 4);
        out[14] = hex_digit(joker & 0xF);
        // One digit each: the values a server sends fit (−2 … 2 for the
        // exchange, 0 … 6 for the turn, 0 … 13 in row 6).
        let digit = |v: i32| hex_digit(v.clamp(0, 15) as u32);
        out[15] = digit(8 * i32::from(c[5][0] == 1) + c[5][1] + 2);
        out[16] = digit(8 * i32::from(c[5][2] == 1) + c[5][3]);
        let flags = (0..4).fold(0, |f, i| f | i32::from(c[5][4 + i] == 1) << i);
        out[17] = digit(flags);
        for col in 0..COLUMNS {
            out[18 + col] = digit(c[6][col]);
        }
        out
    }

    /// Reads a table of protocol 20140 (the kit's `conv_20140_table`).
    pub fn from_hex(text: &[u8; HEX_BYTES]) -> Result<RawTable, BadHex> {
        let mut d = [0u32; HEX_BYTES];
        for (i, &b) in text.iter().enumerate() {
            d[i] = (b as char)
                .to_digit(16)
                .ok_or(BadHex::NotHex { at: i, byte: b })?;
        }
        let mut t = RawTable::ZERO;
        for (row, cells) in t.cells.iter_mut().take(4).enumerate() {
            for col in 1..14 {
                cells[col] = ((d[col - 1] >> row) & 1) as i32;
            }
        }
        let joker = (d[13] << 4 | d[14]) as usize;
        if joker != 0xFF {
            if joker >= 5 * COLUMNS {
                return Err(BadHex::JokerCell(joker));
            }
            t.cells[joker / COLUMNS][joker % COLUMNS] = 2;
        }
        t.cells[5][0] = (d[15] / 8 % 2) as i32;
        t.cells[5][1] = (d[15] % 8) as i32 - 2;
        t.cells[5][2] = (d[16] / 8 % 2) as i32;
        t.cells[5][3] = (d[16] % 8) as i32;
        for i in 0..4 {
            t.cells[5][4 + i] = ((d[17] >> i) & 1) as i32;
        }
        for col in 0..COLUMNS {
            t.cells[6][col] = d[18 + col] as i32;
        }
        Ok(t)
    }

    /// The table in a protocol's form.
    pub fn encode(&self, protocol: Protocol) -> Vec<u8> {
        match protocol {
            Protocol::Tables => self.to_bytes().to_vec(),
            Protocol::Hex => self.to_hex().to_vec(),
        }
    }

    /// Reads a table in a protocol's form; `bytes` must be
    /// [`Protocol::table_bytes`] long.
    pub fn decode(protocol: Protocol, bytes: &[u8]) -> Result<RawTable, BadHex> {
        match protocol {
            Protocol::Tables => {
                let array: &[u8; TABLE_BYTES] =
                    bytes.try_into().map_err(|_| BadHex::Length(bytes.len()))?;
                Ok(RawTable::from_bytes(array))
            }
            Protocol::Hex => {
                let array: &[u8; HEX_BYTES] =
                    bytes.try_into().map_err(|_| BadHex::Length(bytes.len()))?;
                RawTable::from_hex(array)
            }
        }
    }

    /// The nonzero cells, row by row: `(row, column, value)`.
    pub fn nonzero(&self) -> impl Iterator<Item = (usize, usize, i32)> + '_ {
        self.cells.iter().enumerate().flat_map(|(r, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, v)| **v != 0)
                .map(move |(c, v)| (r, c, *v))
        })
    }
}

fn hex_digit(v: u32) -> u8 {
    b"0123456789ABCDEF"[(v & 0xF) as usize]
}

/// A table in protocol 20140's form that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadHex {
    /// A byte that is not a hexadecimal digit.
    #[error("byte {at} of the table is {byte:#04x}, not a hexadecimal digit")]
    NotHex {
        /// Where.
        at: usize,
        /// The byte.
        byte: u8,
    },
    /// The Joker's cell is beyond the five rows of cards.
    #[error("the Joker's cell is {0}, beyond the 75 cells of the five rows of cards")]
    JokerCell(usize),
    /// Not a table's length.
    #[error("a table of {0} bytes (a table is 480 bytes, or 33 in protocol 20140)")]
    Length(usize),
}

/// The transcript form: the nonzero cells as `row.column=value`, separated
/// by spaces, row by row (a table of zeros is the empty string).
impl fmt::Display for RawTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (r, c, v)) in self.nonzero().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{r}.{c}={v}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for RawTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawTable({self})")
    }
}

/// A cell of the transcript form that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a cell `row.column=value` of an 8×15 table")]
pub struct BadCell(pub String);

impl FromStr for RawTable {
    type Err = BadCell;

    fn from_str(text: &str) -> Result<RawTable, BadCell> {
        let mut t = RawTable::ZERO;
        for item in text.split_ascii_whitespace() {
            let bad = || BadCell(item.chars().take(40).collect());
            let (place, value) = item.split_once('=').ok_or_else(bad)?;
            let (row, col) = place.split_once('.').ok_or_else(bad)?;
            let row: usize = row.parse().map_err(|_| bad())?;
            let col: usize = col.parse().map_err(|_| bad())?;
            let value: i32 = value.parse().map_err(|_| bad())?;
            if row >= ROWS || col >= COLUMNS {
                return Err(bad());
            }
            t.cells[row][col] = value;
        }
        Ok(t)
    }
}

/// An integer as sent: 4 bytes, big-endian; a negative value as 0 (the
/// kit's `tn_int_write`).
///
/// ```
/// assert_eq!(dalmuti_uecda::int_bytes(9), [0, 0, 0, 9]);
/// assert_eq!(dalmuti_uecda::int_bytes(-1), [0, 0, 0, 0]);
/// ```
pub fn int_bytes(value: i32) -> [u8; INT_BYTES] {
    value.max(0).to_be_bytes()
}

/// An integer as read.
pub fn int_from_bytes(bytes: [u8; INT_BYTES]) -> i32 {
    i32::from_be_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_round_trip_through_both_forms() {
        let t: RawTable = "0.1=1 0.13=1 3.7=1 1.0=2 5.0=1 5.1=-1 5.2=1 5.3=4 5.4=1 5.7=1 \
                           6.0=10 6.4=11 6.9=4 6.10=3 6.14=2"
            .parse()
            .unwrap();
        assert_eq!(RawTable::from_bytes(&t.to_bytes()), {
            let mut c = t;
            c.set(5, 1, 0);
            c
        });
        assert_eq!(RawTable::from_hex(&t.to_hex()).unwrap(), t);
        assert_eq!(t.to_string().parse::<RawTable>().unwrap(), t);
    }

    #[test]
    fn garbage_is_refused_with_its_place() {
        let mut hex = RawTable::ZERO.to_hex();
        hex[20] = b'x';
        assert_eq!(
            RawTable::from_hex(&hex),
            Err(BadHex::NotHex { at: 20, byte: b'x' })
        );
        let mut hex = RawTable::ZERO.to_hex();
        hex[13] = b'F';
        hex[14] = b'0';
        assert_eq!(RawTable::from_hex(&hex), Err(BadHex::JokerCell(0xF0)));
        for bad in ["8.0=1", "0.15=1", "0.1", "a.b=c", "0.1=x"] {
            assert!(bad.parse::<RawTable>().is_err(), "{bad}");
        }
        let cells = RawTable::from_bytes(&[0xFF; TABLE_BYTES]);
        assert_eq!(cells.get(7, 14), -1);
    }
}
