# Reference values for gendisc-metrics from R's stats package.
#
# Regenerate from this directory with
#     Rscript r_reference.R > r_reference.csv
#
# Values committed from R 4.2.2. Each line is `name,arguments,value`; arguments are separated
# by spaces. Values are printed with 17 significant digits so that they round-trip exactly
# through f64.

fmt <- function(v) sprintf("%.17g", v)
row <- function(name, args, value) {
  cat(name, ",", paste(fmt(args), collapse = " "), ",", fmt(value), "\n", sep = "")
}

cat("name,arguments,value\n")

# Student-t quantiles and distribution function. R computes both through TOMS 708's
# incomplete beta function for df <= 4e5, so only such df are used here. R's qt loses accuracy
# in the upper tail when df < 1: qt(0.9999, 0.5) is 1.6e-12 and qt(1 - 1e-10, 0.5) 1.7e-6 too
# large relative to a 50-digit computation. For df < 1 only lower-tail quantiles are taken
# from R; python_reference.py checks the upper tail against mpmath.
dfs <- c(0.5, 1, 2, 3, 4.5, 9, 10, 29, 30, 99, 399, 1e4, 1e5)
for (df in dfs) {
  for (p in c(1e-12, 0.001, 0.025, 0.1, 0.4, 0.6, 0.9, 0.975, 0.995, 1 - 1e-10)) {
    if (df >= 1 || p < 0.5) row("qt", c(p, df), qt(p, df))
  }
  for (t in c(-40, -3, -1.5, -0.2, 0, 0.7, 1.96, 2.5, 8, 300)) {
    row("pt", c(t, df), pt(t, df))
  }
}

# Standard normal.
for (p in c(1e-300, 1e-20, 1e-5, 0.025, 0.3, 0.5, 0.8, 0.975, 1 - 1e-12)) {
  row("qnorm", p, qnorm(p))
}
for (z in c(-37, -10, -3, -1, -0.1, 0, 0.5, 1.96, 5, 8)) {
  row("pnorm", z, pnorm(z))
}

# Sample statistics: type 7 quantiles, median, mean, sd and the t interval of t.test.
samples <- list(
  c(3.2, 1.5, 4.8, 2.2, 9.1),
  c(0.25, 0.1, 0.4, 0.3),
  c(-1, 7, 7, 7, 2, -3.5, 0.125, 11, 5, 5),
  c(0.1375, 0.1425, 0.14, 0.15, 0.1325, 0.145, 0.1475, 0.135, 0.1525, 0.1385, 0.141),
  c(42)
)
for (x in samples) {
  for (p in c(0, 0.1, 0.25, 1 / 3, 0.5, 0.75, 0.9, 1)) {
    row("quantile7", c(p, x), quantile(x, p, type = 7, names = FALSE))
  }
  row("median", x, median(x))
  row("mean", x, mean(x))
  if (length(x) >= 2) {
    row("sd", x, sd(x))
    ci <- t.test(x, conf.level = 0.95)$conf.int
    row("tci95_lower", x, ci[1])
    row("tci95_upper", x, ci[2])
    ci <- t.test(x, conf.level = 0.8)$conf.int
    row("tci80_lower", x, ci[1])
    row("tci80_upper", x, ci[2])
  }
}
