import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import pdfmake from 'pdfmake';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import type { ReportData, ReportDevice } from './report-data.ts';

/**
 * The fonts come with the pdfmake package (Roboto, its own files), so building a report reads
 * nothing but them: URLs are refused and local files outside the font folder too.
 */
const FONT_DIR = join(
  dirname(createRequire(import.meta.url).resolve('pdfmake/package.json')),
  'fonts',
  'Roboto',
);
pdfmake.setFonts({
  Roboto: {
    normal: join(FONT_DIR, 'Roboto-Regular.ttf'),
    bold: join(FONT_DIR, 'Roboto-Medium.ttf'),
    italics: join(FONT_DIR, 'Roboto-Italic.ttf'),
    bolditalics: join(FONT_DIR, 'Roboto-MediumItalic.ttf'),
  },
});
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => resolve(path).startsWith(`${FONT_DIR}${sep}`));

/**
 * `2026-03-04 07:05 CST`: a time at the site, in the site's time zone (a report is about the site,
 * read by its owner there), with the zone's short name, so a reader elsewhere knows the clock.
 */
export function reportTime(date: Date, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
}

const reportDay = (date: Date, zone: string) => reportTime(date, zone).slice(0, 10);

const label = (text: string): TableCell => ({ text, style: 'label' });
const person = (who: { name: string; email: string } | null) => (who ? `${who.name} <${who.email}>` : '—');

function deviceSection(device: ReportDevice, zone: string): Content[] {
  const facts: TableCell[][] = [
    [label('Model'), `${device.modelName} (${device.modelId})`],
    [label('Serial number'), device.serial],
    [label('Installed'), reportTime(device.installedAt, zone)],
    [label('Online'), device.online ? 'Yes, connected to the service' : 'No'],
    [label('Template applied'), device.template ?? 'None'],
  ];
  const settings: Content =
    device.settings.length === 0
      ? { text: 'No verified configuration write is recorded for this device.', style: 'note' }
      : {
          table: {
            headerRows: 1,
            widths: ['*', 'auto', 'auto', 'auto'],
            body: [
              [label('Setting'), label('Value'), label('Written by'), label('When')],
              ...device.settings.map((setting): TableCell[] => [
                { text: [{ text: `${setting.group}: `, color: '#555555' }, setting.label] },
                { text: setting.value || '(empty)', bold: true },
                setting.by,
                reportTime(setting.at, zone),
              ]),
            ],
          },
          layout: 'lightHorizontalLines',
          fontSize: 9,
        };
  return [
    {
      // A device's heading never ends a page alone.
      stack: [
        { text: device.name, style: 'device' },
        { table: { widths: [110, '*'], body: facts }, layout: 'noBorders', margin: [0, 0, 0, 6] },
        { text: 'Settings as last written and verified', style: 'subheading' },
      ],
      unbreakable: true,
    },
    settings,
  ];
}

/** The document of a site's commissioning report. */
export function reportDocument(data: ReportData): TDocumentDefinitions {
  const zone = data.site.timeZone;
  const summary: TableCell[][] = [
    [label('Site'), data.site.name],
    [label('Address'), data.site.address],
    [label('Owner'), person(data.owner)],
    [label('Installer'), person(data.installer)],
    [label('Company'), data.company ?? '—'],
    [label('Date'), reportTime(data.date, zone)],
    [label('Time zone'), `${zone}: the times in this report are the site's`],
    [label('Devices'), String(data.devices.length)],
  ];
  return {
    info: {
      title: `Commissioning report: ${data.site.name}`,
      subject: `Commissioning report of site ${data.site.id}, ${reportDay(data.date, zone)}`,
      creator: 'Fleet Manager',
      producer: 'Fleet Manager',
    },
    pageSize: 'A4',
    pageMargins: [40, 50, 40, 50],
    defaultStyle: { font: 'Roboto', fontSize: 10 },
    styles: {
      title: { fontSize: 20, bold: true, margin: [0, 0, 0, 4] },
      siteName: { fontSize: 14, margin: [0, 0, 0, 12] },
      heading: { fontSize: 13, bold: true, margin: [0, 14, 0, 6] },
      device: { fontSize: 12, bold: true, margin: [0, 12, 0, 4] },
      subheading: { fontSize: 10, bold: true, margin: [0, 4, 0, 4] },
      label: { bold: true, color: '#333333' },
      note: { italics: true, color: '#444444' },
    },
    content: [
      { text: 'Commissioning report', style: 'title' },
      { text: data.site.name, style: 'siteName' },
      { table: { widths: [110, '*'], body: summary }, layout: 'noBorders' },
      { text: 'Devices', style: 'heading' },
      ...(data.devices.length === 0
        ? [{ text: 'No devices are installed at this site.', style: 'note' } as Content]
        : data.devices.flatMap((device) => deviceSection(device, zone))),
    ],
    footer: (page, pages) => ({
      text: `${data.site.name} · commissioning report · ${reportDay(data.date, zone)} · page ${page} of ${pages}`,
      alignment: 'center',
      fontSize: 8,
      color: '#555555',
      margin: [40, 20, 40, 0],
    }),
  };
}

/** The report as PDF bytes. */
export function reportPdf(data: ReportData): Promise<Buffer> {
  return pdfmake.createPdf(reportDocument(data)).getBuffer();
}

/** A file name for the report: `commissioning-report-okafor-residence-2026-03-04.pdf`. */
export function reportFileName(data: ReportData): string {
  const slug = data.site.name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60);
  return `commissioning-report-${slug || `site-${data.site.id}`}-${reportDay(data.date, data.site.timeZone)}.pdf`;
}
