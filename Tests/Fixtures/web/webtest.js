// The in-page test script of Tests/CockpitWebTests/WebBrowserTests.swift, served as /test.js by cockpit-web only
// with --test-script. It walks through every page, reports what each render showed (POST /test/report, one JSON
// object per line in --test-report), and reports errors, security-policy violations and every URL the page loaded;
// or, opened as /?layout=W, checks the Now page at a phone's width W; or, opened as /?box=1, reports the Box page.
(function () {
  'use strict';
  const errors = [];
  const post = o => fetch('/test/report', {method: 'POST', body: JSON.stringify(o)}).catch(() => {});
  window.addEventListener('error', e => errors.push('error: ' + e.message));
  window.addEventListener('unhandledrejection', e => errors.push('rejection: ' + e.reason));
  document.addEventListener('securitypolicyviolation', e => errors.push('csp: ' + e.blockedURI + ' ' + e.violatedDirective));
  const consoleError = console.error;
  console.error = (...a) => { errors.push('console: ' + a.join(' ')); consoleError.apply(console, a); };
  const text = id => { const e = document.getElementById(id); return e ? e.textContent : null; };
  // `/?box=1#box`: no walk; each render of the Box page reports its headings and table rows ("key: value"), for
  // Tests/CockpitDataUpdateTests/DataBoxPageTests.swift.
  if (new URLSearchParams(location.search).get('box')) {
    window.cockpit.rendered.push((page, st) => {
      if (!st || page !== 'box') return;
      const rows = [...document.querySelectorAll('#box h2, #box tr')].map(e => e.tagName === 'H2' ? '# ' + e.textContent
        : [...e.children].map(c => c.textContent).join(': '));
      post({kind: 'box', revision: st.revision, rows, errors: errors.splice(0)});
    });
    return;
  }
  // `/?layout=W#now`: the phone-width check instead of the walk. Once the window is W pixels wide and the Now page
  // has rendered a snapshot, it reports where each tab sits and every text the page shows, in the day theme and then
  // the night theme.
  const layout = Number(new URLSearchParams(location.search).get('layout') || 0);
  if (layout) {
    // This page load's token: its reports say which load they come from.
    const run = 'w' + layout + '-' + Math.random().toString(36).slice(2, 10);
    const measure = theme => {
      const nav = document.getElementById('tabs');
      const tabs = [...nav.children].map(e => {
        const r = e.getBoundingClientRect();
        return {label: e.textContent || e.getAttribute('aria-label'), offsetTop: e.offsetTop, top: r.top, left: r.left,
          right: r.right, width: r.width, height: r.height};
      });
      post({kind: 'layout', run, width: window.innerWidth, theme, navScrollWidth: nav.scrollWidth, navClientWidth: nav.clientWidth,
        navHeight: nav.getBoundingClientRect().height, tabs, state: text('v-state'), detail: text('v-profile'),
        flight: window.cockpit.state.status ? window.cockpit.state.status.flight : null,
        pageText: document.body.innerText, errors: errors.splice(0)});
    };
    let stage = 0;
    window.cockpit.rendered.push((page, st) => {
      if (!st || page !== 'now' || window.innerWidth !== layout) return;
      if (stage === 0) { stage = 1; measure('day'); location.hash = '#now/night'; }
      else if (stage === 1 && document.documentElement.className === 'night') { stage = 2; measure('night'); post({kind: 'layout-done', run, width: layout}); }
    });
    setTimeout(() => { if (stage < 2) post({kind: 'layout-stuck', run, width: window.innerWidth, stage}); }, 25000);
    return;
  }
  let lastRevision = null;
  window.cockpit.rendered.push((page, st) => {
    if (!st || st.revision === lastRevision) return;
    lastRevision = st.revision;
    const r = {kind: 'render', page, revision: st.revision, at: Date.now(), track: st.gps ? st.gps.trackTrueDegrees : null};
    if (page === 'now') r.shown = {gpsAlt: text('v-gps-alt'), cabinAlt: text('v-cabin-alt'), gs: text('v-gs'), track: text('v-track'),
      state: text('v-state'), detail: text('v-profile'), dose: text('v-dose'), banner: document.getElementById('link').hidden ? null : text('link')};
    if (page === 'where') {
      const g = document.getElementById('plan-rot');
      r.shown = {transform: g.getAttribute('transform'), strips: g.querySelectorAll('polygon').length,
        labels: [...g.querySelectorAll('text')].map(t => t.textContent), chosen: window.cockpit.state.chosen,
        rows: document.querySelectorAll('#fields tr').length - 1, info: text('plan-info')};
    }
    if (page === 'traffic') r.shown = {rings: document.querySelectorAll('#radar .ring').length, head: text('radar-head')};
    if (page === 'altitude') r.shown = {paths: document.querySelectorAll('#graph-s path').length + document.querySelectorAll('#graph-m path').length,
      source: text('alt-src-s')};
    if (page === 'box') r.shown = {tables: document.querySelectorAll('#box table').length, text: text('box').slice(0, 200),
      disk: [...document.querySelectorAll('#box h2')].some(e => e.textContent === 'Disk') ? text('box').slice(-60) : null};
    post(r);
  });
  let linked = null;
  setInterval(() => {
    const now = !!window.cockpit.state.link.connected;
    if (now !== linked) { linked = now; post({kind: 'link', connected: now, at: Date.now(), banner: text('link'), gpsAlt: text('v-gps-alt')}); }
  }, 100);
  const pages = [['now', 6000], ['where', 10000], ['traffic', 2500], ['altitude', 2500], ['flights', 2500], ['box', 2500]];
  let step = 0;
  function next() {
    if (step > 0) {
      const [page] = pages[step - 1];
      const resources = performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))
        .map(e => ({url: e.name, bytes: e.encodedBodySize, type: e.initiatorType || 'navigation'}));
      post({kind: 'page-done', page, errors: errors.splice(0), resources,
        flights: page === 'flights' ? text('flight-list') : undefined});
    }
    if (step === pages.length) { location.hash = '#where'; post({kind: 'cycle-done'}); return; }
    const [page, dwell] = pages[step++];
    location.hash = '#' + page;
    setTimeout(next, dwell);
  }
  setTimeout(next, 300);
  // Errors after the cycle (the daemon restart) are reported every second.
  setInterval(() => { if (step === pages.length && errors.length) post({kind: 'late-errors', errors: errors.splice(0)}); }, 1000);
})();
