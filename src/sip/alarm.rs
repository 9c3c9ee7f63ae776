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

use super::answer::{self, Ears};
use super::dial::{self, Answered};
use super::dialog::Shared;
use super::endpoint::{Endpoint, token};
use super::media::{self, Media, Remote};
use super::register::Account;
use super::session::{Agreed, Session};
use super::{Calls, sdp};
use crate::app::App;
use crate::config::route::RouteLayer;
use crate::lines::{AlarmCall, Confirm, Dialer};
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
        let session_id: u64 = rand::random::<u32>().into();
        let offer = sdp::offer(local, session_id);
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
            local,
            origin: (session_id, session_id),
            contact: format!("<sip:{}@{}>", self.account.user, self.account.reachable()),
        };
        line.converse(answered, (rtp, rtcp), requests, words, &call).await;
    }

    /// Hangs up on a callee who picked up when the call cannot go on.
    fn give_up(&self, answered: Answered, outcome: oneshot::Sender<Result<(), String>>, why: String) {
        answered.dialog.hang_up(self.endpoint.clone())();
        let _ = outcome.send(Err(why));
    }
}

/// The answered call.
struct Conversation<'a> {
    app: &'a Arc<App>,
    endpoint: &'a Arc<Endpoint>,
    registrar: SocketAddr,
    /// The gateway's audio address, its description's origin and its Contact.
    local: SocketAddr,
    origin: (u64, u64),
    contact: String,
}

/// How the callee answered.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    /// A 1, or a spoken yes where the call listens.
    Yes,
    /// A spoken no or a call for help to the check-in's question.
    Help,
    /// Nothing in time, or the callee hung up.
    None,
}

/// A call the callee picked up: its audio and its dialog running.
struct PickedUp {
    line: Media,
    inbound: mpsc::Receiver<Inbound>,
    keys: mpsc::Receiver<char>,
    /// The INVITE's answers: a 2xx that comes again lost its ACK, which is sent again (to the next hop).
    responses: super::endpoint::Responses,
    again: (super::message::Message, SocketAddr),
    in_dialog: AbortOnDrop<Option<&'static str>>,
}

