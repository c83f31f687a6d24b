//! SVG figures: a grid of x–y line-chart panels with one shared legend, drawn with plotters'
//! SVG backend.
//!
//! A [`Figure`] is plain data — panels of named [`Series`] of [`Point`]s, optional error bars or
//! bands, optional horizontal [`ReferenceLine`]s — validated and rendered in one call. Text
//! (titles, axis labels, tick labels, legend) is written as SVG `<text>` elements and laid out
//! by whatever displays the file, so no font library is involved; the same figure always gives
//! the same bytes.
//!
//! Series are matched across panels **by name**: a name gets one colour everywhere (from a
//! fixed colour-blind-safe palette, in order of first appearance) and one legend entry, drawn
//! with the line and marker style of its first appearance.
//!
//! ```
//! use gendisc_engine::figure::{Figure, LineStyle, Marker, Panel, Point, ReferenceLine, Series};
//!
//! let curve = |name: &str, ys: [f64; 3]| {
//!     Series::new(name, [100.0, 200.0, 300.0].iter().zip(ys).map(|(&x, y)| Point::new(x, y)))
//! };
//! let figure = Figure::new(1, 2)
//!     .title("Test error")
//!     .panel(
//!         Panel::new("normal")
//!             .x_label("training size m")
//!             .y_label("error rate")
//!             .series(curve("naive Bayes", [0.30, 0.25, 0.24]).marker(Marker::Circle))
//!             .series(curve("logistic", [0.35, 0.24, 0.20]).line(LineStyle::Dashed))
//!             .reference_line(ReferenceLine::new(0.18).label("Bayes error")),
//!     )
//!     .panel(Panel::new("Bernoulli").series(curve("naive Bayes", [0.2, 0.19, 0.18])));
//! let svg = figure.render_svg()?;
//! assert!(svg.starts_with("<svg") && svg.contains("naive Bayes") && svg.contains("Bayes error"));
//! # Ok::<(), gendisc_engine::StudyError>(())
//! ```

use std::path::Path;

use gendisc_core::Error;
use plotters::coord::combinators::{BindKeyPoints, IntoLogRange};
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::{Result, StudyError};
use crate::store::write_atomically;
use crate::tables::format_float;

/// One point of a series: `(x, y)` with an optional error interval `[lower, upper]` on `y`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Abscissa.
    pub x: f64,
    /// Ordinate.
    pub y: f64,
    /// Error interval `(lower, upper)` of `y`, drawn as a bar or a band.
    pub error: Option<(f64, f64)>,
}

impl Point {
    /// A point without error interval.
    pub fn new(x: f64, y: f64) -> Self {
        Self { x, y, error: None }
    }

    /// A point with error interval `[lower, upper]`.
    pub fn with_error(x: f64, y: f64, lower: f64, upper: f64) -> Self {
        Self {
            x,
            y,
            error: Some((lower, upper)),
        }
    }
}

/// How a line is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LineStyle {
    /// Solid (the default).
    #[default]
    Solid,
    /// Long dashes.
    Dashed,
    /// Short dashes.
    Dotted,
    /// No line: markers only.
    Hidden,
}

/// A marker drawn at every point of a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// Filled circle.
    Circle,
    /// Filled square.
    Square,
    /// Filled triangle.
    Triangle,
    /// Cross.
    Cross,
}

/// How the error intervals of a series are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ErrorDisplay {
    /// A vertical bar with caps at every point (the default).
    #[default]
    Bars,
    /// A translucent band between the lower and upper ends, joined point to point.
    Band,
}

/// The scale of an axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scale {
    /// Linear (the default).
    #[default]
    Linear,
    /// Base-10 logarithmic; every value on the axis must be positive.
    Log,
}

/// A named line of points.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The name shown in the legend; series of the same name share a colour across panels.
    pub name: String,
    /// The points, joined in this order.
    pub points: Vec<Point>,
    /// The line style; default [`LineStyle::Solid`].
    pub line: LineStyle,
    /// The marker, if any; default none.
    pub marker: Option<Marker>,
    /// How error intervals are drawn; default [`ErrorDisplay::Bars`].
    pub errors: ErrorDisplay,
}

