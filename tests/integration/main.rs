//! The integration tests of neatcheck, one binary (one module per area);
//! `common` holds their shared oracle and helpers. The tests that need the
//! benchmark programs or the run-time-types interpreter live in the
//! `neatcheck-tools` crate (`tools/src/program_tests/`).

mod check;
mod collections;
mod common;
mod config;
mod constrained;
// Crash isolation catches signals on Linux, Android and macOS only.
#[cfg(any(target_os = "linux", target_os = "android", target_os = "macos"))]
mod crash;
mod custom_spaces;
mod derive;
mod drawn;
mod enumeration;
mod explore;
mod functions;
mod index;
mod mutation;
mod parallel;
#[cfg(feature = "proptest")]
mod proptest_bridge;
mod search_reference;
mod state;
mod suite;
