//! Drawing the full-screen game: `impl Widget for &App`.
//!
//! The screen, top to bottom: a header line; the table (seats in order,
//! titles, cards, who acts and who leads, the set on the table and the
//! passes) beside the log; your hand as one chip per rank; the prompt and
//! the last message; the keys. Dialogs (revolution, taxes, the merchant
//! exchange; in Corporate Shuffle also whom the Twirling Wedgie names and
//! what Dogberts alone are worth) open over the table and leave your hand
//! in view. Words, titles and card names follow the variant. At the end
//! of a hand its results take the place of the table, and the final
//! standings end the game. Everything fits 80×24.

use std::time::Duration;

use dalmuti_core::{Action, Card, Cards, Decision, Event, Seat, Seen, Stage, Title, Variant};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Cell, Clear, Paragraph, Row, Table, Widget, Wrap};

use super::app::{App, Choice, THINKING_FRAME, Theme, Tone};
use crate::plain::{hand_number, rules_in_short};
use crate::tr::{Tr, capitalize};
use crate::words::{self, say};

mod between_hands;
mod dialogs;

/// The narrowest log worth reading beside the table, in columns: below it
/// the table gives up its titles' column.
const MIN_LOG_WIDTH: u16 = 40;

impl Theme {
    fn fg(self, color: Color) -> Style {
        if self.color {
            Style::new().fg(color)
        } else {
            Style::new()
        }
    }

    /// Dim text: grey, or nothing special without colours.
    fn dim(self) -> Style {
        self.fg(Color::DarkGray)
    }

    fn border(self) -> Style {
        self.fg(Color::Gray)
    }

    fn title_style(self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }

    /// A title with its status symbol (Dalmuti's crown and straw hat;
    /// Corporate Shuffle's office titles have none).
    fn title(self, title: Title, tr: Tr, merchant_exchange: bool) -> String {
        match (tr.variant(), title, self.emoji) {
            (Variant::Dalmuti, Title::GreaterDalmuti, true) => format!("👑 {}", tr.title(title)),
            (Variant::Dalmuti, Title::GreaterPeon, true) => format!("👒 {}", tr.title(title)),
            (_, t, _) => words::title(t, tr, merchant_exchange),
        }
    }
}

impl Widget for &App<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let [header, body, footer] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(0),
            Constraint::Length(1),
        ])
        .areas(area);
        self.header(header, buf);
        self.footer(footer, buf);
        if self.help.is_some() {
            self.help_screen(body, buf);
        } else if self.standings {
            self.standings_panel(body, buf);
        } else if self.session.is_hand_over() {
            self.hand_over(body, buf);
        } else {
            self.game(body, buf);
        }
    }
}

