import { z } from 'zod';
import { idParamSchema } from './ids.ts';
import { ALARM_SEVERITIES, MONITORING_ROLES } from './monitoring-terms.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageOf, pageParamSchema } from './page.ts';
import { serviceCommsSerialSchema } from './service-comms.ts';

/**
 * The monitoring service's calls (docs/api.md, "Monitoring"): telemetry of devices and sites, their
 * live stream, alarms and the fleet overview. Every call answers only what the caller may see:
 * installers and owners the devices of sites they have access to, company staff everything; a
 * device or site the caller may not see is 404.
 */

/** The serial number in a path. */
export const monitoringSerialSchema = serviceCommsSerialSchema;
export const serialParamsSchema = z.object({ serial: monitoringSerialSchema });
export const siteParamsSchema = z.object({ siteId: idParamSchema });
export const alarmParamsSchema = z.object({ id: idParamSchema });

/** Times the service reads: from 1 January 2000 to 1 January 2200. */
export const TIME_BOUNDS = { fromMs: Date.UTC(2000, 0, 1), toMs: Date.UTC(2200, 0, 1) } as const;

/** An ISO 8601 date-time with `Z` or an offset, e.g. `2026-03-04T13:05:00Z`, read as epoch milliseconds. */
export const isoTimeSchema = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time such as 2026-03-04T13:05:00Z' })
  .transform((value) => Date.parse(value))
  .refine(
    (ms) => Number.isFinite(ms) && ms >= TIME_BOUNDS.fromMs && ms < TIME_BOUNDS.toMs,
    'must lie between the years 2000 and 2199',
  );

/**
 * How finely a series is answered: every stored reading (`raw`), 5-minute rollups, hours (twelve
 * 5-minute rollups combined when read) or days. The finest step that answers a range in at most
 * {@link MAX_SERIES_POINTS} points is chosen unless the caller names one.
 */
export const SERIES_STEPS = ['raw', '5min', '1h', '1day'] as const;
export const seriesStepSchema = z.enum(SERIES_STEPS);
export type SeriesStep = z.infer<typeof seriesStepSchema>;

/** At most this many points in one series (about: raw readings are counted by the reading interval). */
export const MAX_SERIES_POINTS = 2000;
/** The longest range a series covers: about 5½ years, 2,000 days at one point a day. */
export const MAX_SERIES_DAYS = 2000;

/** A metric name: a telemetry item of the device's product (`pvPower`, `batterySoc`, `energyTotal`). */
export const metricNameSchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'must be a metric name such as pvPower');

const rangeShape = {
  from: isoTimeSchema,
  to: isoTimeSchema,
  step: seriesStepSchema.optional(),
};

/** A range that starts before it ends and spans at most {@link MAX_SERIES_DAYS} days. */
function checkRange(query: { from: number; to: number }, ctx: z.RefinementCtx): void {
  if (query.from >= query.to)
    ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must be before to' });
  else if (query.to - query.from > MAX_SERIES_DAYS * 86_400_000)
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: `the range must span at most ${MAX_SERIES_DAYS} days`,
    });
}

/** `GET /monitoring/devices/{serial}/series?metric=&from=&to=[&step=]` */
export const deviceSeriesQuerySchema = z
  .object({ metric: metricNameSchema, ...rangeShape })
  .superRefine(checkRange);
export type DeviceSeriesQuery = z.infer<typeof deviceSeriesQuerySchema>;

/** A site-level metric: what the devices playing that role report, summed (power) or added (energy). */
export const siteMetricSchema = z.enum(MONITORING_ROLES);
export type SiteMetric = z.infer<typeof siteMetricSchema>;

/** `GET /monitoring/sites/{siteId}/series?metric=&from=&to=[&step=]`; a site has no raw step. */
export const siteSeriesQuerySchema = z
  .object({ metric: siteMetricSchema, ...rangeShape })
  .superRefine(checkRange)
  .refine((query) => query.step !== 'raw', {
    path: ['step'],
    message: 'a site series starts at 5-minute steps (its devices read at different moments)',
  });
export type SiteSeriesQuery = z.infer<typeof siteSeriesQuerySchema>;

/**
 * What each point's value is: a stored reading (`raw` step), the average over the step, or how
 * much an energy counter grew in the step (the sum over a site's devices for power and energy).
 */
export const seriesValuesSchema = z.enum(['reading', 'average', 'increase', 'sum']);

/** One point: `[epoch milliseconds of the step's start (or the reading), value]`. */
export const seriesPointSchema = z.tuple([z.number(), z.number()]);

