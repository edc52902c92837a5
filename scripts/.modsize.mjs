import { build } from 'vite';
import { minify } from 'terser';
import { gzipSync } from 'node:zlib';
const rows = [];
await build({ mode: process.argv[2] || 'lite', logLevel: 'silent', build: { write: false },
  plugins: [{ name: 'r', async generateBundle(_o, bundle) { for (const c of Object.values(bundle)) if (c.type==='chunk') for (const [id, info] of Object.entries(c.modules)) { if (!info.code) continue; const m = await minify(info.code, {compress:false, mangle:true}).catch(()=>({code:info.code})); rows.push([m.code.length, gzipSync(m.code,{level:9}).length, id.replace(process.cwd()+'/','')]); } } }] });
rows.sort((a,b)=>b[1]-a[1]); let t=0; for (const [m,g,id] of rows) { t+=g; console.log(String(m).padStart(7), String(g).padStart(6), id); } console.log('sum gz', t);
