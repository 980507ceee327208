import type { FastifyReply } from 'fastify';
import { jsonAnswer, problemAnswers, XSRF_SECURITY } from '../../../server/openapi.ts';
import type { ZodApp } from '../../../server/types.ts';
import {
  addSlot,
  assertDeliveryAccess,
  changeSlot,
  closeDate,
  createArea,
  listDelivery,
  removeSlot,
  reopenDate,
  setPostalCodes,
  updateArea,
} from './delivery.server.ts';
import {
  areaCreateSchema,
  areaParamsSchema,
  areaRowSchema,
  areaUpdateSchema,
  closeDateSchema,
  closedAnswerSchema,
  closedDateParamsSchema,
  DELIVERY_API,
  deliveryListSchema,
  postalCodesSchema,
  slotBodySchema,
  slotParamsSchema,
} from './delivery-schemas.ts';

const TAG = 'admin';
const API_LIMIT = { max: 600, timeWindow: 60_000 };
const WRITE_LIMIT = { max: 120, timeWindow: 60_000 };
const BODY_LIMIT = 64 * 1024;
const MANAGE = { permission: 'shop.manage' } as const;
const AREAS = `${DELIVERY_API}/areas`;

/** The back office's answers are never kept by a browser or a proxy. */
function noStore(reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
}

/** What every write declares: the permission, the limits and the scope check before the body. */
const write = {
  bodyLimit: BODY_LIMIT,
  config: { staff: MANAGE, rateLimit: WRITE_LIMIT },
  preValidation: assertDeliveryAccess,
} as const;

/**
 * Delivery in the back office (decision 142): areas, postal codes, weekly slots and closed days,
 * with `shop.manage` for the area's site (403 otherwise, before the body is read). A change that
 * would break a booked order's slot is 409 with the dates or the orders, and writes nothing.
 */
export function registerDelivery(app: ZodApp) {
  app.get(
    DELIVERY_API,
    {
      config: { staff: MANAGE, rateLimit: API_LIMIT },
      preValidation: assertDeliveryAccess,
      schema: {
        tags: [TAG],
        summary: 'The delivery areas with their postal codes, weekly slots and closed dates',
        description:
          'Each slot lists its upcoming dates with places sold; closed dates from today on, with the orders booked on each.',
        response: {
          200: jsonAnswer(deliveryListSchema, 'The areas'),
          ...problemAnswers(401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return listDelivery(request);
    },
  );

  app.post(
    AREAS,
    {
      ...write,
      schema: {
        tags: [TAG],
        summary: 'Adds a delivery area to the shop',
        security: XSRF_SECURITY,
        body: areaCreateSchema,
        response: {
          200: jsonAnswer(areaRowSchema, 'The new area'),
          ...problemAnswers(400, 401, 403, 413, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return createArea(request, request.body);
    },
  );

  app.put(
    `${AREAS}/:id`,
    {
      ...write,
      schema: {
        tags: [TAG],
        summary: 'Renames an area or turns it on or off',
        description:
          'An inactive area’s postal codes are not delivered to; orders already placed keep their slot.',
        security: XSRF_SECURITY,
        params: areaParamsSchema,
        body: areaUpdateSchema,
        response: {
          200: jsonAnswer(areaRowSchema, 'The area'),
          ...problemAnswers(400, 401, 403, 404, 413, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return updateArea(request, request.params.id, request.body);
    },
  );

  app.put(
    `${AREAS}/:id/postal-codes`,
    {
      ...write,
      schema: {
        tags: [TAG],
        summary: 'Sets the area’s postal codes',
        description:
          'Codes are kept without spaces, in upper case. A code in another area of the site is 409 naming that area (`taken`), and nothing is written.',
        security: XSRF_SECURITY,
        params: areaParamsSchema,
        body: postalCodesSchema,
        response: {
          200: jsonAnswer(areaRowSchema, 'The area'),
          ...problemAnswers(400, 401, 403, 404, 409, 413, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return setPostalCodes(request, request.params.id, request.body);
    },
  );

  app.post(
    `${AREAS}/:id/slots`,
    {
      ...write,
      schema: {
        tags: [TAG],
        summary: 'Adds a weekly slot to the area',
        description: 'One slot per weekday and start time (409 for a second).',
        security: XSRF_SECURITY,
        params: areaParamsSchema,
        body: slotBodySchema,
        response: {
          200: jsonAnswer(areaRowSchema, 'The area'),
          ...problemAnswers(400, 401, 403, 404, 409, 413, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return addSlot(request, request.params.id, request.body);
    },
  );

  app.put(
    `${AREAS}/:id/slots/:slotId`,
    {
      ...write,
      schema: {
        tags: [TAG],
        summary: 'Changes a weekly slot: capacity, cut-off, or (with no orders booked) its time',
        description:
          'The capacity changes the calendar and every upcoming dated slot together; below the places sold on a date it is 409 (`/problems/slot-booked`: `booked` orders on the `affected` dates) and nothing is written. The weekday, start or end time change only while no upcoming date has orders.',
        security: XSRF_SECURITY,
        params: slotParamsSchema,
        body: slotBodySchema,
        response: {
          200: jsonAnswer(areaRowSchema, 'The area'),
          ...problemAnswers(400, 401, 403, 404, 409, 413, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return changeSlot(request, request.params.id, request.params.slotId, request.body);
    },
  );

  app.delete(
    `${AREAS}/:id/slots/:slotId`,
    {
      ...write,
      schema: {
        tags: [TAG],
        summary: 'Removes a weekly slot',
        description: 'Refused (409 with the dates) while an upcoming date has orders in it.',
        security: XSRF_SECURITY,
        params: slotParamsSchema,
        response: {
          200: jsonAnswer(areaRowSchema, 'The area'),
          ...problemAnswers(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return removeSlot(request, request.params.id, request.params.slotId);
    },
  );

  app.post(
    `${AREAS}/:id/closed-dates`,
    {
      ...write,
      schema: {
        tags: [TAG],
        summary: 'Closes a date of the area (a public holiday)',
        description:
          'With orders booked on the date, 409 (`/problems/orders-on-date`) lists them and nothing is written; sent again with `confirm: true` and those orders’ ids, the date closes and the answer lists the orders to contact. They keep their slot.',
        security: XSRF_SECURITY,
        params: areaParamsSchema,
        body: closeDateSchema,
        response: {
          200: jsonAnswer(closedAnswerSchema, 'The area and the orders on the date'),
          ...problemAnswers(400, 401, 403, 404, 409, 413, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return closeDate(request, request.params.id, request.body);
    },
  );

  app.delete(
    `${AREAS}/:id/closed-dates/:date`,
    {
      ...write,
      schema: {
        tags: [TAG],
        summary: 'Opens a closed date again',
        security: XSRF_SECURITY,
        params: closedDateParamsSchema,
        response: {
          200: jsonAnswer(areaRowSchema, 'The area'),
          ...problemAnswers(400, 401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return reopenDate(request, request.params.id, request.params.date);
    },
  );
}
