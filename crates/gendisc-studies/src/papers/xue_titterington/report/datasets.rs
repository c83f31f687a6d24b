//! `DATASETS.md`: per dataset and class, the moments printed in the paper, those of the
//! construction and the sample moments of the study's draw ([`Datasets::compute`]), then one
//! renderer per part.

use std::fmt::Write as _;

use gendisc_data::generators::XueTitteringtonPreset;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};

use super::super::{InputSource, XueTitteringtonStudy, ROWS_PER_CLASS};
use super::source_phrase;

/// The printed moments agree with the construction when within this: the paper prints two
/// decimals.
const PRINT_TOLERANCE: f64 = 5e-3;

/// Everything `DATASETS.md` states.
pub(super) struct Datasets {
    /// Where the datasets came from, as the opening paragraph says it.
    origin: String,
    datasets: Vec<Dataset>,
}

/// One dataset: where the paper defines it, and its two classes.
struct Dataset {
    name: &'static str,
    section: &'static str,
    figure: u8,
    classes: [Class; 2],
}

/// A mean and a covariance.
struct Moments {
    mean: Array1<f64>,
    covariance: Array2<f64>,
}

/// One class of a dataset.
struct Class {
    rows: usize,
    printed: Moments,
    construction: Moments,
    /// Of the draw (covariances divide by n − 1).
    sample: Moments,
    /// The largest gap between a printed and a constructed entry.
    gap: f64,
}

impl Class {
    fn agrees(&self) -> bool {
        self.gap < PRINT_TOLERANCE
    }
}

impl Datasets {
    /// The moments of every dataset of `study`, drawn or read as the study was.
    pub(super) fn compute(study: &XueTitteringtonStudy) -> Self {
        let origin = match study.input_source() {
            InputSource::Seed => format!(
                "Each dataset is drawn once, {ROWS_PER_CLASS} rows per class, from study seed {}.",
                study.settings().seed
            ),
            InputSource::Files { .. } => format!("Each dataset is {}.", source_phrase(study)),
        };
        let datasets = XueTitteringtonPreset::ALL
            .into_iter()
            .map(|preset| dataset(study, preset))
            .collect();
        Self { origin, datasets }
    }

    /// The whole of `DATASETS.md`.
    pub(super) fn markdown(&self) -> String {
        let mut md = format!(
            "# Xue & Titterington: the twelve simulated datasets\n\n\
             {} For each \
             class: the moments printed in the paper, those implied by the paper's construction \
             (computed analytically), and the sample moments of the draw (covariances divide by n − 1).\n\n",
            self.origin
        );
        for dataset in &self.datasets {
            md.push_str(&dataset_markdown(dataset));
        }
        md.push_str(&verdict_markdown(&self.datasets));
        md
    }
}

fn dataset(study: &XueTitteringtonStudy, preset: XueTitteringtonPreset) -> Dataset {
    let (x, y) = study.sample(preset);
    let printed = preset.printed_moments();
    let means = preset.class_means();
    let covariances = preset.class_covariances();
    let classes = [0, 1].map(|class| {
        let rows: Vec<usize> = (0..y.len()).filter(|&i| y[i] == class).collect();
        let gap = max_abs_diff(printed.means[class].view(), means[class].view()).max(max_abs_diff(
            flat(printed.covariances[class].view()).view(),
            flat(covariances[class].view()).view(),
        ));
        Class {
            rows: rows.len(),
            printed: Moments {
                mean: printed.means[class].clone(),
                covariance: printed.covariances[class].clone(),
            },
            construction: Moments {
                mean: means[class].clone(),
                covariance: covariances[class].clone(),
            },
            sample: sample_moments(x.select(Axis(0), &rows).view()),
            gap,
        }
    });
    Dataset {
        name: preset.name(),
        section: preset.section(),
        figure: preset.figure(),
        classes,
    }
}

fn dataset_markdown(dataset: &Dataset) -> String {
    let mut md = format!(
        "## {} (§{}, Figure {})\n\n",
        dataset.name, dataset.section, dataset.figure
    );
    for (index, class) in dataset.classes.iter().enumerate() {
        md.push_str(&class_markdown(index, class));
    }
    md
}

