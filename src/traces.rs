//! Traces of every turn, exported by OTLP when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (with the standard
//! `OTEL_EXPORTER_OTLP_PROTOCOL`: `http/protobuf`, the default, or `grpc`; the SDK reads the other standard
//! `OTEL_*` variables itself). Exported are the spans of target [`TARGET`]: a turn, and in it the end of the
//! turn, the transcription, each model call, each sentence's speech, the web search and the memory extraction,
//! with the provider, the model and sizes as attributes — never a text, a token or a key. Without the endpoint
//! nothing is built, and such a span costs what any disabled `tracing` span costs.

use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use opentelemetry::trace::{Span as _, Tracer as _, TracerProvider as _};
use opentelemetry_otlp::{Protocol, SpanExporter, WithExportConfig as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{SdkTracer, SdkTracerProvider};
use tracing_opentelemetry::OpenTelemetrySpanExt as _;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::registry::LookupSpan;

/// The `tracing` target of the spans that are exported.
pub const TARGET: &str = "turn_trace";

/// The exporter's provider and tracer, kept to flush the last spans at the end.
static PROVIDER: OnceLock<(SdkTracerProvider, SdkTracer)> = OnceLock::new();

/// The layer that exports [`TARGET`]'s spans, when `OTEL_EXPORTER_OTLP_ENDPOINT` is set; built inside the
/// async runtime (the gRPC client lives on it).
pub fn layer<S>() -> Option<impl Layer<S>>
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
{
    std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT")
        .ok()
        .filter(|e| !e.trim().is_empty())?;
    let protocol = std::env::var("OTEL_EXPORTER_OTLP_PROTOCOL").unwrap_or_default();
    let exporter = match protocol.trim() {
        "grpc" => SpanExporter::builder().with_tonic().build(),
        _ => SpanExporter::builder()
            .with_http()
            .with_protocol(Protocol::HttpBinary)
            .build(),
    };
    let exporter = match exporter {
        Ok(exporter) => exporter,
        Err(err) => {
            eprintln!("voice-gateway: traces are not exported: {err}");
            return None;
        }
    };
    let resource = Resource::builder().with_service_name("voice-gateway").build();
    let provider = SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(resource)
        .build();
    let tracer = provider.tracer("voice-gateway");
    let _ = PROVIDER.set((provider, tracer.clone()));
    let only_turns = Targets::new().with_target(TARGET, tracing::Level::TRACE);
    Some(
        tracing_opentelemetry::layer()
            .with_tracer(tracer)
            .with_filter(only_turns),
    )
}

/// Sends the spans not yet exported (at the end of the process).
pub fn flush() {
    if let Some((provider, _)) = PROVIDER.get() {
        let _ = provider.force_flush();
    }
}

/// A span of the end of the turn under the current span: from the person's last speech, `silence` ago, to
/// now (it began before the turn's own span could).
pub fn end_of_turn(silence: Duration) {
    let Some((_, tracer)) = PROVIDER.get() else {
        return;
    };
    let parent = tracing::Span::current().context();
    let now = SystemTime::now();
    let mut span = tracer
        .span_builder("end_of_turn")
        .with_start_time(now.checked_sub(silence).unwrap_or(now))
        .start_with_context(tracer, &parent);
    span.set_attribute(opentelemetry::KeyValue::new("silence_ms", silence.as_millis() as i64));
    span.end_with_timestamp(now);
}
