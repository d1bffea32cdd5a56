//! Command-line pieces the tools share.

/// Removes `name <a,b,c>` from `args` and returns the counts listed
/// (`default` when `name` is absent); an error names the flag.
pub fn take_counts(
    args: &mut Vec<String>,
    name: &str,
    default: &[usize],
) -> Result<Vec<usize>, String> {
    let Some(i) = args.iter().position(|a| a == name) else {
        return Ok(default.to_vec());
    };
    let list = args.get(i + 1).cloned().unwrap_or_default();
    args.drain(i..(i + 2).min(args.len()));
    list.split(',')
        .map(|n| match n.trim().parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!(
                "{name} takes numbers of at least 1, comma-separated, like 1,2"
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::take_counts;

    #[test]
    fn counts_are_taken_out_of_the_arguments() {
        let mut args: Vec<String> = ["x", "--threads", "1,2", "y"].map(String::from).to_vec();
        assert_eq!(take_counts(&mut args, "--threads", &[4]), Ok(vec![1, 2]));
        assert_eq!(args, ["x", "y"]);
        assert_eq!(take_counts(&mut args, "--threads", &[4]), Ok(vec![4]));
        let mut bad: Vec<String> = ["--threads", "0"].map(String::from).to_vec();
        assert!(take_counts(&mut bad, "--threads", &[4]).is_err());
    }
}