impl Series {
    /// A solid line without markers through `points`.
    pub fn new(name: impl Into<String>, points: impl IntoIterator<Item = Point>) -> Self {
        Self {
            name: name.into(),
            points: points.into_iter().collect(),
            line: LineStyle::Solid,
            marker: None,
            errors: ErrorDisplay::Bars,
        }
    }

    /// Sets the line style.
    pub fn line(mut self, line: LineStyle) -> Self {
        self.line = line;
        self
    }

    /// Sets the marker.
    pub fn marker(mut self, marker: Marker) -> Self {
        self.marker = Some(marker);
        self
    }

    /// Sets how error intervals are drawn.
    pub fn errors(mut self, errors: ErrorDisplay) -> Self {
        self.errors = errors;
        self
    }
}

/// A horizontal line across a panel at a fixed `y` (a Bayes error, a chance level…).
#[derive(Debug, Clone, PartialEq)]
pub struct ReferenceLine {
    /// Its height.
    pub y: f64,
    /// A label written above its right end.
    pub label: Option<String>,
    /// Its style; default [`LineStyle::Dashed`].
    pub line: LineStyle,
}

impl ReferenceLine {
    /// A dashed grey line at `y` without label.
    pub fn new(y: f64) -> Self {
        Self {
            y,
            label: None,
            line: LineStyle::Dashed,
        }
    }

    /// Sets the label.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Sets the line style.
    pub fn line(mut self, line: LineStyle) -> Self {
        self.line = line;
        self
    }
}

/// One x–y chart of a figure.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Panel {
    /// Title above the chart.
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// The series, drawn in this order.
    pub series: Vec<Series>,
    /// Horizontal reference lines.
    pub reference_lines: Vec<ReferenceLine>,
    /// The x range; `None` (the default) fits the data with a 5% margin.
    pub x_range: Option<(f64, f64)>,
    /// The y range; `None` (the default) fits data, error intervals and reference lines with a
    /// 5% margin.
    pub y_range: Option<(f64, f64)>,
    /// Scale of the x axis.
    pub x_scale: Scale,
    /// Scale of the y axis.
    pub y_scale: Scale,
}

impl Panel {
    /// An empty panel with a title.
    pub fn new(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            ..Self::default()
        }
    }

    /// Sets the x-axis label.
    pub fn x_label(mut self, label: impl Into<String>) -> Self {
        self.x_label = label.into();
        self
    }

    /// Sets the y-axis label.
    pub fn y_label(mut self, label: impl Into<String>) -> Self {
        self.y_label = label.into();
        self
    }

    /// Adds a series.
    pub fn series(mut self, series: Series) -> Self {
        self.series.push(series);
        self
    }

    /// Adds a reference line.
    pub fn reference_line(mut self, line: ReferenceLine) -> Self {
        self.reference_lines.push(line);
        self
    }

    /// Fixes the x range; it must contain every point.
    pub fn x_range(mut self, lower: f64, upper: f64) -> Self {
        self.x_range = Some((lower, upper));
        self
    }

    /// Fixes the y range; it must contain every point, error interval and reference line.
    pub fn y_range(mut self, lower: f64, upper: f64) -> Self {
        self.y_range = Some((lower, upper));
        self
    }

    /// Sets the x-axis scale.
    pub fn x_scale(mut self, scale: Scale) -> Self {
        self.x_scale = scale;
        self
    }

    /// Sets the y-axis scale.
    pub fn y_scale(mut self, scale: Scale) -> Self {
        self.y_scale = scale;
        self
    }
}

/// A `rows × columns` grid of panels with an optional title and one legend below the grid.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    rows: usize,
    columns: usize,
    title: Option<String>,
    panel_size: (u32, u32),
    panels: Vec<Panel>,
}

