//! `dalmuti sim`: a thin layer over `dalmuti-arena`.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use std::path::{Path, PathBuf};

use dalmuti_arena::{
    Format, LadderConfig, PoolConfig, SimArgs, SimConfig, plot_ladder_svg, plot_svg, run,
    run_ladder, run_pool,
};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// `dalmuti sim`'s options on the command line.
#[derive(clap::Args, Clone, Debug)]
pub struct SimCli {
    /// The game: dalmuti, or corporate-shuffle (Dilbert's Corporate
    /// Shuffle: 3 to 8 players, never a stripped deck) [default: dalmuti].
    #[arg(long, value_name = "GAME")]
    pub variant: Option<String>,

    /// Players at the table, 3 to 16 (3 to 8 in Corporate Shuffle)
    /// [default: the number of bots listed, or 5 when one bot is given for
    /// every seat].
    #[arg(long)]
    pub players: Option<usize>,

    /// The lineup, one bot per player separated by commas (or one bot for
    /// every seat): random, greedy, heuristic, learned, search (or search:OPTIONS),
    /// a level played in `dalmuti play` and the browser (easy, normal, hard,
    /// expert) or cmd:COMMAND (a command may contain spaces, not commas).
    #[arg(
        long,
        required_unless_present_any = ["ladder", "pool"],
        default_value = "",
        hide_default_value = true
    )]
    pub bots: String,

    /// A round-robin ladder instead of one lineup: two or more bots,
    /// separated by commas as in --bots. Every pair meets at tables of
    /// --players seats shared between the two, each deal replayed in every
    /// seating; the report ranks the bots by a rating with 95% intervals.
    #[arg(
        long,
        value_name = "BOTS",
        conflicts_with_all = ["bots", "games", "hands_per_game", "csv", "records"]
    )]
    pub ladder: Option<String>,

    /// Measures one bot against pools of other styles instead of one
    /// lineup: against copies of each pool bot (--pools) and at a mixed
    /// table of them, beside the baseline (--baseline) in its seat on the
    /// same deals; the report gives each mean place and the lead over the
    /// baseline with 95% intervals, in one table.
    #[arg(
        long,
        value_name = "BOT",
        conflicts_with_all = ["bots", "ladder", "games", "hands_per_game", "csv", "records", "plot"]
    )]
    pub pool: Option<String>,

    /// The pools for --pool, separated by commas as in --bots (cmd:COMMAND
    /// bots too) [default: shedder,hoarder,spender,breaker,noisy].
    #[arg(long, value_name = "BOTS")]
    pub pools: Option<String>,

    /// The bot --pool compares with, in the same seat [default: heuristic].
    #[arg(long, value_name = "BOT")]
    pub baseline: Option<String>,

    /// Independent hands to play, each dealt fresh with the lineup in a
    /// random seat order [default: 10000 unless --games]. With --ladder:
    /// deals each pair plays [default: 1000].
    #[arg(long)]
    pub hands: Option<u64>,

    /// Games to play instead of independent hands: titles, taxes and scores
    /// carry from hand to hand within a game. Needs --hands-per-game.
    #[arg(long)]
    pub games: Option<u64>,

    /// Hands in each game (with --games).
    #[arg(long)]
    pub hands_per_game: Option<u32>,

    /// Replay every deal (every game, with --games) with the lineup rotated
    /// through every seat, to take the luck of the deal out of comparisons.
    #[arg(long)]
    pub duplicate: bool,

    /// The run's seed: a number or 64 hexadecimal digits [default: drawn
    /// from the operating system, and printed].
    #[arg(long)]
    pub seed: Option<String>,

    /// Worker threads [default: every core]. The results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,

    /// Optional rule: the stripped deck for four or five players (Dalmuti
    /// only).
    #[arg(long)]
    pub stripped_deck: bool,

    /// Optional rule: no taxes on a game's first hand (and so on every
    /// independent hand).
    #[arg(long)]
    pub first_deal_revolution: bool,

    /// Optional rule: the highest Merchant may trade a card blind.
    #[arg(long)]
    pub merchant_exchange: bool,

    /// President and Daifugō: their options, a preset (uecda, local,
    /// president) and OPTION=VALUE, separated by commas, e.g.
    /// `local,jokers=2` or `eleven_back=on,lock=strict` (docs/RULES.md).
    #[arg(long, value_name = "RULES")]
    pub house: Option<String>,

    /// Scoring in force at the table: none, standard or philanthropic (the
    /// report's points are always the standard ones).
    #[arg(long, value_name = "SCORING")]
    pub scoring: Option<String>,

    /// Print the report as JSON, or with a FILE write it there (and print
    /// the table).
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with = "csv")]
    pub json: Option<Option<PathBuf>>,

    /// Print the report as CSV, one row per bot.
    #[arg(long)]
    pub csv: bool,

    /// Write every game (every independent hand, as a one-hand game) as a
    /// game record into this folder, made if missing (its parent must
    /// exist); at most 10,000 records a run.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,

    /// Draw the mobility matrix and the finishing places per bot as SVG
    /// (with --ladder: the ratings and mean places with their intervals).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

