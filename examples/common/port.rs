//! A free loopback port for the gateway a benchmark starts (`load_bench`, `density_bench`, `turn_bench`).

/// A port on 127.0.0.1 that nothing listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a loopback port")
        .local_addr()
        .expect("its address")
        .port()
}
