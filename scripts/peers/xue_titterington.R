# R peer check of the Xue–Titterington study: naive Bayes (e1071::naiveBayes) and linear
# logistic regression (glm, binomial) on the very datasets and training rows of a gendisc run,
# written by
#
#   cargo xtask reproduce xue-titterington --export-inputs DIR
#
# (format: docs/data-interchange.md). Writes per-replicate ER and LL in the long schema of
# gendisc's cells.csv (dataset, train_size, replicate, classifier, metric, value), so that
# scripts/peers/compare.py can join the two replicate by replicate.
#
# Usage: Rscript scripts/peers/xue_titterington.R DIR OUT.csv [REPLICATES] [PART]
#   REPLICATES (optional; "all" keeps every one) keeps only replicates 0 .. REPLICATES-1 of
#   every dataset and size.
#   PART (optional, I/N with 1 <= I <= N) keeps only the replicates r with r mod N = I - 1, so
#   that N processes share the replicates without overlap (scripts/peers/ also has the
#   scikit-learn peer, which takes the same arguments).
#
# The models, as the study fits them (crates/gendisc-studies/src/papers/xue_titterington):
# * naive Bayes: e1071::naiveBayes; normal datasets as numeric columns (Gaussian, per-class
#   mean and sd with the n - 1 divisor), Bernoulli datasets as factors with levels 0 and 1 and
#   laplace = 1, i.e. (count + 1) / (n_k + 2); the class prior is the training frequency.
#   Posteriors are e1071's type = "raw" ones, computed here for all test rows at once from the
#   fitted tables with predict.naiveBayes's own formula (predict.naiveBayes loops over rows in
#   R, which would take hours here); the first replicate that each process reads of every dataset
#   is also predicted by predict.naiveBayes itself and the two must agree to 1e-12. Once per
#   dataset, not per file: a call takes about 50 ms, and once per training size the 156 calls
#   were most of this script's time on a quick run's 20 replicates (cargo xtask bench-peers).
# * logistic regression: glm.fit with family = binomial() and glm's defaults (epsilon 1e-8,
#   maxit 25) — what glm(y ~ x1 + x2 + x3 + x4, family = binomial) runs. An aliased (NA)
#   coefficient counts as 0 in prediction, as predict.glm does. glm's warnings are recorded:
#   "fitted probabilities numerically 0 or 1 occurred" as the metric numerically-0-or-1 (the
#   study's flag of the same name), "algorithm did not converge" as glm-not-converged.
# * ER: test errors / test rows; the predicted class is the second (y = 1) when its posterior
#   is larger, ties to the first, as which.max.
# * LL: the sum over the test rows of -log p(y | x). For glm, p is predict(type = "response")'s:
#   R's inverse link clamps the linear predictor eta beyond +-30 to p = 1/(1 + eps) or
#   eps/(1 + eps) (eps = 2^-52), i.e. to eta = +-52 log 2; the loss is computed from that
#   clamped eta with plogis(..., log.p = TRUE), which is exact where 1 - p would lose digits.
#   For naive Bayes, p is e1071's posterior.

suppressPackageStartupMessages(library(e1071))

args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 2) {
  stop("usage: Rscript xue_titterington.R INPUTS_DIR OUT.csv [REPLICATES] [PART]")
}
inputs <- args[1]
out <- args[2]
keep <- if (length(args) >= 3 && args[3] != "all") as.integer(args[3]) else NA_integer_
part <- if (length(args) >= 4) as.integer(strsplit(args[4], "/", fixed = TRUE)[[1]]) else NULL
if (!is.null(part) && (length(part) != 2 || anyNA(part) || part[1] < 1 || part[1] > part[2])) {
  stop("PART must read I/N with 1 <= I <= N, not ", args[4])
}

clamp_eta <- function(eta) {
  bound <- 52 * log(2)
  ifelse(eta > 30, bound, ifelse(eta < -30, -bound, eta))
}

# predict.naiveBayes(model, x, type = "raw") for every row of x at once, by its formula:
# log prior counts plus the sum over features of log densities (sd <= eps replaced by the
# threshold, densities <= eps replaced by the threshold), then 1 / sum(exp(L - l)).
nb_posteriors <- function(model, x, threshold = 0.001, eps = 0) {
  n <- nrow(x)
  classes <- length(model$apriori)
  L <- matrix(0, n, classes)
  for (k in seq_len(classes)) {
    logs <- matrix(0, n, ncol(x))
    for (v in seq_along(model$tables)) {
      table <- model$tables[[v]]
      column <- x[[names(model$tables)[v]]]
      prob <- if (model$isnumeric[v]) {
        sd <- table[k, 2]
        if (sd <= eps) sd <- threshold
        dnorm(column, table[k, 1], sd)
      } else {
        table[k, as.integer(column)]
      }
      prob[prob <= eps] <- threshold
      logs[, v] <- log(prob)
    }
    L[, k] <- log(model$apriori[[k]]) + rowSums(logs)
  }
  posterior <- matrix(0, n, classes)
  for (k in seq_len(classes)) {
    posterior[, k] <- 1 / rowSums(exp(L - L[, k]))
  }
  posterior
}

