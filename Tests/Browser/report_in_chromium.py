"""Drives the report's page in headless Chromium through Playwright, the way a reviewer
uses it, and checks what the page does. CommandLineTests/BrowserTests.swift prepares a
failing run, calls this script, and checks the files afterwards.

  python3 report_in_chromium.py static REPORT_FOLDER DOWNLOAD_PATH CASE_ID...
      opens REPORT_FOLDER/index.html from disk: the changes' viewer (fit, linked pan and
      zoom, views, Find change kept across views), filters (and the address), keys,
      focus-mode decisions by keyboard, decisions and filters after a reload, and exports
      approvals.json (the first two CASE_IDs accepted) to DOWNLOAD_PATH.
  python3 report_in_chromium.py live URL GOLDEN_PATH CASE_ID
      opens the page `popover-goldens review` serves, accepts CASE_ID (its golden file
      at GOLDEN_PATH changes, the counts follow), undoes it (the golden is back, so are
      the counts), then accepts the first change in one action.
  python3 report_in_chromium.py axe REPORT_FOLDER...
      runs axe-core (WCAG 2.1 A/AA) on each report at 1400x1000 and 390x844, with a
      case open and in focus mode: no violation; at 390 px no sideways scroll and a
      sticky bar of at most a fifth of the height; the skip link and the matrix's single
      Tab stop; decision buttons each with their own name.
  python3 report_in_chromium.py regions REPORT_FOLDER CASE_ID CHANGED_JSON
      steps the case's viewer through its changed regions: each inside the pane, holding
      changed pixels, filling a good part of the pane; together every changed pixel of
      CHANGED_JSON ([[x, y], ...]).

  python3 report_in_chromium.py pieces REPORT_FOLDER
      serves REPORT_FOLDER/index.html from a loopback server that pauses after each
      script element, as a page served over a slow connection arrives: the page throws
      nothing, and every case the list shows gets its line.

Chromium is Debian's (/usr/bin/chromium, or $CHROMIUM): Playwright downloads no browser.
Exit status 0 when every check holds; otherwise a message on standard error and 1.
"""
import hashlib
import json
import os
import sys

from playwright.sync_api import sync_playwright


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def line(page, case_id):
    """The line of a case in the list of cases, drawn first if it was not yet. Waits until
    the list holds the case: on a loaded machine the page may still be filling it."""
    try:
        page.wait_for_function("""id => {
            const slot = window.PopoverGoldens && window.PopoverGoldens.slotOf(id);
            return !!slot && slot.querySelector('article.case') !== null;
        }""", arg=case_id, timeout=30000)
    except Exception as error:
        # Seen rarely under a loaded full run (a reloaded live page): say what the page held,
        # so the failure explains itself.
        state = page.evaluate("""id => {
            const pg = window.PopoverGoldens;
            if (!pg) return 'no PopoverGoldens on the page';
            const shown = pg.shownCases();
            const slot = pg.slotOf(id);
            return JSON.stringify({ url: location.href, shown: shown.length,
                                    listed: shown.some(c => c.id === id), slot: !!slot,
                                    article: !!(slot && slot.querySelector('article.case')),
                                    search: (document.querySelector('#f-q') || {}).value,
                                    stored: Object.keys(localStorage).map(k => localStorage.getItem(k)).join(' ').slice(0, 400),
                                    focus: !!document.querySelector('#focus:not([hidden])') });
        }""", case_id)
        raise AssertionError("the line of %s never appeared: %s (%s)" % (case_id, state, error))
    return page.locator('#case-list article.case[data-case="%s"]' % case_id)


def browser(playwright):
    executable = os.environ.get("CHROMIUM") or "/usr/bin/chromium"
    return playwright.chromium.launch(executable_path=executable, args=["--no-sandbox", "--disable-dev-shm-usage"])


def port_boxes(viewer):
    """For each pane of a viewer: its port's box and its first image's box, on screen."""
    return viewer.evaluate("""v => Array.from(v.querySelectorAll('.port')).map(p => {
        const r = p.getBoundingClientRect(), i = p.querySelector('img.px').getBoundingClientRect();
        return { left: r.left, top: r.top, width: r.width, height: r.height,
                 imgLeft: i.left - r.left, imgTop: i.top - r.top, imgWidth: i.width, imgHeight: i.height };
    })""")


