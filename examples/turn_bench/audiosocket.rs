//! `--line audiosocket`: each question is a call through Asterisk's AudioSocket, as its `AudioSocket()`
//! application makes it: a TCP connection, the call's UUID, then the question as signed linear 8 kHz audio in
//! 20 ms messages in real time (the gateway's own resampler, as Asterisk's bridge would narrow a wideband
//! call), and a hang-up once answered. The client measures from the last voiced sample to the first answer
//! audio with sound after it (the gateway's messages are the answer played at its pace); what was heard is read
//! from the call's session, as for `--line twilio`. Callers are the phone's guest (unknown UUIDs), in the
//! question's language.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tokio::net::TcpStream;
use voice_gateway::phone::audiosocket::{kind, read_message, write_message};
use voice_gateway::providers::resample::Resampler;

use super::Measure;

/// The settings of the AudioSocket line: the server on `addr`, unknown calls taken as the guest's.
pub fn settings(addr: SocketAddr) -> Vec<(String, String)> {
    [
        ("AUDIOSOCKET_ADDR", addr.to_string()),
        ("PHONE_UNKNOWN_CALLERS", "guest".into()),
        ("PHONE_GUEST_DAILY_REQUESTS", "0".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// Calls, asks `pcm` (16 kHz) in `lang`, and measures.
pub async fn ask(port: u16, addr: SocketAddr, pid: u32, lang: &str, pcm: &[i16], call: usize) -> Measure {
    // The guest is made by the first unknown call (the warm-up's, in English).
    if let Some(user) = super::phone::guest_if_any(port).await {
        super::phone::set_language(port, &user, lang).await;
    }
    let metered = super::phone::Metered::start(port, pid).await;
    let stream = TcpStream::connect(addr).await.expect("the AudioSocket server");
    let (mut reader, mut writer) = stream.into_split();
    // Read whole messages in a task of their own: a read cut off by a timeout would lose its place in the
    // stream.
    let (got, mut messages) = tokio::sync::mpsc::unbounded_channel();
    let reading = tokio::spawn(async move {
        while let Ok(Some(message)) = read_message(&mut reader).await {
            if got.send(message).is_err() {
                return;
            }
        }
    });
    let uuid = (0xbe4c_0000_0000_0000_0000_0000_0000_0000u128 + call as u128).to_be_bytes();
    write_message(&mut writer, kind::UUID, &uuid)
        .await
        .expect("the call's UUID");

    // The question at 8 kHz, then 8 s of silence, in 20 ms messages in real time.
    let mut narrow = Resampler::new(16_000, 8_000);
    let mut samples: Vec<i16> = narrow.push(pcm).into_iter().chain(narrow.finish()).collect();
    let speech_frames = samples.len().div_ceil(160);
    samples.resize(speech_frames * 160 + 8_000 * 8, 0);
    let (last_tx, mut last_rx) = tokio::sync::oneshot::channel::<Instant>();
    let (hang_up, mut hung_up) = tokio::sync::oneshot::channel::<()>();
    let sender = tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(20));
        let mut last_tx = Some(last_tx);
        for (i, frame) in samples.chunks(160).enumerate() {
            tokio::select! {
                _ = tick.tick() => {}
                _ = &mut hung_up => break,
            }
            let bytes: Vec<u8> = frame.iter().flat_map(|s| s.to_le_bytes()).collect();
            if write_message(&mut writer, kind::AUDIO, &bytes).await.is_err() {
                return;
            }
            if i + 1 == speech_frames
                && let Some(t) = last_tx.take()
            {
                let _ = t.send(Instant::now());
            }
        }
        // Asterisk's hang-up.
        let _ = write_message(&mut writer, kind::HANGUP, &[]).await;
    });
    let mut last: Option<Instant> = None;
    let mut first_audio: Option<Instant> = None;
    let mut answered = false;
    let deadline = Instant::now() + Duration::from_secs(pcm.len() as u64 / 16_000 + 30);
    while Instant::now() < deadline && !answered {
        if last.is_none() {
            last = last_rx.try_recv().ok();
        }
        let message = match tokio::time::timeout(Duration::from_millis(100), messages.recv()).await {
            Ok(Some(message)) => message,
            Ok(None) => break,
            Err(_) => continue,
        };
        if message.kind == kind::HANGUP {
            break;
        }
        let sound = message.kind == kind::AUDIO
            && message
                .payload
                .chunks_exact(2)
                .any(|b| i16::from_le_bytes([b[0], b[1]]).unsigned_abs() > 300);
        if sound && first_audio.is_none() && last.is_some() {
            first_audio = Some(Instant::now());
        }
        if first_audio.is_some() && last.is_some_and(|l| l.elapsed() > Duration::from_millis(1500)) {
            answered = super::phone::answered(port).await;
        }
    }
    let _ = hang_up.send(());
    let _ = sender.await;
    reading.abort();
    metered.measure(port, pid, last, first_audio).await
}
