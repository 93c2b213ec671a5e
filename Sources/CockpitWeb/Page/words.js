'use strict';
const STATE_WORDS={'unknown':'Not known yet','on-ground':'On the ground','taking-off':'Taking off','airborne':'Airborne','landing-roll':'Landing roll'};
const PROFILE_WORDS={'powered':'Powered','glider':'Glider','hang-glider':'Hang glider','paraglider':'Paraglider'};
const BARO_WORDS={'valid':'reading','stale':'reading stale','absent':'no barometer'};
const FIX_WORDS={'3D':'3D fix','2D':'2D fix, no altitude','none':'no fix','unknown':'no fix'};
function words(table,id){if(id==null||id==='')return '—';if(Object.prototype.hasOwnProperty.call(table,id))return table[id];
 const s=String(id).replace(/[-_]/g,' ');return s.charAt(0).toUpperCase()+s.slice(1)}
// A number and its unit stay on one line (a no-break space between them).
const FT='\u00a0ft';
function feetText(v){const r=Math.round(v)||0;return r.toLocaleString('en-US')}
function stateWords(f){return !f||f.available===false?'—':words(STATE_WORDS,f.state)}
function profileWords(f){return !f||!f.profile?'':words(PROFILE_WORDS,f.profile)}
// Height above ground as the page says it ('' when there is none to say).
function heightWords(f,g){const h=f&&f.heightAboveGroundFeet;if(!f||f.available===false||h==null||!isFinite(h))return '';
 if(f.state==='on-ground')return 'on the ground';
 const e=g&&g.verticalErrorMeters!=null&&isFinite(g.verticalErrorMeters)?' ±'+feetText(Math.abs(g.verticalErrorMeters)/0.3048)+FT:null;
 const m=/^nearest airfield elevation \((.+)\)$/.exec(f.heightSource||'');
 // The airfield's identifier is never split at its hyphen (IT-0204): a no-break hyphen (U+2011) on the page.
 if(m)return feetText(Math.abs(h))+FT+(Math.round(h)<0?' below ':' above ')+m[1].replace(/-/g,'\u2011')+(e||'');
 if(e)return feetText(h)+FT+' AGL'+e;
 return Math.round(h)<0?'0'+FT+' AGL ±?':feetText(h)+FT+' AGL'}
// The Flight cell's second line: the profile, and off the ground the height; a state held through a GPS gap says so.
function flightDetail(f,g){if(!f||f.available===false)return (f&&f.reason)||'—';const parts=[profileWords(f)];
 const hw=heightWords(f,g);if(hw&&hw!=='on the ground')parts.push(hw);if(f.gpsLost)parts.push('GPS lost, state held');
 return parts.filter(x=>x).join(' · ')||'—'}
function fixWords(g){return words(FIX_WORDS,g&&g.mode||'none')}
function baroWords(b){return b&&b.status?words(BARO_WORDS,b.status):'no barometer'}
// The received METAR the arrival plan's wind comes from, from the daemon's `airfield` answer (`wind.from`, `wind.error`,
// `weather.metar`): its station, issue time and age, the field's own or the nearest station's within 25 nm, and a stale
// one (over 90 min) said as stale and not used. Lines of {text, level}: level 'caution' for a stale one, 'text' for the
// report itself. None for a typed METAR (the wind line is its own) or when no METAR was received.
function metarWords(p){const w=p&&p.wind,own=p&&p.weather&&p.weather.metar,from=w&&w.from;
 if(!from||from==='typed')return [];
 const unused=!!w.error,out=[];let line;
 const near=/^received METAR of (\S+), the nearest station with one, ([0-9.]+) nm away: (\S+) (.*)$/.exec(from);
 if(near)line=near[3]+' '+near[1]+' '+near[4]+' · nearest station within 25\u00a0nm, '+near[2]+'\u00a0nm away';
 else if(own&&own.summary)line=own.summary.replace(/^(\S+) /,'$1 '+own.station+' ')+' · the field’s own';
 else line=from.replace(/^received /,'');
 out.push({text:line+(unused?' · not used for the wind: type one below':''),level:unused?'caution':null});
 if(!near&&own&&own.text)out.push({text:own.text.replace(/\s+/g,' '),level:'text'});
 return out}
