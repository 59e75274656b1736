import { ApiError } from '../../api/api-error.ts';

/**
 * The `{siteid}` of a URL as a number; anything else is a site that cannot exist, answered as
 * the server answers an unknown one.
 *
 * @throws ApiError 404 for an id that is not a positive whole number
 */
export function parseSiteId(siteid: string): number {
  const id = Number(siteid);
  if (!/^\d{1,9}$/.test(siteid) || id < 1) {
    throw new ApiError(`No site ${siteid}`, {
      status: 404,
      code: 'not_found',
      path: `/fleet/sites/${siteid}`,
    });
  }
  return id;
}

/** Messages for a site that cannot be shown (issue 10: "You don't have access to this site", "No site 123"). */
export const siteErrorMessages = (siteid: string) => ({
  forbidden: "You don't have access to this site",
  notFound: `No site ${siteid}`,
});
