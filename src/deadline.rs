//! Writes that give up: a peer that stops reading fills the socket's buffers, and a write then waits for it
//! forever, holding the connection and whatever it was about to send. [`Deadline`] fails a write (or a flush)
//! that makes no progress for `WRITE_TIMEOUT_SECONDS`, so the raw protocols and the HTTP doors (a board's
//! event stream, a long answer) drop such a peer as the WebSocket channels do.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// `W` whose writes fail after `limit` without progress.
pub struct Deadline<W> {
    inner: W,
    limit: Duration,
    /// Running while a write waits; reset by any progress.
    waiting: Option<Pin<Box<Sleep>>>,
}

impl<W> Deadline<W> {
    pub fn new(inner: W, limit: Duration) -> Self {
        Self {
            inner,
            limit,
            waiting: None,
        }
    }

    /// `polled` as it is when it is ready; while it is pending, an error once the deadline passed.
    fn watch<T>(&mut self, polled: Poll<io::Result<T>>, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.waiting = None;
            return polled;
        }
        let limit = self.limit;
        let waiting = self.waiting.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match waiting.as_mut().poll(cx) {
            Poll::Ready(()) => {
                self.waiting = None;
                Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the peer took nothing for WRITE_TIMEOUT_SECONDS",
                )))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

/// Reading goes through untouched: the HTTP door reads and writes through one `Deadline` (its reads have
/// their own header and body timeouts).
impl<W: AsyncRead + Unpin> AsyncRead for Deadline<W> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<W: AsyncWrite + Unpin> AsyncWrite for Deadline<W> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.watch(polled, cx)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_flush(cx);
        this.watch(polled, cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.watch(polled, cx)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::AsyncWriteExt;

    use super::*;

    #[tokio::test]
    async fn a_write_nobody_takes_fails_after_the_limit_and_one_that_is_taken_does_not() {
        // A pipe of 64 bytes whose far end reads nothing.
        let (near, mut far) = tokio::io::duplex(64);
        let limit = Duration::from_millis(300);
        let mut w = Deadline::new(near, limit);
        w.write_all(&[0; 64]).await.unwrap();
        let started = std::time::Instant::now();
        let err = w.write_all(&[0; 1]).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(
            (limit..limit * 5).contains(&started.elapsed()),
            "{:?}",
            started.elapsed()
        );

        // Read slowly, 16 bytes every 100 ms: each write makes progress within the limit, so none fails
        // although the whole takes longer than it.
        let reader = tokio::spawn(async move {
            let mut buf = [0; 16];
            loop {
                tokio::time::sleep(Duration::from_millis(100)).await;
                if tokio::io::AsyncReadExt::read(&mut far, &mut buf).await.unwrap_or(0) == 0 {
                    return;
                }
            }
        });
        w.write_all(&[0; 128]).await.unwrap();
        drop(w);
        reader.await.unwrap();
    }
}
