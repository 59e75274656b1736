import { z } from 'zod';
import { actorOf } from '../../contracts/access-policy.ts';
import { idParamSchema } from '../../contracts/ids.ts';
import { pageParamSchema } from '../../contracts/page.ts';
import { requireVisibleUser, type Viewer } from '../access/scope.ts';
import type { ServerContext } from '../context.ts';

/** The path of a list seen through a user's eyes: `{userId}`. */
export const userListParams = z.object({ userId: idParamSchema });

/** The path of a paged list seen through a user's eyes: `{userId}/{page}`. */
export const userPageParams = z.object({ userId: idParamSchema, page: pageParamSchema });

/**
 * The `{userId}` of a list call: whose view is listed. The caller may name themself, or a user
 * they may see (one who sees everything, anyone); the answer is then limited to what both may see.
 * @throws {ApiError} 403 or 404.
 */
export async function listTarget(
  ctx: ServerContext,
  caller: Viewer,
  userId: number,
): Promise<{ caller: Viewer; target: Viewer }> {
  if (userId === caller.id) return { caller, target: caller };
  const user = await requireVisibleUser(ctx.db, caller, userId);
  return { caller, target: actorOf({ ...user, email: user.main_email }, ctx.env.COMPANY_DOMAIN) };
}
