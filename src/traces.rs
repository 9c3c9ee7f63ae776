//! Traces of every turn, exported by OTLP when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (with the standard
//! `OTEL_EXPORTER_OTLP_PROTOCOL`: `http/protobuf`, the default, or `grpc`; both read with the settings, in
//! [`crate::config::traces`]; the SDK reads the other standard `OTEL_*` variables itself). The log's filter
//! does not apply to them: they have their own, this target's spans. Exported are the spans of target [`TARGET`]: a turn, and in it the end of the
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

use crate::config::TracesSettings;

/// The `tracing` target of the spans that are exported.
pub const TARGET: &str = "turn_trace";

/// The exporter's provider and tracer, kept to flush the last spans at the end.
static PROVIDER: OnceLock<(SdkTracerProvider, SdkTracer)> = OnceLock::new();

/// The layer that exports [`TARGET`]'s spans, when the settings name a collector; built inside the async
/// runtime (the gRPC client lives on it).
pub fn layer<S>(settings: &TracesSettings) -> Option<impl Layer<S>>
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
{
    let endpoint = settings.endpoint.as_deref()?.trim_end_matches('/');
    // The endpoint names the collector; over HTTP the traces go to its `/v1/traces`, as the SDK does with
    // the variable itself.
    let exporter = if settings.grpc {
        SpanExporter::builder().with_tonic().with_endpoint(endpoint).build()
    } else {
        SpanExporter::builder()
            .with_http()
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(format!("{endpoint}/v1/traces"))
            .build()
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
