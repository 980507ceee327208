import type { FastifyRequest } from 'fastify';
import { AppError, Forbidden, Invalid, NotFound } from '../../../server/errors.ts';
import { actorOf } from '../../staff/index.server.ts';
import { can } from '../../staff/index.ts';
import { publishWithKind, unpublishWithin } from './schedule.server.ts';
import type { Bulk, BulkRefusal, BulkResult } from './schedule-schemas.ts';
import { type KindAdapter, StaleVersion, scopeOf } from './versions.server.ts';

/**
 * Bulk publishing and unpublishing (decision 167): exactly the items the staff member selected,
 * each named with the newest version they saw, all in one transaction or none. Each item is
 * tried in a savepoint; an item that is stale, outside the grants, gone or cannot be published
 * (its path taken, a picture gone) is named in the answer, and when any is, the whole
 * transaction is rolled back: 409 `/problems/bulk-refused` with `refused` (id and reason), and
 * nothing written. Items outside the grants are found before anything is locked: 403 with
 * `refused`. Each item changed writes its own audit row, marked with the bulk's size.
 */

export class BulkRefusedError extends AppError {
  constructor(refused: { id: number; reason: BulkRefusal }[]) {
    // Outside the grants is 403, whatever else: the staff member may not act on them at all.
    const forbidden = refused.some((r) => r.reason === 'forbidden');
    super(
      forbidden ? 403 : 409,
      forbidden ? 'forbidden' : 'bulk-refused',
      forbidden ? 'Forbidden' : 'Conflict',
      `${refused.length} of the selected items cannot be changed as they are; nothing was changed.`,
      { refused },
    );
  }
}

function refusalOf(err: unknown): BulkRefusal {
  if (err instanceof StaleVersion) return 'stale';
  if (err instanceof Forbidden) return 'forbidden';
  if (err instanceof NotFound) return 'not-found';
  if (err instanceof Invalid) return 'invalid';
  throw err;
}

export async function bulkAction<Doc extends { path: string }>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  body: Bulk,
): Promise<BulkResult> {
  const staff = request.staff;
  if (!staff) throw new Forbidden();
  const db = request.server.db;
  const refused: { id: number; reason: BulkRefusal }[] = [];
  // Grants first, outside the transaction: an item outside them is never locked.
  const items = [...body.items].sort((a, b) => a.id - b.id);
  for (const { id } of items) {
    try {
      const { scope } = await scopeOf(db, adapter, id);
      if (!can(staff.grants, 'content.publish', scope)) refused.push({ id, reason: 'forbidden' });
    } catch (err) {
      refused.push({ id, reason: refusalOf(err) });
    }
  }
  if (refused.length > 0) throw new BulkRefusedError(refused);
  const who = { actor: actorOf(request), staffId: staff.staffId };
  const changes = { bulk: { after: items.length } };
  return db.transaction(async (tx) => {
    const done: BulkResult['items'] = [];
    // In id order, so two bulk actions over the same items lock them in the same order.
    for (const { id, version } of items) {
      try {
        const changed = await tx.transaction((step) =>
          body.action === 'publish'
            ? publishWithKind(step, adapter, id, version, who, {
                newest: true,
                at: new Date(),
                payload: {},
                changes,
              })
            : unpublishWithin(step, adapter, id, who, { version, changes }).then(
                (r) => r.unpublished,
              ),
        );
        done.push({ id, changed });
      } catch (err) {
        refused.push({ id, reason: refusalOf(err) });
      }
    }
    if (refused.length > 0) throw new BulkRefusedError(refused);
    const order = new Map(body.items.map((item, i) => [item.id, i]));
    done.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    return { action: body.action, items: done };
  });
}