impl Conversation<'_> {
    async fn converse(
        &self,
        answered: Answered,
        sockets: (tokio::net::UdpSocket, tokio::net::UdpSocket),
        requests: mpsc::Receiver<super::message::Message>,
        words: Words,
        call: &AlarmCall,
    ) {
        let mut call_on = self.pick_up(answered, sockets, requests);
        let rate = call_on.line.rate();
        let pause = vec![0i16; (PAUSE.as_secs_f64() * f64::from(rate)) as usize];
        let script = [&words.message, &pause, &words.message, &words.ask];
        let length: usize = script.iter().map(|w| w.len()).sum();
        for (mark, samples) in (1..).zip(script) {
            let _ = call_on.line.play(samples, mark).await;
        }
        // The question's end starts the time to answer; a line that reports no marks has the whole.
        let deadline = crate::clock::from_now(seconds(length, rate).saturating_add(LISTEN));
        let Some(said) = self.listen(&mut call_on, deadline, call).await else {
            return tracing::info!("the callee hung up");
        };
        let PickedUp {
            mut line,
            mut inbound,
            mut keys,
            in_dialog,
            ..
        } = call_on;
        match said {
            Answer::Yes => self.thank(&mut line, &mut inbound, &words.thanks, call).await,
            Answer::Help => self.ask_help(&mut line, &mut inbound, &mut keys, call).await,
            Answer::None => tracing::info!("a call ended without an answer"),
        }
        if !in_dialog.0.is_finished() {
            line.hang_up().await;
        }
    }

    /// The call's audio and its dialog, served, once the callee picked up.
    fn pick_up(
        &self,
        answered: Answered,
        sockets: (tokio::net::UdpSocket, tokio::net::UdpSocket),
        requests: mpsc::Receiver<super::message::Message>,
    ) -> PickedUp {
        let Answered {
            dialog,
            answer,
            responses,
        } = answered;
        let again = (dialog.ack(), dialog.next_hop());
        let dialog = Shared::new(dialog);
        let (tx, inbound) = mpsc::channel(64);
        let (keys_tx, keys) = mpsc::channel(16);
        let hang_up = dialog.hang_up(self.endpoint.clone());
        let (remote, heard) = tokio::sync::watch::channel(Remote::of(&answer, self.registrar.ip()));
        let timeout = self.app.settings.sip.rtp_timeout;
        let line = Media::start(sockets, &answer, heard, timeout, tx.clone(), keys_tx.clone(), hang_up);
        let session = Session {
            app: self.app.clone(),
            endpoint: self.endpoint.clone(),
            dialog,
            peer: self.registrar,
            inbound: tx,
            keys: keys_tx,
            audio: Agreed {
                remote,
                local: self.local,
                sent: answer.answer(self.local, self.origin),
                offer: answer,
                origin: self.origin,
                contact: self.contact.clone(),
            },
            timer: None,
            remote_cseq: 0,
        };
        PickedUp {
            line,
            inbound,
            keys,
            responses,
            again,
            in_dialog: AbortOnDrop(tokio::spawn(session.serve(requests))),
        }
    }

    /// The callee's answer by `deadline` (later while a spoken one is being heard, or once the question was
    /// played): a 1, or where the call listens a spoken yes, no or call for help. `None`: they hung up.
    async fn listen(&self, on: &mut PickedUp, mut deadline: Instant, call: &AlarmCall) -> Option<Answer> {
        // The person's own calls listen for a spoken answer too (from the start: "ja" may come early).
        let listens = matches!(call.confirms, Some(Confirm::Reminder(_) | Confirm::Checkin));
        let mut ears = listens.then(|| Ears::new(self.app, on.line.rate()));
        let mut hearing: Option<AbortOnDrop<Option<String>>> = None;
        loop {
            tokio::select! {
                key = on.keys.recv() => match key {
                    Some('1') => return Some(Answer::Yes),
                    Some(_) => {}
                    None => return Some(Answer::None),
                },
                event = on.inbound.recv() => match event {
                    Some(Inbound::Played(QUESTION_PLAYED)) => deadline = crate::clock::from_now(LISTEN),
                    Some(Inbound::Audio(samples)) => {
                        if let Some(utterance) = ears.as_mut().and_then(|e| e.hear(&samples))
                            && hearing.is_none()
                        {
                            let (app, user) = (self.app.clone(), call.user.clone());
                            hearing = Some(AbortOnDrop(tokio::spawn(answer::heard(app, user, call.language.clone(), utterance))));
                        }
                    }
                    Some(Inbound::Played(_) | Inbound::Key(_)) => {} // Keys come on `keys` here.
                    Some(Inbound::Hangup) | None => return None,
                },
                text = async { (&mut hearing.as_mut().expect("hearing").0).await }, if hearing.is_some() => {
                    hearing = None;
                    let text = text.ok().flatten().unwrap_or_default();
                    match reply(&text, call) {
                        Answer::None => deadline = deadline.max(crate::clock::from_now(LISTEN / 2)),
                        answer => return Some(answer),
                    }
                }
                // The 2xx again: the ACK was lost.
                Some(response) = on.responses.recv() => {
                    if response.code().is_some_and(|c| (200..300).contains(&c)) {
                        let _ = self.endpoint.send(&on.again.0, on.again.1).await;
                    }
                }
                () = tokio::time::sleep_until(deadline), if hearing.is_none() => return Some(Answer::None),
            }
        }
    }

    /// Records the confirmation and says thanks.
    async fn thank(&self, line: &mut Media, inbound: &mut mpsc::Receiver<Inbound>, thanks: &[i16], call: &AlarmCall) {
        let _ = line.clear().await;
        match &call.confirms {
            Some(Confirm::Alarm(id)) => {
                if let Err(err) = crate::emergency::ack::confirm_by_call(self.app, id).await {
                    tracing::error!(%err, "the confirmation of an alarm call was not stored");
                }
            }
            Some(confirm) => crate::care::answered(self.app, &call.user.id, confirm, "house_line").await,
            None => {}
        }
        play_out(line, inbound, thanks).await;
    }

    /// The check-in's "no": the help function's own question on the call; a yes (or 1) raises the alarm and the
    /// person hears how it went.
    async fn ask_help(
        &self,
        line: &mut Media,
        inbound: &mut mpsc::Receiver<Inbound>,
        keys: &mut mpsc::Receiver<char>,
        call: &AlarmCall,
    ) {
        let _ = line.clear().await;
        let (rate, language) = (line.rate(), call.language.as_str());
        let say = |text: String| speak_one(self.app.clone(), call.user.clone(), call.language.clone(), text, rate);
        let informal = self.app.store.prefs(&call.user.id).await.is_ok_and(|p| p.informal());
        let question = crate::emergency::spoken::question(language, informal);
        if let Some(question) = say(question).await {
            play_out(line, inbound, &question).await;
        }
        let mut ears = Ears::new(self.app, rate);
        let deadline = crate::clock::from_now(LISTEN * 2);
        let yes = loop {
            tokio::select! {
                key = keys.recv() => match key {
                    Some('1') => break true,
                    Some(_) => {}
                    None => break false,
                },
                event = inbound.recv() => match event {
                    Some(Inbound::Audio(samples)) => if let Some(utterance) = ears.hear(&samples) {
                        let text = answer::heard(self.app.clone(), call.user.clone(), call.language.clone(), utterance).await;
                        if let Some(yes) = crate::emergency::spoken::answer(&text.unwrap_or_default(), language) {
                            break yes;
                        }
                    },
                    Some(Inbound::Played(_) | Inbound::Key(_)) => {} // Keys come on `keys` here.
                    Some(Inbound::Hangup) | None => break false,
                },
                () = tokio::time::sleep_until(deadline) => break false,
            }
        };
        let words = if yes {
            let way = ("house_line", crate::emergency::Way::Checkin);
            match crate::emergency::raise_on(self.app, &call.user, way, language).await {
                Ok(answer) => answer.message,
                Err(err) => {
                    tracing::error!(%err, "the alarm of a check-in call could not be raised");
                    crate::emergency::message(language, informal, "failed")
                }
            }
        } else {
            crate::emergency::spoken::declined(language)
        };
        if let Some(words) = say(words).await {
            play_out(line, inbound, &words).await;
        }
    }
}

