//! SVG figures: content, determinism, every style, and every bad input.

use crate::common::TempDir;
use gendisc_core::Error;
use gendisc_engine::figure::{
    ErrorDisplay, Figure, LineStyle, Marker, Panel, Point, ReferenceLine, Scale, Series,
};
use gendisc_engine::StudyError;

/// The text of every `<text>` element, trimmed.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .map(|rest| {
            let body = &rest[rest.find('>').unwrap() + 1..rest.find("</text>").unwrap()];
            body.trim().to_string()
        })
        .collect()
}

fn curve(ys: &[f64]) -> Vec<Point> {
    ys.iter()
        .enumerate()
        .map(|(i, &y)| Point::with_error(100.0 * (i + 1) as f64, y, y - 0.02, y + 0.03))
        .collect()
}

/// Two rows of two panels exercising every style.
fn figure() -> Figure {
    let nb = |ys: &[f64]| {
        Series::new("naive Bayes", curve(ys))
            .marker(Marker::Circle)
            .errors(ErrorDisplay::Band)
    };
    let lr = |ys: &[f64]| {
        Series::new("logistic regression", curve(ys))
            .line(LineStyle::Dashed)
            .marker(Marker::Square)
    };
    Figure::new(2, 2)
        .title("Figure 1: error rates")
        .panel_size(320, 240)
        .panel(
            Panel::new("normal, equal covariances")
                .x_label("training size m")
                .y_label("median error rate")
                .series(nb(&[0.30, 0.26, 0.25]))
                .series(lr(&[0.35, 0.27, 0.22]))
                .reference_line(ReferenceLine::new(0.2).label("Bayes error")),
        )
        .panel(
            Panel::new("Bernoulli")
                .series(nb(&[0.2, 0.18, 0.17]))
                .series(
                    Series::new("hybrid", curve(&[0.25, 0.2, 0.15]))
                        .line(LineStyle::Dotted)
                        .marker(Marker::Triangle),
                ),
        )
        .panel(
            Panel::new("log axes")
                .x_scale(Scale::Log)
                .y_scale(Scale::Log)
                .series(
                    Series::new(
                        "markers only",
                        [Point::new(1.0, 1e-3), Point::new(1e3, 1.0)],
                    )
                    .line(LineStyle::Hidden)
                    .marker(Marker::Cross),
                ),
        )
        .panel(
            Panel::new("fixed ranges")
                .x_range(0.0, 500.0)
                .y_range(0.0, 1.0)
                .series(lr(&[0.5, 0.4, 0.3]))
                .reference_line(ReferenceLine::new(0.5).line(LineStyle::Solid)),
        )
}

#[test]
fn the_svg_holds_titles_labels_and_one_legend_entry_per_series_name() {
    let svg = figure().render_svg().unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let texts = texts(&svg);
    for expected in [
        "Figure 1: error rates",
        "normal, equal covariances",
        "Bernoulli",
        "log axes",
        "fixed ranges",
        "training size m",
        "median error rate",
        "Bayes error",
    ] {
        assert!(texts.iter().any(|t| t == expected), "{expected} missing");
    }
    // Series names appear only in the legend: once each, though some are in two panels.
    for name in [
        "naive Bayes",
        "logistic regression",
        "hybrid",
        "markers only",
    ] {
        assert_eq!(texts.iter().filter(|t| *t == name).count(), 1, "{name}");
    }
    // Tick labels are clean numbers.
    assert!(texts.iter().any(|t| t == "200"));
    assert!(texts.iter().all(|t| !t.contains("0000000")), "{texts:?}");
    // The band is a translucent polygon.
    assert!(svg.contains("<polygon"));
}

#[test]
fn the_same_figure_gives_the_same_bytes() {
    let first = figure().render_svg().unwrap();
    let second = figure().render_svg().unwrap();
    assert_eq!(first, second);
    let dir = TempDir::new("figure");
    let path = dir.join("nested/figure.svg");
    figure().write_svg(&path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), first);
    // A different series changes the output.
    let other = figure().panel_size(320, 241).render_svg().unwrap();
    assert_ne!(other, first);
}

#[test]
fn dashed_lines_are_drawn_in_pieces() {
    let polylines = |line: LineStyle| {
        let svg = Figure::new(1, 1)
            .panel(
                Panel::new("p").series(
                    Series::new(
                        "s",
                        (0..20).map(|i| Point::new(f64::from(i), f64::from(i % 3))),
                    )
                    .line(line),
                ),
            )
            .render_svg()
            .unwrap();
        svg.matches("<polyline").count()
    };
    let solid = polylines(LineStyle::Solid);
    assert!(polylines(LineStyle::Dashed) > solid + 10);
    assert!(polylines(LineStyle::Dotted) > polylines(LineStyle::Dashed));
    assert!(polylines(LineStyle::Hidden) < solid);
}