/// Okabe & Ito's colour-blind-safe palette (Okabe & Ito 2008, "Color Universal Design"), with
/// black moved last and the yellow, hard to see on white, left out.
const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(230, 159, 0),   // orange
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(0, 0, 0),       // black
];
const REFERENCE_COLOUR: RGBColor = RGBColor(110, 110, 110);
const FONT: &str = "sans-serif";
// Font sizes in plotters' units: the SVG `font-size` is the size divided by 1.24.
const TITLE_SIZE: u32 = 22;
const PANEL_TITLE_SIZE: u32 = 18;
const LABEL_SIZE: u32 = 16;
const TICK_SIZE: u32 = 14;
const LEGEND_SIZE: u32 = 16;
const LEGEND_ROW_HEIGHT: u32 = 24;
const LEGEND_SAMPLE_WIDTH: u32 = 32;
/// Space between the legend's line sample and its text, and after the text.
const LEGEND_GAP: u32 = 8;
const LEGEND_SPACING: u32 = 24;
const MARKER_SIZE: i32 = 4;
const ERROR_CAP: i32 = 4;

/// One legend entry: a distinct series name with the style of its first appearance.
struct LegendEntry<'a> {
    name: &'a str,
    colour: RGBColor,
    line: LineStyle,
    marker: Option<Marker>,
}

impl Figure {
    /// An empty `rows × columns` grid with panels of 400 × 300 pixels.
    pub fn new(rows: usize, columns: usize) -> Self {
        Self {
            rows,
            columns,
            title: None,
            panel_size: (400, 300),
            panels: Vec::new(),
        }
    }

    /// Sets the figure's title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the size of each panel in pixels (at least 160 × 120).
    pub fn panel_size(mut self, width: u32, height: u32) -> Self {
        self.panel_size = (width, height);
        self
    }

    /// Adds the next panel, filling the grid row by row.
    pub fn panel(mut self, panel: Panel) -> Self {
        self.panels.push(panel);
        self
    }

    /// The panels, row by row.
    pub fn panels(&self) -> &[Panel] {
        &self.panels
    }

