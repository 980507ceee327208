import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startJob } from '../../server/jobs.ts';
import { installGuard } from './guard.server.ts';
import { staffRoutes } from './routes.server.ts';
import { deleteDeadStaffSessions } from './sessions.server.ts';

export { scopeWhere, staffWhoMay } from './access.server.ts';
export { type AdminRequest, adminRoute, type RateLimit } from './admin-route.server.ts';
export { type Actor, actorOf, COMMAND_LINE, recordAudit } from './audit.server.ts';
export { createStaff } from './enrolment.server.ts';
export { queryScope, type StaffRouteAccess } from './guard.server.ts';
export { staffMembers } from './tables.ts';

/**
 * Staff identity for the back office (decisions 130–132): the guard in front of every
 * `/api/admin` route, the sign-in, enrolment and profile API, staff accounts, roles and the
 * audit log, and the hourly clean-up of ended staff sessions. Register it before any feature's
 * admin routes: the guard sees only routes registered after it.
 */
export const staffPlugin = fp(
  async (app: FastifyInstance) => {
    installGuard(app);
    await app.register(staffRoutes);
    startJob(app, {
      name: 'staff-session-clean-up',
      everyMs: 60 * 60 * 1000,
      run: (db) => deleteDeadStaffSessions(db),
    });
  },
  { name: 'staff', dependencies: ['sessions', 'xsrf'] },
);
