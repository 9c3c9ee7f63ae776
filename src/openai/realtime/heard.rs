//! The answers of a Realtime connection that `conversation.item.truncate` may cut, each with what was heard of
//! it ([`LastAnswer`], the tracker every channel uses; positions here are ms of audio sent).

use std::collections::VecDeque;

use axum::extract::ws::WebSocket;

use super::Conn;
use super::events::ServerEvent;
use crate::voice::heard::LastAnswer;

/// Answers remembered for truncation: a client truncates the one it is playing, rarely an older one.
const REMEMBERED: usize = 16;

/// The last answers of a connection, by their item.
#[derive(Debug, Default)]
pub(super) struct Heard {
    answers: VecDeque<(String, LastAnswer)>,
}

impl Heard {
    /// Remembers an answer.
    pub(super) fn keep(&mut self, item: String, answer: LastAnswer) {
        if self.answers.len() == REMEMBERED {
            self.answers.pop_front();
        }
        self.answers.push_back((item, answer));
    }
}

impl Conn {
    /// `conversation.item.truncate`: the stored answer keeps what was played, and `conversation.item.truncated`
    /// confirms it.
    pub(super) async fn truncate(
        &mut self,
        socket: &mut WebSocket,
        item_id: String,
        content_index: u32,
        audio_end_ms: u64,
    ) -> bool {
        let Some((_, answer)) = self.heard.answers.iter_mut().find(|(item, _)| *item == item_id) else {
            let problem = format!("{item_id:?} is not an answer of this conversation with audio");
            return self.fail(socket, "invalid_item_id", &problem).await;
        };
        if content_index != 0 {
            return self
                .fail(socket, "invalid_content_index", "an answer has one content part, 0")
                .await;
        }
        match answer.cut(&self.app.store, Some(audio_end_ms)).await {
            Ok(cut) => tracing::debug!(item = %item_id, audio_end_ms, cut, "an answer was truncated to what was heard"),
            Err(err) => {
                tracing::error!(%err, "cutting an answer failed");
                return self.fail(socket, "internal", "the answer could not be cut").await;
            }
        }
        let truncated = ServerEvent::ItemTruncated {
            item_id,
            content_index,
            audio_end_ms,
        };
        self.send(socket, truncated).await
    }
}
