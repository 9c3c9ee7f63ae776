//! Alarm calls over the house's telephone: the help function's [`Dialer`] while the gateway is registered.
//! The words are spoken in the person's language and voice while the contact's telephone rings. The
//! contact hears the message twice and then "press 1", as in Twilio's call. A 1, sent as an RFC 4733 event
//! or by SIP INFO, confirms the alarm exactly as Twilio's keypress does, and the contact hears the thanks.

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::dial::{self, Answered};
use super::endpoint::{Endpoint, token};
use super::media::{self, Media};
use super::register::Account;
use super::{Calls, dialog, sdp};
use crate::app::App;
use crate::config::route::RouteLayer;
use crate::lines::{AlarmCall, Dialer};
use crate::phone::call::{Inbound, Line, at_rate};
use crate::phone::callers::dialable;
use crate::providers::audio::{Pcm, parse_wav, to_mono};
use crate::task::AbortOnDrop;
use crate::turn::speech;

/// How long the contact has to press 1 after the question.
const LISTEN: Duration = Duration::from_secs(10);
/// The pause between the message and its repetition.
const PAUSE: Duration = Duration::from_secs(1);
/// How long the thanks may take to be played before the line hangs up anyway.
const THANKS_GRACE: Duration = Duration::from_secs(3);
/// The marks of the script's parts (message, pause, message, question: 1 to 4) and of the thanks.
const QUESTION_PLAYED: u64 = 4;
const THANKS_PLAYED: u64 = 9;

/// The house's telephone as the help function's dialer.
#[derive(Clone)]
pub struct HouseLine {
    app: Weak<App>,
    endpoint: Arc<Endpoint>,
    account: Arc<Account>,
    calls: Calls,
}

impl HouseLine {
    /// The dialer of `account`; it holds the gateway weakly, as the gateway holds it.
    pub fn new(app: &Arc<App>, endpoint: Arc<Endpoint>, account: Arc<Account>, calls: Calls) -> Self {
        Self {
            app: Arc::downgrade(app),
            endpoint,
            account,
            calls,
        }
    }
}

impl Dialer for HouseLine {
    fn dial(&self, call: AlarmCall) -> Pin<Box<dyn Future<Output = Result<(), String>> + Send + '_>> {
        let (outcome, answered) = oneshot::channel();
        // The call lives on after it was answered (or after the alarm stopped waiting): it ends itself.
        tokio::spawn(self.clone().place(call, outcome));
        Box::pin(async move {
            answered
                .await
                .unwrap_or_else(|_| Err("the call ended before it was answered".into()))
        })
    }
}

/// The words of an alarm call at the line's rate.
struct Words {
    message: Vec<i16>,
    ask: Vec<i16>,
    thanks: Vec<i16>,
}

impl HouseLine {
    /// One alarm call, from its INVITE to its end.
    async fn place(self, call: AlarmCall, outcome: oneshot::Sender<Result<(), String>>) {
        let Some(app) = self.app.upgrade() else { return };
        let texts = [call.message.clone(), call.ask.clone(), call.thanks.clone()];
        let mut words = AbortOnDrop(tokio::spawn(speak(
            app.clone(),
            call.user.clone(),
            call.language.clone(),
            texts,
        )));
        let (rtp, rtcp) = match media::bind(self.account.contact.ip(), &app.settings.sip.rtp_ports).await {
            Ok(sockets) => sockets,
            Err(err) => return drop(outcome.send(Err(err.to_string()))),
        };
        let local = SocketAddr::new(self.account.contact.ip(), rtp.local_addr().map_or(0, |a| a.port()));
        let call_id = token("alarm-");
        let (tx, requests) = mpsc::channel(16);
        self.calls.insert(call_id.clone(), tx);
        let number = dialable(&call.to, app.settings.phone.country_code.as_deref());
        let offer = sdp::offer(local, rand::random::<u32>().into());
        let answered = dial::call(&self.endpoint, &self.account, &number, &call_id, &offer, call.ring).await;
        let answered = match answered {
            Ok(answered) => answered,
            Err(why) => return drop(outcome.send(Err(why))),
        };
        let rate = answered.answer.codec.audio_rate();
        let words = match (&mut words.0).await {
            Ok(Ok([message, ask, thanks])) => Words {
                message: at_rate(message, rate),
                ask: at_rate(ask, rate),
                thanks: at_rate(thanks, rate),
            },
            Ok(Err(why)) => return self.give_up(answered, outcome, format!("the message could not be spoken: {why}")),
            Err(err) => return self.give_up(answered, outcome, format!("the message could not be spoken: {err}")),
        };
        tracing::info!(to = %call.to, codec = answered.answer.codec.name(), "an alarm call was answered");
        if outcome.send(Ok(())).is_err() {
            // The alarm stopped waiting: it reported this contact as not reached.
            return answered.dialog.hang_up(self.endpoint.clone())();
        }
        let line = Conversation {
            app: &app,
            endpoint: &self.endpoint,
            registrar: self.account.registrar,
        };
        line.converse(answered, (rtp, rtcp), requests, words, call.ack.as_deref())
            .await;
    }

