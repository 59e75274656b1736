import { loadModels } from './paths/registry.ts';
import { describePaths } from './paths/model-paths.ts';
const models = await loadModels();
for (const m of models) {
  const ps = describePaths(m);
  console.log(m.name, ps.length);
  for (const p of ps) {
    const t = Date.now();
    await Promise.race([p.path.test(m.driver()), new Promise((_, r) => setTimeout(() => r(new Error('timeout')), 5000))]).catch((e) => console.log('ERR', p.kind, p.number, e.message));
    console.log(' ', p.kind, p.number, Date.now() - t);
  }
}
process.exit(0);
