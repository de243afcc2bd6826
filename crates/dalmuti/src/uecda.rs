//! `dalmuti uecda serve` and `dalmuti uecda join`: the UECda contest's
//! protocol both ways (docs/UECDA.md), thin over `dalmuti-uecda`.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use dalmuti_bots::BotSpec;
use dalmuti_uecda::{JoinConfig, PLAYERS, Protocol, ServeConfig, ServeReport, join, serve};

/// Arguments of `dalmuti uecda`.
#[derive(clap::Args, Debug)]
pub struct UecdaCli {
    #[command(subcommand)]
    command: UecdaCommand,
}

#[derive(clap::Subcommand, Debug)]
enum UecdaCommand {
    /// A UECda server (protocol 20070, and 20140) on the dalmuti engine
    /// with the contest's rules: five contest programs, or fewer and our
    /// bots, play a match; each game is written as a game record and the
    /// match as a points table.
    ///
    /// Example: dalmuti uecda serve --port 42485 --games 100 --bots expert
    /// --record match.json --points points.csv
    ///
    /// Exit status: 0 the match was played, 1 it could not be, 2 bad
    /// arguments.
    Serve(ServeArgs),
    /// Any of our bots as a UECda client: joins a contest server and plays
    /// the whole match.
    ///
    /// Example: dalmuti uecda join --host 127.0.0.1 --port 42485 --bot
    /// expert
    ///
    /// Exit status: 0 the match was played to its end, 1 it was not, 2 bad
    /// arguments.
    Join(JoinArgs),
}

