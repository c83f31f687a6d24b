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
        Command::Models => {
            estimators::print_models();
            Ok(())
        }
        Command::Fit(args) => estimators::fit(args),
        Command::Predict(args) => predict::run(args),
        Command::Evaluate(args) => evaluate::run(args),
        Command::Compare(args) => compare::run(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
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