def check_viewer(page, viewer):
    """Fit, linked zoom across panes and views, a framed region kept across views."""
    dpr = page.evaluate("window.devicePixelRatio")
    natural = int(viewer.locator("img.px").first.get_attribute("width"))
    natural_h = int(viewer.locator("img.px").first.get_attribute("height"))
    panes = port_boxes(viewer)
    check(len(panes) == 3, "side by side shows %d panes, not 3" % len(panes))
    # Side by side: one row, left to right, whatever the image's size.
    check(len({round(p["top"]) for p in panes}) == 1, "the panes are not in one row: %s" % panes)
    check(panes[0]["left"] < panes[1]["left"] < panes[2]["left"], "the panes are not left to right")
    # Fit: the image inside its pane, filling it in width or in height.
    for p in panes:
        check(p["imgLeft"] >= -0.5 and p["imgTop"] >= -0.5 and p["imgLeft"] + p["imgWidth"] <= p["width"] + 0.5
              and p["imgTop"] + p["imgHeight"] <= p["height"] + 0.5, "fit: the image leaves its pane: %s" % p)
        check(p["imgWidth"] >= p["width"] - 12 or p["imgHeight"] >= p["height"] - 12, "fit: the image does not fill its pane: %s" % p)
        check(abs(p["imgWidth"] / p["imgHeight"] - natural / natural_h) < 0.02, "fit changed the image's shape")
    # Zoom 4: one image pixel is four device pixels in every pane, each showing the same place.
    viewer.locator('[data-zoom-to="4"]').click()
    panes = port_boxes(viewer)
    for p in panes:
        check(abs(p["imgWidth"] * dpr - natural * 4) < 1, "zoom 4 shows %s device pixels for %s image pixels" % (p["imgWidth"] * dpr, natural))
        check(abs(p["imgLeft"] - panes[0]["imgLeft"]) < 0.5 and abs(p["imgTop"] - panes[0]["imgTop"]) < 0.5,
              "the panes are not linked: %s" % panes)
    # Dragging one pane pans them all.
    port = viewer.locator(".port").nth(1).bounding_box()
    page.mouse.move(port["x"] + 100, port["y"] + 100)
    page.mouse.down()
    page.mouse.move(port["x"] + 60, port["y"] + 80, steps=4)
    page.mouse.up()
    moved = port_boxes(viewer)
    check(abs(moved[0]["imgLeft"] - (panes[0]["imgLeft"] - 40)) < 1.5 and abs(moved[0]["imgTop"] - (panes[0]["imgTop"] - 20)) < 1.5,
          "dragging the actual pane did not pan the expected one: %s -> %s" % (panes[0], moved[0]))
    # Below half size.
    viewer.locator('[data-zoom-to="0.25"]').click()
    quarter = port_boxes(viewer)[0]
    check(abs(quarter["imgWidth"] * dpr - natural / 4) < 1, "zoom 1/4 shows %s device pixels" % (quarter["imgWidth"] * dpr))
    # Find change, then another view: the same place at the same zoom.
    if viewer.locator("[data-region-step]").count():
        viewer.locator('[data-region-step="1"]').click()
        found = port_boxes(viewer)[0]
        viewer.locator('[data-mode-to="wipe"]').click()
        check(viewer.get_attribute("data-mode") == "wipe", "Wipe did not switch the view")
        wiped = port_boxes(viewer)[0]
        check(abs(wiped["imgWidth"] - found["imgWidth"]) < 0.5, "the zoom changed with the view")
        # The wipe view's one pane is as wide as the three: compare the image's offset
        # from each pane's middle.
        check(abs((wiped["imgLeft"] - wiped["width"] / 2) - (found["imgLeft"] - found["width"] / 2)) < 1.5 and
              abs((wiped["imgTop"] - wiped["height"] / 2) - (found["imgTop"] - found["height"] / 2)) < 1.5,
              "Find change was lost switching view: %s -> %s" % (found, wiped))
    for mode in ["onion", "blink", "overlay", "side"]:
        viewer.locator('[data-mode-to="%s"]' % mode).click()
        check(viewer.get_attribute("data-mode") == mode, "%s did not switch the view" % mode)
    viewer.locator('[data-zoom-to="fit"]').click()


def progress(page):
    return page.inner_text("#bar-progress")


