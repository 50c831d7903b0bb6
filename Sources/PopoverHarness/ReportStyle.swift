/// The report's stylesheet, inline so the page needs nothing but the files beside it.
enum ReportStyle {
    static let css = #"""
    :root {
      --passed: #34a05a; --passed-cell: #b5dfc2; --failed: #d93025; --missing: #ef8f00; --error: #8e24aa;
      --new: #1a73e8; --recorded: #00897b;
      --ink: #1b2230; --muted: #5e6a79; --faint: #8a94a0; --line: #dde2e8; --bg: #f3f5f8; --card: #fff;
      --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace;
      --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
      --checker: repeating-conic-gradient(#e6e9ed 0 25%, #fff 0 50%) 0 0 / 12px 12px;
    }
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    [id] { scroll-margin-top: calc(var(--bar-h, 96px) + 12px); }
    body { margin: 0; font: 14px/1.45 var(--sans); color: var(--ink); background: var(--bg); }
    .wrap, main { max-width: 1440px; margin: 0 auto; padding: 0 24px; }
    main { padding-top: 4px; padding-bottom: 48px; }
    code, .mono { font-family: var(--mono); font-size: 12.5px; }
    .muted { color: var(--muted); }
    h2 { font-size: 17px; margin: 0 0 8px; }
    h3 { font-size: 14px; margin: 0; }
    section { margin: 22px 0; }
    a { color: #1558b0; }
    button, select, input { font: inherit; font-size: 13px; color: inherit; }
    button { cursor: pointer; }
    summary { cursor: pointer; }
    summary h2 { display: inline; margin: 0; }

    /* Verdict */
    header.top { color: #fff; padding: 18px 0 16px; }
    header.top.ok { background: linear-gradient(120deg, #17683a, #2f9a59); }
    header.top.bad { background: linear-gradient(120deg, #981d17, #d4392d); }
    header h1 { margin: 0; font-size: 24px; display: flex; align-items: center; gap: 12px; }
    .mark { display: inline-grid; place-items: center; width: 34px; height: 34px; border-radius: 50%;
            background: rgba(255,255,255,.22); font-size: 19px; flex: none; }
    .product { margin-left: auto; font: 500 13px var(--mono); opacity: .8; }
    .verdict { margin: 2px 0 12px 46px; font-size: 15px; }
    dl.run { display: flex; flex-wrap: wrap; gap: 6px 30px; margin: 0 0 0 46px; }
    dl.run dt { font-size: 11px; text-transform: uppercase; letter-spacing: .06em; opacity: .78; }
    dl.run dd { margin: 0; font-weight: 600; }
    dl.run dd.mono { font-size: 13px; }

    /* Sticky bar */
    .bar { position: sticky; top: 0; z-index: 20; background: rgba(255,255,255,.97); border-bottom: 1px solid var(--line);
           box-shadow: 0 2px 6px rgba(20,30,50,.06); }
    .bar .wrap { display: flex; flex-direction: column; gap: 6px; padding-top: 8px; padding-bottom: 8px; }
    .filters, .views { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 14px; }
    .chips { display: flex; flex-wrap: wrap; gap: 6px; }
    .chip { display: inline-flex; align-items: center; gap: 6px; padding: 2px 10px 2px 8px; border-radius: 999px;
            border: 1px solid var(--line); background: #fff; }
    .chip .dot { width: 10px; height: 10px; border-radius: 3px; background: var(--c); }
    .chip[aria-pressed="false"] { opacity: .5; text-decoration: line-through; background: #f1f3f5; }
    .chip:disabled { opacity: .35; cursor: default; }
    select, input[type="search"] { border: 1px solid var(--line); border-radius: 6px; background: #fff; padding: 3px 6px; }
    input[type="search"] { width: 210px; font-family: var(--mono); font-size: 12.5px; }
    .bar button:not(.chip):not([data-all-mode]) { border: 1px solid var(--line); border-radius: 6px; background: #fff; padding: 3px 10px; }
    .count { color: var(--muted); font-size: 13px; }
    .keys { font-size: 12px; }
    .spacer { flex: 1; }
    .seg { display: inline-flex; border: 1px solid var(--line); border-radius: 7px; overflow: hidden; background: #fff; }
    .seg button { border: 0; border-right: 1px solid var(--line); background: #fff; padding: 3px 10px; }
    .seg button:last-child { border-right: 0; }
    .seg button[aria-pressed="true"] { background: var(--ink); color: #fff; }
    .seg button:disabled { color: #b4bbc4; cursor: not-allowed; }
    .seg.small button { padding: 2px 0; min-width: 24px; font-size: 12px; font-variant-numeric: tabular-nums; }
    .zoom { display: inline-flex; align-items: center; gap: 6px; }
    button.find { border: 1px solid #0b7a3b; color: #0b7a3b; background: #fff; border-radius: 6px; padding: 2px 10px; }
    button.find:hover { background: #0b7a3b; color: #fff; }
    input[type="range"] { vertical-align: middle; width: 110px; }

    /* Status colours */
    .s-passed { --c: var(--passed); } .s-failed { --c: var(--failed); } .s-missing { --c: var(--missing); }
    .s-error { --c: var(--error); } .s-new { --c: var(--new); } .s-recorded { --c: var(--recorded); }
    .badge { display: inline-block; padding: 1px 8px; border-radius: 999px; background: var(--c); color: #fff;
             font-size: 12px; font-weight: 600; white-space: nowrap; }

    /* Counts */
    .tiles { display: grid; grid-template-columns: repeat(7, minmax(0, 1fr)); gap: 10px; }
    .tile { display: block; text-align: left; border: 1px solid var(--line); border-left: 5px solid var(--c, #7a838f);
            background: #fff; border-radius: 10px; padding: 8px 14px; color: inherit; text-decoration: none; }
    .tile b { display: block; font-size: 26px; line-height: 1.15; }
    .tile span { color: var(--muted); font-size: 13px; }
    .tile.zero { border-left-color: var(--line); cursor: default; }
    .tile.zero b { color: #b4bbc4; }
    .tile:not(.zero):hover { box-shadow: 0 2px 8px rgba(20,30,50,.1); }
    .alert { margin-top: 14px; background: #fdecea; border: 1px solid #f1b7b0; border-radius: 10px; padding: 12px 16px; }
    .alert ul { margin: 6px 0 0; padding-left: 20px; }
    .goldens-list { margin-top: 14px; background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 10px 16px; }
    .goldens-list p { margin: 6px 0; }
    ul.compact { margin: 0; padding-left: 20px; columns: 2 420px; }

    /* Overview */
    .hint { color: var(--muted); margin: 0 0 10px; }
    .status-key { display: inline-flex; flex-wrap: wrap; gap: 4px 12px; margin-left: 10px; }
    .key-item { display: inline-flex; align-items: center; gap: 5px; color: var(--ink); }
    .key-item .c { display: inline-block; }
    details.skin { background: #fff; border: 1px solid var(--line); border-radius: 10px; margin: 8px 0; }
    details.skin > summary { display: flex; align-items: center; gap: 10px; padding: 8px 14px; }
    .skin-name { font: 700 14px var(--mono); }
    .matrix-scroll { overflow-x: auto; padding: 2px 14px 12px; }
    table.matrix { border-collapse: separate; border-spacing: 2px; font-size: 11px; }
    .matrix th { font-weight: 500; color: var(--muted); padding: 0; }
    .matrix th.g { text-align: left; color: var(--ink); font-weight: 600; white-space: nowrap; padding: 0 0 2px 2px;
                   border-bottom: 2px solid var(--line); }
    .matrix th.v { vertical-align: bottom; height: 66px; }
    .matrix th.v span { display: inline-block; writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap;
                        font: 10.5px/14px var(--mono); }
    .matrix th.o { font: 10px var(--mono); color: var(--faint); }
    .matrix th.dir { text-align: right; padding-right: 6px; color: var(--ink); font-weight: 600; font-size: 12px; }
    .matrix th.sc { text-align: right; padding-right: 8px; font-family: var(--mono); }
    .matrix td { padding: 0; width: 14px; height: 14px; }
    .matrix .gs { padding-left: 12px; }
    .matrix tr.first > * { padding-top: 7px; }
    .c { display: block; width: 14px; height: 14px; border-radius: 3px; background: var(--c); }
    .c.s-passed { background: var(--passed-cell); }
    a.c:hover { outline: 2px solid var(--ink); outline-offset: 1px; }
    a.c.dim { opacity: .12; }
    .pop { display: none; }
    .hover { position: fixed; z-index: 40; max-width: 300px; background: #fff; border: 1px solid var(--line);
             border-radius: 8px; box-shadow: 0 8px 24px rgba(20,30,50,.2); padding: 8px; font-size: 12px;
             pointer-events: none; }
    .hover-id { font: 600 12px var(--mono); word-break: break-all; margin-bottom: 6px; }
    .hover .pop { display: flex; gap: 8px; align-items: flex-start; }
    .hover .pop img { width: 96px; image-rendering: pixelated; background: var(--checker); flex: none; }
    .pop-text { color: var(--muted); word-break: break-word; }

    /* Cases */
    .cases-head { display: flex; align-items: baseline; gap: 12px; }
    .cases-head h2 { margin: 0; }
    .all-good { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; }
    .legend { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 24px; background: #fff; border: 1px solid var(--line);
              border-radius: 10px; padding: 10px 16px 8px; margin: 8px 0 12px; font-size: 12.5px; }
    .legend-title { font-weight: 700; }
    .legend-scale { position: relative; display: inline-block; width: 340px; height: 32px; }
    .legend-scale .lg-bar { display: block; height: 14px; border-radius: 3px; }
    .ticks { position: absolute; left: 0; right: 0; top: 16px; }
    .tick { position: absolute; transform: translateX(-50%); font: 10.5px var(--mono); color: var(--muted); }
    .tick:first-child { transform: none; } .tick:last-child { transform: translateX(-100%); }
    .swatch { display: inline-block; width: 14px; height: 14px; border-radius: 3px; vertical-align: -3px; margin-right: 6px;
              border: 1px solid rgba(0,0,0,.15); }
    .swatch.equal { background: linear-gradient(to right, #999999, #f2f2f2); }
    .legend-note { flex-basis: 100%; color: var(--muted); font-size: 12px; }
    details.case { background: #fff; border: 1px solid var(--line); border-left: 5px solid var(--c); border-radius: 10px;
                   margin: 10px 0; }
    details.case > summary { display: flex; align-items: center; gap: 12px; padding: 8px 14px; list-style: none; }
    details.case > summary::-webkit-details-marker { display: none; }
    details.case > summary::before { content: "▸"; color: var(--faint); transition: transform .1s; }
    details.case[open] > summary::before { transform: rotate(90deg); }
    details.case[open] > summary { border-bottom: 1px solid #eef1f4; }
    .cid { font: 600 13.5px var(--mono); word-break: break-all; }
    .headline { margin-left: auto; color: var(--muted); text-align: right; font-size: 13px; max-width: 45%;
                overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .thumb { width: 48px; height: 48px; object-fit: contain; image-rendering: pixelated; border-radius: 4px;
             background: var(--checker); flex: none; }
    span.thumb { display: inline-block; background: #f1f3f5; }
    .case-body { padding: 12px 14px; display: flex; flex-direction: column; gap: 10px; }
    .viewer { min-width: 0; }
    .message { font: 12.5px/1.45 var(--mono); background: #f6f8fa; border: 1px solid #eef1f4; border-radius: 6px;
               padding: 7px 10px; margin: 0; word-break: break-word; }
    dl.stats { display: flex; flex-wrap: wrap; gap: 6px 26px; margin: 0; }
    dl.stats dt { font: 11px var(--mono); color: var(--muted); }
    dl.stats dd { margin: 0; font-size: 14px; font-weight: 600; font-variant-numeric: tabular-nums; }
    dd.bad { color: var(--failed); }
    dd.good { color: #1d7a43; }
    dl.drawn { display: flex; flex-wrap: wrap; gap: 2px 22px; margin: 0; padding-top: 8px;
               border-top: 1px solid #eef1f4; font-size: 12.5px; }
    dl.drawn div { display: flex; gap: 6px; align-items: baseline; }
    dl.drawn dt { font: 11.5px var(--mono); color: var(--muted); }
    dl.drawn dd { margin: 0; }
    dl.drawn dd.mono { font-size: 11.5px; word-break: break-all; }

    /* Viewer: four layouts of the same figures, keyed on data-mode */
    .tools { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; margin-bottom: 10px; font-size: 13px; }
    .nojs .tools { display: none; }
    .only-slider, .only-overlay, .only-blink { display: none !important; }
    .viewer[data-mode="slider"] .only-slider, .viewer[data-mode="overlay"] .only-overlay,
    .viewer[data-mode="blink"] .only-blink { display: inline-flex !important; align-items: center; gap: 8px; }
    .blink-state { font-family: var(--mono); font-size: 12px; min-width: 9em; }
    .only-blink button { border: 1px solid var(--line); border-radius: 6px; background: #fff; padding: 2px 9px; }
    .xy { margin-left: auto; font: 12px var(--mono); color: var(--muted); min-width: 10em; text-align: right; }
    .stage-scroll { overflow: auto; max-width: 100%; max-height: 82vh; }
    .stage { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
    figure { position: relative; margin: 0; }
    figure > a { display: block; position: relative; }
    .region { position: absolute; outline: 2px dashed #00c853; outline-offset: 3px; box-shadow: 0 0 0 1px rgba(0,0,0,.55);
              pointer-events: none; min-width: 1px; min-height: 1px; }
    .viewer.smooth img.px { image-rendering: auto; }
    img.px { display: block; image-rendering: pixelated; background: var(--checker); outline: 1px solid var(--line);
             max-width: none; }
    figcaption { margin-top: 4px; font-size: 12px; font-weight: 600; }
    figcaption small { font-weight: 400; color: var(--faint); font-family: var(--mono); }
    .viewer:not([data-mode="side"]) .stage { display: grid; width: max-content; }
    .viewer:not([data-mode="side"]) figure { grid-area: 1 / 1; }
    .viewer:not([data-mode="side"]) figcaption { position: absolute; top: 6px; left: 6px; margin: 0; padding: 1px 7px;
                                                 border-radius: 4px; background: rgba(20,26,36,.8); color: #fff;
                                                 pointer-events: none; white-space: nowrap; }
    .viewer:not([data-mode="side"]) figcaption small { display: none; }
    .viewer[data-mode="slider"] .f-heatmap, .viewer[data-mode="blink"] .f-heatmap,
    .viewer[data-mode="overlay"] .f-expected { display: none; }
    .viewer[data-mode="slider"] .stage { cursor: ew-resize; user-select: none; touch-action: none; }
    .viewer[data-mode="slider"] .f-actual img { clip-path: inset(0 0 0 var(--wipe, 50%)); }
    .viewer[data-mode="slider"] .f-actual figcaption { left: auto; right: 6px; }
    .viewer[data-mode="slider"] .f-actual::after { content: ""; position: absolute; top: 0; bottom: 0; left: var(--wipe, 50%);
                                                   width: 2px; margin-left: -1px; background: #fff;
                                                   box-shadow: 0 0 0 1px rgba(0,0,0,.5); pointer-events: none; }
    .viewer[data-mode="blink"] .stage { cursor: pointer; }
    .viewer[data-mode="blink"] .f-actual, .viewer[data-mode="blink"].show-actual .f-expected { visibility: hidden; }
    .viewer[data-mode="blink"].show-actual .f-actual { visibility: visible; }
    .viewer[data-mode="overlay"] .f-heatmap { opacity: var(--alpha, .7); }
    .viewer[data-mode="overlay"] .f-actual figcaption { display: none; }
    .viewer.empty p { margin: 0; }

    /* Passed */
    details.passed { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 10px 16px; }
    details.passed > summary { display: flex; align-items: baseline; gap: 12px; }
    .passed-skin h3 { font: 700 12.5px var(--mono); margin: 12px 0 4px; }
    ul.passed-list { list-style: none; margin: 0; padding: 0; columns: 3 380px; column-gap: 28px; font-size: 12px; }
    ul.passed-list li { break-inside: avoid; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; padding: 1px 0; }
    ul.passed-list code { font-size: 11.5px; }
    .approx { color: #8a6a00; margin-left: 6px; }
    .links a { margin-left: 6px; }
    :target, .flash { box-shadow: 0 0 0 3px #ffcf33; }
    footer { color: var(--muted); font-size: 12.5px; padding: 16px 0 28px; border-top: 1px solid var(--line); }
    @media (max-width: 1000px) {
      .tiles { grid-template-columns: repeat(4, minmax(0, 1fr)); }
    }
    """#
}
