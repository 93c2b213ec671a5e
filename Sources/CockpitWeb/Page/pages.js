const RANGES=[2,5,10,20,40];
function radarRange(targets){const d=targets.map(t=>t.distanceNauticalMiles).filter(x=>x!=null).sort((a,b)=>a-b).slice(0,3);
 const far=d.length?d[d.length-1]:0;const need=RANGES.find(r=>far<=0.9*r)||RANGES[RANGES.length-1];
 const cur=S.radarRange||need;S.radarRange=need>cur?need:(far<=0.75*need?need:cur);return S.radarRange}
function band(t){const r=t.relativeAltitudeFeet;return r==null?'unknown':r>500?'above':r<-500?'below':'level'}
function renderTraffic(st){const tr=st.traffic||{},targets=tr.targets||[],g=st.gps||{},svg=$('radar');
 const trackUp=g.trackTrueDegrees!=null&&(g.groundSpeedKnots||0)>=2;const range=radarRange(targets),scale=100/range;
 const parts=[el('circle',{class:'ring',r:50}),el('circle',{class:'ring',r:100}),el('text',{class:'ringlabel',x:2,y:-52},num(range/2,1)),el('text',{class:'ringlabel',x:2,y:-102},range+' nm'),
  el('path',{class:'own',d:'M0,-8 l-6,14 l6,-4 l6,4 z'})];
 for(const [i,c] of ['N','E','S','W'].entries()){const a=(i*90-(trackUp?g.trackTrueDegrees:0))*Math.PI/180;parts.push(el('text',{class:'ringlabel',x:(106*Math.sin(a)).toFixed(1),y:(-106*Math.cos(a)+2).toFixed(1)},c))}
 const rows=[];
 for(const t of targets){if(t.distanceNauticalMiles==null)continue;
  const brg=trackUp?t.relativeBearingDegrees:t.bearingTrueDegrees;if(brg==null)continue;
  const d=Math.min(t.distanceNauticalMiles,range)*scale,a=brg*Math.PI/180,x=d*Math.sin(a),y=-d*Math.cos(a);
  const cls='tgt '+band(t)+(t.proximity?' prox':'')+((t.ageSeconds||0)>5?' old':'');const b=band(t);
  const shape=b==='above'?'M0,-5 l5,8 h-10 z':b==='below'?'M0,5 l5,-8 h-10 z':b==='level'?'M0,-5 l5,5 l-5,5 l-5,-5 z':'M-4,0 a4,4 0 1,0 8,0 a4,4 0 1,0 -8,0';
  const g2=el('g',{transform:'translate('+x.toFixed(1)+','+y.toFixed(1)+')'});g2.append(el('path',{class:cls,d:shape}));
  const r=t.relativeAltitudeFeet;const tag=r==null?'':(r>=0?'+':'-')+String(Math.round(Math.abs(r)/100)).padStart(2,'0')+((t.verticalSpeedFeetPerMinute||0)>=500?'↑':(t.verticalSpeedFeetPerMinute||0)<=-500?'↓':'');
  g2.append(el('text',{class:'tag',x:7,y:3},(t.proximity?'!':'')+tag));parts.push(g2);
  rows.push([t.callsign||t.identifier||'?',num(t.distanceNauticalMiles,1)+' nm',deg(t.bearingTrueDegrees),r==null?'—':(r>=0?'+':'')+num(r)+' ft'])}
 svg.replaceChildren(...parts);
 set('radar-head',(trackUp?'track '+deg(g.trackTrueDegrees)+' up':'north up (no track)')+' · '+(tr.available?targets.length+' target'+(targets.length===1?'':'s'):'traffic off'+(tr.reason?': '+tr.reason:'')));
 const tb=$('targets');tb.replaceChildren(...rows.map(r=>{const x=h('tr');r.forEach((v,i)=>x.append(h('td',v,i?'n':null)));return x}))}
