import { resolve } from 'node:path';
import pdfmake from 'pdfmake';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import { oneLine } from '../mail/quoted-name.ts';
import type { ReportData, ReportDevice } from './report-data.ts';
import {
  BODY_FONT,
  type Box,
  printable,
  REPORT_FONT_FILES,
  REPORT_FONTS,
  readsRightToLeft,
} from './report-fonts.ts';

/**
 * The fonts come with npm packages (report-fonts.ts), so building a report reads nothing but
 * them: URLs are refused and every other local file too.
 */
pdfmake.setFonts(REPORT_FONTS);
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => REPORT_FONT_FILES.has(resolve(path)));

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
/** Width of the page's text (A4 less the margins), and of a value beside its label (less padding). */
const CONTENT_WIDTH = 595 - 2 * 40;
const LABEL_WIDTH = 110;
const VALUE: Box = { width: CONTENT_WIDTH - LABEL_WIDTH - 16, size: 10 };
/** The settings table's columns for a setting and its value, as wide as they print at most. */
const SETTING: Box = { width: 110, size: 9 };
const SETTING_VALUE: Box = { width: 150, size: 9, bold: true };

/**
 * Free text (a name, a value) in the fonts that have its characters, in the order it reads, and
 * flush right when it reads right to left.
 */
const say = (text: string, box: Box = VALUE) => ({
  text: printable(text, box),
  ...(readsRightToLeft(text) ? { alignment: 'right' as const } : {}),
});
const person = (who: { name: string; email: string } | null) => say(who ? `${who.name} <${who.email}>` : '—');

function deviceSection(device: ReportDevice, zone: string): Content[] {
  const facts: TableCell[][] = [
    [label('Model'), say(`${device.modelName} (${device.modelId})`)],
    [label('Serial number'), say(device.serial)],
    [label('Installed'), reportTime(device.installedAt, zone)],
    [label('Online'), device.online ? 'Yes, connected to the service' : 'No'],
    [label('Template applied'), say(device.template ?? 'None')],
  ];
  const more: Content[] =
    device.moreSettings > 0
      ? [
          {
            text: [
              `${device.moreSettings} more setting${device.moreSettings === 1 ? ' was' : 's were'} written and verified; the device's whole configuration history is at `,
              { text: device.historyUrl, link: device.historyUrl, color: '#1c5fb0' },
            ],
            style: 'note',
            margin: [0, 4, 0, 0],
          },
        ]
      : [];
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
                {
                  text: [
                    { text: printable(`${setting.group}: `), color: '#555555' },
                    say(setting.label, SETTING),
                  ],
                },
                { ...say(setting.value || '(empty)', SETTING_VALUE), bold: true },
                say(setting.by, SETTING),
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
        { ...say(oneLine(device.name), { width: CONTENT_WIDTH, size: 12, bold: true }), style: 'device' },
        { table: { widths: [LABEL_WIDTH, '*'], body: facts }, layout: 'noBorders', margin: [0, 0, 0, 6] },
        { text: 'Settings as last written and verified', style: 'subheading' },
      ],
      unbreakable: true,
    },
    settings,
    ...more,
  ];
}

/** Longest site name the footer of each page prints. */
const FOOTER_NAME = 60;

/** The document of a site's commissioning report. */
export function reportDocument(data: ReportData): TDocumentDefinitions {
  // Names are one line each: a name with line breaks would run into the footer.
  const siteName = oneLine(data.site.name);
  // The footer has room for two lines: a long name is cut there (it is whole on the first page).
  const footerName =
    siteName.length > FOOTER_NAME ? `${siteName.slice(0, FOOTER_NAME - 1).trimEnd()}…` : siteName;
  const zone = data.site.timeZone;
  const summary: TableCell[][] = [
    [label('Site'), say(siteName)],
    [label('Address'), say(data.site.address)],
    [label('Owner'), person(data.owner)],
    [label('Installer'), person(data.installer)],
    [label('Company'), data.company ? say(oneLine(data.company.name)) : '—'],
    ...(data.company?.address ? [[label('Company address'), say(data.company.address)]] : []),
    [label('Date'), reportTime(data.date, zone)],
    [label('Time zone'), `${zone}: the times in this report are the site's`],
    [label('Devices'), String(data.devices.length + data.moreDevices)],
  ];
  return {
    info: {
      title: `Commissioning report: ${siteName}`,
      subject: `Commissioning report of site ${data.site.id}, ${reportDay(data.date, zone)}`,
      creator: 'Fleet Manager',
      producer: 'Fleet Manager',
    },
    pageSize: 'A4',
    pageMargins: [40, 50, 40, 50],
    defaultStyle: { font: BODY_FONT, fontSize: 10 },
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
      ...(data.company?.logo
        ? [{ image: data.company.logo, fit: [160, 60], margin: [0, 0, 0, 8] } as Content]
        : []),
      { text: 'Commissioning report', style: 'title' },
      { ...say(siteName, { width: CONTENT_WIDTH, size: 14 }), style: 'siteName' },
      { table: { widths: [LABEL_WIDTH, '*'], body: summary }, layout: 'noBorders' },
      { text: 'Devices', style: 'heading' },
      ...(data.devices.length === 0
        ? [{ text: 'No devices are installed at this site.', style: 'note' } as Content]
        : data.devices.flatMap((device) => deviceSection(device, zone))),
      ...(data.moreDevices > 0
        ? [
            {
              text: [
                `${data.moreDevices} more device${data.moreDevices === 1 ? ' is' : 's are'} installed at this site; see them all at `,
                { text: data.siteUrl, link: data.siteUrl, color: '#1c5fb0' },
              ],
              style: 'note',
              margin: [0, 12, 0, 0],
            } as Content,
          ]
        : []),
    ],
    footer: (page, pages) => ({
      text: [
        { text: printable(footerName, { width: CONTENT_WIDTH / 2, size: 8 }) },
        ` · commissioning report · ${reportDay(data.date, zone)} · page ${page} of ${pages}`,
      ],
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

/**
 * Whether the report can print an image (a company's logo): laid out alone on a page, as the
 * report would. A file that only looks like a PNG or JPEG is refused here, not when a report is made.
 */
export async function printableImage(dataUrl: string): Promise<boolean> {
  try {
    await pdfmake.createPdf({ content: [{ image: dataUrl, fit: [160, 60] }] }).getBuffer();
    return true;
  } catch {
    return false;
  }
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