# glm.fit on the training rows, with its warnings.
fit_glm <- function(x, y) {
  warnings <- character()
  fit <- withCallingHandlers(
    glm.fit(cbind(1, as.matrix(x)), y, family = binomial()),
    warning = function(w) {
      warnings <<- c(warnings, conditionMessage(w))
      invokeRestart("muffleWarning")
    }
  )
  beta <- fit$coefficients
  beta[is.na(beta)] <- 0
  list(
    beta = beta,
    saturated = any(grepl("numerically 0 or 1", warnings)),
    not_converged = any(grepl("did not converge", warnings)) || !fit$converged
  )
}

datasets <- sub("\\.csv$", "", list.files(file.path(inputs, "datasets"), pattern = "\\.csv$"))
if (length(datasets) == 0) stop("no datasets under ", file.path(inputs, "datasets"))

rows <- list()
started <- Sys.time()
for (dataset in datasets) {
  data <- read.csv(file.path(inputs, "datasets", paste0(dataset, ".csv")))
  features <- setdiff(names(data), "y")
  bernoulli <- startsWith(dataset, "bernoulli")
  x_nb <- data[features]
  if (bernoulli) {
    for (f in features) x_nb[[f]] <- factor(x_nb[[f]], levels = c(0, 1))
  }
  y <- data$y
  n <- nrow(data)
  split_dir <- file.path(inputs, "splits", dataset)
  sizes <- sort(as.integer(sub("^train-(\\d+)\\.csv$", "\\1",
                               list.files(split_dir, pattern = "^train-\\d+\\.csv$"))))
  checked <- FALSE
  for (m in sizes) {
    splits <- as.matrix(read.csv(file.path(split_dir, paste0("train-", m, ".csv"))))
    if (!is.na(keep)) splits <- splits[splits[, 1] < keep, , drop = FALSE]
    if (!is.null(part)) splits <- splits[splits[, 1] %% part[2] == part[1] - 1, , drop = FALSE]
    count <- nrow(splits)
    values <- matrix(NA_real_, count, 6)
    for (i in seq_len(count)) {
      train <- splits[i, -1] + 1
      test <- setdiff(seq_len(n), train)
      y_test <- y[test]

      nb <- naiveBayes(x_nb[train, , drop = FALSE], factor(y[train], levels = c(0, 1)),
                       laplace = 1)
      posterior <- nb_posteriors(nb, x_nb[test, , drop = FALSE])
      if (!checked) {
        checked <- TRUE
        reference <- predict(nb, x_nb[test, , drop = FALSE], type = "raw")
        gap <- max(abs(reference - posterior))
        if (!(gap <= 1e-12)) {
          stop(sprintf("%s m = %d: the vectorised posteriors differ from predict.naiveBayes by %g",
                       dataset, m, gap))
        }
      }
      nb_pred <- as.integer(posterior[, 2] > posterior[, 1])
      nb_er <- sum(nb_pred != y_test) / length(test)
      nb_ll <- -sum(log(ifelse(y_test == 1, posterior[, 2], posterior[, 1])))

      lr <- fit_glm(data[train, features], y[train])
      eta <- drop(cbind(1, as.matrix(data[test, features])) %*% lr$beta)
      eta <- clamp_eta(eta)
      lr_er <- sum(as.integer(eta > 0) != y_test) / length(test)
      lr_ll <- -sum(plogis(ifelse(y_test == 1, eta, -eta), log.p = TRUE))

      values[i, ] <- c(nb_er, nb_ll, lr_er, lr_ll, lr$saturated, lr$not_converged)
    }
    replicate <- splits[, 1]
    long <- function(classifier, metric, column) {
      data.frame(dataset = dataset, train_size = m, replicate = replicate,
                 classifier = classifier, metric = metric, value = values[, column])
    }
    rows[[length(rows) + 1]] <- rbind(
      long("naive-bayes", "er", 1), long("naive-bayes", "ll", 2),
      long("logistic-regression", "er", 3), long("logistic-regression", "ll", 4),
      long("logistic-regression", "numerically-0-or-1", 5),
      long("logistic-regression", "glm-not-converged", 6)
    )
  }
  message(sprintf("%s: %d sizes done (%.0f s so far)", dataset, length(sizes),
                  as.numeric(difftime(Sys.time(), started, units = "secs"))))
}
result <- do.call(rbind, rows)
result$value <- sprintf("%.17g", result$value)
write.csv(result, out, row.names = FALSE, quote = FALSE)
message(sprintf("wrote %d rows to %s", nrow(result), out))
