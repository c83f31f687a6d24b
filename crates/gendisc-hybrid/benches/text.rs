//! The text hybrid on real data: 1,500 postings of rec.sport.hockey vs soc.religion.christian
//! (subject and body over the training vocabulary), as in a Figure 1 cell of Raina et al. at
//! the largest size. Targets: the naive Bayes fit under 20 ms, the leave-one-out θ fit (region
//! likelihoods from downdated counts, then glm on the 1,500 × 2 features) under 50 ms. Skips
//! with a note when the 20 Newsgroups archive is not in the data directory.

// criterion_group! generates an undocumented function.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};
use ndarray::Array1;

use gendisc_core::ParamGuard;
use gendisc_generative::MultinomialNb;
use gendisc_hybrid::{Hybrid, Normalization};
use gendisc_text::newsgroups::TARBALL;
use gendisc_text::{
    IndexedCorpus, Newsgroups, RegionSelection, TokenizerSettings, Vocabulary, BODY, SUBJECT,
};

fn text_hybrid(c: &mut Criterion) {
    let path = match gendisc_data::loaders::dataset_path(TARBALL) {
        Ok(path) => path,
        Err(e) => {
            eprintln!("note: skipping the text hybrid benchmark: {e}");
            return;
        }
    };
    let news = Newsgroups::read(path).expect("the archive reads");
    let corpus = IndexedCorpus::newsgroups(&news, TokenizerSettings::default());
    let mut docs = Vec::new();
    let mut y = Vec::new();
    for (class, group) in ["rec.sport.hockey", "soc.religion.christian"]
        .iter()
        .enumerate()
    {
        let g = news.group_index(group).expect("group exists");
        for d in corpus.documents_of(g).into_iter().take(750) {
            docs.push(d);
            y.push(class);
        }
    }
    let y = Array1::from(y);
    let vocabulary = Vocabulary::from_training(&corpus, &docs).unwrap();
    let subject = vocabulary
        .counts(&corpus, &docs, RegionSelection::Region(SUBJECT))
        .unwrap();
    let body = vocabulary
        .counts(&corpus, &docs, RegionSelection::Region(BODY))
        .unwrap();
    let total = vocabulary
        .counts(&corpus, &docs, RegionSelection::All)
        .unwrap();
    eprintln!(
        "{} documents, {} words in the vocabulary, {} nonzeros",
        docs.len(),
        vocabulary.len(),
        total.nnz()
    );

    let mut group = c.benchmark_group("text hybrid, 1500 postings");
    group.bench_function("naive Bayes fit", |b| {
        b.iter(|| {
            MultinomialNb::params()
                .fit_sparse(total.view(), y.view())
                .unwrap()
        })
    });
    group.bench_function("leave-one-out region likelihoods", |b| {
        let params = MultinomialNb::params().check_ref().unwrap().clone();
        b.iter(|| {
            params
                .fit_leave_one_out_sparse(&[subject.view(), body.view()], y.view(), None)
                .unwrap()
        })
    });
    group.bench_function("normalized hybrid R = 2, leave-one-out θ", |b| {
        b.iter(|| {
            Hybrid::params(MultinomialNb::params())
                .normalization(Normalization::Normalized)
                .leave_one_out(true)
                .fit_sparse(&[subject.view(), body.view()], y.view())
                .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, text_hybrid);
criterion_main!(benches);
