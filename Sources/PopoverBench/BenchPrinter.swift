import Foundation

/// The bench's figures as lines for people, each saying what was timed.
public enum BenchPrinter {
    static func line(_ text: String) { Swift.print(text) }

    public static func runs(_ r: RunFigures) {
        func run(_ label: String, _ c: ChildRun, target: String) -> String {
            String(format: "  %@ %6.2f s wall, %6.1f s CPU, peak %5.0f MiB   (target %@)",
                   label.padding(toLength: 50, withPad: " ", startingAt: 0) as NSString, c.wallSeconds, c.cpuSeconds,
                   c.peakMiB, target as NSString)
        }
        line("Whole runs of popover-goldens as separate processes, \(r.cases) cases, best of the repetitions by wall time:")
        line(run("clean check (every golden matching, cache warm)", r.cleanCheck, target: "<= 3 s"))
        line(run("the same right after a rebuild", r.cleanCheckAfterRebuild,
                 target: String(format: "within 10%% of the warm check: %+.1f%%",
                                (r.cleanCheckAfterRebuild.wallSeconds / r.cleanCheck.wallSeconds - 1) * 100)))
        // The target is the warm check's: this is what a first check after a clone takes.
        line(run("clean check without the cache (--no-cache)", r.cleanCheckWithoutCache, target: "none: a first check"))
        line(run("check where all \(r.cases) cases fail, full report", r.allFailingCheck, target: "<= 8 s, <= 1024 MiB"))
        line(String(format: "    its report: %.0f MiB on disk", r.allFailingReportMiB))
        line(run("record every golden from scratch", r.recordAll, target: "<= 20 s"))
        line(String(format: "    the goldens: %.1f MB of files, %.1f MiB on disk   (target <= 32 MiB)",
                    Double(r.goldensBytes) / 1e6, r.goldensDiskMiB))
        if let load = r.reportFirstScreen {
            line(String(format: "  all-failing report in headless Chromium: first screen %.2f s (first paint %.2f s), whole page loaded %.2f s, %d images, %d elements   (target <= 2 s)",
                        load.firstScreenSeconds, load.firstPaintSeconds, load.loadSeconds, load.imagesInPage, load.elements))
            line(String(format: "    while loading: longest task %.0f ms, total blocking time %.0f ms, layout shift %.4f   (targets <= 200 ms, -, <= 0.1)",
                        load.longestTaskMs, load.totalBlockingMs, load.layoutShift))
            line("    from a click (or key) to the next paint, and the longest task it caused   (target: no task over 200 ms):")
            for (name, figure) in load.controls.sorted(by: { $0.key < $1.key }) {
                line(String(format: "      %@ %5.0f ms   longest task %4.0f ms",
                            name.padding(toLength: 26, withPad: " ", startingAt: 0) as NSString, figure.toNextPaintMs, figure.longestTaskMs))
            }
        } else {
            line("  all-failing report in headless Chromium: not measured (Chromium or Playwright missing)")
        }
    }

    public static func renders(_ renders: [Benchmarks.RenderFigure]) {
        line("Drawing, one thread (ms per case, Mpx/s of canvas):")
        for r in renders {
            line("  " + "\(r.skin) @\(r.scale)x".padding(toLength: 22, withPad: " ", startingAt: 0)
                + String(format: "%5d cases  %7.2f ms  %7.1f Mpx/s", r.cases, r.millisecondsPerCase, r.megapixelsPerSecond))
        }
    }

    public static func throughput(_ codec: PNGCodecFigures, exact: Benchmarks.Throughput) {
        line("PNG coding over \(codec.spreadFiles) of \(codec.goldenFiles) goldens, and the exact-match path, one thread:")
        let all = codec.throughputs + [exact]
        let width = (all.map(\.name.count).max() ?? 0) + 2
        for t in all {
            line("  " + t.name.padding(toLength: width, withPad: " ", startingAt: 0) + String(format: "%8.1f Mpx/s", t.megapixelsPerSecond))
        }
        line(String(format: "  every golden re-encoded for goldens: %.2f MB, %.3f of the committed %.2f MB",
                    Double(codec.smallestBytes) / 1e6, codec.smallestRatio, Double(codec.committedBytes) / 1e6))
        for (name, bytes) in codec.spreadBytes.sorted(by: { $0.key < $1.key }) {
            line(String(format: "  the spread encoded %@: %.2f MB", name as NSString, Double(bytes) / 1e6))
        }
    }

    public static func digests(_ digests: DigestFigures) {
        line("Digests, one thread, best of the repetitions:")
        for t in digests.throughputs {
            line("  " + t.name.padding(toLength: 62, withPad: " ", startingAt: 0) + String(format: "%8.0f MB/s", t.megabytesPerSecond))
        }
    }

    public static func pairs(_ pairs: [PairFigure]) {
        line("One pair, ours against ImageMagick's `compare -channel RGBA -metric AE` (1.9 Mpx, best of the repetitions):")
        for p in pairs {
            var text = "  " + p.kind.padding(toLength: 19, withPad: " ", startingAt: 0)
                + String(format: "%8d px differ (ImageMagick: %@)\n", p.differentPixels, (p.imageMagickAE.map { "\($0)" } ?? "n/a") as NSString)
            text += String(format: "    two PNG files to a verdict, as processes: popover-goldens diff %6.1f ms", p.oursProcess.wallSeconds * 1000)
            if let im = p.imageMagickProcess {
                text += String(format: ", compare %6.1f ms (%.1fx)", im.wallSeconds * 1000, im.wallSeconds / p.oursProcess.wallSeconds)
            }
            text += String(format: "; ours in process %6.1f ms\n", p.oursInProcessSeconds * 1000)
            let mpx = Double(p.pixels) / 1e6
            text += String(format: "    decoded pixels: ours in memory %7.1f Mpx/s (%.2f ms)", mpx / p.oursPixelsSeconds, p.oursPixelsSeconds * 1000)
            if let raw = p.imageMagickRaw, let load = p.imageMagickLoad, let compare = p.imageMagickCompareSeconds {
                text += String(format: "; compare on raw pixels %6.1f ms, of which starting and loading %6.1f ms (convert rgba: null:), comparing %6.1f ms (%.0fx ours)",
                               raw.wallSeconds * 1000, load.wallSeconds * 1000, compare * 1000, compare / p.oursPixelsSeconds)
            }
            line(text)
        }
    }

    public static func checks(_ checks: [Benchmarks.CheckFigure]) {
        line("Whole checks in one process over shares of the catalog (every golden matching):")
        for c in checks {
            line(String(format: "  %5d cases on %d thread%@  %6.2f s  (%.2f ms per case)", c.cases, c.jobs,
                        (c.jobs == 1 ? "" : "s") as NSString, c.seconds, c.seconds * 1000 / Double(c.cases)))
        }
    }
}
