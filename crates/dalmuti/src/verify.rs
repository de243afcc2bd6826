//! `dalmuti verify`: reads a downloaded game, checks its deal commitments
//! with `dalmuti_server::fairness::verify` (docs/FAIRNESS.md), prints the
//! verdict and says it in the exit status.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use dalmuti_server::fairness::verify::{Verdict, verify_text};

/// Arguments of `dalmuti verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// Print the verdict as one JSON object instead of lines of text.
    #[arg(long)]
    pub json: bool,
    /// The game record downloaded from the server, or - for standard input.
    pub file: PathBuf,
}

/// Runs `dalmuti verify`: prints one line per hand and a summary (or the
/// JSON verdict) and exits 0 when every hand verifies, 1 when one does not
/// (or the record breaks the rules), 2 when the input is not a readable
/// record with a `fairness` field.
pub fn run_verify(args: VerifyArgs) -> ExitCode {
    let verdict = match crate::read_input(&args.file) {
        Ok(text) => verify_text(&text),
        Err(e) => Verdict::Unreadable(e),
    };
    let (lines, errors) = if args.json {
        (vec![verdict.report().to_text()], vec![])
    } else {
        to_lines(&verdict)
    };
    for e in errors {
        eprintln!("{e}");
    }
    let mut out = std::io::stdout().lock();
    for line in lines {
        if let Err(e) = writeln!(out, "{line}") {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                eprintln!("cannot write the verdict: {e}");
            }
            break;
        }
    }
    ExitCode::from(exit_code(&verdict))
}

fn exit_code(verdict: &Verdict) -> u8 {
    match verdict {
        Verdict::Checked { .. } if verdict.verified() => 0,
        Verdict::Checked { .. } | Verdict::Invalid(_) => 1,
        Verdict::Unreadable(_) => 2,
    }
}

/// Lines for standard output, and lines for standard error.
fn to_lines(verdict: &Verdict) -> (Vec<String>, Vec<String>) {
    match verdict {
        Verdict::Checked { draw, hands } => {
            let mut lines = vec![draw.line()];
            lines.extend(hands.iter().map(|h| h.line()));
            lines.push(verdict.summary());
            (lines, vec![])
        }
        Verdict::Invalid(fault) => {
            // Where, as indices into the record's arrays (0-based, as
            // `dalmuti check` counts them).
            let place = match (fault.hand, fault.play) {
                (Some(h), Some(p)) => format!(" at hands[{h}], plays[{p}]"),
                (Some(h), None) => format!(" at hands[{h}]"),
                _ => String::new(),
            };
            (
                vec![format!(
                    "NOT verified: the record breaks the rules{place}: {}",
                    fault.message
                )],
                vec![],
            )
        }
        Verdict::Unreadable(m) => (vec![], vec![format!("cannot verify: {m}")]),
    }
}
