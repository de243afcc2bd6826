//! Between hands and after the game: the hand's results, the standings,
//! and the help screen.

use super::*;

impl App<'_> {
    // ----- between hands -----

    pub(super) fn hand_over(&self, area: Rect, buf: &mut Buffer) {
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

    pub(super) fn standings_panel(&self, area: Rect, buf: &mut Buffer) {
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

    pub(super) fn help_screen(&self, area: Rect, buf: &mut Buffer) {
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