    /// Renders the figure as an SVG document.
    ///
    /// Fails with [`Error::InvalidParameter`] for an empty grid, more panels than grid cells,
    /// panels smaller than 160 × 120 pixels, an empty series name, an error interval with
    /// `lower > upper`, a range that is empty or does not contain the data, a non-positive value
    /// on a log axis, or a panel with nothing to fit its ranges to; with [`Error::NonFinite`]
    /// (row = point, column = 0 for x, 1 for y, 2 and 3 for the error interval) for a NaN or
    /// infinite coordinate.
    pub fn render_svg(&self) -> Result<String> {
        self.validate()?;
        let legend = self.legend_entries();
        let (panel_width, panel_height) = self.panel_size;
        let width = panel_width * self.columns as u32;
        let legend_rows = legend_layout(&legend, width).last().map_or(0, |e| e.1 + 1);
        let legend_height = if legend.is_empty() {
            0
        } else {
            legend_rows * LEGEND_ROW_HEIGHT + 12
        };
        let title_height = if self.title.is_some() { 36 } else { 0 };
        let height = title_height + panel_height * self.rows as u32 + legend_height;

        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
            let plot = |error: String| StudyError::Plot {
                what: self.title.clone().unwrap_or_else(|| "a figure".into()),
                detail: error,
            };
            root.fill(&WHITE).map_err(|e| plot(e.to_string()))?;
            let body = match &self.title {
                Some(title) => root
                    .titled(title, (FONT, TITLE_SIZE))
                    .map_err(|e| plot(e.to_string()))?,
                None => root.clone(),
            };
            let grid_height = (panel_height * self.rows as u32) as i32;
            let (grid, legend_area) = body.split_vertically(grid_height);
            let cells = grid.split_evenly((self.rows, self.columns));
            for (p, (panel, area)) in self.panels.iter().zip(&cells).enumerate() {
                draw_panel(area, panel, &legend).map_err(|detail| StudyError::Plot {
                    what: format!("panel {p} (`{}`)", panel.title),
                    detail,
                })?;
            }
            draw_legend(&legend_area, &legend, width).map_err(plot)?;
            root.present().map_err(|e| plot(e.to_string()))?;
        }
        Ok(svg)
    }

    /// Renders the figure and writes it to `path` (through a temporary file and a rename,
    /// creating the directory if needed).
    pub fn write_svg(&self, path: impl AsRef<Path>) -> Result<()> {
        let svg = self.render_svg()?;
        write_atomically(path.as_ref(), svg.as_bytes())
    }

    fn validate(&self) -> Result<()> {
        if self.rows == 0 || self.columns == 0 {
            return Err(invalid(
                "rows",
                format!("a {} × {} grid has no cell", self.rows, self.columns),
            ));
        }
        if self.panels.len() > self.rows * self.columns {
            return Err(invalid(
                "panels",
                format!(
                    "{} panels do not fit a {} × {} grid",
                    self.panels.len(),
                    self.rows,
                    self.columns
                ),
            ));
        }
        if self.panel_size.0 < 160 || self.panel_size.1 < 120 {
            return Err(invalid(
                "panel_size",
                format!(
                    "panels of {} × {} pixels are too small for axes and labels; at least \
                     160 × 120 are needed",
                    self.panel_size.0, self.panel_size.1
                ),
            ));
        }
        for (p, panel) in self.panels.iter().enumerate() {
            validate_panel(p, panel)?;
        }
        Ok(())
    }

    fn legend_entries(&self) -> Vec<LegendEntry<'_>> {
        let mut entries: Vec<LegendEntry<'_>> = Vec::new();
        for series in self.panels.iter().flat_map(|p| &p.series) {
            if entries.iter().all(|e| e.name != series.name) {
                entries.push(LegendEntry {
                    name: &series.name,
                    colour: PALETTE[entries.len() % PALETTE.len()],
                    line: series.line,
                    marker: series.marker,
                });
            }
        }
        entries
    }
}

fn invalid(name: &'static str, reason: String) -> StudyError {
    Error::invalid_parameter(name, reason).into()
}

fn validate_panel(p: usize, panel: &Panel) -> Result<()> {
    let context = |what: &str| format!("panel {p} (`{}`): {what}", panel.title);
    for series in &panel.series {
        if series.name.is_empty() {
            return Err(invalid("series", context("a series has an empty name")));
        }
        let what = || context(&format!("points of series `{}`", series.name));
        for (i, point) in series.points.iter().enumerate() {
            let (lower, upper) = point.error.unwrap_or((point.y, point.y));
            for (column, value) in [point.x, point.y, lower, upper].into_iter().enumerate() {
                if !value.is_finite() {
                    return Err(Error::NonFinite {
                        what: what(),
                        row: i,
                        column,
                        value,
                    }
                    .into());
                }
            }
            if lower > upper {
                return Err(invalid(
                    "error",
                    format!(
                        "{}: point {i} has lower end {lower} > upper end {upper}",
                        what()
                    ),
                ));
            }
        }
    }
    for (r, line) in panel.reference_lines.iter().enumerate() {
        if !line.y.is_finite() {
            return Err(Error::NonFinite {
                what: context("reference lines"),
                row: r,
                column: 0,
                value: line.y,
            }
            .into());
        }
    }
    let (xs, ys) = panel_extent(panel);
    for (axis, scale, range, values) in [
        ("x_range", panel.x_scale, panel.x_range, &xs),
        ("y_range", panel.y_scale, panel.y_range, &ys),
    ] {
        if scale == Scale::Log
            && let Some(bad) = values.iter().find(|&&v| v <= 0.0)
        {
            return Err(invalid(
                axis,
                context(&format!("{bad} cannot be shown on a logarithmic axis")),
            ));
        }
        let Some((lower, upper)) = range else {
            if values.is_empty() {
                return Err(invalid(
                    axis,
                    context("nothing to fit the range to: add points or set the range"),
                ));
            }
            continue;
        };
        if !(lower.is_finite() && upper.is_finite() && lower < upper) {
            return Err(invalid(
                axis,
                context(&format!(
                    "[{lower}, {upper}] is not a finite, non-empty range"
                )),
            ));
        }
        if scale == Scale::Log && lower <= 0.0 {
            return Err(invalid(
                axis,
                context(&format!("a logarithmic axis cannot start at {lower}")),
            ));
        }
        if let Some(outside) = values.iter().find(|&&v| v < lower || v > upper) {
            return Err(invalid(
                axis,
                context(&format!(
                    "{outside} lies outside the range [{lower}, {upper}]; widen the range"
                )),
            ));
        }
    }
    Ok(())
}