def static(report, download, cases):
    url = "file://" + os.path.abspath(report) + "/index.html"
    with sync_playwright() as p:
        b = browser(p)
        context = b.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        check(not page.locator("body.nojs").count(), "the script did not run")

        # The page opens with the changes: the first shows a case in the full viewer.
        check(page.locator("#changes-list .change-slot").count() >= 1, "no change is listed")
        change = page.locator("#changes-list article.change").first
        change.wait_for()
        check_viewer(page, change.locator(".viewer"))

        # Filters: searching an ID leaves that case; Reset shows every case again.
        total = page.evaluate("window.PopoverGoldens.data.cases.length")
        page.fill("#f-q", cases[1])
        page.wait_for_function("n => window.PopoverGoldens.shownCases().length === n", arg=1)
        shown = page.evaluate("window.PopoverGoldens.shownCases().map(c => c.id)")
        check(shown == [cases[1]], "searching %s left %s shown" % (cases[1], shown))
        check("q=" in page.evaluate("location.hash"), "the search is not in the address")
        page.click("#f-reset")
        check(page.evaluate("window.PopoverGoldens.shownCases().length") == total, "Reset did not show every case again")

        # Keys: j moves to the next case.
        page.evaluate("window.scrollTo(0, 0)")
        page.keyboard.press("j")
        page.wait_for_function("window.scrollY > 0")

        # A case's line opens to its viewer; Accept on it is one decision.
        first = line(page, cases[0])
        first.locator(".case-open").click()
        check(first.locator(".viewer").count() == 1, "opening the line showed no viewer")
        first.locator('[data-decide="accept"]').click()
        decidable = page.evaluate("window.PopoverGoldens.progress().decidable")
        check(progress(page).startswith("%d undecided" % (decidable - 1)), "progress says " + progress(page))
        # Accept again: still accepted, nothing toggles.
        first.locator('[data-decide="accept"]').click()
        check(page.evaluate("window.PopoverGoldens.decision(%s)" % json.dumps(cases[0])) == "accept", "a second Accept took it back")
        # The sticky bar offers the export once something is accepted.
        check(page.locator("#bar [data-export]").is_enabled(), "the bar's export is not offered")

        # Focus mode by keyboard: the second case, accepted with a, keep with x on the next.
        line(page, cases[1]).locator("[data-focus-case]").click()
        focus = page.locator("#focus")
        check(focus.is_visible(), "focus mode did not open")
        check(cases[1] in focus.locator("h2").inner_text(), "focus mode shows " + focus.locator("h2").inner_text())
        page.keyboard.press("4")
        check(focus.locator('[data-zoom-to="4"]').get_attribute("aria-pressed") == "true", "4 did not zoom")
        page.keyboard.press("f")
        check(focus.locator('[data-zoom-to="fit"]').get_attribute("aria-pressed") == "true", "f did not fit")
        page.keyboard.press("w")
        check(focus.locator(".viewer").get_attribute("data-mode") == "wipe", "w did not switch to wipe")
        page.keyboard.press("?")
        check(page.locator("#keys").is_visible(), "? did not show the keys")
        page.keyboard.press("Escape")
        check(not page.locator("#keys").is_visible(), "Escape did not close the keys")
        page.keyboard.press("a")
        page.wait_for_function("id => window.PopoverGoldens.decision(id) === 'accept'", arg=cases[1])
        check(page.evaluate("window.PopoverGoldens.progress().decided") == 2, "a did not decide one more case")
        if page.evaluate("window.PopoverGoldens.shownCases().length") > 2:
            page.wait_for_function("id => !document.querySelector('#focus h2').textContent.includes(id)", arg=cases[1])
            third = page.evaluate("window.PopoverGoldens.focus.state.items[window.PopoverGoldens.focus.state.at].id")
            page.keyboard.press("x")
            page.wait_for_function("id => window.PopoverGoldens.decision(id) === 'keep'", arg=third)
            check("3 of %d decided" % decidable in focus.inner_text(), "x did not keep")
            page.keyboard.press("k")
            page.keyboard.press("x")   # keep again: still kept, nothing toggles
            check(page.evaluate("id => window.PopoverGoldens.decision(id)", third) == "keep", "a second x took keep back")
            page.keyboard.press("k")
            page.keyboard.press("u")   # u undoes
            page.wait_for_function("id => window.PopoverGoldens.decision(id) === null", arg=third)
            check("2 of %d decided" % decidable in focus.inner_text(), "u did not undo: " + focus.inner_text())
        # The end of the queue: after the last case, a summary that offers the export.
        if not page.evaluate("window.PopoverGoldens.focus.state.done"):
            page.evaluate("() => { const f = window.PopoverGoldens.focus.state; f.at = f.items.length - 1; }")
            page.keyboard.press("j")
        done = page.locator("#focus .focus-done")
        done.wait_for()
        check("2 to accept" in done.inner_text(), "the end of the queue says " + done.inner_text())
        check(done.locator("[data-export]").is_enabled(), "the end of the queue offers no export")
        check("--from approvals.json" in done.inner_text(), "the end of the queue shows no command")
        page.keyboard.press("Escape")
        check(not focus.is_visible(), "Escape did not close focus mode")

        # State that lasts: decisions and the filters come back after a reload.
        page.fill("#f-q", "up")
        page.wait_for_function("() => location.hash.includes('q=up')")
        page.reload()
        page.wait_for_function("() => !!window.PopoverGoldens")
        check(page.input_value("#f-q") == "up", "the search did not survive a reload")
        for case_id in cases[:2]:
            check(page.evaluate("window.PopoverGoldens.decision(%s)" % json.dumps(case_id)) == "accept", case_id + " lost its decision on reload")
            check(line(page, case_id).locator('[data-decide="accept"]').get_attribute("aria-pressed") == "true",
                  "the line of %s does not show it accepted after reload" % case_id)
        check(progress(page).startswith("%d undecided" % (decidable - 2)), "after reload progress says " + progress(page))
        # Focus mode on a change: a decides all its cases at once; pressed again, takes it back.
        page.click("#f-reset")
        card = page.locator("#changes-list article.change").first
        members = page.evaluate("""id => { const PG = window.PopoverGoldens;
            return PG.data.changes.find(c => c.id === id).members.map(i => PG.data.cases[i].id); }""", card.get_attribute("data-change"))
        if set(members) <= set(cases[:2]):
            card.locator("[data-focus-change]").click()
            check(page.locator("#focus").is_visible(), "focus mode on a change did not open")
            decided = "ids => ids.map(id => window.PopoverGoldens.decision(id))"
            page.keyboard.press("a")
            check(page.evaluate(decided, members) == ["accept"] * len(members), "a on an accepted change took it back")
            page.keyboard.press("Escape")
        # A fresh visit with filters in the address takes them from there.
        page.goto(url + "#q=" + cases[0])
        page.wait_for_function("() => !!window.PopoverGoldens")
        check(page.input_value("#f-q") == cases[0], "the address's filter was not applied")
        page.click("#f-reset")

        command = page.inner_text(".review-command code")
        check("--reports " in command and "--from approvals.json" in command, "the command shown: " + command)
        with page.expect_download() as waiting:
            page.click("#export-approvals")
        waiting.value.save_as(download)
        approvals = json.load(open(download))
        check(approvals["format"] == "popover-goldens approvals", "not an approvals file")
        ids = sorted(a["id"] for a in approvals["approvals"])
        check(ids == sorted(cases[:2]), "exported %s" % ids)
        for a in approvals["approvals"]:
            c = page.evaluate("id => window.PopoverGoldens.caseById(id)", a["id"])
            check(a["actual"] == c["actualDigest"] and len(a["actual"]) == 64, "actual digest differs for " + a["id"])
            check(a["expected"] == c["expectedDigest"], "expected digest differs for " + a["id"])
        check(not errors, "the page threw: %s" % errors)
        b.close()


