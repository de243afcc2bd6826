//! `dalmuti sim`: a thin layer over `dalmuti-arena`.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use std::path::Path;

use dalmuti_arena::{
    Format, LadderConfig, PoolConfig, SimArgs, SimConfig, plot_ladder_svg, plot_svg, run,
    run_ladder, run_pool,
};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// Runs a simulation (or, with `--ladder`, a ladder; with `--pool`, a bot
/// against every pool) and prints its report.
pub fn run_sim(args: SimArgs) -> ExitCode {
    if args.ladder.is_some() {
        return ladder(args);
    }
    if args.pool.is_some() {
        return pool(args);
    }
    let config = match SimConfig::new(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if !config.seed_given() {
        // The text report names the seed too; JSON and CSV carry it in
        // their fields or not at all, so say it where a person sees it.
        eprintln!(
            "seed {} (repeat this run with --seed {})",
            config.seed_text(),
            config.seed_text()
        );
    }
    let result = with_progress(config.total_hands(), |progress| run(&config, progress));
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(path) = config.plot()
        && let Err(e) = plot_svg(&report, path)
    {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    if let Some(path) = config.json_file()
        && let Err(code) = write_json(path, &report.to_json())
    {
        return code;
    }
    let text = match config.format() {
        Format::Text => report.to_text(),
        Format::Json => report.to_json() + "\n",
        Format::Csv => report.to_csv(),
    };
    print(&text)
}

/// `dalmuti sim --ladder`: plays the ladder, writes its JSON and plot if
/// asked, and prints its table (or its JSON with a bare `--json`).
fn ladder(args: SimArgs) -> ExitCode {
    let config = match LadderConfig::new(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if !config.seed_given() {
        eprintln!(
            "seed {} (repeat this ladder with: {})",
            config.seed_text(),
            config.command()
        );
    }
    let result = with_progress(config.total_hands(), |progress| {
        run_ladder(&config, progress)
    });
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(path) = config.plot()
        && let Err(e) = plot_ladder_svg(&report, path)
    {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    if let Some(path) = config.json_file()
        && let Err(code) = write_json(path, &report.to_json())
    {
        return code;
    }
    if config.json_on_stdout() {
        print(&(report.to_json() + "\n"))
    } else {
        print(&report.to_text())
    }
}

/// `dalmuti sim --pool`: measures the bot against every pool, writes the
/// JSON if asked, and prints the table (or the JSON with a bare `--json`).
fn pool(args: SimArgs) -> ExitCode {
    let config = match PoolConfig::new(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if !config.seed_given() {
        eprintln!(
            "seed {} (repeat this run with: {})",
            config.seed_text(),
            config.command()
        );
    }
    let result = with_progress(config.total_hands(), |progress| run_pool(&config, progress));
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(path) = config.json_file()
        && let Err(code) = write_json(path, &report.to_json())
    {
        return code;
    }
    if config.json_on_stdout() {
        print(&(report.to_json() + "\n"))
    } else {
        print(&report.to_text())
    }
}

/// Writes a report's JSON to `path`, or says why it cannot.
fn write_json(path: &Path, json: &str) -> Result<(), ExitCode> {
    std::fs::write(path, format!("{json}\n")).map_err(|e| {
        eprintln!("error: cannot write {}: {e}", path.display());
        ExitCode::FAILURE
    })
}

/// Prints a report on standard output.
fn print(text: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that went away early (`| head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write the report: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `work` with a progress callback that moves a bar (when standard
/// error is a terminal), and clears the bar when it is done.
fn with_progress<T>(total: u64, work: impl FnOnce(&(dyn Fn(u64) + Sync)) -> T) -> T {
    let bar = progress_bar(total);
    let result = work(&|hands| {
        if let Some(bar) = &bar {
            bar.set_position(hands);
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    result
}

/// A progress bar with an ETA on standard error when it is a terminal;
/// nothing otherwise.
fn progress_bar(total: u64) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(total);
    let style =
        ProgressStyle::with_template("{bar:30} {human_pos}/{human_len} hands {rate} ETA {eta}")
            .expect("a valid template")
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0}/s", state.per_sec());
                },
            );
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}
