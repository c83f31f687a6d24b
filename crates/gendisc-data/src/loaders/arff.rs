//! Weka ARFF files: the header's `@attribute` declarations give names and types, and the `@data`
//! rows are read as comma-separated values in the declared order.
//!
//! Supported: `@relation`, `@attribute` with `numeric`/`real`/`integer`/`string`/nominal
//! `{…}` types, quoted names and values (`'…'` or `"…"`, backslash escapes), `%` comment lines,
//! blank lines, keywords in any case. A nominal set made of a single type keyword (`{integer}`,
//! `{real}`, `{numeric}`) is read as numeric: that is how the Weka conversion of the thyroid
//! `sick` data declares its numeric attributes, and a one-valued "nominal" attribute called
//! `integer` would carry no information anyway.

use gendisc_core::Result;

use super::cells::{Declared, RawCells};
use super::source::{last_line_number, numbered_lines, parse_error};

/// Appends the rows of `text` (file number `source` of `cells`) to `cells`, with names and
/// declared types; a later file must declare the same attributes as the first.
pub(crate) fn parse_into(text: &str, source: usize, cells: &mut RawCells) -> Result<()> {
    let path = cells.sources[source].clone();
    let mut names = Vec::new();
    let mut declared = Vec::new();
    let mut data_line = None;
    let mut scratch = String::new();
    let mut lines = numbered_lines(text);
    for (line_number, line) in lines.by_ref() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        let (keyword, rest) = line
            .split_once(|c: char| c.is_ascii_whitespace())
            .unwrap_or((line, ""));
        let error = |message: String| parse_error(&path, line_number, 1, message);
        match keyword.to_ascii_lowercase().as_str() {
            "@relation" => {}
            "@attribute" => {
                let (name, kind) = parse_attribute(rest.trim(), &mut scratch).map_err(error)?;
                names.push(name);
                declared.push(kind);
            }
            "@data" => {
                data_line = Some(line_number);
                break;
            }
            _ => {
                return Err(error(format!(
                    "expected @relation, @attribute or @data, found '{keyword}'"
                )))
            }
        }
    }
    let Some(data_line) = data_line else {
        return Err(parse_error(
            &path,
            last_line_number(text),
            1,
            "no @data section",
        ));
    };
    if names.is_empty() {
        return Err(parse_error(
            &path,
            data_line,
            1,
            "no @attribute declarations before @data",
        ));
    }
    match (&cells.names, &cells.declared) {
        (Some(first_names), Some(first_declared)) => {
            if *first_names != names || *first_declared != declared {
                return Err(parse_error(
                    &path,
                    data_line,
                    1,
                    "the attributes declared in this file differ from the first file's",
                ));
            }
        }
        _ => {
            cells.set_layout(names.len(), source, data_line);
            cells.names = Some(names);
            cells.declared = Some(declared);
        }
    }

    let rows_before = cells.n_rows();
    for (line_number, line) in lines {
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        if line.starts_with('{') {
            return Err(parse_error(
                &path,
                line_number,
                1,
                "sparse ARFF rows ({index value, …}) are not supported",
            ));
        }
        split_fields(line, &mut scratch, |field| cells.push_field(field))
            .map_err(|(field, message)| parse_error(&path, line_number, field, message))?;
        cells.finish_row(source, line_number)?;
    }
    cells.check_file_had_rows(rows_before, source, last_line_number(text))
}

/// The name and type of `@attribute <name> <type>` (`text` is what follows the keyword).
fn parse_attribute(text: &str, scratch: &mut String) -> Result<(String, Declared), String> {
    let (name, kind) = match text.chars().next() {
        Some(quote @ ('\'' | '"')) => {
            let mut name = String::new();
            let consumed = unquote(&text[1..], quote, &mut name)
                .ok_or_else(|| "unterminated quoted attribute name".to_string())?;
            (name, text[1 + consumed..].trim())
        }
        Some(_) => {
            let (name, kind) = text
                .split_once(|c: char| c.is_ascii_whitespace())
                .unwrap_or((text, ""));
            (name.to_string(), kind.trim())
        }
        None => return Err("@attribute without a name".to_string()),
    };
    if kind.is_empty() {
        return Err(format!("attribute '{name}' has no type"));
    }
    if let Some(inner) = kind.strip_prefix('{') {
        let inner = inner
            .strip_suffix('}')
            .ok_or_else(|| format!("the value set of attribute '{name}' has no closing brace"))?;
        let mut values = Vec::new();
        split_fields(inner, scratch, |value| values.push(value.to_string()))
            .map_err(|(_, message)| format!("in the value set of attribute '{name}': {message}"))?;
        let is_type_keyword = |v: &str| {
            ["integer", "real", "numeric"]
                .iter()
                .any(|k| v.eq_ignore_ascii_case(k))
        };
        return match values.as_slice() {
            [only] if is_type_keyword(only) => Ok((name, Declared::Numeric)),
            [only] if only.is_empty() => Err(format!("attribute '{name}' declares no values")),
            _ => Ok((name, Declared::Nominal(values))),
        };
    }
    let keyword = kind.to_ascii_lowercase();
    match keyword.as_str() {
        "numeric" | "real" | "integer" => Ok((name, Declared::Numeric)),
        "string" => Ok((name, Declared::Text)),
        _ if keyword.starts_with("date") || keyword.starts_with("relational") => Err(format!(
            "attribute '{name}' has type '{kind}', which is not supported"
        )),
        _ => Err(format!("attribute '{name}' has an unknown type '{kind}'")),
    }
}

