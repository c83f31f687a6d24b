//! A Usenet posting's two regions (Raina, Shen, Ng & McCallum 2003, §2–§3): the subject line
//! and the message body. Every other header is skipped.

/// The subject and the body of a posting; see [`split_posting`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Regions<'a> {
    /// The `Subject:` header's value (continuation lines joined), with any leading `Re:`
    /// markers removed; empty when the posting has no subject.
    pub subject: &'a str,
    /// A continuation of the subject on further header lines, if any (empty otherwise).
    pub subject_continuation: &'a str,
    /// Everything after the first empty line.
    pub body: &'a str,
}

/// Splits a posting into its subject and body.
///
/// The header block runs up to the first empty line (a line of only `\r` counts as empty); a
/// posting without one is all headers and has an empty body. Header names are matched without
/// regard to case. The first `Subject:` header is used; a header line that starts with a space
/// or a tab continues the one before (RFC 1036), so a folded subject keeps its second line.
/// Leading reply markers — `Re:`, `RE:`, `re :`, repeated — are removed, so that a reply and
/// its original have the same subject words.
///
/// ```
/// use gendisc_text::regions::split_posting;
///
/// let r = split_posting("From: x@y.org\nSubject: Re: Re: Mac vs PC\nLines: 2\n\nHello.\n");
/// assert_eq!(r.subject, "Mac vs PC");
/// assert_eq!(r.body, "Hello.\n");
/// ```
pub fn split_posting(text: &str) -> Regions<'_> {
    let (headers, body) = split_headers(text);
    let mut subject = "";
    let mut continuation = "";
    let mut lines = headers.split('\n').peekable();
    while let Some(line) = lines.next() {
        if let Some(value) = header_value(line, "subject") {
            subject = strip_replies(value.trim());
            // The folded part, if any, is the run of following lines that start with blanks.
            let start = offset_in(headers, line) + line.len();
            let mut end = start;
            while let Some(next) = lines.peek() {
                if next.starts_with([' ', '\t']) {
                    end = offset_in(headers, next) + next.len();
                    lines.next();
                } else {
                    break;
                }
            }
            continuation = headers[start..end].trim();
            break;
        }
    }
    Regions {
        subject,
        subject_continuation: continuation,
        body,
    }
}

/// `(headers, body)`: split at the first empty line.
fn split_headers(text: &str) -> (&str, &str) {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if content.is_empty() {
            return (&text[..at], &text[at + line.len()..]);
        }
        at += line.len();
    }
    (text, "")
}

/// The value of a header line named `name` (lower case), if this line is that header.
fn header_value<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let (field, value) = line.split_once(':')?;
    field.trim().eq_ignore_ascii_case(name).then_some(value)
}

/// Removes leading `Re:` markers (any case, spaces allowed before the colon).
fn strip_replies(mut subject: &str) -> &str {
    loop {
        let bytes = subject.as_bytes();
        if bytes.len() >= 2 && bytes[..2].eq_ignore_ascii_case(b"re") {
            let rest = subject[2..].trim_start();
            if let Some(after) = rest.strip_prefix(':') {
                subject = after.trim_start();
                continue;
            }
        }
        return subject;
    }
}

/// Byte offset of `part` inside `whole` (a sub-slice of it).
fn offset_in(whole: &str, part: &str) -> usize {
    part.as_ptr() as usize - whole.as_ptr() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subject_and_body() {
        let r = split_posting(
            "From: a@b.org\r\nsubject: RE: re : Re:Clipper chip\r\nLines: 3\r\n\r\nBody here\r\n",
        );
        assert_eq!(r.subject, "Clipper chip");
        assert_eq!(r.subject_continuation, "");
        assert_eq!(r.body, "Body here\r\n");
    }

    #[test]
    fn a_folded_subject_keeps_its_second_line() {
        let r = split_posting("Subject: long\n  and folded\nFrom: x\n\nbody");
        assert_eq!(r.subject, "long");
        assert_eq!(r.subject_continuation, "and folded");
        assert_eq!(r.body, "body");
    }

    #[test]
    fn no_subject_no_body() {
        let r = split_posting("From: x\nOrganization: none\n\nText only.\n");
        assert_eq!(r.subject, "");
        assert_eq!(r.body, "Text only.\n");
        let r = split_posting("Subject: only headers\nFrom: x\n");
        assert_eq!(r.subject, "only headers");
        assert_eq!(r.body, "");
        let r = split_posting("");
        assert_eq!((r.subject, r.body), ("", ""));
        // "Re" that is a word, not a marker, stays.
        assert_eq!(split_posting("Subject: Remarks\n\n").subject, "Remarks");
        // A Subject: line in the body is not a header.
        assert_eq!(split_posting("From: x\n\nSubject: no\n").subject, "");
    }
}
