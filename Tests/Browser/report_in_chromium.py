"""Drives the report's page in headless Chromium through Playwright, the way a reviewer
uses it, and checks what the page does. CommandLineTests/BrowserTests.swift prepares a
failing run, calls this script, and checks the files afterwards.

  python3 report_in_chromium.py static REPORT_FOLDER DOWNLOAD_PATH CASE_ID...
      opens REPORT_FOLDER/index.html from disk: views, zoom, filters, keys, accept
      toggles, "choose all shown", and exports approvals.json to DOWNLOAD_PATH.
  python3 report_in_chromium.py time REPORT_FOLDER
      opens REPORT_FOLDER/index.html from disk and prints, as JSON, the seconds to its
      first contentful paint, to its largest contentful paint (the first screen shown)
      and to its load event (the whole page parsed), and how many of its images had
      loaded by then (lazy images load only as they scroll into view): for the bench.
  python3 report_in_chromium.py live URL GOLDEN_PATH CASE_ID
      opens the page `popover-goldens review` serves, clicks Accept on CASE_ID, waits
      until the golden file at GOLDEN_PATH changes, then Undo until it is back.

Chromium is Debian's (/usr/bin/chromium, or $CHROMIUM): Playwright downloads no browser.
Exit status 0 when every check holds; otherwise a message on standard error and 1.
"""
import hashlib
import json
import os
import sys
import time

from playwright.sync_api import sync_playwright


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def section(page, case_id):
    return page.locator('details.case[data-case="%s"]' % case_id)


def browser(playwright):
    executable = os.environ.get("CHROMIUM") or "/usr/bin/chromium"
    return playwright.chromium.launch(executable_path=executable, args=["--no-sandbox", "--disable-dev-shm-usage"])


def static(report, download, cases):
    with sync_playwright() as p:
        b = browser(p)
        page = b.new_page(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("file://" + os.path.abspath(report) + "/index.html")
        check(not page.locator("body.nojs").count(), "the script did not run")

        # Views: the first case opens with its tools; the slider changes the layout.
        first = section(page, cases[0])
        check(first.get_attribute("open") is not None, "the first failing case should start open")
        viewer = first.locator(".viewer")
        viewer.locator('[data-mode-to="slider"]').click()
        check(viewer.get_attribute("data-mode") == "slider", "Slider did not switch the view")
        viewer.locator('[data-mode-to="blink"]').click()
        check(viewer.get_attribute("data-mode") == "blink", "Blink did not switch the view")
        viewer.locator('[data-mode-to="side"]').click()
        # Zoom 4: one image pixel is four device pixels.
        viewer.locator('[data-zoom-to="4"]').click()
        img = viewer.locator("img.px").first
        natural = int(img.get_attribute("width"))
        shown = page.evaluate("(el) => el.getBoundingClientRect().width * window.devicePixelRatio", img.element_handle())
        check(abs(shown - natural * 4) < 1, "zoom 4 shows %s device pixels for %s image pixels" % (shown, natural))

        # Filters: searching an ID leaves that case; the status chip hides failures.
        total = page.locator("details.case").count()
        page.fill("#f-q", cases[1])
        page.wait_for_timeout(300)
        visible = page.locator("details.case:not([hidden])").count()
        check(visible == 1, "searching %s left %d cases shown" % (cases[1], visible))
        page.click("#f-reset")
        page.wait_for_timeout(100)
        check(page.locator("details.case:not([hidden])").count() == total, "Reset did not show every case again")

        # Keys: j moves to the next case.
        page.keyboard.press("Escape")
        page.evaluate("window.scrollTo(0, 0)")
        page.keyboard.press("j")
        page.wait_for_timeout(200)
        check(page.evaluate("window.scrollY") > 0, "j did not move to a case")

        # Accept toggles: one by hand, then every case the search shows.
        box = page.locator('input[data-accept="%s"]' % cases[0])
        box.check()
        check(section(page, cases[0]).get_attribute("open") is not None, "ticking accept must not fold the case")
        check(page.inner_text("#accept-count") == "1 chosen", "the count says " + page.inner_text("#accept-count"))
        page.fill("#f-q", cases[1])
        page.wait_for_timeout(300)
        page.click("#accept-shown")
        check(page.inner_text("#accept-count") == "2 chosen", "choose all shown: " + page.inner_text("#accept-count"))
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
            s = section(page, a["id"])
            check(a["actual"] == s.get_attribute("data-actual-digest"), "actual digest differs for " + a["id"])
            check(a["expected"] == s.get_attribute("data-expected-digest"), "expected digest differs for " + a["id"])
        check(not errors, "the page threw: %s" % errors)
        b.close()


def digest(path):
    try:
        return hashlib.sha256(open(path, "rb").read()).hexdigest()
    except FileNotFoundError:
        return None


def wait_for(predicate, what, seconds=10):
    end = time.time() + seconds
    while time.time() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def live(url, golden, case_id):
    with sync_playwright() as p:
        b = browser(p)
        page = b.new_page(viewport={"width": 1400, "height": 1000})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        check(page.locator(".review.live").count() == 1, "the page did not switch to live review")
        # Images load without the token in their address: the read-only cookie carries it.
        image = section(page, case_id).locator("img.px").first
        image.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle(), timeout=10000)
        before = digest(golden)
        section(page, case_id).locator('[data-accept-now="%s"]' % case_id).click()
        page.wait_for_selector('details.case.accepted[data-case="%s"]' % case_id)
        wait_for(lambda: digest(golden) != before, "the golden to change on disk")
        section(page, case_id).locator('[data-undo="%s"]' % case_id).click()
        page.wait_for_selector('details.case[data-case="%s"]:not(.accepted)' % case_id)
        wait_for(lambda: digest(golden) == before, "the golden to be restored")
        # After a reload the server's rewritten page shows the state too (not accepted).
        page.reload()
        check(page.locator('details.case.accepted[data-case="%s"]' % case_id).count() == 0, "reload shows it accepted")
        check(not errors, "the page threw: %s" % errors)
        b.close()


