//! The report drawn as SVG: the mobility matrix as a heat map and each
//! bot's finishing places as bars; a ladder's ratings and mean places with
//! their intervals. plotters' SVG backend writes text as
//! SVG text, so no system font is needed.

use std::path::Path;

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::ladder::LadderReport;
use crate::report::{Matrix, SimReport, title_short};

/// Why the plot could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the plot {path}: {reason}")]
pub struct PlotError {
    /// The file.
    pub path: String,
    /// Why.
    pub reason: String,
}

/// Draws `report` into the SVG file `path`: on the left the class-mobility
/// matrix (games), or the finishing place by title (independent hands), as
/// a heat map; on the right the share of hands each bot finished at each
/// place.
///
/// ```
/// use dalmuti_arena::{SimArgs, SimConfig, plot_svg, run};
/// let args = SimArgs { bots: "greedy,random,random".into(), hands: Some(50), ..SimArgs::default() };
/// let report = run(&SimConfig::new(args).unwrap(), |_| {}).unwrap();
/// let path = std::env::temp_dir().join(format!("dalmuti-doc-plot-{}.svg", std::process::id()));
/// plot_svg(&report, &path).unwrap();
/// assert!(std::fs::read_to_string(&path).unwrap().contains("<svg"));
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn plot_svg(report: &SimReport, path: &Path) -> Result<(), PlotError> {
    draw(report, path).map_err(|reason| PlotError {
        path: path.display().to_string(),
        reason,
    })
}

fn draw(report: &SimReport, path: &Path) -> Result<(), String> {
    let (width, height) = (1280u32, 600u32);
    let root = SVGBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let (left, right) = root.split_horizontally(width * 11 / 20);
    match &report.mobility {
        Some(m) => {
            // Full titles do not fit under the columns of a large table.
            let mut m = m.clone();
            if m.columns.len() > 6 {
                let n = m.columns.len();
                m.columns = (0..n)
                    .map(|i| title_short(report.rules.variant, i, n))
                    .collect();
            }
            heat_map(
                &left,
                &m,
                "Class mobility: title next hand by title this hand",
            )?
        }
        None => heat_map(
            &left,
            &report.seat_places,
            "Finishing place by title during play",
        )?,
    }
    place_bars(&right, report)?;
    root.present().map_err(|e| e.to_string())
}

/// A heat colour from white (0) to deep blue (1).
fn heat(v: f64) -> RGBColor {
    let v = v.clamp(0.0, 1.0);
    let mix = |from: f64, to: f64| (from + (to - from) * v).round() as u8;
    RGBColor(mix(255.0, 8.0), mix(255.0, 48.0), mix(255.0, 107.0))
}

fn heat_map<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    m: &Matrix,
    caption: &str,
) -> Result<(), String> {
    let n = m.rows.len() as i32;
    let cols = m.columns.len() as i32;
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(130)
        // A discrete range of integers includes its end: 0..n-1 is n cells.
        .build_cartesian_2d((0..cols - 1).into_segmented(), (0..n - 1).into_segmented())
        .map_err(err)?;
    // Row 0 (the Greater Dalmuti) at the top.
    let row_of = |y: i32| (n - 1 - y) as usize;
    let rows = m.rows.clone();
    let columns = m.columns.clone();
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(cols as usize)
        .y_labels(n as usize)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(c) => columns.get(*c as usize).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(y) if (0..n).contains(y) => rows[row_of(*y)].clone(),
            _ => String::new(),
        })
        .draw()
        .map_err(err)?;
    // Shades relative to the largest share, so large tables show too.
    let top = m.rates.iter().flatten().fold(0.0f64, |a, &b| a.max(b));
    let shade = |v: f64| if top > 0.0 { v / top } else { 0.0 };
    let cells = (0..n).flat_map(|y| (0..cols).map(move |c| (y, c)));
    chart
        .draw_series(cells.clone().map(|(y, c)| {
            let v = m.rates[row_of(y)][c as usize];
            Rectangle::new(
                [
                    (SegmentValue::Exact(c), SegmentValue::Exact(y)),
                    (SegmentValue::Exact(c + 1), SegmentValue::Exact(y + 1)),
                ],
                heat(shade(v)).filled(),
            )
        }))
        .map_err(err)?;
    let font = if cols > 10 { 9 } else { 13 };
    chart
        .draw_series(cells.map(|(y, c)| {
            let v = m.rates[row_of(y)][c as usize];
            let colour: &RGBColor = if shade(v) > 0.5 { &WHITE } else { &BLACK };
            let style = TextStyle::from(("sans-serif", font).into_font())
                .color(colour)
                .pos(Pos::new(HPos::Center, VPos::Center));
            Text::new(
                format!("{:.0}%", 100.0 * v),
                (SegmentValue::CenterOf(c), SegmentValue::CenterOf(y)),
                style,
            )
        }))
        .map_err(err)?;
    Ok(())
}

