// Package browsertest loads local HTML files in headless Chromium for tests: pages
// written by plots (ECharts charts with their script embedded) and notebooks exported
// to HTML must render with no network at all.
//
// Load starts Debian's Chromium (/usr/bin/chromium, from scripts/setup-browser.sh) with
// a new empty profile, opens a file:// URL, records every network request the page
// makes, and lets the test read the DOM, evaluate JavaScript and take a screenshot.
// Requests to http(s) and ws(s) are recorded and then blocked, so a page that would
// reach a CDN fails its test instead of touching the network. Require skips a test
// when Chromium is not installed, or fails it when TWINTORUS_BROWSER_REQUIRED=1.
//
// CheckText holds a figure's text to the rules a printed figure keeps: nothing
// clipped at its edge, no text over another or over a data mark, no number with a
// fraction past four significant digits. ChartTexts reads every ECharts chart on a
// page as ECharts laid it out (zrender's display list, once nothing animates), and
// CheckCharts applies the rules to them; package plots feeds CheckText its static
// figures' text too.
//
// The package drives the browser through github.com/chromedp/chromedp; beyond
// ECharts' layout it knows nothing about what the pages show.
package browsertest