# Watches long tasks (over 50 ms), layout shifts and the time from each input to the next
# paint (Event Timing), from before the page's first byte.
OBSERVE = """
window.__figures = { longTasks: [], shifts: [], events: [] };
new PerformanceObserver(list => list.getEntries().forEach(e =>
    window.__figures.longTasks.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask', buffered: true });
new PerformanceObserver(list => list.getEntries().forEach(e => {
    if (!e.hadRecentInput) window.__figures.shifts.push({ start: e.startTime, value: e.value });
})).observe({ type: 'layout-shift', buffered: true });
new PerformanceObserver(list => list.getEntries().forEach(e =>
    window.__figures.events.push({ name: e.name, start: e.startTime, duration: e.duration }))).observe({ type: 'event', buffered: true, durationThreshold: 16 });
"""


def open_page(p, url):
    b = browser(p)
    page = b.new_page(viewport={"width": 1400, "height": 1000})
    page.add_init_script(OBSERVE)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="load")
    return b, page, errors


def click_to_paint(page, action):
    """Milliseconds from the input's start to the next paint after it (Event Timing's
    duration for the slowest event of the action), and the longest task it caused."""
    page.evaluate("window.__figures.events = []; window.__figures.longTasks = []")
    action()
    # Let the paint after the input happen, and its entry arrive.
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 150)))")
    f = page.evaluate("window.__figures")
    events = [e["duration"] for e in f["events"] if e["name"] in ("click", "pointerup", "pointerdown", "keydown", "keyup", "input", "change", "mousedown", "mouseup")]
    return {"toNextPaintMs": max(events) if events else 0, "longestTaskMs": max([t["duration"] for t in f["longTasks"]] or [0])}


