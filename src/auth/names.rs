//! Login names: what one may be, and the one a person's name as people write it ("Frau Weiß", "Anne-Marie
//! Łukasik") gives: lower case, umlauts and ß written out, accents dropped, words joined by dots; a name
//! taken already gets a number (`frau.weiss.2`).

use crate::error::{ApiError, Result};
use crate::store::Store;

/// The longest login name, in characters.
pub const MAX: usize = 64;
/// Reserved names no person is given (the anonymous development user's and the administrator's).
const RESERVED: [&str; 2] = [crate::store::users::ANONYMOUS_ID, "admin"];

/// A login name as given: 1 to 64 letters, digits and `.-_@`, not a reserved one.
pub fn checked(raw: &str) -> Result<String> {
    let name = raw.trim();
    let valid = !name.is_empty()
        && name.chars().count() <= MAX
        && name.chars().all(|c| c.is_alphanumeric() || "._-@".contains(c));
    if !valid || name == crate::store::users::ANONYMOUS_ID {
        return Err(ApiError::invalid(
            "name",
            "expected 1 to 64 letters, digits or . _ - @ (not \"anonymous\")",
        ));
    }
    Ok(name.to_string())
}

/// The login name `shown` (a name as people write it) gives, before it is made unique; "person" when it
/// holds no letter or digit.
pub fn derived(shown: &str) -> String {
    let mut name = String::new();
    for c in shown.trim().to_lowercase().chars() {
        match c {
            c if c.is_whitespace() || c == '.' || c == '_' => name.push('.'),
            '-' => name.push('-'),
            c => name.push_str(&plain(c)),
        }
    }
    // One separator between words, none at the ends.
    let mut joined = String::new();
    for c in name.chars() {
        let separator = matches!(c, '.' | '-');
        match joined.chars().last() {
            Some('.' | '-') if separator => {}
            None if separator => {}
            _ => joined.push(c),
        }
    }
    let joined: String = joined.trim_end_matches(['.', '-']).chars().take(MAX - 4).collect();
    let joined = joined.trim_end_matches(['.', '-']);
    if joined.is_empty() {
        "person".into()
    } else {
        joined.into()
    }
}

/// A letter as a login name writes it: umlauts and ß written out, accents dropped, other letters and digits
/// kept; anything else dropped.
fn plain(c: char) -> String {
    let written = match c {
        'ä' | 'æ' => "ae",
        'ö' | 'ø' | 'œ' => "oe",
        'ü' => "ue",
        'ß' => "ss",
        'þ' => "th",
        'à' | 'á' | 'â' | 'ã' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'ç' | 'ć' | 'č' => "c",
        'ď' | 'đ' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
        'ğ' => "g",
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' | 'ı' => "i",
        'ł' | 'ľ' | 'ĺ' => "l",
        'ñ' | 'ń' | 'ň' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ō' | 'ő' => "o",
        'ř' => "r",
        'ś' | 'š' | 'ş' => "s",
        'ť' | 'ţ' => "t",
        'ù' | 'ú' | 'û' | 'ū' | 'ů' | 'ű' | 'ų' => "u",
        'ý' | 'ÿ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        c if c.is_alphanumeric() => return c.to_string(),
        _ => "",
    };
    written.into()
}

/// The first free login name `shown` gives: `frau.weiss`, else `frau.weiss.2`, `.3`, … (reserved names count
/// as taken).
pub async fn free(store: &Store, shown: &str) -> Result<String> {
    let base = derived(shown);
    for n in 1..=999 {
        let name = if n == 1 { base.clone() } else { format!("{base}.{n}") };
        if !RESERVED.contains(&name.as_str()) && store.user_by_name(&name).await?.is_none() {
            return Ok(name);
        }
    }
    Err(ApiError::Conflict(format!("every login name for {shown:?} is taken")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_people_write_them_give_login_names_a_newcomer_can_type() {
        for (shown, name) in [
            ("Frau Weiß", "frau.weiss"),
            ("  Dr. Hans-Jürgen Müller ", "dr.hans-juergen.mueller"),
            ("Anne-Marie Łukasik", "anne-marie.lukasik"),
            ("José O'Brien", "jose.obrien"),
            ("Ærøskøbing Søren", "aeroeskoebing.soeren"),
            ("Ζωή Παπαδοπούλου", "ζωή.παπαδοπούλου"),
            ("!!!", "person"),
            ("Oma -- Erika", "oma.erika"),
        ] {
            assert_eq!(derived(shown), name, "{shown}");
            assert_eq!(checked(&derived(shown)).unwrap(), name, "{shown}: a valid login name");
        }
        let long = derived(&"Wolfgang Amadeus ".repeat(10));
        assert!(long.chars().count() <= MAX - 4 && checked(&long).is_ok(), "{long}");
    }
}
