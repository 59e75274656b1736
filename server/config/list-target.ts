import type { Context } from 'hono';
import { requireVisibleUser, type Viewer } from '../access/scope.ts';
import type { ServerContext } from '../context.ts';
import type { AuthVariables } from '../http/guards.ts';
import { readInput } from '../http/validate.ts';
import { idParam } from './params.ts';

/**
 * The `{userId}` of a list call: whose view is listed. The caller may name themself, or a user
 * they may see (an admin anyone); the answer is then limited to what both may see.
 * @throws {ApiError} 400, 403 or 404.
 */
export async function listTarget(
  ctx: ServerContext,
  c: Context<{ Variables: AuthVariables }>,
): Promise<{ caller: Viewer; target: Viewer }> {
  const caller = c.get('principal');
  const userId = readInput(c.req.param('userId'), idParam, 'userId');
  if (userId === caller.id) return { caller, target: caller };
  const user = await requireVisibleUser(ctx.db, caller, userId);
  return { caller, target: { id: user.id, role: user.role } };
}
