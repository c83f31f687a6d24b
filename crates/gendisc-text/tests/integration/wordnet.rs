//! Tests on the real WordNet 3.0 nouns. They skip, with a note, when no dictionary is found
//! (`$WNHOME/dict`, `$WNHOME`, the data directory's `wordnet/dict`, `/usr/share/wordnet`;
//! `cargo xtask fetch-data` puts it in the data directory).
//!
//! The expected values were read by hand from `index.noun`, `data.noun` and `noun.exc`: e.g.
//! `dog`'s first synset `02084071` lists `dog domestic_dog Canis_familiaris` and the hypernym
//! pointer `@ 02083346`, the synset `canine canid`.

use std::sync::OnceLock;

use gendisc_text::{WordNet, DEFAULT_MAX_DISTANCE};

/// The dictionary, read once for all tests; `None` (with a note) when absent.
fn wordnet() -> Option<&'static WordNet> {
    static WORDNET: OnceLock<Option<WordNet>> = OnceLock::new();
    WORDNET
        .get_or_init(|| match gendisc_text::wordnet::find_dict_dir() {
            Ok(dir) => Some(WordNet::open(dir).expect("the installed dictionary reads")),
            Err(e) => {
                eprintln!("note: skipping the WordNet tests: {e}");
                None
            }
        })
        .as_ref()
}

#[test]
fn the_dictionary_has_wordnet_3_0s_noun_counts() {
    let Some(wn) = wordnet() else { return };
    // wnstats(7WN) for WordNet 3.0: 117,798 noun strings in 82,115 synsets.
    assert_eq!(wn.n_synsets(), 82_115);
    assert_eq!(wn.n_lemmas(), 117_798);
    assert!(wn.n_links() > wn.n_synsets(), "{wn:?}");
}

#[test]
fn synonyms_are_at_distance_zero() {
    let Some(wn) = wordnet() else { return };
    assert_eq!(wn.distance("dog", "domestic_dog"), Some(0));
    assert_eq!(wn.distance("Domestic dog", "dog"), Some(0));
    assert_eq!(wn.distance("car", "automobile"), Some(0));
    // 02746365 `artillery heavy_weapon gun ordnance`.
    assert_eq!(wn.distance("gun", "artillery"), Some(0));
    assert_eq!(wn.distance("gun", "ordnance"), Some(0));
    // 10152083 `gunman gunslinger hired_gun gun … shooter`.
    assert_eq!(wn.distance("gun", "shooter"), Some(0));
    assert_eq!(wn.distance("dog", "dog"), Some(0));
}

#[test]
fn a_word_and_its_hypernym_are_one_link_apart() {
    let Some(wn) = wordnet() else { return };
    assert_eq!(wn.synset_offsets("dog")[0], 2_084_071);
    assert_eq!(wn.synset_offsets("canine"), [5_307_091, 2_083_346]);
    assert_eq!(wn.distance("dog", "canine"), Some(1));
    // 03467984 `gun`, @ 04565375 `weapon arm weapon_system`.
    assert_eq!(wn.synset_offsets("gun")[0], 3_467_984);
    assert_eq!(wn.distance("gun", "weapon"), Some(1));
    // 02083346 `canine canid` @ 02075296 `carnivore`: two links from dog.
    assert_eq!(wn.distance("dog", "carnivore"), Some(2));
}