/// What an utterance answers to the call's question.
fn reply(text: &str, call: &AlarmCall) -> Answer {
    match &call.confirms {
        Some(Confirm::Reminder(_)) if crate::care::spoken::confirms(text, &call.language) => Answer::Yes,
        Some(Confirm::Checkin) => match crate::care::spoken::fine(text, &call.language) {
            Some(true) => Answer::Yes,
            Some(false) => Answer::Help,
            None => Answer::None,
        },
        _ => Answer::None,
    }
}

/// Plays `samples` and waits until they were heard (or a little longer than they last).
async fn play_out(line: &mut Media, inbound: &mut mpsc::Receiver<Inbound>, samples: &[i16]) {
    if line.play(samples, THANKS_PLAYED).await.is_ok() {
        let played = async {
            while let Some(event) = inbound.recv().await {
                if matches!(event, Inbound::Played(THANKS_PLAYED) | Inbound::Hangup) {
                    return;
                }
            }
        };
        let _ = tokio::time::timeout(seconds(samples.len(), line.rate()) + THANKS_GRACE, played).await;
    }
}

/// One text spoken in the person's voice at the line's rate; none when it cannot be.
async fn speak_one(
    app: Arc<App>,
    user: crate::store::users::User,
    language: String,
    text: String,
    rate: u32,
) -> Option<Vec<i16>> {
    let [pcm] = speak(app, user, language, [text]).await.ok()?;
    Some(at_rate(pcm, rate))
}
fn seconds(samples: usize, rate: u32) -> Duration {
    Duration::from_secs_f64(samples as f64 / f64::from(rate))
}

/// Speaks `texts` in `language` with the person's voice.
async fn speak<const N: usize>(
    app: Arc<App>,
    user: crate::store::users::User,
    language: String,
    texts: [String; N],
) -> Result<[Pcm; N], String> {
    let layer = RouteLayer {
        language: Some(language),
        ..RouteLayer::default()
    };
    let (eff, prefs, route) = speech::route_alone(&app, &user, layer)
        .await
        .map_err(|e| e.to_string())?;
    let mut spoken = Vec::with_capacity(N);
    for text in &texts {
        let said = speech::synthesize(&app, &eff, &prefs, &route, text)
            .await
            .map_err(|e| e.to_string())?;
        spoken.push(to_mono(parse_wav(&said.speech.audio).map_err(|e| e.to_string())?));
    }
    spoken.try_into().map_err(|_| "a voice for each text".to_string())
}
