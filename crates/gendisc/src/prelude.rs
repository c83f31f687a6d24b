//! Everything a typical program needs, in one line: `use gendisc::prelude::*;`.
//!
//! The traits that give models their methods (a method of a trait not in scope is not found),
//! the labelled model and its errors, ndarray's array types and macro, and the most used
//! estimators of the enabled features. Specialised items stay in their crates' modules
//! (`gendisc::generative::…`, `gendisc::gdt::…`).
//!
//! ```
//! use gendisc::prelude::*;
//!
//! let x = array![[0.0, 1.0], [0.2, 0.9], [3.0, 4.0], [3.1, 4.2]];
//! let y = ["ham", "ham", "spam", "spam"];
//! let model = LabelledModel::fit(&GaussianNb::params(), x.view(), &y).unwrap();
//! assert_eq!(model.predict(array![[3.0, 4.1]].view()).unwrap(), vec!["spam"]);
//! ```

pub use gendisc_core::{
    ClassLabels, Classifier, ConditionalModel, Convergence, Error, FactorisedGenerative, Fit,
    FitWeighted, Generative, LabelledModel, ParamGuard, Result, SavedModel,
};
pub use ndarray::{array, Array1, Array2, ArrayView1, ArrayView2, Axis};

#[cfg(feature = "discriminative")]
pub use gendisc_discriminative::{LinearSvm, LogisticRegression};
#[cfg(feature = "gdt")]
pub use gendisc_gdt::{Family, Gdt, GdtCv};
#[cfg(feature = "generative")]
pub use gendisc_generative::{
    BernoulliNb, CategoricalNb, GaussianNb, Lda, LdaSvd, MultinomialNb, Qda,
};
#[cfg(feature = "hybrid")]
pub use gendisc_hybrid::Hybrid;
