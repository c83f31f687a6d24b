//! The paper reproductions, one module per paper. Everything specific to a paper — its design,
//! its datasets' roles, the claims it makes and how our results are judged against them —
//! lives here, never in the model crates.

pub mod bouchard_triggs;
pub mod ng_jordan;
pub mod raina;
pub mod xue_titterington;
