//! Fitting an evaluation's weights to scored positions: the one fitter of both games' tuners
//! (`examples/tune_eval.rs` for chess, `crates/engine/examples/xq_tune.rs` for xiangqi; the
//! whole pipeline is in `tools/TUNING.md`).
//!
//! The method is Texel tuning as Peter Österlund described it (the chessprogramming wiki,
//! "Texel's Tuning Method", <https://www.chessprogramming.org/Texel%27s_Tuning_Method>):
//! each position's evaluation `e`, a linear function of the weights, is mapped to an expected
//! score `sigmoid(K * e)`, and the weights minimise the mean squared difference from the
//! position's target (an engine's score mapped the same way, or the game's result). Where
//! Texel's tuner moves one weight at a time, this one moves all of them at once by Adam
//! (Kingma and Ba, "Adam: A Method for Stochastic Optimization",
//! <https://arxiv.org/abs/1412.6980>) on the exact gradient over all training positions (full
//! batch): the evaluation is linear, so the gradient is a sum of the positions' coefficients.
//!
//! 1. [`read_labelled`] reads the `FEN;result;cp` lines the labelling scripts write.
//! 2. [`fit_k`] finds the scale `K` that makes a list of scores predict a list of targets
//!    best (an engine's scores the results, or the present weights the targets).
//! 3. A game's tuner describes its positions as a [`Linear`] model: each position's
//!    `(weight, coefficient)` terms, the part of its evaluation that is not fitted, and its
//!    target.
//! 4. [`fit`] runs Adam for a number of epochs, with the tuner's own penalty added to the
//!    gradient (a ridge, a smoothness term) and a report after each epoch; [`error`] is the
//!    mean squared error on any set of positions (the training set, the held-out one).
//! 5. [`write_params`] writes the weights' source file atomically, or prints it.

use std::path::Path;

/// The logistic function: an evaluation times `K` to an expected score in 0..1.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of `sigmoid(k * x_i)` against `y_i`.
pub fn mse(k: f64, xs: &[(f64, f64)]) -> f64 {
    xs.iter()
        .map(|&(x, y)| (sigmoid(k * x) - y).powi(2))
        .sum::<f64>()
        / xs.len().max(1) as f64
}

/// The scale `k` in 1e-4..0.1 minimising [`mse`], by golden-section search on a log scale.
pub fn fit_k(xs: &[(f64, f64)]) -> f64 {
    let (mut lo, mut hi) = ((1e-4f64).ln(), (0.1f64).ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if mse(a.exp(), xs) < mse(b.exp(), xs) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// One line of a labelled file.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelled {
    /// The line's number in the file, from 0.
    pub line: usize,
    pub fen: String,
    /// The game's result for the first player (White, Red): 1, 0.5 or 0.
    pub result: f64,
    /// The labelling engine's score in centipawns for the first player.
    pub cp: f64,
}

/// Reads `path`'s `FEN;result;cp` lines. An error names the file and the line.
pub fn read_labelled(path: &str) -> Result<Vec<Labelled>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    text.lines()
        .enumerate()
        .map(|(n, line)| {
            let fields: Vec<&str> = line.split(';').collect();
            let [fen, result, cp] = fields[..] else {
                return Err(format!("{path}:{}: expected FEN;result;cp", n + 1));
            };
            let (Ok(result), Ok(cp)) = (result.parse(), cp.parse()) else {
                return Err(format!("{path}:{}: result or cp is not a number", n + 1));
            };
            Ok(Labelled {
                line: n,
                fen: fen.to_string(),
                result,
                cp,
            })
        })
        .collect()
}

/// A game's positions as the fit sees them: each evaluation is linear in the weights.
pub trait Linear {
    type Sample;
    /// The `(weight index, coefficient)` pairs of `s`'s evaluation.
    fn terms(&self, s: &Self::Sample) -> impl Iterator<Item = (usize, f64)>;
    /// The part of `s`'s evaluation that is not fitted (0 unless the tuner says otherwise).
    fn fixed(&self, _s: &Self::Sample) -> f64 {
        0.0
    }
    /// What `sigmoid(K * eval)` should come close to.
    fn target(&self, s: &Self::Sample) -> f64;
    /// `s`'s evaluation with weights `w`.
    fn eval(&self, s: &Self::Sample, w: &[f64]) -> f64 {
        self.fixed(s) + self.terms(s).map(|(i, c)| c * w[i]).sum::<f64>()
    }
}

/// The mean squared error of weights `w` at scale `k` over `samples`.
pub fn error<'a, M: Linear>(
    model: &M,
    samples: impl IntoIterator<Item = &'a M::Sample>,
    w: &[f64],
    k: f64,
) -> f64
where
    M::Sample: 'a,
{
    let (mut sum, mut count) = (0.0, 0usize);
    for s in samples {
        sum += (sigmoid(k * model.eval(s, w)) - model.target(s)).powi(2);
        count += 1;
    }
    sum / count.max(1) as f64
}

/// How long and how fast [`fit`] moves the weights.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// Steps of Adam, each over all the training positions.
    pub epochs: usize,
    /// Adam's step size, in the weights' unit (centipawns).
    pub rate: f64,
}