/// Every x and every y (points, error ends, reference lines) that a panel must show.
fn panel_extent(panel: &Panel) -> (Vec<f64>, Vec<f64>) {
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for point in panel.series.iter().flat_map(|s| &s.points) {
        xs.push(point.x);
        ys.push(point.y);
        if let Some((lower, upper)) = point.error {
            ys.extend([lower, upper]);
        }
    }
    ys.extend(panel.reference_lines.iter().map(|r| r.y));
    (xs, ys)
}

/// The range of an axis: the given one, or the data's extent with a 5% margin on each side
/// (in log space for a log axis); a single value gets a ±10% (or ±0.1) window around it.
fn axis_range(given: Option<(f64, f64)>, values: &[f64], scale: Scale) -> (f64, f64) {
    if let Some(range) = given {
        return range;
    }
    let (min, max) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    match scale {
        Scale::Linear => {
            let span = if max > min {
                max - min
            } else {
                2.0 * (0.1 * max.abs()).max(0.1)
            };
            let centre_pad = if max > min { 0.05 * span } else { 0.5 * span };
            (min - centre_pad, max + centre_pad)
        }
        Scale::Log => {
            let ratio = if max > min { max / min } else { 1.21 };
            let factor = ratio.powf(if max > min { 0.05 } else { 0.5 });
            (min / factor, max * factor)
        }
    }
}

