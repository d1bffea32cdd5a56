//! The `neatcheck` command: `neatcheck tip FILE.smt2` and
//! `neatcheck external -- PROGRAM` (see `neatcheck --help`).

use neatcheck_cli::cli;

/// The interpreter recurses over the calls of the program it runs (bounded
/// by its depth limit); a large stack keeps that bound well below an
/// overflow.
const STACK: usize = 1 << 30;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let worker = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let stdout = std::io::stdout();
            let stderr = std::io::stderr();
            cli::run(&args, &mut stdout.lock(), &mut stderr.lock())
        });
    let code = match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => 3,
        Err(e) => {
            eprintln!("neatcheck: can not start: {e}");
            3
        }
    };
    std::process::exit(code);
}
