/**
 * How integrators make the calls they make most, in curl and in JavaScript, shown in the API
 * reference under each call. `FLEET` is where the app is served; `KEY` a personal key
 * (Account → API keys). Each is a complete call a script can run as it is.
 */

/** A call's example in both languages, as CommonMark. */
function examples(curl: string, javascript: string): string {
  return [
    '**With a personal key** (`Authorization: Bearer fm_pat_…`, nothing else):',
    '',
    '```sh',
    curl,
    '```',
    '',
    '```js',
    javascript,
    '```',
  ].join('\n');
}

export const INTEGRATOR_EXAMPLES = {
  listSites: examples(
    `# Who the key speaks for, then every site they see (20 a page; ?q= searches)
ME=$(curl -s -H "Authorization: Bearer $KEY" "$FLEET/monitoring/me" | jq .id)
curl -H "Authorization: Bearer $KEY" "$FLEET/config/fleet/sites/all/$ME/0?pageSize=100"`,
    `const headers = { Authorization: \`Bearer \${KEY}\` };
const me = await (await fetch(\`\${FLEET}/monitoring/me\`, { headers })).json();
const page = await (await fetch(\`\${FLEET}/config/fleet/sites/all/\${me.id}/0?pageSize=100\`, { headers })).json();
console.log(page.total, page.items.map((site) => site.name));`,
  ),
  latest: examples(
    `curl -H "Authorization: Bearer $KEY" "$FLEET/monitoring/devices/HX5K-24-000123/latest"`,
    `const answer = await fetch(\`\${FLEET}/monitoring/devices/HX5K-24-000123/latest\`, {
  headers: { Authorization: \`Bearer \${KEY}\` },
});
const { values, units, receivedAt } = await answer.json();
console.log(receivedAt, values.pvPower, units.pvPower);`,
  ),
  series: examples(
    `# Yesterday's power, as JSON; with Accept: text/csv, a file for a spreadsheet
curl -H "Authorization: Bearer $KEY" -H "Accept: text/csv" -o day.csv \\
  "$FLEET/monitoring/devices/HX5K-24-000123/series?metric=pvPower&from=2026-03-04T00:00:00%2B01:00&to=2026-03-05T00:00:00%2B01:00"`,
    `const query = new URLSearchParams({
  metric: 'pvPower',
  from: '2026-03-04T00:00:00+01:00',
  to: '2026-03-05T00:00:00+01:00',
});
const answer = await fetch(\`\${FLEET}/monitoring/devices/HX5K-24-000123/series?\${query}\`, {
  headers: { Authorization: \`Bearer \${KEY}\` },
});
const { step, unit, points } = await answer.json(); // points: [[epoch ms, value], …]`,
  ),
  acknowledge: examples(
    `# A write key: a read key answers 403 api_key_read_only
curl -X POST -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \\
  -d '{"note":"Technician booked for Thursday morning"}' "$FLEET/monitoring/alarms/42/acknowledge"`,
    `const answer = await fetch(\`\${FLEET}/monitoring/alarms/42/acknowledge\`, {
  method: 'POST',
  headers: { Authorization: \`Bearer \${KEY}\`, 'Content-Type': 'application/json' },
  body: JSON.stringify({ note: 'Technician booked for Thursday morning' }),
});
if (answer.status === 409) console.log('Already acknowledged or cleared');`,
  ),
  subscribe: examples(
    `# A write key; the answer's secret (whsec_…) is shown this once: keep it to verify deliveries
curl -X POST -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \\
  -d '{"url":"https://crm.example.com/hooks/fleet","events":["alarm.raised","device.installed"]}' \\
  "$FLEET/config/fleet/webhooks"`,
    `const answer = await fetch(\`\${FLEET}/config/fleet/webhooks\`, {
  method: 'POST',
  headers: { Authorization: \`Bearer \${KEY}\`, 'Content-Type': 'application/json' },
  body: JSON.stringify({ url: 'https://crm.example.com/hooks/fleet', events: ['alarm.raised', 'device.installed'] }),
});
const { id, secret } = await answer.json(); // keep the secret: it verifies every delivery

// The receiver checks each delivery (Standard Webhooks, npm standardwebhooks) on its body as text:
// import { Webhook } from 'standardwebhooks';
// const event = new Webhook(secret).verify(body, headers); // throws on a bad signature`,
  ),
} as const;