impl From<SimCli> for dalmuti_arena::SimArgs {
    fn from(cli: SimCli) -> Self {
        dalmuti_arena::SimArgs {
            variant: cli.variant,
            players: cli.players,
            bots: cli.bots,
            ladder: cli.ladder,
            pool: cli.pool,
            pools: cli.pools,
            baseline: cli.baseline,
            hands: cli.hands,
            games: cli.games,
            hands_per_game: cli.hands_per_game,
            duplicate: cli.duplicate,
            seed: cli.seed,
            threads: cli.threads,
            stripped_deck: cli.stripped_deck,
            first_deal_revolution: cli.first_deal_revolution,
            merchant_exchange: cli.merchant_exchange,
            house: cli.house,
            scoring: cli.scoring,
            json: cli.json,
            csv: cli.csv,
            records: cli.records,
            plot: cli.plot,
        }
    }
}

/// Runs a simulation (or, with `--ladder`, a ladder; with `--pool`, a bot
/// against every pool) and prints its report.
pub fn run_sim(cli: SimCli) -> ExitCode {
    let args = SimArgs::from(cli);
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
    if let Err(e) = check_outputs(&[("--json", config.json_file()), ("--plot", config.plot())]) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    if let Some(dir) = config.records() {
        // Said before the run, so a mistyped folder shows at once.
        eprintln!(
            "writing {} game records into {}",
            config.record_count(),
            shown_path(dir)
        );
    }
    let machine = config.format() != Format::Text;
    let result = with_progress(config.total_hands(), machine, |progress| {
        run(&config, progress)
    });
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
    if let Err(e) = check_outputs(&[("--json", config.json_file()), ("--plot", config.plot())]) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let result = with_progress(config.total_hands(), config.json_on_stdout(), |progress| {
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
    if let Err(e) = check_outputs(&[("--json", config.json_file())]) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let result = with_progress(config.total_hands(), config.json_on_stdout(), |progress| {
        run_pool(&config, progress)
    });
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

/// Checks, before anything is played, that each output file named can be
/// written: a run of hours must not end in "cannot write". A file that was
/// not there is not left behind; one that was is not touched until the
/// report is written.
fn check_outputs(files: &[(&str, Option<&Path>)]) -> Result<(), String> {
    for &(flag, path) in files {
        let Some(path) = path else { continue };
        let cannot = |why: String| format!("cannot write {flag} {}: {why}", path.display());
        if path.is_dir() {
            return Err(cannot("it is a folder".into()));
        }
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if !parent.is_dir() {
            return Err(cannot(format!(
                "the folder {} does not exist",
                parent.display()
            )));
        }
        let existed = path.exists();
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| cannot(e.to_string()))?;
        if !existed {
            let _ = std::fs::remove_file(path);
        }
    }
    Ok(())
}

/// A path as the user can find it: absolute when it can be made so.
fn shown_path(path: &Path) -> String {
    std::path::absolute(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
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
/// error is a terminal and the report is for a person, not `--json` or
/// `--csv` on standard output), and clears the bar when it is done.
fn with_progress<T>(total: u64, machine: bool, work: impl FnOnce(&(dyn Fn(u64) + Sync)) -> T) -> T {
    // JSON or CSV on standard output is for a program: no bar beside it.
    // Decided before the bar is made: a bar made and then dropped may
    // already have drawn its first tick.
    let bar = if machine { None } else { progress_bar(total) };
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
