//! Replicate seeding: stable values, distinct streams for distinct coordinates, identical
//! streams for identical ones whatever the thread or order.

use std::collections::HashSet;
use std::thread;

use gendisc_data::generators::XueTitteringtonPreset;
use gendisc_data::splits::{replicate_rng, replicate_seed, SeedPart};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Values printed by `splits_replicate_seed_reference.py`, an independent Python
/// implementation of the algorithm documented on `replicate_seed`. If this test fails, the
/// seeding scheme changed and every published study result would change with it.
#[test]
fn seeds_match_the_reference_implementation() {
    let cases: [(u64, Vec<SeedPart<'_>>, u64); 5] = [
        (0, vec![], 16294208416658607535),
        (1, vec![0u64.into()], 5599481335624529899),
        (
            20240601,
            vec!["normal-equal-diagonal".into(), 100u64.into(), 0u64.into()],
            8957118370424095349,
        ),
        (
            20240601,
            vec![
                "bernoulli-unequal-full".into(),
                400u64.into(),
                399u64.into(),
            ],
            3564202978888977035,
        ),
        (
            u64::MAX,
            vec![
                "σ-unicode name longer than eight bytes".into(),
                u64::MAX.into(),
                7u64.into(),
            ],
            7536295274173296179,
        ),
    ];
    for (study_seed, parts, expected) in cases {
        assert_eq!(replicate_seed(study_seed, &parts), expected, "{parts:?}");
    }
    // The empty tuple from study seed 0 is one SplitMix64 step: its well-known first output.
    assert_eq!(replicate_seed(0, &[]), 0xE220_A839_7B1D_CDAF);
}

/// The whole Xue–Titterington grid: 12 datasets × 13 training sizes × 400 replicates.
fn study_grid() -> Vec<(&'static str, usize, usize)> {
    let mut grid = Vec::new();
    for preset in XueTitteringtonPreset::ALL {
        for m in (100..=400).step_by(25) {
            for replicate in 0..400 {
                grid.push((preset.name(), m, replicate));
            }
        }
    }
    grid
}

#[test]
fn distinct_coordinates_give_distinct_streams() {
    let grid = study_grid();
    let mut seeds = HashSet::with_capacity(grid.len());
    let mut first_words = HashSet::with_capacity(grid.len());
    for &(name, m, replicate) in &grid {
        let parts = [name.into(), m.into(), replicate.into()];
        assert!(
            seeds.insert(replicate_seed(7, &parts)),
            "{name} {m} {replicate}"
        );
        let mut rng = replicate_rng(7, &parts);
        let words: [u64; 2] = [rng.random(), rng.random()];
        assert!(first_words.insert(words), "{name} {m} {replicate}");
    }
    assert_eq!(seeds.len(), 12 * 13 * 400);
    // Another study seed gives another set of streams.
    let other: HashSet<u64> = grid
        .iter()
        .map(|&(name, m, r)| replicate_seed(8, &[name.into(), m.into(), r.into()]))
        .collect();
    assert!(seeds.is_disjoint(&other));
}

#[test]
fn same_coordinates_give_the_same_stream_on_any_thread_in_any_order() {
    let grid: Vec<_> = study_grid().into_iter().step_by(97).collect();
    let stream = |&(name, m, r): &(&str, usize, usize)| -> Vec<u64> {
        let mut rng = replicate_rng(2024, &[name.into(), m.into(), r.into()]);
        (0..8).map(|_| rng.random()).collect()
    };
    let sequential: Vec<Vec<u64>> = grid.iter().map(stream).collect();
    // Reverse order, split over threads.
    let mut parallel: Vec<Vec<u64>> = thread::scope(|scope| {
        let handles: Vec<_> = grid
            .chunks(grid.len().div_ceil(4))
            .rev()
            .map(|chunk| scope.spawn(move || chunk.iter().rev().map(stream).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker thread"))
            .collect()
    });
    parallel.reverse();
    assert_eq!(sequential, parallel);
}

#[test]
fn replicate_rng_is_chacha8_seeded_from_the_seed() {
    let parts = ["x".into(), 3usize.into()];
    let mut a = replicate_rng(5, &parts);
    let mut b = ChaCha8Rng::seed_from_u64(replicate_seed(5, &parts));
    for _ in 0..16 {
        assert_eq!(a.random::<u64>(), b.random::<u64>());
    }
}
