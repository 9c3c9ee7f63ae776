//! Memory shared by the benchmarks (`reminder_bench`, `care_scale_bench`, `density_bench`).

/// The resident memory of process `pid` (a number, or `self`) in MiB.
pub fn rss_mib_of(pid: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}
