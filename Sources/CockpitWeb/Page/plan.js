function fields(st){const a=st.airfields||{},list=(a.nearest||[]).slice();if(a.best&&!list.some(f=>f.ident===a.best.ident))list.push(a.best);return list}
function renderWhere(st){const a=st.airfields||{},list=fields(st),g=st.gps||{};
 if(!S.chosen&&list.length)choose((a.best||list[0]).ident);
 const t=$('fields'),key=JSON.stringify(list.map(f=>[f.ident,f.distanceNauticalMiles,f.bearingMagneticDegrees,f.estimatedTimeEnRouteSeconds]))+S.chosen;
 if(t.dataset.key!==key){t.dataset.key=key;const head=h('tr');for(const c of ['airfield','nm','°M','time'])head.append(h('th',c));
  t.replaceChildren(head,...list.map(f=>{const r=h('tr',null,f.ident===S.chosen?'chosen':null);r.dataset.ident=f.ident;
   r.append(h('td',f.ident+(a.best&&f.ident===a.best.ident?' ★ ':' ')+(f.name||'')),h('td',num(f.distanceNauticalMiles,1),'n'),h('td',deg(f.bearingMagneticDegrees),'n'),h('td',mmss(f.estimatedTimeEnRouteSeconds),'n'));
   r.onclick=()=>choose(f.ident);return r}));
  if(!list.length)t.append(note(a.available===false?'no airfield database':'no airfields near'))}
 turnPlan(g);const f=list.find(x=>x.ident===S.chosen);set('plan-where',f?num(f.distanceNauticalMiles,1)+' nm · '+deg(f.bearingMagneticDegrees)+'M · '+mmss(f.estimatedTimeEnRouteSeconds):'')}
function turnPlan(g){const track=g.trackTrueDegrees;const rot=track==null?0:-track;const grp=$('plan-rot');
 const tf='rotate('+rot.toFixed(1)+')';if(grp.getAttribute('transform')!==tf){grp.setAttribute('transform',tf);
  for(const l of grp.querySelectorAll('text'))l.setAttribute('transform','rotate('+(-rot).toFixed(1)+' '+l.getAttribute('x')+' '+l.getAttribute('y')+')')}
 S.planRotation=rot}
async function choose(ident){if(!ident)return;const changed=ident!==S.chosen;S.chosen=ident;if($('fields'))$('fields').dataset.key='';
 if(!changed&&S.plan&&S.plan.ident===ident&&S.plan.metar===S.metar){return}
 try{const q='/api/airfield?ident='+encodeURIComponent(ident)+(S.metar?'&metar='+encodeURIComponent(S.metar):'');const j=await getJSON(q);
  if(S.chosen!==ident)return;S.plan=j.ok?j.airfield:{error:(j.error&&j.error.message)||'not available'};S.plan.ident=ident;S.plan.metar=S.metar;drawPlan();if(S.status)renderWhere(S.status)}
 catch(e){S.plan={ident:ident,error:String(e)};drawPlan()}}
function drawPlan(){const p=S.plan,grp=$('plan-rot'),info=$('plan-info');grp.removeAttribute('transform');
 if(!p||p.error){grp.replaceChildren();info.replaceChildren(h('p',p?p.ident+': '+p.error:''));return}
 const dg=p.diagram||{strips:[],extentMeters:0},k=72/Math.max(300,dg.extentMeters||0);const w=p.wind&&!p.wind.error?p.wind:null,rec=w?w.recommendedRunway:null;
 const parts=[];
 for(const s of dg.strips){const isRec=rec!=null&&s.idents.includes(rec);
  parts.push(el('polygon',{class:'strip'+(isRec?' rec':'')+(s.closed?' closed':''),points:s.corners.map(c=>(c[0]*k).toFixed(1)+','+(-c[1]*k).toFixed(1)).join(' ')}));
  s.ends.forEach((e,i)=>{const o=s.ends[1-i];const dx=e[0]-o[0],dy=e[1]-o[1],len=Math.hypot(dx,dy)||1;const x=(e[0]+dx/len*12/k)*k,y=-(e[1]+dy/len*12/k)*k;
   parts.push(el('text',{class:'rwy'+(s.idents[i]===rec?' rec':''),x:x.toFixed(1),y:y.toFixed(1)},s.idents[i]))})}
 if(w&&w.directionTrueDegrees!=null){const a=w.directionTrueDegrees*Math.PI/180,r=92;const x=r*Math.sin(a),y=-r*Math.cos(a);const L=Math.min(40,8+(w.speedKnots||0)*1.5);
  parts.push(el('line',{class:'sock',x1:x.toFixed(1),y1:y.toFixed(1),x2:(x-L*Math.sin(a)).toFixed(1),y2:(y+L*Math.cos(a)).toFixed(1)}),el('circle',{class:'sock',cx:x.toFixed(1),cy:y.toFixed(1),r:3}))}
 grp.replaceChildren(...parts);
 const rows=[h('h2',p.ident+' · '+(p.name||'')),h('p',null)];rows[1].id='plan-where';
 rows.push(h('div','Elevation '+num(p.elevationFeet)+' ft'));
 if(dg.strips.some(s=>!s.positioned))rows.push(h('small','Runway positions not in the database: drawn on the airfield’s point, by heading'));
 const mw=metarWords(p);
 if(w)rows.push(h('div','Wind '+deg(w.directionTrueDegrees)+'T '+num(w.speedKnots)+' kt'+(w.gustKnots?' G'+num(w.gustKnots):'')),h('div','Runway '+(rec||'—')+' recommended',rec?'alert advisory':null));
 else if(p.wind&&p.wind.error&&!mw.length)rows.push(h('div','Wind: '+p.wind.error));
 for(const l of mw)rows.push(l.level==='text'?h('small',l.text):h('div',l.text,l.level==='caution'?'alert caution':'metar'));
 const rw=(p.runways||[]).map(r=>(r.ends||[]).map(e=>e.ident).join('/')+' '+num(r.lengthFeet)+'×'+num(r.widthFeet)+' ft '+(r.surface||''));rows.push(h('div','Runways '+(rw.join(', ')||'—')));
 const fq=h('table',null,'list');for(const f of (p.frequencies||[])){const tr=h('tr');tr.append(h('td',f.kind),h('td',num(f.megahertz,3),'n'),h('td',f.description||''));fq.append(tr)}
 rows.push(fq);info.replaceChildren(...rows);if(S.status)turnPlan(S.status.gps||{})}
$('metar-form').onsubmit=e=>{e.preventDefault();S.metar=$('metar').value.trim();const c=S.chosen;S.plan=null;choose(c)};
route();connect();