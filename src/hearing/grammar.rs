//! Sentence templates, in the manner of Home Assistant's intent language (hassil): words, alternatives
//! `(a|b)`, optional parts `[a]`, slots `{name}` and rules `<name>` that stand for a template defined once.
//! A template matches an utterance only as a whole: "Erinnere mich an {text}" reads "Erinnere mich an den
//! Müll" and never "Die Erinnerung an meinen Mann macht mich traurig".
//!
//! A template is kept as the tree it is written as; matching walks it over the utterance's words, trying each
//! alternative and each length a slot may take, depth first. The work is bounded twice: the size of a template
//! ([`MAX_NODES`]) when it is read, and the steps of one match ([`MAX_STEPS`]).

use std::collections::HashMap;

/// Pieces one template may have, its rules' counted: a file's mistake, not an utterance, would exceed it.
const MAX_NODES: usize = 4096;
/// Steps one utterance may take against one template before it counts as no match.
const MAX_STEPS: usize = 20_000;

/// A piece of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// One word of the utterance, any of these.
    Word(Vec<String>),
    /// A slot, by name: the code says which words it takes ([`Slots`]).
    Slot(String),
    /// One of these sequences (an optional part has an empty one).
    Either(Vec<Vec<Node>>),
}

/// A template.
#[derive(Debug, Clone)]
pub struct Template {
    nodes: Vec<Node>,
    /// Words the template cannot do without (one of each set): an utterance without them is passed at once.
    needed: Vec<Vec<String>>,
}

/// Where each slot of a match lies in the utterance's words: `(name, from, to)`.
pub type Filled = Vec<(String, usize, usize)>;

/// What the code knows of slots: whether the words `from..to` can fill slot `name`.
pub trait Slots {
    fn fills(&self, name: &str, from: usize, to: usize) -> bool;

    /// Whether slot `name` tries its longest filling first (a time: "um 18 Uhr", not "um 18"); else its
    /// shortest ("{text} {when}" leaves the time to the time).
    fn longest_first(&self, name: &str) -> bool;
}

impl Template {
    /// Reads `text` with the `rules` defined before it; an error says what is wrong in it.
    pub fn parse(text: &str, rules: &HashMap<String, Template>) -> Result<Self, String> {
        let mut parser = Parser {
            chars: text.chars().collect(),
            at: 0,
            rules,
            nodes: 0,
        };
        let nodes = parser.sequence()?;
        if parser.at < parser.chars.len() {
            return Err(format!("unexpected {:?}", parser.chars[parser.at]));
        }
        let needed = nodes
            .iter()
            .filter_map(|n| match n {
                Node::Word(any) => Some(any.clone()),
                _ => None,
            })
            .collect();
        Ok(Self { nodes, needed })
    }

    /// Every word the template names, in any of its alternatives.
    pub fn words(&self) -> Vec<String> {
        fn of(nodes: &[Node], all: &mut Vec<String>) {
            for node in nodes {
                match node {
                    Node::Word(any) => all.extend(any.iter().cloned()),
                    Node::Slot(_) => {}
                    Node::Either(alternatives) => alternatives.iter().for_each(|a| of(a, all)),
                }
            }
        }
        let mut all = Vec::new();
        of(&self.nodes, &mut all);
        all
    }

    /// The slots of the first way the whole of `words` is this template; none when there is none.
    pub fn matches(&self, words: &[String], slots: &dyn Slots) -> Option<Filled> {
        if words.is_empty() || !self.needed.iter().all(|any| any.iter().any(|w| words.contains(w))) {
            return None;
        }
        let mut walk = Walk {
            words,
            slots,
            steps: 0,
            filled: Vec::new(),
        };
        walk.from(&mut vec![self.nodes.as_slice()], 0).then_some(walk.filled)
    }
}

/// One match being tried.
struct Walk<'a> {
    words: &'a [String],
    slots: &'a dyn Slots,
    steps: usize,
    filled: Filled,
}