fn draw_panel(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    panel: &Panel,
    legend: &[LegendEntry<'_>],
) -> std::result::Result<(), String> {
    let (xs, ys) = panel_extent(panel);
    let (x0, x1) = axis_range(panel.x_range, &xs, panel.x_scale);
    let (y0, y1) = axis_range(panel.y_range, &ys, panel.y_scale);
    let log = |lower: f64, upper: f64| {
        (lower..upper)
            .log_scale()
            .with_key_points(log_ticks(lower, upper))
    };
    match (panel.x_scale, panel.y_scale) {
        (Scale::Linear, Scale::Linear) => draw_chart(area, panel, legend, x0..x1, y0..y1),
        (Scale::Linear, Scale::Log) => draw_chart(area, panel, legend, x0..x1, log(y0, y1)),
        (Scale::Log, Scale::Linear) => draw_chart(area, panel, legend, log(x0, x1), y0..y1),
        (Scale::Log, Scale::Log) => draw_chart(area, panel, legend, log(x0, x1), log(y0, y1)),
    }
}

/// Ticks of a logarithmic axis over `[lower, upper]` (`0 < lower < upper`): the values
/// `{1, 2, 5} × 10ᵏ` inside it, or only the powers of ten when that would be more than eight
/// ticks, or only the two ends when it holds none of them.
fn log_ticks(lower: f64, upper: f64) -> Vec<f64> {
    let first = lower.log10().floor() as i32;
    let last = upper.log10().ceil() as i32;
    let mut ticks = Vec::new();
    for exponent in first..=last {
        for mantissa in [1, 2, 5] {
            // Parsed from decimal text, so that 0.2 is the double nearest 0.2, not 2 × 10⁻¹.
            let tick: f64 = format!("{mantissa}e{exponent}").parse().unwrap_or(f64::NAN);
            if (lower..=upper).contains(&tick) {
                ticks.push((mantissa, tick));
            }
        }
    }
    if ticks.len() > 8 {
        ticks.retain(|&(mantissa, _)| mantissa == 1);
    }
    let mut ticks: Vec<f64> = ticks.into_iter().map(|(_, tick)| tick).collect();
    if ticks.is_empty() {
        ticks = vec![lower, upper];
    }
    ticks
}

fn draw_chart<X, Y>(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    panel: &Panel,
    legend: &[LegendEntry<'_>],
    x_spec: X,
    y_spec: Y,
) -> std::result::Result<(), String>
where
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, (FONT, PANEL_TITLE_SIZE))
        .margin(10)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(x_spec, y_spec)
        .map_err(err)?;
    let x_range = chart.x_range();
    chart
        .configure_mesh()
        .x_desc(panel.x_label.as_str())
        .y_desc(panel.y_label.as_str())
        .x_labels(6)
        .y_labels(6)
        .x_label_formatter(&|v| format_tick(*v))
        .y_label_formatter(&|v| format_tick(*v))
        .label_style((FONT, TICK_SIZE))
        .axis_desc_style((FONT, LABEL_SIZE))
        // Fully transparent lines are skipped by the SVG backend: only the major grid remains.
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.08))
        .draw()
        .map_err(err)?;
    let plot = chart.plotting_area();

    for line in &panel.reference_lines {
        let ends = [(x_range.start, line.y), (x_range.end, line.y)];
        draw_path(plot, &ends, line.line, REFERENCE_COLOUR.stroke_width(1))?;
        if let Some(label) = &line.label {
            let font = (FONT, TICK_SIZE)
                .into_font()
                .color(&REFERENCE_COLOUR)
                .pos(Pos::new(HPos::Right, VPos::Bottom));
            plot.draw(&Text::new(label.as_str(), (x_range.end, line.y), font))
                .map_err(err)?;
        }
    }

    for series in &panel.series {
        let colour = legend
            .iter()
            .find(|e| e.name == series.name)
            .map_or(BLACK, |e| e.colour);
        let errors: Vec<(f64, f64, f64)> = series
            .points
            .iter()
            .filter_map(|p| p.error.map(|(lower, upper)| (p.x, lower, upper)))
            .collect();
        match series.errors {
            ErrorDisplay::Band if errors.len() >= 2 => {
                let outline: Vec<(f64, f64)> = errors
                    .iter()
                    .map(|&(x, lower, _)| (x, lower))
                    .chain(errors.iter().rev().map(|&(x, _, upper)| (x, upper)))
                    .collect();
                plot.draw(&Polygon::new(outline, colour.mix(0.18).filled()))
                    .map_err(err)?;
            }
            // A band needs two points; a single interval is shown as a bar.
            ErrorDisplay::Band | ErrorDisplay::Bars => {
                let style = colour.stroke_width(1);
                for &(x, lower, upper) in &errors {
                    plot.draw(&PathElement::new(vec![(x, lower), (x, upper)], style))
                        .map_err(err)?;
                    for end in [lower, upper] {
                        let cap = PathElement::new(vec![(-ERROR_CAP, 0), (ERROR_CAP, 0)], style);
                        plot.draw(&(EmptyElement::at((x, end)) + cap))
                            .map_err(err)?;
                    }
                }
            }
        }
        let points: Vec<(f64, f64)> = series.points.iter().map(|p| (p.x, p.y)).collect();
        draw_path(plot, &points, series.line, colour.stroke_width(2))?;
        if let Some(marker) = series.marker {
            for &point in &points {
                draw_marker(plot, point, marker, colour)?;
            }
        }
    }
    Ok(())
}

