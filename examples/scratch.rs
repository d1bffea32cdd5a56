use neatcheck::check::{run_check, Config};
use std::time::Instant;
fn main() {
    let t = Instant::now();
    let r = run_check(&Config::default(), |x: u64| x < 1 << 40);
    println!("{:?} {:?}", r.as_ref().map(|s| s.to_string()).map_err(|c| (&c.value, &c.found, c.summary.to_string())), t.elapsed());
    let t = Instant::now();
    let r = run_check(&Config::default(), |a: u32, b: u32| a.checked_add(b).is_some());
    println!("{:?} {:?}", r.as_ref().map(|s| s.to_string()).map_err(|c| (&c.value, &c.found, c.summary.to_string())), t.elapsed());
    let t = Instant::now();
    let r = run_check(&Config::default(), |s: String| !s.contains("ab"));
    println!("{:?} {:?}", r.as_ref().map(|s| s.to_string()).map_err(|c| (&c.value, &c.found, c.summary.to_string())), t.elapsed());
    let t = Instant::now();
    let r = run_check(&Config::default(), |s: Vec<u8>| s.len() < 30);
    println!("{:?} {:?}", r.as_ref().map(|s| s.to_string()).map_err(|c| (&c.value, &c.found, c.summary.to_string())), t.elapsed());
    let t = Instant::now();
    let r = run_check(&Config::default(), |s: Vec<u8>| s.iter().map(|&x| x as u32).sum::<u32>() < 10000);
    println!("{:?} {:?}", r.as_ref().map(|s| s.to_string()).map_err(|c| (&c.value, &c.found, c.summary.to_string())), t.elapsed());
}