async function getJSON(url){const r=await fetch(url);return r.json()}
async function loadHistory(){S.history={};for(const per of ['second','minute']){try{const j=await getJSON('/api/history?per='+per);S.history[per]=j.ok?j.history:{error:(j.error&&j.error.message)||'no history'}}catch(e){S.history[per]={error:String(e)}}}S.graphAt=0;renderAltitude()}
function series(per){const hs=S.history&&S.history[per];
 if(hs&&hs.points&&hs.points.length)return {src:'flight log, GPS '+(hs.gpsDatum==='ellipsoid'?'above the ellipsoid':'MSL'),pts:hs.points.map(p=>({t:Date.parse(p.utc)/1000,gps:p.gpsAltitudeMSLFeet!=null?p.gpsAltitudeMSLFeet:p.gpsAltitudeHAEFeet,cabin:p.cabinAltitudeFeet}))};
 const why=hs&&hs.error?hs.error+'; ':'';
 if(per==='second')return {src:why+'since this page opened',pts:S.live.slice(-600)};
 const m=new Map();for(const p of S.live){const k=Math.floor(p.t/60);const a=m.get(k)||{t:k*60,gs:0,gn:0,cs:0,cn:0};if(p.gps!=null){a.gs+=p.gps;a.gn++}if(p.cabin!=null){a.cs+=p.cabin;a.cn++}m.set(k,a)}
 return {src:why+'since this page opened',pts:[...m.values()].slice(-180).map(a=>({t:a.t,gps:a.gn?a.gs/a.gn:null,cabin:a.cn?a.cs/a.cn:null}))}}
function graph(svg,pts){const W=600,H=220,L=55,parts=[];const vals=pts.flatMap(p=>[p.gps,p.cabin]).filter(v=>v!=null);
 if(pts.length<2||!vals.length){svg.replaceChildren(el('text',{x:20,y:110},'no data yet'));return}
 let lo=Math.min(...vals),hi=Math.max(...vals);if(hi-lo<200){const m=(hi+lo)/2;lo=m-100;hi=m+100}
 const t0=pts[0].t,t1=pts[pts.length-1].t||t0+1,X=t=>L+(t-t0)/Math.max(1,t1-t0)*(W-L-5),Y=v=>H-10-(v-lo)/(hi-lo)*(H-20);
 for(const v of [lo,(lo+hi)/2,hi]){parts.push(el('line',{x1:L,x2:W,y1:Y(v),y2:Y(v)}),el('text',{x:2,y:Y(v)+4},num(v)))}
 for(const k of ['gps','cabin']){let d='';for(const p of pts){if(p[k]==null){continue}d+=(d?'L':'M')+X(p.t).toFixed(1)+','+Y(p[k]).toFixed(1)}if(d)parts.push(el('path',{class:k,d:d}))}
 svg.replaceChildren(...parts)}
function renderAltitude(){if(S.page!=='altitude')return;const now=Date.now();if(S.graphAt&&now-S.graphAt<1000)return;S.graphAt=now;
 const s=series('second'),m=series('minute');set('alt-src-s',s.src);set('alt-src-m',m.src);graph($('graph-s'),s.pts);graph($('graph-m'),m.pts)}
async function loadFlights(){const t=$('flight-list');try{const j=await getJSON('/api/flights');
 if(!j.ok){t.replaceChildren(note((j.error&&j.error.message)||'no flight log'));return}
 const list=(j.flights||[]).slice().reverse();const head=h('tr');for(const c of ['takeoff','landing','max GPS','max cabin','file'])head.append(h('th',c));
 t.replaceChildren(head,...list.map(f=>{const r=h('tr');const to=f.takeoff||{},la=f.landing||{};
  r.append(h('td',(to.utc||'—').replace('T',' ').slice(0,16)+' '+(to.airfield||to.nearestAirfield||'')),h('td',la.utc?la.utc.slice(11,16)+' '+(la.airfield||la.nearestAirfield||''):(f.end||'in flight')),
   h('td',f.maximumGPSAltitudeMSLFeet!=null?num(f.maximumGPSAltitudeMSLFeet)+' ft':f.maximumGPSAltitudeHAEFeet!=null?num(f.maximumGPSAltitudeHAEFeet)+' ft HAE':'—','n'),h('td',num(f.maximumCabinAltitudeFeet)+' ft','n'));
  const c=h('td');for(const x of ['gpx','kml','igc']){const a=h('a',x.toUpperCase());a.href='/flights/'+f.id+'.'+x;a.setAttribute('download','');c.append(a,' ')}r.append(c);return r}));
 if(!list.length)t.append(note('no flights in the log'))}catch(e){t.replaceChildren(note('cannot read the flights: '+e))}}