#[test]
fn a_long_legend_wraps_and_the_figure_grows() {
    let height = |n: usize| {
        let mut panel = Panel::new("p");
        for k in 0..n {
            panel = panel.series(Series::new(
                format!("a rather long series name number {k}"),
                [Point::new(0.0, k as f64), Point::new(1.0, k as f64)],
            ));
        }
        let svg = Figure::new(1, 1).panel(panel).render_svg().unwrap();
        let start = svg.find("height=\"").unwrap() + 8;
        svg[start..start + svg[start..].find('"').unwrap()]
            .parse::<u32>()
            .unwrap()
    };
    assert!(height(1) < height(4));
}

fn render_error(figure: Figure) -> StudyError {
    figure.render_svg().unwrap_err()
}

fn one_panel(panel: Panel) -> Figure {
    Figure::new(1, 1).panel(panel)
}

fn line(points: &[(f64, f64)]) -> Series {
    Series::new("s", points.iter().map(|&(x, y)| Point::new(x, y)))
}

#[test]
fn bad_figures_are_typed_errors() {
    let ok = || Panel::new("p").series(line(&[(1.0, 1.0), (2.0, 2.0)]));
    let parameter = |figure: Figure| match render_error(figure) {
        StudyError::Core(Error::InvalidParameter { name, reason }) => (name, reason),
        other => panic!("expected InvalidParameter, got {other}"),
    };

    assert_eq!(parameter(Figure::new(0, 2)).0, "rows");
    assert_eq!(
        parameter(Figure::new(1, 1).panel(ok()).panel(ok())).0,
        "panels"
    );
    assert_eq!(
        parameter(Figure::new(1, 1).panel_size(100, 300).panel(ok())).0,
        "panel_size"
    );
    assert_eq!(
        parameter(one_panel(
            Panel::new("p").series(Series::new("", [Point::new(1.0, 1.0)]))
        ))
        .0,
        "series"
    );
    let (name, reason) = parameter(one_panel(
        Panel::new("p").series(Series::new("s", [Point::with_error(1.0, 1.0, 2.0, 0.5)])),
    ));
    assert_eq!(name, "error");
    assert!(reason.contains("point 0"), "{reason}");
    let (name, reason) = parameter(one_panel(
        ok().y_scale(Scale::Log).series(line(&[(1.0, 0.0)])),
    ));
    assert_eq!(name, "y_range");
    assert!(reason.contains("logarithmic"), "{reason}");
    assert_eq!(
        parameter(one_panel(ok().x_scale(Scale::Log).x_range(0.0, 10.0))).0,
        "x_range"
    );
    let (name, reason) = parameter(one_panel(ok().y_range(0.0, 1.5)));
    assert_eq!(name, "y_range");
    assert!(reason.contains("outside"), "{reason}");
    assert_eq!(parameter(one_panel(ok().x_range(2.0, 2.0))).0, "x_range");
    assert_eq!(
        parameter(one_panel(ok().x_range(f64::NAN, 2.0))).0,
        "x_range"
    );
    assert_eq!(parameter(one_panel(Panel::new("empty"))).0, "x_range");
    // Reference lines alone need an x range, and are enough for the y range.
    assert!(one_panel(
        Panel::new("reference only")
            .x_range(0.0, 1.0)
            .reference_line(ReferenceLine::new(0.5))
    )
    .render_svg()
    .is_ok());

    let non_finite = |panel: Panel| match render_error(one_panel(panel)) {
        StudyError::Core(Error::NonFinite {
            what, row, column, ..
        }) => (what, row, column),
        other => panic!("expected NonFinite, got {other}"),
    };
    let (what, row, column) =
        non_finite(Panel::new("p").series(line(&[(1.0, 1.0), (2.0, f64::NAN)])));
    assert!(what.contains("series `s`"), "{what}");
    assert_eq!((row, column), (1, 1));
    let (_, row, column) = non_finite(Panel::new("p").series(Series::new(
        "s",
        [Point::with_error(1.0, 1.0, 0.0, f64::INFINITY)],
    )));
    assert_eq!((row, column), (0, 3));
    let (what, row, _) = non_finite(ok().reference_line(ReferenceLine::new(f64::NEG_INFINITY)));
    assert!(what.contains("reference"), "{what}");
    assert_eq!(row, 0);
}

#[test]
fn degenerate_data_still_gets_a_visible_range() {
    // A single point gets a ±10% window (or ±0.1 around zero) with ticks around it.
    let svg = one_panel(Panel::new("single").series(line(&[(3.0, 0.0)])))
        .render_svg()
        .unwrap();
    let labels = texts(&svg);
    assert!(labels.iter().any(|t| t == "3"), "{labels:?}");
    assert!(labels.iter().any(|t| t == "0"), "{labels:?}");
    // A flat line on a log axis.
    assert!(one_panel(
        Panel::new("flat log")
            .y_scale(Scale::Log)
            .series(line(&[(1.0, 5.0), (2.0, 5.0)]))
    )
    .render_svg()
    .is_ok());
}
