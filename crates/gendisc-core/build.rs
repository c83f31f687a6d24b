//! With the `lapack` feature, links the system's OpenBLAS, which carries LAPACK: `ndarray-linalg`
//! is built without a backend of its own, so its LAPACK symbols come from here.

fn main() {
    #[cfg(feature = "lapack")]
    link_openblas();
}

/// Links OpenBLAS as pkg-config describes it (Debian's `libopenblas-dev` lives in a directory of
/// its own), or plainly by name where no pkg-config file is installed.
#[cfg(feature = "lapack")]
fn link_openblas() {
    if let Err(error) = pkg_config::Config::new().probe("openblas") {
        println!("cargo:warning=pkg-config found no openblas ({error}); linking -lopenblas");
        println!("cargo:rustc-link-lib=openblas");
    }
}