#[derive(clap::Args, Debug)]
struct ServeArgs {
    /// The port to listen on (the contest's is 42485).
    #[arg(long, default_value_t = 42485)]
    port: u16,
    /// The address to listen on: 0.0.0.0 for clients on other machines.
    #[arg(long, default_value = "127.0.0.1")]
    listen: String,
    /// Games in the match.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Games in each class cycle: the first of each is played without
    /// classes and the exchange (the contest's FLASH_MIBUN_NUMBER).
    #[arg(long, default_value_t = 100)]
    class_cycle: u32,
    /// Our bots at the table, comma-separated (levels easy, normal, hard,
    /// expert, or any bot of `dalmuti sim`): they take the last seats, and
    /// the server waits for clients in the others.
    #[arg(long, value_delimiter = ',')]
    bots: Vec<String>,
    /// The bot that plays for a client that fails (silent, slow, gone).
    #[arg(long, default_value = "normal")]
    stand_in: String,
    /// Seconds a client may take to answer a play or an exchange before a
    /// stand-in plays for it; 0 waits forever, as the reference server.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// The seed of the seats and the deals [default: drawn, and logged].
    #[arg(long)]
    seed: Option<u64>,
    /// Write the match as a game record (dalmuti-record/2) to this file,
    /// as games end: `dalmuti check` and `dalmuti replay` read it.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Write the points table to this CSV file: every player's total after
    /// each game.
    #[arg(long)]
    points: Option<PathBuf>,
    /// Write every message of the match to this file (a transcript).
    #[arg(long)]
    transcript: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct JoinArgs {
    /// The server's host.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The server's port.
    #[arg(long, default_value_t = 42485)]
    port: u16,
    /// The bot that plays: a level (easy, normal, hard, expert) or any bot
    /// of `dalmuti sim`.
    #[arg(long, default_value = "normal")]
    bot: String,
    /// The name to give the server [default: dalmuti-BOT] (up to 14
    /// characters).
    #[arg(long)]
    name: Option<String>,
    /// The protocol to speak: 20070 (tables of integers) or 20140
    /// (hexadecimal).
    #[arg(long, default_value_t = 20070)]
    protocol: i32,
    /// The bot's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs `dalmuti uecda`.
pub fn run_uecda(args: UecdaCli) -> ExitCode {
    crate::serve::start_logs(crate::serve::LogFormat::Text);
    match args.command {
        UecdaCommand::Serve(args) => run_serve(args),
        UecdaCommand::Join(args) => run_join(args),
    }
}

fn bot(text: &str) -> Result<BotSpec, String> {
    text.parse::<BotSpec>()
        .map_err(|e| format!("{text:?} is no bot: {e}"))
}

fn bad(e: String) -> ExitCode {
    eprintln!("dalmuti uecda: {e}");
    ExitCode::from(2)
}

fn run_serve(args: ServeArgs) -> ExitCode {
    let bots = match args
        .bots
        .iter()
        .map(|b| bot(b))
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(bots) => bots,
        Err(e) => return bad(e),
    };
    let stand_in = match bot(&args.stand_in) {
        Ok(b) => b,
        Err(e) => return bad(e),
    };
    if !(args.timeout.is_finite() && args.timeout >= 0.0) {
        return bad(format!(
            "--timeout {} is not a number of seconds",
            args.timeout
        ));
    }
    if args.bots.len() >= PLAYERS {
        return bad(format!(
            "--bots names {} bots: a table seats {PLAYERS}, and at least one seat is a client's",
            args.bots.len()
        ));
    }
    if args.games == 0 || args.class_cycle < 2 {
        return bad("--games is 1 or more, --class-cycle 2 or more".into());
    }
    let config = ServeConfig {
        games: args.games,
        class_cycle: args.class_cycle,
        seed: args.seed,
        bots,
        stand_in,
        answer_timeout: Duration::from_secs_f64(args.timeout),
        record: args.record,
        points: args.points,
        transcript: args.transcript,
        ..ServeConfig::default()
    };
    let listener = match TcpListener::bind((args.listen.as_str(), args.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!(
                "dalmuti uecda serve: cannot listen on {}:{}: {e}",
                args.listen, args.port
            );
            return ExitCode::from(1);
        }
    };
    match serve(listener, config) {
        Ok(report) => {
            print!("{}", points_table(&report));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("dalmuti uecda serve: {e}");
            ExitCode::from(1)
        }
    }
}

/// The match's points table, a player a line.
fn points_table(report: &ServeReport) -> String {
    let mut out = format!(
        "UECda match: {} games, seed {}\n{:<7} {:<16} {:>7} {:>9}  {:>5} {:>5} {:>5} {:>5} {:>5}  who\n",
        report.games,
        report.seed,
        "player",
        "name",
        "points",
        "per game",
        "1st",
        "2nd",
        "3rd",
        "4th",
        "5th"
    );
    for p in 0..PLAYERS {
        let per_game = f64::from(report.points[p]) / f64::from(report.games.max(1));
        let places: Vec<String> = report.places[p].iter().map(|n| format!("{n:>5}")).collect();
        out += &format!(
            "{p:<7} {:<16} {:>7} {per_game:>9.3}  {}  {}\n",
            report.names[p],
            report.points[p],
            places.join(" "),
            report.kinds[p]
        );
    }
    for (p, why) in &report.stood_in {
        out += &format!("{p} was stood in for: {why}\n");
    }
    out
}

fn run_join(args: JoinArgs) -> ExitCode {
    let spec = match bot(&args.bot) {
        Ok(b) => b,
        Err(e) => return bad(e),
    };
    let Some(protocol) = Protocol::from_number(args.protocol) else {
        return bad(format!(
            "--protocol {}: this client speaks 20070 and 20140",
            args.protocol
        ));
    };
    let name = args.name.unwrap_or_else(|| format!("dalmuti-{}", args.bot));
    let config = JoinConfig {
        host: args.host,
        port: args.port,
        bot: spec,
        name,
        protocol,
        seed: args.seed,
    };
    match join(config) {
        Ok(report) => {
            let known: u32 = report.places.iter().sum();
            let places: Vec<String> = report.places.iter().map(u32::to_string).collect();
            println!(
                "{} games as {}: {} points over the {known} games whose place the tables told \
                 ({:.3} a game); places 1st to 5th: {}",
                report.games,
                report.player.map_or("?".into(), |p| p.to_string()),
                report.points,
                f64::from(report.points) / f64::from(known.max(1)),
                places.join(" ")
            );
            if report.faults > 0 {
                println!(
                    "{} decisions could not be followed and were answered safely",
                    report.faults
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("dalmuti uecda join: {e}");
            ExitCode::from(1)
        }
    }
}
