//! Tests on the real 20 Newsgroups archive. They skip, with a note, when the archive is not in
//! the data directory (`$GENDISC_DATA`, else `./data`).

use std::collections::HashSet;
use std::sync::OnceLock;

use gendisc_text::newsgroups::TARBALL;
use gendisc_text::regions::split_posting;
use gendisc_text::{
    IndexedCorpus, Newsgroups, RegionSelection, Split, TokenizerSettings, Vocabulary, BODY, SUBJECT,
};

/// The collection, read once for all tests; `None` (with a note) when the data are absent.
fn news() -> Option<&'static Newsgroups> {
    static NEWS: OnceLock<Option<Newsgroups>> = OnceLock::new();
    NEWS.get_or_init(|| match gendisc_data::loaders::dataset_path(TARBALL) {
        Ok(path) => Some(Newsgroups::read(path).expect("the archive reads")),
        Err(e) => {
            eprintln!("note: skipping the 20 Newsgroups tests: {e}");
            None
        }
    })
    .as_ref()
}

fn posting<'a>(news: &'a Newsgroups, split: Split, group: &str, id: &str) -> &'a str {
    let g = news.group_index(group).expect("group exists");
    &news
        .postings()
        .iter()
        .find(|p| p.split == split && p.group == g && p.id == id)
        .expect("posting exists")
        .text
}

#[test]
fn the_archive_has_the_documented_counts() {
    let Some(news) = news() else { return };
    assert_eq!(news.postings().len(), 18_846);
    assert_eq!(news.groups().len(), 20);
    let count = |split: Split, group: &str| {
        let g = news.group_index(group).unwrap();
        news.postings()
            .iter()
            .filter(|p| p.split == split && p.group == g)
            .count()
    };
    // The data README's table.
    assert_eq!(count(Split::Train, "alt.atheism"), 480);
    assert_eq!(count(Split::Test, "talk.religion.misc"), 251);
    assert_eq!(count(Split::Train, "soc.religion.christian"), 599);
    assert!(
        news.report().skipped.is_empty(),
        "{:?}",
        news.report().skipped
    );
    // Every posting has a subject line.
    assert!(news
        .postings()
        .iter()
        .all(|p| p.text.lines().any(|l| l.starts_with("Subject:"))));
}

#[test]
fn the_posting_with_carriage_returns_is_split_cleanly() {
    let Some(news) = news() else { return };
    // The one posting of the collection with CR bytes (data README).
    let text = posting(news, Split::Train, "comp.sys.mac.hardware", "51894");
    let regions = split_posting(text);
    assert!(!regions.subject.contains('\r'));
    assert!(!regions.body.is_empty());
}

#[test]
fn tokeniser_on_real_postings() {
    let Some(news) = news() else { return };
    for p in news.postings().iter().take(2000) {
        let regions = split_posting(&p.text);
        // No header survives into the subject, and no reply marker.
        assert!(
            !regions.subject.to_ascii_lowercase().starts_with("re:"),
            "{}",
            p.id
        );
        assert!(!regions.body.starts_with("From:"), "{}", p.id);
    }
    // A reply's subject: the "Re:" is gone and the words are stemmed.
    let mut indexer = gendisc_text::Indexer::new(TokenizerSettings::default());
    let subject_terms = |indexer: &mut gendisc_text::Indexer, text: &str| -> Vec<String> {
        let regions = split_posting(text);
        let ids = indexer.tokens(regions.subject);
        ids.iter()
            .map(|&i| indexer.lexicon()[i as usize].clone())
            .collect()
    };
    let g = news.group_index("rec.autos").unwrap();
    let reply = news
        .postings()
        .iter()
        .find(|p| p.group == g && p.text.contains("\nSubject: Re: "))
        .expect("rec.autos has replies");
    let line = reply
        .text
        .lines()
        .find(|l| l.starts_with("Subject:"))
        .unwrap();
    let words = subject_terms(&mut indexer, &reply.text);
    assert!(!words.is_empty(), "{line}");
    assert!(!words.iter().any(|w| w == "re"), "{line} → {words:?}");
    assert!(words
        .iter()
        .all(|w| w == "NUMBER" || w == "EMAILADDR" || *w == w.to_lowercase()));
    // Bodies quote addresses ("In article <…@…>", "writes:"): they become EMAILADDR.
    let body_with_address = news
        .postings()
        .iter()
        .map(|p| split_posting(&p.text).body)
        .find(|b| b.contains("@") && b.contains(".edu"))
        .expect("some body quotes an address");
    let ids = indexer.tokens(body_with_address);
    assert!(ids
        .iter()
        .any(|&i| indexer.lexicon()[i as usize] == "EMAILADDR"));
}

