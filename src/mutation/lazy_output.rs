//! The lazy form of mutation testing: a property that reads the tested
//! function's output through a [`Lazy`] handle, so that one run decides
//! every replacement that agrees on what the run read.
//!
//! Per point and test input, the replacements are searched by NEAT (a
//! [`Searcher`] over the output type up to [`MutationConfig::output_size`]): each
//! run stands for a class of outputs the property can not tell apart, and
//! a failing run kills every sampled replacement its pattern matches.

use super::{
    mutant_grid, test_inputs, CaseScore, KindCount, Mutant, MutantKind, MutationConfig,
    MutationError, NearMutants, Report,
};
use crate::engine::{RunResult, Searcher};
use crate::grammar::Tree;
use crate::handle::Lazy;
use crate::index::Indexer;
use crate::internal::quiet::Quiet;
use crate::Enumerable;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The most output values [`score_lazy`] builds.
pub(super) const MAX_OUTPUTS: usize = 1 << 20;

/// [`super::score`] for a property of the form "`spec(x, function(input_of(x)))`"
/// whose `spec` reads the output lazily: mutants at one point that `spec`
/// can not tell apart (it read the same part of them) are decided by one
/// run. The mutants, the score and the report are those of
/// [`super::score`] with the property
/// `|f, x| spec(&x, f(&input_of(&x)))` (with the output read whole).
///
/// Every output value up to [`MutationConfig::output_size`] is built once, and the
/// original outputs must be among them (else
/// [`MutationError::OutputTooLarge`]; at most 2^20 of them, else
/// [`MutationError::TooManyOutputs`]). A test input only ever calls the
/// function at `input_of(x)`, so [`MutationConfig::skip_uncalled`] has no effect.
/// [`Report::runs`] counts the runs of `spec` on mutants' outputs, the
/// second runs that trace what a failing run read included.
///
/// Each run here costs a step of the search and, when it fails, a traced
/// second run: the lazy form pays when `spec` reads little of the output
/// (a length, a prefix) or a run is costly; for a cheap property that
/// reads much of the output, [`super::score`] is faster
/// (`tools/src/bin/mutation_bench.rs` measures both).
///
/// ```
/// use neatcheck::mutation::{score_lazy, MutationConfig};
///
/// fn sort_fast(xs: &Vec<u8>) -> Vec<u8> {
///     let mut ys = xs.clone();
///     ys.sort_unstable();
///     ys
/// }
/// // The length alone: one run per length decides every output of it.
/// let report = score_lazy(
///     &MutationConfig::default().input_size(5).output_size(5),
///     "sort_fast",
///     sort_fast,
///     |xs: &Vec<u8>| xs.clone(),
///     |xs, out| out.len() == xs.len(),
/// )
/// .unwrap();
/// assert!(report.killed > 0 && !report.survivors.is_empty());
/// assert!(report.runs < report.mutants as u64);
/// ```
///
/// # Errors
/// [`MutationError::OriginalFails`] when `spec` fails on an original
/// output (or `input_of` or the function panics);
/// [`MutationError::OutputTooLarge`] as said;
/// [`MutationError::TooManyOutputs`] beyond 2^20 output values.
pub fn score_lazy<A, B, X, F, I, S>(
    config: &MutationConfig,
    name: &str,
    function: F,
    input_of: I,
    spec: S,
) -> Result<Report<A, B>, MutationError>
where
    A: Clone + Eq + Hash + fmt::Debug,
    B: Enumerable + Clone + PartialEq + fmt::Debug,
    X: Enumerable + Clone + fmt::Debug,
    F: Fn(&A) -> B,
    I: Fn(&X) -> A,
    S: Fn(&X, Lazy<'_, B>) -> bool,
{
    let _quiet = Quiet::new();
    let inputs = test_inputs::<X>(config);
    let outputs = Indexer::<B>::new();
    let replacements = outputs.cardinality_up_to(config.output_size);
    let count = match replacements.to_usize() {
        Some(n) if n <= MAX_OUTPUTS => n,
        _ => {
            return Err(MutationError::TooManyOutputs {
                outputs: replacements,
            })
        }
    };
    let trees: Vec<Tree> = (0..count)
        .map(|j| outputs.tree_at(&BigUint::from(j)).expect("below the count"))
        .collect();
    let values: Vec<B> = trees.iter().map(|t| outputs.value_of_tree(t)).collect();

    // The recording pass: each input's point, each point's original output
    // (by its number among the replacements), and the original's verdict.
    let mut points: Vec<(A, usize)> = vec![];
    let mut ids: HashMap<A, usize> = HashMap::new();
    let mut callers: Vec<Vec<usize>> = vec![];
    for (t, x) in inputs.iter().enumerate() {
        let original_fails = |panic: Option<String>| MutationError::OriginalFails {
            input: format!("{x:?}"),
            panic,
        };
        let a = catch_unwind(AssertUnwindSafe(|| input_of(x)))
            .map_err(|p| original_fails(super::panic_message(p)))?;
        let id = match ids.get(&a) {
            Some(&id) => id,
            None => {
                let o = catch_unwind(AssertUnwindSafe(|| function(&a)))
                    .map_err(|p| original_fails(super::panic_message(p)))?;
                let Some(j) = values.iter().position(|v| *v == o) else {
                    return Err(MutationError::OutputTooLarge {
                        point: format!("{a:?}"),
                        output: format!("{o:?}"),
                    });
                };
                ids.insert(a.clone(), points.len());
                points.push((a, j));
                callers.push(vec![]);
                points.len() - 1
            }
        };
        callers[id].push(t);
        let mut s = Searcher::<B>::new(config.output_size);
        s.load(&trees[points[id].1]);
        match s.step(|b| spec(x, b)) {
            Some(RunResult::True) | Some(RunResult::Discarded) => {}
            Some(RunResult::False(_)) => return Err(original_fails(None)),
            Some(RunResult::Panicked(m)) => {
                s.raise_internal();
                return Err(original_fails(Some(m)));
            }
            None => unreachable!("a loaded value runs once"),
        }
    }

    let (pairs, sampled, chosen) = mutant_grid(points.len(), &replacements, config);
    let mut report = Report {
        function: name.to_string(),
        mutants: 0,
        killed: 0,
        survivors: vec![],
        undecided: 0,
        equivalent: 0,
        inputs: inputs.len(),
        points: points.len(),
        pairs,
        sampled,
        runs: 0,
        runs_without_skipping: 0,
        budget_exhausted: false,
        near: NearMutants::Off,
        kinds: vec![],
        cases: CaseScore::default(),
        shown: config.shown,
    };
    // The chosen replacements of each point, ascending, equivalents out.
    let mut by_point: Vec<Vec<usize>> = vec![vec![]; points.len()];
    for g in &chosen {
        let p = (g / &replacements).to_usize().expect("a point index");
        let j = (g % &replacements).to_usize().expect("a replacement index");
        if j == points[p].1 {
            report.equivalent += 1;
        } else {
            by_point[p].push(j);
        }
    }
    for (p, js) in by_point.iter().enumerate() {
        report.mutants += js.len();
        if js.is_empty() {
            continue;
        }
        if report.budget_exhausted {
            report.undecided += js.len();
            continue;
        }
        // The first input (by number) that kills each chosen replacement.
        let mut killer: Vec<Option<usize>> = vec![None; js.len()];
        let mut left = js.len();
        'inputs: for &t in &callers[p] {
            let x = &inputs[t];
            let mut s = Searcher::<B>::new(config.output_size);
            loop {
                if left == 0 {
                    break 'inputs;
                }
                if report.runs >= config.max_runs {
                    report.budget_exhausted = true;
                    break 'inputs;
                }
                let Some(r) = s.step(|b| spec(x, b)) else {
                    break;
                };
                report.runs += 1;
                match r {
                    RunResult::True | RunResult::Discarded => continue,
                    RunResult::Panicked(_) => s.raise_internal(),
                    RunResult::False(_) => {}
                }
                // The class of a failing run: what it read. Tracing it is
                // one more run, within the budget like the others.
                if report.runs >= config.max_runs {
                    report.budget_exhausted = true;
                    break 'inputs;
                }
                report.runs += 1;
                let pattern = s.pattern(|b| {
                    let _ = spec(x, b);
                });
                for (k, &j) in js.iter().enumerate() {
                    if killer[k].is_none() && pattern.matches(&trees[j]) {
                        killer[k] = Some(t);
                        left -= 1;
                    }
                }
            }
        }
        for (k, &j) in js.iter().enumerate() {
            match killer[k] {
                Some(t) => {
                    report.killed += 1;
                    report.runs_without_skipping += t as u64 + 1;
                }
                None if report.budget_exhausted => report.undecided += 1,
                None => {
                    report.runs_without_skipping += inputs.len() as u64;
                    report.survivors.push(Mutant {
                        point: points[p].0.clone(),
                        original: values[points[p].1].clone(),
                        replacement: values[j].clone(),
                        kind: MutantKind::Small,
                    });
                }
            }
        }
    }
    if report.mutants > 0 {
        report.kinds = vec![KindCount {
            kind: MutantKind::Small,
            mutants: report.mutants,
            killed: report.killed,
            survived: report.survivors.len(),
        }];
    }
    Ok(report)
}