def timing(report):
    """The page's figures for the bench: first paint, largest paint and load; the longest
    task while loading, the total blocking time (each task's time past 50 ms), the
    cumulative layout shift; then, per main control, the time from a click to the next
    paint and the longest task it caused."""
    with sync_playwright() as p:
        b, page, errors = open_page(p, "file://" + os.path.abspath(report) + "/index.html")
        page.wait_for_timeout(1500)
        load = page.evaluate("""() => {
            const paint = performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint');
            const nav = performance.getEntriesByType('navigation')[0];
            const lcp = performance.getEntriesByType('largest-contentful-paint').at(-1);
            const f = window.__figures;
            return { firstPaintSeconds: (paint ? paint.startTime : nav.loadEventEnd) / 1000,
                     firstScreenSeconds: (lcp ? lcp.startTime : nav.loadEventEnd) / 1000,
                     loadSeconds: nav.loadEventEnd / 1000,
                     imagesLoaded: Array.from(document.images).filter(i => i.complete && i.naturalWidth > 0).length,
                     imagesInPage: document.images.length,
                     elements: document.getElementsByTagName('*').length,
                     longestTaskMs: Math.max(0, ...f.longTasks.map(t => t.duration)),
                     totalBlockingMs: f.longTasks.reduce((s, t) => s + Math.max(0, t.duration - 50), 0),
                     layoutShift: f.shifts.reduce((s, e) => s + e.value, 0) };
        }""")
        controls = {}
        first_chip = page.locator("[data-status-chip]").first
        controls["status chip"] = click_to_paint(page, lambda: first_chip.click())
        first_chip.click()
        page.wait_for_timeout(200)
        skins = page.eval_on_selector_all("#f-skin option", "os => os.map(o => o.value).filter(Boolean)")
        if skins:
            controls["skin filter"] = click_to_paint(page, lambda: page.select_option("#f-skin", skins[0]))
        controls["search"] = click_to_paint(page, lambda: (page.fill("#f-q", "up/popover1"), page.wait_for_timeout(300)))
        controls["reset filters"] = click_to_paint(page, lambda: page.click("#f-reset"))
        page.evaluate("window.scrollTo(0, 0)")
        rep = page.locator("#changes-list .viewer").first
        if rep.count():
            controls["view: wipe"] = click_to_paint(page, lambda: rep.locator('[data-mode-to="wipe"]').click())
            controls["zoom 4"] = click_to_paint(page, lambda: rep.locator('[data-zoom-to="4"]').click())
            if rep.locator("[data-find]").count():
                controls["find change"] = click_to_paint(page, lambda: rep.locator("[data-find]").click())
            controls["accept a change"] = click_to_paint(page, lambda: page.locator("[data-decide-change=accept]").first.click())
            controls["undo a change"] = click_to_paint(page, lambda: page.locator("[data-decide-change=accept]").first.click())
            members = page.locator("details.members > summary").first
            controls["open a change's cases"] = click_to_paint(page, lambda: members.click())
        page.evaluate("document.getElementById('case-list').scrollIntoView()")
        line = page.locator("#case-list .case-open").first
        line.wait_for()
        controls["open a case"] = click_to_paint(page, lambda: line.click())
        controls["accept a case"] = click_to_paint(page, lambda: page.locator("#case-list [data-decide=accept]").first.click())
        page.locator("#case-list [data-decide=accept]").first.click()
        controls["matrix cell"] = click_to_paint(page, lambda: page.locator("table.matrix td.c").nth(500).click())
        page.evaluate("window.scrollTo(0, 0)")
        controls["focus mode"] = click_to_paint(page, lambda: page.click("#focus-open"))
        controls["focus: next (j)"] = click_to_paint(page, lambda: page.keyboard.press("j"))
        controls["focus: accept (a)"] = click_to_paint(page, lambda: page.keyboard.press("a"))
        controls["focus: keep (x)"] = click_to_paint(page, lambda: page.keyboard.press("x"))
        page.keyboard.press("Escape")
        load["controls"] = controls
        load["errors"] = errors
        b.close()
        print(json.dumps(load))


if __name__ == "__main__":
    try:
        if sys.argv[1] == "static":
            static(sys.argv[2], sys.argv[3], sys.argv[4:])
        elif sys.argv[1] == "time":
            timing(sys.argv[2])
            sys.exit(0)
        elif sys.argv[1] == "live":
            live(sys.argv[2], sys.argv[3], sys.argv[4])
        else:
            raise AssertionError("unknown mode " + sys.argv[1])
    except AssertionError as e:
        sys.stderr.write("report_in_chromium: %s\n" % e)
        sys.exit(1)
    print("ok")