    /// Hangs up on a callee who picked up when the call cannot go on.
    fn give_up(&self, answered: Answered, outcome: oneshot::Sender<Result<(), String>>, why: String) {
        answered.dialog.hang_up(self.endpoint.clone())();
        let _ = outcome.send(Err(why));
    }
}

/// The answered call.
struct Conversation<'a> {
    app: &'a App,
    endpoint: &'a Arc<Endpoint>,
    registrar: SocketAddr,
}

impl Conversation<'_> {
    async fn converse(
        &self,
        answered: Answered,
        (rtp, rtcp): (tokio::net::UdpSocket, tokio::net::UdpSocket),
        requests: mpsc::Receiver<super::message::Message>,
        words: Words,
        ack: Option<&str>,
    ) {
        let Answered {
            dialog,
            answer,
            mut responses,
        } = answered;
        let (again, next_hop) = (dialog.ack(), dialog.next_hop());
        let (tx, mut inbound) = mpsc::channel(64);
        let (keys_tx, mut keys) = mpsc::channel(16);
        let hang_up = dialog.hang_up(self.endpoint.clone());
        let mut line = Media::start(
            rtp,
            rtcp,
            &answer,
            self.registrar.ip(),
            tx.clone(),
            keys_tx.clone(),
            hang_up,
        );
        let in_dialog = AbortOnDrop(tokio::spawn(dialog::serve(
            self.endpoint.clone(),
            requests,
            tx,
            keys_tx,
            self.registrar,
        )));
        let rate = line.rate();
        let pause = vec![0i16; (PAUSE.as_secs_f64() * f64::from(rate)) as usize];
        let script = [&words.message, &pause, &words.message, &words.ask];
        let length: usize = script.iter().map(|w| w.len()).sum();
        for (mark, samples) in (1..).zip(script) {
            let _ = line.play(samples, mark).await;
        }
        // The question's end starts the time to answer; a line that reports no marks has the whole.
        let mut deadline = Instant::now() + seconds(length, rate) + LISTEN;
        let confirmed = loop {
            tokio::select! {
                key = keys.recv() => match key {
                    Some('1') => break true,
                    Some(_) => {}
                    None => break false,
                },
                event = inbound.recv() => match event {
                    Some(Inbound::Played(QUESTION_PLAYED)) => deadline = Instant::now() + LISTEN,
                    Some(Inbound::Audio(_) | Inbound::Played(_)) => {}
                    Some(Inbound::Hangup) | None => return tracing::info!("the contact hung up the alarm call"),
                },
                // The 2xx again: the ACK was lost.
                Some(response) = responses.recv() => {
                    if response.code().is_some_and(|c| (200..300).contains(&c)) {
                        let _ = self.endpoint.send(&again, next_hop).await;
                    }
                }
                () = tokio::time::sleep_until(deadline) => break false,
            }
        };
        if confirmed {
            self.thank(&mut line, &mut inbound, &words.thanks, ack).await;
        } else {
            tracing::info!("an alarm call ended without a 1");
        }
        if !in_dialog.0.is_finished() {
            line.hang_up().await;
        }
    }

    /// Records the confirmation and says thanks.
    async fn thank(&self, line: &mut Media, inbound: &mut mpsc::Receiver<Inbound>, thanks: &[i16], ack: Option<&str>) {
        let _ = line.clear().await;
        if let Some(id) = ack
            && let Err(err) = crate::emergency::ack::confirm_by_call(self.app, id).await
        {
            tracing::error!(%err, "the confirmation of an alarm call was not stored");
        }
        if line.play(thanks, THANKS_PLAYED).await.is_ok() {
            let played = async {
                while let Some(event) = inbound.recv().await {
                    if matches!(event, Inbound::Played(THANKS_PLAYED) | Inbound::Hangup) {
                        return;
                    }
                }
            };
            let _ = tokio::time::timeout(seconds(thanks.len(), line.rate()) + THANKS_GRACE, played).await;
        }
    }
}

fn seconds(samples: usize, rate: u32) -> Duration {
    Duration::from_secs_f64(samples as f64 / f64::from(rate))
}

/// Speaks `texts` in `language` with the person's voice.
async fn speak(
    app: Arc<App>,
    user: crate::store::users::User,
    language: String,
    texts: [String; 3],
) -> Result<[Pcm; 3], String> {
    let layer = RouteLayer {
        language: Some(language),
        ..RouteLayer::default()
    };
    let (eff, prefs, route) = speech::route_alone(&app, &user, layer)
        .await
        .map_err(|e| e.to_string())?;
    let mut spoken = Vec::with_capacity(3);
    for text in &texts {
        let said = speech::synthesize(&app, &eff, &prefs, &route, text)
            .await
            .map_err(|e| e.to_string())?;
        spoken.push(to_mono(parse_wav(&said.speech.audio).map_err(|e| e.to_string())?));
    }
    spoken.try_into().map_err(|_| "three texts, three voices".to_string())
}