#[test]
fn morphy_finds_regular_and_irregular_plurals() {
    let Some(wn) = wordnet() else { return };
    assert_eq!(wn.noun_lemma("guns"), Some("gun"));
    assert_eq!(wn.noun_lemma("mice"), Some("mouse"), "noun.exc");
    assert_eq!(wn.noun_lemma("Geese"), Some("goose"), "noun.exc");
    assert_eq!(wn.noun_lemma("boxes"), Some("box"), "-xes");
    assert_eq!(wn.noun_lemma("churches"), Some("church"), "-ches");
    assert_eq!(wn.noun_lemma("dishes"), Some("dish"), "-shes");
    assert_eq!(wn.noun_lemma("cities"), Some("city"), "-ies");
    assert_eq!(wn.noun_lemma("chimneys"), Some("chimney"), "-s");
    // A lemma of its own comes first: `glasses` are spectacles.
    assert_eq!(wn.noun_lemma("glasses"), Some("glasses"));
    assert_eq!(wn.noun_lemma("middle east"), Some("middle_east"));
    assert_eq!(wn.noun_lemma("quickly"), None);
    assert_eq!(wn.noun_lemma(""), None);
    assert!(wn.is_noun("atheism") && wn.is_noun("mideast") && wn.is_noun("auto"));
    assert!(!wn.is_noun("the"));
    assert_eq!(
        wn.noun_filter(["guns", "quickly", "Mice", "atheists"]),
        [Some("gun"), None, Some("mouse"), Some("atheist")]
    );
    assert_eq!(wn.distance("guns", "weapons"), Some(1));
}

#[test]
fn distances_from_agrees_with_distance_and_is_symmetric() {
    let Some(wn) = wordnet() else { return };
    let words = [
        "gun", "atheism", "mideast", "auto", "car", "dog", "god", "religion", "israel", "weapon",
        "engine", "bible", "rifle", "peace", "war", "church", "truck", "mouse", "law", "oil",
    ];
    for cap in [3, DEFAULT_MAX_DISTANCE] {
        for from in ["gun", "atheism", "mideast", "auto"] {
            let d = wn.distances_from(from, cap).unwrap();
            assert_eq!(d.cap(), cap);
            for to in words {
                let expected = wn.distance_within(from, to, cap);
                assert_eq!(d.to(to), expected, "{from} → {to}, cap {cap}");
                assert_eq!(wn.distance_within(to, from, cap), expected, "{to} → {from}");
                assert!(expected.is_none_or(|e| e <= cap));
            }
        }
    }
    assert_eq!(wn.distances_from("gun", 5).unwrap().to("weapon"), Some(1));
    assert_eq!(wn.distances_from("gun", 5).unwrap().lemma(), "gun");
    assert!(wn.distances_from("quickly", 5).is_err());
}

#[test]
fn unknown_words_and_the_cap_give_none() {
    let Some(wn) = wordnet() else { return };
    assert_eq!(wn.distance("dog", "quickly"), None);
    assert_eq!(wn.distance("xyzzyq", "dog"), None);
    assert_eq!(wn.distance_within("dog", "carnivore", 1), None);
    assert_eq!(wn.distance_within("dog", "carnivore", 2), Some(2));
    let from_dog = wn.distances_from("dog", 1).unwrap();
    assert_eq!(from_dog.to("carnivore"), None);
    assert_eq!(from_dog.to("canine"), Some(1));
    assert_eq!(from_dog.to("quickly"), None);
}

/// What `DEFAULT_MAX_DISTANCE`'s documentation says of the paper's four label words.
#[test]
fn the_noun_graph_is_connected_and_the_default_cap_reaches_almost_all_of_it() {
    let Some(wn) = wordnet() else { return };
    for (label, farthest) in [
        ("atheism", 14),
        ("gun", 12),
        ("middle_east", 13),
        ("auto", 13),
    ] {
        let all = wn.distances_from(label, u32::MAX).unwrap();
        assert_eq!(all.reached(), wn.n_synsets(), "{label}");
        assert_eq!(all.histogram().len() - 1, farthest, "{label}");
        let capped = wn.distances_from(label, DEFAULT_MAX_DISTANCE).unwrap();
        assert!(capped.reached() * 1000 >= wn.n_synsets() * 999, "{label}");
        assert_eq!(
            capped.histogram(),
            all.histogram()[..=DEFAULT_MAX_DISTANCE as usize],
            "{label}"
        );
    }
}
