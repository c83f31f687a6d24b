//! The `gendisc` command: fit gendisc's classifiers on your own data files, save them as model
//! files, and apply and evaluate them on new data.
//!
//! ```text
//! gendisc models
//! gendisc fit lr --data train.csv --out model.json
//! gendisc predict --model model.json --data new.csv --proba
//! gendisc evaluate --model model.json --data test.csv
//! gendisc compare --data table.csv --out comparison/
//! ```

/// `print!` to standard output that returns the write's error from the enclosing function
/// (a closed pipe, as `gendisc models | head`, is then an error main ends quietly on).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// `println!` as [`out!`].
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

mod cli;
mod compare;
mod estimators;
mod evaluate;
mod input;
mod predict;
mod saved;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match &cli.command {
        Command::Models => estimators::print_models(),
        Command::Fit(args) => estimators::fit(args),
        Command::Predict(args) => predict::run(args),
        Command::Evaluate(args) => evaluate::run(args),
        Command::Compare(args) => compare::run(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of the output went away (`| head`): nothing is wrong with the work.
        Err(error) if closed_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            let mut shown = error.to_string();
            eprintln!("error: {shown}");
            // Many errors print their source in their own message: show a cause only if it
            // says something new.
            for cause in error.chain().skip(1) {
                let cause = cause.to_string();
                if !shown.contains(&cause) {
                    eprintln!("  caused by: {cause}");
                    shown = cause;
                }
            }
            ExitCode::FAILURE
        }
    }
}

/// Whether `error` comes from writing to a pipe whose reader has gone.
fn closed_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<csv::Error>()
                .is_some_and(|e| matches!(e.kind(), csv::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::BrokenPipe))
    })
}
