//! `LabelledModel`: fits on the user's labels, and errors that speak of them.

use gendisc_core::{Classifier, Error, Fit, LabelledModel, Result, SavedModel};
use ndarray::{array, Array1, ArrayView1, ArrayView2};

/// Predicts class 1 for a positive first feature; its fit fails, naming class `empty`, when
/// asked to.
struct Threshold {
    empty: Option<usize>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct ThresholdModel;

impl SavedModel for ThresholdModel {
    const KIND: &'static str = "threshold";
    fn check_invariants(&self) -> Result<()> {
        Ok(())
    }
}

impl Fit for Threshold {
    type Model = ThresholdModel;
    fn fit(&self, _: ArrayView2<'_, f64>, _: ArrayView1<'_, usize>) -> Result<ThresholdModel> {
        match self.empty {
            Some(class) => Err(Error::EmptyClass {
                class,
                detail: None,
            }),
            None => Ok(ThresholdModel),
        }
    }
}

impl Classifier for ThresholdModel {
    fn n_features(&self) -> usize {
        2
    }
    fn n_classes(&self) -> usize {
        2
    }
    fn predict(&self, x: ArrayView2<'_, f64>) -> Result<Array1<usize>> {
        Ok(x.column(0).mapv(|v| usize::from(v > 0.0)))
    }
}

const FIT: Threshold = Threshold { empty: None };

#[test]
fn predictions_are_labels_in_sorted_class_order() {
    let x = array![[-1.0, 0.0], [1.0, 0.0]];
    let model = LabelledModel::fit(&FIT, x.view(), &["yes", "no"]).unwrap();
    assert_eq!(model.labels(), &["no", "yes"]);
    assert_eq!(
        model
            .predict(array![[2.0, 0.0], [-2.0, 0.0]].view())
            .unwrap(),
        vec!["yes", "no"]
    );
}

#[test]
fn a_single_label_is_too_few_classes_and_names_it() {
    let x = array![[-1.0, 0.0], [1.0, 0.0]];
    let err = LabelledModel::fit(&FIT, x.view(), &["spam", "spam"]).unwrap_err();
    assert!(
        matches!(&err, Error::TooFewClasses { found: 1, needed: 2, labels, .. } if labels.contains("spam")),
        "{err}"
    );
}

#[test]
fn an_empty_y_is_an_error_about_y() {
    let x = ndarray::Array2::<f64>::zeros((0, 2));
    let err = LabelledModel::fit(&FIT, x.view(), &[] as &[&str]).unwrap_err();
    assert!(
        matches!(&err, Error::Empty { what } if what == "y"),
        "{err}"
    );
}

#[test]
fn an_empty_class_error_names_its_label() {
    let x = array![[-1.0, 0.0], [1.0, 0.0]];
    let err =
        LabelledModel::fit(&Threshold { empty: Some(1) }, x.view(), &["ham", "spam"]).unwrap_err();
    assert!(
        matches!(&err, Error::EmptyClass { class: 1, detail: Some(d) } if d.contains("\"spam\"")),
        "{err}"
    );
}

#[test]
fn feature_names_must_match_the_features() {
    let x = array![[-1.0, 0.0], [1.0, 0.0]];
    let model = LabelledModel::fit(&FIT, x.view(), &["a", "b"]).unwrap();
    let err = model.with_feature_names(["u", "v", "w"]).unwrap_err();
    assert!(
        matches!(
            err,
            Error::ShapeMismatch {
                expected: 2,
                found: 3,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn a_model_fitted_on_str_labels_saves_and_loads_with_string_labels() {
    let x = array![[-1.0, 0.0], [1.0, 0.0]];
    let model = LabelledModel::fit(&FIT, x.view(), &["no", "yes"]).unwrap();
    let path = std::env::temp_dir().join(format!(
        "gendisc-core-str-labels-{}.json",
        std::process::id()
    ));
    model.save(&path).unwrap();
    let loaded = LabelledModel::<ThresholdModel, String>::load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(loaded.labels(), &["no".to_owned(), "yes".to_owned()]);
    let rows = array![[3.0, 0.0], [-3.0, 0.0]];
    assert_eq!(
        loaded.predict(rows.view()).unwrap(),
        model.predict(rows.view()).unwrap()
    );
}