export const seriesSchema = z.object({
  metric: z.string(),
  unit: z.string(),
  step: seriesStepSchema,
  values: seriesValuesSchema,
  from: z.string(),
  to: z.string(),
  /** The site's IANA time zone, whose midnights a day's points stand at (a device's: its site's). */
  timeZone: z.string(),
  points: z.array(seriesPointSchema),
  /**
   * The last point's step is not over by `to` (or now): today so far, the hour under way. Its
   * value is what the step holds until then, not the whole step's.
   */
  partial: z.boolean(),
});
export type Series = z.infer<typeof seriesSchema>;

/** A site's series also says how many of its devices report the metric. */
export const siteSeriesSchema = seriesSchema.extend({ siteId: z.number().int(), devices: z.number().int() });
export type SiteSeries = z.infer<typeof siteSeriesSchema>;

/** A site's power by role now, in W (`soc` in %): null where none of its devices reports the role. */
export const sitePowerSchema = z.object({
  /** What its solar panels produce. */
  production: z.number().nullable(),
  /** What the home (the loads) uses. */
  consumption: z.number().nullable(),
  /** Positive while importing from the grid, negative while exporting to it. */
  grid: z.number().nullable(),
  /** Positive while the battery charges, negative while it discharges. */
  battery: z.number().nullable(),
  /** The batteries' state of charge, averaged. */
  soc: z.number().nullable(),
});
export type SitePower = z.infer<typeof sitePowerSchema>;

/**
 * A site's energy today, in kWh, from its local midnight until now: produced (its energy
 * counters, else its production power over time), consumed, imported, exported, charged and
 * discharged (its power over time, by 5-minute steps). `selfConsumption`: the share of the
 * production used on site (not exported), in %; `autarky`: the share of the consumption not
 * imported, in %. Null where the site has no device of the role (or nothing to divide by).
 */
export const siteEnergyTodaySchema = z.object({
  /** The site's date today, `YYYY-MM-DD`, and the instant it began (local midnight). */
  day: z.string(),
  from: z.string(),
  producedKwh: z.number().nullable(),
  consumedKwh: z.number().nullable(),
  importedKwh: z.number().nullable(),
  exportedKwh: z.number().nullable(),
  chargedKwh: z.number().nullable(),
  dischargedKwh: z.number().nullable(),
  selfConsumption: z.number().nullable(),
  autarky: z.number().nullable(),
});
export type SiteEnergyToday = z.infer<typeof siteEnergyTodaySchema>;

/**
 * `GET /monitoring/sites/{siteId}/now`: the site's power flow now (its devices' latest readings of
 * the last moments, added up by role) and its energy balance today, in the site's time zone.
 */
export const siteNowSchema = z.object({
  siteId: z.number().int(),
  /** The site's IANA time zone: its day, and the clock its times are read in. */
  timeZone: z.string(),
  /** The newest reading counted in `power`; null when no device reported in the last moments. */
  at: z.string().nullable(),
  /** How many of the site's devices report a power or charge role, and how many of them just did. */
  devices: z.number().int(),
  reporting: z.number().int(),
  power: sitePowerSchema,
  today: siteEnergyTodaySchema,
});
export type SiteNow = z.infer<typeof siteNowSchema>;

/**
 * `GET /monitoring/devices/{serial}/latest`: the newest stored reading, telemetry metrics and status
 * items by name; `receivedAt` null when the device never sent any. `clockAhead`: the device's
 * clock was more than 5 minutes ahead, so the reading is stored at the time received.
 */
export const latestReadingSchema = z.object({
  serial: z.string(),
  modelId: z.string(),
  online: z.boolean(),
  receivedAt: z.string().nullable(),
  deviceTime: z.string().nullable(),
  clockAhead: z.boolean(),
  values: z.record(z.string(), z.number()),
  units: z.record(z.string(), z.string()),
  /** What an item means for the site (the catalogue's roles), by item name: `{pvPower: 'production'}`. */
  roles: z.record(z.string(), z.enum(MONITORING_ROLES)),
  /** The IANA time zone of the device's site: its days and its charts' clock. */
  timeZone: z.string(),
});
export type LatestReading = z.infer<typeof latestReadingSchema>;

/** One event of `GET /monitoring/devices/{serial}/live` (`event: reading`, this as `data`). */
export const liveReadingSchema = z.object({
  serial: z.string(),
  receivedAt: z.string(),
  deviceTime: z.string(),
  clockAhead: z.boolean(),
  values: z.record(z.string(), z.number()),
});
export type LiveReading = z.infer<typeof liveReadingSchema>;

