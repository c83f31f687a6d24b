//! Tests on small dictionaries written here in WordNet's format (`wndb(5WN)`), synset by
//! synset, so every expected value can be read off the definitions below.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use super::*;

/// A pointer of a test synset: its symbol and where it points.
#[derive(Clone, Copy)]
enum To {
    /// A noun synset, by its position in the list.
    Noun(usize),
    /// A synset of another part of speech, by offset.
    Other(char, u32),
    /// A noun offset given verbatim (possibly naming no synset).
    Offset(u32),
}

/// A test synset: its words and pointers.
type Spec<'a> = (&'a [&'a str], &'a [(&'a str, To)]);

/// A licence header in WordNet's style: two spaces and a line number.
const HEADER: &str = "  1 A test dictionary written for these tests.  \n  2   \n";

/// Lays out `data.noun` for `synsets`: each line's `synset_offset` is its byte offset.
fn data_noun(synsets: &[Spec<'_>]) -> (String, Vec<u32>) {
    let render = |offsets: &[u32]| {
        let mut text = String::from(HEADER);
        for (i, (words, pointers)) in synsets.iter().enumerate() {
            text += &format!("{:08} 05 n {:02x}", offsets[i], words.len());
            for w in *words {
                text += &format!(" {w} 0");
            }
            text += &format!(" {:03}", pointers.len());
            for (symbol, to) in *pointers {
                let (offset, pos) = match *to {
                    To::Noun(j) => (offsets[j], 'n'),
                    To::Other(pos, offset) => (offset, pos),
                    To::Offset(offset) => (offset, 'n'),
                };
                text += &format!(" {symbol} {offset:08} {pos} 0000");
            }
            text += &format!(" | gloss of synset {i}  \n");
        }
        text
    };
    // Offsets have a fixed width, so line lengths do not depend on them.
    let draft = render(&vec![0; synsets.len()]);
    let mut offsets = Vec::new();
    let mut at = HEADER.len();
    for line in draft[HEADER.len()..].split_inclusive('\n') {
        offsets.push(at as u32);
        at += line.len();
    }
    (render(&offsets), offsets)
}

/// `index.noun` for `lemmas`, each with the positions of its synsets.
fn index_noun(lemmas: &[(&str, &[usize])], offsets: &[u32]) -> String {
    let mut text = String::from(HEADER);
    for (lemma, senses) in lemmas {
        text += &format!("{lemma} n {} 1 @ {} 0", senses.len(), senses.len());
        for &s in *senses {
            text += &format!(" {:08}", offsets[s]);
        }
        text += "  \n";
    }
    text
}

const NOUN_EXC: &str = "geese goose\nmice mouse\nspectacle glasses\n";

/// Twelve synsets: `animal` with hyponyms `dog`, `cat`, `mouse`; `dog` has a second sense,
/// `frump`, whose hypernym `unpleasant_woman` is a hyponym of `woman`; the rest stand alone.
/// Some pointers exist in one direction only (`dog` @ `animal`, not `animal` ~ `dog`).
const SYNSETS: [Spec<'static>; 12] = [
    (
        &["animal", "beast"],
        &[("~", To::Noun(2)), ("~", To::Noun(3))],
    ),
    (
        &["dog", "domestic_dog", "Canis_familiaris"],
        &[("@", To::Noun(0)), ("+", To::Other('v', 1_234_567))],
    ),
    (&["cat"], &[("@", To::Noun(0))]),
    (&["mouse"], &[("@", To::Noun(0)), ("=", To::Other('a', 7))]),
    (&["box"], &[]),
    (&["church"], &[]),
    (&["city", "metropolis"], &[]),
    (&["woman"], &[("~", To::Noun(11))]),
    (&["glasses", "spectacles"], &[("@", To::Noun(8))]),
    (&["glass"], &[]),
    (&["frump", "dog"], &[("@", To::Noun(11))]),
    (
        &["unpleasant_woman"],
        &[("@", To::Noun(7)), ("~", To::Noun(10))],
    ),
];

const LEMMAS: [(&str, &[usize]); 17] = [
    ("animal", &[0]),
    ("beast", &[0]),
    ("box", &[4]),
    ("canis_familiaris", &[1]),
    ("cat", &[2]),
    ("church", &[5]),
    ("city", &[6]),
    ("dog", &[1, 10]),
    ("domestic_dog", &[1]),
    ("frump", &[10]),
    ("glass", &[9]),
    ("glasses", &[8]),
    ("metropolis", &[6]),
    ("mouse", &[3]),
    ("spectacles", &[8]),
    ("unpleasant_woman", &[11]),
    ("woman", &[7]),
];

/// The three files of the test dictionary.
fn files() -> (String, String, String) {
    let (data, offsets) = data_noun(&SYNSETS);
    (data, index_noun(&LEMMAS, &offsets), NOUN_EXC.to_string())
}

fn build(data: &str, index: &str, exc: &str) -> Result<WordNet> {
    WordNet::from_files(
        Path::new("dict"),
        (Path::new("dict/data.noun"), data.as_bytes()),
        (Path::new("dict/index.noun"), index.as_bytes()),
        (Path::new("dict/noun.exc"), exc.as_bytes()),
    )
}

fn sample() -> WordNet {
    let (data, index, exc) = files();
    build(&data, &index, &exc).expect("the test dictionary is well formed")
}

/// The `(path, line, field, message)` of a parse error.
fn parse_error(result: Result<WordNet>) -> (PathBuf, usize, usize, String) {
    match result {
        Err(Error::Parse {
            path,
            line,
            column,
            message,
        }) => (path, line, column, message),
        other => panic!("expected a parse error, got {other:?}"),
    }
}

/// A fresh, empty directory for a test.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gendisc-wordnet-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_dictionary(dir: &Path) {
    let (data, index, exc) = files();
    std::fs::write(dir.join("data.noun"), data).unwrap();
    std::fs::write(dir.join("index.noun"), index).unwrap();
    std::fs::write(dir.join("noun.exc"), exc).unwrap();
}

#[test]
fn the_reader_finds_every_synset_lemma_and_noun_link() {
    let wn = sample();
    assert_eq!(wn.n_synsets(), 12);
    assert_eq!(wn.n_lemmas(), 17);
    // animal–cat and animal–mouse are listed both ways, animal–dog once, the verb and
    // adjective pointers are dropped, the self-pointer of `glasses` too.
    assert_eq!(wn.n_links(), 5);
    let (_, offsets) = data_noun(&SYNSETS);
    assert_eq!(wn.synset_offsets("dog"), [offsets[1], offsets[10]]);
    assert_eq!(wn.synset_offsets("unknown"), Vec::<u32>::new());
    assert_eq!(
        format!("{wn:?}"),
        r#"WordNet { dict_dir: "dict", synsets: 12, links: 5, lemmas: 17, exceptions: 3 }"#
    );
}

#[test]
fn the_distance_counts_links_between_the_nearest_synsets() {
    let wn = sample();
    assert_eq!(wn.distance("dog", "domestic_dog"), Some(0));
    assert_eq!(wn.distance("dog", "frump"), Some(0), "a second sense");
    assert_eq!(wn.distance("dog", "animal"), Some(1));
    assert_eq!(wn.distance("animal", "dog"), Some(1), "made symmetric");
    assert_eq!(wn.distance("dog", "cat"), Some(2));
    assert_eq!(wn.distance("cat", "mouse"), Some(2));
    assert_eq!(
        wn.distance("dog", "woman"),
        Some(2),
        "through the sense `frump`"
    );
    assert_eq!(wn.distance("cat", "woman"), None, "another component");
    assert_eq!(wn.distance("box", "church"), None);
    assert_eq!(wn.distance("box", "quickly"), None);
    assert_eq!(wn.distance("City", "metropolis"), Some(0));
}

#[test]
fn the_cap_turns_far_pairs_into_none() {
    let wn = sample();
    assert_eq!(wn.distance_within("dog", "cat", 2), Some(2));
    assert_eq!(wn.distance_within("dog", "cat", 1), None);
    assert_eq!(wn.distance_within("dog", "animal", 0), None);
    assert_eq!(wn.distance_within("dog", "frump", 0), Some(0));
    let from = wn.distances_from("cat", 1).unwrap();
    assert_eq!(from.to("animal"), Some(1));
    assert_eq!(from.to("mouse"), None);
    assert_eq!(from.reached(), 2);
    assert_eq!(from.histogram(), [1, 1]);
}

#[test]
fn distances_from_takes_the_nearest_sense_of_both_words() {
    let wn = sample();
    let from = wn.distances_from("dogs", 10).unwrap();
    assert_eq!(from.lemma(), "dog");
    assert_eq!(from.cap(), 10);
    assert_eq!(from.to("domestic_dog"), Some(0));
    assert_eq!(from.to("frump"), Some(0));
    assert_eq!(from.to("unpleasant_woman"), Some(1));
    assert_eq!(from.to("cats"), Some(2));
    assert_eq!(from.to("woman"), Some(2));
    assert_eq!(from.to("box"), None);
    assert_eq!(from.to("nothing"), None);
    // dog and frump at 0; animal and unpleasant_woman at 1; cat, mouse, woman at 2.
    assert_eq!(from.histogram(), [2, 2, 3]);
    assert_eq!(
        format!("{from:?}"),
        "NounDistances { from: \"dog\", cap: 10, reached: 7 }"
    );
    let err = wn.distances_from("quickly", 3).unwrap_err();
    assert!(
        err.to_string().contains("`quickly` is not a WordNet noun"),
        "{err}"
    );
}

#[test]
fn morphy_tries_the_word_then_exceptions_then_detachment() {
    let wn = sample();
    assert_eq!(wn.noun_lemma("dog"), Some("dog"));
    assert_eq!(wn.noun_lemma("  Domestic Dog "), Some("domestic_dog"));
    assert_eq!(wn.noun_lemma("mice"), Some("mouse"), "noun.exc");
    assert_eq!(
        wn.noun_lemma("geese"),
        None,
        "the base form is not in the index"
    );
    assert_eq!(wn.noun_lemma("spectacle"), Some("glasses"), "noun.exc");
    assert_eq!(wn.noun_lemma("dogs"), Some("dog"), "-s");
    assert_eq!(wn.noun_lemma("boxes"), Some("box"), "-xes");
    assert_eq!(wn.noun_lemma("churches"), Some("church"), "-ches");
    assert_eq!(wn.noun_lemma("cities"), Some("city"), "-ies");
    assert_eq!(wn.noun_lemma("women"), Some("woman"), "-men");
    assert_eq!(
        wn.noun_lemma("glasses"),
        Some("glasses"),
        "a lemma of its own"
    );
    assert_eq!(
        wn.noun_lemma("glasseses"),
        Some("glasses"),
        "-ses after -s failed"
    );
    assert_eq!(wn.noun_lemma("s"), None);
    assert_eq!(wn.noun_lemma(""), None);
    assert_eq!(wn.noun_lemma("   "), None);
    assert!(wn.is_noun("Cats"));
    assert!(!wn.is_noun("ran"));
    assert_eq!(
        wn.noun_filter(["dogs", "ran", "MICE", "metropolis"]),
        [Some("dog"), None, Some("mouse"), Some("metropolis")]
    );
}

#[test]
fn an_unsorted_index_is_sorted_and_a_repeated_lemma_rejected() {
    let (data, offsets) = data_noun(&SYNSETS);
    let mut reversed = LEMMAS;
    reversed.reverse();
    let wn = build(&data, &index_noun(&reversed, &offsets), NOUN_EXC).unwrap();
    assert_eq!(wn.distance("dog", "cat"), Some(2));
    assert_eq!(wn.noun_lemma("boxes"), Some("box"));

    let repeated = [("dog", &[1usize][..]), ("cat", &[2]), ("dog", &[10])];
    let (path, line, _, message) =
        parse_error(build(&data, &index_noun(&repeated, &offsets), NOUN_EXC));
    assert_eq!(path, Path::new("dict/index.noun"));
    assert_eq!(line, 5);
    assert!(
        message.contains("`dog` already listed on line 3"),
        "{message}"
    );
}

/// Replaces the first occurrence of `from` in `text`, which must be there.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "`{from}` not in the test file");
    text.replacen(from, to, 1)
}

#[test]
fn a_synset_offset_that_is_not_its_byte_offset_is_rejected() {
    let (data, index, exc) = files();
    let (_, offsets) = data_noun(&SYNSETS);
    let first = format!("{:08} 05 n", offsets[0]);
    let bad = edit(&data, &first, &format!("{:08} 05 n", offsets[0] + 1));
    let (path, line, field, message) = parse_error(build(&bad, &index, &exc));
    assert_eq!(path, Path::new("dict/data.noun"));
    assert_eq!((line, field), (3, 1));
    assert!(message.contains("does not match"), "{message}");
}

#[test]
fn truncated_and_malformed_data_lines_are_rejected() {
    let (data, index, exc) = files();
    let lines: Vec<&str> = data.lines().collect();
    // The last line (14) is `unpleasant_woman`'s synset, so cutting it moves no other synset:
    // cut it inside its second pointer.
    let last = lines[13];
    assert!(last.contains(" unpleasant_woman "));
    let cut = last.find(" ~ ").unwrap() + 3;
    let truncated = data.replace(last, &last[..cut]);
    let (_, line, field, message) = parse_error(build(&truncated, &index, &exc));
    assert_eq!(line, 14);
    assert!(message.contains("truncated line"), "{message}");
    assert_eq!(
        field, 13,
        "the second pointer's synset_offset: 4 + 2 + 1 + 4 + 2"
    );

    // Without the gloss.
    let no_gloss = data.replace(last, last.split(" | ").next().unwrap());
    let (_, line, _, message) = parse_error(build(&no_gloss, &index, &exc));
    assert_eq!(line, 14);
    assert!(message.contains("expected `|` and the gloss"), "{message}");

    let cases = [
        (" 05 n 02 animal", " 05 v 02 animal", "ss_type `v`"),
        (" 05 n 02 animal", " 05 n 0g animal", "w_cnt `0g`"),
        (" 05 n 02 animal", " 05 n 00 animal", "w_cnt is 0"),
        (" 05 n 02 animal", " x5 n 02 animal", "lex_filenum"),
        ("beast 0 002", "beast 0 0x2", "p_cnt"),
        ("beast 0 002", "beast 0 003", "synset_offset `gloss`"),
        (
            "beast 0 002",
            "beast 0 001",
            "expected `|` and the gloss after 1 pointers",
        ),
        (" n 0000 ", " q 0000 ", "pointer pos `q`"),
        (" n 0000 ", " n 00z0 ", "source/target `00z0`"),
    ];
    for (from, to, expected) in cases {
        let (_, line, _, message) = parse_error(build(&edit(&data, from, to), &index, &exc));
        assert_eq!(line, 3, "{to}");
        assert!(message.contains(expected), "{to}: {message}");
    }
}

#[test]
fn a_pointer_to_a_missing_synset_is_rejected() {
    let mut synsets = SYNSETS;
    synsets[2] = (
        &["cat"],
        &[("@", To::Noun(0)), ("@", To::Offset(99_999_999))],
    );
    let (data, offsets) = data_noun(&synsets);
    let index = index_noun(&LEMMAS, &offsets);
    let (path, line, field, message) = parse_error(build(&data, &index, NOUN_EXC));
    assert_eq!(path, Path::new("dict/data.noun"));
    assert_eq!((line, field), (5, 13));
    assert!(message.contains("pointer to 99999999"), "{message}");
}

#[test]
fn bad_index_lines_are_rejected() {
    let (data, offsets) = data_noun(&SYNSETS);
    let index = index_noun(&LEMMAS, &offsets);
    let cat = format!("cat n 1 1 @ 1 0 {:08}", offsets[2]);
    let cases = [
        (
            format!("cat n 1 1 @ 1 0 {:08}", offsets[2] + 1),
            "is not the offset of a synset",
        ),
        (
            "cat n 1 1 @ 1 0".to_string(),
            "truncated line: expected a synset_offset",
        ),
        ("cat n 2 1 @ 2 0 00000000".to_string(), "is not the offset"),
        (
            format!("cat n 1 1 @ 2 0 {:08}", offsets[2]),
            "sense_cnt 2 differs",
        ),
        (format!("cat v 1 1 @ 1 0 {:08}", offsets[2]), "pos `v`"),
        (
            format!("cat n 1 1 @ 1 0 {:08} 1", offsets[2]),
            "more fields",
        ),
        (
            format!("cat n x 1 @ 1 0 {:08}", offsets[2]),
            "synset_cnt `x`",
        ),
        (
            "cat n 1 1".to_string(),
            "truncated line: expected a ptr_symbol",
        ),
    ];
    for (to, expected) in cases {
        let (path, line, _, message) =
            parse_error(build(&data, &edit(&index, &cat, &to), NOUN_EXC));
        assert_eq!(path, Path::new("dict/index.noun"));
        assert_eq!(line, 7, "{to}");
        assert!(message.contains(expected), "{to}: {message}");
    }
}

#[test]
fn files_without_entries_are_rejected() {
    let (data, index, exc) = files();
    let (path, line, _, message) = parse_error(build(HEADER, &index, &exc));
    assert_eq!((path.as_path(), line), (Path::new("dict/data.noun"), 3));
    assert!(message.contains("no synset lines"), "{message}");
    let (path, line, _, message) = parse_error(build(&data, "", &exc));
    assert_eq!((path.as_path(), line), (Path::new("dict/index.noun"), 1));
    assert!(message.contains("no lemma lines"), "{message}");
    // An empty exception list is allowed: nothing is irregular.
    assert!(build(&data, &index, "").is_ok());
}

#[test]
fn an_exception_without_a_base_form_is_rejected() {
    let (data, index, _) = files();
    let (path, line, field, message) = parse_error(build(&data, &index, "mice mouse\ngeese\n"));
    assert_eq!(path, Path::new("dict/noun.exc"));
    assert_eq!((line, field), (2, 2));
    assert!(message.contains("`geese` has no base form"), "{message}");
}

#[test]
fn open_reads_a_directory_and_names_a_missing_file() {
    let dir = scratch_dir("open");
    write_dictionary(&dir);
    let wn = WordNet::open(&dir).unwrap();
    assert_eq!(wn.dict_dir(), dir);
    assert_eq!(wn.distance("dogs", "cats"), Some(2));

    std::fs::remove_file(dir.join("index.noun")).unwrap();
    match WordNet::open(&dir) {
        Err(Error::Io { path, .. }) => assert_eq!(path, dir.join("index.noun")),
        other => panic!("expected an I/O error, got {other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_dictionary_is_looked_for_in_wnhome_then_the_data_directory_then_the_system() {
    let home = scratch_dir("locate-home");
    let data = scratch_dir("locate-data");
    let system = scratch_dir("locate-system");
    let nowhere = home.join("missing");
    let no_data = data.join("missing");

    // Nothing anywhere: the error names every place and how to get the dictionary.
    let err = find_dict_dir_in(Some(home.clone().into()), &no_data, &nowhere).unwrap_err();
    let text = err.to_string();
    for place in [
        home.join("dict"),
        home.clone(),
        no_data.clone(),
        nowhere.clone(),
    ] {
        assert!(text.contains(&place.display().to_string()), "{text}");
    }
    assert!(
        text.contains("cargo xtask fetch-data wordnet")
            && text.contains("apt-get install wordnet-base")
            && text.contains("WNHOME"),
        "{text}"
    );
    assert!(find_dict_dir_in(None, &no_data, &nowhere).is_err());

    write_dictionary(&system);
    assert_eq!(find_dict_dir_in(None, &no_data, &system).unwrap(), system);
    assert_eq!(
        find_dict_dir_in(Some("".into()), &no_data, &system).unwrap(),
        system
    );
    assert_eq!(
        find_dict_dir_in(Some(home.clone().into()), &no_data, &system).unwrap(),
        system
    );
    // The data directory's copy comes before the system's.
    write_dictionary(&data);
    assert_eq!(find_dict_dir_in(None, &data, &system).unwrap(), data);
    assert_eq!(find_dict_dir_in(None, &data, &nowhere).unwrap(), data);
    // `$WNHOME` holding the files comes before both, and `$WNHOME/dict` before that.
    write_dictionary(&home);
    assert_eq!(
        find_dict_dir_in(Some(home.clone().into()), &data, &system).unwrap(),
        home
    );
    std::fs::create_dir(home.join("dict")).unwrap();
    write_dictionary(&home.join("dict"));
    assert_eq!(
        find_dict_dir_in(Some(home.clone().into()), &data, &system).unwrap(),
        home.join("dict")
    );
    for dir in [home, data, system] {
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn wordnet_is_shared_between_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<WordNet>();
    let wn = sample();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..3)
            .map(|_| s.spawn(|| wn.distance("dog", "cat")))
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), Some(2));
        }
    });
}