/// Draws a polyline in `line`'s style on any drawing area.
fn draw_path<DB, CT>(
    area: &DrawingArea<DB, CT>,
    points: &[CT::From],
    line: LineStyle,
    style: ShapeStyle,
) -> std::result::Result<(), String>
where
    DB: DrawingBackend,
    CT: CoordTranslate,
    CT::From: Clone,
{
    let dashes = match line {
        LineStyle::Hidden => return Ok(()),
        LineStyle::Solid => {
            return area
                .draw(&PathElement::new(points.to_vec(), style))
                .map_err(|e| e.to_string())
        }
        LineStyle::Dashed => (8, 5),
        LineStyle::Dotted => (2, 4),
    };
    area.draw(&DashedPathElement::new(
        points.iter().cloned(),
        dashes.0,
        dashes.1,
        style,
    ))
    .map_err(|e| e.to_string())
}

/// Draws one marker centred on `at` on any drawing area.
fn draw_marker<DB, CT>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    marker: Marker,
    colour: RGBColor,
) -> std::result::Result<(), String>
where
    DB: DrawingBackend,
    CT: CoordTranslate,
{
    let (r, fill) = (MARKER_SIZE, colour.filled());
    let anchor = EmptyElement::at(at);
    match marker {
        Marker::Circle => area.draw(&(anchor + Circle::new((0, 0), r, fill))),
        Marker::Square => area.draw(&(anchor + Rectangle::new([(-r, -r), (r, r)], fill))),
        Marker::Triangle => area.draw(&(anchor + TriangleMarker::new((0, 0), r + 1, fill))),
        Marker::Cross => area.draw(&(anchor + Cross::new((0, 0), r, colour.stroke_width(2)))),
    }
    .map_err(|e| e.to_string())
}

/// A rough width of `text` at `size` pixels, enough to space legend entries (the viewer lays
/// out the real text).
fn text_width(text: &str, size: u32) -> u32 {
    (0.6 * f64::from(size) * text.chars().count() as f64).ceil() as u32
}

/// The left edge and the row of every legend entry: entries flow left to right and wrap at
/// the figure's width.
fn legend_layout(entries: &[LegendEntry<'_>], width: u32) -> Vec<(u32, u32)> {
    let margin = 16;
    let mut layout = Vec::with_capacity(entries.len());
    let (mut x, mut row) = (margin, 0);
    for entry in entries {
        let entry_width =
            LEGEND_SAMPLE_WIDTH + LEGEND_GAP + text_width(entry.name, LEGEND_SIZE) + LEGEND_SPACING;
        if x > margin && x + entry_width > width.saturating_sub(margin) {
            (x, row) = (margin, row + 1);
        }
        layout.push((x, row));
        x += entry_width;
    }
    layout
}

fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    entries: &[LegendEntry<'_>],
    width: u32,
) -> std::result::Result<(), String> {
    let font = (FONT, LEGEND_SIZE)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (entry, (x, row)) in entries.iter().zip(legend_layout(entries, width)) {
        let (x, y) = (
            x as i32,
            (6 + row * LEGEND_ROW_HEIGHT + LEGEND_ROW_HEIGHT / 2) as i32,
        );
        let sample = [(x, y), (x + LEGEND_SAMPLE_WIDTH as i32, y)];
        draw_path(area, &sample, entry.line, entry.colour.stroke_width(2))?;
        if let Some(marker) = entry.marker {
            draw_marker(
                area,
                (x + LEGEND_SAMPLE_WIDTH as i32 / 2, y),
                marker,
                entry.colour,
            )?;
        }
        let text_x = x + (LEGEND_SAMPLE_WIDTH + LEGEND_GAP) as i32;
        area.draw(&Text::new(entry.name, (text_x, y), font.clone()))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A tick label: the value rounded to 10 significant digits (dropping the binary noise of tick
/// arithmetic, e.g. `0.30000000000000004`), then written as [`format_float`] does.
fn format_tick(value: f64) -> String {
    let rounded: f64 = format!("{value:.9e}").parse().unwrap_or(value);
    format_float(if rounded == 0.0 { 0.0 } else { rounded })
}
