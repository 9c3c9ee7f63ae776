//! The service log: to stderr as usual, and line by line to a broadcast that `/api/admin/log` streams to admins.
//! A slow reader loses lines (the broadcast keeps the newest [`BACKLOG`]); it never slows the service.

use std::io::Write;
use std::sync::OnceLock;

use tokio::sync::broadcast;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::Layer;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

use crate::config::TracesSettings;

/// Lines kept for readers that fall behind.
pub const BACKLOG: usize = 1024;

fn hub() -> &'static broadcast::Sender<String> {
    static HUB: OnceLock<broadcast::Sender<String>> = OnceLock::new();
    HUB.get_or_init(|| broadcast::channel(BACKLOG).0)
}

/// A new reader of the live log.
pub fn subscribe() -> broadcast::Receiver<String> {
    hub().subscribe()
}

/// Installs the global subscriber: stderr (with colours when a terminal) and the broadcast (plain text), and
/// the export of the turns' traces when `traces` names a collector. `RUST_LOG` filters the log (default
/// `info`), not the traces.
pub fn init(traces: &TracesSettings) {
    use std::io::IsTerminal;
    // Colours only on a terminal: a service manager's journal or a file would keep the escape codes.
    install(std::io::stderr, std::io::stderr().is_terminal(), traces);
}

/// Like [`init`], but the readable copy goes to the test harness's captured output (shown for failing
/// tests only). A second call does nothing, so every test may call it.
pub fn init_for_tests() {
    install(
        tracing_subscriber::fmt::TestWriter::new(),
        false,
        &TracesSettings::default(),
    );
}

fn install<W>(readable: W, ansi: bool, traces: &TracesSettings)
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // The filter is the log's alone: the traces' layer filters for itself (the turns' spans).
    let log = tracing_subscriber::fmt::layer()
        .with_ansi(ansi)
        .with_writer(readable)
        .and_then(tracing_subscriber::fmt::layer().with_ansi(false).with_writer(Broadcast))
        .with_filter(filter);
    let _ = tracing_subscriber::registry()
        .with(crate::traces::layer(traces))
        .with(log)
        .try_init();
}

/// Writes formatted events into the broadcast, one message per line.
#[derive(Clone, Copy)]
struct Broadcast;

/// One event's text, sent when the formatter is done with it.
struct LineWriter(Vec<u8>);

impl<'a> MakeWriter<'a> for Broadcast {
    type Writer = LineWriter;

    fn make_writer(&'a self) -> Self::Writer {
        LineWriter(Vec::with_capacity(256))
    }
}

impl Write for LineWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for LineWriter {
    fn drop(&mut self) {
        if self.0.is_empty() || hub().receiver_count() == 0 {
            return;
        }
        let text = String::from_utf8_lossy(&self.0);
        for line in text.lines().filter(|l| !l.is_empty()) {
            // No receiver is not an error: nobody is watching.
            let _ = hub().send(line.to_string());
        }
    }
}

/// A warning that a stranger can repeat without end (one per connection of a flood, one per accept while
/// descriptors are out): written the first time, then at most once a minute with the number left out since.
pub struct Repeated(std::sync::Mutex<(Option<std::time::Instant>, u64)>);

/// How often a [`Repeated`] warning is written at most.
const REPEAT_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

impl Repeated {
    pub const fn new() -> Self {
        Self(std::sync::Mutex::new((None, 0)))
    }

    /// `Some(left_out)` when this occurrence is to be written, with how many were not since the last one.
    pub fn next(&self) -> Option<u64> {
        let mut state = self.0.lock().ok()?;
        let (last, left_out) = &mut *state;
        if last.is_some_and(|at| at.elapsed() < REPEAT_EVERY) {
            *left_out += 1;
            return None;
        }
        *last = Some(std::time::Instant::now());
        Some(std::mem::take(left_out))
    }
}

impl Default for Repeated {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    #[test]
    fn a_repeated_warning_is_written_once_a_minute_with_the_count_left_out() {
        let warning = Repeated::new();
        assert_eq!(warning.next(), Some(0), "the first is written");
        assert!((0..1000).all(|_| warning.next().is_none()), "the flood is counted");
        let a_minute_ago = Instant::now() - Duration::from_secs(61);
        *warning.0.lock().unwrap() = (Some(a_minute_ago), 1000);
        assert_eq!(warning.next(), Some(1000), "a minute later, the count");
        assert_eq!(warning.next(), None);
    }
}
