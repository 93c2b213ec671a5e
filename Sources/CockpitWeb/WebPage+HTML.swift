// The page's document and style sheet. Large type, a day theme and a night theme (html.night), nothing that needs a
// second look: one value per line, its unit beside it, "—" for no data.

enum WebPage {
    static let html = #"""
<!doctype html>
<html lang="en" class="day"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="generator" content="{{VERSION}}">
<title>cockpit</title><link rel="stylesheet" href="/app.css">
<link rel="icon" href="data:,">
<script src="/app.js" defer></script>{{TEST}}
</head><body>
<nav id="tabs"><a href="#now">Now</a><a href="#where" title="Where to go">Where</a><a href="#traffic">Traffic</a><a href="#altitude" title="Altitude">Alt</a><a href="#flights" title="Flights (the flight log)">Log</a><a href="#box">Box</a><button id="theme" type="button" title="Night theme" aria-label="Night theme"><svg viewBox="-12 -12 24 24" width="24" height="24" aria-hidden="true"><path class="moon" d="M3,-9.5 A10,10 0 1,0 9.5,3 A7.5,7.5 0 0,1 3,-9.5 z"/><g class="sun"><circle r="4.5"/><path d="M0,-11v4M0,7v4M-11,0h4M7,0h4M-7.8,-7.8l2.8,2.8M5,5l2.8,2.8M-7.8,7.8l2.8,-2.8M5,-5l2.8,-2.8"/></g></svg></button></nav>
<div id="link" class="banner" hidden></div>
<main>
<section id="page-now">
<div id="alerts"></div>
<div class="grid">
<div class="cell"><h2>GPS altitude</h2><b id="v-gps-alt">—</b><wbr><i>ft MSL</i><small id="v-gps-fix">—</small></div>
<div class="cell"><h2>Cabin altitude</h2><b id="v-cabin-alt">—</b><wbr><i>ft</i><small id="v-cabin-src">—</small></div>
<div class="cell"><h2>Ground speed</h2><b id="v-gs">—</b><wbr><i>kt</i></div>
<div class="cell"><h2>Track</h2><b id="v-track">—</b><wbr><i>true</i></div>
<div class="cell"><h2>Climb</h2><b id="v-climb">—</b><wbr><i>ft/min</i></div>
<div class="cell"><h2>Flight</h2><b id="v-state">—</b><small id="v-profile">—</small></div>
</div>
<div class="cell wide"><h2>Hypoxia dose</h2><div class="bar"><svg viewBox="0 0 100 10" preserveAspectRatio="none"><rect id="v-dose-bar" x="0" y="0" width="0" height="10"/><line id="v-dose-mark" x1="50" x2="50" y1="0" y2="10"/></svg></div>
<b id="v-dose">—</b><wbr><i>%</i> <small id="v-dose-note">—</small></div>
<div class="cell wide"><h2>Position</h2><span id="v-pos">—</span> <small id="v-utc">—</small></div>
<h2>Recent</h2><ul id="recent"></ul>
</section>
<section id="page-where" hidden>
<div id="plan"><svg id="plan-svg" viewBox="-100 -100 200 200"><g id="plan-rot"></g><path class="own" d="M0,80 l-6,12 l6,-4 l6,4 z"/></svg>
<div id="plan-info"></div></div>
<form id="metar-form"><input id="metar" placeholder="METAR for the wind (optional)" autocomplete="off"><button type="submit">Wind</button></form>
<table id="fields" class="list"></table>
</section>
<section id="page-traffic" hidden>
<svg id="radar" viewBox="-110 -110 220 220"></svg><div id="radar-head"></div><table id="targets" class="list"></table>
</section>
<section id="page-altitude" hidden>
<h2>Last 10 minutes, per second <small id="alt-src-s"></small></h2><svg id="graph-s" class="graph" viewBox="0 0 600 220"></svg>
<h2>Last 3 hours, per minute <small id="alt-src-m"></small></h2><svg id="graph-m" class="graph" viewBox="0 0 600 220"></svg>
<p class="legend"><span class="gps">GPS</span> <span class="cabin">cabin</span></p>
</section>
<section id="page-flights" hidden><table id="flight-list" class="list"></table></section>
<section id="page-box" hidden><div id="box"></div></section>
</main>
</body></html>
"""#

    static let css = #"""
:root{--bg:#fff;--fg:#000;--dim:#555;--line:#bbb;--warn:#c00;--caution:#b86e00;--ok:#06702c;--accent:#0047b3;--fill:#e8e8e8}
html.night{--bg:#000;--fg:#d8c9a8;--dim:#8a7f68;--line:#3a342a;--warn:#ff4d4d;--caution:#e0a020;--ok:#5cb85c;--accent:#7fa7e0;--fill:#1c1a16}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:22px/1.3 system-ui,sans-serif}
nav{display:flex;flex-wrap:nowrap;overflow-x:auto;gap:1px;background:var(--fill);position:sticky;top:0;z-index:2}
nav a,nav button{flex:1 0 auto;min-width:44px;min-height:48px;display:flex;align-items:center;justify-content:center;padding:0 .15em;white-space:nowrap;color:var(--fg);text-decoration:none;font:inherit;font-size:.72em;font-weight:700;background:none;border:0}
nav a.on{background:var(--fg);color:var(--bg)}
nav button{flex:0 0 46px;border-left:2px solid var(--line);cursor:pointer}
#theme svg{fill:var(--fg);stroke:var(--fg);stroke-width:2;stroke-linecap:round}#theme .moon{stroke:none}
html.night #theme .moon,html.day #theme .sun{display:none}
main{padding:.4em}
h2{font-size:.66em;margin:.3em 0;color:var(--dim);text-transform:uppercase;letter-spacing:.03em;font-weight:600}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(7.5em,1fr));gap:.4em}
.cell{border:1px solid var(--line);padding:.3em .5em;border-radius:6px}
.cell.wide{margin-top:.4em}
.cell b{font-size:min(2.1em,9.5vw);font-variant-numeric:tabular-nums}
#v-state{font-size:min(1.6em,7vw);display:block;line-height:1.15}
.cell i{font-style:normal;color:var(--dim);margin-left:.2em;white-space:nowrap}
.cell small{display:block;color:var(--dim);font-size:.7em}
.bar svg{width:100%;height:.8em;background:var(--fill)}
#v-dose-bar{fill:var(--ok)}#v-dose-bar.high{fill:var(--warn)}
#v-dose-mark{stroke:var(--warn);stroke-width:1.2}
.banner{background:var(--warn);color:#fff;font-weight:700;padding:.4em;text-align:center}
.alert{padding:.4em;margin-bottom:.3em;border-radius:6px;font-weight:700;border:3px solid}
.alert.warning{border-color:var(--warn);color:var(--warn)}.alert.caution{border-color:var(--caution);color:var(--caution)}.alert.advisory{border-color:var(--line)}
button.ack,#metar-form button{font:inherit;font-weight:700;padding:.4em 1em;border-radius:6px;border:2px solid var(--fg);background:var(--bg);color:var(--fg)}
ul{padding-left:1em;margin:.2em 0;font-size:.8em}
table.list{width:100%;border-collapse:collapse;font-size:.85em}
.list td,.list th{padding:.35em .3em;border-bottom:1px solid var(--line);text-align:left}
.list th{color:var(--dim);font-size:.7em;text-transform:uppercase}
.list tr.chosen{background:var(--fill);font-weight:700}
.list td.n{text-align:right;font-variant-numeric:tabular-nums}
.list a{color:var(--accent)}
#plan{display:flex;flex-wrap:wrap;gap:.5em;align-items:flex-start}
#plan-svg{width:min(100%,18em);background:var(--fill);border-radius:50%}
#plan-info{flex:1;min-width:10em}
.strip{fill:var(--dim);stroke:var(--fg);stroke-width:.4}
.strip.rec{fill:var(--ok)}.strip.closed{fill:none;stroke-dasharray:2 2}
.rwy{fill:var(--fg);font-size:9px;font-weight:700;text-anchor:middle;dominant-baseline:middle}
.rwy.rec{fill:var(--ok)}
.own{fill:var(--accent)}
.sock{stroke:var(--caution);stroke-width:2;fill:var(--caution)}
#metar-form{display:flex;gap:.3em;margin:.4em 0}#metar{flex:1;font:inherit;font-size:.7em;padding:.3em;background:var(--bg);color:var(--fg);border:1px solid var(--line)}
#radar{width:min(100%,22em);display:block;margin:auto}
.ring{fill:none;stroke:var(--line)}.ringlabel{fill:var(--dim);font-size:7px}
.tgt{stroke:var(--fg);stroke-width:.5}.tgt.above{fill:var(--accent)}.tgt.level{fill:var(--caution)}.tgt.below{fill:var(--ok)}.tgt.unknown{fill:var(--dim)}.tgt.prox{fill:var(--warn)}.tgt.old{fill-opacity:.3}
.tag{fill:var(--fg);font-size:7px}
.graph{width:100%;height:auto;background:var(--fill)}
.graph .gps{stroke:var(--accent);fill:none;stroke-width:2}.graph .cabin{stroke:var(--caution);fill:none;stroke-width:2}
.graph text{fill:var(--dim);font-size:13px}.graph line{stroke:var(--line)}
.legend .gps{color:var(--accent)}.legend .cabin{color:var(--caution)}
.kv{table-layout:fixed}.kv td{overflow-wrap:anywhere}.kv td:first-child{color:var(--dim);width:40%}
"""#
}
