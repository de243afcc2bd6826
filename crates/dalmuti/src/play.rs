//! `dalmuti play`: its options on the command line, over
//! [`dalmuti_terminal::run_play`].

use std::process::ExitCode;

use dalmuti_terminal::PlayError;

/// `dalmuti play`'s arguments as typed.
#[derive(clap::Args, Clone, Debug)]
pub struct PlayCli {
    /// The game: dalmuti (The Great Dalmuti), corporate-shuffle
    /// (Dilbert's Corporate Shuffle: 60 cards, office titles, Dogberts and
    /// three special cards; 3 to 8 players), daifugo (大富豪 as the UECda
    /// contest plays it) or president (pagat.com's rules).
    #[arg(long, value_name = "VARIANT", default_value = "dalmuti")]
    pub variant: String,

    /// Players at the table, you included: 3 to 16 (3 to 8 in Corporate
    /// Shuffle) [default: 5, or one more than the bots listed in --bots].
    #[arg(long)]
    pub players: Option<usize>,

    /// The other players' bots, separated by commas, or one bot for all of
    /// them: a level, weakest first easy, normal, hard (searches about
    /// 10 ms a move) or expert (about 40 ms); or a bot by name: random,
    /// greedy, heuristic, learned, a style (shedder, hoarder, spender, breaker,
    /// noisy, patient), search (or search:OPTIONS) or cmd:COMMAND.
    #[arg(long, default_value = "normal")]
    pub bots: String,

    /// Your name at the table.
    #[arg(long, default_value = "You")]
    pub name: String,

    /// The game's seed: a number or 64 hexadecimal digits [default: drawn
    /// from the operating system, and printed].
    #[arg(long)]
    pub seed: Option<String>,

    /// Optional rule: the stripped deck for four or five players (never in
    /// Corporate Shuffle).
    #[arg(long)]
    pub stripped_deck: bool,

    /// Optional rule: no taxes (executive bonuses) on the first hand.
    #[arg(long)]
    pub first_deal_revolution: bool,

    /// Optional rule: the highest Merchant (Worker) may trade a card blind
    /// with another Merchant (6 or more players).
    #[arg(long)]
    pub merchant_exchange: bool,

    /// Scoring: none, standard or philanthropic (places, 5 to 1 at five
    /// players, in President and Daifugō).
    #[arg(long, value_name = "SCORING", default_value = "none")]
    pub scoring: String,

    /// President and Daifugō: a preset (uecda, local, president) and
    /// OPTION=VALUE, separated by commas, e.g. `local,jokers=2` or
    /// `eleven_back=on,lock=strict` (docs/RULES.md lists them).
    #[arg(long, value_name = "RULES")]
    pub house: Option<String>,

    /// The number of hands the game lasts [default: play until you quit].
    #[arg(long, value_name = "H")]
    pub hands: Option<u32>,

    /// The bots' delay between actions, in milliseconds, when the output is
    /// a terminal (0 for none).
    #[arg(long, value_name = "MS", default_value_t = 600)]
    pub speed: u64,

    /// The plain line mode: the game as lines of text, commands typed as
    /// lines (also used when standard input is not a terminal).
    #[arg(long)]
    pub plain: bool,

    /// The language: en, ko, de, es or ja [default: $DALMUTI_LANG, else
    /// the terminal's locale (LC_ALL, LC_MESSAGES, LANG), else English].
    /// Switch during the game with L, or by typing "lang de".
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
}

impl From<PlayCli> for dalmuti_terminal::PlayArgs {
    fn from(cli: PlayCli) -> Self {
        dalmuti_terminal::PlayArgs {
            variant: cli.variant,
            players: cli.players,
            bots: cli.bots,
            name: cli.name,
            seed: cli.seed,
            stripped_deck: cli.stripped_deck,
            first_deal_revolution: cli.first_deal_revolution,
            merchant_exchange: cli.merchant_exchange,
            scoring: cli.scoring,
            house: cli.house,
            hands: cli.hands,
            speed: cli.speed,
            plain: cli.plain,
            lang: cli.lang,
        }
    }
}

/// Exit status 0 when the game ends or the player quits and the game is
/// saved, 1 when it cannot start or cannot be saved, 2 for bad arguments.
pub fn run_play(cli: PlayCli) -> ExitCode {
    match dalmuti_terminal::run_play(&cli.into()) {
        Ok(played) => {
            if let Some(e) = played.interrupted {
                eprintln!("error: {e}");
            }
            ExitCode::SUCCESS
        }
        Err(PlayError::Config(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
        Err(PlayError::Save { error, interrupted }) => {
            if let Some(e) = interrupted {
                eprintln!("error: {e}");
            }
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
