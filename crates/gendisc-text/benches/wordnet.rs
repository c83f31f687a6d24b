//! Reading WordNet 3.0's nouns (target: well under a second) and the semantic-distance searches
//! a study makes: one breadth-first search from a newsgroup's label word over all noun synsets,
//! then a distance per vocabulary word. Skips with a note when no dictionary is found.

// criterion_group! generates an undocumented function.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};

use gendisc_text::wordnet::find_dict_dir;
use gendisc_text::{WordNet, DEFAULT_MAX_DISTANCE};

fn wordnet(c: &mut Criterion) {
    let dir = match find_dict_dir() {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("note: skipping the WordNet benchmark: {e}");
            return;
        }
    };
    let mut group = c.benchmark_group("wordnet");
    group.sample_size(10);
    group.bench_function("open", |b| b.iter(|| WordNet::open(&dir).unwrap()));
    let wn = WordNet::open(&dir).unwrap();
    group.bench_function("distances_from_gun", |b| {
        b.iter(|| wn.distances_from("gun", DEFAULT_MAX_DISTANCE).unwrap())
    });
    let from = wn.distances_from("gun", DEFAULT_MAX_DISTANCE).unwrap();
    let words = [
        "weapon", "rifle", "atheism", "israel", "car", "engine", "religion", "peace",
    ];
    group.bench_function("to_8_words", |b| b.iter(|| words.map(|w| from.to(w))));
    group.bench_function("distance_gun_atheism", |b| {
        b.iter(|| wn.distance("gun", "atheism"))
    });
    group.bench_function("noun_lemma_8_plurals", |b| {
        let plurals = [
            "guns", "mice", "churches", "cities", "boxes", "women", "wars", "laws",
        ];
        b.iter(|| plurals.map(|w| wn.noun_lemma(w)))
    });
    group.finish();
}

criterion_group!(benches, wordnet);
criterion_main!(benches);
