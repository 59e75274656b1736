import { writeFileSync } from 'node:fs';
import { CATALOGUE } from './catalogue.ts';

// Regenerates public/{product}-to-form.json; then `npx biome format --write public` lays them out as shipped.
// Run: node --import tsx src/device-config/catalogue/write-catalogue.ts
for (const [key, build] of Object.entries(CATALOGUE)) {
  const file = new URL(`../../../public/${key}-to-form.json`, import.meta.url);
  writeFileSync(file, `${JSON.stringify(build(), null, 2)}\n`);
  console.log(`wrote public/${key}-to-form.json`);
}
