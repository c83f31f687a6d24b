//! Reading, tokenising, stemming and counting all 18,846 postings of 20 Newsgroups (target:
//! under 3 s). Skips with a note when the archive is not in the data directory.

// criterion_group! generates an undocumented function.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};

use gendisc_text::newsgroups::TARBALL;
use gendisc_text::{IndexedCorpus, Newsgroups, RegionSelection, TokenizerSettings, Vocabulary};

fn pipeline(c: &mut Criterion) {
    let path = match gendisc_data::loaders::dataset_path(TARBALL) {
        Ok(path) => path,
        Err(e) => {
            eprintln!("note: skipping the 20 Newsgroups benchmark: {e}");
            return;
        }
    };
    let mut group = c.benchmark_group("newsgroups");
    group.sample_size(10);
    group.bench_function("read_tarball", |b| {
        b.iter(|| Newsgroups::read(&path).unwrap())
    });
    let news = Newsgroups::read(&path).unwrap();
    group.bench_function("index_all_postings", |b| {
        b.iter(|| IndexedCorpus::newsgroups(&news, TokenizerSettings::default()))
    });
    group.bench_function("read_index_count_all", |b| {
        b.iter(|| {
            let news = Newsgroups::read(&path).unwrap();
            let corpus = IndexedCorpus::newsgroups(&news, TokenizerSettings::default());
            let all: Vec<usize> = (0..corpus.documents().len()).collect();
            let vocabulary = Vocabulary::from_training(&corpus, &all).unwrap();
            let subject = vocabulary
                .counts(&corpus, &all, RegionSelection::Region(0))
                .unwrap();
            let body = vocabulary
                .counts(&corpus, &all, RegionSelection::Region(1))
                .unwrap();
            (subject.nnz(), body.nnz())
        })
    });
    group.finish();
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