/// Moves `w` by Adam (β₁ 0.9, β₂ 0.999, ε 1e-8) on the mean squared error of `train` at
/// scale `k`, `schedule.epochs` times. After the data's gradient, `penalty(w, grad)` adds the
/// tuner's own terms to `grad` (or holds a weight by zeroing its entry); after each step,
/// `report(epoch, w)` may print the errors.
pub fn fit<M: Linear>(
    model: &M,
    train: &[&M::Sample],
    w: &mut [f64],
    k: f64,
    schedule: Schedule,
    mut penalty: impl FnMut(&[f64], &mut [f64]),
    mut report: impl FnMut(usize, &[f64]),
) {
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut m1 = vec![0.0; w.len()];
    let mut m2 = vec![0.0; w.len()];
    let n = train.len().max(1) as f64;
    for epoch in 1..=schedule.epochs {
        let mut grad = vec![0.0f64; w.len()];
        for &s in train {
            let p = sigmoid(k * model.eval(s, w));
            let d = 2.0 * (p - model.target(s)) * p * (1.0 - p) * k / n;
            for (i, c) in model.terms(s) {
                grad[i] += d * c;
            }
        }
        penalty(w, &mut grad);
        let t = epoch as i32;
        for (i, g) in grad.into_iter().enumerate() {
            m1[i] = b1 * m1[i] + (1.0 - b1) * g;
            m2[i] = b2 * m2[i] + (1.0 - b2) * g * g;
            let mh = m1[i] / (1.0 - b1.powi(t));
            let vh = m2[i] / (1.0 - b2.powi(t));
            w[i] -= schedule.rate * mh / (vh.sqrt() + eps);
        }
        report(epoch, w);
    }
}

/// Writes `source` to `path` atomically (a reader sees the old file or the new one, never a
/// part), or prints it when there is no path.
pub fn write_params(path: Option<&str>, source: &str) -> Result<(), String> {
    match path {
        Some(path) => threefold_rules::fsio::write_atomic(Path::new(path), source.as_bytes())
            .map_err(|e| format!("{path}: {e}")),
        None => {
            print!("{source}");
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two weights, positions `e = 100 a - 50 b + 10`, targets made by known weights.
    struct Toy(Vec<((f64, f64), f64)>);

    impl Linear for Toy {
        type Sample = ((f64, f64), f64);
        fn terms(&self, s: &Self::Sample) -> impl Iterator<Item = (usize, f64)> {
            [(0, s.0.0), (1, s.0.1)].into_iter()
        }
        fn fixed(&self, _: &Self::Sample) -> f64 {
            10.0
        }
        fn target(&self, s: &Self::Sample) -> f64 {
            s.1
        }
    }

    #[test]
    fn fit_k_finds_the_scale_that_made_the_targets() {
        let xs: Vec<(f64, f64)> = (-20..=20)
            .map(|i| f64::from(i) * 37.0)
            .map(|x| (x, sigmoid(0.004 * x)))
            .collect();
        assert!((fit_k(&xs) - 0.004).abs() < 1e-6, "{}", fit_k(&xs));
    }

    #[test]
    fn fit_recovers_the_weights_that_made_the_targets() {
        let (k, truth) = (0.01, [3.0, -2.0]);
        let samples: Vec<((f64, f64), f64)> = (0..40)
            .map(|i| {
                let (a, b) = (f64::from(i % 7) - 3.0, f64::from(i % 5) - 2.0);
                ((a, b), sigmoid(k * (10.0 + a * truth[0] + b * truth[1])))
            })
            .collect();
        let toy = Toy(samples);
        let train: Vec<&((f64, f64), f64)> = toy.0.iter().collect();
        let mut w = vec![0.0, 0.0];
        let before = error(&toy, &toy.0, &w, k);
        let mut reports = 0;
        let schedule = Schedule {
            epochs: 3000,
            rate: 0.05,
        };
        fit(
            &toy,
            &train,
            &mut w,
            k,
            schedule,
            |_, _| {},
            |_, _| reports += 1,
        );
        assert_eq!(reports, 3000);
        assert!(
            (w[0] - 3.0).abs() < 0.05 && (w[1] + 2.0).abs() < 0.05,
            "{w:?}"
        );
        assert!(error(&toy, &toy.0, &w, k) < before / 1000.0);
    }

    #[test]
    fn the_penalty_can_hold_a_weight() {
        let toy = Toy(vec![((1.0, 1.0), 0.9), ((-1.0, 2.0), 0.2)]);
        let train: Vec<_> = toy.0.iter().collect();
        let mut w = vec![0.0, 7.0];
        let schedule = Schedule {
            epochs: 100,
            rate: 1.0,
        };
        fit(
            &toy,
            &train,
            &mut w,
            0.01,
            schedule,
            |_, g| g[1] = 0.0,
            |_, _| {},
        );
        assert_eq!(w[1], 7.0);
        assert_ne!(w[0], 0.0);
    }

    #[test]
    fn read_labelled_names_the_line_of_a_bad_one() {
        let dir = std::env::temp_dir().join(format!("threefold-tune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("l.txt");
        std::fs::write(&path, "8/8/8/8/8/8/8/K1k5 w - - 0 1;0.5;-12\nfen;1\n").unwrap();
        let path = path.to_str().unwrap();
        assert_eq!(
            read_labelled(path).unwrap_err(),
            format!("{path}:2: expected FEN;result;cp")
        );
        std::fs::write(path, "fen;1;x\n").unwrap();
        assert_eq!(
            read_labelled(path).unwrap_err(),
            format!("{path}:1: result or cp is not a number")
        );
        std::fs::write(path, "a b;1;-3.5\n").unwrap();
        let read = read_labelled(path).unwrap();
        assert_eq!(
            (read[0].fen.as_str(), read[0].result, read[0].cp),
            ("a b", 1.0, -3.5)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
