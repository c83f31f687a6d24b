//! Opens WordNet's nouns and prints, for the label words of Epshteyn & DeJong's four newsgroups
//! (§5: atheism, guns, middle east, auto), how many noun synsets lie at each semantic distance,
//! with the time taken to read the dictionary and to run each search.
//!
//! `cargo run --release -p gendisc-text --example wordnet_distances`
//!
//! Without a WordNet dictionary (see `WordNet::locate`) it says so and exits successfully.

use std::time::Instant;

use gendisc_text::{WordNet, DEFAULT_MAX_DISTANCE};

fn main() -> Result<(), gendisc_core::Error> {
    let start = Instant::now();
    let wordnet = match WordNet::locate() {
        Ok(wordnet) => wordnet,
        Err(e) => {
            println!("note: no WordNet dictionary, nothing to show: {e}");
            return Ok(());
        }
    };
    println!(
        "read {} noun synsets, {} links, {} lemmas from {} in {:.0} ms",
        wordnet.n_synsets(),
        wordnet.n_links(),
        wordnet.n_lemmas(),
        wordnet.dict_dir().display(),
        start.elapsed().as_secs_f64() * 1e3
    );
    for label in ["atheism", "gun", "middle_east", "auto"] {
        let start = Instant::now();
        let from = wordnet.distances_from(label, u32::MAX)?;
        let elapsed = start.elapsed().as_secs_f64() * 1e3;
        let histogram = from.histogram();
        let within_cap: usize = histogram
            .iter()
            .take(DEFAULT_MAX_DISTANCE as usize + 1)
            .sum();
        println!(
            "{label:>12}: {:.1} ms, {} of {} synsets reachable, {:.1}% within {} links; by distance {:?}",
            elapsed,
            from.reached(),
            wordnet.n_synsets(),
            100.0 * within_cap as f64 / wordnet.n_synsets() as f64,
            DEFAULT_MAX_DISTANCE,
            histogram
        );
    }
    for (a, b) in [
        ("gun", "artillery"),
        ("gun", "shooter"),
        ("gun", "ordnance"),
        ("atheism", "god"),
        ("gun", "atheism"),
        ("auto", "mideast"),
    ] {
        println!("distance({a}, {b}) = {:?}", wordnet.distance(a, b));
    }
    Ok(())
}