impl App<'_> {
    fn block(&self, title: impl Into<String>) -> Block<'static> {
        Block::bordered()
            .border_style(self.theme.border())
            .title(Span::styled(
                format!(" {} ", title.into()),
                Style::new().add_modifier(Modifier::BOLD),
            ))
    }

    fn header(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let tr = s.tr();
        let mut left = vec![
            Span::styled(format!(" {}", tr.game()), self.theme.title_style()),
            Span::raw(tr.t(
                "tui.header",
                &[("hand", &hand_number(s)), ("seed", s.seed_text())],
            )),
        ];
        let rules = s.rules();
        let options = words::optional_rules(rules, tr);
        let room = area.width as usize;
        let used: usize = left.iter().map(Span::width).sum::<usize>() + 16;
        let more = format!(" · {}", tr.join(&options));
        if !options.is_empty() && used + Span::raw(more.as_str()).width() <= room {
            left.push(Span::styled(more, self.theme.dim()));
        }
        let right = Span::styled(tr.t("tui.header.keys", &[]), self.theme.dim());
        let width = right.width() as u16;
        let [l, r] =
            Layout::horizontal([Constraint::Min(0), Constraint::Length(width)]).areas(area);
        Line::from(left).render(l, buf);
        right.render(r, buf);
    }

    fn footer(&self, area: Rect, buf: &mut Buffer) {
        let mut keys = self.keys();
        // Too many keys for the width: help and quit go first, since the
        // header shows them too.
        let width: usize = keys
            .iter()
            .map(|(k, w)| Span::raw(format!("  {k} {w}")).width())
            .sum();
        if width >= area.width as usize {
            keys.retain(|(k, _)| !matches!(*k, "?" | "q"));
        }
        let style = self.theme.dim();
        let mut spans = vec![Span::raw(" ")];
        for (i, (key, what)) in keys.iter().enumerate() {
            if i > 0 {
                spans.push(Span::raw("  "));
            }
            spans.push(Span::styled(
                *key,
                Style::new().add_modifier(Modifier::BOLD),
            ));
            spans.push(Span::styled(format!(" {what}"), style));
            let _ = key;
        }
        Line::from(spans).render(area, buf);
    }

    /// The keys that mean something now, with what they do.
    fn keys(&self) -> Vec<(&'static str, String)> {
        let tr = self.session.tr();
        let k = |key: &'static str, what: &str| (key, tr.t(&format!("tui.key.{what}"), &[]));
        if self.help.is_some() {
            return vec![k("↑↓", "scroll"), k("?/Esc", "close"), k("q", "quit")];
        }
        if self.standings {
            return vec![k("Enter", "leave"), k("q", "quit"), k("?", "help")];
        }
        if self.session.is_hand_over() {
            let next = if self.session.is_game_over() {
                "final-standings"
            } else {
                "next-hand"
            };
            return vec![
                k("Enter", next),
                k("PgUp/PgDn", "log"),
                k("?", "help"),
                k("q", "quit"),
            ];
        }
        let common = [k("h", "hint"), k("?", "help"), k("q", "quit")];
        let variant = self.session.variant();
        let corporate = variant == Variant::CorporateShuffle;
        let revolution = ("r", tr.v("key.revolution", &[]));
        let wild = (if corporate { "d" } else { "j" }, tr.wild());
        if let Some(choice) = &self.choice {
            let first = match choice {
                Choice::Target { .. } => k("↑↓", "player"),
                Choice::Value { .. } => k("←→", "value"),
            };
            return vec![
                first,
                k("Enter", "play"),
                k("Esc", "back"),
                k("?", "help"),
                k("q", "quit"),
            ];
        }
        if variant.is_suited() {
            // Plays of the pack are chosen from the legal list.
            let mut keys = match self.session.decision() {
                None => {
                    return vec![
                        k("PgUp/PgDn", "log"),
                        k("?", "help"),
                        k("q", "quit-and-save"),
                    ];
                }
                Some(Decision::Follow { .. }) => {
                    vec![
                        ("←→", tr.t("tui.key.choose", &[])),
                        k("Enter", "play"),
                        k("p", "pass"),
                    ]
                }
                Some(Decision::Tax { .. } | Decision::Give { .. }) => {
                    vec![("←→", tr.t("tui.key.choose", &[])), k("Enter", "give")]
                }
                Some(Decision::Discard { .. }) => {
                    vec![("←→", tr.t("tui.key.choose", &[])), k("Enter", "discard")]
                }
                _ => vec![("←→", tr.t("tui.key.choose", &[])), k("Enter", "play")],
            };
            if self.session.legal().contains(&Action::Pass)
                && !keys.iter().any(|(key, _)| *key == "p")
            {
                keys.push(k("p", "pass"));
            }
            keys.extend(common);
            return keys;
        }
        let rank = ("←→", tr.v("rank", &[]));
        // t matters only to join the Wedgie to 6s you hold.
        let held = self.session.my_cards();
        let six = Card::from_index(6).unwrap_or(Card::TWIRLING_WEDGIE);
        let wedgie = corporate && held.count(Card::TWIRLING_WEDGIE) > 0 && held.count(six) > 0;
        let mut keys = match self.session.decision() {
            None => {
                return vec![
                    k("PgUp/PgDn", "log"),
                    k("?", "help"),
                    k("q", "quit-and-save"),
                ];
            }
            Some(Decision::Ready) => vec![revolution.clone(), k("n", "keep-quiet")],
            Some(Decision::Tax { .. }) => vec![
                k("←→", "card"),
                k("↑", "add"),
                k("↓", "take-back"),
                k("Enter", "give"),
            ],
            Some(Decision::ExchangeOffer) => vec![
                k("←→", "card"),
                ("↑↓", tr.merchant()),
                k("Enter", "offer"),
                k("n", "decline"),
            ],
            Some(Decision::ExchangeAnswer { .. }) => {
                vec![k("←→", "card"), k("Enter", "give-back")]
            }
            // The pack's games only, listed above.
            Some(Decision::Give { .. } | Decision::Discard { .. }) => Vec::new(),
            Some(Decision::Lead) => vec![rank, k("↑↓", "how-many"), wild, k("Enter", "play")],
            Some(Decision::Follow { .. }) => vec![
                rank,
                k("↑↓", "how-many"),
                wild,
                k("Enter", "play"),
                k("p", "pass"),
            ],
        };
        if wedgie && matches!(keys.last(), Some(("Enter" | "p", _))) {
            let at = keys
                .iter()
                .position(|k| k.0 == "Enter")
                .unwrap_or(keys.len());
            keys.insert(at, k("t", "wedgie"));
        }
        if self.session.revolution_offer().is_some()
            && self.session.decision() != Some(Decision::Ready)
        {
            keys.push(revolution);
        }
        keys.extend(common);
        keys
    }

    // ----- the game screen -----

    fn game(&self, area: Rect, buf: &mut Buffer) {
        let hand_lines = self.chip_lines(area.width.saturating_sub(2)).len() as u16;
        let [top, hand, now] = Layout::vertical([
            Constraint::Min(0),
            Constraint::Length(hand_lines + 3),
            Constraint::Length(3),
        ])
        .areas(area);
        // The titles' column goes first when the log would be too narrow to
        // read (80 columns): the seat numbers keep the order, and the hand's
        // end, the dialogs and the help name the titles.
        let titles = top.width >= self.table_width(true) + MIN_LOG_WIDTH;
        let table_width = self.table_width(titles).min(top.width.saturating_sub(24));
        let [table, log] =
            Layout::horizontal([Constraint::Length(table_width), Constraint::Min(0)]).areas(top);
        self.table_panel(table, titles, buf);
        self.log_panel(log, buf);
        self.hand_panel(hand, buf);
        self.now_panel(now, buf);
        match (self.session.decision(), &self.choice) {
            (Some(Decision::Ready), _) => self.revolution_dialog(top, buf),
            (Some(Decision::Tax { .. }), _) => self.tax_dialog(top, buf),
            (Some(Decision::ExchangeOffer), _) => self.offer_dialog(top, buf),
            (Some(Decision::ExchangeAnswer { .. }), _) => self.answer_dialog(top, buf),
            (Some(Decision::Lead | Decision::Follow { .. }), Some(choice)) => {
                self.choice_dialog(choice, top, buf)
            }
            _ => {}
        }
    }

    /// The seat rows' headings: marker, seat, name, title (unless
    /// `titles` is false), cards, state, points.
    fn column_headings(&self, titles: bool) -> Vec<String> {
        let tr = self.session.tr();
        let mut header = vec![String::new(), "#".to_string(), tr.t("tui.col.name", &[])];
        if titles {
            header.push(tr.t("tui.col.title", &[]));
        }
        header.extend([tr.t("tui.col.cards", &[]), String::new()]);
        if self.session.rules().scoring != dalmuti_core::Scoring::None {
            header.push(tr.t("tui.col.points", &[]));
        }
        header
    }

    /// The seat rows' columns' widths, in terminal columns (Korean and
    /// Japanese letters take two).
    fn columns(&self, titles: bool) -> Vec<u16> {
        let s = &*self.session;
        let exchange = s.rules().merchant_exchange;
        let tr = s.tr();
        let table = s.table();
        let name = table
            .iter()
            .map(|i| width(&self.seat_name(i, titles)))
            .max()
            .unwrap_or(4)
            // Room for the crown or straw hat after it without titles.
            .clamp(4, if titles { 14 } else { 17 }) as u16;
        let title = table
            .iter()
            .map(|i| width(&self.theme.title(i.title, tr, exchange)))
            .max()
            .unwrap_or(5) as u16;
        let state = [
            tr.t("tui.state.wedged", &[]),
            tr.t("tui.state.passed", &[]),
            tr.t("tui.state.leads", &[]),
        ]
        .iter()
        .map(|t| width(t))
        .max()
        .unwrap_or(6)
        .clamp(6, 12) as u16;
        let mut widths = vec![1, 2, name];
        if titles {
            widths.push(title);
        }
        widths.extend([5, state]);
        if s.rules().scoring != dalmuti_core::Scoring::None {
            widths.push(3);
        }
        // A heading wider than its column widens it (German "Karten").
        for (w, heading) in widths.iter_mut().zip(self.column_headings(titles)) {
            *w = (*w).max(width(&heading) as u16);
        }
        widths
    }

    fn table_width(&self, titles: bool) -> u16 {
        let columns = self.columns(titles);
        columns.iter().sum::<u16>() + columns.len() as u16 - 1 + 2
    }

    /// Who leads the current round (after any greater revolution).
    fn leader(&self) -> Option<Seat> {
        let view = self.session.view();
        if view.stage() != Stage::Play {
            return None;
        }
        // President and Daifugō: who leads is the turn (a 3's holder, or
        // whoever the table cleared to).
        if view.variant().is_suited() {
            return view.turn();
        }
        let mut leader = Seat::new(0);
        for entry in view.log() {
            if let Seen::Event(Event::RoundWon { leader: l, .. }) = entry {
                leader = l;
            }
        }
        Some(leader)
    }

    /// A seat's name as the table shows it: yours marked; without the
    /// titles' column, the crown and the straw hat follow the name.
    fn seat_name(&self, info: &crate::session::SeatInfo, titles: bool) -> String {
        let tr = self.session.tr();
        let name = display_name(&info.name, info.is_me, tr);
        let symbol = match (tr.variant(), info.title, self.theme.emoji, titles) {
            (Variant::Dalmuti, Title::GreaterDalmuti, true, false) => " 👑",
            (Variant::Dalmuti, Title::GreaterPeon, true, false) => " 👒",
            _ => "",
        };
        format!("{name}{symbol}")
    }

    fn table_panel(&self, area: Rect, titles: bool, buf: &mut Buffer) {
        let s = &*self.session;
        let theme = self.theme;
        let exchange = s.rules().merchant_exchange;
        let tr = s.tr();
        let you = tr.you();
        let top = s.top();
        let leader = self.leader();
        let passed: Vec<String> = top.as_ref().map(|t| t.passed.clone()).unwrap_or_default();
        let rows: Vec<Row> = s
            .table()
            .iter()
            .map(|info| {
                let who = if info.is_me {
                    you.as_str()
                } else {
                    info.name.as_str()
                };
                let state = match info.out {
                    Some(place) => tr.t("tui.state.out", &[("place", &tr.ordinal(place))]),
                    None if info.wedged => tr.t("tui.state.wedged", &[]),
                    None if passed.iter().any(|p| p == who) => tr.t("tui.state.passed", &[]),
                    None if leader == Some(info.seat) => tr.t("tui.state.leads", &[]),
                    None => String::new(),
                };
                let acting = info.to_act && info.out.is_none();
                let mut style = Style::new();
                if info.is_me {
                    style = style.add_modifier(Modifier::BOLD);
                }
                if acting {
                    style = style.patch(theme.fg(Color::Yellow));
                    if !theme.color {
                        style = style.add_modifier(Modifier::UNDERLINED);
                    }
                }
                if info.out.is_some() {
                    style = style.patch(theme.dim());
                }
                let mut cells = vec![
                    Cell::from(if acting { "▶" } else { " " }),
                    Cell::from(
                        Line::from(words::seat_number(info.seat).to_string()).right_aligned(),
                    ),
                    Cell::from(self.seat_name(info, titles)),
                ];
                if titles {
                    cells.push(Cell::from(theme.title(info.title, tr, exchange)));
                }
                cells.extend([
                    Cell::from(Line::from(info.cards.to_string()).right_aligned()),
                    Cell::from(state),
                ]);
                if let Some(total) = info.total {
                    cells.push(Cell::from(Line::from(total.to_string()).right_aligned()));
                }
                Row::new(cells).style(style)
            })
            .collect();
        let header = self.column_headings(titles);
        let widths: Vec<Constraint> = self
            .columns(titles)
            .into_iter()
            .map(Constraint::Length)
            .collect();
        let info = self.table_lines(area.width.saturating_sub(2));
        let inner = Block::bordered().inner(area);
        let [seats, below] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(info.len() as u16)])
                .areas(inner);
        let n = rows.len();
        // A big table on a small screen: keep your seat and whoever acts
        // in view by dropping rows from the top, and say which are shown.
        let room = (seats.height.saturating_sub(1) as usize).max(1);
        let skip = if n > room {
            let me = s.table().iter().position(|i| i.is_me).unwrap_or(0);
            let acting = s.table().iter().position(|i| i.to_act).unwrap_or(me);
            let want = me.max(acting);
            (want + 1).saturating_sub(room).min(n - room)
        } else {
            0
        };
        let title = if n > room {
            tr.t(
                "tui.table.seats",
                &[
                    ("from", &(skip + 1).to_string()),
                    ("to", &(skip + room).min(n).to_string()),
                    ("n", &n.to_string()),
                ],
            )
        } else {
            tr.t("tui.table", &[])
        };
        self.block(title).render(area, buf);
        Widget::render(
            Table::new(rows.into_iter().skip(skip), widths)
                .header(Row::new(header).style(theme.dim()))
                .column_spacing(1),
            seats,
            buf,
        );
        Paragraph::new(info).render(below, buf);
    }

    /// The lines under the seats: the set on the table, the passes, your
    /// taxes and exchange.
    fn table_lines(&self, width: u16) -> Vec<Line<'static>> {
        let s = &*self.session;
        let tr = s.tr();
        let view = s.view();
        let mut text = Vec::new();
        match (view.stage(), s.top()) {
            (_, Some(top)) => {
                text.push(tr.t(
                    "tui.on-table",
                    &[
                        ("set", &tr.set_words(&top.set)),
                        ("tokens", &top.set.to_string()),
                        ("name", &top.name),
                    ],
                ));
                if top.passed.is_empty() {
                    text.push(tr.t("tui.no-passes", &[]));
                } else {
                    text.push(tr.t("tui.passed", &[("names", &tr.join(&top.passed))]));
                }
                if let Some(line) = words::wedged_line(s) {
                    text.push(line);
                }
            }
            (Stage::Play, None) => {
                let leader = self.leader().map(|l| {
                    if l == s.my_seat() {
                        tr.t("tui.you-lead", &[])
                    } else {
                        tr.t("tui.leads", &[("name", s.name_at(l))])
                    }
                });
                text.push(tr.t(
                    "tui.table-empty",
                    &[("leader", &leader.unwrap_or_default())],
                ));
            }
            (Stage::Setup, _) => text.push(tr.t(
                "tui.setting-up",
                &[
                    ("ready", &view.ready_count().unwrap_or(0).to_string()),
                    ("n", &view.players().to_string()),
                ],
            )),
            (Stage::Over, _) => {}
        }
        let mut exchange = |what: &str, gave: String, got: String, other| {
            text.push(tr.t(
                "tui.your-trade",
                &[
                    ("what", what),
                    ("gave", &gave),
                    ("name", s.name_at(other)),
                    ("got", &got),
                ],
            ));
        };
        let taxes = tr.taxes();
        if let Some(tax) = view.my_tax() {
            if tax.dalmuti == s.my_seat() {
                exchange(
                    &taxes,
                    tax.gift.to_string(),
                    tax.tribute.to_string(),
                    tax.peon,
                );
            } else {
                exchange(
                    &taxes,
                    tax.tribute.to_string(),
                    tax.gift.to_string(),
                    tax.dalmuti,
                );
            }
        }
        let trade = tr.t("tui.exchange", &[]);
        if let Some(t) = view.my_trade() {
            if t.offerer == s.my_seat() {
                exchange(
                    &trade,
                    t.offered.to_string(),
                    t.returned.to_string(),
                    t.partner,
                );
            } else {
                exchange(
                    &trade,
                    t.returned.to_string(),
                    t.offered.to_string(),
                    t.offerer,
                );
            }
        }
        text.iter()
            .flat_map(|t| wrap(t, width as usize))
            .map(Line::from)
            .collect()
    }

    fn log_panel(&self, area: Rect, buf: &mut Buffer) {
        let block = self.block(self.session.tr().t("tui.log", &[]));
        let inner = block.inner(area);
        block.render(area, buf);
        let width = inner.width as usize;
        let mut lines: Vec<Line> = Vec::new();
        for entry in &self.log {
            let line = if entry.starts_with("──") {
                Line::styled(entry.clone(), Style::new().add_modifier(Modifier::BOLD))
            } else {
                Line::from(format!("• {entry}"))
            };
            lines.extend(wrap_line(line, width, 2));
        }
        let height = inner.height as usize;
        let end = lines
            .len()
            .saturating_sub(self.scroll.min(lines.len().saturating_sub(height)));
        let start = end.saturating_sub(height);
        let shown: Vec<Line> = lines[start..end].to_vec();
        Paragraph::new(shown).render(inner, buf);
        if start > 0 || end < lines.len() {
            let marker = if end < lines.len() {
                " ↓ PgDn "
            } else {
                " ↑ PgUp "
            };
            Span::styled(marker, self.theme.dim()).render(
                Rect::new(
                    area.right().saturating_sub(10),
                    area.bottom().saturating_sub(1),
                    8,
                    1,
                ),
                buf,
            );
        }
    }

    /// Your hand as chips, one per kind of card, flowed into lines.
    fn chip_lines(&self, width: u16) -> Vec<Line<'static>> {
        let chosen = self.chosen();
        let decision = self.session.decision();
        let choosing = decision.is_some_and(|d| d != Decision::Ready);
        let mut lines = Vec::new();
        let mut line: Vec<Span> = Vec::new();
        let mut used = 0usize;
        // While a tax gift is chosen, a chip counts what stays in the hand:
        // the cards put in the gift are the gift's, shown under the hand.
        let gift = match decision {
            Some(Decision::Tax { .. }) => self.picked,
            _ => Cards::EMPTY,
        };
        for (card, n) in self.kinds() {
            let n = n - gift.count(card);
            let text = format!(" {} {} ×{n} ", card.token(), self.session.tr().card(card));
            let w = Span::raw(text.as_str()).width();
            if used > 0 && used + 1 + w > width as usize {
                lines.push(Line::from(std::mem::take(&mut line)));
                used = 0;
            }
            if used > 0 {
                line.push(Span::raw(" "));
                used += 1;
            }
            let mut style = Style::new();
            if chosen.count(card) > 0 {
                style = style
                    .patch(self.theme.fg(Color::Yellow))
                    .add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
            }
            if choosing && self.cursor == Some(card) {
                style = style.add_modifier(Modifier::REVERSED);
            }
            line.push(Span::styled(text, style));
            used += w;
        }
        if !line.is_empty() || lines.is_empty() {
            lines.push(Line::from(line));
        }
        lines
    }

    fn hand_panel(&self, area: Rect, buf: &mut Buffer) {
        let cards = self.session.my_cards();
        let tr = self.session.tr();
        let block = self.block(tr.n("tui.hand", cards.len().into(), &[]));
        let inner = block.inner(area);
        block.render(area, buf);
        let mut lines = self.chip_lines(inner.width);
        if cards.is_empty() {
            lines = vec![Line::from(tr.t("tui.no-cards", &[]))];
        }
        let selection = match self.selection_words() {
            Some(words) => Line::styled(words, self.theme.fg(Color::Cyan)),
            None => Line::from(""),
        };
        lines.push(selection);
        Paragraph::new(lines).render(inner, buf);
    }

    /// The prompt and the last message.
    fn now_panel(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let decision = s.decision();
        let tr = s.tr();
        let (title, prompt) = match (decision, self.thinking()) {
            // A bot thinks and the table waits for it: a spinner says the
            // game is not stuck. Who, when the table may know it; never
            // what.
            (None, Some(thinker)) => {
                let line = match &thinker.name {
                    Some(name) => tr.t("tui.thinking", &[("name", name)]),
                    None => tr.t("tui.waiting.line", &[("who", &self.waiting_for())]),
                };
                let frame = spinner(self.theme, thinker.since.elapsed());
                (tr.t("tui.waiting", &[]), format!("{frame} {line}"))
            }
            (None, None) => (
                tr.t("tui.waiting", &[]),
                tr.t("tui.waiting.line", &[("who", &self.waiting_for())]),
            ),
            (Some(d), _) => (tr.t("tui.your-move", &[]), prompt(self, &d)),
        };
        let block = Block::new()
            .borders(Borders::TOP)
            .border_style(self.theme.border())
            .title(Span::styled(
                format!(" {title} "),
                Style::new().add_modifier(Modifier::BOLD),
            ));
        let inner = block.inner(area);
        block.render(area, buf);
        // Each sentence one column in from the edge, its wrapped lines too.
        let width = (inner.width as usize).saturating_sub(1);
        let indented = |line: Line<'static>| -> Vec<Line<'static>> {
            wrap_line(line, width, 0)
                .into_iter()
                .map(|mut l| {
                    l.spans.insert(0, Span::raw(" "));
                    l
                })
                .collect()
        };
        let mut lines = indented(Line::from(prompt));
        if let Some(m) = &self.message {
            let style = match m.tone {
                Tone::Refusal => self.theme.fg(Color::Red).add_modifier(Modifier::BOLD),
                Tone::Hint => self.theme.fg(Color::Green),
                Tone::Note => Style::new(),
            };
            lines.extend(indented(Line::styled(m.text.clone(), style)));
        }
        Paragraph::new(lines).render(inner, buf);
    }
}

