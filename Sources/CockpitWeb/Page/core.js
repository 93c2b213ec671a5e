const $=id=>document.getElementById(id);
const PAGES=['now','where','traffic','altitude','flights','box'];
const S={stillCount:0,status:null,link:{connected:false,reason:'starting'},page:'now',chosen:null,plan:null,live:[],metar:''};
window.cockpit={state:S,rendered:[]};
const NS='http://www.w3.org/2000/svg';
function el(tag,attrs,text){const e=document.createElementNS(NS,tag);for(const k in attrs)e.setAttribute(k,attrs[k]);if(text!=null)e.textContent=text;return e}
function h(tag,text,cls){const e=document.createElement(tag);if(text!=null)e.textContent=text;if(cls)e.className=cls;return e}
function num(v,d){return v==null||!isFinite(v)?'—':Number(v).toLocaleString('en-US',{maximumFractionDigits:d||0,minimumFractionDigits:d||0})}
function note(text){const r=h('tr'),c=h('td',text);c.colSpan=5;r.append(c);return r}
function set(id,text){const e=$(id);if(e&&e.textContent!==text)e.textContent=text}
function mmss(s){if(s==null)return '—';s=Math.round(s);const m=Math.floor(s/60);return m>=60?Math.floor(m/60)+' h '+String(m%60).padStart(2,'0'):m+':'+String(s%60).padStart(2,'0')}
function deg(v){return v==null?'—':String(Math.round(v)%360).padStart(3,'0')+'°'}
function setTheme(t){document.documentElement.className=t==='night'?'night':'day';const b=$('theme'),l=t==='night'?'Day theme':'Night theme';b.title=l;b.setAttribute('aria-label',l);try{localStorage.setItem('theme',t)}catch(e){}}
function route(){const parts=(location.hash.slice(1)||'now').split('/');S.page=PAGES.includes(parts[0])?parts[0]:'now';if(parts[1])setTheme(parts[1]);S.still=parts[2]==='still';if(parts[3]){S.metar=decodeURIComponent(parts[3]);$('metar').value=S.metar}
 for(const p of PAGES)$('page-'+p).hidden=p!==S.page;
 for(const a of document.querySelectorAll('nav a'))a.classList.toggle('on',a.getAttribute('href')==='#'+S.page);
 if(S.page==='flights')loadFlights();if(S.page==='altitude')loadHistory();if(S.page==='where')choose(S.chosen);
 render()}
function render(){const st=S.status;
 if(st){if(S.page==='now')renderNow(st);else if(S.page==='where')renderWhere(st);else if(S.page==='traffic')renderTraffic(st);else if(S.page==='altitude')renderAltitude();else if(S.page==='box')renderBox(st)}
 for(const f of window.cockpit.rendered)try{f(S.page,st)}catch(e){console.error(e)}}
// Without the daemon nothing old is left on show: every value reads "—" under the banner until the next snapshot.
function blank(){S.status=null;for(const e of document.querySelectorAll('b[id^=v-],small[id^=v-],span[id^=v-]'))e.textContent='—';$('v-dose-bar').setAttribute('width','0')}
function renderLink(){const b=$('link');b.hidden=!!S.link.connected;b.textContent=S.link.connected?'':'NO DATA — cockpitd not reachable'+(S.link.reason?': '+S.link.reason:'')}
function keep(st){const g=st.gps||{},b=st.baro||{};const t=st.monotonicSeconds;
 const last=S.live[S.live.length-1];if(last&&last.t===t)return;
 S.live.push({t:t,utc:st.utc,gps:g.altitudeMSLFeet,cabin:b.cabinAltitudeFeet});if(S.live.length>10800)S.live.shift()}
function connect(){const es=new EventSource('/events');
 es.addEventListener('snapshot',e=>{const m=JSON.parse(e.data);if(S.still&&++S.stillCount>=3)es.close();S.status=m.status;S.receivedAt=Date.now();S.link={connected:true};renderLink();keep(m.status);render()});
 es.addEventListener('link',e=>{S.link=JSON.parse(e.data);renderLink();if(!S.link.connected)blank()});
 es.onerror=()=>{S.link={connected:false,reason:'cockpit-web not reachable'};renderLink();blank()}}