fn place_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    report: &SimReport,
) -> Result<(), String> {
    let n = report.players;
    let bots = report.bots.len().max(1);
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let rate = |b: &crate::report::BotReport, p: usize| b.places[p] as f64 / b.hands.max(1) as f64;
    let top = report
        .bots
        .iter()
        .flat_map(|b| (0..n).map(move |p| rate(b, p)))
        .fold(0.0f64, f64::max);
    let mut chart = ChartBuilder::on(area)
        .caption("Finishing place per bot", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(50)
        .build_cartesian_2d(0.5f64..n as f64 + 0.5, 0.0f64..(top * 1.15).max(0.05))
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .x_labels(n)
        .x_label_formatter(&|v| {
            let p = v.round();
            if (v - p).abs() < 1e-6 && p >= 1.0 {
                format!("{p:.0}")
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|v| format!("{:.0}%", 100.0 * v))
        .x_desc("place (1 = first out)")
        .y_desc("share of hands")
        .draw()
        .map_err(err)?;
    let slot = 0.8 / bots as f64;
    for (i, b) in report.bots.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        let left = |p: usize| (p + 1) as f64 - 0.4 + slot * i as f64;
        chart
            .draw_series((0..n).map(|p| {
                Rectangle::new(
                    [(left(p), 0.0), (left(p) + slot * 0.92, rate(b, p))],
                    colour.filled(),
                )
            }))
            .map_err(err)?
            .label(b.label.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.85))
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(err)?;
    Ok(())
}

/// Draws a ladder into the SVG file `path`: on the left each bot's rating
/// with its 95% interval, on the right its mean place with its interval,
/// best bot at the top.
///
/// ```
/// use dalmuti_arena::{LadderConfig, SimArgs, plot_ladder_svg, run_ladder};
/// let args = SimArgs {
///     ladder: Some("greedy,random".into()),
///     players: Some(3),
///     hands: Some(10),
///     ..SimArgs::default()
/// };
/// let report = run_ladder(&LadderConfig::new(args).unwrap(), |_| {}).unwrap();
/// let path = std::env::temp_dir().join(format!("dalmuti-doc-ladder-{}.svg", std::process::id()));
/// plot_ladder_svg(&report, &path).unwrap();
/// let svg = std::fs::read_to_string(&path).unwrap();
/// assert!(svg.contains("<svg") && svg.contains("greedy"));
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn plot_ladder_svg(report: &LadderReport, path: &Path) -> Result<(), PlotError> {
    draw_ladder(report, path).map_err(|reason| PlotError {
        path: path.display().to_string(),
        reason,
    })
}

fn draw_ladder(report: &LadderReport, path: &Path) -> Result<(), String> {
    let k = report.bots.len();
    let (width, height) = (1280u32, (140 + 44 * k as u32).max(320));
    let root = SVGBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let (left, right) = root.split_horizontally(width / 2);
    let labels: Vec<String> = report.bots.iter().map(|b| b.label.clone()).collect();
    let ratings: Vec<(f64, f64, f64)> = report
        .bots
        .iter()
        .map(|b| (b.rating, b.rating_ci95_low, b.rating_ci95_high))
        .collect();
    let places: Vec<(f64, f64, f64)> = report
        .bots
        .iter()
        .map(|b| {
            let m = b.mean_place;
            (
                m,
                b.mean_place_ci95_low.unwrap_or(m),
                b.mean_place_ci95_high.unwrap_or(m),
            )
        })
        .collect();
    let caption = format!(
        "Rating (Bradley–Terry, Elo points), 95% CI — {} players, {} deals a pair",
        report.players, report.deals_per_pair
    );
    intervals(&left, &caption, &labels, &ratings, ("rating", 0), None)?;
    let n = report.players as f64;
    intervals(
        &right,
        "Mean place against the ladder (1 = first out), 95% CI",
        &labels,
        &places,
        ("mean place", 3),
        Some((1.0, n)),
    )?;
    root.present().map_err(|e| e.to_string())
}

/// One point with its interval per row, the first row at the top, its
/// value written with `decimals`; the x range fits the intervals, within
/// `bounds` if given.
fn intervals<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    caption: &str,
    labels: &[String],
    values: &[(f64, f64, f64)],
    (x_desc, decimals): (&str, usize),
    bounds: Option<(f64, f64)>,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let k = labels.len() as i32;
    let lo = values.iter().map(|v| v.1).fold(f64::INFINITY, f64::min);
    let hi = values.iter().map(|v| v.2).fold(f64::NEG_INFINITY, f64::max);
    let pad = ((hi - lo) * 0.1).max(1e-3);
    let (mut lo, mut hi) = (lo - pad, hi + pad);
    if let Some((min, max)) = bounds {
        lo = lo.max(min);
        hi = hi.min(max);
    }
    let label_width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(3);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16))
        .margin(14)
        .x_label_area_size(40)
        .y_label_area_size((label_width as u32 * 8 + 16).clamp(60, 260))
        .build_cartesian_2d(lo..hi, (0..k - 1).into_segmented())
        .map_err(err)?;
    // Row 0 (the best bot) at the top.
    let y_of = |i: usize| k - 1 - i as i32;
    let rows = labels.to_vec();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(k as usize)
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(y) if (0..k).contains(y) => rows[(k - 1 - *y) as usize].clone(),
            _ => String::new(),
        })
        .x_desc(x_desc)
        .draw()
        .map_err(err)?;
    let colour = RGBColor(8, 48, 107);
    for (i, &(v, low, high)) in values.iter().enumerate() {
        let y = || SegmentValue::CenterOf(y_of(i));
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(low, y()), (high, y())],
                colour.stroke_width(3),
            )))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Circle::new((v, y()), 6, colour.filled())))
            .map_err(err)?;
        let style = TextStyle::from(("sans-serif", 12).into_font())
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Bottom));
        // The value stands clear above its dot (radius 6), not on it.
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((v, y())) + Text::new(format!("{v:.decimals$}"), (0, -9), style),
            ))
            .map_err(err)?;
    }
    Ok(())
}
