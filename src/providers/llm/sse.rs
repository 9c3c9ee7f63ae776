//! Server-sent events as OpenAI-compatible servers send them: `data:` lines, events ended by a blank line,
//! comments (`:`) ignored, bytes arriving in arbitrary pieces (a UTF-8 character may be split).

/// Turns pieces of a byte stream into the data of complete events.
#[derive(Debug, Default)]
pub struct SseParser {
    pending: Vec<u8>,
    data: Vec<String>,
}

impl SseParser {
    /// Feeds bytes; returns the data of every event they completed, in order.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<String> {
        self.pending.extend_from_slice(bytes);
        let mut events = Vec::new();
        let mut start = 0;
        while let Some(offset) = self.pending[start..].iter().position(|&b| b == b'\n') {
            let end = start + offset;
            let line = String::from_utf8_lossy(&self.pending[start..end]);
            take_line(&mut self.data, line.trim_end_matches('\r'), &mut events);
            start = end + 1;
        }
        self.pending.drain(..start);
        events
    }

    /// Ends the stream: an event not closed by a blank line still counts.
    pub fn finish(&mut self) -> Vec<String> {
        let mut events = Vec::new();
        if !self.pending.is_empty() {
            let rest = String::from_utf8_lossy(&std::mem::take(&mut self.pending)).into_owned();
            take_line(&mut self.data, rest.trim_end_matches('\r'), &mut events);
        }
        take_line(&mut self.data, "", &mut events);
        events
    }
}

fn take_line(data: &mut Vec<String>, line: &str, events: &mut Vec<String>) {
    if line.is_empty() {
        if !data.is_empty() {
            events.push(data.join("\n"));
            data.clear();
        }
    } else if let Some(value) = line.strip_prefix("data:") {
        data.push(value.strip_prefix(' ').unwrap_or(value).to_string());
    }
    // `event:`, `id:`, `retry:` and `:` comments carry nothing the chat protocol uses.
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_survive_any_split() {
        let stream = "data: {\"a\":\"Grüße\"}\r\n\r\n: keep-alive\n\ndata: [DONE]\n\n".as_bytes();
        for cut in 0..stream.len() {
            let mut p = SseParser::default();
            let mut got = p.push(&stream[..cut]);
            got.extend(p.push(&stream[cut..]));
            got.extend(p.finish());
            assert_eq!(got, vec!["{\"a\":\"Grüße\"}", "[DONE]"], "cut at {cut}");
        }
    }

    #[test]
    fn multi_line_data_joins_and_unterminated_event_counts() {
        let mut p = SseParser::default();
        assert!(p.push(b"data: one\ndata: two\n").is_empty());
        assert_eq!(p.finish(), vec!["one\ntwo"]);
    }
}