/// The spinner's frame after `elapsed` of thinking: braille dots, or a
/// turning bar where the terminal may lack them (the same terminals that
/// lack emoji).
fn spinner(theme: Theme, elapsed: Duration) -> char {
    const DOTS: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
    const BAR: [char; 4] = ['|', '/', '-', '\\'];
    let frames: &[char] = if theme.emoji { &DOTS } else { &BAR };
    let turn = elapsed.as_millis() / THINKING_FRAME.as_millis().max(1);
    frames[(turn % frames.len() as u128) as usize]
}

/// The prompt for a decision, in one sentence.
fn prompt(app: &App, decision: &Decision) -> String {
    let s = app.session();
    let tr = s.tr();
    match *decision {
        Decision::Lead => say(tr, "tui.prompt.lead", &[]),
        Decision::Follow { top, by } => {
            let set = tr.set_words(&top);
            let cards = tr.n("tui.n-cards", top.size().into(), &[]);
            let key = if s.variant().is_suited() {
                "tui.prompt.follow.pack"
            } else {
                "tui.prompt.follow"
            };
            s.about(
                key,
                by,
                &[
                    ("set", &set),
                    ("tokens", &top.to_string()),
                    ("cards", &cards),
                ],
            )
        }
        Decision::Ready => match s.revolution_offer() {
            Some(offer) if offer.greater => say(tr, "tui.prompt.revolution.greater", &[]),
            Some(_) => say(tr, "tui.prompt.revolution", &[]),
            None => tr.t("tui.prompt.ready", &[]),
        },
        Decision::Tax { to, count } => tr.t(
            "tui.prompt.tax",
            &[
                ("cards", &tr.n("tui.n-cards", count.into(), &[])),
                ("name", s.name_at(to)),
                ("title", &tr.title(to.title(s.players()))),
            ],
        ),
        Decision::ExchangeOffer => say(tr, "tui.prompt.offer", &[]),
        Decision::ExchangeAnswer { from } => {
            tr.t("tui.prompt.answer", &[("name", s.name_at(from))])
        }
        Decision::Give { to, left } => tr.t(
            "tui.prompt.give",
            &[("name", s.name_at(to)), ("n", &left.to_string())],
        ),
        Decision::Discard { left } => tr.t("tui.prompt.discard", &[("n", &left.to_string())]),
    }
}