impl<'t> Walk<'_> {
    /// Whether what is left to match (`rest`, innermost last) matches the words from `at` to the end.
    fn from(&mut self, rest: &mut Vec<&'t [Node]>, at: usize) -> bool {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return false;
        }
        let Some(head) = rest.pop() else {
            return at == self.words.len();
        };
        let found = match head.split_first() {
            None => self.from(rest, at),
            Some((node, tail)) => {
                rest.push(tail);
                let found = self.node(node, rest, at);
                rest.pop();
                found
            }
        };
        rest.push(head);
        found
    }

    /// Whether `node` at `at`, then `rest`, match.
    fn node(&mut self, node: &'t Node, rest: &mut Vec<&'t [Node]>, at: usize) -> bool {
        match node {
            Node::Word(any) => self.words.get(at).is_some_and(|w| any.contains(w)) && self.from(rest, at + 1),
            Node::Either(alternatives) => alternatives.iter().any(|alternative| {
                rest.push(alternative);
                let found = self.from(rest, at);
                rest.pop();
                found
            }),
            Node::Slot(name) => {
                let last = self.words.len().saturating_sub(shortest(rest));
                let mut ends: Box<dyn Iterator<Item = usize>> = match self.slots.longest_first(name) {
                    true => Box::new((at + 1..=last).rev()),
                    false => Box::new(at + 1..=last),
                };
                for to in &mut ends {
                    if !self.slots.fills(name, at, to) {
                        continue;
                    }
                    self.filled.push((name.clone(), at, to));
                    if self.from(rest, to) {
                        return true;
                    }
                    self.filled.pop();
                }
                false
            }
        }
    }
}

/// The fewest words what is left can match.
fn shortest(rest: &[&[Node]]) -> usize {
    fn of(nodes: &[Node]) -> usize {
        nodes
            .iter()
            .map(|n| match n {
                Node::Word(_) | Node::Slot(_) => 1,
                Node::Either(alternatives) => alternatives.iter().map(|a| of(a)).min().unwrap_or(0),
            })
            .sum()
    }
    rest.iter().map(|nodes| of(nodes)).sum()
}

struct Parser<'a> {
    chars: Vec<char>,
    at: usize,
    rules: &'a HashMap<String, Template>,
    /// Pieces read so far, rules' counted.
    nodes: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn count(&mut self, n: usize) -> Result<(), String> {
        self.nodes += n;
        match self.nodes > MAX_NODES {
            true => Err(format!("more than {MAX_NODES} pieces: split it")),
            false => Ok(()),
        }
    }

    /// `a | b | …` up to a closing bracket.
    fn alternatives(&mut self) -> Result<Vec<Vec<Node>>, String> {
        let mut all = vec![self.sequence()?];
        while self.peek() == Some('|') {
            self.at += 1;
            all.push(self.sequence()?);
        }
        Ok(all)
    }

    /// Items one after the other, up to `|`, a closing bracket or the end.
    fn sequence(&mut self) -> Result<Vec<Node>, String> {
        let mut nodes = Vec::new();
        while let Some(node) = self.item()? {
            nodes.extend(node);
        }
        Ok(nodes)
    }

    /// One item; none at `|`, a closing bracket or the end.
    fn item(&mut self) -> Result<Option<Vec<Node>>, String> {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        self.count(1)?;
        match c {
            '|' | ')' | ']' => Ok(None),
            '(' | '[' => {
                self.at += 1;
                let mut inner = self.alternatives()?;
                let close = if c == '(' { ')' } else { ']' };
                if self.peek() != Some(close) {
                    return Err(format!("{c} without {close}"));
                }
                self.at += 1;
                if c == '[' {
                    inner.push(Vec::new());
                }
                Ok(Some(vec![either(inner)]))
            }
            '{' => {
                let name = self.name('}')?;
                Ok(Some(vec![Node::Slot(name)]))
            }
            '<' => {
                let name = self.name('>')?;
                let rule = self.rules.get(&name).ok_or(format!("no rule <{name}> before it"))?;
                let nodes = rule.nodes.clone();
                self.count(size(&nodes))?;
                Ok(Some(nodes))
            }
            _ => {
                let start = self.at;
                while self
                    .peek()
                    .is_some_and(|c| !c.is_whitespace() && !"()[]{}<>|".contains(c))
                {
                    self.at += 1;
                }
                let word: String = self.chars[start..self.at].iter().collect();
                Ok(Some(vec![Node::Word(vec![normal(&word)])]))
            }
        }
    }

    /// The name in `{name}` or `<name>`.
    fn name(&mut self, close: char) -> Result<String, String> {
        self.at += 1;
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-') {
            self.at += 1;
        }
        let name: String = self.chars[start..self.at].iter().collect();
        if self.peek() != Some(close) || name.is_empty() {
            return Err(format!("a name ending in {close} was expected"));
        }
        self.at += 1;
        Ok(name)
    }
}

