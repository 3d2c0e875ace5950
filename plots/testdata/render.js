// Used by TestChartsRunInNode. Runs the <script>s of an HTML file in order
// in a fake page that has RequireJS's define (as Jupyter classic does),
// renders every chart with ECharts' server-side SVG renderer, and exits 1
// if a chart is not drawn exactly once or ECharts complains.
'use strict';
const fs = require('fs'), vm = require('vm');
const html = fs.readFileSync(process.argv[2], 'utf8');
const fail = (msg) => { console.log('FAIL ' + msg); process.exit(1); };

const divs = [...html.matchAll(/<div id="([^"]+)"/g)].map((m) => ({
  id: m[1], attrs: {},
  hasAttribute(a) { return a in this.attrs; },
  setAttribute(a, v) { this.attrs[a] = v; },
  querySelector() { return null; },
}));
const scripts = [...html.matchAll(/<script type="text\/javascript">([\s\S]*?)<\/script>/g)].map((m) => m[1]);
const complaints = [], amdCalls = [], drawn = [];
let echarts;
const quiet = (...a) => complaints.push(a.join(' '));
const page = {
  define: Object.assign(function () { amdCalls.push(arguments); }, { amd: {} }),
  navigator: { userAgent: 'node' },
  document: {
    documentElement: { style: {} },
    createElement() { return null; },
    querySelectorAll(sel) { const id = sel.match(/id="([^"]+)"/)[1]; return divs.filter((d) => d.id === id); },
  },
  console: { log: quiet, warn: quiet, error: quiet },
  setTimeout, clearTimeout,
};
page.window = page;
page.self = page;
// Charts call echarts.init(div); draw them server-side instead.
Object.defineProperty(page, 'echarts', {
  set(v) { echarts = v; },
  get() {
    if (!echarts) return undefined;
    return new Proxy(echarts, { get(t, k) {
      if (k !== 'init') return t[k];
      return (el) => {
        const c = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 720, height: 440 });
        drawn.push({ el, c });
        return c;
      };
    } });
  },
});
vm.createContext(page);
try {
  scripts.forEach((s) => vm.runInContext(s, page));
} catch (e) {
  fail('script threw: ' + e.message); // not the stack: it quotes 1 MB of bundle
}

if (!echarts) fail('window.echarts is not defined');
if (amdCalls.length) fail('the bundle called define(): RequireJS would have swallowed it');
if (drawn.length !== divs.length) fail(`${divs.length} divs but ${drawn.length} charts drawn`);
for (const d of divs) if (!d.hasAttribute('data-drawn')) fail(`div ${d.id} not drawn`);
for (const { el, c } of drawn) {
  let svg;
  try {
    svg = c.renderToSVGString();
  } catch (e) {
    fail(`${el.id}: render threw: ${e.message}`);
  }
  const opt = c.getOption();
  const f = opt.tooltip[0].formatter;
  if (typeof f === 'function') {
    const s = opt.series[0], d = s.data[s.data.length - 1];
    f({ seriesName: s.name, name: d.name || '', value: d.value || d });
  }
  const paths = (svg.match(/<path/g) || []).length;
  if (paths < 10) fail(`${el.id}: only ${paths} paths drawn`);
  console.log(`${el.id} ${opt.series.map((s) => s.type).join(',')} ${paths} paths`);
}
if (complaints.length) fail('console: ' + complaints.join(' | '));
console.log('ok echarts ' + echarts.version);
process.exit(0); // ECharts' animation timers would keep node alive
