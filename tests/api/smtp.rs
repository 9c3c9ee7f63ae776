//! A small SMTP server inside the test process: it holds a real SMTP conversation (greeting, EHLO, MAIL,
//! RCPT, DATA with dot-stuffing, QUIT) and keeps what it received, or refuses or hangs on purpose.

use std::sync::{Arc, Mutex};

use base64::Engine;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// How the server behaves.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Accepts every mail.
    Accept,
    /// Refuses every recipient with 550.
    RefuseRecipients,
    /// Accepts the connection and never says a word.
    Hang,
}

/// One received mail.
#[derive(Debug, Clone)]
pub struct Mail {
    pub from: String,
    pub recipients: Vec<String>,
    pub data: String,
}

impl Mail {
    /// A header's value, unfolded, with RFC 2047 encoded words decoded.
    pub fn header(&self, name: &str) -> String {
        let head = self.data.split("\r\n\r\n").next().unwrap_or("");
        let unfolded = head.replace("\r\n ", " ").replace("\r\n\t", " ");
        let line = unfolded
            .lines()
            .find(|l| {
                l.to_ascii_lowercase()
                    .starts_with(&format!("{}:", name.to_ascii_lowercase()))
            })
            .unwrap_or("");
        decode_words(line[line.find(':').map_or(0, |i| i + 1)..].trim())
    }

    /// The text body (base64 or plain).
    pub fn body(&self) -> String {
        let (head, body) = self.data.split_once("\r\n\r\n").unwrap_or(("", ""));
        if head.to_ascii_lowercase().contains("content-transfer-encoding: base64") {
            let joined: String = body.split_whitespace().collect();
            String::from_utf8(base64::engine::general_purpose::STANDARD.decode(joined).unwrap()).unwrap()
        } else {
            body.to_string()
        }
    }
}

/// Decodes `=?utf-8?b?…?=` and `=?utf-8?q?…?=` words.
fn decode_words(value: &str) -> String {
    let mut out = String::new();
    let mut previous_encoded = false;
    for word in value.split(' ') {
        let lower = word.to_ascii_lowercase();
        let encoded = lower.starts_with("=?utf-8?") && lower.ends_with("?=");
        // Whitespace between two encoded words is not part of the text (RFC 2047).
        if !(out.is_empty() || encoded && previous_encoded) {
            out.push(' ');
        }
        previous_encoded = encoded;
        if let Some(rest) = lower.strip_prefix("=?utf-8?b?").and_then(|r| r.strip_suffix("?=")) {
            let original = &word[10..10 + rest.len()];
            let bytes = base64::engine::general_purpose::STANDARD.decode(original).unwrap();
            out.push_str(&String::from_utf8(bytes).unwrap());
        } else if lower.starts_with("=?utf-8?q?") && lower.ends_with("?=") {
            let inner = &word[10..word.len() - 2];
            let mut bytes = Vec::new();
            let mut chars = inner.bytes();
            while let Some(b) = chars.next() {
                match b {
                    b'_' => bytes.push(b' '),
                    b'=' => {
                        let hex: String = [chars.next().unwrap(), chars.next().unwrap()]
                            .iter()
                            .map(|&c| c as char)
                            .collect();
                        bytes.push(u8::from_str_radix(&hex, 16).unwrap());
                    }
                    _ => bytes.push(b),
                }
            }
            out.push_str(&String::from_utf8(bytes).unwrap());
        } else {
            out.push_str(word);
        }
    }
    out
}

/// A running server.
pub struct SmtpServer {
    pub port: u16,
    mails: Arc<Mutex<Vec<Mail>>>,
    mode: Arc<Mutex<Mode>>,
}

impl SmtpServer {
    pub async fn start(mode: Mode) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let mails = Arc::new(Mutex::new(Vec::new()));
        let store = mails.clone();
        let mode = Arc::new(Mutex::new(mode));
        let current = mode.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let store = store.clone();
                let mode = *current.lock().unwrap();
                tokio::spawn(async move {
                    if mode == Mode::Hang {
                        // Holds the connection and never speaks.
                        let _socket = socket;
                        return std::future::pending().await;
                    }
                    let _ = conversation(socket, mode, store).await;
                });
            }
        });
        Self { port, mails, mode }
    }

    /// Changes how the server treats the next connections (a relay that comes back, or goes down).
    pub fn set_mode(&self, mode: Mode) {
        *self.mode.lock().unwrap() = mode;
    }

    pub fn mails(&self) -> Vec<Mail> {
        self.mails.lock().unwrap().clone()
    }
}

async fn conversation(socket: tokio::net::TcpStream, mode: Mode, store: Arc<Mutex<Vec<Mail>>>) -> std::io::Result<()> {
    let (read, mut write) = socket.into_split();
    let mut lines = BufReader::new(read).lines();
    write.write_all(b"220 test.local ESMTP ready\r\n").await?;
    let mut mail = Mail {
        from: String::new(),
        recipients: Vec::new(),
        data: String::new(),
    };
    while let Some(line) = lines.next_line().await? {
        let upper = line.to_ascii_uppercase();
        if upper.starts_with("EHLO") {
            write
                .write_all(b"250-test.local\r\n250-8BITMIME\r\n250 SIZE 10485760\r\n")
                .await?;
        } else if upper.starts_with("HELO") || upper.starts_with("NOOP") || upper.starts_with("RSET") {
            write.write_all(b"250 OK\r\n").await?;
        } else if upper.starts_with("MAIL FROM:") {
            mail.from = address(&line);
            write.write_all(b"250 OK\r\n").await?;
        } else if upper.starts_with("RCPT TO:") {
            if mode == Mode::RefuseRecipients {
                write.write_all(b"550 5.1.1 mailbox unavailable\r\n").await?;
            } else {
                mail.recipients.push(address(&line));
                write.write_all(b"250 OK\r\n").await?;
            }
        } else if upper == "DATA" {
            write.write_all(b"354 end with <CRLF>.<CRLF>\r\n").await?;
            let mut data = Vec::new();
            while let Some(l) = lines.next_line().await? {
                if l == "." {
                    break;
                }
                data.push(
                    l.strip_prefix('.')
                        .map(str::to_string)
                        .filter(|_| l.starts_with(".."))
                        .unwrap_or(l),
                );
            }
            mail.data = data.join("\r\n");
            store.lock().unwrap().push(mail.clone());
            write.write_all(b"250 OK queued\r\n").await?;
        } else if upper.starts_with("QUIT") {
            write.write_all(b"221 bye\r\n").await?;
            return Ok(());
        } else {
            write.write_all(b"502 command not implemented\r\n").await?;
        }
    }
    Ok(())
}

fn address(line: &str) -> String {
    let start = line.find('<').map_or(0, |i| i + 1);
    let end = line.find('>').unwrap_or(line.len());
    line[start..end].to_string()
}
