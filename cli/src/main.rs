//! The `neatcheck` command: `neatcheck tip FILE.smt2` and
//! `neatcheck external -- PROGRAM` (see `neatcheck --help`).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = neatcheck_cli::with_large_stack(move || {
        let stdout = std::io::stdout();
        let stderr = std::io::stderr();
        neatcheck_cli::run(&args, &mut stdout.lock(), &mut stderr.lock())
    });
    std::process::exit(code.unwrap_or(3));
}