/// Appends to `value` the text up to the closing `quote` (a backslash escapes the next
/// character) and returns how many bytes of `text` that used, closing quote included; `None` if
/// the quote is not closed.
fn unquote(text: &str, quote: char, value: &mut String) -> Option<usize> {
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?.1),
            c if c == quote => return Some(i + c.len_utf8()),
            c => value.push(c),
        }
    }
    None
}

/// Splits `line` at the commas outside quotes and calls `push` with each field, trimmed and
/// unquoted. Errors carry the 1-based field number.
fn split_fields(
    line: &str,
    scratch: &mut String,
    mut push: impl FnMut(&str),
) -> Result<(), (usize, String)> {
    let mut rest = line;
    let mut field = 1;
    loop {
        rest = rest.trim_start_matches([' ', '\t']);
        let after = match rest.chars().next() {
            Some(quote @ ('\'' | '"')) => {
                scratch.clear();
                let consumed = unquote(&rest[1..], quote, scratch)
                    .ok_or_else(|| (field, "unterminated quoted value".to_string()))?;
                push(scratch);
                let after = rest[1 + consumed..].trim_start_matches([' ', '\t']);
                if !(after.is_empty() || after.starts_with(',')) {
                    return Err((field, "unexpected text after a quoted value".to_string()));
                }
                after
            }
            _ => {
                let end = rest.find(',').unwrap_or(rest.len());
                push(rest[..end].trim_end_matches([' ', '\t']));
                &rest[end..]
            }
        };
        match after.strip_prefix(',') {
            Some(next) => {
                rest = next;
                field += 1;
            }
            None => return Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gendisc_core::Error;

    fn fields(line: &str) -> Result<Vec<String>, (usize, String)> {
        let mut out = Vec::new();
        split_fields(line, &mut String::new(), |f| out.push(f.to_string()))?;
        Ok(out)
    }

    #[test]
    fn fields_split_outside_quotes() {
        assert_eq!(
            fields("1, 'a, b' ,\"c\\\"d\",?").unwrap(),
            ["1", "a, b", "c\"d", "?"]
        );
        assert_eq!(fields("x,,y").unwrap(), ["x", "", "y"]);
        assert_eq!(fields("'a").unwrap_err().0, 1);
        assert_eq!(fields("1,'a' b").unwrap_err().0, 2);
    }

    #[test]
    fn attribute_declarations() {
        let mut s = String::new();
        assert_eq!(
            parse_attribute("'on thyroxine' { f, t}", &mut s).unwrap(),
            (
                "on thyroxine".into(),
                Declared::Nominal(vec!["f".into(), "t".into()])
            )
        );
        assert_eq!(
            parse_attribute("'age' {integer}", &mut s).unwrap(),
            ("age".into(), Declared::Numeric)
        );
        assert_eq!(
            parse_attribute("TSH {Real}", &mut s).unwrap().1,
            Declared::Numeric
        );
        assert_eq!(
            parse_attribute("x REAL", &mut s).unwrap().1,
            Declared::Numeric
        );
        assert_eq!(
            parse_attribute("x string", &mut s).unwrap().1,
            Declared::Text
        );
        for bad in [
            "",
            "x",
            "x {a, b",
            "x date 'yyyy'",
            "x blob",
            "'x numeric",
            "x {}",
        ] {
            assert!(parse_attribute(bad, &mut s).is_err(), "{bad}");
        }
    }

    fn parse(text: &str) -> Result<RawCells> {
        let mut cells = RawCells::for_file("t.arff");
        parse_into(text, 0, &mut cells)?;
        Ok(cells)
    }

    #[test]
    fn a_small_file() {
        let cells = parse(
            "% comment\n@RELATION t\n\n@attribute a numeric\n@attribute 'the class' {x, y}\n\
             @data\n% rows\n1,x\n?, 'y'\n",
        )
        .unwrap();
        assert_eq!(cells.names.as_ref().unwrap(), &["a", "the class"]);
        assert_eq!(cells.n_rows(), 2);
        assert_eq!(cells.cell(1, 1), "y");
        assert_eq!(cells.origins[1].line, 9);
    }

    #[test]
    fn malformed_files() {
        let cases = [
            ("@attribute a numeric\n% end\n", 2, "no @data"),
            ("@data\n1\n", 1, "no @attribute"),
            (
                "@attribute a numeric\n@bogus\n@data\n",
                2,
                "expected @relation",
            ),
            ("@attribute a numeric\n@data\n{0 1}\n", 3, "sparse"),
            ("@attribute a numeric\n@data\n\n", 3, "no data rows"),
            (
                "@attribute a numeric\n@attribute b numeric\n@data\n1,2\n1\n",
                5,
                "expected 2 fields",
            ),
        ];
        for (text, expected_line, expected_message) in cases {
            match parse(text) {
                Err(Error::Parse { line, message, .. }) => {
                    assert_eq!(line, expected_line, "{text}: {message}");
                    assert!(message.contains(expected_message), "{text}: {message}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}
