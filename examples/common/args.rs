//! The command line shared by the benchmarks (`load_bench`, `density_bench`, `turn_bench`).

/// The value after `name` on the command line `args`, else `default`.
pub fn arg(args: &[String], name: &str, default: &str) -> String {
    args.windows(2)
        .find(|w| w[0] == name)
        .map_or_else(|| default.to_string(), |w| w[1].clone())
}