/// Class `index` (the paper's `y = index + 1`): whether its printed moments agree with the
/// construction, and the three sets of moments side by side.
fn class_markdown(index: usize, class: &Class) -> String {
    let mut md = format!(
        "Class y = {} ({} rows): the printed moments {} the construction.\n\n\
         | | paper | construction | sample |\n|---|---|---|---|\n",
        index + 1,
        class.rows,
        if class.agrees() {
            "agree with"
        } else {
            "**disagree** with"
        }
    );
    let _ = writeln!(
        md,
        "| μ | {} | {} | {} |",
        fmt_vector(class.printed.mean.view()),
        fmt_vector(class.construction.mean.view()),
        fmt_vector(class.sample.mean.view())
    );
    for i in 0..class.printed.covariance.nrows() {
        let _ = writeln!(
            md,
            "| Σ row {} | {} | {} | {} |",
            i + 1,
            fmt_vector(class.printed.covariance.row(i)),
            fmt_vector(class.construction.covariance.row(i)),
            fmt_vector(class.sample.covariance.row(i))
        );
    }
    md.push('\n');
    md
}

/// The closing verdict: every printed moment follows from the construction, or the classes
/// where one does not.
fn verdict_markdown(datasets: &[Dataset]) -> String {
    let disagreements: Vec<String> = datasets
        .iter()
        .flat_map(|d| {
            d.classes
                .iter()
                .enumerate()
                .map(move |(i, c)| (d.name, i, c))
        })
        .filter(|(_, _, class)| !class.agrees())
        .map(|(name, index, class)| {
            format!(
                "{name} class y = {}: largest gap {:.4}",
                index + 1,
                class.gap
            )
        })
        .collect();
    let mut md = String::from("## Verdict\n\n");
    if disagreements.is_empty() {
        md.push_str(
            "For all twelve datasets the paper's printed means and covariances follow from its \
             construction (to the two printed decimals).\n",
        );
    } else {
        md.push_str("The printed moments do not follow from the construction in:\n\n");
        for line in &disagreements {
            let _ = writeln!(md, "- {line}");
        }
        md.push('\n');
    }
    md
}

/// Sample mean and covariance (divisor n − 1) of the rows of `x`.
fn sample_moments(x: ArrayView2<'_, f64>) -> Moments {
    let n = x.nrows() as f64;
    let mean = x
        .mean_axis(Axis(0))
        .unwrap_or_else(|| Array1::zeros(x.ncols()));
    let centred = &x - &mean.view().insert_axis(Axis(0));
    let covariance = centred.t().dot(&centred) / (n - 1.0);
    Moments { mean, covariance }
}

fn flat(m: ArrayView2<'_, f64>) -> Array1<f64> {
    m.iter().copied().collect()
}

fn max_abs_diff(a: ArrayView1<'_, f64>, b: ArrayView1<'_, f64>) -> f64 {
    a.iter()
        .zip(b.iter())
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

fn fmt_vector(v: ArrayView1<'_, f64>) -> String {
    let parts: Vec<String> = v.iter().map(|x| format!("{x:.3}")).collect();
    format!("({})", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn class(gap: f64) -> Class {
        let moments = || Moments {
            mean: array![0.0, 1.0],
            covariance: array![[1.0, 0.25], [0.25, 2.0]],
        };
        Class {
            rows: 500,
            printed: moments(),
            construction: moments(),
            sample: Moments {
                mean: array![0.0125, 0.9875],
                covariance: array![[1.01, 0.2], [0.2, 1.9996]],
            },
            gap,
        }
    }

    #[test]
    fn a_class_shows_its_three_moments_and_whether_print_and_construction_agree() {
        let md = class_markdown(1, &class(0.0));
        assert!(
            md.starts_with(
                "Class y = 2 (500 rows): the printed moments agree with the construction.\n\n"
            ),
            "{md}"
        );
        assert!(
            md.contains("| μ | (0.000, 1.000) | (0.000, 1.000) | (0.013, 0.988) |\n"),
            "{md}"
        );
        assert!(
            md.contains("| Σ row 2 | (0.250, 2.000) | (0.250, 2.000) | (0.200, 2.000) |\n"),
            "{md}"
        );
        let md = class_markdown(0, &class(PRINT_TOLERANCE));
        assert!(
            md.contains("the printed moments **disagree** with the construction"),
            "{md}"
        );
    }

    #[test]
    fn the_verdict_lists_each_class_whose_print_disagrees() {
        let dataset = |name, gaps: [f64; 2]| Dataset {
            name,
            section: "3.2",
            figure: 1,
            classes: gaps.map(class),
        };
        let agreeing = [dataset("a", [0.0, 1e-3])];
        assert!(verdict_markdown(&agreeing).contains("For all twelve datasets"));
        let md = verdict_markdown(&[dataset("a", [0.0, 0.25]), dataset("b", [0.0125, 0.0])]);
        assert_eq!(
            md,
            "## Verdict\n\nThe printed moments do not follow from the construction in:\n\n\
             - a class y = 2: largest gap 0.2500\n- b class y = 1: largest gap 0.0125\n\n"
        );
    }
}