/// Pointer lists for up to ten synsets: `(source, target, is_noun)`; other parts of speech get
/// a made-up offset.
fn random_pointers() -> impl Strategy<Value = (usize, Vec<(usize, usize, bool)>)> {
    (1usize..10).prop_flat_map(|n| {
        let pointer = (0..n, 0..n, proptest::bool::weighted(0.8));
        (Just(n), proptest::collection::vec(pointer, 0..25))
    })
}

proptest! {
    /// A dictionary written from random pointers reads back as the graph they describe: the
    /// distance between two synsets' words is the shortest path through the noun pointers,
    /// taken in either direction (Floyd–Warshall on the pointer list), and the number of links
    /// is the number of distinct pairs they join.
    #[test]
    fn random_dictionaries_read_back_as_their_graph((n, pointers) in random_pointers()) {
        let names: Vec<String> = (0..n).map(|i| format!("word{i}")).collect();
        let words: Vec<[&str; 1]> = names.iter().map(|w| [w.as_str()]).collect();
        let lists: Vec<Vec<(&str, To)>> = (0..n)
            .map(|i| {
                pointers
                    .iter()
                    .filter(|p| p.0 == i)
                    .map(|&(_, j, noun)| ("@", if noun { To::Noun(j) } else { To::Other('v', 42) }))
                    .collect()
            })
            .collect();
        let specs: Vec<Spec<'_>> = (0..n).map(|i| (&words[i][..], &lists[i][..])).collect();
        let (data, offsets) = data_noun(&specs);
        let lemmas: Vec<(&str, Vec<usize>)> =
            names.iter().enumerate().map(|(i, w)| (w.as_str(), vec![i])).collect();
        let lemma_refs: Vec<(&str, &[usize])> =
            lemmas.iter().map(|(w, s)| (*w, &s[..])).collect();
        let wn = build(&data, &index_noun(&lemma_refs, &offsets), "").unwrap();

        const FAR: u32 = u32::MAX / 4;
        let mut d = vec![vec![FAR; n]; n];
        let mut pairs = std::collections::BTreeSet::new();
        for i in 0..n {
            d[i][i] = 0;
        }
        for &(i, j, noun) in &pointers {
            if noun && i != j {
                d[i][j] = 1;
                d[j][i] = 1;
                pairs.insert((i.min(j), i.max(j)));
            }
        }
        for k in 0..n {
            for i in 0..n {
                for j in 0..n {
                    d[i][j] = d[i][j].min(d[i][k] + d[k][j]);
                }
            }
        }
        prop_assert_eq!(wn.n_synsets(), n);
        prop_assert_eq!(wn.n_links(), pairs.len());
        for i in 0..n {
            let from = wn.distances_from(&names[i], 3).unwrap();
            for j in 0..n {
                let expected = Some(d[i][j]).filter(|&x| x < FAR);
                prop_assert_eq!(wn.distance_within(&names[i], &names[j], 100), expected);
                prop_assert_eq!(from.to(&names[j]), expected.filter(|&x| x <= 3));
            }
        }
    }
}