function renderNow(st){const g=st.gps||{},b=st.baro||{},f=st.flight||{},x=st.hypoxia||{};
 set('v-gps-alt',num(g.altitudeMSLFeet));set('v-gps-fix',fixWords(g)+(g.fixAgeSeconds!=null?' · '+num(g.fixAgeSeconds)+' s old':''));
 set('v-cabin-alt',num(b.cabinAltitudeFeet));set('v-cabin-src',b.pressureHectopascals!=null?num(b.pressureHectopascals,1)+' hPa':baroWords(b));
 set('v-gs',num(g.groundSpeedKnots));set('v-track',deg(g.trackTrueDegrees));set('v-climb',num(g.climbFeetPerMinute));
 set('v-state',stateWords(f));set('v-profile',flightDetail(f,g));
 const dose=x.dosePercent,at=x.alertAtPercent;set('v-dose',x.available===false?'—':num(dose));
 $('v-dose-bar').setAttribute('width',String(Math.max(0,Math.min(100,dose||0))));$('v-dose-bar').classList.toggle('high',dose!=null&&at!=null&&dose>=at);
 $('v-dose-mark').setAttribute('x1',String(at||0));$('v-dose-mark').setAttribute('x2',String(at||0));
 set('v-dose-note',x.available===false?(x.reason||'not available'):'alert at '+num(at)+' %'+(x.secondsToAlert!=null?' · in '+mmss(x.secondsToAlert):'')+(x.checkOxygen?' · CHECK OXYGEN':''));
 set('v-pos',g.latitudeDegrees==null?'no position':num(Math.abs(g.latitudeDegrees),4)+'°'+(g.latitudeDegrees<0?'S':'N')+' '+num(Math.abs(g.longitudeDegrees),4)+'°'+(g.longitudeDegrees<0?'W':'E'));
 set('v-utc',st.utc?st.utc.slice(11,19)+' UTC':'—');renderGlide(st.glide||{});renderAlerts(st.alerts||{})}
// Reach and the wind it uses: "Nearest in glide: …" or why not; "wind 250/14 from 3 circles, 2 min ago" (or set, or unknown).
function renderGlide(gl){set('v-glide',gl.available?(gl.summary||'—'):(gl.reason?'reach unknown: '+gl.reason:'—'));
 set('v-wind',(gl.windText||'wind —')+(gl.speedToFlyMacCreadyKnots!=null?' · MC '+num(gl.macCreadyMetersPerSecond,1)+': '+num(gl.speedToFlyMacCreadyKnots)+' kt':''))}
function renderAlerts(a){const box=$('alerts'),active=a.active||[];const key=JSON.stringify(active.map(x=>[x.id,x.text,x.acknowledged]));
 if(box.dataset.key!==key){box.dataset.key=key;box.replaceChildren();
  for(const x of active){const d=h('div',x.text+(x.acknowledged?' (acknowledged)':''),'alert '+x.priority);box.append(d)}
  if(active.some(x=>x.acknowledgeable&&!x.acknowledged)){const btn=h('button','Acknowledge','ack');btn.type='button';btn.onclick=ack;box.append(btn)}}
 const ul=$('recent'),rk=JSON.stringify(a.recent||[]);if(ul.dataset.key!==rk){ul.dataset.key=rk;ul.replaceChildren(...(a.recent||[]).slice(-5).reverse().map(r=>h('li',(r.utc?r.utc.slice(11,16)+' ':'')+r.text)))}}
async function ack(){try{const r=await fetch('/api/ack',{method:'POST',headers:{'X-Cockpit-Action':'ack'}});const j=await r.json();
 const m=j.ok?(j.result&&j.result.message)||'acknowledged':(j.error&&j.error.message)||'refused';$('alerts').append(h('p',m))}catch(e){$('alerts').append(h('p','not sent: '+e))}}
