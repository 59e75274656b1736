import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { quotedName } from '../../mail/quoted-name.ts';

/** A transition to tell people about. */
export interface AlarmNews {
  alarmId: number;
  state: 'active' | 'acknowledged' | 'cleared';
  at: number;
  /** Who acknowledged it. */
  by?: { name: string };
}

interface Recipient {
  alarm_id: number;
  main_email: string;
  /** Null for a site's own alarm. */
  serial: string | null;
  model_id: string | null;
  device_name: string | null;
  site_name: string;
  severity: string;
  message: string;
  raised_at: Date;
}

const HEADLINES = { active: 'Alarm', acknowledged: 'Acknowledged', cleared: 'Cleared' } as const;

/**
 * Queue the mail for alarm transitions, in the transaction that stored them: one message per
 * transition to each person who opted in to alarm mail (`users.alarm_mail`) and has switched-on
 * access to the alarm's site (the device's, or the site of a site's own alarm). Each state is entered once per alarm (one `alarm_transitions`
 * row), so each person gets at most one mail per alarm and transition. Names people chose (site,
 * device, who acknowledged) are quoted so they cannot read as the message's own words; the note
 * stays in the app.
 */
export async function queueAlarmMail(
  trx: Kysely<Database>,
  mailer: Mailer,
  news: readonly AlarmNews[],
): Promise<number> {
  if (news.length === 0) return 0;
  const rows = await sql<Recipient>`
    SELECT a.id AS alarm_id, u.main_email, d.serial, d.model_id, d.name AS device_name, s.name AS site_name,
           a.severity, a.message, a.raised_at
    FROM alarms a
    LEFT JOIN devices d ON d.id = a.device_id
    JOIN sites s ON s.id = coalesce(d.site_id, a.site_id)
    JOIN site_access sa ON sa.site_id = s.id AND sa.access
    JOIN users u ON u.id = sa.user_id AND u.alarm_mail
    WHERE a.id = ANY(${news.map((n) => n.alarmId)}::int[])`.execute(trx);
  let queued = 0;
  for (const item of news) {
    for (const row of rows.rows.filter((r) => r.alarm_id === item.alarmId)) {
      const headline = HEADLINES[item.state];
      const lines = [
        `${headline}: ${row.message}`,
        '',
        ...(row.serial === null
          ? []
          : [`Device: ${row.serial} (${row.model_id}) ${quotedName(row.device_name ?? '')}`]),
        `Site: ${quotedName(row.site_name)}`,
        `Severity: ${row.severity}`,
        `Raised: ${new Date(row.raised_at).toISOString()}`,
      ];
      if (item.state === 'acknowledged')
        lines.push(
          `Acknowledged: ${new Date(item.at).toISOString()} by ${quotedName(item.by?.name ?? '')}, with a note you can read in the app`,
        );
      if (item.state === 'cleared') lines.push(`Cleared: ${new Date(item.at).toISOString()}`);
      lines.push('', 'You get this mail because alarm mail is on in your user details in Fleet Manager.');
      await mailer.queue(
        {
          to: row.main_email,
          subject: `[Fleet Manager] ${headline} (${row.severity}) on ${row.serial ?? `site ${quotedName(row.site_name)}`}: ${row.message}`,
          body: lines.join('\n'),
        },
        trx,
      );
      queued += 1;
    }
  }
  return queued;
}
