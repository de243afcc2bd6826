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

use dalmuti_core::{Card, Decision, Event, Seat, Seen, Stage, Title, Variant};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Cell, Clear, Paragraph, Row, Table, Widget, Wrap};

use super::app::{App, Choice, THINKING_FRAME, Theme, Tone};
use crate::plain::{hand_number, rules_in_short};
use crate::tr::{Tr, capitalize};
use crate::words::{self, say};

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
        let table_width = self.table_width().min(top.width.saturating_sub(24));
        let [table, log] =
            Layout::horizontal([Constraint::Length(table_width), Constraint::Min(0)]).areas(top);
        self.table_panel(table, buf);
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

    /// The seat rows' headings: marker, seat, name, title, cards, state,
    /// points.
    fn column_headings(&self) -> Vec<String> {
        let tr = self.session.tr();
        let mut header = vec![
            String::new(),
            "#".to_string(),
            tr.t("tui.col.name", &[]),
            tr.t("tui.col.title", &[]),
            tr.t("tui.col.cards", &[]),
            String::new(),
        ];
        if self.session.rules().scoring != dalmuti_core::Scoring::None {
            header.push(tr.t("tui.col.points", &[]));
        }
        header
    }

    /// The seat rows' columns' widths, in terminal columns (Korean and
    /// Japanese letters take two).
    fn columns(&self) -> Vec<u16> {
        let s = &*self.session;
        let exchange = s.rules().merchant_exchange;
        let tr = s.tr();
        let table = s.table();
        let name = table
            .iter()
            .map(|i| width(&display_name(&i.name, i.is_me, tr)))
            .max()
            .unwrap_or(4)
            .clamp(4, 14) as u16;
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
        let mut widths = vec![1, 2, name, title, 5, state];
        if s.rules().scoring != dalmuti_core::Scoring::None {
            widths.push(3);
        }
        // A heading wider than its column widens it (German "Karten").
        for (w, heading) in widths.iter_mut().zip(self.column_headings()) {
            *w = (*w).max(width(&heading) as u16);
        }
        widths
    }

    fn table_width(&self) -> u16 {
        let columns = self.columns();
        columns.iter().sum::<u16>() + columns.len() as u16 - 1 + 2
    }

    /// Who leads the current round (after any greater revolution).
    fn leader(&self) -> Option<Seat> {
        let view = self.session.view();
        if view.stage() != Stage::Play {
            return None;
        }
        let mut leader = Seat::new(0);
        for entry in view.log() {
            if let Seen::Event(Event::RoundWon { leader: l, .. }) = entry {
                leader = l;
            }
        }
        Some(leader)
    }

    fn table_panel(&self, area: Rect, buf: &mut Buffer) {
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
                    Cell::from(display_name(&info.name, info.is_me, tr)),
                    Cell::from(theme.title(info.title, tr, exchange)),
                    Cell::from(Line::from(info.cards.to_string()).right_aligned()),
                    Cell::from(state),
                ];
                if let Some(total) = info.total {
                    cells.push(Cell::from(Line::from(total.to_string()).right_aligned()));
                }
                Row::new(cells).style(style)
            })
            .collect();
        let header = self.column_headings();
        let widths: Vec<Constraint> = self.columns().into_iter().map(Constraint::Length).collect();
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
        for (card, n) in self.kinds() {
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
        let mut lines = vec![Line::from(format!(" {prompt}"))];
        if let Some(m) = &self.message {
            let style = match m.tone {
                Tone::Refusal => self.theme.fg(Color::Red).add_modifier(Modifier::BOLD),
                Tone::Hint => self.theme.fg(Color::Green),
                Tone::Note => Style::new(),
            };
            lines.push(Line::styled(format!(" {}", m.text), style));
        }
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(inner, buf);
    }

    // ----- dialogs -----

    /// The width of a dialog's text over `area`.
    fn dialog_text_width(area: Rect) -> usize {
        area.width.min(72).saturating_sub(4) as usize
    }

    /// A paragraph of a dialog, wrapped.
    fn para(area: Rect, line: impl Into<Line<'static>>) -> Vec<Line<'static>> {
        wrap_line(line.into(), Self::dialog_text_width(area), 0)
    }

    /// A key and what it does, wrapped under the words.
    fn key_line(area: Rect, key: &str, what: &str) -> Vec<Line<'static>> {
        let line = Line::from(vec![
            Span::styled(pad(key, 5), Style::new().add_modifier(Modifier::BOLD)),
            Span::raw("  "),
            Span::raw(what.to_string()),
        ]);
        wrap_line(line, Self::dialog_text_width(area), 7)
    }

    /// [`Self::key_line`] for each key and what it does, in order.
    fn key_lines(area: Rect, keys: &[(&str, String)]) -> Vec<Line<'static>> {
        keys.iter()
            .flat_map(|(key, what)| Self::key_line(area, key, what))
            .collect()
    }

    /// A box in the middle of `area` holding `lines` (already wrapped).
    fn dialog(&self, area: Rect, title: &str, lines: Vec<Line<'static>>, buf: &mut Buffer) {
        if area.width < 10 || area.height < 3 {
            return;
        }
        let width = area.width.min(72);
        let height = (lines.len() as u16 + 2).min(area.height);
        let x = area.x + (area.width - width) / 2;
        let y = area.y + (area.height - height) / 2;
        let rect = Rect::new(x, y, width, height);
        Clear.render(rect, buf);
        let block = Block::bordered()
            .border_style(self.theme.fg(Color::Yellow))
            .title(Span::styled(
                format!(" {title} "),
                Style::new().add_modifier(Modifier::BOLD),
            ));
        let inner = block.inner(rect);
        block.render(rect, buf);
        let inner = Rect {
            x: inner.x + 1,
            width: inner.width.saturating_sub(2),
            ..inner
        };
        Paragraph::new(lines).render(inner, buf);
    }

    fn revolution_dialog(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let (Some(decision @ Decision::Ready), Some(offer)) = (s.decision(), s.revolution_offer())
        else {
            return;
        };
        let tr = s.tr();
        let greater = offer.greater;
        let call = if greater {
            say(tr, "tui.call.greater", &[])
        } else {
            say(tr, "tui.call", &[])
        };
        let mut lines = Self::para(area, words::explain(s, &decision));
        lines.push(Line::from(""));
        lines.extend(Self::key_lines(
            area,
            &[
                ("r", call),
                ("n", say(tr, "tui.keep-quiet", &[])),
                ("h", tr.t("tui.key-hint", &[])),
            ],
        ));
        let title = if greater {
            say(tr, "tui.title.greater", &[])
        } else {
            say(tr, "tui.title.revolution", &[])
        };
        self.dialog(area, &title, lines, buf);
    }

    fn tax_dialog(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let Some(decision @ Decision::Tax { count, .. }) = s.decision() else {
            return;
        };
        let tr = s.tr();
        let mut lines = Self::para(area, words::explain(s, &decision));
        lines.push(Line::from(""));
        lines.extend(Self::para(
            area,
            Line::styled(
                tr.t(
                    "tui.gift",
                    &[
                        ("words", &tr.cards_words(&self.picked)),
                        ("cards", &self.picked.to_string()),
                        ("chosen", &self.picked.len().to_string()),
                        ("n", &count.to_string()),
                    ],
                ),
                Style::new().add_modifier(Modifier::BOLD),
            ),
        ));
        lines.extend(Self::key_lines(
            area,
            &[
                ("←→", tr.t("tui.dialog.card", &[])),
                ("↑ ↓", tr.t("tui.dialog.add", &[])),
                ("Enter", tr.t("tui.dialog.give", &[])),
            ],
        ));
        if s.revolution_offer().is_some() {
            lines.extend(Self::key_line(
                area,
                "r",
                &say(tr, "tui.dialog.revolution", &[]),
            ));
        }
        self.dialog(area, &capitalize(&tr.taxes()), lines, buf);
    }

    fn offer_dialog(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let Some(decision) = s.decision() else { return };
        let tr = s.tr();
        let mut lines = Self::para(area, words::explain(s, &decision));
        lines.push(Line::from(""));
        for m in self.merchants() {
            let on = self.partner == Some(m);
            let style = if on {
                Style::new().add_modifier(Modifier::REVERSED)
            } else {
                Style::new()
            };
            let row = tr.n(
                "tui.merchant-row",
                s.view().card_count(m).into(),
                &[
                    ("seat", &words::seat_number(m).to_string()),
                    ("name", s.name_at(m)),
                ],
            );
            lines.push(Line::styled(
                format!("{} {row}", if on { "▶" } else { " " }),
                style,
            ));
        }
        lines.push(Line::from(""));
        lines.extend(Self::key_lines(
            area,
            &[
                ("↑↓", say(tr, "tui.dialog.merchant", &[])),
                ("←→", tr.t("tui.dialog.your-card", &[])),
                ("Enter", tr.t("tui.dialog.offer", &[])),
                ("n", tr.t("tui.dialog.no-exchange", &[])),
            ],
        ));
        if s.revolution_offer().is_some() {
            lines.extend(Self::key_line(
                area,
                "r",
                &say(tr, "tui.dialog.revolution", &[]),
            ));
        }
        self.dialog(area, &capitalize(&tr.exchange()), lines, buf);
    }

    fn answer_dialog(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let Some(decision) = s.decision() else { return };
        let tr = s.tr();
        let mut lines = Self::para(area, words::explain(s, &decision));
        lines.push(Line::from(""));
        lines.extend(Self::key_lines(
            area,
            &[
                ("←→", tr.t("tui.dialog.your-card", &[])),
                ("Enter", tr.t("tui.dialog.give-back", &[])),
            ],
        ));
        self.dialog(area, &capitalize(&tr.exchange()), lines, buf);
    }

    /// Whom the Twirling Wedgie names, or what Dogberts alone are worth.
    fn choice_dialog(&self, choice: &Choice, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let tr = s.tr();
        let reversed = Style::new().add_modifier(Modifier::REVERSED);
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let (title, mut lines) = match choice {
            Choice::Target { set, targets, at } => {
                let mut lines = Self::para(
                    area,
                    tr.t(
                        "tui.target.intro",
                        &[("set", &tr.set_words(set)), ("tokens", &set.to_string())],
                    ),
                );
                lines.push(Line::from(""));
                for (i, &seat) in targets.iter().enumerate() {
                    let on = i == *at;
                    let row = tr.n(
                        "tui.target.row",
                        s.view().card_count(seat).into(),
                        &[
                            ("seat", &words::seat_number(seat).to_string()),
                            ("name", s.name_at(seat)),
                            ("title", &tr.title(seat.title(s.players()))),
                        ],
                    );
                    lines.push(Line::styled(
                        format!("{} {row}", if on { "▶" } else { " " }),
                        if on { reversed } else { Style::new() },
                    ));
                }
                (say(tr, "tui.target.title", &[]), lines)
            }
            Choice::Value {
                dogberts,
                values,
                at,
            } => {
                let which = match s.decision() {
                    Some(Decision::Follow { top, .. }) => tr.t(
                        "tui.value.top",
                        &[("set", &tr.set_words(&top)), ("tokens", &top.to_string())],
                    ),
                    _ => tr.t("tui.value.lead", &[]),
                };
                let mut lines = Self::para(
                    area,
                    tr.n(
                        "tui.value.intro",
                        (*dogberts).into(),
                        &[
                            ("dogberts", &tr.count_of((*dogberts).into(), Card::DOGBERT)),
                            ("which", &which),
                        ],
                    ),
                );
                lines.push(Line::from(""));
                // The values flow as chips, so all ten fit a small screen.
                let width = Self::dialog_text_width(area);
                let mut line: Vec<Span> = Vec::new();
                let mut used = 0;
                for (i, &value) in values.iter().enumerate() {
                    let Some(card) = Card::from_index(value.into()) else {
                        continue;
                    };
                    let text = format!(" {value} {} ", tr.card(card));
                    let w = Span::raw(text.as_str()).width();
                    if used > 0 && used + 1 + w > width {
                        lines.push(Line::from(std::mem::take(&mut line)));
                        used = 0;
                    }
                    if used > 0 {
                        line.push(Span::raw(" "));
                        used += 1;
                    }
                    let style = if i == *at {
                        reversed.patch(bold)
                    } else {
                        Style::new()
                    };
                    line.push(Span::styled(text, style));
                    used += w;
                }
                if !line.is_empty() {
                    lines.push(Line::from(line));
                }
                (tr.t("tui.value.title", &[]), lines)
            }
        };
        lines.push(Line::from(""));
        let what = match choice {
            Choice::Target { .. } => tr.t("tui.target.keys", &[]),
            Choice::Value { .. } => tr.t("tui.value.keys", &[]),
        };
        lines.extend(Self::para(
            area,
            Line::from(vec![
                Span::styled(what, bold),
                Span::raw("  "),
                Span::styled("Enter", bold),
                Span::raw(format!(" {}  ", tr.t("tui.key.play", &[]))),
                Span::styled("Esc", bold),
                Span::raw(format!(" {}", tr.t("tui.key.back", &[]))),
            ]),
        ));
        self.dialog(area, &title, lines, buf);
    }

    // ----- between hands -----

    fn hand_over(&self, area: Rect, buf: &mut Buffer) {
        let Some(end) = self.session.hand_end() else {
            return;
        };
        let [panel, log] = if area.width >= 110 {
            Layout::horizontal([Constraint::Length(72), Constraint::Min(0)]).areas(area)
        } else {
            [area, Rect::default()]
        };
        if !log.is_empty() {
            self.log_panel(log, buf);
        }
        let tr = self.session.tr();
        let block = self.block(tr.t("tui.hand-over", &[("hand", &end.number.to_string())]));
        let inner = block.inner(panel);
        block.render(panel, buf);
        let inner = Rect {
            x: inner.x + 1,
            width: inner.width.saturating_sub(2),
            ..inner
        };
        let theme = self.theme;
        let exchange = self.session.rules().merchant_exchange;
        let scored = end.places.iter().any(|p| p.total.is_some());
        let mut lines: Vec<Line> = Vec::new();
        if let Some(r) = end.revolution {
            lines.push(Line::from(if r.greater {
                say(tr, "tui.end.greater", &[])
            } else {
                say(
                    tr,
                    "tui.end.revolution",
                    &[("name", self.session.name_at(r.by))],
                )
            }));
        }
        lines.push(Line::styled(say(tr, "tui.end.order", &[]), theme.dim()));
        let rows: Vec<Row> = end
            .places
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let mut cells = vec![
                    Cell::from(format!("{}.", i + 1)),
                    Cell::from(display_name(&p.name, p.is_me, tr)),
                    Cell::from(tr.title(p.was)),
                    Cell::from("→"),
                    Cell::from(theme.title(p.becomes, tr, exchange)),
                ];
                if scored {
                    cells.push(Cell::from(
                        Line::from(p.points.map(|x| format!("+{x}")).unwrap_or_default())
                            .right_aligned(),
                    ));
                    cells.push(Cell::from(
                        Line::from(p.total.map(|x| x.to_string()).unwrap_or_default())
                            .right_aligned(),
                    ));
                }
                let style = if p.is_me {
                    Style::new().add_modifier(Modifier::BOLD)
                } else {
                    Style::new()
                };
                Row::new(cells).style(style)
            })
            .collect();
        let col = |key: &str| tr.t(&format!("tui.col.{key}"), &[]);
        let mut header = vec![
            String::new(),
            col("name"),
            col("was"),
            String::new(),
            col("becomes"),
        ];
        // Titles are at most 15 columns wide in English, 20 with a mark;
        // other languages' may be wider, or their headings.
        let widest = |texts: &mut dyn Iterator<Item = String>, least: usize| {
            texts.map(|t| width(&t)).max().unwrap_or(0).max(least) as u16
        };
        let mut widths = vec![
            Constraint::Length(3),
            Constraint::Length(
                end.places
                    .iter()
                    .map(|p| width(&display_name(&p.name, p.is_me, tr)) as u16)
                    .max()
                    .unwrap_or(4),
            ),
            Constraint::Length(widest(
                &mut end
                    .places
                    .iter()
                    .map(|p| tr.title(p.was))
                    .chain([col("was")]),
                15,
            )),
            Constraint::Length(1),
            Constraint::Length(widest(
                &mut end
                    .places
                    .iter()
                    .map(|p| theme.title(p.becomes, tr, exchange))
                    .chain([col("becomes")]),
                20,
            )),
        ];
        if scored {
            widths.push(Constraint::Length(widest(
                &mut [col("points")].into_iter(),
                3,
            )));
            widths.push(Constraint::Length(widest(
                &mut [col("total")].into_iter(),
                5,
            )));
            header.push(col("points"));
            header.push(col("total"));
        }
        let mut after: Vec<String> = Vec::new();
        if end.game_over {
            after.push(tr.n("tui.end.game-over", end.number as u64, &[]));
        } else {
            after.push(say(
                tr,
                "tui.end.seating",
                &[("names", &tr.join(&end.next_seating))],
            ));
            after.push(tr.t("tui.end.next", &[("hand", &(end.number + 1).to_string())]));
        }
        let after: Vec<Line> = after
            .iter()
            .flat_map(|t| wrap(t, inner.width as usize))
            .map(Line::from)
            .collect();
        let lines: Vec<Line> = lines
            .into_iter()
            .flat_map(|l| wrap_line(l, inner.width as usize, 0))
            .collect();
        let [top, table, _, bottom] = Layout::vertical([
            Constraint::Length(lines.len() as u16),
            Constraint::Length(end.places.len() as u16 + 1),
            Constraint::Length(1),
            Constraint::Min(0),
        ])
        .areas(inner);
        Paragraph::new(lines).render(top, buf);
        Widget::render(
            Table::new(rows, widths)
                .header(Row::new(header).style(theme.dim()))
                .column_spacing(1),
            table,
            buf,
        );
        Paragraph::new(after).render(bottom, buf);
    }

    fn standings_panel(&self, area: Rect, buf: &mut Buffer) {
        let tr = self.session.tr();
        let block = self.block(tr.t("tui.standings", &[]));
        let inner = block.inner(area);
        block.render(area, buf);
        let inner = Rect {
            x: inner.x + 1,
            width: inner.width.saturating_sub(2),
            ..inner
        };
        let standings = self.session.standings();
        let scored = standings.iter().any(|r| r.points.is_some());
        let rows: Vec<Row> = standings
            .iter()
            .map(|r| {
                let mut cells = vec![
                    Cell::from(format!("{}.", r.place)),
                    Cell::from(display_name(&r.name, r.is_me, tr)),
                ];
                if let Some(p) = r.points {
                    cells.push(Cell::from(Line::from(p.to_string()).right_aligned()));
                }
                cells.push(Cell::from(Line::from(r.firsts.to_string()).right_aligned()));
                cells.push(Cell::from(Line::from(r.lasts.to_string()).right_aligned()));
                let style = if r.is_me {
                    Style::new().add_modifier(Modifier::BOLD)
                } else {
                    Style::new()
                };
                Row::new(cells).style(style)
            })
            .collect();
        let col = |key: &str| tr.t(&format!("tui.col.{key}"), &[]);
        let fit =
            |heading: &str, least: u16| Constraint::Length((width(heading) as u16).max(least));
        let mut header = vec![String::new(), col("name")];
        let mut widths = vec![Constraint::Length(3), Constraint::Length(16)];
        if scored {
            widths.push(fit(&col("all-points"), 6));
            header.push(col("all-points"));
        }
        widths.extend([fit(&col("first"), 5), fit(&col("last"), 5)]);
        header.extend([col("first"), col("last")]);
        let hands = self.session.hand_number() as u64;
        let intro = Line::from(if scored {
            tr.n("tui.standings.scored", hands, &[])
        } else {
            tr.n("tui.standings.unscored", hands, &[])
        });
        let [top, table, _, bottom] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(standings.len() as u16 + 1),
            Constraint::Length(1),
            Constraint::Min(0),
        ])
        .areas(inner);
        intro.render(top, buf);
        Widget::render(
            Table::new(rows, widths)
                .header(Row::new(header).style(self.theme.dim()))
                .column_spacing(1),
            table,
            buf,
        );
        Paragraph::new(tr.t("tui.standings.leave", &[]))
            .wrap(Wrap { trim: true })
            .render(bottom, buf);
    }

    // ----- help -----

    fn help_screen(&self, area: Rect, buf: &mut Buffer) {
        let tr = self.session.tr();
        let block = self.block(tr.t("tui.help.title", &[]));
        let inner = block.inner(area);
        block.render(area, buf);
        let inner = Rect {
            x: inner.x + 1,
            width: inner.width.saturating_sub(2),
            ..inner
        };
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let width = inner.width as usize;
        let mut lines: Vec<Line> = Vec::new();
        let help = format!(
            "# {}\n{}\n\n# {}\n{}",
            tr.t("tui.help.keys", &[]),
            tr.v("help.keys", &[]),
            tr.t("help.in-short", &[("game", &tr.game())]),
            rules_in_short(tr, true)
        );
        for raw in help.lines() {
            if let Some(heading) = raw.strip_prefix("# ") {
                lines.push(Line::styled(heading.to_string(), bold));
            } else if let Some((key, what)) = raw.split_once(" :: ") {
                let line = Line::from(vec![
                    Span::styled(pad(key, 10), bold),
                    Span::raw(" "),
                    Span::raw(what.to_string()),
                ]);
                lines.extend(wrap_line(line, width, 11));
            } else {
                lines.extend(wrap_line(Line::from(raw.to_string()), width, 0));
            }
        }
        let max = (lines.len() as u16).saturating_sub(inner.height);
        let offset = self.help.unwrap_or(0).min(max);
        Paragraph::new(Text::from(lines))
            .scroll((offset, 0))
            .render(inner, buf);
        if offset < max {
            Span::styled(format!(" ↓ {} ", tr.t("tui.more", &[])), self.theme.dim()).render(
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
}

/// The prompt for a decision, in one sentence.
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

fn prompt(app: &App, decision: &Decision) -> String {
    let s = app.session();
    let tr = s.tr();
    match *decision {
        Decision::Lead => say(tr, "tui.prompt.lead", &[]),
        Decision::Follow { top, by } => {
            let set = tr.set_words(&top);
            let cards = tr.n("tui.n-cards", top.size().into(), &[]);
            s.about(
                "tui.prompt.follow",
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