def digest(path):
    try:
        return hashlib.sha256(open(path, "rb").read()).hexdigest()
    except FileNotFoundError:
        return None


def live(url, golden, case_id):
    with sync_playwright() as p:
        b = browser(p)
        page = b.new_page(viewport={"width": 1400, "height": 1000})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # Every decision the page sends, by path: what a double click or a second key costs.
        sent = []
        page.on("request", lambda r: sent.append(r.url.split("?")[0].rsplit("/", 1)[-1]) if r.method == "POST" else None)
        page.goto(url)
        check(page.locator(".review.live").count() == 1, "the page did not switch to live review")
        check(not axe_violations(page), "axe found in live review: %s" % axe_violations(page))
        check(page.locator("#export-approvals").count() == 0 and page.locator(".review-command").count() == 0,
              "the live page offers the export")
        the_line = line(page, case_id)
        # Images load without the token in their address: the read-only cookie carries it.
        the_line.locator(".case-open").click()
        image = the_line.locator("img.px").first
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle(), timeout=10000)
        # Served, the page may read the images' pixels: their values under the pointer.
        the_line.locator(".port").nth(1).scroll_into_view_if_needed()
        port = the_line.locator(".port").nth(1).bounding_box()
        page.mouse.move(port["x"] + port["width"] / 2, port["y"] + port["height"] / 2)
        page.mouse.move(port["x"] + port["width"] / 2 + 1, port["y"] + port["height"] / 2)
        page.wait_for_function("el => el.textContent.includes('actual rgba(')",
                               arg=the_line.locator(".readout").element_handle(), timeout=10000)
        readout = the_line.locator(".readout").inner_text()
        check("expected rgba(" in readout and "actual rgba(" in readout, "the pixel values under the pointer: " + readout)
        status = page.evaluate("id => window.PopoverGoldens.caseById(id).status", case_id)
        chip = page.locator('[data-status-chip="%s"] b' % status)
        chip_before = int(chip.inner_text())
        cell = page.locator('table.matrix td.c[data-case="%s"]' % case_id)
        before = digest(golden)
        accept = the_line.locator('[data-decide="accept"]')
        check(accept.count() == 1 and the_line.locator("input[type=checkbox]").count() == 0, "not one Accept control")
        # A double click sends one request: the second press finds it pending.
        accept.dblclick()
        # The page marks it once the server has answered, which it does once the golden is written.
        page.wait_for_selector('#case-list article.case.accepted[data-case="%s"]' % case_id)
        check(sent == ["accept"], "a double click sent %s" % sent)
        # Accept again on an accepted case: nothing is sent, nothing toggles.
        accept.click()
        check(sent == ["accept"] and page.evaluate("id => window.PopoverGoldens.decision(id)", case_id) == "accept",
              "a second Accept sent %s" % sent)
        check(digest(golden) != before, "the golden did not change on disk")
        # Counts follow: the chip, the progress, the matrix cell.
        check(int(chip.inner_text()) == chip_before - 1, "the chip still says %s" % chip.inner_text())
        check("1 accepted" in progress(page), "progress says " + progress(page))
        check("accepted" in (cell.get_attribute("class") or ""), "the matrix cell does not show it accepted")
        # Undo puts it back.
        the_line.locator('[data-decide="undo"]').click()
        page.wait_for_selector('#case-list article.case[data-case="%s"]:not(.accepted)' % case_id)
        check(sent == ["accept", "undo"], "undo sent %s" % sent)
        check(digest(golden) == before, "the golden was not restored")
        check(int(chip.inner_text()) == chip_before, "after undo the chip says %s" % chip.inner_text())
        decidable = page.evaluate("window.PopoverGoldens.progress().decidable")
        check(progress(page).startswith("%d undecided" % decidable), "after undo progress says " + progress(page))
        check("accepted" not in (cell.get_attribute("class") or ""), "the matrix cell still shows it accepted")
        # After a reload the server's rewritten page shows the state too (not accepted).
        page.reload()
        check(page.evaluate("id => window.PopoverGoldens.decision(id)", case_id) is None, "reload shows it accepted")
        # Focus mode: a pressed twice sends one acceptance, and the queue moves on only
        # once the server has answered.
        del sent[:]
        line(page, case_id).locator("[data-focus-case]").click()
        page.keyboard.press("a")
        page.keyboard.press("a")
        page.wait_for_function("id => window.PopoverGoldens.decision(id) === 'accept'", arg=case_id)
        check(sent == ["accept"], "a pressed twice sent %s" % sent)
        items = page.evaluate("window.PopoverGoldens.focus.state.items.length")
        if items > 1:
            page.wait_for_function("id => !document.querySelector('#focus h2').textContent.includes(id)", arg=case_id)
        check(not axe_violations(page), "axe found in live focus mode: %s" % axe_violations(page))
        page.keyboard.press("k") if items > 1 else None
        page.keyboard.press("u")
        page.wait_for_function("id => window.PopoverGoldens.decision(id) === null", arg=case_id)
        check(digest(golden) == before, "u did not restore the golden")
        page.keyboard.press("Escape")
        # A whole change in one action: every member's golden is written.
        change = page.locator("#changes-list article.change").first
        change.wait_for()
        change_id = change.get_attribute("data-change")
        members = page.evaluate("""id => { const PG = window.PopoverGoldens;
            return PG.data.changes.find(c => c.id === id).members.map(i => PG.data.cases[i].id); }""", change_id)
        change.locator('[data-decide-change="accept"]').click()
        page.wait_for_function("ids => ids.every(id => window.PopoverGoldens.decision(id) === 'accept')", arg=members,
                               timeout=30000)
        check(("%d accepted" % len(members)) in progress(page), "after accepting the change progress says " + progress(page))
        if case_id in members:
            check(digest(golden) != before, "the change's golden did not change on disk")
        check(not errors, "the page threw: %s" % errors)
        b.close()