#[test]
fn no_test_word_leaks_into_the_vocabulary() {
    let Some(news) = news() else { return };
    // Two groups, first 300 postings each (for speed), half train and half test.
    let atheism = news.group_index("alt.atheism").unwrap();
    let religion = news.group_index("talk.religion.misc").unwrap();
    let picked: Vec<&gendisc_text::Posting> = news
        .postings()
        .iter()
        .filter(|p| p.group == atheism || p.group == religion)
        .take(600)
        .collect();
    let subset = Newsgroups::from_parts(
        news.groups().to_vec(),
        picked.iter().map(|&p| p.clone()).collect(),
    );
    let corpus = IndexedCorpus::newsgroups(&subset, TokenizerSettings::default());
    let n = corpus.documents().len();
    let training: Vec<usize> = (0..n).filter(|i| i % 2 == 0).collect();
    let test: Vec<usize> = (0..n).filter(|i| i % 2 == 1).collect();
    let vocabulary = Vocabulary::from_training(&corpus, &training).unwrap();

    // The vocabulary is exactly the set of training terms, recomputed from the strings.
    let training_terms: HashSet<&str> = training
        .iter()
        .flat_map(|&i| corpus.documents()[i].regions.iter().flatten())
        .map(|&(t, _)| corpus.lexicon()[t as usize].as_str())
        .collect();
    let vocabulary_terms: HashSet<&str> = vocabulary
        .terms()
        .iter()
        .map(|&t| corpus.lexicon()[t as usize].as_str())
        .collect();
    assert_eq!(vocabulary_terms, training_terms);

    // Test postings have words that no training posting has, and none of them has a column.
    let test_only: Vec<u32> = test
        .iter()
        .flat_map(|&i| corpus.documents()[i].regions.iter().flatten())
        .map(|&(t, _)| t)
        .filter(|&t| !training_terms.contains(corpus.lexicon()[t as usize].as_str()))
        .collect();
    assert!(!test_only.is_empty());
    assert!(test_only.iter().all(|&t| vocabulary.column(t).is_none()));

    // The test count matrices hold exactly the test tokens of training terms.
    for (r, selection) in [
        (SUBJECT, RegionSelection::Region(SUBJECT)),
        (BODY, RegionSelection::Region(BODY)),
    ] {
        let x = vocabulary.counts(&corpus, &test, selection).unwrap();
        let kept: f64 = x.data().iter().sum();
        let expected: u64 = test
            .iter()
            .flat_map(|&i| corpus.documents()[i].regions[r].iter())
            .filter(|&&(t, _)| vocabulary.column(t).is_some())
            .map(|&(_, c)| u64::from(c))
            .sum();
        assert_eq!(kept, expected as f64);
    }
    // Changing the test documents does not change the vocabulary.
    let mut altered = subset.postings().to_vec();
    for &i in &test {
        altered[i].text.push_str("\nzyzzyvaword qwertyuiopword\n");
    }
    let altered = IndexedCorpus::newsgroups(
        &Newsgroups::from_parts(news.groups().to_vec(), altered),
        TokenizerSettings::default(),
    );
    let altered_vocabulary = Vocabulary::from_training(&altered, &training).unwrap();
    let names = |c: &IndexedCorpus, v: &Vocabulary| -> Vec<String> {
        v.terms()
            .iter()
            .map(|&t| c.lexicon()[t as usize].clone())
            .collect()
    };
    assert_eq!(
        names(&altered, &altered_vocabulary),
        names(&corpus, &vocabulary)
    );
}
