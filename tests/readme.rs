//! The report shown in README.md is the real output of the example.

#[path = "../examples/sorted_insert.rs"]
#[allow(dead_code)]
mod sorted_insert;

#[test]
fn readme_report_is_the_real_output() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme
        .find("neatcheck: property failed")
        .expect("a report in README.md");
    let end = start + readme[start..].find("```").unwrap();
    assert_eq!(&readme[start..end], sorted_insert::run());
}
