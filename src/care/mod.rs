//! Care that comes to the person (issue 49): reminders and timers set by speaking or typing. This part reads
//! what people say, in German and English, deterministically ([`spoken`], with [`numbers`]), works out when it
//! is due in the person's time zone, across daylight-saving changes ([`due`]), and says back what it
//! understood ([`say`]).

pub mod due;
pub mod numbers;
pub mod say;
pub mod spoken;

#[cfg(test)]
mod tests;
