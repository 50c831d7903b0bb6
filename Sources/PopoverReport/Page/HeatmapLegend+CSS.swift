import PopoverDiff

extension HeatmapLegend {
    /// A CSS `linear-gradient(to right, ...)` through the stops, for the legend bar.
    var cssGradient: String {
        let parts = stops.map { stop in
            let percent = (stop.position * 1000).rounded() / 10
            return "\(stop.color) \(percent)%"
        }
        return "linear-gradient(to right, " + parts.joined(separator: ", ") + ")"
    }
}