/** Server-Sent Events names of the live stream. */
export const LIVE_EVENTS = { reading: 'reading' } as const;

/** Server-Sent Events names of the fleet stream (`GET /monitoring/fleet/live`). */
export const FLEET_EVENTS = { change: 'change' } as const;

/**
 * One event of the fleet stream: which of the caller's sites changed (an alarm raised,
 * acknowledged or cleared; a device connected or gone; devices or sites added, moved or removed),
 * or null: any of them (too many to list, or changes that may have been missed).
 */
export const fleetChangeSchema = z.object({ sites: z.array(z.number().int()).nullable() });
export type FleetChange = z.infer<typeof fleetChangeSchema>;

export const ALARM_STATES = ['active', 'acknowledged', 'cleared'] as const;
export const alarmStateSchema = z.enum(ALARM_STATES);
export type AlarmState = z.infer<typeof alarmStateSchema>;
export const alarmSeveritySchema = z.enum(ALARM_SEVERITIES);
export type AlarmSeverity = z.infer<typeof alarmSeveritySchema>;
/** What raised an alarm: silence (a device or a whole site), a status code or bit, or a limit. */
export const ALARM_KINDS = ['offline', 'status', 'threshold'] as const;
export const alarmKindSchema = z.enum(ALARM_KINDS);

const personSchema = z.object({ id: z.number().int(), name: z.string() }).nullable();

/** A state an alarm entered, when, and (acknowledged) who and why. */
export const alarmTransitionSchema = z.object({
  state: alarmStateSchema,
  at: z.string(),
  by: personSchema,
  note: z.string().nullable(),
});

/**
 * An alarm of a device, or a site's own alarm (`site-offline`: every device at the site silent),
 * which has no device: `serial`, `deviceName` and `modelId` are null.
 */
export const alarmSchema = z.object({
  id: z.number().int(),
  serial: z.string().nullable(),
  deviceName: z.string().nullable(),
  modelId: z.string().nullable(),
  siteId: z.number().int(),
  siteName: z.string(),
  /** The site's IANA time zone: alarm times are read in it. */
  siteTimeZone: z.string(),
  kind: alarmKindSchema,
  /**
   * Which rule: `status:faultCode=3`, `bit:alarmFlags=4`, `threshold:batterySoc<`; silence:
   * `offline` (no telemetry past the limit), `never-connected` (nothing heard since installed, past
   * the limit), `site-offline` (a site's own: every device at it offline or never connected).
   */
  rule: z.string(),
  severity: alarmSeveritySchema,
  message: z.string(),
  /** The value that raised it (a code, a reading); null for offline. */
  value: z.number().nullable(),
  state: alarmStateSchema,
  raisedAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: personSchema,
  note: z.string().nullable(),
  clearedAt: z.string().nullable(),
  transitions: z.array(alarmTransitionSchema),
});
export type Alarm = z.infer<typeof alarmSchema>;
export const alarmPageSchema = pageOf(alarmSchema);

/** `open`: active or acknowledged (the condition still holds). */
export const alarmStateFilterSchema = z.enum([...ALARM_STATES, 'open']);
export type AlarmStateFilter = z.infer<typeof alarmStateFilterSchema>;