AXE_RUN = """() => axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
                                       resultTypes: ['violations'] })
              .then(r => r.violations.map(v => v.id + ' (' + v.impact + '): ' + v.nodes.length + ' nodes, e.g. ' + v.nodes[0].target.join(' ')))"""


def axe_violations(page):
    """axe-core (bundled by the axe-playwright-python package, no download), WCAG 2.1 A
    and AA: every violation, whatever its impact."""
    if not page.evaluate("!!window.axe"):
        import axe_playwright_python
        page.add_script_tag(path=os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js"))
    return page.evaluate(AXE_RUN)


def ready(page):
    """The page's script has run and the first screen is drawn."""
    page.wait_for_function("() => !!window.PopoverGoldens && !document.body.classList.contains('nojs')")
    # A reload keeps the scroll position; the changes are drawn only near the screen.
    if page.locator("#changes-list").count() and page.evaluate("window.scrollY") == 0:
        page.locator("#changes-list article.change").first.wait_for()


PHONE = {"width": 390, "height": 844}


def fits_phone(page, where):
    width = page.evaluate("document.documentElement.scrollWidth")
    check(width == PHONE["width"], "at 390 px the page scrolls sideways (%s): scrollWidth %d" % (where, width))
    bar = page.evaluate("document.getElementById('bar').getBoundingClientRect().height")
    check(bar <= PHONE["height"] / 5, "at 390 x 844 the sticky bar is %.0f px high (%s)" % (bar, where))


def axe(report):
    """axe-core over the page at 1400 x 1000 and at 390 x 844: no violation, with a case
    open and in focus mode too. At 390 px nothing scrolls sideways and the sticky bar
    takes at most a fifth of the height; the viewer is one pane. And the keyboard: the
    skip link reaches the cases in two presses of Tab, and the overview's matrix is one
    stop."""
    with sync_playwright() as p:
        b = browser(p)
        for viewport in [{"width": 1400, "height": 1000}, PHONE]:
            page = b.new_page(viewport=viewport)
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto("file://" + os.path.abspath(report) + "/index.html")
            ready(page)
            phone = viewport is PHONE
            where = "%dx%d" % (viewport["width"], viewport["height"])
            check(not axe_violations(page), "axe found on the page at %s: %s" % (where, axe_violations(page)))
            if phone:
                fits_phone(page, "first screen")
                rep = page.locator("#changes-list .viewer").first
                if rep.count():
                    check(rep.locator(".port").count() == 1, "at 390 px the change's viewer shows %d panes" % rep.locator(".port").count())
                # The counts' tiles hold their numbers.
                overflowing = page.evaluate("""Array.from(document.querySelectorAll('.tile b'))
                    .filter(b => b.scrollWidth > b.clientWidth || b.getBoundingClientRect().right > b.parentNode.getBoundingClientRect().right)
                    .map(b => b.textContent)""")
                check(not overflowing, "at 390 px these counts overflow their tiles: %s" % overflowing)
            first = page.evaluate("window.PopoverGoldens.data.cases[0].id")
            line(page, first).locator(".case-open").click()
            check(not axe_violations(page), "axe found with a case open at %s: %s" % (where, axe_violations(page)))
            if phone:
                fits_phone(page, "a case open")
            page.click("#focus-open")
            page.locator("#focus .viewer, #focus .focus-done").first.wait_for()
            check(not axe_violations(page), "axe found in focus mode at %s: %s" % (where, axe_violations(page)))
            if phone:
                fits_phone(page, "focus mode")
                check(page.locator("#focus .port").count() <= 1, "at 390 px focus mode shows %d panes" % page.locator("#focus .port").count())
            page.keyboard.press("Escape")
            check(not errors, "the page threw: %s" % errors)
            if phone:
                page.close()
                continue

            # Keyboard, from a fresh page: two presses of Tab reach the skip link's target.
            page.reload()
            ready(page)
            page.keyboard.press("Tab")
            check(page.evaluate("document.activeElement.className") == "skip", "the first Tab stop is not the skip link")
            page.keyboard.press("Enter")
            page.keyboard.press("Tab")
            inside = page.evaluate("!!document.activeElement.closest('#changes, #cases')")
            check(inside, "after the skip link, Tab is at %s" % page.evaluate("document.activeElement.outerHTML.slice(0, 80)"))
            # The matrix: one Tab stop; arrows move inside it; focus shows the card.
            cell = page.locator("table.matrix td.c[tabindex='0']").first
            start = cell.get_attribute("data-case")
            cell.focus()
            check(page.locator("#matrix-card").is_visible(), "focusing a cell shows no card")
            check(start in page.inner_text("#matrix-card"), "the card does not name the focused case")
            page.keyboard.press("ArrowRight")
            moved = page.evaluate("document.activeElement.getAttribute('data-case')")
            check(moved and moved != start, "ArrowRight did not move in the matrix")
            table = page.evaluate("document.activeElement.closest('table') && document.activeElement.closest('table').getAttribute('aria-label')")
            page.keyboard.press("Tab")
            after = page.evaluate("document.activeElement.closest('table') ? document.activeElement.closest('table').getAttribute('aria-label') : ''")
            check(after != table, "Tab stayed inside the matrix")
            # Every cell of the matrix lies whole inside its column (none half clipped).
            clipped = page.evaluate("""Array.from(document.querySelectorAll('table.matrix td.c')).slice(0, 400).filter(td => {
                const s = getComputedStyle(td), r = td.getBoundingClientRect();
                return r.width - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) < 13.5; }).map(td => td.dataset.case).slice(0, 3)""")
            check(not clipped, "matrix cells narrower than their mark: %s" % clipped)
            # Hundreds of decision buttons, each named after its case or change.
            unnamed = page.evaluate("""Array.from(document.querySelectorAll('[data-decide], [data-decide-change], [data-focus-decide]'))
                .filter(b => !(b.getAttribute('aria-label') || '').includes(b.getAttribute('data-for') || b.getAttribute('data-change') || '\u0000'))
                .map(b => b.outerHTML.slice(0, 120))""")
            check(not unnamed, "decision buttons not named after their case or change: %s" % unnamed[:3])
            # The change index: every change on the first screen, each with its ID and Accept.
            index = page.evaluate("""() => Array.from(document.querySelectorAll('table.change-index tbody tr:not([hidden])'))
                .map(r => r.textContent)""")
            changes = page.evaluate("window.PopoverGoldens.data.changes.map(c => c.id)")
            check(len(index) == len(changes) and all(c in row for c, row in zip(changes, index)),
                  "the change index lists %s for the changes %s" % (index, changes))
            check(not errors, "the page threw: %s" % errors)
            page.close()
        b.close()


def regions(report, case_id, changed_file):
    """The viewer steps through the regions of a thin change: each framed region lies in
    the pane, holds changed pixels and fills a good part of the pane; together they hold
    every changed pixel (read from CHANGED_FILE, worked out from the two images by the
    caller, not by the page)."""
    changed = [tuple(p) for p in json.load(open(changed_file))]
    with sync_playwright() as p:
        b = browser(p)
        for viewport in [{"width": 1400, "height": 1000}, PHONE]:
            page = b.new_page(viewport=viewport)
            page.goto("file://" + os.path.abspath(report) + "/index.html")
            ready(page)
            the_line = line(page, case_id)
            the_line.locator(".case-open").click()
            viewer = the_line.locator(".viewer")
            viewer.scroll_into_view_if_needed()
            page.wait_for_function("v => Array.from(v.querySelectorAll('img.px')).every(i => i.complete && i.naturalWidth > 0)",
                                   arg=viewer.element_handle())
            natural = int(viewer.locator("img.px").first.get_attribute("width"))
            dpr = page.evaluate("window.devicePixelRatio")
            step = viewer.locator('[data-region-step="1"]')
            check(step.count() == 1, "the viewer offers no way to the changed regions")
            seen, covered = set(), set()
            while True:
                step.click()
                f = viewer.evaluate("""v => { const port = v.querySelector('.port'), frame = port.querySelector('.region'),
                    img = port.querySelector('.layer:not([hidden]) img.px').getBoundingClientRect(), p = port.getBoundingClientRect(),
                    r = frame.getBoundingClientRect();
                    return { hidden: frame.hidden, img: [img.left, img.top, img.width], port: [p.left, p.top, p.width, p.height],
                             frame: [r.left, r.top, r.width, r.height] }; }""")
                check(not f["hidden"], "the framed region is hidden")
                s = f["img"][2] / natural
                # The frame is drawn 2 px outside the region.
                x0 = (f["frame"][0] + 2 - f["img"][0]) / s
                y0 = (f["frame"][1] + 2 - f["img"][1]) / s
                x1 = x0 + (f["frame"][2] - 4) / s
                y1 = y0 + (f["frame"][3] - 4) / s
                key = (round(x0), round(y0), round(x1), round(y1))
                if key in seen:
                    break
                seen.add(key)
                check(len(seen) <= 64, "more than 64 regions")
                port = f["port"]
                check(f["frame"][0] >= port[0] - 3 and f["frame"][1] >= port[1] - 3 and
                      f["frame"][0] + f["frame"][2] <= port[0] + port[2] + 3 and f["frame"][1] + f["frame"][3] <= port[1] + port[3] + 3,
                      "region %s is not inside its pane %s" % (f["frame"], port))
                # Shown at one device pixel or more per image pixel: a one-pixel change stays
                # visible (the box of every changed pixel, fitted, showed flat fill).
                check(s * dpr >= 0.99, "region %s is shown at %.3f device pixels per image pixel" % (key, s * dpr))
                check(max(f["frame"][2] / port[2], f["frame"][3] / port[3]) >= 0.2,
                      "region %s fills too little of its pane %s" % (f["frame"], port))
                inside = [c for c in changed if x0 - 0.5 <= c[0] < x1 + 0.5 and y0 - 0.5 <= c[1] < y1 + 0.5]
                check(inside, "the framed region %s holds no changed pixel" % (key,))
                covered.update(inside)
            missed = [c for c in changed if c not in covered]
            check(not missed, "%d changed pixels lie in no region, e.g. %s" % (len(missed), missed[:3]))
            page.close()
        b.close()


def pieces(report):
    """The browser runs what has arrived while it waits for the rest (an observer's
    callback, say): a page whose scripts were split over elements could draw its list
    with half of them. Here the page arrives in pieces, cut after each script element."""
    import http.server
    import threading
    html = open(os.path.join(report, "index.html"), "rb").read()
    cuts, at = [], 0
    while html.find(b"</script>", at) >= 0:
        at = html.find(b"</script>", at) + len(b"</script>")
        cuts.append(at)

    # The server holds each next piece until the test has seen the browser parse the script
    # before it and render a frame (an observer's callbacks run there): the gap a slow network
    # leaves, on a condition rather than a clock.
    released = [threading.Event() for _ in cuts]

    class Pieces(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            try:
                self.answer()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the browser closed: nothing left to tell it

        def answer(self):
            if self.path != "/":
                # The images, whole and at once.
                root = os.path.abspath(report)
                path = os.path.normpath(os.path.join(root, self.path.split("?")[0].lstrip("/")))
                if not path.startswith(root + os.sep) or not os.path.isfile(path):
                    self.send_error(404)
                    return
                body = open(path, "rb").read()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(html)))
            self.end_headers()
            start = 0
            for k, cut in enumerate(cuts + [len(html)]):
                self.wfile.write(html[start:cut])
                self.wfile.flush()
                start = cut
                if k < len(cuts) and not released[k].wait(60):
                    return  # the test gave up: it says why

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Pieces)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as p:
            b = browser(p)
            page = b.new_page(viewport={"width": 1400, "height": 1000})
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto("http://127.0.0.1:%d/" % server.server_address[1], wait_until="commit")
            for k, piece in enumerate(released):
                page.wait_for_function("n => document.scripts.length >= n", arg=k + 1)
                page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
                piece.set()
            # Every piece has arrived and run.
            page.wait_for_load_state("load")
            shown = page.evaluate("window.PopoverGoldens.shownCases().map(c => c.id)")
            check(len(shown) > 0, "the list shows no case")
            missing = page.evaluate("""ids => ids.filter(id => {
                const slot = window.PopoverGoldens.slotOf(id);
                return !slot || !slot.querySelector('article.case');
            })""", shown)
            check(not errors, "the page threw: %s" % errors)
            check(not missing, "%d of %d cases have no line, e.g. %s" % (len(missing), len(shown), missing[:3]))
            b.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    try:
        if sys.argv[1] == "static":
            static(sys.argv[2], sys.argv[3], sys.argv[4:])
        elif sys.argv[1] == "live":
            live(sys.argv[2], sys.argv[3], sys.argv[4])
        elif sys.argv[1] == "axe":
            for folder in sys.argv[2:]:
                axe(folder)
        elif sys.argv[1] == "regions":
            regions(sys.argv[2], sys.argv[3], sys.argv[4])
        elif sys.argv[1] == "pieces":
            pieces(sys.argv[2])
        else:
            raise AssertionError("unknown mode " + sys.argv[1])
    except AssertionError as e:
        sys.stderr.write("report_in_chromium: %s\n" % e)
        sys.exit(1)
    print("ok")