/// Alternatives as one piece; those that are each one word become one word of many ("(erinnere|erinner)"),
/// and a choice of one sequence is that sequence's single piece when it has one.
fn either(alternatives: Vec<Vec<Node>>) -> Node {
    let single = |s: &Vec<Node>| matches!(s.as_slice(), [Node::Word(_)]);
    let (words, rest): (Vec<_>, Vec<_>) = alternatives.into_iter().partition(single);
    let mut merged: Vec<String> = Vec::new();
    for sequence in &words {
        if let [Node::Word(any)] = sequence.as_slice() {
            merged.extend(any.iter().cloned());
        }
    }
    let mut all = rest;
    if !merged.is_empty() {
        all.insert(0, vec![Node::Word(merged)]);
    }
    match all.as_slice() {
        [only] if only.len() == 1 => only[0].clone(),
        _ => Node::Either(all),
    }
}

/// Pieces in `nodes`, nested ones counted.
fn size(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|n| match n {
            Node::Either(alternatives) => 1 + alternatives.iter().map(|a| size(a)).sum::<usize>(),
            _ => 1,
        })
        .sum()
}

/// A word as templates and utterances are compared: lower case, without the punctuation around it, one kind
/// of apostrophe.
pub fn normal(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric())
        .replace(['’', '‘', '`'], "'")
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct AnyText;

    impl Slots for AnyText {
        fn fills(&self, name: &str, from: usize, to: usize) -> bool {
            name == "text" || (name == "n" && to == from + 1)
        }

        fn longest_first(&self, _: &str) -> bool {
            false
        }
    }

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(normal).filter(|w| !w.is_empty()).collect()
    }

    #[test]
    fn a_template_matches_only_the_whole_utterance() {
        let rules = HashMap::new();
        let t = Template::parse("[bitte] (erinnere|erinner) mich an {text}", &rules).unwrap();
        assert_eq!(
            t.matches(&words("Bitte erinnere mich an den Müll!"), &AnyText),
            Some(vec![("text".into(), 4, 6)])
        );
        assert!(t.matches(&words("Erinner mich an den Müll"), &AnyText).is_some());
        assert!(t.matches(&words("Die Erinnerung an meinen Mann"), &AnyText).is_none());
        assert!(t.matches(&words("erinnere mich an"), &AnyText).is_none());
    }

    #[test]
    fn rules_optional_parts_and_mistakes() {
        let mut rules = HashMap::new();
        rules.insert(
            "polite".into(),
            Template::parse("(kannst du|können sie)", &rules).unwrap(),
        );
        let t = Template::parse("<polite> mich [bitte] {n} erinnern", &rules).unwrap();
        assert!(
            t.matches(&words("Können Sie mich morgen erinnern?"), &AnyText)
                .is_some()
        );
        assert!(
            t.matches(&words("kannst du mich bitte morgen erinnern"), &AnyText)
                .is_some()
        );
        assert!(Template::parse("<nope> a", &rules).unwrap_err().contains("<nope>"));
        assert!(Template::parse("(a|b", &rules).is_err());
        assert!(Template::parse("a]", &rules).is_err());
        let many = "[a b] ".repeat(13);
        assert!(Template::parse(&many, &rules).is_ok());
        let huge = "[a b] ".repeat(2000);
        assert!(Template::parse(&huge, &rules).unwrap_err().contains("pieces"));
    }
}