/** `GET /monitoring/alarms?state=&siteId=&severity=&serial=&page=&pageSize=`: newest raised first. */
export const alarmsQuerySchema = z.object({
  state: alarmStateFilterSchema.optional(),
  siteId: idParamSchema.optional(),
  severity: alarmSeveritySchema.optional(),
  serial: monitoringSerialSchema.optional(),
  page: pageParamSchema.default(0),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
export type AlarmsQuery = z.infer<typeof alarmsQuerySchema>;

/** `POST /monitoring/alarms/{id}/acknowledge`: who acknowledges says why (1–500 characters). */
export const acknowledgeRequestSchema = z.object({ note: z.string().trim().min(1).max(500) });
export type AcknowledgeRequest = z.infer<typeof acknowledgeRequestSchema>;

/**
 * How a device is doing now, for lists that count devices by state: connected now (`online`), not
 * (`offline`), never heard from and not connected (`never`, a part of offline), with an open
 * alarm (`alarm`).
 */
export const DEVICE_STATES = ['online', 'offline', 'never', 'alarm'] as const;
export const deviceStateSchema = z.enum(DEVICE_STATES);
export type DeviceState = z.infer<typeof deviceStateSchema>;

/** A device with its state: connected now, when it last reported, its open alarms. */
export const deviceStatusSchema = z.object({
  serial: z.string(),
  name: z.string(),
  modelId: z.string(),
  siteId: z.number().int(),
  siteName: z.string(),
  online: z.boolean(),
  lastSeen: z.string().nullable(),
  openAlarms: z.number().int(),
  worstSeverity: alarmSeveritySchema.nullable(),
});
export type DeviceStatus = z.infer<typeof deviceStatusSchema>;
export const deviceStatusPageSchema = pageOf(deviceStatusSchema);

/**
 * Devices by state: every count the screens show of devices in a state comes from one query on
 * the service, so a count and the list it links to agree.
 */
export const deviceCountsSchema = z.object({
  total: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  /** Offline and never heard from. */
  neverConnected: z.number().int(),
  inAlarm: z.number().int(),
});
export type DeviceCounts = z.infer<typeof deviceCountsSchema>;

/** Alarms by state (`open`: active and acknowledged), from one query, as the alarms list counts them. */
export const alarmCountsSchema = z.object({
  active: z.number().int(),
  acknowledged: z.number().int(),
  open: z.number().int(),
  cleared: z.number().int(),
});
export type AlarmCounts = z.infer<typeof alarmCountsSchema>;

/** `GET /monitoring/counts?siteId=`: the caller's devices and alarms by state, at every site or one. */
export const fleetCountsSchema = z.object({ devices: deviceCountsSchema, alarms: alarmCountsSchema });
export type FleetCounts = z.infer<typeof fleetCountsSchema>;
export const countsQuerySchema = z.object({ siteId: idParamSchema.optional() });

/** `GET /monitoring/devices?state=&siteId=&page=&pageSize=`: the devices the caller sees, by site. */
export const deviceStatusQuerySchema = z.object({
  state: deviceStateSchema.optional(),
  siteId: idParamSchema.optional(),
  page: pageParamSchema.default(0),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
export type DeviceStatusQuery = z.infer<typeof deviceStatusQuerySchema>;

/** A site on the overview: its devices by state and today's energy. */
export const overviewSiteSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  devices: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  neverConnected: z.number().int(),
  inAlarm: z.number().int(),
  /** Open alarms of its devices and of the site itself. */
  openAlarms: z.number().int(),
  worstSeverity: alarmSeveritySchema.nullable(),
  energyTodayKwh: z.number(),
});
export type OverviewSite = z.infer<typeof overviewSiteSchema>;

/** How many sites the overview lists; `sitesTotal` says how many the caller has. */
export const OVERVIEW_SITES = 20;
/** How many open alarms the overview lists, newest first. */
export const OVERVIEW_ALARMS = 10;

/**
 * `GET /monitoring/overview`: the caller's fleet now. Devices by state (as {@link fleetCountsSchema}
 * and the lists by state count them); alarms by state and the newest open ones; energy produced
 * today (each site since its own midnight, in its time zone) across the caller's sites; how many
 * sites the caller has (as their sites list counts them); the sites with problems first (most
 * severe open alarm, then alarms, then offline devices), then the rest by name.
 */
export const overviewSchema = z.object({
  devices: deviceCountsSchema,
  alarms: alarmCountsSchema.extend({ newest: z.array(alarmSchema) }),
  energyTodayKwh: z.number(),
  sitesTotal: z.number().int(),
  sites: z.array(overviewSiteSchema),
});
export type Overview = z.infer<typeof overviewSchema>;

/** Why the service refused or marked telemetry (counted, never stored unless said). */
export const TELEMETRY_COUNTS = [
  /** Stored readings. */
  'stored',
  /** Not a telemetry message of the right shape (`{type, data: bytes}`). */
  'malformed',
  'wrong_length',
  'bad_crc',
  /** An opcode other than `0x83` (`Read live values` answered). */
  'wrong_opcode',
  /** Sent on a socket that has not (yet) proved who it is. */
  'unauthenticated',
  /** More than one message a second from one device. */
  'flood',
  /** Sent twice (same device and device time): stored once. */
  'duplicate',
  /** The device's clock was more than 5 minutes ahead: stored at the time received, marked. */
  'clock_ahead',
  /** Older than raw readings are kept. */
  'too_old',
  /** A model without telemetry in the catalogue. */
  'unknown_model',
  /** The service could not store it (the database was away and the queue full). */
  'dropped',
] as const;
export type TelemetryCount = (typeof TELEMETRY_COUNTS)[number];

/** `GET /monitoring/telemetry/counts` (company staff): counts per day, newest day first, 14 days. */
export const telemetryCountsSchema = z.object({
  days: z.array(z.object({ day: z.string(), counts: z.record(z.string(), z.number().int()) })),
});
export type TelemetryCounts = z.infer<typeof telemetryCountsSchema>;