function kv(rows){const t=h('table',null,'list kv');for(const [k,v] of rows){const tr=h('tr');tr.append(h('td',k),h('td',v==null?'—':Array.isArray(v)?v.join(', ')||'none':typeof v==='object'?Object.entries(v).map(([a,b])=>a+': '+(b==null?'—':b)).join(', '):String(v)));t.append(tr)}return t}
function renderBox(st){const g=st.gps||{},src=g.source||{},b=st.baro||{},d=st.daemon||{},box=$('box');const parts=[];
 parts.push(h('h2','Daemon'),kv([['software',d.software],['web',document.querySelector('meta[name=generator]').content],['mode',d.mode],['uptime',mmss(d.uptimeSeconds)],['data files',d.files],['recording',d.recording]]));
 parts.push(h('h2','GPS (gpsd)'),kv([['connected',src.connected],['endpoint',src.endpoint],['receivers',src.receivers],['silent for',src.receiverSilentForSeconds],['reconnects',src.reconnects],['last error',src.lastError],['status',g.status],['fixes',g.fixes],['reports',g.reports],['malformed',g.malformedReports]]));
 parts.push(h('h2','Barometer'),kv([['sensor',b.sensor],['present',b.sensorPresent],['status',b.status],['samples',b.samples],['errors',b.errors],['last fault',b.lastFault]]));
 const outs=Object.entries(st.outputs||{});parts.push(h('h2','Outputs'));if(!outs.length)parts.push(h('p','none configured'));
 for(const [name,o] of outs)parts.push(kv([[name,o.unit],['sent',o.sent],['failed',o.failed],['dropped',o.dropped],['last error',o.lastError]]));
 const t=st.traffic||{};parts.push(h('h2','Traffic'),kv([['available',t.available?'yes':t.reason],['received',t.received],['sent',t.datagramsSent]]));
 const rt=st.radioTraffic;if(rt){parts.push(h('h2','Radio receivers'));const src=Object.entries(rt.sources||{});if(!src.length)parts.push(h('p','none configured'));
  for(const [n,o] of src)parts.push(kv([[n,o.state],['endpoint',o.endpoint],['lines',o.lines],['aircraft reports',o.observations],['last line',o.lastLineAgeSeconds==null?'—':num(o.lastLineAgeSeconds,1)+' s ago']]));
  if(src.length)parts.push(kv([['aircraft now',rt.targetCount]]))}
 const c=d.control||{};parts.push(h('h2','Control socket'),kv(Object.entries(c)));
 const a=st.airfields||{},dt=st.data||{},af=dt.airfields||{},te=dt.terrain,res=o=>o.result?o.result+(o.reason?': '+o.reason:''):'never updated';
 parts.push(h('h2','Airfield database'),kv([['date',a.databaseDate],['age (days)',a.databaseAgeDays],['out of date',a.databaseOutOfDate]].concat(dt.airfields?[['data date installed',af.updated],['source',af.source],['last update',af.lastAttempt],['result',res(af)],['next update',af.nextUpdate]]:[])));
 if(te)parts.push(h('h2','Terrain'),kv([['folder',te.directory+(te.inUse?'':' (not in use)')],['tiles',te.tiles],['tile names',(te.tileNames||[]).join(' ')||'—'],['region',te.region],['region tiles',te.regionTiles],['data date',te.dataDate],['source',te.source],['last update',te.lastAttempt],['result',res(te)],['next update',te.nextUpdate]]));
 const k=S.disk;parts.push(h('h2','Disk'));
 if(!k)parts.push(h('p','—'));else if(k.error)parts.push(h('p',k.error));else if(!k.flightLog)parts.push(h('p','no flight log'));
 else{const fs=k.fileSystem||{},mib=b=>b==null?'—':num(b/1048576,1)+' MiB';parts.push(kv([['flight log',k.flightLog.path],['log size',mib(k.flightLog.bytes)],['log limit',mib(k.flightLog.limitBytes)],['card free',mib(fs.freeBytes)],['card size',mib(fs.totalBytes)],['card used',fs.usedPercent==null?'—':num(fs.usedPercent,1)+' %']]))}
 const key=JSON.stringify([d.uptimeSeconds|0,g.fixes,k]);if(box.dataset.key!==key){box.dataset.key=key;box.replaceChildren(...parts)}
 const now=Date.now();if(!S.diskAt||now-S.diskAt>10000){S.diskAt=now;getJSON('/api/disk').then(j=>{S.disk=j.ok?j.disk:{error:(j.error&&j.error.message)||'not available'}}).catch(e=>{S.disk={error:String(e)}})}}
$('theme').onclick=()=>setTheme(document.documentElement.className==='night'?'day':'night');
try{const t=localStorage.getItem('theme');if(t)setTheme(t)}catch(e){}
window.addEventListener('hashchange',route);