/// A name at the table, marked when it is yours.
fn display_name(name: &str, is_me: bool, tr: Tr) -> String {
    let shown = words::shown_name(name, is_me, tr);
    format!("{shown}{}", words::you_mark(name, is_me, tr))
}

/// How many terminal columns `text` takes (two for a Korean or Japanese
/// letter).
fn width(text: &str) -> usize {
    Span::raw(text).width()
}

/// `text` padded with spaces to `columns` terminal columns.
fn pad(text: &str, columns: usize) -> String {
    format!("{text}{}", " ".repeat(columns.saturating_sub(width(text))))
}

/// Greedy word wrap of plain text to `width` columns.
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    wrap_line(Line::from(text.to_string()), width, 0)
        .into_iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

/// Greedy word wrap of a styled line to `width` columns, keeping each
/// word's style; lines after the first are indented by `indent`. A word
/// longer than a line is left whole (and cut where the screen ends).
pub(super) fn wrap_line(line: Line<'_>, width: usize, indent: usize) -> Vec<Line<'static>> {
    let width = width.max(8);
    let indent = indent.min(width / 2);
    let line_style = line.style;
    // Words and single spaces, each with its span's style.
    let mut tokens: Vec<(String, Style)> = Vec::new();
    for span in &line.spans {
        let mut word = String::new();
        for ch in span.content.chars() {
            if ch == ' ' {
                if !word.is_empty() {
                    tokens.push((std::mem::take(&mut word), span.style));
                }
                tokens.push((" ".to_string(), span.style));
            } else if breaks_anywhere(ch) {
                // Japanese (and Korean in long words) may break between
                // any two wide letters: each is a word of its own.
                if !word.is_empty() {
                    tokens.push((std::mem::take(&mut word), span.style));
                }
                tokens.push((ch.to_string(), span.style));
            } else {
                word.push(ch);
            }
        }
        if !word.is_empty() {
            tokens.push((word, span.style));
        }
    }
    let mut out: Vec<Line<'static>> = Vec::new();
    let mut current: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    let mut start = 0;
    for (text, style) in tokens {
        let w = Span::raw(text.as_str()).width();
        if text == " " {
            if used + w <= width {
                current.push(Span::styled(text, style));
                used += w;
            }
            continue;
        }
        if used + w > width && used > start {
            while current.last().is_some_and(|s| s.content == " ") {
                current.pop();
            }
            out.push(Line::from(std::mem::take(&mut current)).style(line_style));
            if indent > 0 {
                current.push(Span::raw(" ".repeat(indent)));
            }
            used = indent;
            start = indent;
        }
        current.push(Span::styled(text, style));
        used += w;
    }
    if !current.is_empty() || out.is_empty() {
        out.push(Line::from(current).style(line_style));
    }
    out
}

/// Whether a line may break before and after `ch`: the wide letters of
/// Japanese (and Chinese), written without spaces. Korean puts spaces
/// between words, so its letters break there only.
fn breaks_anywhere(ch: char) -> bool {
    let hangul =
        matches!(ch, '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}' | '\u{AC00}'..='\u{D7A3}');
    let mut buf = [0u8; 4];
    !hangul && !matches!(ch, '👑' | '👒') && width(ch.encode_utf8(&mut buf)) > 1
}
