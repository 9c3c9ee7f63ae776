//! The traces area: where the turns' spans are exported, under OpenTelemetry's own variable names. The log's
//! filter (`RUST_LOG`) is the log's only: the traces have their own.

use super::env::{ConfigError, Source};

/// OTLP export of the turns' traces.
#[derive(Debug, Clone, Default)]
pub struct TracesSettings {
    /// `OTEL_EXPORTER_OTLP_ENDPOINT`: the collector; `None` = no export.
    pub endpoint: Option<String>,
    /// `OTEL_EXPORTER_OTLP_PROTOCOL` is `grpc` (else `http/protobuf`).
    pub grpc: bool,
}

impl TracesSettings {
    /// Reads the area.
    pub(super) fn read(src: &Source) -> Result<Self, ConfigError> {
        let endpoint = src
            .var(
                "OTEL_EXPORTER_OTLP_ENDPOINT",
                "the OpenTelemetry collector the turns' traces go to (OTLP), e.g. `http://127.0.0.1:4318`; unset: none are built. `RUST_LOG` does not filter them; the SDK reads the other standard `OTEL_*` variables (headers, timeouts, batching) itself",
            )
            .raw()
            .filter(|e| !e.trim().is_empty());
        let protocol = src
            .var(
                "OTEL_EXPORTER_OTLP_PROTOCOL",
                "how traces are sent: `http/protobuf` or `grpc`",
            )
            .choice("http/protobuf", &["http/protobuf", "grpc"])?;
        Ok(Self {
            endpoint,
            grpc: protocol == "grpc",
        })
    }
}
