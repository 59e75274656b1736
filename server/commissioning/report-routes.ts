import { Hono } from 'hono';
import { z } from 'zod';
import { idParamSchema } from '../../contracts/ids.ts';
import { acceptedSchema } from '../../contracts/users.ts';
import { requireInstallSite, requireSeenSite } from '../access/install-access.ts';
import { hitRateLimit } from '../auth/rate-limit.ts';
import type { ServerContext } from '../context.ts';
import { publicAppUrl } from '../env.ts';
import { ApiError } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { limitChecks } from '../limits/request-limits.ts';
import { oneLine, quotedName } from '../mail/quoted-name.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import type { ProductCatalogue } from './product-catalogue.ts';
import { reportData } from './report-data.ts';
import { reportFileName, reportTime } from './report-pdf.ts';

const siteParams = z.object({ siteId: idParamSchema });

/**
 * A site's commissioning report, mounted at `/fleet`: the PDF for anyone who sees the site, and
 * mailed to the site's owner (with the PDF attached) by its installer or an admin.
 */
export function reportRoutes(
  ctx: ServerContext,
  catalogue: ProductCatalogue,
): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.get(
    '/sites/:siteId/commissioning-report',
    describeRoute({
      summary: 'The commissioning report of a site as a PDF',
      limits: ['reportPerUser', 'reportBuildPerSite'],
      tag: 'installs',
      responses: {
        200: { description: 'The report', contentType: 'application/pdf' },
        404: { description: 'No such site, or one the caller cannot see' },
        429: { description: 'Too many reports read by this person, or built for this site' },
        503: { description: 'The report pool is full (reports_busy); try again in a minute' },
      },
    }),
    validate('param', siteParams),
    async (c) => {
      const principal = c.get('principal');
      const { siteId } = c.req.valid('param');
      await requireSeenSite(db, principal, siteId);
      await hitRateLimit(ctx, limitChecks('report', { reportPerUser: principal.id }));
      const data = await reportData(db, ctx.comms, catalogue, siteId, publicAppUrl(ctx.env));
      const { pdf, date } = await ctx.reports.cache.pdf(siteId, data);
      return c.body(new Uint8Array(pdf), 200, {
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename="${reportFileName({ ...data, date })}"`,
        'cache-control': 'no-store',
      });
    },
  );

  app.post(
    '/sites/:siteId/commissioning-report/send',
    describeRoute({
      summary: "Mail the commissioning report to the site's owner, the PDF attached",
      limits: ['reportMailPerSite', 'reportMailPerUser'],
      tag: 'installs',
      responses: {
        202: { description: 'Queued in the outbox', schema: acceptedSchema },
        403: { description: 'The caller sees the site without the installer role' },
        404: { description: 'No such site, or one the caller cannot see' },
        409: { description: 'The site has no owner (site_has_no_owner)' },
        429: { description: 'Too many reports mailed' },
      },
    }),
    validate('param', siteParams),
    async (c) => {
      const principal = c.get('principal');
      const { siteId } = c.req.valid('param');
      await requireInstallSite(db, principal, siteId);
      const data = await reportData(db, ctx.comms, catalogue, siteId, publicAppUrl(ctx.env));
      if (!data.owner)
        throw new ApiError(409, 'site_has_no_owner', `${data.site.name} has no owner to send the report to`);
      await hitRateLimit(
        ctx,
        limitChecks('report-mail', { reportMailPerSite: siteId, reportMailPerUser: principal.id }),
      );
      const { pdf, date } = await ctx.reports.cache.pdf(siteId, data);
      const sender = quotedName(principal.name);
      await ctx.mailer.queue({
        to: data.owner.email,
        subject: `Commissioning report: ${oneLine(data.site.name)}`,
        body: [
          'Hello,',
          '',
          `${sender} sent you the commissioning report of your site ${quotedName(data.site.name)}, made ${reportTime(date, data.site.timeZone)}.`,
          `It lists the ${data.devices.length} device(s) installed there and the settings written to each.`,
          '',
          'The report is attached as a PDF.',
        ].join('\n'),
        attachments: [
          {
            filename: reportFileName({ ...data, date }),
            contentType: 'application/pdf',
            content: Buffer.from(pdf),
          },
        ],
      });
      return c.json({ message: `The report is on its way to the site's owner, ${data.owner.email}.` }, 202);
    },
  );
  return app;
}
