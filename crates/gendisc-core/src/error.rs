//! The error type shared by every gendisc crate.
//!
//! Each variant says *what* was wrong and *where* (argument, row, column), so that a user can
//! find the offending value without a debugger. Model crates wrap or reuse these variants; none
//! of them panics on bad input.

use std::path::PathBuf;

/// Result alias used throughout gendisc.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong when validating input, fitting or evaluating a model.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Two arrays that must agree in one dimension do not.
    #[error("shape mismatch in {what}: expected {expected}, found {found}")]
    ShapeMismatch {
        /// Which dimension of which argument, e.g. "rows of y vs rows of x".
        what: String,
        /// The size that was required.
        expected: usize,
        /// The size that was given.
        found: usize,
    },

    /// An input that must not be empty is.
    #[error("{what} is empty")]
    Empty {
        /// The argument that was empty.
        what: String,
    },

    /// A NaN or infinite value where a finite number is required.
    #[error("non-finite value {value} in {what} at row {row}, column {column}")]
    NonFinite {
        /// The argument that holds the value.
        what: String,
        /// Row index (0-based).
        row: usize,
        /// Column index (0-based; 0 for vectors).
        column: usize,
        /// The offending value.
        value: f64,
    },

    /// A value that is finite but outside the domain the model accepts (a non-binary value given
    /// to a Bernoulli model, a negative count given to a multinomial model, a negative weight…).
    #[error("invalid value {value} in {what} at row {row}, column {column}: {reason}")]
    InvalidValue {
        /// The argument that holds the value.
        what: String,
        /// Row index (0-based).
        row: usize,
        /// Column index (0-based; 0 for vectors).
        column: usize,
        /// The offending value.
        value: f64,
        /// Why it is not accepted.
        reason: String,
    },

    /// A class label outside `0..n_classes`.
    #[error("label {label} at row {row} is out of range: expected a class in 0..{n_classes}")]
    LabelOutOfRange {
        /// Row index (0-based).
        row: usize,
        /// The offending label.
        label: usize,
        /// Number of classes of the model.
        n_classes: usize,
    },

    /// A user label that a fitted [`ClassLabels`](crate::ClassLabels) has never seen.
    #[error("unknown class label {label} at position {position}")]
    UnknownLabel {
        /// Position in the label sequence (0-based).
        position: usize,
        /// The label, formatted with `Debug`.
        label: String,
    },

    /// A class has no (or zero-weight) training rows, so its parameters cannot be estimated.
    #[error("class {class} has no training rows{}", .detail.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    EmptyClass {
        /// The class index (0-based).
        class: usize,
        /// Extra context, e.g. which model needed it.
        detail: Option<String>,
    },

    /// Fewer rows than the estimator needs.
    #[error("{what} needs at least {needed} rows, found {found}")]
    TooFewRows {
        /// What needed them.
        what: String,
        /// Minimum number of rows.
        needed: usize,
        /// Number of rows given.
        found: usize,
    },

    /// A hyper-parameter outside its valid range.
    #[error("invalid parameter `{name}`: {reason}")]
    InvalidParameter {
        /// Name of the parameter as in the params struct.
        name: &'static str,
        /// What is required of it.
        reason: String,
    },

    /// A matrix that must be symmetric positive definite is not (or is numerically singular).
    #[error("{what} is not positive definite{}", .detail.as_deref().map(|d| format!(": {d}")).unwrap_or_default())]
    NotPositiveDefinite {
        /// Which matrix.
        what: String,
        /// Extra context, e.g. the failing pivot.
        detail: Option<String>,
        /// For a covariance or cross-product of the input columns: the 0-based positions of the
        /// columns that make it singular (constant ones, or a linearly dependent set), when
        /// they were found; empty otherwise. A caller that knows the columns' names can name
        /// them.
        columns: Vec<usize>,
    },

    /// A failure inside a linear-algebra backend that is not one of the cases above.
    #[error("linear algebra failure in {what}: {detail}")]
    Linalg {
        /// Which operation.
        what: String,
        /// The backend's message.
        detail: String,
    },

    /// An iterative method stopped without meeting its convergence criterion where the caller
    /// asked for convergence to be an error.
    #[error("{what} did not converge after {iterations} iterations ({detail})")]
    NotConverged {
        /// The method.
        what: String,
        /// Iterations performed.
        iterations: usize,
        /// The last residual, gradient norm or other measure of progress.
        detail: String,
    },

    /// An optimisation problem has no feasible point (e.g. a hard-margin SVM on non-separable
    /// data).
    #[error("{what} is infeasible: {detail}")]
    Infeasible {
        /// The problem.
        what: String,
        /// Certificate or residuals.
        detail: String,
    },

    /// A method that needs exactly two classes was called on a model with another number.
    #[error("{what} is defined for two classes only; the model has {n_classes}")]
    NotBinary {
        /// The method.
        what: String,
        /// The model's number of classes.
        n_classes: usize,
    },

    /// A computation produced NaN or an infinity from finite input (a numerical breakdown, not
    /// bad input).
    #[error("numerical failure in {what}: {detail}")]
    Numerical {
        /// Where it happened.
        what: String,
        /// What was seen.
        detail: String,
    },

    /// A malformed input file. Lines and columns are 1-based, as editors show them.
    #[error("{}:{line}:{column}: {message}", .path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Line number (1-based).
        line: usize,
        /// Column or field number (1-based).
        column: usize,
        /// What was wrong.
        message: String,
    },

    /// A fitted model whose parameters break an invariant its fit guarantees (shapes that
    /// disagree, a negative variance, probabilities that do not sum to 1…): what reading a model
    /// file finds in a corrupted or hand-edited file.
    #[error("invalid {kind} model: `{field}`: {reason}")]
    InvalidModel {
        /// The model's kind, as in its model file.
        kind: String,
        /// The offending field, e.g. `"variances"` or `"labels"`.
        field: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A model file that was read but holds no valid model; `source` says why (usually an
    /// [`Error::InvalidModel`] naming the field).
    #[error("{}: {source}", .path.display())]
    InvalidModelFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with its contents.
        #[source]
        source: Box<Error>,
    },

    /// Fewer distinct class labels than a classifier needs.
    #[error("{what} needs at least {needed} distinct class labels; y holds {found}: {labels}")]
    TooFewClasses {
        /// What needed them.
        what: String,
        /// Classes needed.
        needed: usize,
        /// Classes found.
        found: usize,
        /// The labels found, formatted with `Debug`.
        labels: String,
    },

    /// An I/O failure, with the path it concerned.
    #[error("I/O error on {}: {source}", .path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// Shorthand for [`Error::InvalidParameter`].
    pub fn invalid_parameter(name: &'static str, reason: impl Into<String>) -> Self {
        Error::InvalidParameter {
            name,
            reason: reason.into(),
        }
    }

    /// Shorthand for [`Error::ShapeMismatch`].
    pub fn shape_mismatch(what: impl Into<String>, expected: usize, found: usize) -> Self {
        Error::ShapeMismatch {
            what: what.into(),
            expected,
            found,
        }
    }
}
